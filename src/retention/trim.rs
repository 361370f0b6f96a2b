//! One bounded trim step of the alarm (docs/design.md §16, §12).
//!
//! A step deletes the oldest events beyond any limit — at most
//! [`TRIM_STEP_ROWS`] rows and [`TRIM_STEP_BYTES`] bytes — in one
//! transaction that first folds them into the snapshot ([`super::snapshot`]).
//! It never passes the cursor of a durable subscription (halted, invalid and
//! processor-wake ones included: a processor's cursor is its instance's
//! checkpoint, §9) unless `trimPastSubscribers`; then each passed
//! subscription first gets its durable `error-occurred {kind: "trimmed"}`
//! fact, and one with a send in flight is not passed until the send ends.
//! Ephemeral rows older than an hour expire in their own bounded step.
//!
//! When a step is due is decided from memory ([`Stream::retention_due_at`]):
//! the head, the trim point and the byte count, so an append that passes no
//! limit costs nothing here.

use super::progress::ProgressRow;
use super::Retention;
use crate::event::ControlType;
use crate::limits::{TRIM_STEP_BYTES, TRIM_STEP_ROWS};
use crate::records::RuntimeRow;
use crate::storage::{Columns, Storage, StorageError};
use crate::stream::facts::fact_key;
use crate::stream::rows::ROW_BYTES;
use crate::stream::Stream;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// What one trim step did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrimStep {
    /// Rows deleted by the retention limits; the log now starts after `through`.
    pub trimmed: u64,
    pub through: u64,
    /// Ephemeral rows expired (§3 rule 5: kept at most an hour).
    pub expired: u64,
    /// Subscriptions passed (`trimPastSubscribers`), each after its fact.
    pub passed: Vec<Passed>,
    /// The step stopped at its budget with more to trim: due again now.
    pub more: bool,
    /// The step failed (nothing of it committed); retried next round.
    pub error: Option<String>,
}

/// One subscription a step trimmed past, and its fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passed {
    pub subscription_key: String,
    /// Its cursor before: it never received `(after_offset, through_offset]`.
    pub after_offset: u64,
    pub through_offset: u64,
    /// Offset of its `error-occurred {kind: "trimmed"}` fact; 0 when only
    /// audit facts were passed (no fact is owed for those).
    pub fact_offset: u64,
}

/// One row a step may trim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub offset: u64,
    pub created_at_ms: i64,
    pub bytes: u64,
}

/// What [`decide`] trims: through `through`, `rows` rows of `bytes` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    pub through: u64,
    pub rows: u64,
    pub bytes: u64,
    /// Stopped by the step's budget, not by the limits.
    pub budget_spent: bool,
}

/// The oldest rows `retention` no longer keeps, in offset order from the
/// first retained one: a row is over a limit when `maxEvents` newer offsets
/// exist, it is older than `maxAgeMs`, or the rows from it on hold more
/// than `maxBytes` — never the head. Stops at the first row within every limit and at the
/// step's byte budget (always at least one row).
pub fn decide(candidates: &[Candidate], retention: &Retention, head: u64, bytes: u64, now_ms: i64) -> Option<Cut> {
    let mut cut: Option<Cut> = None;
    let mut remaining = bytes;
    for candidate in candidates {
        // The newest event is always kept: a quiet stream keeps its head
        // row, and a `trimmed` fact never ages out into another pass.
        if candidate.offset >= head {
            break;
        }
        let over_count = retention
            .max_events
            .is_some_and(|max| candidate.offset.saturating_add(max) <= head);
        let over_age = retention
            .max_age_ms
            .is_some_and(|max| candidate.created_at_ms < now_ms.saturating_sub(max as i64));
        let over_bytes = retention.max_bytes.is_some_and(|max| remaining > max);
        if !(over_count || over_age || over_bytes) {
            break;
        }
        let spent = cut.map_or(0, |cut| cut.bytes);
        if cut.is_some() && spent.saturating_add(candidate.bytes) > TRIM_STEP_BYTES {
            return cut.map(|cut| Cut {
                budget_spent: true,
                ..cut
            });
        }
        remaining = remaining.saturating_sub(candidate.bytes);
        cut = Some(Cut {
            through: candidate.offset,
            rows: cut.map_or(0, |cut| cut.rows) + 1,
            bytes: spent.saturating_add(candidate.bytes),
            budget_spent: false,
        });
    }
    cut.map(|cut| Cut {
        budget_spent: cut.rows >= TRIM_STEP_ROWS,
        ..cut
    })
}

