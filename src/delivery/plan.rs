//! Choosing the next batch of one subscription (DESIGN.md §6 rules 1, 2, 4, 6):
//! read durable events after the cursor, skip what the filter rejects, shape
//! what it accepts, and mark the batch in flight.

use super::Outcome;
use crate::copy::{chain_of, copy_idempotency_key, delivery_id, Hop, Stamp};
use crate::delivery::gate::{Held, ThresholdStep};
use crate::delivery::journal::{GateHit, Journaled};
use crate::event::{CommittedEvent, ControlType, StoredEvent};
use crate::invalidation::Invalidation;
use crate::jsonata::{JsonataError, StepBudget};
use crate::limits::{
    DEFAULT_WEBHOOK_TIMEOUT_MS, IN_FLIGHT_GRACE_MS, MAX_DELIVERY_BATCH_BYTES, MAX_DELIVERY_BATCH_EVENTS,
    MAX_READ_BYTES, MAX_SCAN_ROWS, SCAN_PAGE_ROWS, SEND_TIMEOUT_MS,
};
use crate::schema::RuntimeRow;
use crate::state::OutboundSubscription;
use crate::storage::{Storage, StorageError};
use crate::stream::memory::{Hold, PendingDiscards};
use crate::stream::Stream;
use crate::subscription::{Configuration, Gate, Receiver};
use crate::time::rfc3339_millis;
use serde_json::{json, Map, Value};

/// One event of a batch, as it will be sent.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedEvent {
    pub offset: u64,
    pub created_at_ms: i64,
    pub body: Value,
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

/// What a retraction batch answers (§13).
#[derive(Debug, Clone, PartialEq)]
pub struct Retraction {
    pub invalidated_at: u64,
    pub reason: Option<String>,
}

/// This stream's own `events-invalidated` (a copied one is data here, §4).
fn local_invalidation(event: &StoredEvent) -> Option<Invalidation> {
    if event.source.is_some() || !ControlType::EventsInvalidated.is(&event.event_type) {
        return None;
    }
    let payload: Value = serde_json::from_str(event.payload.get()).ok()?;
    Invalidation::parse(&payload, event.offset).ok()
}

/// Audit facts this stream appended itself are never delivered onward (§7 rule 3).
fn is_local_audit(event: &StoredEvent) -> bool {
    event.source.is_none() && ControlType::ErrorOccurred.is(&event.event_type)
}

enum Prepared {
    Send(Value),
    Skip,
    /// The filter or transform failed on this event: it is a permanent
    /// failure of the event (§5), carried in the plan so that `skip` mode
    /// dead-letters it (§6 rule 11) and `halt` mode halts on it.
    Fail {
        message: String,
        body: Value,
    },
    /// The scan's JSONata step budget ran out on this event (§12 "JSONata
    /// per engine call"): not a failure; the scan stops before it and the
    /// next call evaluates it again with a fresh budget.
    OutOfSteps,
}

