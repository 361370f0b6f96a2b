//! When the alarm runs a trim step (docs/design.md §16): decided from memory —
//! the head, the trim point, the byte count and two cached creation times —
//! so an append that passes no limit costs nothing here. A limit passed by
//! its slack is due (at most one new round a second); the floor is read only
//! then, and a log the floor pins schedules nothing, so a stuck subscription
//! never makes the alarm spin.

use super::trim::ANY_RECORDED_SEND;
use crate::limits::{EPHEMERAL_RETENTION_MS, TRIM_INTERVAL_MS, TRIM_SLACK_DIVISOR};
use crate::storage::{Columns, Storage, StorageError};
use crate::stream::Stream;

/// The most bytes one `trimmed` fact takes (a 256-byte key twice, in its
/// payload and its idempotency key, plus the rest).
const FACT_BYTES: u64 = 1024;

/// How far past a limit trimming waits (a sixteenth of it).
fn slack(limit: u64, least: u64) -> u64 {
    (limit / TRIM_SLACK_DIVISOR).max(least)
}

impl<S: Storage> Stream<S> {
    /// Whether a trim step is due at `now_ms` (the alarm runs one only then).
    pub fn trim_due(&self, now_ms: i64) -> Result<bool, StorageError> {
        Ok(self.retention_due_at()?.is_some_and(|at| at <= now_ms))
    }

    /// When the alarm should next run a trim step (§16), `i64::MIN` for now:
    /// past a limit by its slack with something the floor lets go, or when
    /// the oldest row or ephemeral row ages out. From memory, except the
    /// floor (read only once a limit is passed, counting every recorded send
    /// as in flight: its end schedules the alarm again).
    pub fn retention_due_at(&self) -> Result<Option<i64>, StorageError> {
        let Some(head) = self.lifetime.as_ref().map(|meta| meta.head) else {
            return Ok(None);
        };
        if self.retention.uncounted.is_some() {
            return Ok(Some(i64::MIN));
        }
        // The head row never expires: an ephemeral head waits for the next append.
        let ephemeral = self
            .retention
            .oldest_ephemeral
            .flatten()
            .filter(|(offset, _)| *offset < head)
            .map(|(_, oldest)| oldest + EPHEMERAL_RETENTION_MS + EPHEMERAL_RETENTION_MS / TRIM_SLACK_DIVISOR as i64);
        let Some(retention) = self.state.retention.as_ref() else {
            return Ok(ephemeral);
        };
        let trimmed = self.retention.saved.trimmed_through;
        // A step may append one `trimmed` fact per subscription: the slack
        // holds them, so the facts of one step never make the next one due.
        let facts = self.state.subscriptions.outbound.by_key.len() as u64 + 1;
        let over_count = retention
            .max_events
            .is_some_and(|max| head.saturating_sub(trimmed) > max.saturating_add(slack(max, facts)));
        let over_bytes = retention
            .max_bytes
            .is_some_and(|max| self.retention.bytes > max.saturating_add(slack(max, FACT_BYTES.saturating_mul(facts))));
        let aged = match retention.max_age_ms {
            Some(max) => self.oldest_retained_ms()?.map(|oldest| {
                oldest
                    .saturating_add(max as i64)
                    .saturating_add(slack(max, 1000) as i64)
            }),
            None => None,
        };
        let round_due = match self.retention.last_trim_ms {
            Some(last) if !self.retention.trim_backlog => last.saturating_add(TRIM_INTERVAL_MS),
            _ => i64::MIN,
        };
        let limit_due = if over_count || over_bytes {
            Some(round_due)
        } else {
            aged
        };
        let limit_due = match limit_due {
            Some(_) if self.trim_floor(retention, &self.subscription_rows()?, ANY_RECORDED_SEND)? <= trimmed => None,
            other => other,
        };
        Ok(limit_due.into_iter().chain(ephemeral).min())
    }

    /// When the oldest retained row below the head was appended (read once
    /// per trim; the head is never trimmed).
    fn oldest_retained_ms(&self) -> Result<Option<i64>, StorageError> {
        if let Some(known) = self.retention.oldest_retained_ms.get() {
            return Ok(known);
        }
        let sql = "SELECT created_at_ms FROM events WHERE event_offset > ? AND event_offset < ? \
                   ORDER BY event_offset LIMIT 1";
        let trimmed = self.retention.saved.trimmed_through;
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let oldest = match self.storage.query(sql, &[trimmed.into(), head.into()])?.first() {
            Some(row) => Some(Columns { query: sql, row }.int(0)?),
            None => None,
        };
        self.retention.oldest_retained_ms.set(Some(oldest));
        Ok(oldest)
    }
}
