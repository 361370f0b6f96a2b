//! A row of `delivery_window` (docs/design.md §8 `concurrency`): one event a
//! concurrent subscription planned past its cursor, delivered, retried and
//! dead-lettered on its own under its own delivery id. Written when the
//! event is planned, marked completed when its send completes (delivered or
//! dead-lettered, journaled first), deleted when the cursor passes it.
//!
//! Decoded by column name through [`COLUMNS`] (migration 0008; persisted,
//! so must be kept stable). The run's config generation lives in the
//! `run_offset` column, as in `subscription_runtime`.

use super::columns::Named;
use crate::storage::{SqlValue, StorageError};

/// Columns of `delivery_window`, in [`SELECT`] and [`INSERT`] order.
pub const COLUMNS: [&str; 10] = [
    "subscription_key",
    "run_offset",
    "event_offset",
    "delivery_id",
    "attempt",
    "next_attempt_at_ms",
    "in_flight_deadline_at_ms",
    "last_error",
    "completed",
    "send_lease",
];

/// The slots of one run (`subscription_key = ? AND run_offset = ?`) in
/// offset order, from `event_offset > ?`, at most `LIMIT +?`.
pub const SELECT: &str = "SELECT subscription_key, run_offset, event_offset, delivery_id, attempt, \
     next_attempt_at_ms, in_flight_deadline_at_ms, last_error, completed, send_lease FROM delivery_window \
     WHERE subscription_key = ? AND run_offset = ? AND event_offset > ? ORDER BY event_offset LIMIT +?";

/// The open slots (not completed) of one run (`subscription_key = ? AND
/// run_offset = ?`) in offset order, at most `LIMIT +?`.
pub const SELECT_OPEN_OF_RUN: &str = "SELECT subscription_key, run_offset, event_offset, delivery_id, attempt, \
     next_attempt_at_ms, in_flight_deadline_at_ms, last_error, completed, send_lease FROM delivery_window \
     WHERE subscription_key = ? AND run_offset = ? AND completed = 0 ORDER BY event_offset LIMIT +?";

/// The open slots (not completed) of every subscription, by key and offset,
/// at most `LIMIT +?`.
pub const SELECT_OPEN: &str = "SELECT subscription_key, run_offset, event_offset, delivery_id, attempt, \
     next_attempt_at_ms, in_flight_deadline_at_ms, last_error, completed, send_lease FROM delivery_window \
     WHERE completed = 0 ORDER BY subscription_key, event_offset LIMIT +?";

/// Plans one slot; a slot of that offset already planned stays as it is.
pub const INSERT: &str = "INSERT OR IGNORE INTO delivery_window (subscription_key, run_offset, event_offset, \
     delivery_id, attempt, next_attempt_at_ms, in_flight_deadline_at_ms, last_error, completed, send_lease) \
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

#[derive(Debug, Clone, PartialEq)]
pub struct WindowSlot {
    pub subscription_key: String,
    /// The run's config generation (§6 rule 7). Column `run_offset`.
    pub cursor_changed_at_source_offset: u64,
    pub event_offset: u64,
    /// Its own deterministic id (§8): blake3 over the stream id, the key and
    /// the one-offset range `(event_offset - 1, event_offset]`.
    pub delivery_id: String,
    /// Failed attempts so far.
    pub attempt: u64,
    pub next_attempt_at_ms: Option<i64>,
    pub in_flight_deadline_at_ms: Option<i64>,
    pub last_error: Option<String>,
    /// Delivered or dead-lettered (and journaled); the cursor has not passed
    /// it yet because an earlier offset is still open.
    pub completed: bool,
    /// The lease of its send in flight (§6 rules 6, 7): raised each time it
    /// is sent and each time a result is taken; only the send carrying it
    /// is answered. Column `send_lease` (migration 0015).
    pub send_lease: u64,
}

impl WindowSlot {
    /// Decodes one row of [`SELECT`], [`SELECT_OPEN_OF_RUN`] or [`SELECT_OPEN`].
    pub fn decode(query: &str, row: &[SqlValue]) -> Result<WindowSlot, StorageError> {
        let named = Named::new(query, row, &COLUMNS);
        Ok(WindowSlot {
            subscription_key: named.text("subscription_key")?,
            cursor_changed_at_source_offset: named.count("run_offset")?,
            event_offset: named.count("event_offset")?,
            delivery_id: named.text("delivery_id")?,
            attempt: named.count("attempt")?,
            next_attempt_at_ms: named.optional_int("next_attempt_at_ms")?,
            in_flight_deadline_at_ms: named.optional_int("in_flight_deadline_at_ms")?,
            last_error: named.optional_text("last_error")?,
            completed: named.int("completed")? != 0,
            send_lease: named.count("send_lease")?,
        })
    }

