//! Taking the outcome of one concurrent delivery (docs/design.md §8
//! `concurrency`, §6 rules 5, 7, 11; §13): its slot alone is acknowledged
//! and journaled, dead-lettered, or scheduled for its retry; then the cursor
//! moves over whatever completed run now starts at the front.

use crate::delivery::complete::{dead_letter_reason, skipped_fact};
use crate::delivery::settle::{failing, Settle};
use crate::delivery::{Completion, DeliveryPlan, Outcome};
use crate::limits::MAX_ERROR_CHARS;
use crate::records::WindowSlot;
use crate::schema::RuntimeRow;
use crate::storage::{SqlValue, Storage, StorageError};
use crate::stream::Stream;
use crate::subscription::Configuration;

/// Why and after how many attempts a delivery was given up on (§8).
struct GivenUp {
    attempts: u64,
    reason: String,
}

/// Where a window's cursor stands and may go when one slot completes.
struct Front {
    /// The run's config generation (§6 rule 7).
    run: u64,
    /// The first slot still open besides the completing one.
    first_open: Option<u64>,
    cursor: u64,
    frontier: u64,
    /// The journal's row count as the runtime row has it (§13).
    journal_rows: Option<u64>,
}

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
        let open = self.open_slots(&plan.subscription_key, run)?;
        // Only the send holding the slot's lease is answered (§6 rule 7): a
        // lost send's late result, once the slot went again, is stale.
        let ours = |slot: &&WindowSlot| {
            slot.event_offset == plan.through_offset
                && slot.delivery_id == plan.delivery_id
                && slot.send_lease == plan.lease
        };
        let Some(attempt) = open.iter().find(ours).map(|slot| slot.attempt) else {
            return Ok(Completion::Stale);
        };
        // Once this one completes the cursor may pass everything before the
        // first other open slot (or reach the frontier).
        let front = Front {
            run,
            first_open: open
                .iter()
                .map(|slot| slot.event_offset)
                .filter(|offset| *offset != plan.through_offset)
                .min(),
            cursor: row.acknowledged_offset,
            frontier: row.window_frontier(),
            journal_rows: row.journal_rows,
        };
        let (kind, message, retry_after_ms) = match outcome {
            Outcome::Delivered | Outcome::Checkpointed { .. } => {
                return self.slot_delivered(plan, &front, configuration, now_ms)
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
        let (attempts, reason) = match failing(plan, attempt, delivery, kind, message, retry_after_ms, entropy) {
            Settle::Retry {
                attempts,
                delay_ms,
                message,
            } => return self.slot_retry(plan, run, attempts, now_ms.saturating_add(delay_ms), &message),
            // One event never isolates.
            Settle::Isolate { message } => return self.slot_retry(plan, run, attempt, now_ms, &message),
            Settle::Skip {
                kind,
                attempts,
                message,
            } => (attempts, dead_letter_reason(kind, &message)),
            // Skip is the only failure mode of a concurrent window (§8).
            Settle::Halt { attempts, message } => (attempts, dead_letter_reason(kind, &message)),
            Settle::Stale | Settle::Retracted | Settle::Delivered | Settle::Checkpointed { .. } => {
                return Ok(Completion::Stale)
            }
        };
        let given_up = GivenUp { attempts, reason };
        self.slot_dead_lettered(plan, &front, configuration, &given_up, now_ms, entropy)
    }

    fn mark_slot_completed(&self, plan: &DeliveryPlan, run: u64) -> Result<(), StorageError> {
        self.storage.execute(
            "UPDATE delivery_window SET completed = 1, in_flight_deadline_at_ms = NULL, next_attempt_at_ms = NULL, \
             send_lease = send_lease + 1 WHERE subscription_key = ? AND run_offset = ? AND event_offset = ?",
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
        front: &Front,
        configuration: &Configuration,
        now_ms: i64,
    ) -> Result<Completion, StorageError> {
        let (key, run) = (plan.subscription_key.as_str(), front.run);
        if let Some(throttle) = configuration.receiver.delivery().and_then(|delivery| delivery.throttle) {
            self.spend_throttle(key, throttle, plan.started_at_ms);
        }
        let bytes: usize = plan.events.iter().map(|event| event.body.json_len()).sum();
        self.journal_plan_and_count(plan, configuration, front.journal_rows)?;
        self.mark_slot_completed(plan, run)?;
        self.storage.execute(
            "UPDATE subscription_runtime SET bytes_sent = bytes_sent + ? WHERE subscription_key = ? AND run_offset = ?",
            &[(bytes as u64).into(), key.into(), run.into()],
        )?;
        self.record_timings(plan, now_ms);
        self.pass_completed_front(key, run, front.cursor, front.frontier, front.first_open)?;
        Ok(Completion::Acknowledged {
            through: plan.through_offset,
        })
    }

    /// Gave up on the event (§8): its dead letter, its journal row and the
    /// durable fact first, then the slot completes and the cursor may pass it.
    fn slot_dead_lettered(
        &mut self,
        plan: &DeliveryPlan,
        front: &Front,
        configuration: &Configuration,
        given_up: &GivenUp,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Completion, StorageError> {
        let (key, run) = (plan.subscription_key.as_str(), front.run);
        let GivenUp { attempts, reason } = given_up;
        self.record_dead_letters(plan, *attempts, reason, now_ms)?;
        self.journal_plan_and_count(plan, configuration, front.journal_rows)?;
        self.append_engine_fact(
            skipped_fact(plan, *attempts, reason),
            &crate::Inputs { now_ms, entropy },
        )?;
        self.mark_slot_completed(plan, run)?;
        self.storage.execute(
            "UPDATE subscription_runtime SET last_error = ? WHERE subscription_key = ? AND run_offset = ?",
            &[reason.as_str().into(), key.into(), run.into()],
        )?;
        self.counters.skips += 1;
        self.pass_completed_front(key, run, front.cursor, front.frontier, front.first_open)?;
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
             last_error = ?, send_lease = send_lease + 1 WHERE subscription_key = ? AND run_offset = ? AND event_offset = ?",
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
