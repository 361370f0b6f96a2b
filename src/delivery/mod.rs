//! The delivery spine (docs/design.md §6): turning a configured subscription into
//! delivered batches. Sans-I/O: [`Stream::plan_delivery`] says what to send,
//! the shell sends it, and [`Stream::complete_delivery`] takes the outcome.
//! Both sides of a send are durable in `subscription_runtime`, so a crash at
//! any point repeats work and never skips it.

mod backoff;
mod complete;
pub(crate) mod concurrent;
mod decide;
mod gate;
pub(crate) mod journal;
pub(crate) mod journal_heads;
pub mod log_lines;
mod plan;
mod prepare;
pub(crate) mod read_ahead;
mod replay;
mod scan;
mod settle;
mod shape;
pub(crate) mod shared_reads;
pub mod stats;
mod turn;

pub use backoff::backoff_ms;
pub use plan::{retraction_delivery_id, DeliveryPlan, PlannedEvent, Planning, Retraction};
pub use replay::{replay_answer, Replay, ReplayNext};
pub use stats::{DeliveryOutcomes, DeliveryStats};
pub use turn::{send_cost, Planned, Turn};

use serde::{Deserialize, Serialize};

/// Whether a failure is worth retrying (§6 rule 5, §9 classification).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FailureKind {
    Transient,
    Permanent,
}

/// What came back from one send.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The receiver acknowledged the whole batch.
    Delivered,
    /// A hosted processor answered its checkpoint (§9): the instance's
    /// checkpoint decides replay, so the stream's watermark moves there —
    /// forward past the batch, or back when the instance was reset.
    Checkpointed { through: u64 },
    Failed {
        kind: FailureKind,
        message: String,
        retry_after_ms: Option<i64>,
    },
}

impl Outcome {
    pub fn transient(message: impl Into<String>) -> Self {
        Outcome::Failed {
            kind: FailureKind::Transient,
            message: message.into(),
            retry_after_ms: None,
        }
    }
    pub fn permanent(message: impl Into<String>) -> Self {
        Outcome::Failed {
            kind: FailureKind::Permanent,
            message: message.into(),
            retry_after_ms: None,
        }
    }
}

/// What [`Stream::complete_delivery`](crate::stream::Stream) decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// The cursor moved past the batch.
    Acknowledged { through: u64 },
    /// Another attempt is scheduled.
    RetryScheduled { attempt: u64, at_ms: i64 },
    /// The retry budget ran out (or the failure was permanent): halted, a
    /// `subscription-delivery-halted` fact was appended.
    Halted { halt_offset: u64 },
    /// `skip` mode gave up on the batch: an `error-occurred` fact was
    /// appended and the cursor moved past it.
    Skipped { through: u64 },
    /// The result belonged to an older run, or the subscription is gone: ignored (§6 rule 7).
    Stale,
}

/// How the shell classifies the receiving stream's answer to a copy batch:
/// 2xx delivered; 5xx (and 429) transient; any other 4xx — including a
/// stamp-fence rejection, which a current run should never see — permanent.
pub fn classify_copy_status(status: u16, body: &str) -> Outcome {
    let detail = crate::text::excerpt(body);
    match status {
        200..=299 => Outcome::Delivered,
        429 | 500..=599 => Outcome::transient(format!("receiving stream answered {status}: {detail}")),
        _ => Outcome::permanent(format!("receiving stream answered {status}: {detail}")),
    }
}
