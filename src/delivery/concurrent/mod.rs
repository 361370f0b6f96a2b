//! Concurrent delivery (docs/design.md §8 `concurrency`; §6 rules 3, 6, 11; §13).
//! An itx-call or webhook-post subscription in `skip` mode with
//! `delivery.concurrency` N > 1 has up to N single-event deliveries in
//! flight, each under its own delivery id, acknowledged, retried and
//! dead-lettered on its own. Its window (`delivery_window`, one
//! [`WindowSlot`] per event planned past the cursor) holds each delivery's
//! progress; the cursor moves only past the longest contiguous run of
//! completed offsets from the front, so one stuck event holds back the
//! cursor behind it, never the other deliveries.
//!
//! - Planning (`plan.rs`) fills one free place per call: a slot whose retry
//!   is due (or whose in-flight deadline passed) first, else the next
//!   matching event after the window's frontier, at most
//!   [`MAX_CONCURRENT_WINDOW_OFFSETS`] past the cursor.
//! - An `events-invalidated` is a barrier (§13): nothing after it is
//!   planned until everything before it completed (and was journaled); then
//!   the ordinary retraction path runs from the cursor, one batch at a time
//!   in offset order, before the window moves on.
//! - Completion (`complete.rs`) journals and acknowledges, dead-letters, or
//!   schedules the retry of its one slot, then moves the cursor over the
//!   completed front.
//! - A crash repeats only what was in flight: completed slots ahead of the
//!   cursor are persisted and never sent again (§8 "a crash repeats only
//!   what the cursor had not passed", and not even all of that).

mod complete;
mod plan;

use crate::limits::{MAX_CONCURRENT_WINDOW_OFFSETS, MAX_DELIVERY_CONCURRENCY, MAX_STREAM_SUBSCRIPTIONS};
use crate::records::window_slot::{self, WindowSlot};
use crate::schema::RuntimeRow;
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};
use crate::stream::memory::ThrottleWindow;
use crate::stream::Stream;
use crate::subscription::{Configuration, Delivery, Throttle};
use crate::time::rfc3339_millis;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The delivery policy of `configuration` if its deliveries run concurrently.
pub(crate) fn concurrent(configuration: &Configuration) -> Option<&Delivery> {
    configuration
        .receiver
        .delivery()
        .filter(|delivery| delivery.is_concurrent())
}

/// Open slots of every concurrent subscription, by key (for due times).
#[derive(Debug, Default)]
pub(crate) struct OpenWindows(BTreeMap<String, Vec<WindowSlot>>);

impl OpenWindows {
    pub(crate) fn of(&self, key: &str) -> &[WindowSlot] {
        self.0.get(key).map_or(&[], Vec::as_slice)
    }
}

/// Whether the throttle (§8) keeps a concurrent subscription from planning
/// a new event at `now_ms`: only successful deliveries spend budget, so
/// while the `open` deliveries could still spend what is left of the
/// current window, new ones wait for them (or for the window's end). A spent
/// window is no wait: the next event is dead-lettered as throttled.
fn throttle_waits(throttle: Option<Throttle>, window: Option<ThrottleWindow>, open: usize, now_ms: i64) -> bool {
    let Some(throttle) = throttle else {
        return false;
    };
    let current = window.filter(|window| now_ms < window_end(throttle, *window));
    let delivered = current.map_or(0, |window| window.delivered);
    delivered < throttle.max_deliveries && delivered.saturating_add(open as u64) >= throttle.max_deliveries
}

/// When [`throttle_waits`] lets a new event be planned (`i64::MIN`: now;
/// `None`: only once an open delivery completes), read without a clock.
fn throttle_lets_plan_at(throttle: Option<Throttle>, window: Option<ThrottleWindow>, open: usize) -> Option<i64> {
    let Some(throttle) = throttle else {
        return Some(i64::MIN);
    };
    if open as u64 >= throttle.max_deliveries {
        return None;
    }
    match window {
        Some(window)
            if window.delivered < throttle.max_deliveries
                && window.delivered.saturating_add(open as u64) >= throttle.max_deliveries =>
        {
            Some(window_end(throttle, window))
        }
        _ => Some(i64::MIN),
    }
}

fn window_end(throttle: Throttle, window: ThrottleWindow) -> i64 {
    window
        .started_at_ms
        .saturating_add(i64::try_from(throttle.window_ms).unwrap_or(i64::MAX))
}

