//! The delivery journal and gate state (docs/design.md §13), as storage
//! operations of one stream: what each itx-call and webhook-post
//! subscription delivered or dead-lettered (so an invalidation can be
//! retracted), and the hits a threshold gate holds.

use crate::invalidation::{Invalidated, Invalidation};
use crate::limits::{JOURNAL_PAGE_ROWS, MAX_JOURNAL_PAGES};
use crate::records::journal_row;
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};
use crate::stream::Stream;

/// One journaled delivery: a typed record (`records/journal_row.rs`).
pub use crate::records::Journaled;

/// A hit a threshold gate holds: a typed record (`records/gate_hit.rs`).
pub use crate::records::GateHit;

impl<S: Storage> Stream<S> {
    /// Journals `entries` of `key` and prunes it to `depth` rows, recording
    /// how far pruning reached (§13). Call before the cursor passes them.
    pub(crate) fn journal_write(&self, key: &str, entries: &[Journaled], depth: u64) -> Result<(), StorageError> {
        for entry in entries {
            self.storage.execute(journal_row::UPSERT, &entry.encode(key))?;
        }
        let boundary = "SELECT event_offset FROM delivery_journal WHERE subscription_key = ? \
                        ORDER BY event_offset DESC LIMIT 1 OFFSET ?";
        let Some(row) = query_optional(&self.storage, boundary, &[key.into(), depth.into()])? else {
            return Ok(());
        };
        let pruned_through = Columns {
            query: boundary,
            row: &row,
        }
        .int(0)?
        .max(0) as u64;
        self.storage.execute(
            "DELETE FROM delivery_journal WHERE subscription_key = ? AND event_offset <= ?",
            &[key.into(), pruned_through.into()],
        )?;
        self.storage.execute(
            "UPDATE subscription_runtime SET journal_pruned_through = MAX(journal_pruned_through, ?) \
             WHERE subscription_key = ?",
            &[pruned_through.into(), key.into()],
        )
    }

    /// Journaled deliveries of `key` that `invalidation` names and that
    /// still need a retraction, in offset order, at most `limit`.
    pub(crate) fn journal_to_retract(
        &self,
        key: &str,
        invalidation: &Invalidation,
        limit: usize,
    ) -> Result<Vec<Journaled>, StorageError> {
        let sql = format!(
            "SELECT {} FROM delivery_journal WHERE subscription_key = ? \
             AND event_offset >= ? AND event_offset < ? AND retraction_dead_lettered = 0 \
             ORDER BY event_offset LIMIT ?",
            journal_row::LIST
        );
        let mut found = Vec::new();
        let mut from = invalidation.lowest();
        // Each page moves `from` past what it read; the journal holds at most
        // its depth of rows, so the pages are bounded.
        for _page in 0..MAX_JOURNAL_PAGES {
            let rows = self.storage.query(
                &sql,
                &[
                    key.into(),
                    from.into(),
                    invalidation.at.into(),
                    JOURNAL_PAGE_ROWS.into(),
                ],
            )?;
            let full = rows.len() as u64 == JOURNAL_PAGE_ROWS;
            for row in &rows {
                let entry = Journaled::decode(&sql, row)?;
                from = entry.offset + 1;
                if invalidation.covers(entry.offset) {
                    found.push(entry);
                    if found.len() >= limit {
                        return Ok(found);
                    }
                }
            }
            if !full || matches!(invalidation.invalidated, Invalidated::After(_)) {
                return Ok(found);
            }
        }
        Ok(found)
    }

    /// Forgets delivered retractions (§13).
    pub(crate) fn journal_forget(&self, key: &str, offsets: &[u64]) -> Result<(), StorageError> {
        for offset in offsets {
            self.storage.execute(
                "DELETE FROM delivery_journal WHERE subscription_key = ? AND event_offset = ?",
                &[key.into(), (*offset).into()],
            )?;
        }
        Ok(())
    }

    /// Keeps dead-lettered retractions' rows, marked so they are not sent again.
    pub(crate) fn journal_mark_dead_lettered(&self, key: &str, offsets: &[u64]) -> Result<(), StorageError> {
        for offset in offsets {
            self.storage.execute(
                "UPDATE delivery_journal SET retraction_dead_lettered = 1 WHERE subscription_key = ? AND event_offset = ?",
                &[key.into(), (*offset).into()],
            )?;
        }
        Ok(())
    }

    /// `(rows, oldest retained offset)` of `key`'s journal, for the card.
    pub(crate) fn journal_summary(&self, key: &str) -> (u64, Option<u64>) {
        let sql = "SELECT COUNT(*), MIN(event_offset) FROM delivery_journal WHERE subscription_key = ?";
        let Ok(Some(row)) = query_optional(&self.storage, sql, &[key.into()]) else {
            return (0, None);
        };
        let columns = Columns { query: sql, row: &row };
        let count = columns.int(0).map_or(0, |count| count.max(0) as u64);
        let oldest = match row.get(1) {
            Some(SqlValue::Integer(offset)) => Some((*offset).max(0) as u64),
            _ => None,
        };
        (count, oldest)
    }

    /// Releases the hits a completed digest delivered or dead-lettered
    /// (every held hit at or before its position, §13).
    pub(crate) fn gate_release_through(&self, key: &str, through: u64) -> Result<(), StorageError> {
        self.storage.execute(
            "DELETE FROM gate_hits WHERE subscription_key = ? AND event_offset <= ?",
            &[key.into(), through.into()],
        )
    }

    /// Anchors a maxOnce gate's window (§13): called when a delivery succeeds.
    pub(crate) fn gate_anchor(&self, key: &str, at_ms: i64) -> Result<(), StorageError> {
        self.storage.execute(
            "UPDATE subscription_runtime SET gate_anchor_ms = ? WHERE subscription_key = ?",
            &[SqlValue::Integer(at_ms), key.into()],
        )
    }
}
