//! How far the log was trimmed and how many bytes it holds (docs/design.md §16):
//! the `retention_progress` row (migration 0009) and its in-memory view.
//!
//! The byte count is kept in memory and moved by every append; the row is a
//! checkpoint of it, written by the trim step and by an append once
//! [`BYTES_CHECKPOINT_OFFSETS`] offsets or [`BYTES_CHECKPOINT_BYTES`] bytes
//! went by since the last one, in that append's transaction. So the row is
//! always consistent with the log, and an open sums only the rows after
//! `counted_through` — never the whole log.

use crate::event::StoredEvent;
use crate::limits::{BYTES_CHECKPOINT_BYTES, BYTES_CHECKPOINT_OFFSETS, COUNT_STEP_ROWS, OPEN_COUNT_ROWS};
use crate::storage::{query_optional, Columns, Storage, StorageError};

/// A row of `retention_progress` (one row, `id = 1`; absent: all zero).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProgressRow {
    /// Highest offset trimmed by retention; `firstOffset` is one more.
    pub trimmed_through: u64,
    /// The bytes below are those of the retained rows up to this offset.
    pub counted_through: u64,
    pub retained_bytes: u64,
    /// Rows deleted by retention and ephemeral expiry over the lifetime.
    pub trimmed_events: u64,
}

const SELECT: &str =
    "SELECT trimmed_through, counted_through, retained_bytes, trimmed_events FROM retention_progress WHERE id = 1";
const UPSERT: &str = "INSERT INTO retention_progress (id, trimmed_through, counted_through, retained_bytes, \
     trimmed_events) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET \
     trimmed_through = excluded.trimmed_through, counted_through = excluded.counted_through, \
     retained_bytes = excluded.retained_bytes, trimmed_events = excluded.trimmed_events";

/// Bytes one stored row counts for (§16 `maxBytes`, stream info `bytes`):
/// the same sum as [`ROW_BYTES`](crate::stream::rows) computes in SQL.
pub fn row_bytes(event: &StoredEvent) -> u64 {
    let optional = event.idempotency_key.as_ref().map_or(0, String::len)
        + event.source.as_ref().map_or(0, |source| source.get().len());
    (event.event_type.len() + event.payload.get().len() + event.metadata.get().len() + optional) as u64
}

impl ProgressRow {
    pub fn load<S: Storage + ?Sized>(storage: &S) -> Result<ProgressRow, StorageError> {
        let Some(row) = query_optional(storage, SELECT, &[])? else {
            return Ok(ProgressRow::default());
        };
        let columns = Columns {
            query: SELECT,
            row: &row,
        };
        let int = |index| columns.int(index).map(|n| n.max(0) as u64);
        Ok(ProgressRow {
            trimmed_through: int(0)?,
            counted_through: int(1)?,
            retained_bytes: int(2)?,
            trimmed_events: int(3)?,
        })
    }

    pub fn save<S: Storage + ?Sized>(&self, storage: &S) -> Result<(), StorageError> {
        storage.execute(
            UPSERT,
            &[
                self.trimmed_through.into(),
                self.counted_through.into(),
                self.retained_bytes.into(),
                self.trimmed_events.into(),
            ],
        )
    }
}

/// The stream's retention bookkeeping in memory: the last saved row and the
/// live byte count (through the head). Its `Default` is an empty log's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    pub saved: ProgressRow,
    /// Bytes of every retained row.
    pub bytes: u64,
    /// The oldest ephemeral row, `(offset, created_at_ms)` (`Some(None)`:
    /// there is none; `None`: not known yet, read when next asked).
    pub oldest_ephemeral: Option<Option<(u64, i64)>>,
    /// When the first retained row was appended, the same way (§16 `maxAgeMs`).
    pub oldest_retained_ms: std::cell::Cell<Option<Option<i64>>>,
    /// Rows `(after, through]` not counted in `bytes` yet: a log older than
    /// the byte count (written before migration 0009) is counted by the trim
    /// steps, [`COUNT_STEP_ROWS`] at a time, never in one open.
    pub uncounted: Option<(u64, u64)>,
    /// The platform's database size when last read, and `bytes` then (the
    /// storage budget reads it again only near the budget or after
    /// [`BUDGET_RECHECK_BYTES`](crate::limits::BUDGET_RECHECK_BYTES) appended).
    pub database_bytes_read: std::cell::Cell<Option<(u64, u64)>>,
    /// When the last trim step that deleted rows ran, and whether it stopped
    /// at its budget with more to trim (then the next is due at once).
    pub last_trim_ms: Option<i64>,
    pub trim_backlog: bool,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            saved: ProgressRow::default(),
            bytes: 0,
            oldest_ephemeral: Some(None),
            oldest_retained_ms: std::cell::Cell::new(None),
            uncounted: None,
            database_bytes_read: std::cell::Cell::new(None),
            last_trim_ms: None,
            trim_backlog: false,
        }
    }
}