    /// The slot's values in [`COLUMNS`] order (what [`INSERT`] binds).
    pub fn encode(&self) -> Vec<SqlValue> {
        vec![
            self.subscription_key.as_str().into(),
            self.cursor_changed_at_source_offset.into(),
            self.event_offset.into(),
            self.delivery_id.as_str().into(),
            self.attempt.into(),
            self.next_attempt_at_ms.into(),
            self.in_flight_deadline_at_ms.into(),
            self.last_error.clone().into(),
            self.completed.into(),
            self.send_lease.into(),
        ]
    }

    /// Whether its send may be planned at `now_ms`: open, not in flight, and
    /// any retry's time has come.
    pub fn ready(&self, now_ms: i64) -> bool {
        !self.completed
            && self.in_flight_deadline_at_ms.is_none()
            && self.next_attempt_at_ms.is_none_or(|at| at <= now_ms)
    }

    /// When its work is next due: its in-flight deadline (§6 rule 6), its
    /// retry, or now (`i64::MIN`); `None` once completed.
    pub fn due_at(&self) -> Option<i64> {
        if self.completed {
            return None;
        }
        Some(
            self.in_flight_deadline_at_ms
                .or(self.next_attempt_at_ms)
                .unwrap_or(i64::MIN),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SAFE: u64 = 1 << 53;

    fn any_slot() -> impl Strategy<Value = WindowSlot> {
        (
            ("[a-z:0-9]{1,24}", 0..SAFE, 0..SAFE, "dlv_[0-9a-f]{32}", 0..SAFE),
            (
                proptest::option::of(any::<i64>()),
                proptest::option::of(any::<i64>()),
                proptest::option::of(".{0,40}"),
                any::<bool>(),
                0..SAFE,
            ),
        )
            .prop_map(
                |(
                    (subscription_key, generation, event_offset, delivery_id, attempt),
                    (next_attempt_at_ms, in_flight_deadline_at_ms, last_error, completed, send_lease),
                )| WindowSlot {
                    subscription_key,
                    cursor_changed_at_source_offset: generation,
                    event_offset,
                    delivery_id,
                    attempt,
                    next_attempt_at_ms,
                    in_flight_deadline_at_ms,
                    last_error,
                    completed,
                    send_lease,
                },
            )
    }

    proptest! {
        #[test]
        fn s8_window_slot_round_trips(slot in any_slot()) {
            prop_assert_eq!(WindowSlot::decode(SELECT, &slot.encode()), Ok(slot.clone()));
            prop_assert_eq!(WindowSlot::decode(SELECT_OPEN_OF_RUN, &slot.encode()), Ok(slot.clone()));
            prop_assert_eq!(WindowSlot::decode(SELECT_OPEN, &slot.encode()), Ok(slot));
        }
    }

    #[test]
    fn s8_selects_and_insert_name_the_columns_in_order() {
        for sql in [SELECT, SELECT_OPEN_OF_RUN, SELECT_OPEN] {
            let listed = sql
                .strip_prefix("SELECT ")
                .and_then(|rest| rest.split(" FROM ").next())
                .unwrap_or_default();
            let names: Vec<&str> = listed.split(',').map(str::trim).collect();
            assert_eq!(names, COLUMNS.to_vec());
        }
        let inserted = INSERT
            .split_once('(')
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(names, _)| names)
            .unwrap_or_default();
        let names: Vec<&str> = inserted.split(',').map(str::trim).collect();
        assert_eq!(names, COLUMNS.to_vec());
    }

    #[test]
    fn s8_a_slot_is_ready_when_open_idle_and_its_retry_is_due() {
        let slot = WindowSlot {
            subscription_key: "k".to_owned(),
            cursor_changed_at_source_offset: 1,
            event_offset: 5,
            delivery_id: "dlv_x".to_owned(),
            attempt: 0,
            next_attempt_at_ms: None,
            in_flight_deadline_at_ms: None,
            last_error: None,
            completed: false,
            send_lease: 0,
        };
        assert!(slot.ready(0));
        assert_eq!(slot.due_at(), Some(i64::MIN));
        let sending = WindowSlot {
            in_flight_deadline_at_ms: Some(100),
            ..slot.clone()
        };
        assert!(!sending.ready(1_000));
        assert_eq!(sending.due_at(), Some(100));
        let retrying = WindowSlot {
            next_attempt_at_ms: Some(50),
            ..slot.clone()
        };
        assert!(!retrying.ready(49) && retrying.ready(50));
        let completed = WindowSlot {
            completed: true,
            ..slot
        };
        assert!(!completed.ready(0));
        assert_eq!(completed.due_at(), None);
    }
}
