//! A row of `delivery_journal` (docs/design.md §13): one offset an itx-call or
//! webhook-post subscription delivered or dead-lettered, and under which
//! delivery id, so an invalidation can be retracted.
//!
//! Columns (migration 0006; persisted, so must be kept stable):
//! `subscription_key`, `event_offset`, `delivery_id`,
//! `retraction_dead_lettered`. Stored `WITHOUT ROWID` since migration 0017:
//! one b-tree, keyed by `(subscription_key, event_offset)`. The record is what a retraction needs:
//! `(event_offset, delivery_id)`.

use super::columns::Named;
use crate::storage::Columns;
use crate::storage::{SqlValue, StorageError};

/// Journals one delivery of a key when its offset is not journaled yet;
/// writes no row when the offset was there (the storage's count of rows
/// written tells which: no `RETURNING`, whose rows a Durable Object hands
/// back across the instance's boundary).
pub const INSERT_NEW: &str =
    "INSERT INTO delivery_journal (subscription_key, event_offset, delivery_id) VALUES (?, ?, ?) \
     ON CONFLICT (subscription_key, event_offset) DO NOTHING";

/// Journals an offset again (a new run delivered it again): the new id, the
/// mark cleared. Parameters: [`Journaled::encode_again`].
pub const REJOURNAL: &str = "UPDATE delivery_journal SET delivery_id = ?, retraction_dead_lettered = 0 \
     WHERE subscription_key = ? AND event_offset = ?";

/// Deletes a key's oldest journal rows (pruning to its depth, §13): every
/// row up to its `n`-th oldest offset, or every row when it holds fewer
/// than `n`; returns the offsets deleted. One scalar subquery steps over
/// only those rows (an `IN` list of them would be built in a temporary
/// table first). Parameters: [`prune_params`].
pub const PRUNE_OLDEST: &str = "DELETE FROM delivery_journal WHERE subscription_key = ?1 AND event_offset <= \
     COALESCE((SELECT event_offset FROM delivery_journal WHERE subscription_key = ?1 \
     ORDER BY event_offset LIMIT 1 OFFSET ?2), ?3) RETURNING event_offset";

/// A key's oldest journaled offsets, oldest first, at most `limit`: what a
/// prune keeps to delete through without reading again
/// (`delivery/journal_heads.rs`). Parameters: `key`, `limit`.
pub const SELECT_OLDEST: &str =
    "SELECT event_offset FROM delivery_journal WHERE subscription_key = ? ORDER BY event_offset LIMIT +?";

/// The offsets [`SELECT_OLDEST`] answered, in its order.
pub fn oldest_offsets(rows: &[crate::storage::Row]) -> Result<Vec<u64>, StorageError> {
    rows.iter()
        .map(|row| {
            Columns {
                query: SELECT_OLDEST,
                row,
            }
            .int(0)
            .map(|offset| offset.max(0) as u64)
        })
        .collect()
}

/// Deletes a key's journal rows up to an offset, inclusive: a prune whose
/// bound is known (no subquery over the same table and no `RETURNING`, each
/// of which SQLite answers with a temporary b-tree). Parameters: `key`,
/// the offset.
pub const DELETE_THROUGH: &str = "DELETE FROM delivery_journal WHERE subscription_key = ? AND event_offset <= ?";

/// Parameters of [`PRUNE_OLDEST`]: `key`'s oldest `n` rows (`n` ≥ 1).
pub fn prune_params(key: &str, n: u64) -> [SqlValue; 3] {
    [
        key.into(),
        n.saturating_sub(1).into(),
        crate::limits::MAX_SAFE_INTEGER.into(),
    ]
}

/// The columns [`Journaled::decode`] reads, in order.
pub const COLUMNS: [&str; 2] = ["event_offset", "delivery_id"];

/// [`COLUMNS`] as a select list (checked by a test).
pub const LIST: &str = "event_offset, delivery_id";

/// One journaled delivery: `(offset, deliveryId)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Journaled {
    pub offset: u64,
    pub delivery_id: String,
}

impl Journaled {
    /// Parameters of [`INSERT_NEW`] for `key`.
    pub fn encode(&self, key: &str) -> [SqlValue; 3] {
        [key.into(), self.offset.into(), self.delivery_id.as_str().into()]
    }

    /// Parameters of [`REJOURNAL`] for `key`.
    pub fn encode_again(&self, key: &str) -> [SqlValue; 3] {
        [self.delivery_id.as_str().into(), key.into(), self.offset.into()]
    }

