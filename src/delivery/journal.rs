//! The delivery journal and gate state (docs/design.md §13), as storage
//! operations of one stream: what each itx-call and webhook-post
//! subscription delivered or dead-lettered (so an invalidation can be
//! retracted), and the hits a threshold gate holds.

use crate::invalidation::{Invalidated, Invalidation};
use crate::limits::{JOURNAL_HEAD_ROWS, JOURNAL_PAGE_ROWS, MAX_JOURNAL_PAGES};
use crate::records::journal_row;
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};
use crate::stream::Stream;

/// One journaled delivery: a typed record (`records/journal_row.rs`).
pub use crate::records::Journaled;

/// A hit a threshold gate holds: a typed record (`records/gate_hit.rs`).
pub use crate::records::GateHit;

/// A subscription's journal after a write (§13): the rows it holds and the
/// highest offset the write pruned (0: none), for its runtime row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JournalCount {
    pub rows: u64,
    pub pruned_through: u64,
}

impl JournalCount {
    /// The `SET` clause recording a count in `subscription_runtime`; binds
    /// `rows` then `pruned_through`.
    pub const ASSIGN: &'static str = "journal_rows = ?, journal_pruned_through = MAX(journal_pruned_through, ?)";
}

impl<S: Storage> Stream<S> {
    /// Journals `entries` of `key` and prunes it to `depth` rows (§13).
    /// `known_rows` is the runtime row's count ([`RuntimeRow::journal_rows`](crate::schema::RuntimeRow::journal_rows));
    /// the answer is the count after the write, and how far pruning reached,
    /// for the caller to record in the same write ([`JournalCount::ASSIGN`]).
    /// Call before the cursor passes them.
    pub(crate) fn journal_write(
        &self,
        key: &str,
        entries: &[Journaled],
        depth: u64,
        known_rows: Option<u64>,
    ) -> Result<JournalCount, StorageError> {
        let mut inserted = 0u64;
        for entry in entries {
            let before = self.storage.rows_written();
            self.execute_beside_runtime_rows(journal_row::INSERT_NEW, &entry.encode(key))?;
            if self.storage.rows_written() == before {
                self.execute_beside_runtime_rows(journal_row::REJOURNAL, &entry.encode_again(key))?;
            } else {
                inserted += 1;
                self.memory.journal_heads.journaled(key, entry.offset);
            }
        }
        let rows = match known_rows {
            Some(rows) => rows.saturating_add(inserted),
            None => self.journal_summary(key).0,
        };
        if rows <= depth {
            return Ok(JournalCount {
                rows,
                pruned_through: 0,
            });
        }
        self.journal_prune(key, rows, rows - depth)
    }

    /// Deletes the oldest `excess` of `key`'s `rows` journal rows: through
    /// the `excess`-th oldest offset, kept from an earlier read
    /// ([`JournalHeads`](super::journal_heads::JournalHeads)) or read now
    /// with the next few. A prune of more rows than are kept at once finds
    /// and deletes them in one statement.
    fn journal_prune(&self, key: &str, rows: u64, excess: u64) -> Result<JournalCount, StorageError> {
        if excess > JOURNAL_HEAD_ROWS {
            self.memory.journal_heads.forget(key);
            return self.journal_prune_found(key, rows, excess);
        }
        let heads = &self.memory.journal_heads;
        if heads.nth(key, excess).is_none() {
            let oldest = self
                .storage
                .query(journal_row::SELECT_OLDEST, &[key.into(), JOURNAL_HEAD_ROWS.into()])?;
            heads.read(key, journal_row::oldest_offsets(&oldest)?);
        } else {
            self.check_journal_heads(key)?;
        }
        // Fewer rows than the count says: every one of them goes.
        let (through, expected) = match heads.nth(key, excess) {
            Some(through) => (through, excess),
            None => match heads
                .kept(key)
                .and_then(|kept| kept.last().copied().map(|last| (last, kept.len())))
            {
                Some((last, held)) => (last, held as u64),
                None => {
                    return Ok(JournalCount {
                        rows: 0,
                        pruned_through: 0,
                    })
                }
            },
        };
        let before = self.storage.rows_written();
        self.execute_beside_runtime_rows(journal_row::DELETE_THROUGH, &[key.into(), through.into()])?;
        let deleted = self.storage.rows_written().saturating_sub(before);
        if deleted == expected {
            heads.pruned(key, deleted);
            return Ok(JournalCount {
                rows: rows.saturating_sub(deleted),
                pruned_through: through,
            });
        }
        // What was kept was not the journal's oldest: count it again, and
        // prune what is still beyond the depth as it is found.
        heads.forget(key);
        let pruned_through = if deleted > 0 { through } else { 0 };
        let left = self.journal_summary(key).0;
        let depth = rows.saturating_sub(excess);
        if left <= depth {
            return Ok(JournalCount {
                rows: left,
                pruned_through,
            });
        }
        let found = self.journal_prune_found(key, left, left - depth)?;
        Ok(JournalCount {
            rows: found.rows,
            pruned_through: found.pruned_through.max(pruned_through),
        })
    }

    /// The tests' check that the heads kept are `key`'s oldest offsets.
    fn check_journal_heads(&self, key: &str) -> Result<(), StorageError> {
        let Some(kept) = self.memory.journal_heads.kept(key) else {
            return Ok(());
        };
        let Some(stored) = self
            .storage
            .check_read(journal_row::SELECT_OLDEST, &[key.into(), (kept.len() as u64).into()])
        else {
            return Ok(());
        };
        let stored = journal_row::oldest_offsets(&stored?)?;
        if stored != kept {
            return Err(StorageError::Sql(format!(
                "journal heads of '{key}' kept in memory diverged from storage: kept {kept:?}, stored {stored:?}"
            )));
        }
        Ok(())
    }

    /// Deletes the oldest `excess` of `key`'s `rows` journal rows, found by
    /// stepping over only those rows (never over the whole depth), and hands
    /// back the offsets deleted.
    fn journal_prune_found(&self, key: &str, rows: u64, excess: u64) -> Result<JournalCount, StorageError> {
        let prune = journal_row::PRUNE_OLDEST;
        let deleted = self.write_beside_runtime_rows(prune, &journal_row::prune_params(key, excess))?;
        let mut pruned_through = 0;
        for row in &deleted {
            let offset = Columns { query: prune, row }.int(0)?.max(0) as u64;
            pruned_through = pruned_through.max(offset);
        }
        Ok(JournalCount {
            rows: rows.saturating_sub(deleted.len() as u64),
            pruned_through,
        })
    }

    /// Records `count` in `key`'s runtime row (for a caller with no statement
    /// of its own to carry it).
    pub(crate) fn journal_count_write(&self, key: &str, count: JournalCount) -> Result<(), StorageError> {
        self.storage.execute(
            &format!(
                "UPDATE subscription_runtime SET {} WHERE subscription_key = ?",
                JournalCount::ASSIGN
            ),
            &[count.rows.into(), count.pruned_through.into(), key.into()],
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
             ORDER BY event_offset LIMIT +?",
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
        self.memory.journal_heads.forget(key);
        for offset in offsets {
            self.storage.execute(
                "DELETE FROM delivery_journal WHERE subscription_key = ? AND event_offset = ?",
                &[key.into(), (*offset).into()],
            )?;
        }
        // The count is stale: the next journal write counts again.
        self.storage.execute(
            "UPDATE subscription_runtime SET journal_rows = NULL WHERE subscription_key = ?",
            &[key.into()],
        )
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
