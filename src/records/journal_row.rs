//! A row of `delivery_journal` (docs/design.md §13): one offset an itx-call or
//! webhook-post subscription delivered or dead-lettered, and under which
//! delivery id, so an invalidation can be retracted.
//!
//! Columns (migration 0006; persisted, so must be kept stable):
//! `subscription_key`, `event_offset`, `delivery_id`,
//! `retraction_dead_lettered`. The record is what a retraction needs:
//! `(event_offset, delivery_id)`.

use super::columns::Named;
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

    #[test]
    fn s13_list_names_the_columns_in_order() {
        let names: Vec<&str> = LIST.split(',').map(str::trim).collect();
        assert_eq!(names, COLUMNS.to_vec());
    }
}
