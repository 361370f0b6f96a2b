//! Taking the outcome of one concurrent delivery (DESIGN.md §8
//! `concurrency`, §6 rules 5, 7, 11; §13): its slot alone is acknowledged
//! and journaled, dead-lettered, or scheduled for its retry; then the cursor
//! moves over whatever completed run now starts at the front.

use crate::delivery::complete::{dead_letter_reason, skipped_fact};
use crate::delivery::settle::{failing, Settle};
use crate::delivery::{Completion, DeliveryPlan, FailureKind, Outcome};
use crate::limits::MAX_ERROR_CHARS;
use crate::records::window_slot::{self, WindowSlot};
use crate::schema::RuntimeRow;
use crate::storage::{SqlValue, Storage, StorageError};
use crate::stream::Stream;
use crate::subscription::Configuration;

impl<S: Storage> Stream<S> {
    /// Applies `outcome` to the slot `plan` delivers. A plan of another
    /// lifetime or run, or of a slot already completed, changes nothing
    /// (§6 rule 7): a late result of a send that was retried meanwhile
    /// still completes its slot if the retry has not yet.
    pub(in crate::delivery) fn complete_slot(
        &mut self,
        plan: &DeliveryPlan,
        outcome: Outcome,
        row: &RuntimeRow,
        configuration: &Configuration,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Completion, StorageError> {
        let run = row.cursor_changed_at_source_offset;
        let lifetime = self.lifetime.as_ref().map(|meta| meta.stream_id.as_str());
        if lifetime != Some(plan.stamp.stream_id.as_str()) || run != plan.stamp.cursor_changed_at_source_offset {
            return Ok(Completion::Stale);
        }
        let Some(slot) = self.open_slot(plan, run)? else {
            return Ok(Completion::Stale);
        };
        let (kind, message, retry_after_ms) = match outcome {
            Outcome::Delivered | Outcome::Checkpointed { .. } => {
                return self.slot_delivered(plan, row, configuration, now_ms)
            }
            Outcome::Failed {
                kind,
                message,
                retry_after_ms,
            } => (
                kind,
                message.chars().take(MAX_ERROR_CHARS).collect::<String>(),
                retry_after_ms,
            ),
        };
        let delivery = configuration.receiver.delivery();
        match failing(plan, slot.attempt, delivery, kind, message, retry_after_ms, entropy) {
            Settle::Retry {
                attempts,
                delay_ms,
                message,
            } => self.slot_retry(plan, run, attempts, now_ms.saturating_add(delay_ms), &message),
            // One event never isolates; skip is the only failure mode (§8).
            Settle::Isolate { message } => self.slot_retry(plan, run, slot.attempt, now_ms, &message),
            Settle::Skip {
                kind,
                attempts,
                message,
            } => self.slot_dead_lettered(plan, row, configuration, kind, attempts, &message, now_ms, entropy),
            Settle::Halt { attempts, message } => {
                self.slot_dead_lettered(plan, row, configuration, kind, attempts, &message, now_ms, entropy)
            }
            Settle::Stale | Settle::Retracted | Settle::Delivered | Settle::Checkpointed { .. } => {
                Ok(Completion::Stale)
            }
        }
    }

    /// The open slot `plan` delivers in run `run`, if it is still open.
    fn open_slot(&self, plan: &DeliveryPlan, run: u64) -> Result<Option<WindowSlot>, StorageError> {
        let sql = window_slot::SELECT;
        let after = plan.through_offset.saturating_sub(1);
        let rows = self.storage.query(
            sql,
            &[
                plan.subscription_key.as_str().into(),
                run.into(),
                after.into(),
                1u64.into(),
            ],
        )?;
        let Some(row) = rows.first() else {
            return Ok(None);
        };
        let slot = WindowSlot::decode(sql, row)?;
        let ours = slot.event_offset == plan.through_offset && slot.delivery_id == plan.delivery_id;
        Ok((ours && !slot.completed).then_some(slot))
    }

    fn mark_slot_completed(&self, plan: &DeliveryPlan, run: u64) -> Result<(), StorageError> {
        self.storage.execute(
            "UPDATE delivery_window SET completed = 1, in_flight_deadline_at_ms = NULL, next_attempt_at_ms = NULL \
             WHERE subscription_key = ? AND run_offset = ? AND event_offset = ?",
            &[
                plan.subscription_key.as_str().into(),
                run.into(),
                plan.through_offset.into(),
            ],
        )
    }

    /// The receiver took the event: the throttle counts it (§8), the journal
    /// records it before the cursor can pass it (§13), and the cursor moves
    /// over the completed front.
    fn slot_delivered(
        &mut self,
        plan: &DeliveryPlan,
        row: &RuntimeRow,
        configuration: &Configuration,
        now_ms: i64,
    ) -> Result<Completion, StorageError> {
        let key = plan.subscription_key.as_str();
        let run = row.cursor_changed_at_source_offset;
        if let Some(throttle) = configuration.receiver.delivery().and_then(|delivery| delivery.throttle) {
            self.spend_throttle(key, throttle, plan.started_at_ms);
        }
        let bytes: usize = plan.events.iter().map(|event| event.body.to_string().len()).sum();
        self.journal_plan(plan, configuration)?;
        self.mark_slot_completed(plan, run)?;
        self.storage.execute(
            "UPDATE subscription_runtime SET bytes_sent = bytes_sent + ? WHERE subscription_key = ? AND run_offset = ?",
            &[(bytes as u64).into(), key.into(), run.into()],
        )?;
        self.record_timings(plan, now_ms);
        self.advance_window(key, run, row.acknowledged_offset, row.window_frontier())?;
        Ok(Completion::Acknowledged {
            through: plan.through_offset,
        })
    }

    /// Gave up on the event (§8): its dead letter, its journal row and the
    /// durable fact first, then the slot completes and the cursor may pass it.
    #[allow(clippy::too_many_arguments)]
    fn slot_dead_lettered(
        &mut self,
        plan: &DeliveryPlan,
        row: &RuntimeRow,
        configuration: &Configuration,
        kind: FailureKind,
        attempts: u64,
        message: &str,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Completion, StorageError> {
        let key = plan.subscription_key.as_str();
        let run = row.cursor_changed_at_source_offset;
        let reason = dead_letter_reason(kind, message);
        self.record_dead_letters(plan, attempts, &reason, now_ms)?;
        self.journal_plan(plan, configuration)?;
        self.append_fact(skipped_fact(plan, attempts, &reason), now_ms, entropy)?;
        self.mark_slot_completed(plan, run)?;
        self.storage.execute(
            "UPDATE subscription_runtime SET last_error = ? WHERE subscription_key = ? AND run_offset = ?",
            &[reason.into(), key.into(), run.into()],
        )?;
        self.counters.skips += 1;
        self.advance_window(key, run, row.acknowledged_offset, row.window_frontier())?;
        Ok(Completion::Skipped {
            through: plan.through_offset,
        })
    }

    /// Another attempt of this one event at `at_ms` (§6 rule 5); the others
    /// go on meanwhile.
    fn slot_retry(
        &self,
        plan: &DeliveryPlan,
        run: u64,
        attempts: u64,
        at_ms: i64,
        message: &str,
    ) -> Result<Completion, StorageError> {
        let key = plan.subscription_key.as_str();
        self.storage.execute(
            "UPDATE delivery_window SET attempt = ?, next_attempt_at_ms = ?, in_flight_deadline_at_ms = NULL, \
             last_error = ? WHERE subscription_key = ? AND run_offset = ? AND event_offset = ?",
            &[
                attempts.into(),
                SqlValue::Integer(at_ms),
                message.into(),
                key.into(),
                run.into(),
                plan.through_offset.into(),
            ],
        )?;
        self.storage.execute(
            "UPDATE subscription_runtime SET last_error = ? WHERE subscription_key = ? AND run_offset = ?",
            &[message.into(), key.into(), run.into()],
        )?;
        Ok(Completion::RetryScheduled {
            attempt: attempts,
            at_ms,
        })
    }
}
