//! Choosing the next batch of one subscription (docs/design.md §6 rules 1, 2, 4, 6):
//! read durable events after the cursor, skip what the filter rejects, shape
//! what it accepts, and mark the batch in flight.

use super::concurrent::{concurrent, OpenWindows};
use super::decide::{next, Next};
use super::scan::{LogRoom, Retract, Scan, Scope};
use super::shape::{phase, throttled, Phase, Shape};
use super::Outcome;
use crate::copy::{delivery_id, Stamp};
use crate::event::ControlType;
use crate::invalidation::Invalidation;
use crate::json_field::JsonField;
use crate::limits::{INVOCATION_LOG_BYTES, SCAN_PAGE_ROWS, SEND_TIMEOUT_MS};
use crate::schema::RuntimeRow;
use crate::state::OutboundSubscription;
use crate::storage::{Storage, StorageError};
use crate::stream::memory::{Hold, PendingDiscards};
use crate::stream::Stream;
use crate::subscription::{Configuration, Receiver};
use crate::time::rfc3339_millis;
use serde_json::json;

/// One event of a batch, as it will be sent.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedEvent {
    pub offset: u64,
    pub created_at_ms: i64,
    /// What is sent: a tree, or a copy's text as the receiving stream will
    /// store it (`delivery::prepare`).
    pub body: JsonField,
}

/// A batch to send: everything the shell needs, and everything
/// `complete_delivery` needs to recognise the result.
#[derive(Debug, Clone, PartialEq)]
pub struct DeliveryPlan {
    pub subscription_key: String,
    pub receiver: Receiver,
    pub stamp: Stamp,
    /// The cursor when the batch was read (exclusive).
    pub after_offset: u64,
    /// The last offset scanned: the cursor moves here on success.
    pub through_offset: u64,
    /// 1-based number of this attempt.
    pub attempt: u64,
    /// This send's lease (§6 rules 6, 7, 9): its result is taken only while
    /// the subscription's runtime row still waits for this very send. A
    /// send repeated after a restart has the same run, range and attempt
    /// number as the dead instance's, and another lease. 0 where a send is
    /// recognised otherwise (a concurrent slot by its window row, a
    /// dead-letter replay by its letter).
    pub lease: u64,
    pub delivery_id: String,
    pub started_at_ms: i64,
    pub events: Vec<PlannedEvent>,
    /// Set when preparing the batch already failed (filter or transform
    /// error, or the throttle refused it): do not send; complete with this outcome.
    pub prepared_failure: Option<Outcome>,
    /// The throttle refused this batch (§8): it is dead-lettered, whatever
    /// the subscription's failure mode.
    pub throttled: bool,
    /// The whole exchange's deadline (§6 rule 10, §12): the shell gives up
    /// on the send after this long.
    pub timeout_ms: u64,
    /// Set when this batch retracts earlier deliveries (§13): its events are
    /// `{deliveryId, offset}` of each retracted delivery, and the cursor
    /// stays before the invalidation until they are done.
    pub retraction: Option<Retraction>,
}

/// What planning one subscription gave ([`Stream::plan_delivery_within`]).
#[derive(Debug)]
pub enum Planning {
    /// Send this (or, with a prepared failure, complete it at once).
    Send(Box<DeliveryPlan>),
    /// Nothing to send now.
    Nothing,
    /// A log batch's first line does not fit in what the invocation may
    /// still log (§12 "log receiver"): it waits for the next invocation.
    WaitsForLogBudget,
}

impl From<Option<DeliveryPlan>> for Planning {
    fn from(plan: Option<DeliveryPlan>) -> Planning {
        plan.map_or(Planning::Nothing, |plan| Planning::Send(Box::new(plan)))
    }
}

/// What a retraction batch answers (§13).
#[derive(Debug, Clone, PartialEq)]
pub struct Retraction {
    pub invalidated_at: u64,
    pub reason: Option<String>,
}

