//! Planning one send of a concurrent subscription (docs/design.md §8
//! `concurrency`; §6 rules 2, 6, 10; §13): a slot whose retry is due first,
//! else the next matching event past the window's frontier, each its own
//! single-event delivery.

use super::throttle_waits;
use crate::copy::CopyKeys;
use crate::copy::{delivery_id, Stamp};
use crate::delivery::prepare::Prepared;
use crate::delivery::scan::{Scan, ScanEnd, Scope};
use crate::delivery::shape::{phase, Phase, Shape};
use crate::delivery::{DeliveryPlan, Outcome, PlannedEvent};
use crate::json_field::JsonField;
use crate::jsonata::StepBudget;
use crate::limits::{MAX_CONCURRENT_WINDOW_OFFSETS, MAX_DELIVERY_CONCURRENCY, WINDOW_FIRST_PAGE_ROWS};
use crate::records::window_slot::{self, WindowSlot};
use crate::schema::RuntimeRow;
use crate::storage::{SqlValue, Storage, StorageError};
use crate::stream::Stream;
use crate::subscription::Configuration;
use serde_json::Value;

/// What one planning call of a concurrent subscription works on.
struct Window<'a> {
    key: &'a str,
    configuration: &'a Configuration,
    stamp: &'a Stamp,
    row: RuntimeRow,
    now_ms: i64,
    entropy: [u8; 16],
    /// Deliveries open in the window (in flight or waiting for a retry).
    open: usize,
}

impl Window<'_> {
    fn run(&self) -> u64 {
        self.row.cursor_changed_at_source_offset
    }

    /// The shape of a single-event delivery scanned from `frontier`, its scan
    /// bounded by the row budget (§12) and the window's span.
    fn shape(&self, frontier: u64, head: u64) -> Shape {
        let from = RuntimeRow {
            acknowledged_offset: frontier,
            ..self.row.clone()
        };
        let mut shape = Shape::of(&self.configuration.receiver, &from, head);
        shape.wanted = 1;
        shape.window_end = shape.window_end.min(
            self.row
                .acknowledged_offset
                .saturating_add(MAX_CONCURRENT_WINDOW_OFFSETS),
        );
        shape
    }

    fn scope<'s>(&'s self, shape: &'s Shape, open_work_before: bool) -> Scope<'s> {
        Scope {
            key: self.key,
            configuration: self.configuration,
            stamp: self.stamp,
            shape,
            now_ms: self.now_ms,
            entropy: self.entropy,
            journal_pruned_through: self.row.journal_pruned_through,
            open_work_before,
            first_page_rows: WINDOW_FIRST_PAGE_ROWS,
            // A log receiver is never concurrent (§15.1).
            log: None,
        }
    }
}

