//! The retry loop of `POST .../dead-letters/{id}/replay` (docs/design.md §8): a
//! replay resends one dead letter through the subscription's current
//! receiver and retry policy, its attempts spaced by that policy's backoff
//! but capped at [`REPLAY_MAX_WAIT_MS`] each and [`REPLAY_BUDGET_MS`] in all,
//! so the request returns. [`Replay`] decides; the shell sends and waits.

use super::{backoff_ms, DeliveryPlan, FailureKind, Outcome};
use crate::api::ApiResponse;
use crate::error::{ApiError, ErrorCode};
use crate::limits::{
    DEFAULT_WEBHOOK_TIMEOUT_MS, REPLAY_BUDGET_MS, REPLAY_MAX_WAIT_MS, REPLAY_MIN_ATTEMPT_TIMEOUT_MS, SEND_TIMEOUT_MS,
};
use crate::stream::dead_letters::DeadLetterError;
use crate::subscription::{Receiver, Retry};

/// What to do after one replay attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayNext {
    /// Wait this long, then [`Replay::next_send`] again.
    Wait { ms: u64 },
    /// Stop: the last outcome is the replay's.
    Done,
}

/// One replay request's attempts.
#[derive(Debug, Clone)]
pub struct Replay {
    plan: DeliveryPlan,
    retry: Retry,
    stop_at_ms: i64,
    attempts: u64,
    tries: u64,
}

impl Replay {
    /// Starts replaying `plan` (from `Stream::plan_replay`) at `now_ms`.
    pub fn begin(plan: DeliveryPlan, now_ms: i64) -> Replay {
        let retry = plan
            .receiver
            .delivery()
            .and_then(|delivery| delivery.retry)
            .unwrap_or_default();
        Replay {
            attempts: plan.attempt.saturating_sub(1),
            plan,
            retry,
            stop_at_ms: now_ms.saturating_add(REPLAY_BUDGET_MS),
            tries: 0,
        }
    }

    /// The next attempt to send at `now_ms`: numbered after the letter's
    /// earlier attempts, its deadline within what is left of the budget.
    pub fn next_send(&mut self, now_ms: i64) -> &DeliveryPlan {
        self.attempts += 1;
        self.tries += 1;
        self.plan.attempt = self.attempts;
        let remaining = u64::try_from(self.stop_at_ms - now_ms)
            .unwrap_or(0)
            .max(REPLAY_MIN_ATTEMPT_TIMEOUT_MS);
        let configured = match &self.plan.receiver {
            Receiver::WebhookPost { delivery, .. } => delivery.timeout_ms.unwrap_or(DEFAULT_WEBHOOK_TIMEOUT_MS),
            _ => SEND_TIMEOUT_MS,
        };
        self.plan.timeout_ms = configured.min(remaining);
        &self.plan
    }

    /// Judges the attempt that just ended with `outcome` at `now_ms`.
    pub fn after(&self, outcome: &Outcome, now_ms: i64, entropy: [u8; 16]) -> ReplayNext {
        let permanent = matches!(
            outcome,
            Outcome::Failed {
                kind: FailureKind::Permanent,
                ..
            }
        );
        let delivered = matches!(outcome, Outcome::Delivered | Outcome::Checkpointed { .. });
        if delivered || permanent || self.tries >= self.retry.max_attempts || now_ms >= self.stop_at_ms {
            return ReplayNext::Done;
        }
        let wait = backoff_ms(&self.retry, self.tries, entropy).min(REPLAY_MAX_WAIT_MS);
        ReplayNext::Wait {
            ms: u64::try_from(wait).unwrap_or(0),
        }
    }

    /// The plan as last sent (its attempt number is the letter's new count).
    pub fn plan(&self) -> &DeliveryPlan {
        &self.plan
    }

    /// The letter's attempts in all, this replay's included.
    pub fn attempts(&self) -> u64 {
        self.attempts
    }
}

/// The replay request's answer (§8): 204 when delivered, 502
/// `replay_failed` with the attempts when not, or the refusal.
pub fn replay_answer(recorded: Result<bool, DeadLetterError>, outcome: &Outcome, attempts: u64) -> ApiResponse {
    match (recorded, outcome) {
        (Ok(true), _) => ApiResponse::no_content(),
        (Ok(false), Outcome::Failed { message, .. }) => {
            let mut error = ApiError::new(ErrorCode::ReplayFailed, format!("replay did not deliver: {message}"));
            error
                .body
                .error
                .details
                .insert("attempts".to_owned(), serde_json::json!(attempts));
            error.into()
        }
        (Ok(false), Outcome::Delivered | Outcome::Checkpointed { .. }) => {
            ApiError::new(ErrorCode::Internal, "replay outcome inconsistent").into()
        }
        (Err(error), _) => ApiError::from(error).into(),
    }
}