const OLDEST_EPHEMERAL: &str =
    "SELECT event_offset, created_at_ms FROM events WHERE ephemeral = 1 ORDER BY event_offset LIMIT 1";

/// The oldest ephemeral row's offset and creation time: one lookup in the
/// partial index `events_ephemeral`.
pub fn read_oldest_ephemeral<S: Storage + ?Sized>(storage: &S) -> Result<Option<(u64, i64)>, StorageError> {
    match storage.query(OLDEST_EPHEMERAL, &[])?.first() {
        Some(row) => {
            let columns = Columns {
                query: OLDEST_EPHEMERAL,
                row,
            };
            Ok(Some((columns.int(0)?.max(0) as u64, columns.int(1)?)))
        }
        None => Ok(None),
    }
}

impl Progress {
    /// The saved row plus the rows appended after it up to `head` (at most a
    /// checkpoint's worth and one batch; a longer tail is left to the trim
    /// steps, [`Progress::uncounted`]).
    pub fn open<S: Storage + ?Sized>(storage: &S, head: u64) -> Result<Progress, StorageError> {
        let saved = ProgressRow::load(storage)?;
        let mut progress = Progress {
            saved,
            bytes: saved.retained_bytes,
            oldest_ephemeral: Some(read_oldest_ephemeral(storage)?),
            oldest_retained_ms: std::cell::Cell::new(None),
            uncounted: (head > saved.counted_through).then_some((saved.counted_through, head)),
            database_bytes_read: std::cell::Cell::new(None),
            last_trim_ms: None,
            trim_backlog: false,
        };
        if head.saturating_sub(saved.counted_through) <= OPEN_COUNT_ROWS {
            progress.count_step(storage)?;
        }
        Ok(progress)
    }

    /// Counts the next [`COUNT_STEP_ROWS`] offsets of [`Progress::uncounted`];
    /// whether any remain.
    pub fn count_step<S: Storage + ?Sized>(&mut self, storage: &S) -> Result<bool, StorageError> {
        let Some((after, through)) = self.uncounted else {
            return Ok(false);
        };
        let upto = through.min(after.saturating_add(COUNT_STEP_ROWS));
        let sql = format!(
            "SELECT COALESCE(SUM({}), 0) FROM events WHERE event_offset > ? AND event_offset <= ?",
            crate::stream::rows::ROW_BYTES
        );
        let counted = match storage.query(&sql, &[after.into(), upto.into()])?.first() {
            Some(row) => Columns { query: &sql, row }.int(0)?.max(0) as u64,
            None => 0,
        };
        self.bytes = self.bytes.saturating_add(counted);
        self.uncounted = (upto < through).then_some((upto, through));
        Ok(self.uncounted.is_some())
    }

    /// `firstOffset` (§16): the lowest offset a read may still ask for.
    pub fn first_offset(&self) -> u64 {
        self.saved.trimmed_through + 1
    }

    /// Accounts for rows an append committed (after its commit).
    pub fn appended(&mut self, events: &[&StoredEvent], saved: Option<ProgressRow>) {
        self.bytes = self
            .bytes
            .saturating_add(events.iter().map(|event| row_bytes(event)).sum::<u64>());
        if let Some(row) = saved {
            self.saved = row;
        }
        if self.oldest_retained_ms.get() == Some(None) {
            // Nothing below the old head: the old head may be now.
            self.oldest_retained_ms.set(None);
        }
        if self.oldest_ephemeral == Some(None) {
            if let Some(first) = events.iter().find(|event| event.ephemeral) {
                self.oldest_ephemeral = Some(Some((first.offset, first.created_at_ms)));
            }
        }
    }

    /// The row to save with an append that brings the head to `head` and
    /// adds `added` bytes, when a checkpoint is due.
    pub fn checkpoint_due(&self, head: u64, added: u64) -> Option<ProgressRow> {
        if self.uncounted.is_some() {
            // Saved only once the count is whole.
            return None;
        }
        let bytes = self.bytes.saturating_add(added);
        let offsets_since = head.saturating_sub(self.saved.counted_through);
        let bytes_since = bytes.abs_diff(self.saved.retained_bytes);
        (offsets_since >= BYTES_CHECKPOINT_OFFSETS || bytes_since >= BYTES_CHECKPOINT_BYTES).then_some(ProgressRow {
            counted_through: head,
            retained_bytes: bytes,
            ..self.saved
        })
    }
}