/// A time before every in-flight deadline: every recorded send counts as
/// in flight (the epoch, a safe integer across the JS boundary).
pub(super) const ANY_RECORDED_SEND: i64 = 0;

const IN_FLIGHT_WINDOWS: &str =
    "SELECT DISTINCT subscription_key FROM delivery_window WHERE in_flight_deadline_at_ms > ?";

impl<S: Storage> Stream<S> {
    /// `firstOffset` (§16): the lowest offset still readable.
    pub fn first_offset(&self) -> u64 {
        self.retention.first_offset()
    }

    /// Bytes of the retained event rows (stream info `bytes`, §16).
    pub fn retained_bytes(&self) -> u64 {
        self.retention.bytes
    }

    /// Rows deleted by retention and ephemeral expiry in this lifetime.
    pub fn trimmed_events(&self) -> u64 {
        self.retention.saved.trimmed_events
    }

    /// The highest offset trimming may reach now: the lowest cursor of a
    /// durable subscription (§16), or the head with `trimPastSubscribers`
    /// except where a send is in flight.
    pub(super) fn trim_floor(
        &self,
        retention: &Retention,
        rows: &BTreeMap<String, RuntimeRow>,
        now_ms: i64,
    ) -> Result<u64, StorageError> {
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let trimmed = self.retention.saved.trimmed_through;
        let in_flight_windows: Vec<String> = if retention.trim_past_subscribers {
            let found = self.storage.query(IN_FLIGHT_WINDOWS, &[now_ms.into()])?;
            found
                .iter()
                .map(|row| {
                    Columns {
                        query: IN_FLIGHT_WINDOWS,
                        row,
                    }
                    .text(0)
                })
                .collect::<Result<_, _>>()?
        } else {
            Vec::new()
        };
        let pins = self
            .state
            .subscriptions
            .outbound
            .by_key
            .iter()
            .filter_map(|(key, subscription)| {
                let row = rows.get(key);
                let cursor = row.map_or(trimmed, |row| row.acknowledged_offset.max(trimmed));
                let in_flight = row.is_some_and(|row| row.in_flight_deadline_at_ms.is_some_and(|at| at > now_ms))
                    || in_flight_windows.contains(key);
                // A digest awaiting its (re)send is resent whole (§8): a pass
                // into it would let a re-plan choose its events again, out of
                // order for a receiver that took the lost send. A halted one
                // does not hold the log (§16: it trims anyway); a pass keeps
                // its pin ([`Stream::pass_cursor`]), so a resume still resends
                // the digest whole.
                let digest_pending = subscription.delivery_halted.is_none()
                    && row.is_some_and(|row| row.retry_through_offset.is_some_and(|end| end > cursor))
                    && subscription
                        .configuration
                        .valid()
                        .and_then(|configuration| configuration.receiver.delivery())
                        .is_some_and(crate::subscription::Delivery::resends_whole);
                (!retention.trim_past_subscribers || in_flight || digest_pending).then_some(cursor)
            });
        // A fork reads offsets `1..=fork point` here (§18): while one lives,
        // nothing more is trimmed from the front.
        let forks = self.fork_edges()?.0 > 0;
        let edge_pin = forks.then_some(trimmed);
        // The head is never trimmed ([`decide`]).
        Ok(pins.chain(edge_pin).min().unwrap_or(head).min(head.saturating_sub(1)))
    }

    /// The runtime rows, not read when no subscription pins the log.
    pub(super) fn subscription_rows(&self) -> Result<BTreeMap<String, RuntimeRow>, StorageError> {
        if self.state.subscriptions.outbound.by_key.is_empty() {
            return Ok(BTreeMap::new());
        }
        self.runtime_rows()
    }

