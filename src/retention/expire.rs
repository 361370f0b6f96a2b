//! Ephemeral rows (docs/design.md §3 rule 5) are kept at most an hour, whatever
//! the retention (§16): a bounded step deletes the oldest of them, never the
//! head row (the head is read from the log).

use super::progress::ProgressRow;
use crate::limits::{EPHEMERAL_RETENTION_MS, EXPIRE_STEP_ROWS};
use crate::storage::{Columns, Storage, StorageError};
use crate::stream::rows::ROW_BYTES;
use crate::stream::Stream;

impl<S: Storage> Stream<S> {
    /// Deletes ephemeral rows older than an hour (§16), at most
    /// [`EXPIRE_STEP_ROWS`] of them, oldest first; how many.
    pub(super) fn expire_ephemeral(&mut self, now_ms: i64) -> Result<u64, StorageError> {
        let cutoff = now_ms.saturating_sub(EPHEMERAL_RETENTION_MS);
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        if self
            .oldest_ephemeral()?
            .is_none_or(|(offset, created_at_ms)| offset >= head || created_at_ms >= cutoff)
        {
            return Ok(0);
        }
        // Never the head row: the head is read from the log (§3).
        let sql = format!(
            "SELECT event_offset, created_at_ms, {ROW_BYTES} FROM events WHERE ephemeral = 1 \
             AND event_offset < ? ORDER BY event_offset LIMIT +?"
        );
        let found = self.storage.query(&sql, &[head.into(), EXPIRE_STEP_ROWS.into()])?;
        let (mut through, mut rows, mut bytes) = (0u64, 0u64, 0u64);
        for row in &found {
            let columns = Columns { query: &sql, row };
            if columns.int(1)? >= cutoff {
                break;
            }
            through = columns.int(0)?.max(0) as u64;
            rows += 1;
            bytes = bytes.saturating_add(columns.int(2)?.max(0) as u64);
        }
        if rows == 0 {
            // The cached row was gone (a trim deleted it): learn the real
            // oldest, never "unknown", or expiry stops being scheduled.
            self.retention.oldest_ephemeral = Some(super::progress::read_oldest_ephemeral(&self.storage)?);
            return Ok(0);
        }
        let progress = ProgressRow {
            counted_through: head,
            retained_bytes: self.retention.bytes.saturating_sub(bytes),
            trimmed_events: self.retention.saved.trimmed_events.saturating_add(rows),
            ..self.retention.saved
        };
        self.storage.atomically(&mut || {
            self.storage.execute(
                "DELETE FROM events WHERE ephemeral = 1 AND event_offset <= ?",
                &[through.into()],
            )?;
            progress.save(&self.storage)
        })?;
        self.forget_rows(progress, rows)?;
        Ok(rows)
    }

    /// The oldest ephemeral row (read once, then kept).
    fn oldest_ephemeral(&mut self) -> Result<Option<(u64, i64)>, StorageError> {
        if let Some(known) = self.retention.oldest_ephemeral {
            return Ok(known);
        }
        let oldest = super::progress::read_oldest_ephemeral(&self.storage)?;
        self.retention.oldest_ephemeral = Some(oldest);
        Ok(oldest)
    }
}