impl<S: Storage> Stream<S> {
    /// Subscriptions the spine delivers: every valid one that is not halted
    /// (a hosted processor's too: its instance's checkpoint decides replay, §9).
    pub(super) fn deliverable(&self) -> impl Iterator<Item = (&String, &OutboundSubscription)> {
        self.state
            .subscriptions
            .outbound
            .by_key
            .iter()
            .filter(|(key, subscription)| {
                subscription.delivery_halted.is_none()
                    && self.memory.invalid(key).is_none()
                    && subscription.configuration.valid().is_some()
            })
    }

    fn due_at(&self, row: &RuntimeRow, head: u64) -> Option<i64> {
        if let Some(hold) = self.memory.hold(&row.subscription_key) {
            if row.in_flight_deadline_at_ms.is_none()
                && row.next_attempt_at_ms.is_none()
                && hold.after == row.acknowledged_offset
                && hold.head == head
            {
                return Some(hold.flush_at_ms);
            }
        }
        if let Some(deadline) = row.in_flight_deadline_at_ms {
            return Some(deadline);
        }
        if let Some(at) = row.next_attempt_at_ms {
            return Some(at);
        }
        (head > row.acknowledged_offset).then_some(i64::MIN)
    }

    /// When `subscription`'s work is due: a concurrent one's from its
    /// window (`open`: its open slots, §8 `concurrency`).
    fn due_of(
        &self,
        subscription: &OutboundSubscription,
        row: &RuntimeRow,
        head: u64,
        open: &OpenWindows,
    ) -> Option<i64> {
        let due = match subscription.configuration.valid().and_then(concurrent) {
            Some(delivery) => self.window_due_at(row, open.of(&row.subscription_key), head, delivery),
            None => self.due_at(row, head),
        };
        // A fork whose source could not be read waits before asking again (§18).
        due.map(|at| at.max(self.inherited_due_at(row.acknowledged_offset)))
    }

    /// When the single alarm should fire (§6 rule 1): the earliest due work
    /// (a delivery, or a retention trim step, §16). `i64::MIN` means "now".
    pub fn next_due_at(&self) -> Result<Option<i64>, StorageError> {
        let has_subscriptions = !self.state.subscriptions.outbound.by_key.is_empty();
        if !has_subscriptions
            && self.state.retention.is_none()
            && self.retention.oldest_ephemeral == Some(None)
            && self.retention.uncounted.is_none()
        {
            return Ok(None);
        }
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let rows = if has_subscriptions {
            self.runtime_rows()?
        } else {
            std::collections::BTreeMap::new()
        };
        let open = if has_subscriptions {
            self.open_windows()?
        } else {
            OpenWindows::default()
        };
        let delivery = self
            .deliverable()
            .filter_map(|(key, subscription)| {
                rows.get(key)
                    .and_then(|row| self.due_of(subscription, row, head, &open))
            })
            .min();
        let retention = self.retention_due_at()?;
        Ok(delivery.into_iter().chain(retention).min())
    }

    /// Keys of subscriptions with work due at `now_ms`.
    pub fn due_subscriptions(&self, now_ms: i64) -> Result<Vec<String>, StorageError> {
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let rows = self.runtime_rows()?;
        let open = self.open_windows()?;
        Ok(self
            .deliverable()
            .filter(|(key, subscription)| {
                rows.get(*key)
                    .and_then(|row| self.due_of(subscription, row, head, &open))
                    .is_some_and(|at| at <= now_ms)
            })
            .map(|(key, _)| key.clone())
            .collect())
    }

    pub(crate) fn stamp_for(&self, key: &str, subscription: &OutboundSubscription) -> Option<Stamp> {
        let meta = self.lifetime.as_ref()?;
        Some(Stamp {
            source_project_id: meta.project_id.clone(),
            source_path: meta.path.clone(),
            subscription_key: key.to_owned(),
            stream_id: meta.stream_id.clone(),
            stream_created_at: rfc3339_millis(meta.created_at_ms),
            cursor_changed_at_source_offset: subscription.cursor_changed_at_source_offset(),
        })
    }