    /// The highest offset a step may look at: the floor, and with only
    /// `maxEvents` set, no row the count keeps (a step then reads just the
    /// rows it trims).
    fn trim_upper_bound(retention: &Retention, floor: u64, head: u64) -> u64 {
        match (retention.max_events, retention.max_age_ms, retention.max_bytes) {
            (Some(max), None, None) => floor.min(head.saturating_sub(max)),
            _ => floor,
        }
    }

    /// The rows after the trim point up to `floor`, at most a step's worth.
    fn trim_candidates(&self, floor: u64) -> Result<Vec<Candidate>, StorageError> {
        let sql = format!(
            "SELECT event_offset, created_at_ms, {ROW_BYTES} FROM events WHERE event_offset > ? \
             AND event_offset <= ? ORDER BY event_offset LIMIT +?"
        );
        let trimmed = self.retention.saved.trimmed_through;
        let found = self
            .storage
            .query(&sql, &[trimmed.into(), floor.into(), TRIM_STEP_ROWS.into()])?;
        found
            .iter()
            .map(|row| {
                let columns = Columns { query: &sql, row };
                Ok(Candidate {
                    offset: columns.int(0)?.max(0) as u64,
                    created_at_ms: columns.int(1)?,
                    bytes: columns.int(2)?.max(0) as u64,
                })
            })
            .collect()
    }

    /// One trim step at `now_ms` (§16): expires old ephemeral rows, then
    /// trims what the retention no longer keeps, each in its own
    /// transaction. `entropy` is for the facts it appends.
    pub fn trim_step(&mut self, now_ms: i64, entropy: [u8; 16]) -> Result<TrimStep, StorageError> {
        if self.retention.uncounted.is_some() {
            // The byte count comes first: a trim saves it.
            let more = self.retention.count_step(&self.storage)?;
            if !more {
                let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
                let whole = ProgressRow {
                    counted_through: head,
                    retained_bytes: self.retention.bytes,
                    ..self.retention.saved
                };
                whole.save(&self.storage)?;
                self.retention.saved = whole;
            }
            return Ok(TrimStep {
                through: self.retention.saved.trimmed_through,
                more: true,
                ..TrimStep::default()
            });
        }
        let mut step = TrimStep {
            expired: self.expire_ephemeral(now_ms)?,
            through: self.retention.saved.trimmed_through,
            ..TrimStep::default()
        };
        let Some(retention) = self.state.retention.clone() else {
            return Ok(step);
        };
        let Some(head) = self.lifetime.as_ref().map(|meta| meta.head) else {
            return Ok(step);
        };
        let rows = self.subscription_rows()?;
        let floor = self.trim_floor(&retention, &rows, now_ms)?;
        let upper = Self::trim_upper_bound(&retention, floor, head);
        let Some(mut cut) = self.next_cut(&retention, upper, head, now_ms)? else {
            return Ok(step);
        };
        if retention.trim_past_subscribers {
            step.passed = self.announce_passes(&rows, cut.through, now_ms, entropy)?;
            // A fact written before a crash holds the point it announced.
            let announced = step.passed.iter().map(|passed| passed.through_offset).min();
            if let Some(announced) = announced.filter(|announced| *announced < cut.through) {
                let (rows, bytes) = self.measure(announced)?;
                cut = Cut {
                    through: announced,
                    rows,
                    bytes,
                    budget_spent: true,
                };
            }
        }
        self.commit_trim(cut, &step.passed)?;
        self.retention.last_trim_ms = Some(now_ms);
        self.retention.trim_backlog = cut.budget_spent;
        self.counters.retention_passes += step.passed.iter().filter(|pass| pass.fact_offset > 0).count() as u64;
        step.trimmed = cut.rows;
        step.through = cut.through;
        step.more = cut.budget_spent;
        Ok(step)
    }

    /// After a failed step: the next round starts no sooner than a normal
    /// one would, so a step that keeps failing never spins the alarm.
    pub fn trim_failed(&mut self, now_ms: i64) {
        self.retention.last_trim_ms = Some(now_ms);
        self.retention.trim_backlog = false;
    }