impl<S: Storage> Stream<S> {
    /// Plans one send of concurrent subscription `key` (its `row` read by
    /// the caller), or `None` when it has no free place or nothing to send.
    pub(in crate::delivery) fn plan_concurrent(
        &mut self,
        key: &str,
        configuration: &Configuration,
        mut row: RuntimeRow,
        stamp: &Stamp,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Option<DeliveryPlan>, StorageError> {
        // The row's own send is a retraction batch (§13): nothing else goes meanwhile.
        match phase(&row, now_ms) {
            Phase::InFlight { .. } | Phase::WaitingToRetry { .. } => return Ok(None),
            Phase::DeadlinePassed => self.recover_expired_send(key, &mut row)?,
            Phase::Ready => {}
        }
        let run = row.cursor_changed_at_source_offset;
        let mut open = self.open_slots(key, run)?;
        let lost = |slot: &WindowSlot| slot.in_flight_deadline_at_ms.is_some_and(|deadline| deadline <= now_ms);
        if open.iter().any(lost) {
            self.recover_expired_slots(key, run, now_ms)?;
            for slot in open.iter_mut().filter(|slot| lost(slot)) {
                slot.in_flight_deadline_at_ms = None;
            }
        }
        let mut window = Window {
            key,
            configuration,
            stamp,
            row,
            now_ms,
            entropy,
            open: open.len(),
        };
        if let Some(slot) = open.iter().find(|slot| slot.ready(now_ms)) {
            return self.replan_slot(&window, slot);
        }
        let delivery = configuration.receiver.delivery();
        let capacity = delivery.map_or(1, |delivery| delivery.concurrency().min(MAX_DELIVERY_CONCURRENCY)) as usize;
        let throttle = self.memory.of(key).throttle;
        let waits = throttle_waits(
            delivery.and_then(|delivery| delivery.throttle),
            throttle,
            open.len(),
            now_ms,
        );
        if open.len() >= capacity || waits {
            return Ok(None);
        }
        if window.row.window_barrier_at.is_some() {
            if !open.is_empty() {
                return Ok(None);
            }
            // Everything before the invalidation is done: the cursor reaches
            // it, and the scan below retracts or passes it (§13).
            self.window_barrier(key, run, None)?;
            window.row.window_barrier_at = None;
        }
        self.plan_next_event(&window)
    }

    /// A send found lost (its deadline passed, §6 rule 6) is retried now: no
    /// attempt is spent.
    fn recover_expired_slots(&self, key: &str, run: u64, now_ms: i64) -> Result<(), StorageError> {
        self.storage.execute(
            "UPDATE delivery_window SET in_flight_deadline_at_ms = NULL, last_error = ? \
             WHERE subscription_key = ? AND run_offset = ? AND completed = 0 AND in_flight_deadline_at_ms <= ?",
            &[
                "in-flight deadline passed (the object restarted mid-send); retrying".into(),
                key.into(),
                run.into(),
                SqlValue::Integer(now_ms),
            ],
        )
    }

    /// Scans past the frontier for the next event to send: it becomes a new
    /// slot; an invalidation with work open before it stops the window there.
    fn plan_next_event(&mut self, window: &Window<'_>) -> Result<Option<DeliveryPlan>, StorageError> {
        let (key, run, cursor) = (window.key, window.run(), window.row.acknowledged_offset);
        let frontier = window.row.window_frontier();
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let shape = window.shape(frontier, head);
        if frontier >= shape.window_end {
            return Ok(None);
        }
        let scope = window.scope(&shape, window.open > 0 || frontier > cursor);
        let mut scan = Scan::new(&RuntimeRow {
            acknowledged_offset: frontier,
            ..window.row.clone()
        });
        match scan.run(self, &scope)? {
            // Only with nothing open: the cursor stands at the frontier.
            ScanEnd::Retract(retract) => self.plan_retraction(&scope, window.row.clone(), scan.scanned, retract),
            ScanEnd::Failed(failure) => self.plan_new_slot(window, &scope, scan, Some(failure)),
            _ if !scan.events.is_empty() => self.plan_new_slot(window, &scope, scan, None),
            end => {
                if end == ScanEnd::Barrier {
                    self.window_barrier(key, run, scan.barrier_at)?;
                }
                self.window_scanned(key, run, scan.scanned)?;
                self.advance_window(key, run, cursor, scan.scanned.max(frontier))?;
                Ok(None)
            }
        }
    }

    /// The one event the scan collected becomes a slot in flight under its
    /// own delivery id; the cursor passes the clean non-matches before it
    /// when nothing earlier is open.
    fn plan_new_slot(
        &mut self,
        window: &Window<'_>,
        scope: &Scope<'_>,
        mut scan: Scan,
        failure: Option<Outcome>,
    ) -> Result<Option<DeliveryPlan>, StorageError> {
        let Some(event) = scan.events.pop() else {
            return Ok(None);
        };
        let (key, run) = (window.key, window.run());
        let offset = event.offset;
        let slot = WindowSlot {
            subscription_key: key.to_owned(),
            cursor_changed_at_source_offset: run,
            event_offset: offset,
            delivery_id: delivery_id(&window.stamp.stream_id, key, offset.saturating_sub(1), offset),
            attempt: 0,
            next_attempt_at_ms: None,
            in_flight_deadline_at_ms: Some(scope.shape.deadline_ms(window.now_ms)),
            last_error: None,
            completed: false,
            // Its first send holds the first lease.
            send_lease: 1,
        };
        self.storage.execute(window_slot::INSERT, &slot.encode())?;
        self.window_scanned(key, run, offset)?;
        if window.open == 0 {
            // Nothing open before it: the cursor passes what the scan passed.
            self.advance_window(key, run, window.row.acknowledged_offset, offset)?;
        }
        let (failure, throttled) = match failure {
            Some(failure) => (Some(failure), false),
            None => self.refusal(scope),
        };
        Ok(Some(slot_plan(window, scope.shape, &slot, event, failure, throttled)))
    }

    /// A slot sent again (its retry is due, or its send was lost): its event
    /// read and shaped again, under the same delivery id.
    fn replan_slot(&mut self, window: &Window<'_>, slot: &WindowSlot) -> Result<Option<DeliveryPlan>, StorageError> {
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let shape = window.shape(window.row.window_frontier(), head);
        let scope = window.scope(&shape, true);
        let offset = slot.event_offset;
        let (event, failure) = match crate::stream::rows::by_offset(&self.storage, offset)? {
            Some(stored) => {
                let planned = |body: JsonField| PlannedEvent {
                    offset,
                    created_at_ms: stored.created_at_ms,
                    body,
                };
                let form = self.copy_key_form(window.configuration, window.stamp)?;
                match self.prepare(
                    window.configuration,
                    window.stamp,
                    &CopyKeys::new(form, window.stamp),
                    &stored,
                    &mut StepBudget::per_call(),
                ) {
                    Prepared::Send(body) => (planned(body), None),
                    Prepared::Fail { message, body } => (planned(body.into()), Some(Outcome::permanent(message))),
                    // The same configuration judged this event before (a new
                    // configuration is a new run): this cannot happen, but a
                    // retry is never a silent pass (§6 rule 11).
                    Prepared::Skip | Prepared::OutOfSteps => (
                        planned(Value::Null.into()),
                        Some(Outcome::transient("the event could not be shaped again for its retry")),
                    ),
                }
            }
            None => (
                PlannedEvent {
                    offset,
                    created_at_ms: window.now_ms,
                    body: Value::Null.into(),
                },
                Some(Outcome::permanent(format!("event {offset} is no longer in the log"))),
            ),
        };
        // This send takes a new lease: a result of the send before it (a lost
        // one keeps its attempt number) answers nothing (§6 rule 7).
        let sent = WindowSlot {
            send_lease: slot.send_lease + 1,
            ..slot.clone()
        };
        self.storage.execute(
            "UPDATE delivery_window SET in_flight_deadline_at_ms = ?, next_attempt_at_ms = NULL, send_lease = ? \
             WHERE subscription_key = ? AND run_offset = ? AND event_offset = ?",
            &[
                SqlValue::Integer(shape.deadline_ms(window.now_ms)),
                sent.send_lease.into(),
                window.key.into(),
                window.run().into(),
                offset.into(),
            ],
        )?;
        let (failure, throttled) = match failure {
            Some(failure) => (Some(failure), false),
            None => self.refusal(&scope),
        };
        Ok(Some(slot_plan(window, &shape, &sent, event, failure, throttled)))
    }
}

/// The single-event delivery of `slot`: its range is its one offset.
fn slot_plan(
    window: &Window<'_>,
    shape: &Shape,
    slot: &WindowSlot,
    event: PlannedEvent,
    prepared_failure: Option<Outcome>,
    throttled: bool,
) -> DeliveryPlan {
    DeliveryPlan {
        subscription_key: window.key.to_owned(),
        receiver: window.configuration.receiver.clone(),
        stamp: window.stamp.clone(),
        after_offset: slot.event_offset.saturating_sub(1),
        through_offset: slot.event_offset,
        attempt: slot.attempt + 1,
        lease: slot.send_lease,
        delivery_id: slot.delivery_id.clone(),
        started_at_ms: window.now_ms,
        events: vec![event],
        prepared_failure,
        throttled,
        timeout_ms: shape.timeout_ms,
        retraction: None,
    }
}
