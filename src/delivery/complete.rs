//! Taking a send's outcome (docs/design.md §6 rules 3, 5, 7, 8): acknowledge and
//! move the cursor, schedule a jittered retry, or halt with a durable fact.
//! A result from an older run, for a cursor that moved, or of a send the row
//! no longer waits for (its lease), changes nothing.

use super::settle::{settle, Settle};
use super::{Completion, DeliveryPlan, FailureKind, Outcome};
use crate::delivery::journal::{JournalCount, Journaled};
use crate::event::ControlType;
use crate::jsonata::{self, Compiled, JsonataError};
use crate::storage::{SqlValue, Storage, StorageError};
use crate::stream::facts::fact_key;
use crate::stream::memory::ThrottleWindow;
use crate::stream::Stream;
use crate::subscription::{Configuration, Gate, Throttle};
use crate::Inputs;
use serde_json::json;
use std::rc::Rc;

impl<S: Storage> Stream<S> {
    /// A compiled JSONata expression, compiled once per source text.
    pub(crate) fn compiled(&mut self, source: &str) -> Result<Rc<Compiled>, JsonataError> {
        if let Some(compiled) = self.memory.compiled.get(source) {
            return Ok(Rc::clone(compiled));
        }
        let compiled = Rc::new(jsonata::compile(source)?);
        self.memory.compiled.insert(source.to_owned(), Rc::clone(&compiled));
        Ok(compiled)
    }

    /// Marks the send holding `lease` in flight until `deadline_ms`: from
    /// now on the row waits for its result alone (§6 rules 6, 7, 9).
    pub(crate) fn mark_in_flight(
        &self,
        key: &str,
        deadline_ms: i64,
        digest_through: Option<u64>,
        lease: u64,
    ) -> Result<(), StorageError> {
        // A digest's range is pinned while it is in flight, so a retry after a
        // crash resends the same events under the same delivery id (§8).
        self.write_runtime_row(
            key,
            "UPDATE subscription_runtime SET in_flight_deadline_at_ms = ?, \
             retry_through_offset = COALESCE(?, retry_through_offset), send_lease = ? WHERE subscription_key = ?",
            &[
                SqlValue::Integer(deadline_ms),
                digest_through.into(),
                lease.into(),
                key.into(),
            ],
            |row| {
                row.in_flight_deadline_at_ms = Some(deadline_ms);
                row.retry_through_offset = digest_through.or(row.retry_through_offset);
                row.send_lease = lease;
            },
        )
    }

    /// A plan completed at once, unsent (a prepared failure), holds the
    /// row's lease like a send in flight.
    pub(crate) fn hold_lease(&self, key: &str, lease: u64) -> Result<(), StorageError> {
        self.storage.execute(
            "UPDATE subscription_runtime SET send_lease = ? WHERE subscription_key = ?",
            &[lease.into(), key.into()],
        )
    }

    /// Moves the cursor of `key` from `from` to `through`, only if the row is
    /// still in generation `cursor_changed_at_source_offset` (column
    /// `run_offset`) at `from` (compare-and-set).
    pub(crate) fn advance_cursor(
        &self,
        key: &str,
        cursor_changed_at_source_offset: u64,
        from: u64,
        through: u64,
    ) -> Result<(), StorageError> {
        self.storage.execute(
            "UPDATE subscription_runtime SET acknowledged_offset = ? \
             WHERE subscription_key = ? AND run_offset = ? AND acknowledged_offset = ?",
            &[
                through.into(),
                key.into(),
                cursor_changed_at_source_offset.into(),
                from.into(),
            ],
        )
    }