    /// What the next step trims, up to `upper`. With only `maxEvents` set it
    /// is known from offsets: one aggregate query sizes it (the rows stay
    /// in SQLite). Otherwise the rows are read ([`decide`]). Expired
    /// ephemeral rows right after the trim point leave offsets without rows:
    /// the first offset moves over them.
    fn next_cut(&self, retention: &Retention, upper: u64, head: u64, now_ms: i64) -> Result<Option<Cut>, StorageError> {
        let trimmed = self.retention.saved.trimmed_through;
        if let (Some(_), None, None) = (retention.max_events, retention.max_age_ms, retention.max_bytes) {
            let through = upper.min(trimmed.saturating_add(TRIM_STEP_ROWS));
            if through <= trimmed {
                return Ok(None);
            }
            let (rows, bytes) = self.measure(through)?;
            if bytes <= TRIM_STEP_BYTES {
                return Ok(Some(Cut {
                    through,
                    rows,
                    bytes,
                    budget_spent: through < upper,
                }));
            }
        }
        let candidates = self.trim_candidates(upper)?;
        if let Some(cut) = decide(&candidates, retention, head, self.retention.bytes, now_ms) {
            return Ok(Some(cut));
        }
        let hole_end = candidates.first().map_or(upper, |first| first.offset - 1);
        Ok((hole_end > trimmed).then_some(Cut {
            through: hole_end,
            rows: 0,
            bytes: 0,
            budget_spent: false,
        }))
    }

    /// The rows and bytes from the trim point through `through`.
    fn measure(&self, through: u64) -> Result<(u64, u64), StorageError> {
        let sql = format!(
            "SELECT COUNT(*), COALESCE(SUM({ROW_BYTES}), 0) FROM events WHERE event_offset > ? AND event_offset <= ?"
        );
        let trimmed = self.retention.saved.trimmed_through;
        let found = self.storage.query(&sql, &[trimmed.into(), through.into()])?;
        match found.first() {
            Some(row) => {
                let columns = Columns { query: &sql, row };
                Ok((columns.int(0)?.max(0) as u64, columns.int(1)?.max(0) as u64))
            }
            None => Ok((0, 0)),
        }
    }