impl<S: Storage> Stream<S> {
    /// The open slots of every concurrent subscription; no query when there
    /// is none.
    pub(crate) fn open_windows(&self) -> Result<OpenWindows, StorageError> {
        let any = self
            .deliverable()
            .any(|(_, subscription)| subscription.configuration.valid().and_then(concurrent).is_some());
        if !any {
            return Ok(OpenWindows::default());
        }
        let limit = (MAX_STREAM_SUBSCRIPTIONS as u64).saturating_mul(MAX_DELIVERY_CONCURRENCY);
        let mut open: BTreeMap<String, Vec<WindowSlot>> = BTreeMap::new();
        for row in self.storage.query(window_slot::SELECT_OPEN, &[limit.into()])? {
            let slot = WindowSlot::decode(window_slot::SELECT_OPEN, &row)?;
            open.entry(slot.subscription_key.clone()).or_default().push(slot);
        }
        Ok(OpenWindows(open))
    }

    /// The slots of `key`'s run `run` (open and completed ahead), in offset
    /// order, at most the window's span.
    pub(crate) fn window_of_run(&self, key: &str, run: u64) -> Result<Vec<WindowSlot>, StorageError> {
        let limit = MAX_CONCURRENT_WINDOW_OFFSETS.saturating_add(MAX_DELIVERY_CONCURRENCY);
        self.storage
            .query(
                window_slot::SELECT,
                &[key.into(), run.into(), 0u64.into(), limit.into()],
            )?
            .iter()
            .map(|row| WindowSlot::decode(window_slot::SELECT, row))
            .collect()
    }

    /// The open slots (in flight or waiting for their retry) of `key`'s run
    /// `run`, in offset order: at most its concurrency.
    pub(super) fn open_slots(&self, key: &str, run: u64) -> Result<Vec<WindowSlot>, StorageError> {
        let sql = window_slot::SELECT_OPEN_OF_RUN;
        self.storage
            .query(sql, &[key.into(), run.into(), MAX_DELIVERY_CONCURRENCY.into()])?
            .iter()
            .map(|row| WindowSlot::decode(sql, row))
            .collect()
    }

    /// `key`'s window in its current run, for the debug card and tests.
    pub fn delivery_window(&self, key: &str) -> Result<Vec<WindowSlot>, StorageError> {
        match self.runtime_rows()?.get(key) {
            Some(row) => self.window_of_run(key, row.cursor_changed_at_source_offset),
            None => Ok(Vec::new()),
        }
    }

    /// When a concurrent subscription's work is due: a retraction's send or
    /// retry (the runtime row's own), each open slot's deadline or retry,
    /// and now if it may plan a new event (a free place, the log beyond its
    /// frontier within the span, the throttle not waiting) or its window
    /// waits at an invalidation with nothing open before it.
    pub(crate) fn window_due_at(
        &self,
        row: &RuntimeRow,
        open: &[WindowSlot],
        head: u64,
        delivery: &Delivery,
    ) -> Option<i64> {
        if let Some(deadline) = row.in_flight_deadline_at_ms {
            return Some(deadline);
        }
        if let Some(at) = row.next_attempt_at_ms {
            return Some(at);
        }
        let slots = open.iter().filter_map(WindowSlot::due_at).min();
        let span_end = head.min(row.acknowledged_offset.saturating_add(MAX_CONCURRENT_WINDOW_OFFSETS));
        let capacity = delivery.concurrency().min(MAX_DELIVERY_CONCURRENCY) as usize;
        let scanning = match row.window_barrier_at {
            Some(_) => open.is_empty().then_some(i64::MIN),
            None if open.len() < capacity && row.window_frontier() < span_end => {
                let throttle = self
                    .memory
                    .subscriptions
                    .get(&row.subscription_key)
                    .and_then(|memory| memory.throttle);
                throttle_lets_plan_at(delivery.throttle, throttle, open.len())
            }
            None => None,
        };
        [slots, scanning].into_iter().flatten().min()
    }

    /// Moves the cursor of `key`'s run `run` from `cursor` over the completed
    /// front of its window: to just before the first open slot, or to the
    /// frontier when none is open. Passed slots are deleted. Returns the
    /// cursor.
    pub(crate) fn advance_window(&self, key: &str, run: u64, cursor: u64, frontier: u64) -> Result<u64, StorageError> {
        let sql = "SELECT MIN(event_offset) FROM delivery_window \
                   WHERE subscription_key = ? AND run_offset = ? AND completed = 0";
        let first_open = match query_optional(&self.storage, sql, &[key.into(), run.into()])? {
            Some(row) => match row.first() {
                Some(SqlValue::Integer(_)) => Some(Columns { query: sql, row: &row }.int(0)?.max(0) as u64),
                _ => None,
            },
            None => None,
        };
        self.pass_completed_front(key, run, cursor, frontier, first_open)
    }