impl<S: Storage> Stream<S> {
    /// Subscriptions the spine delivers: every valid one that is not halted
    /// (a hosted processor's too: its instance's checkpoint decides replay, §9).
    fn deliverable(&self) -> impl Iterator<Item = (&String, &OutboundSubscription)> {
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

    /// When the single alarm should fire (§6 rule 1): the earliest due work.
    /// `i64::MIN` means "now".
    pub fn next_due_at(&self) -> Result<Option<i64>, StorageError> {
        if self.state.subscriptions.outbound.by_key.is_empty() {
            return Ok(None);
        }
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let rows = self.runtime_rows()?;
        Ok(self
            .deliverable()
            .filter_map(|(key, _)| rows.get(key).and_then(|row| self.due_at(row, head)))
            .min())
    }

    /// Keys of subscriptions with work due at `now_ms`.
    pub fn due_subscriptions(&self, now_ms: i64) -> Result<Vec<String>, StorageError> {
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let rows = self.runtime_rows()?;
        Ok(self
            .deliverable()
            .filter(|(key, _)| {
                rows.get(*key)
                    .and_then(|row| self.due_at(row, head))
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

    fn prepare(
        &mut self,
        configuration: &Configuration,
        stamp: &Stamp,
        event: &StoredEvent,
        steps: &mut StepBudget,
    ) -> Prepared {
        if is_local_audit(event) {
            return Prepared::Skip;
        }
        if let Some(types) = configuration
            .filter
            .as_ref()
            .and_then(|filter| filter.event_types.as_ref())
        {
            if !types.contains(&event.event_type) {
                return Prepared::Skip;
            }
        }
        let committed = serde_json::to_value(CommittedEvent::from(event.clone())).unwrap_or(Value::Null);
        if let Some(condition) = configuration
            .filter
            .as_ref()
            .and_then(|filter| filter.jsonata_condition.as_deref())
        {
            match self
                .compiled(condition)
                .and_then(|compiled| compiled.matches_metered(&committed, steps))
            {
                Ok(true) => {}
                Ok(false) => return Prepared::Skip,
                Err(JsonataError::CallBudgetSpent) => return Prepared::OutOfSteps,
                Err(error) => {
                    return Prepared::Fail {
                        message: format!("filter failed on offset {}: {error}", event.offset),
                        body: committed,
                    }
                }
            }
        }
        let mut shaped = Map::new();
        shaped.insert("type".to_owned(), json!(event.event_type));
        for name in ["payload", "metadata"] {
            shaped.insert(name.to_owned(), committed.get(name).cloned().unwrap_or(Value::Null));
        }
        if let Some(transform) = configuration.receiver.jsonata_transform() {
            match self
                .compiled(transform)
                .and_then(|compiled| compiled.evaluate_metered(Some(&committed), steps))
            {
                Err(JsonataError::CallBudgetSpent) => return Prepared::OutOfSteps,
                Ok(Some(Value::Object(fields))) => {
                    for name in ["type", "payload", "metadata"] {
                        if let Some(value) = fields.get(name) {
                            shaped.insert(name.to_owned(), value.clone());
                        }
                    }
                }
                Ok(other) => {
                    let got = crate::text::excerpt(&other.map_or("undefined".to_owned(), |v| v.to_string()));
                    return Prepared::Fail {
                        message: format!("transform on offset {} must produce an object, got {got}", event.offset),
                        body: committed,
                    };
                }
                Err(error) => {
                    return Prepared::Fail {
                        message: format!("transform failed on offset {}: {error}", event.offset),
                        body: committed,
                    }
                }
            }
        }
        if !matches!(configuration.receiver, Receiver::CopyToStream { .. }) {
            let mut delivered = committed.as_object().cloned().unwrap_or_default();
            delivered.extend(shaped);
            return Prepared::Send(Value::Object(delivered));
        }
        let mut chain = chain_of(
            event
                .source
                .as_ref()
                .and_then(|raw| serde_json::from_str::<Value>(raw.get()).ok())
                .as_ref(),
        );
        chain.push(Hop {
            project_id: stamp.source_project_id.clone(),
            path: stamp.source_path.clone(),
            stream_id: stamp.stream_id.clone(),
            stream_created_at: stamp.stream_created_at.clone(),
            offset: event.offset,
            event_type: event.event_type.clone(),
            created_at: rfc3339_millis(event.created_at_ms),
            subscription_key: stamp.subscription_key.clone(),
            cursor_changed_at_source_offset: stamp.cursor_changed_at_source_offset,
        });
        shaped.insert("source".to_owned(), json!({ "copiedFrom": chain }));
        shaped.insert(
            "idempotencyKey".to_owned(),
            json!(copy_idempotency_key(stamp, event.offset)),
        );
        Prepared::Send(Value::Object(shaped))
    }

    /// Plans the next batch of `key` at `now_ms`, marking it in flight; or
    /// returns `None` when nothing is due. A batch whose in-flight deadline
    /// passed (the object was evicted mid-send) is failed first, so a crash
    /// repeats work and never skips it (§6 rule 6). Bounded (§6 rule 10): at
    /// most [`MAX_SCAN_ROWS`] offsets are scanned and at most
    /// [`MAX_READ_BYTES`] read per page; a scan that finds nothing persists
    /// how far it got.
    pub fn plan_delivery(
        &mut self,
        key: &str,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Option<DeliveryPlan>, StorageError> {
        let Some(subscription) = self.state.subscriptions.outbound.by_key.get(key).cloned() else {
            return Ok(None);
        };
        let Some(configuration) = subscription.configuration.valid().cloned() else {
            return Ok(None);
        };
        let Some(mut row) = self.runtime_rows()?.remove(key) else {
            return Ok(None);
        };
        let Some(stamp) = self.stamp_for(key, &subscription) else {
            return Ok(None);
        };
        if row.in_flight_deadline_at_ms.is_some_and(|deadline| deadline <= now_ms) {
            // The object died mid-send (§6 rule 6): nothing is known to have
            // failed, so no attempt is spent and nothing halts or skips; the
            // batch is retried now, one event at first (a digest keeps its
            // pinned range and delivery id).
            self.storage.execute(
                "UPDATE subscription_runtime SET in_flight_deadline_at_ms = NULL, next_attempt_at_ms = NULL, \
                 isolating = 1, last_error = ? WHERE subscription_key = ? AND run_offset = ?",
                &[
                    "in-flight deadline passed (the object restarted mid-send); retrying".into(),
                    key.into(),
                    row.cursor_changed_at_source_offset.into(),
                ],
            )?;
            row.in_flight_deadline_at_ms = None;
            row.next_attempt_at_ms = None;
            row.isolating = true;
        }
        if row.in_flight_deadline_at_ms.is_some() || row.next_attempt_at_ms.is_some_and(|at| at > now_ms) {
            return Ok(None);
        }
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let (batch_limit, timeout_ms) = match &configuration.receiver {
            Receiver::WebhookPost { delivery, .. } => (1, delivery.timeout_ms.unwrap_or(DEFAULT_WEBHOOK_TIMEOUT_MS)),
            _ => (MAX_DELIVERY_BATCH_EVENTS, SEND_TIMEOUT_MS),
        };
        let deadline_ms = now_ms
            .saturating_add(i64::try_from(timeout_ms).unwrap_or(i64::MAX))
            .saturating_add(IN_FLIGHT_GRACE_MS);
        let delivery = configuration.receiver.delivery().cloned();
        let aggregate = delivery.as_ref().and_then(|delivery| delivery.aggregate);
        let threshold_gate = delivery
            .as_ref()
            .is_some_and(|delivery| matches!(delivery.gate, Some(Gate::Threshold { .. })));
        // A maxOnce gate plans one admitted hit at a time (§13): the hits
        // behind it are judged against the anchor its success sets, so an
        // isolated retry can never discard a hit this batch already tried.
        let max_once = delivery
            .as_ref()
            .is_some_and(|delivery| matches!(delivery.gate, Some(Gate::MaxOnce { .. })));
        // A digest is retried whole and dead-letters event by event (§8), so
        // aggregation never isolates.
        let wanted = match aggregate {
            Some(aggregate) => usize::try_from(aggregate.max_batch).unwrap_or(MAX_DELIVERY_BATCH_EVENTS),
            None if row.isolating || max_once => 1,
            None => batch_limit,
        };
        // A digest awaiting retry resends exactly the same range (§8), a
        // threshold gate's too (§13: the gate decided once, when it minted).
        let retry_through = row
            .retry_through_offset
            .filter(|through| (aggregate.is_some() || threshold_gate) && *through > row.acknowledged_offset);
        let scan_limit = retry_through.map_or(head, |through| through.min(head));
        // The scan budget (§12): this call looks at no offset past `window_end`.
        let window_end = scan_limit.min(row.acknowledged_offset.saturating_add(MAX_SCAN_ROWS));
        let mut first_match_after: Option<u64> = None;
        let mut events = Vec::new();
        let mut bytes = 0usize;
        let mut scanned = row.acknowledged_offset;
        let mut failure = None;
        let mut batch_full = false;
        // Retraction and gates (§13) apply to itx-call and webhook-post.
        let journaled = matches!(
            configuration.receiver,
            Receiver::WebhookPost { .. } | Receiver::ItxCall { .. }
        );
        let gate = delivery.as_ref().and_then(|delivery| delivery.gate);
        // A maxOnce gate judges against the anchor of the last delivery that
        // succeeded (§13); what it discards is counted once the cursor passes it.
        let mut gate_anchor = row.gate_anchor_ms;
        let mut discarded: Vec<u64> = Vec::new();
        let mut held: Option<Held> = None;
        let mut gate_minted = false;
        if let (true, Some(through)) = (threshold_gate, retry_through) {
            // The minted digest, re-read as it was: the scan window is empty.
            events = self.gate_digest(key, through)?;
            scanned = through;
            gate_minted = true;
        }
        // The scan stopped at an invalidation: what is collected goes now.
        let mut at_barrier = false;
        let mut retract: Option<(Invalidation, Vec<Journaled>, i64)> = None;
        // The JSONata steps this scan may spend (§12 "JSONata per engine
        // call"); past them it stops like at the row budget.
        let mut steps = StepBudget::per_call();
        let mut out_of_steps = false;
        // Each page moves `scanned` forward or ends the scan, and the window
        // holds at most MAX_SCAN_ROWS offsets: at most that many pages.
        'scan: for _page in 0..MAX_SCAN_ROWS {
            if scanned >= window_end {
                break;
            }
            let page = crate::stream::rows::read_window(
                &self.storage,
                crate::stream::rows::Window {
                    after: scanned,
                    through: window_end,
                    ephemeral_after: crate::stream::rows::NO_EPHEMERAL,
                    max_rows: SCAN_PAGE_ROWS,
                    max_bytes: MAX_READ_BYTES,
                },
            )?;
            for event in page.events {
                if let Some(invalidation) = local_invalidation(&event).filter(|_| journaled) {
                    if !events.is_empty() {
                        at_barrier = true;
                        break 'scan;
                    }
                    if threshold_gate {
                        self.gate_drop_invalidated(key, &mut held, &invalidation)?;
                    }
                    let retracting = if row.isolating { 1 } else { batch_limit };
                    let pending = self.journal_to_retract(key, &invalidation, retracting)?;
                    if !pending.is_empty() {
                        // Nothing after the invalidation goes before its retractions.
                        scanned = scanned.max(event.offset.saturating_sub(1));
                        retract = Some((invalidation, pending, event.created_at_ms));
                        break 'scan;
                    }
                    if row.journal_pruned_through >= invalidation.lowest() {
                        self.record_journal_gap(
                            key,
                            &stamp,
                            &invalidation,
                            row.journal_pruned_through,
                            now_ms,
                            entropy,
                        )?;
                    }
                }
                match self.prepare(&configuration, &stamp, &event, &mut steps) {
                    Prepared::Skip => scanned = event.offset,
                    Prepared::OutOfSteps => {
                        out_of_steps = true;
                        break 'scan;
                    }
                    Prepared::Fail { message, body } if events.is_empty() => {
                        first_match_after = Some(scanned);
                        scanned = event.offset;
                        events.push(PlannedEvent {
                            offset: event.offset,
                            created_at_ms: event.created_at_ms,
                            body,
                        });
                        failure = Some(Outcome::permanent(message));
                        break 'scan;
                    }
                    Prepared::Fail { .. } => break 'scan,
                    Prepared::Send(body) => {
                        match gate {
                            Some(Gate::MaxOnce { window_ms }) => {
                                let window = i64::try_from(window_ms).unwrap_or(i64::MAX);
                                if gate_anchor.is_some_and(|anchor| event.created_at_ms < anchor.saturating_add(window))
                                {
                                    // Quietly discarded (§13): never tried, no dead letter.
                                    discarded.push(event.offset);
                                    scanned = event.offset;
                                    continue;
                                }
                                gate_anchor = Some(event.created_at_ms);
                            }
                            Some(Gate::Threshold { count, window_ms }) => {
                                let hit = GateHit::new(event.offset, event.created_at_ms, &body);
                                match self.threshold_admit(key, &mut held, hit, count, window_ms)? {
                                    // Held hits do not hold the cursor (§13).
                                    ThresholdStep::Held => scanned = event.offset,
                                    ThresholdStep::Mint => {
                                        scanned = event.offset;
                                        gate_minted = true;
                                        break 'scan;
                                    }
                                    ThresholdStep::MintBefore => {
                                        gate_minted = true;
                                        break 'scan;
                                    }
                                }
                                continue;
                            }
                            None => {}
                        }
                        let size = body.to_string().len();
                        if !events.is_empty() && bytes + size > MAX_DELIVERY_BATCH_BYTES {
                            batch_full = true;
                            break 'scan;
                        }
                        bytes += size;
                        if events.is_empty() {
                            first_match_after = Some(scanned);
                        }
                        scanned = event.offset;
                        events.push(PlannedEvent {
                            offset: event.offset,
                            created_at_ms: event.created_at_ms,
                            body,
                        });
                        // A copy batch ends at an invalidation (§13).
                        if events.len() >= wanted || crate::copy::ends_batch(&configuration.receiver, &event) {
                            break 'scan;
                        }
                    }
                }
            }
            if page.exhausted {
                // Everything up to the window's end was seen (ephemeral rows
                // included: durable cursors pass over them, §3 rule 5).
                scanned = window_end;
                break;
            }
        }
        if gate_minted && events.is_empty() {
            events = self.gate_digest(key, scanned)?;
        }
        if let Some((invalidation, pending, created_at_ms)) = retract {
            self.count_discards(&mut discarded, scanned);
            return self.plan_retraction(
                key,
                &configuration,
                &stamp,
                row,
                scanned,
                invalidation,
                pending,
                created_at_ms,
                now_ms,
                deadline_ms,
                timeout_ms,
            );
        }
        if events.is_empty()
            && matches!(configuration.receiver, Receiver::ProcessorWake { .. })
            && scanned > row.acknowledged_offset
        {
            // A hosted processor's checkpoint passes filtered-out events too
            // (§9): the instance hears of the scanned range, with no events.
            row.in_flight_deadline_at_ms = Some(deadline_ms);
            let mut plan = self.plan_shell(key, &configuration, &stamp, &row, scanned, now_ms);
            plan.timeout_ms = timeout_ms;
            self.mark_in_flight(key, deadline_ms, None)?;
            return Ok(Some(plan));
        }
        if events.is_empty() {
            // Nothing matched: the cursor advances over the scanned range (§6 rule 2).
            if scanned > row.acknowledged_offset {
                self.advance_cursor(
                    key,
                    row.cursor_changed_at_source_offset,
                    row.acknowledged_offset,
                    scanned,
                )?;
            }
            self.count_discards(&mut discarded, scanned);
            if row.next_attempt_at_ms.is_some() || row.retry_through_offset.is_some() {
                // The retried work is gone (a gate held it): nothing is due
                // until the log moves, so the alarm does not spin.
                self.clear_retry(key, row.cursor_changed_at_source_offset)?;
            }
            return Ok(None);
        }
        if let (Some(aggregate), None, Some(first)) = (aggregate, &failure, events.first()) {
            let flush_at_ms = first.created_at_ms.saturating_add(aggregate.window_ms as i64);
            // A scan that stopped at its budget with the log going on flushes
            // now: held events hold the cursor, so waiting could never see
            // past the budget.
            let saw_head = window_end >= head && !batch_full && !at_barrier && !gate_minted && !out_of_steps;
            if retry_through.is_none()
                && (events.len() as u64) < aggregate.max_batch
                && now_ms < flush_at_ms
                && saw_head
            {
                // Hold (§8): the cursor stays before the first held event; it only
                // passes the non-matching events in front of it.
                let before_first = first_match_after.unwrap_or(row.acknowledged_offset);
                if before_first > row.acknowledged_offset {
                    self.advance_cursor(
                        key,
                        row.cursor_changed_at_source_offset,
                        row.acknowledged_offset,
                        before_first,
                    )?;
                }
                self.count_discards(&mut discarded, before_first);
                self.memory.of(key).hold = Some(Hold {
                    after: before_first,
                    head,
                    flush_at_ms,
                });
                return Ok(None);
            }
        }
        self.memory.of(key).hold = None;
        if let (Some(_), Some(before)) = (&failure, first_match_after) {
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
            self.count_discards(&mut discarded, before);
        }
        if failure.is_none() {
            // Deployment rules are re-checked when sending (§9): a receiver
            // the deployment no longer allows fails permanently, visibly.
            if let Err(error) = self.deployment.check(&configuration) {
                failure = Some(Outcome::permanent(format!(
                    "this deployment no longer allows the receiver: {error}"
                )));
            }
        }
        let mut throttled = false;
        if let (Some(throttle), None) = (delivery.as_ref().and_then(|delivery| delivery.throttle), &failure) {
            let window = self.memory.of(key).throttle;
            if window.is_some_and(|window| {
                now_ms < window.started_at_ms + throttle.window_ms as i64 && window.delivered >= throttle.max_deliveries
            }) {
                throttled = true;
                failure = Some(Outcome::permanent(format!(
                    "throttled: policy allows {} deliveries per {}ms; replay this dead letter to deliver it",
                    throttle.max_deliveries, throttle.window_ms
                )));
            }
        }
        row.in_flight_deadline_at_ms = Some(deadline_ms);
        let mut plan = self.plan_shell(key, &configuration, &stamp, &row, scanned, now_ms);
        plan.events = events;
        plan.prepared_failure = failure;
        plan.throttled = throttled;
        plan.timeout_ms = timeout_ms;
        self.memory.of(key).gate_discards = (!discarded.is_empty()).then(|| PendingDiscards {
            delivery_id: plan.delivery_id.clone(),
            count: discarded.len() as u64,
        });
        if plan.prepared_failure.is_none() {
            self.mark_in_flight(
                key,
                deadline_ms,
                (aggregate.is_some() || gate_minted).then_some(scanned),
            )?;
        }
        Ok(Some(plan))
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
    #[allow(clippy::too_many_arguments)]
    fn plan_retraction(
        &mut self,
        key: &str,
        configuration: &Configuration,
        stamp: &Stamp,
        mut row: RuntimeRow,
        scanned: u64,
        invalidation: Invalidation,
        pending: Vec<Journaled>,
        created_at_ms: i64,
        now_ms: i64,
        deadline_ms: i64,
        timeout_ms: u64,
    ) -> Result<Option<DeliveryPlan>, StorageError> {
        if scanned > row.acknowledged_offset {
            self.advance_cursor(
                key,
                row.cursor_changed_at_source_offset,
                row.acknowledged_offset,
                scanned,
            )?;
            row.acknowledged_offset = scanned;
        }
        row.in_flight_deadline_at_ms = Some(deadline_ms);
        let mut plan = self.plan_shell(key, configuration, stamp, &row, row.acknowledged_offset, now_ms);
        let first = pending.first().map_or(0, |journaled| journaled.offset);
        let last = pending.last().map_or(0, |journaled| journaled.offset);
        plan.delivery_id = retraction_delivery_id(&stamp.stream_id, key, first, last, invalidation.at);
        plan.events = pending
            .into_iter()
            .map(|journaled| PlannedEvent {
                offset: journaled.offset,
                created_at_ms,
                body: json!({"deliveryId": journaled.delivery_id, "offset": journaled.offset}),
            })
            .collect();
        plan.retraction = Some(Retraction {
            invalidated_at: invalidation.at,
            reason: invalidation.reason,
        });
        plan.timeout_ms = timeout_ms;
        if let Err(error) = self.deployment.check(configuration) {
            plan.prepared_failure = Some(Outcome::permanent(format!(
                "this deployment no longer allows the receiver: {error}"
            )));
            return Ok(Some(plan));
        }
        self.mark_in_flight(key, deadline_ms, None)?;
        Ok(Some(plan))
    }

    /// An invalidation reaching back past what the journal retains (§13): the
    /// retained part was retracted; the gap is counted and recorded as a
    /// durable fact, never silent.
    fn record_journal_gap(
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
            "idempotencyKey": format!("journal-gap:{}:{}:{}", stamp.cursor_changed_at_source_offset, key, invalidation.at),
        });
        if self.append_fact_once(fact, now_ms, entropy)? {
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