    /// Appends each passed subscription's fact before anything is deleted
    /// (§16: never silent). Idempotent per run and cursor, so a crash
    /// between the fact and the trim repeats neither.
    fn announce_passes(
        &mut self,
        rows: &BTreeMap<String, RuntimeRow>,
        through: u64,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Vec<Passed>, StorageError> {
        let trimmed = self.retention.saved.trimmed_through;
        let behind: Vec<(String, u64, u64)> = self
            .state
            .subscriptions
            .outbound
            .by_key
            .keys()
            .filter_map(|key| {
                let row = rows.get(key)?;
                let cursor = row.acknowledged_offset.max(trimmed);
                (cursor < through).then(|| (key.clone(), cursor, row.cursor_changed_at_source_offset))
            })
            .collect();
        let mut passed = Vec::with_capacity(behind.len());
        for (key, cursor, run) in behind {
            // A halted digest the pass goes past (its pin is dropped, §13)
            // may hold hits from before the cursor: the fact names them too.
            let cursor = match rows.get(&key).and_then(|row| row.retry_through_offset) {
                Some(pinned) if pinned <= through => self
                    .gate_digest(&key, pinned)?
                    .first()
                    .map_or(cursor, |hit| cursor.min(hit.offset.saturating_sub(1))),
                _ => cursor,
            };
            if !self.owes_events(cursor, through)? {
                // Only audit facts lie between: passed without another fact,
                // so a stuck subscription's own facts never chain (§16).
                passed.push(Passed {
                    subscription_key: key,
                    after_offset: cursor,
                    through_offset: through,
                    fact_offset: 0,
                });
                continue;
            }
            let fact = json!({
                "type": ControlType::ErrorOccurred.as_str(),
                "payload": {"kind": "trimmed", "subscriptionKey": key, "afterOffset": cursor, "throughOffset": through},
                "idempotencyKey": fact_key("trimmed:", &format!("{run}:{cursor}:{key}")),
            });
            let event = self.append_engine_fact(fact, &crate::Inputs { now_ms, entropy })?.event;
            let announced = serde_json::from_str::<Value>(event.payload.get())
                .ok()
                .and_then(|payload| payload.get("throughOffset").and_then(Value::as_u64))
                .unwrap_or(through);
            passed.push(Passed {
                subscription_key: key,
                after_offset: cursor,
                through_offset: announced,
                fact_offset: event.offset,
            });
        }
        Ok(passed)
    }

    /// Whether `(after, through]` holds an event a subscription could be owed:
    /// a durable one other than this stream's own `error-occurred` audit
    /// facts. At most a step's rows (the cursor is at least the trim point).
    fn owes_events(&self, after: u64, through: u64) -> Result<bool, StorageError> {
        let sql = "SELECT 1 FROM events WHERE event_offset > ? AND event_offset <= ? AND ephemeral = 0 \
                   AND NOT (type = ? AND source IS NULL) LIMIT 1";
        let found = self.storage.query(
            sql,
            &[after.into(), through.into(), ControlType::ErrorOccurred.as_str().into()],
        )?;
        Ok(!found.is_empty())
    }

    /// The trim itself, one transaction: the snapshot folds the trimmed
    /// events, passed cursors move, the rows go, the progress is saved.
    fn commit_trim(&mut self, cut: Cut, passed: &[Passed]) -> Result<(), StorageError> {
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let from = self.retention.saved.trimmed_through;
        let progress = ProgressRow {
            trimmed_through: cut.through,
            counted_through: head,
            retained_bytes: self.retention.bytes.saturating_sub(cut.bytes),
            trimmed_events: self.retention.saved.trimmed_events.saturating_add(cut.rows),
        };
        self.storage.atomically(&mut || {
            super::snapshot::advance(&self.storage, cut.through)?;
            for pass in passed.iter().filter(|pass| pass.through_offset >= cut.through) {
                self.pass_cursor(pass, cut.through)?;
            }
            self.storage.execute(
                "DELETE FROM events WHERE event_offset > ? AND event_offset <= ?",
                &[from.into(), cut.through.into()],
            )?;
            progress.save(&self.storage)
        })?;
        self.forget_rows(progress, cut.rows)
    }

    /// After a trim or an expiry committed: the rows read ahead are
    /// forgotten, the saved progress, the byte
    /// count and the lifetime's row count follow, and the oldest ephemeral
    /// row is read again (it may be among the rows deleted; a stale one
    /// would stop its expiry from being scheduled, §16).
    pub(super) fn forget_rows(&mut self, progress: ProgressRow, rows: u64) -> Result<(), StorageError> {
        self.forget_read_ahead();
        self.retention.saved = progress;
        self.retention.bytes = progress.retained_bytes;
        self.retention.oldest_retained_ms.set(None);
        if let Some(meta) = self.lifetime.as_mut() {
            meta.event_count = meta.event_count.saturating_sub(rows);
        }
        self.retention.oldest_ephemeral = Some(super::progress::read_oldest_ephemeral(&self.storage)?);
        Ok(())
    }

    /// Moves a passed subscription's cursor to the trim point, as a new
    /// start of the same run (its retries and window are of trimmed events;
    /// a halted digest reaching past the point keeps its pin, §8, §13),
    /// and records the pass for the card and the metrics (§11).
    fn pass_cursor(&self, pass: &Passed, through: u64) -> Result<(), StorageError> {
        let key = pass.subscription_key.as_str();
        let pinned_before = self
            .runtime_row(key)?
            .filter(|row| row.acknowledged_offset < through)
            .and_then(|row| row.retry_through_offset);
        self.storage.execute(
            "UPDATE subscription_runtime SET acknowledged_offset = ?, attempt = 0, next_attempt_at_ms = NULL, \
             in_flight_deadline_at_ms = NULL, last_error = NULL, isolating = 0, \
             retry_through_offset = CASE WHEN retry_through_offset > ? THEN retry_through_offset END, \
             window_scanned_through = CASE WHEN window_scanned_through > ? THEN window_scanned_through END, \
             window_barrier_at = CASE WHEN window_barrier_at > ? THEN window_barrier_at END \
             WHERE subscription_key = ? AND acknowledged_offset < ?",
            &[
                through.into(),
                through.into(),
                through.into(),
                through.into(),
                key.into(),
                through.into(),
            ],
        )?;
        // A halted digest passed whole is forgotten with its hits (the
        // pass's fact names them): none comes back in a later digest.
        if pinned_before.is_some_and(|pinned| pinned <= through) {
            self.gate_release_through(key, through)?;
        }
        // A concurrent window (§8) keeps what it completed past the trim
        // point, and its cursor goes on over that completed front.
        self.storage.execute(
            "DELETE FROM delivery_window WHERE subscription_key = ? AND event_offset <= ?",
            &[key.into(), through.into()],
        )?;
        if let Some(row) = self.runtime_row(key)? {
            let frontier = row.window_scanned_through.unwrap_or(through).max(through);
            self.advance_window(key, row.cursor_changed_at_source_offset, through, frontier)?;
        }
        if pass.fact_offset == 0 {
            return Ok(());
        }
        super::passes::PassRow {
            subscription_key: key.to_owned(),
            events_passed: through.saturating_sub(pass.after_offset),
            last_after_offset: pass.after_offset,
            last_through_offset: through,
            last_fact_offset: pass.fact_offset,
        }
        .record(&self.storage)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn rows(offsets: std::ops::RangeInclusive<u64>, bytes: u64) -> Vec<Candidate> {
        offsets
            .map(|offset| Candidate {
                offset,
                created_at_ms: offset as i64 * 1000,
                bytes,
            })
            .collect()
    }

    fn keep(max_events: Option<u64>, max_age_ms: Option<u64>, max_bytes: Option<u64>) -> Retention {
        Retention {
            max_age_ms,
            max_events,
            max_bytes,
            trim_past_subscribers: false,
        }
    }

    #[test]
    fn the_count_keeps_the_newest_offsets_and_never_the_head() {
        let cut = decide(&rows(1..=10, 10), &keep(Some(3), None, None), 10, 100, 0).unwrap();
        assert_eq!((cut.through, cut.rows, cut.bytes, cut.budget_spent), (7, 7, 70, false));
        let everything_old = decide(&rows(1..=10, 10), &keep(None, Some(60_000), None), 10, 100, 1 << 40).unwrap();
        assert_eq!(everything_old.through, 9, "the head stays");
        assert_eq!(decide(&rows(10..=10, 10), &keep(Some(1), None, None), 10, 10, 0), None);
    }

    #[test]
    fn age_and_bytes_stop_at_the_first_row_within_every_limit() {
        // Rows 1..=5 were created at 1..=5 s; at 65 s the ones before 5 s are a minute old.
        let cut = decide(&rows(1..=10, 10), &keep(None, Some(60_000), None), 10, 100, 65_000).unwrap();
        assert_eq!(cut.through, 4);
        // 100 bytes held, 35 allowed: the oldest 7 rows go (30 left).
        let cut = decide(&rows(1..=10, 10), &keep(None, None, Some(35)), 10, 100, 0).unwrap();
        assert_eq!((cut.through, cut.bytes), (7, 70));
        assert_eq!(
            decide(
                &rows(1..=10, 10),
                &keep(Some(100), Some(60_000), Some(1000)),
                10,
                100,
                0
            ),
            None
        );
    }

    #[test]
    fn a_step_stops_at_its_byte_budget_but_always_takes_one_row() {
        let big = TRIM_STEP_BYTES / 2 + 1;
        let cut = decide(&rows(1..=10, big), &keep(Some(1), None, None), 10, 10 * big, 0).unwrap();
        assert_eq!((cut.through, cut.rows, cut.budget_spent), (1, 1, true));
        let huge = decide(&rows(1..=10, 2 * TRIM_STEP_BYTES), &keep(Some(1), None, None), 10, 0, 0).unwrap();
        assert_eq!((huge.rows, huge.budget_spent), (1, true));
    }
}