    /// [`Stream::advance_window`] knowing the first open slot (`None`: none
    /// is open).
    pub(super) fn pass_completed_front(
        &self,
        key: &str,
        run: u64,
        cursor: u64,
        frontier: u64,
        first_open: Option<u64>,
    ) -> Result<u64, StorageError> {
        let target = first_open.map_or(frontier, |open| open.saturating_sub(1)).max(cursor);
        if target > cursor {
            self.storage.execute(
                "DELETE FROM delivery_window WHERE subscription_key = ? AND run_offset = ? AND event_offset <= ?",
                &[key.into(), run.into(), target.into()],
            )?;
            self.advance_cursor(key, run, cursor, target)?;
        }
        Ok(target)
    }

    /// Records how far the window's scans looked (its frontier).
    pub(super) fn window_scanned(&self, key: &str, run: u64, through: u64) -> Result<(), StorageError> {
        self.storage.execute(
            "UPDATE subscription_runtime SET window_scanned_through = MAX(COALESCE(window_scanned_through, 0), ?) \
             WHERE subscription_key = ? AND run_offset = ?",
            &[through.into(), key.into(), run.into()],
        )
    }

    /// The window waits at the invalidation `at` (§13), or no longer (`None`).
    pub(super) fn window_barrier(&self, key: &str, run: u64, at: Option<u64>) -> Result<(), StorageError> {
        self.storage.execute(
            "UPDATE subscription_runtime SET window_barrier_at = ? WHERE subscription_key = ? AND run_offset = ?",
            &[at.into(), key.into(), run.into()],
        )
    }

    /// The card's view of a concurrent subscription's window (§11): its
    /// concurrency, the deliveries in flight or waiting for their retry,
    /// how many completed ahead of the cursor, and where it stands.
    pub(crate) fn window_card(&self, row: &RuntimeRow, delivery: &Delivery) -> Value {
        let slots = self
            .window_of_run(&row.subscription_key, row.cursor_changed_at_source_offset)
            .unwrap_or_default();
        let time = |ms: Option<i64>| ms.map(rfc3339_millis);
        let in_flight: Vec<Value> = slots
            .iter()
            .filter(|slot| !slot.completed)
            .map(|slot| {
                json!({
                    "offset": slot.event_offset,
                    "deliveryId": slot.delivery_id,
                    "attempt": slot.attempt,
                    "state": if slot.in_flight_deadline_at_ms.is_some() { "sending" } else { "waiting-to-retry" },
                    "inFlightDeadlineAt": time(slot.in_flight_deadline_at_ms),
                    "nextAttemptAt": time(slot.next_attempt_at_ms),
                    "lastError": slot.last_error,
                })
            })
            .collect();
        json!({
            "concurrency": delivery.concurrency(),
            "inFlight": in_flight,
            "completedAhead": slots.iter().filter(|slot| slot.completed).count(),
            "scannedThroughOffset": row.window_frontier(),
            "waitingAtInvalidation": row.window_barrier_at,
        })
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    const THROTTLE: Throttle = Throttle {
        max_deliveries: 3,
        window_ms: 100,
    };

    #[test]
    fn s8_open_deliveries_that_could_spend_the_throttle_make_new_ones_wait() {
        let window = ThrottleWindow {
            started_at_ms: 1_000,
            delivered: 1,
        };
        assert!(!throttle_waits(Some(THROTTLE), Some(window), 1, 1_050));
        assert!(throttle_waits(Some(THROTTLE), Some(window), 2, 1_050));
        assert_eq!(throttle_lets_plan_at(Some(THROTTLE), Some(window), 1), Some(i64::MIN));
        assert_eq!(throttle_lets_plan_at(Some(THROTTLE), Some(window), 2), Some(1_100));
        // Once the window ended its budget is fresh.
        assert!(!throttle_waits(Some(THROTTLE), Some(window), 2, 1_100));
        assert!(!throttle_waits(None, Some(window), 5, 1_050));
    }

    #[test]
    fn s8_before_any_success_the_open_deliveries_count_against_a_fresh_budget() {
        assert!(!throttle_waits(Some(THROTTLE), None, 2, 0));
        assert!(throttle_waits(Some(THROTTLE), None, 3, 0));
        assert_eq!(throttle_lets_plan_at(Some(THROTTLE), None, 2), Some(i64::MIN));
        assert_eq!(throttle_lets_plan_at(Some(THROTTLE), None, 3), None);
    }

    #[test]
    fn s8_a_spent_throttle_window_is_no_wait_the_next_event_is_dead_lettered() {
        let spent = ThrottleWindow {
            started_at_ms: 1_000,
            delivered: 3,
        };
        assert!(!throttle_waits(Some(THROTTLE), Some(spent), 0, 1_050));
        assert_eq!(throttle_lets_plan_at(Some(THROTTLE), Some(spent), 0), Some(i64::MIN));
    }
}
