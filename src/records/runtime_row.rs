//! A row of `subscription_runtime` (docs/design.md §6): delivery progress of one
//! subscription. Created, moved and dropped by the runtime repair
//! (`stream/runtime.rs`); advanced by delivery.
//!
//! Decoded by column name through [`COLUMNS`], the one place that names the
//! columns this record reads. The column names are persisted (migrations
//! 0002, 0006, 0008 and 0012), so must be kept stable. The config generation lives in
//! the `run_offset` column; in Rust it is `cursor_changed_at_source_offset`
//! (its §7 wire name, see `records::run_stamp`).

use super::columns::Named;
use crate::storage::{SqlValue, StorageError};

/// Columns of `subscription_runtime` the record holds, in [`SELECT`] order.
/// Persisted, so must be kept stable.
pub const COLUMNS: [&str; 16] = [
    "subscription_key",
    "run_offset",
    "acknowledged_offset",
    "attempt",
    "next_attempt_at_ms",
    "in_flight_deadline_at_ms",
    "last_error",
    "bytes_sent",
    "isolating",
    "retry_through_offset",
    "journal_pruned_through",
    "gate_anchor_ms",
    "window_scanned_through",
    "window_barrier_at",
    "send_lease",
    "journal_rows",
];

/// Every runtime row, by key (the columns are [`COLUMNS`], checked by a test).
pub const SELECT: &str = "SELECT subscription_key, run_offset, acknowledged_offset, attempt, next_attempt_at_ms, \
     in_flight_deadline_at_ms, last_error, bytes_sent, isolating, retry_through_offset, journal_pruned_through, \
     gate_anchor_ms, window_scanned_through, window_barrier_at, send_lease, journal_rows FROM subscription_runtime ORDER BY subscription_key";

/// The same columns for one subscription key (its primary key): the planner
/// and the completion read only the row they act on.
pub const SELECT_ONE: &str = "SELECT subscription_key, run_offset, acknowledged_offset, attempt, next_attempt_at_ms, \
     in_flight_deadline_at_ms, last_error, bytes_sent, isolating, retry_through_offset, journal_pruned_through, \
     gate_anchor_ms, window_scanned_through, window_barrier_at, send_lease, journal_rows FROM subscription_runtime WHERE subscription_key = ?";

#[derive(Debug, Clone, PartialEq)]
pub struct RuntimeRow {
    pub subscription_key: String,
    /// The run's config generation (§6 rule 7, §7): offset of the configure
    /// or cursor-set that started it. Column `run_offset`.
    pub cursor_changed_at_source_offset: u64,
    /// The cursor: exclusive, last completed offset.
    pub acknowledged_offset: u64,
    pub attempt: u64,
    pub next_attempt_at_ms: Option<i64>,
    pub in_flight_deadline_at_ms: Option<i64>,
    pub last_error: Option<String>,
    pub bytes_sent: u64,
    /// After a failed batch the next read takes one event (§6 rule 4).
    pub isolating: bool,
    /// The last offset of a batch awaiting retry (a digest resends exactly it).
    pub retry_through_offset: Option<u64>,
    /// Highest offset pruned from the journal (§13): retracting below it is a gap.
    pub journal_pruned_through: u64,
    /// A maxOnce gate's window anchor (event time), §13.
    pub gate_anchor_ms: Option<i64>,
    /// A concurrent subscription (§8 `concurrency`): the last offset its
    /// scans looked at past the cursor (`None`: not past it).
    pub window_scanned_through: Option<u64>,
    /// A concurrent subscription: the `events-invalidated` its window waits
    /// at until everything before it is done (§13).
    pub window_barrier_at: Option<u64>,
    /// The lease of the send the row waits for (§6 rules 6, 7): only the
    /// send carrying it ([`DeliveryPlan::lease`](crate::delivery::DeliveryPlan))
    /// is answered. Column `send_lease` (migration 0012).
    pub send_lease: u64,
    /// How many rows the subscription's journal holds (§13); `None`: not
    /// counted yet. Column `journal_rows` (migration 0014).
    pub journal_rows: Option<u64>,
}

/// The row unit tests start from: key `k`, run 1, cursor at 10, idle.
#[cfg(test)]
impl RuntimeRow {
    pub(crate) fn fixture() -> RuntimeRow {
        RuntimeRow {
            subscription_key: "k".to_owned(),
            cursor_changed_at_source_offset: 1,
            acknowledged_offset: 10,
            attempt: 0,
            next_attempt_at_ms: None,
            in_flight_deadline_at_ms: None,
            last_error: None,
            bytes_sent: 0,
            isolating: false,
            retry_through_offset: None,
            journal_pruned_through: 0,
            gate_anchor_ms: None,
            window_scanned_through: None,
            window_barrier_at: None,
            send_lease: 0,
            journal_rows: None,
        }
    }
}