    /// Applies the outcome of `plan`'s send at `now_ms`, then lets the
    /// read-ahead go of the rows every cursor has passed (§12).
    pub fn complete_delivery(
        &mut self,
        plan: &DeliveryPlan,
        outcome: Outcome,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Completion, StorageError> {
        let completion = self.apply_outcome(plan, outcome, now_ms, entropy)?;
        self.release_read_ahead();
        Ok(completion)
    }

    fn apply_outcome(
        &mut self,
        plan: &DeliveryPlan,
        outcome: Outcome,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Completion, StorageError> {
        let key = plan.subscription_key.as_str();
        let Some(row) = self.runtime_row(key)? else {
            return Ok(Completion::Stale);
        };
        let Some(configuration) = self
            .state
            .subscriptions
            .outbound
            .by_key
            .get(key)
            .and_then(|subscription| subscription.configuration.valid())
            .cloned()
        else {
            return Ok(Completion::Stale);
        };
        if plan.retraction.is_none() && super::concurrent::concurrent(&configuration).is_some() {
            return self.complete_slot(plan, outcome, &row, &configuration, now_ms, entropy);
        }
        let lifetime = self.lifetime.as_ref().map(|meta| meta.stream_id.as_str());
        let delivery = configuration.receiver.delivery();
        // Whatever it settles, the statement that records it also ends the
        // send's lease (`send_lease + 1`): the same result handed over
        // again, or any other send's, answers nothing (§6 rule 7).
        match settle(plan, outcome, &row, delivery, lifetime, entropy) {
            Settle::Stale => Ok(Completion::Stale),
            Settle::Retracted => self.retracted(plan),
            Settle::Checkpointed { through } => self.checkpointed(plan, through, now_ms),
            Settle::Delivered => self.delivered(plan, &configuration, row.journal_rows, now_ms),
            Settle::Isolate { message } => self.isolate(key, row.attempt, message, now_ms),
            Settle::Skip {
                kind,
                attempts,
                message,
            } => self.skip(plan, &configuration, kind, attempts, &message, now_ms, entropy),
            Settle::Halt { attempts, message } => {
                self.halt(key, row.acknowledged_offset, attempts, &message, now_ms, entropy)
            }
            Settle::Retry {
                attempts,
                delay_ms,
                message,
            } => self.schedule_retry(plan, attempts, now_ms + delay_ms, message),
        }
    }

    /// A delivered retraction forgets its journal row (§13); the cursor
    /// stays before the invalidation until all are done.
    fn retracted(&mut self, plan: &DeliveryPlan) -> Result<Completion, StorageError> {
        let key = plan.subscription_key.as_str();
        let offsets: Vec<u64> = plan.events.iter().map(|event| event.offset).collect();
        self.journal_forget(key, &offsets)?;
        self.storage.execute(
            "UPDATE subscription_runtime SET attempt = 0, next_attempt_at_ms = NULL, in_flight_deadline_at_ms = NULL, \
             send_lease = send_lease + 1, last_error = NULL, isolating = 0 WHERE subscription_key = ?",
            &[key.into()],
        )?;
        self.counters.retractions += offsets.len() as u64;
        Ok(Completion::Acknowledged {
            through: plan.after_offset,
        })
    }

    /// The instance's checkpoint is the truth (§9); the runtime row is a
    /// watermark and follows it either way.
    fn checkpointed(&mut self, plan: &DeliveryPlan, through: u64, now_ms: i64) -> Result<Completion, StorageError> {
        let key = plan.subscription_key.as_str();
        self.storage.execute(
            "UPDATE subscription_runtime SET acknowledged_offset = ?, attempt = 0, next_attempt_at_ms = NULL, \
             in_flight_deadline_at_ms = NULL, send_lease = send_lease + 1, last_error = NULL, isolating = 0, \
             retry_through_offset = NULL WHERE subscription_key = ?",
            &[through.into(), key.into()],
        )?;
        if through >= plan.through_offset {
            self.record_timings(plan, now_ms);
        }
        Ok(Completion::Acknowledged { through })
    }

    /// The receiver took the whole batch: journal it (§13), move the maxOnce
    /// anchor, count the throttle, and move the cursor past it.
    fn delivered(
        &mut self,
        plan: &DeliveryPlan,
        configuration: &Configuration,
        journal_rows: Option<u64>,
        now_ms: i64,
    ) -> Result<Completion, StorageError> {
        let key = plan.subscription_key.as_str();
        let delivery = configuration.receiver.delivery();
        if let Some(throttle) = delivery.and_then(|delivery| delivery.throttle) {
            self.spend_throttle(key, throttle, plan.started_at_ms);
        }
        let bytes: usize = plan.events.iter().map(|event| event.body.json_len()).sum();
        let journal = self.journal_plan(plan, configuration, journal_rows)?;
        if let (Some(Gate::MaxOnce { .. }), Some(last)) =
            (delivery.and_then(|delivery| delivery.gate), plan.events.last())
        {
            // The anchor moves only when a delivery succeeds (§13).
            self.gate_anchor(key, last.created_at_ms)?;
        }
        self.count_pending_discards(plan);
        // The journal's count rides on the statement that moves the cursor.
        let (journal_rows, pruned_through) =
            journal.map_or((None, 0), |count| (Some(count.rows), count.pruned_through));
        self.write_runtime_row(
            key,
            "UPDATE subscription_runtime SET acknowledged_offset = ?, attempt = 0, next_attempt_at_ms = NULL, \
             in_flight_deadline_at_ms = NULL, send_lease = send_lease + 1, last_error = NULL, isolating = 0, \
             retry_through_offset = NULL, bytes_sent = bytes_sent + ?, journal_rows = COALESCE(?, journal_rows), \
             journal_pruned_through = MAX(journal_pruned_through, ?) WHERE subscription_key = ?",
            &[
                plan.through_offset.into(),
                (bytes as u64).into(),
                journal_rows.into(),
                pruned_through.into(),
                key.into(),
            ],
            |row| {
                row.acknowledged_offset = plan.through_offset;
                row.attempt = 0;
                row.next_attempt_at_ms = None;
                row.in_flight_deadline_at_ms = None;
                row.send_lease += 1;
                row.last_error = None;
                row.isolating = false;
                row.retry_through_offset = None;
                row.bytes_sent += bytes as u64;
                row.journal_rows = journal_rows.or(row.journal_rows);
                row.journal_pruned_through = row.journal_pruned_through.max(pruned_through);
            },
        )?;
        self.record_timings(plan, now_ms);
        Ok(Completion::Acknowledged {
            through: plan.through_offset,
        })
    }

    /// Only successful deliveries spend budget; the window is anchored at
    /// the first admitted delivery (§8).
    pub(super) fn spend_throttle(&mut self, key: &str, throttle: Throttle, started_at_ms: i64) {
        let window = self.memory.of(key).throttle.get_or_insert(ThrottleWindow {
            started_at_ms,
            delivered: 0,
        });
        if started_at_ms >= window.started_at_ms + throttle.window_ms as i64 {
            *window = ThrottleWindow {
                started_at_ms,
                delivered: 0,
            };
        }
        window.delivered += 1;
    }

    /// How long the exchange took and how late its last event arrived (§11).
    pub(super) fn record_timings(&mut self, plan: &DeliveryPlan, now_ms: i64) {
        let stats = &mut self.memory.of(&plan.subscription_key).stats;
        stats.delivery_duration_ms.record(now_ms - plan.started_at_ms);
        if let Some(last) = plan.events.last() {
            stats.completion_latency_ms.record(now_ms - last.created_at_ms);
        }
    }

    /// Isolate before giving up (§6 rule 4): retry now one event at a time,
    /// so only the failing event is halted on or skipped.
    fn isolate(&self, key: &str, attempt: u64, message: String, now_ms: i64) -> Result<Completion, StorageError> {
        self.storage.execute(
            "UPDATE subscription_runtime SET next_attempt_at_ms = ?, in_flight_deadline_at_ms = NULL, \
             send_lease = send_lease + 1, last_error = ?, isolating = 1, retry_through_offset = NULL \
             WHERE subscription_key = ?",
            &[SqlValue::Integer(now_ms), message.into(), key.into()],
        )?;
        Ok(Completion::RetryScheduled { attempt, at_ms: now_ms })
    }

    /// A jittered retry at `at_ms` (§6 rule 5); a digest keeps its range (§8).
    fn schedule_retry(
        &self,
        plan: &DeliveryPlan,
        attempts: u64,
        at_ms: i64,
        message: String,
    ) -> Result<Completion, StorageError> {
        let key = plan.subscription_key.as_str();
        let pinned = (plan.through_offset > plan.after_offset).then_some(plan.through_offset);
        self.storage.execute(
            "UPDATE subscription_runtime SET attempt = ?, next_attempt_at_ms = ?, in_flight_deadline_at_ms = NULL, \
             send_lease = send_lease + 1, last_error = ?, isolating = 1, \
             retry_through_offset = COALESCE(?, retry_through_offset) WHERE subscription_key = ?",
            &[
                attempts.into(),
                SqlValue::Integer(at_ms),
                message.into(),
                pinned.into(),
                key.into(),
            ],
        )?;
        Ok(Completion::RetryScheduled {
            attempt: attempts,
            at_ms,
        })
    }

    /// `skip` mode (§6 rule 5, §8): each event of the failed batch becomes a
    /// dead letter and the failure a durable `error-occurred` fact, *then*
    /// the cursor moves past them (write-then-advance; both are idempotent
    /// per delivery id).
    #[allow(clippy::too_many_arguments)]
    fn skip(
        &mut self,
        plan: &DeliveryPlan,
        configuration: &Configuration,
        kind: FailureKind,
        attempts: u64,
        message: &str,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Completion, StorageError> {
        let reason = dead_letter_reason(kind, message);
        self.record_dead_letters(plan, attempts, &reason, now_ms)?;
        if plan.retraction.is_some() {
            // Kept, marked: a dead-lettered retraction is not sent again (§13).
            let offsets: Vec<u64> = plan.events.iter().map(|event| event.offset).collect();
            self.journal_mark_dead_lettered(&plan.subscription_key, &offsets)?;
        } else {
            // A dead letter is rare: the journal is counted again.
            self.journal_plan_and_count(plan, configuration, None)?;
        }
        self.append_engine_fact(skipped_fact(plan, attempts, &reason), &Inputs { now_ms, entropy })?;
        self.storage.execute(
            "UPDATE subscription_runtime SET acknowledged_offset = ?, attempt = 0, next_attempt_at_ms = NULL, \
             in_flight_deadline_at_ms = NULL, send_lease = send_lease + 1, last_error = ?, isolating = 0, \
             retry_through_offset = NULL WHERE subscription_key = ? AND run_offset = ?",
            &[
                plan.through_offset.into(),
                reason.into(),
                plan.subscription_key.as_str().into(),
                plan.stamp.cursor_changed_at_source_offset.into(),
            ],
        )?;
        self.counters.skips += 1;
        self.count_pending_discards(plan);
        Ok(Completion::Skipped {
            through: plan.through_offset,
        })
    }

    /// Records the halt as a durable fact and resets the row so a resume
    /// restarts after `after_offset` with a fresh attempt count (§6 rules 5, 8).
    /// A digest's pinned range stays (§8, §13): a resume resends the same
    /// digest whole. Re-scanning from the cursor would run its gate again —
    /// a hit it dropped would come back as a new one, older than the digest
    /// a receiver may already hold. (Only a digest reads the pin.)
    fn halt(
        &mut self,
        key: &str,
        after_offset: u64,
        attempts: u64,
        message: &str,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Completion, StorageError> {
        let halted = json!({
            "type": ControlType::SubscriptionDeliveryHalted.as_str(),
            "payload": {"subscriptionKey": key, "reason": "delivery-failed", "afterOffset": after_offset, "attempts": attempts, "error": message},
        });
        // Reset first: a crash between the two repeats the retry budget
        // instead of leaving a resumed subscription with a spent one.
        self.storage.execute(
            "UPDATE subscription_runtime SET attempt = 0, next_attempt_at_ms = NULL, in_flight_deadline_at_ms = NULL, \
             send_lease = send_lease + 1, last_error = ?, isolating = 1 WHERE subscription_key = ?",
            &[message.into(), key.into()],
        )?;
        let halt_offset = self
            .append_engine_fact(halted, &Inputs { now_ms, entropy })?
            .event
            .offset;
        self.counters.halts += 1;
        Ok(Completion::Halted { halt_offset })
    }

    /// Journals what `plan` delivered or dead-lettered (§13), before the
    /// cursor passes it; releases a threshold gate's delivered hits. The
    /// journal's count is the caller's to record (`None`: nothing journaled).
    pub(super) fn journal_plan(
        &self,
        plan: &DeliveryPlan,
        configuration: &Configuration,
        known_rows: Option<u64>,
    ) -> Result<Option<JournalCount>, StorageError> {
        let Some(delivery) = configuration.receiver.delivery().filter(|_| {
            matches!(
                configuration.receiver,
                crate::subscription::Receiver::WebhookPost { .. } | crate::subscription::Receiver::ItxCall { .. }
            )
        }) else {
            return Ok(None);
        };
        let key = plan.subscription_key.as_str();
        let entries: Vec<Journaled> = plan
            .events
            .iter()
            .map(|event| Journaled {
                offset: event.offset,
                delivery_id: plan.delivery_id.clone(),
            })
            .collect();
        let count = self.journal_write(key, &entries, delivery.journal_depth(), known_rows)?;
        if matches!(delivery.gate, Some(Gate::Threshold { .. })) {
            self.gate_release_through(key, plan.through_offset)?;
        }
        Ok(Some(count))
    }

    /// Journals `plan` and records the journal's count at once (callers
    /// whose own statements do not carry it).
    pub(super) fn journal_plan_and_count(
        &self,
        plan: &DeliveryPlan,
        configuration: &Configuration,
        known_rows: Option<u64>,
    ) -> Result<(), StorageError> {
        match self.journal_plan(plan, configuration, known_rows)? {
            Some(count) => self.journal_count_write(&plan.subscription_key, count),
            None => Ok(()),
        }
    }

    /// The maxOnce discards in front of `plan` are passed with it (§13).
    fn count_pending_discards(&mut self, plan: &DeliveryPlan) {
        let memory = self.memory.of(&plan.subscription_key);
        if memory
            .gate_discards
            .as_ref()
            .is_some_and(|pending| pending.delivery_id == plan.delivery_id)
        {
            let count = memory.gate_discards.take().map_or(0, |pending| pending.count);
            self.counters.gate_discarded += count;
        }
    }
}

/// The durable `error-occurred` fact of a batch `skip` mode gave up on (§8),
/// idempotent per run and delivery id.
pub(super) fn skipped_fact(plan: &DeliveryPlan, attempts: u64, reason: &str) -> serde_json::Value {
    json!({
        "type": ControlType::ErrorOccurred.as_str(),
        "payload": {
            "kind": "delivery-skipped", "subscriptionKey": plan.subscription_key, "deliveryId": plan.delivery_id,
            "afterOffset": plan.after_offset, "throughOffset": plan.through_offset,
            "offsets": plan.events.iter().map(|event| event.offset).collect::<Vec<_>>(),
            "attempts": attempts, "reason": reason,
        },
        "idempotencyKey": fact_key("skipped:", &format!("{}:{}", plan.stamp.cursor_changed_at_source_offset, plan.delivery_id)),
    })
}

/// A dead letter's reason (§8): `"permanent: ..."` or `"transient: ..."`.
pub(super) fn dead_letter_reason(kind: FailureKind, message: &str) -> String {
    match kind {
        FailureKind::Permanent => format!("permanent: {message}"),
        FailureKind::Transient => format!("transient: {message}"),
    }
}