    /// Decodes one row selecting [`LIST`].
    pub fn decode(query: &str, row: &[SqlValue]) -> Result<Journaled, StorageError> {
        let named = Named::new(query, row, &COLUMNS);
        Ok(Journaled {
            offset: named.count("event_offset")?,
            delivery_id: named.text("delivery_id")?,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn s13_journal_row_round_trips(offset in 0u64..(1 << 53), delivery_id in "dlv_[0-9a-f]{32}") {
            let entry = Journaled { offset, delivery_id };
            let row: Vec<SqlValue> = entry.encode("k").iter().skip(1).cloned().collect();
            prop_assert_eq!(Journaled::decode(LIST, &row), Ok(entry));
        }
    }

    /// A migrated stream's journal holding `offsets` of key "k" and one row of "other".
    fn journal_of(offsets: &[u64]) -> crate::storage::rusqlite_driver::RusqliteStorage {
        use crate::storage::Storage;
        let storage = crate::storage::rusqlite_driver::RusqliteStorage::in_memory().unwrap();
        crate::schema::migrate(&storage).unwrap();
        for (key, offset) in offsets.iter().map(|offset| ("k", *offset)).chain([("other", 1)]) {
            let entry = Journaled {
                offset,
                delivery_id: format!("dlv_{offset}"),
            };
            storage.execute(INSERT_NEW, &entry.encode(key)).unwrap();
        }
        storage
    }

    fn offsets_of(storage: &crate::storage::rusqlite_driver::RusqliteStorage, key: &str) -> Vec<u64> {
        use crate::storage::Storage;
        let rows = storage
            .query(
                "SELECT event_offset FROM delivery_journal WHERE subscription_key = ? ORDER BY event_offset",
                &[key.into()],
            )
            .unwrap();
        rows.iter()
            .map(|row| Journaled::decode(LIST, &[row[0].clone(), "x".into()]).unwrap().offset)
            .collect()
    }

    #[test]
    fn s13_pruning_deletes_exactly_the_oldest_rows_of_the_key() {
        use crate::storage::Storage;
        let storage = journal_of(&[3, 9, 4, 12, 7]);
        let deleted = storage.query(PRUNE_OLDEST, &prune_params("k", 2)).unwrap();
        let mut deleted: Vec<SqlValue> = deleted.into_iter().flatten().collect();
        deleted.sort_by_key(|value| format!("{value:?}"));
        assert_eq!(deleted, vec![SqlValue::Integer(3), SqlValue::Integer(4)]);
        assert_eq!(offsets_of(&storage, "k"), vec![7, 9, 12]);
        assert_eq!(offsets_of(&storage, "other"), vec![1], "another key's rows stay");
        // One more: the oldest left.
        assert_eq!(
            storage.query(PRUNE_OLDEST, &prune_params("k", 1)).unwrap(),
            vec![vec![SqlValue::Integer(7)]]
        );
        assert_eq!(offsets_of(&storage, "k"), vec![9, 12]);
    }

    #[test]
    fn s13_the_oldest_offsets_then_a_delete_through_one_of_them() {
        use crate::storage::Storage;
        let storage = journal_of(&[3, 9, 4, 12, 7]);
        let oldest = storage.query(SELECT_OLDEST, &["k".into(), 3u64.into()]).unwrap();
        assert_eq!(oldest_offsets(&oldest).unwrap(), vec![3, 4, 7]);
        let before = storage.rows_written();
        storage.execute(DELETE_THROUGH, &["k".into(), 4u64.into()]).unwrap();
        assert_eq!(storage.rows_written() - before, 2, "the count a prune checks");
        assert_eq!(offsets_of(&storage, "k"), vec![7, 9, 12]);
        assert_eq!(offsets_of(&storage, "other"), vec![1], "another key's rows stay");
    }

    #[test]
    fn s13_pruning_more_rows_than_the_key_holds_deletes_them_all() {
        use crate::storage::Storage;
        let storage = journal_of(&[5, 6]);
        assert_eq!(storage.query(PRUNE_OLDEST, &prune_params("k", 3)).unwrap().len(), 2);
        assert_eq!(offsets_of(&storage, "k"), Vec::<u64>::new());
        assert_eq!(offsets_of(&storage, "other"), vec![1]);
        assert_eq!(
            storage.query(PRUNE_OLDEST, &prune_params("k", 1)).unwrap(),
            Vec::<Vec<SqlValue>>::new()
        );
    }

    #[test]
    fn s13_list_names_the_columns_in_order() {
        let names: Vec<&str> = LIST.split(',').map(str::trim).collect();
        assert_eq!(names, COLUMNS.to_vec());
    }
}