    /// Plans the next batch of `key` at `now_ms`, marking it in flight; or
    /// returns `None` when nothing is due. A log batch may write what a
    /// fresh invocation may log ([`INVOCATION_LOG_BYTES`]); an alarm's turn
    /// plans with what it has left ([`Stream::plan_delivery_within`]).
    pub fn plan_delivery(
        &mut self,
        key: &str,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Option<DeliveryPlan>, StorageError> {
        Ok(
            match self.plan_delivery_within(key, now_ms, entropy, INVOCATION_LOG_BYTES)? {
                Planning::Send(plan) => Some(*plan),
                Planning::Nothing | Planning::WaitsForLogBudget => None,
            },
        )
    }

    /// Plans the next batch of `key` at `now_ms`, marking it in flight. A
    /// batch whose in-flight deadline passed (the object was evicted
    /// mid-send) is failed first, so a crash repeats work and never skips it
    /// (§6 rule 6). Bounded (§6 rule 10): at most
    /// [`MAX_SCAN_ROWS`](crate::limits::MAX_SCAN_ROWS) offsets are scanned
    /// and at most [`MAX_READ_BYTES`](crate::limits::MAX_READ_BYTES) read
    /// per page; a scan that finds nothing persists how far it got. A log
    /// batch's lines take at most `log_bytes_left` of the invocation's log
    /// (§12 "log receiver", §15.1).
    pub fn plan_delivery_within(
        &mut self,
        key: &str,
        now_ms: i64,
        entropy: [u8; 16],
        log_bytes_left: usize,
    ) -> Result<Planning, StorageError> {
        let Some((configuration, mut row, stamp)) = self.deliverable_now(key)? else {
            return Ok(Planning::Nothing);
        };
        if concurrent(&configuration).is_some() {
            return Ok(self
                .plan_concurrent(key, &configuration, row, &stamp, now_ms, entropy)?
                .into());
        }
        match phase(&row, now_ms) {
            Phase::InFlight { .. } | Phase::WaitingToRetry { .. } => return Ok(Planning::Nothing),
            Phase::DeadlinePassed => self.recover_expired_send(key, &mut row)?,
            Phase::Ready => {}
        }
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let shape = Shape::of(&configuration.receiver, &row, head);
        let scope = Scope {
            key,
            configuration: &configuration,
            stamp: &stamp,
            shape: &shape,
            now_ms,
            entropy,
            journal_pruned_through: row.journal_pruned_through,
            open_work_before: false,
            first_page_rows: u64::try_from(shape.wanted).unwrap_or(SCAN_PAGE_ROWS),
            log: matches!(configuration.receiver, Receiver::Log { .. }).then_some(LogRoom {
                left: log_bytes_left,
                attempt: row.attempt + 1,
            }),
        };
        let mut scan = Scan::new(&row);
        let end = scan.run(self, &scope)?;
        let planned = match next(&shape, &row, &scan, end, now_ms) {
            Next::Retract(retract) => {
                self.count_discards(&mut scan.discarded, scan.scanned);
                self.plan_retraction(&scope, row, scan.scanned, retract)
            }
            Next::Checkpoint => self.plan_checkpoint(&scope, row, scan.scanned),
            Next::Advance => self.advance_over_nothing(key, &row, &mut scan),
            Next::WaitForLogBudget => {
                // The cursor passes what the scan skipped before the line.
                self.pass_scanned(key, &row, scan.scanned)?;
                return Ok(Planning::WaitsForLogBudget);
            }
            Next::WaitForInherited => {
                self.pass_scanned(key, &row, scan.scanned)?;
                return Ok(Planning::Nothing);
            }
            Next::Hold(hold) => self.hold_aggregate(key, &row, &mut scan, hold),
            Next::Send { failure, pin_range } => self.plan_send(&scope, row, scan, failure, pin_range),
        };
        Ok(planned?.into())
    }

    /// What planning `key` needs, when it is a valid subscription of a
    /// living stream: its configuration, runtime row and stamp.
    fn deliverable_now(&self, key: &str) -> Result<Option<(Configuration, RuntimeRow, Stamp)>, StorageError> {
        let Some(subscription) = self.state.subscriptions.outbound.by_key.get(key) else {
            return Ok(None);
        };
        let Some(configuration) = subscription.configuration.valid().cloned() else {
            return Ok(None);
        };
        let Some(row) = self.runtime_row(key)? else {
            return Ok(None);
        };
        Ok(self
            .stamp_for(key, subscription)
            .map(|stamp| (configuration, row, stamp)))
    }

    /// The object died mid-send (§6 rule 6): nothing is known to have
    /// failed, so no attempt is spent and nothing halts or skips; the batch
    /// is retried now, one event at first (a digest keeps its pinned range
    /// and delivery id). The lost send's lease ends: should its result still
    /// come, it answers nothing (§6 rule 7).
    pub(super) fn recover_expired_send(&self, key: &str, row: &mut RuntimeRow) -> Result<(), StorageError> {
        self.storage.execute(
            "UPDATE subscription_runtime SET in_flight_deadline_at_ms = NULL, next_attempt_at_ms = NULL, \
             isolating = 1, last_error = ?, send_lease = send_lease + 1 \
             WHERE subscription_key = ? AND run_offset = ?",
            &[
                "in-flight deadline passed (the object restarted mid-send); retrying".into(),
                key.into(),
                row.cursor_changed_at_source_offset.into(),
            ],
        )?;
        row.in_flight_deadline_at_ms = None;
        row.next_attempt_at_ms = None;
        row.isolating = true;
        row.send_lease += 1;
        Ok(())
    }

    /// A hosted processor's checkpoint passes filtered-out events too (§9):
    /// the instance hears of the scanned range, with no events.
    fn plan_checkpoint(
        &mut self,
        scope: &Scope<'_>,
        mut row: RuntimeRow,
        scanned: u64,
    ) -> Result<Option<DeliveryPlan>, StorageError> {
        let deadline_ms = scope.shape.deadline_ms(scope.now_ms);
        row.in_flight_deadline_at_ms = Some(deadline_ms);
        let mut plan = self.plan_shell(scope.key, scope.configuration, scope.stamp, &row, scanned, scope.now_ms);
        plan.timeout_ms = scope.shape.timeout_ms;
        self.mark_in_flight(scope.key, deadline_ms, None, plan.lease)?;
        Ok(Some(plan))
    }

    /// The cursor of `key` moves over what a scan passed without sending
    /// (§6 rule 2), when it passed anything.
    fn pass_scanned(&self, key: &str, row: &RuntimeRow, scanned: u64) -> Result<(), StorageError> {
        if scanned > row.acknowledged_offset {
            self.advance_cursor(
                key,
                row.cursor_changed_at_source_offset,
                row.acknowledged_offset,
                scanned,
            )?;
        }
        Ok(())
    }

    /// Nothing matched: the cursor advances over the scanned range (§6 rule 2).
    fn advance_over_nothing(
        &mut self,
        key: &str,
        row: &RuntimeRow,
        scan: &mut Scan,
    ) -> Result<Option<DeliveryPlan>, StorageError> {
        self.pass_scanned(key, row, scan.scanned)?;
        self.count_discards(&mut scan.discarded, scan.scanned);
        if row.next_attempt_at_ms.is_some() || row.retry_through_offset.is_some() {
            // The retried work is gone (a gate held it): nothing is due
            // until the log moves, so the alarm does not spin.
            self.clear_retry(key, row.cursor_changed_at_source_offset)?;
        }
        Ok(None)
    }

    /// Hold (§8): the cursor stays before the first held event; it only
    /// passes the non-matching events in front of it.
    fn hold_aggregate(
        &mut self,
        key: &str,
        row: &RuntimeRow,
        scan: &mut Scan,
        hold: Hold,
    ) -> Result<Option<DeliveryPlan>, StorageError> {
        if hold.after > row.acknowledged_offset {
            self.advance_cursor(
                key,
                row.cursor_changed_at_source_offset,
                row.acknowledged_offset,
                hold.after,
            )?;
        }
        self.count_discards(&mut scan.discarded, hold.after);
        self.memory.of(key).hold = Some(hold);
        Ok(None)
    }

    /// The batch the scan collected, marked in flight; or, when preparing it
    /// failed or the receiver is refused, a plan completed unsent.
    fn plan_send(
        &mut self,
        scope: &Scope<'_>,
        mut row: RuntimeRow,
        mut scan: Scan,
        failure: Option<Outcome>,
        pin_range: bool,
    ) -> Result<Option<DeliveryPlan>, StorageError> {
        let key = scope.key;
        self.memory.of(key).hold = None;
        if let (Some(_), Some(before)) = (&failure, scan.first_match_after) {
            // A failing event is planned alone, after the cursor passed the
            // clean non-matches in front of it: a halt names the last offset
            // truly done, and its dead letter gets a single-event delivery id.
            if before > row.acknowledged_offset {
                self.advance_cursor(
                    key,
                    row.cursor_changed_at_source_offset,
                    row.acknowledged_offset,
                    before,
                )?;
                row.acknowledged_offset = before;
            }
            self.count_discards(&mut scan.discarded, before);
        }
        let (failure, throttled) = match failure {
            Some(failure) => (Some(failure), false),
            None => self.refusal(scope),
        };
        let deadline_ms = scope.shape.deadline_ms(scope.now_ms);
        row.in_flight_deadline_at_ms = Some(deadline_ms);
        let mut plan = self.plan_shell(key, scope.configuration, scope.stamp, &row, scan.scanned, scope.now_ms);
        plan.events = scan.events;
        plan.prepared_failure = failure;
        plan.throttled = throttled;
        plan.timeout_ms = scope.shape.timeout_ms;
        self.memory.of(key).gate_discards = (!scan.discarded.is_empty()).then(|| PendingDiscards {
            delivery_id: plan.delivery_id.clone(),
            count: scan.discarded.len() as u64,
        });
        if plan.prepared_failure.is_none() {
            self.mark_in_flight(key, deadline_ms, pin_range.then_some(scan.scanned), plan.lease)?;
        } else {
            // Completed at once, unsent: it is still the send the row waits for.
            self.hold_lease(key, plan.lease)?;
        }
        Ok(Some(plan))
    }

    /// Why a batch that prepared cleanly is not sent, and whether the
    /// throttle refused it.
    pub(super) fn refusal(&mut self, scope: &Scope<'_>) -> (Option<Outcome>, bool) {
        // Deployment rules are re-checked when sending (§9): a receiver
        // the deployment no longer allows fails permanently, visibly.
        if let Err(error) = self
            .memory
            .deployment_allows(scope.key, &self.deployment, scope.configuration)
        {
            return (
                Some(Outcome::permanent(format!(
                    "this deployment no longer allows the receiver: {error}"
                ))),
                false,
            );
        }
        match scope.shape.throttle {
            Some(throttle) if throttled(throttle, self.memory.of(scope.key).throttle, scope.now_ms) => (
                Some(Outcome::permanent(format!(
                    "throttled: policy allows {} deliveries per {}ms; replay this dead letter to deliver it",
                    throttle.max_deliveries, throttle.window_ms
                ))),
                true,
            ),
            _ => (None, false),
        }
    }

    /// Counts the maxOnce discards the cursor has now passed (§13).
    fn count_discards(&mut self, discarded: &mut Vec<u64>, passed: u64) {
        let before = discarded.len();
        discarded.retain(|offset| *offset > passed);
        self.counters.gate_discarded += (before - discarded.len()) as u64;
    }

    /// Forgets a retry whose work the scan no longer finds.
    fn clear_retry(&self, key: &str, cursor_changed_at_source_offset: u64) -> Result<(), StorageError> {
        self.storage.execute(
            "UPDATE subscription_runtime SET attempt = 0, next_attempt_at_ms = NULL, isolating = 0, \
             retry_through_offset = NULL WHERE subscription_key = ? AND run_offset = ?",
            &[key.into(), cursor_changed_at_source_offset.into()],
        )
    }

    fn plan_shell(
        &self,
        key: &str,
        configuration: &Configuration,
        stamp: &Stamp,
        row: &RuntimeRow,
        through: u64,
        now_ms: i64,
    ) -> DeliveryPlan {
        DeliveryPlan {
            subscription_key: key.to_owned(),
            receiver: configuration.receiver.clone(),
            stamp: stamp.clone(),
            after_offset: row.acknowledged_offset,
            through_offset: through,
            attempt: row.attempt + 1,
            lease: row.send_lease + 1,
            delivery_id: delivery_id(&stamp.stream_id, key, row.acknowledged_offset, through),
            started_at_ms: now_ms,
            events: Vec::new(),
            prepared_failure: None,
            throttled: false,
            timeout_ms: SEND_TIMEOUT_MS,
            retraction: None,
        }
    }

    /// A batch of retractions (§13), sent before anything after the
    /// invalidation: the cursor first passes what came before it.
    pub(super) fn plan_retraction(
        &mut self,
        scope: &Scope<'_>,
        mut row: RuntimeRow,
        scanned: u64,
        retract: Retract,
    ) -> Result<Option<DeliveryPlan>, StorageError> {
        let (key, stamp) = (scope.key, scope.stamp);
        let Retract {
            invalidation,
            pending,
            created_at_ms,
        } = retract;
        self.pass_scanned(key, &row, scanned)?;
        row.acknowledged_offset = row.acknowledged_offset.max(scanned);
        let deadline_ms = scope.shape.deadline_ms(scope.now_ms);
        row.in_flight_deadline_at_ms = Some(deadline_ms);
        let mut plan = self.plan_shell(
            key,
            scope.configuration,
            stamp,
            &row,
            row.acknowledged_offset,
            scope.now_ms,
        );
        let first = pending.first().map_or(0, |journaled| journaled.offset);
        let last = pending.last().map_or(0, |journaled| journaled.offset);
        plan.delivery_id = retraction_delivery_id(&stamp.stream_id, key, first, last, invalidation.at);
        plan.events = pending
            .into_iter()
            .map(|journaled| PlannedEvent {
                offset: journaled.offset,
                created_at_ms,
                body: json!({"deliveryId": journaled.delivery_id, "offset": journaled.offset}).into(),
            })
            .collect();
        plan.retraction = Some(Retraction {
            invalidated_at: invalidation.at,
            reason: invalidation.reason,
        });
        plan.timeout_ms = scope.shape.timeout_ms;
        if let Err(error) = self
            .memory
            .deployment_allows(scope.key, &self.deployment, scope.configuration)
        {
            plan.prepared_failure = Some(Outcome::permanent(format!(
                "this deployment no longer allows the receiver: {error}"
            )));
            self.hold_lease(key, plan.lease)?;
            return Ok(Some(plan));
        }
        self.mark_in_flight(key, deadline_ms, None, plan.lease)?;
        Ok(Some(plan))
    }

    /// An invalidation reaching back past what the journal retains (§13): the
    /// retained part was retracted; the gap is counted and recorded as a
    /// durable fact, never silent.
    pub(super) fn record_journal_gap(
        &mut self,
        key: &str,
        stamp: &Stamp,
        invalidation: &Invalidation,
        pruned_through: u64,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<(), StorageError> {
        let fact = json!({
            "type": ControlType::ErrorOccurred.as_str(),
            "payload": {
                "kind": "journal-gap", "subscriptionKey": key, "invalidatedAtOffset": invalidation.at,
                "journalPrunedThroughOffset": pruned_through,
                "message": "part of the invalidated range is older than the delivery journal retains; those deliveries were not retracted",
            },
            "idempotencyKey": crate::stream::facts::fact_key(
                "journal-gap:",
                &format!("{}:{}:{}", stamp.cursor_changed_at_source_offset, key, invalidation.at),
            ),
        });
        if self.append_engine_fact(fact, &crate::Inputs { now_ms, entropy })?.fresh {
            self.counters.journal_gaps += 1;
        }
        Ok(())
    }
}

/// The delivery id of a retraction (§13): its own, so consumers deduplicate
/// retractions too.
pub fn retraction_delivery_id(stream_id: &str, key: &str, first: u64, last: u64, invalidated_at: u64) -> String {
    let mut hasher = blake3::Hasher::new();
    for part in ["retract", stream_id, key] {
        hasher.update(part.as_bytes());
        hasher.update(&[0]);
    }
    for number in [first, last, invalidated_at] {
        hasher.update(&number.to_le_bytes());
    }
    let hex = hasher.finalize().to_hex();
    format!("rtr_{}", hex.as_str().get(..32).unwrap_or_default())
}