impl RuntimeRow {
    /// Decodes one row of [`SELECT`] (or any query selecting [`COLUMNS`] in order).
    pub fn decode(query: &str, row: &[SqlValue]) -> Result<RuntimeRow, StorageError> {
        let named = Named::new(query, row, &COLUMNS);
        Ok(RuntimeRow {
            subscription_key: named.text("subscription_key")?,
            cursor_changed_at_source_offset: named.count("run_offset")?,
            acknowledged_offset: named.count("acknowledged_offset")?,
            attempt: named.count("attempt")?,
            next_attempt_at_ms: named.optional_int("next_attempt_at_ms")?,
            in_flight_deadline_at_ms: named.optional_int("in_flight_deadline_at_ms")?,
            last_error: named.optional_text("last_error")?,
            bytes_sent: named.count("bytes_sent")?,
            isolating: named.int("isolating")? != 0,
            retry_through_offset: named.optional_int("retry_through_offset")?.map(|n| n.max(0) as u64),
            journal_pruned_through: named.count("journal_pruned_through")?,
            gate_anchor_ms: named.optional_int("gate_anchor_ms")?,
            window_scanned_through: named.optional_int("window_scanned_through")?.map(|n| n.max(0) as u64),
            window_barrier_at: named.optional_int("window_barrier_at")?.map(|n| n.max(0) as u64),
            send_lease: named.count("send_lease")?,
            journal_rows: named.optional_int("journal_rows")?.map(|n| n.max(0) as u64),
        })
    }

    /// The row's values in [`COLUMNS`] order (what `INSERT INTO
    /// subscription_runtime (COLUMNS) VALUES (...)` binds).
    pub fn encode(&self) -> Vec<SqlValue> {
        vec![
            self.subscription_key.as_str().into(),
            self.cursor_changed_at_source_offset.into(),
            self.acknowledged_offset.into(),
            self.attempt.into(),
            self.next_attempt_at_ms.into(),
            self.in_flight_deadline_at_ms.into(),
            self.last_error.clone().into(),
            self.bytes_sent.into(),
            self.isolating.into(),
            self.retry_through_offset.into(),
            self.journal_pruned_through.into(),
            self.gate_anchor_ms.into(),
            self.window_scanned_through.into(),
            self.window_barrier_at.into(),
            self.send_lease.into(),
            self.journal_rows.into(),
        ]
    }

    /// A concurrent subscription's scan frontier (§8 `concurrency`): the
    /// last offset looked at, never behind the cursor.
    pub fn window_frontier(&self) -> u64 {
        self.acknowledged_offset.max(self.window_scanned_through.unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SAFE: u64 = 1 << 53;

    fn any_row() -> impl Strategy<Value = RuntimeRow> {
        (
            (
                "[a-z:0-9]{1,24}",
                0..SAFE,
                0..SAFE,
                0..SAFE,
                proptest::option::of(any::<i64>()),
            ),
            (
                proptest::option::of(any::<i64>()),
                proptest::option::of(".{0,40}"),
                0..SAFE,
                any::<bool>(),
                proptest::option::of(0..SAFE),
                0..SAFE,
                proptest::option::of(any::<i64>()),
            ),
            (
                proptest::option::of(0..SAFE),
                proptest::option::of(0..SAFE),
                0..SAFE,
                proptest::option::of(0..SAFE),
            ),
        )
            .prop_map(
                |(
                    (subscription_key, generation, acknowledged_offset, attempt, next_attempt_at_ms),
                    (in_flight, last_error, bytes_sent, isolating, retry_through, pruned, anchor),
                    (scanned_through, barrier, send_lease, journal_rows),
                )| RuntimeRow {
                    subscription_key,
                    cursor_changed_at_source_offset: generation,
                    acknowledged_offset,
                    attempt,
                    next_attempt_at_ms,
                    in_flight_deadline_at_ms: in_flight,
                    last_error,
                    bytes_sent,
                    isolating,
                    retry_through_offset: retry_through,
                    journal_pruned_through: pruned,
                    gate_anchor_ms: anchor,
                    window_scanned_through: scanned_through,
                    window_barrier_at: barrier,
                    send_lease,
                    journal_rows,
                },
            )
    }

    proptest! {
        #[test]
        fn s6_runtime_row_round_trips(row in any_row()) {
            prop_assert_eq!(RuntimeRow::decode(SELECT, &row.encode()), Ok(row));
        }
    }

    #[test]
    fn s6_select_names_the_columns_in_order() {
        for select in [SELECT, SELECT_ONE] {
            let listed = select
                .strip_prefix("SELECT ")
                .and_then(|rest| rest.split(" FROM ").next())
                .unwrap_or_default();
            let names: Vec<&str> = listed.split(',').map(str::trim).collect();
            assert_eq!(names, COLUMNS.to_vec());
        }
    }

    #[test]
    fn s6_a_short_row_is_a_decode_error() {
        let mut values = any_row_example().encode();
        values.pop();
        assert!(RuntimeRow::decode(SELECT, &values).is_err());
    }

    fn any_row_example() -> RuntimeRow {
        RuntimeRow {
            cursor_changed_at_source_offset: 3,
            acknowledged_offset: 2,
            ..RuntimeRow::fixture()
        }
    }
}
