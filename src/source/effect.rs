//! What a source asks of the shell, and what comes back (docs/design.md §1,
//! §15): the conversation every source kind holds, whatever it reads. The
//! run skeleton (`run.rs`) answers an [`Effect`]; the shell performs it and
//! feeds the outcome back; a run ends with a [`Finish`] that pacing turns
//! into the next alarm.

use super::rpc::RpcCall;

/// What the shell does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// POST this JSON-RPC request, then call the source's `on_rpc`.
    Call(RpcCall),
    /// Append this batch to the target stream, then call the source's `on_append`.
    Append(AppendCall),
    /// The run is over: arm the alarm for `at_ms`.
    Sleep { at_ms: i64 },
    /// The source does not run (failed, or not configured): no alarm.
    Stop,
    /// The run was superseded (a PUT or DELETE meanwhile): leave the alarm.
    Abandoned,
}

/// `POST /v1/streams{stream}/-/events` with `body` (`{"events": [...]}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppendCall {
    pub stream: String,
    pub body: String,
    pub events: usize,
    /// Append only into this lifetime of the target (sent as
    /// [`super::lifetime::IF_STREAM_ID_HEADER`]); `None` before the first
    /// append and after a new lifetime was found (§15), sent as
    /// [`super::lifetime::ANY_LIFETIME`].
    pub expect_stream_id: Option<String>,
}

/// What became of an [`AppendCall`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppendAnswer {
    Response {
        status: u16,
        body: Vec<u8>,
        /// The lifetime the append committed to (the answer's
        /// [`super::lifetime::STREAM_ID_HEADER`]), when it says.
        stream_id: Option<String>,
    },
    /// The request never got an answer (network, timeout).
    Failed(String),
}

/// How a run ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finish {
    /// Nothing more to read until the next poll.
    CaughtUp,
    /// Out of calls or logs for this run; more is due now.
    Budget,
    Transient {
        reason: String,
        retry_after_ms: Option<u64>,
    },
    Permanent(String),
}

/// The lifetime an append answer says it committed to, if it says.
pub(super) fn landed_stream_id(answer: &AppendAnswer) -> Option<String> {
    match answer {
        AppendAnswer::Response {
            stream_id: Some(stream_id),
            ..
        } => Some(stream_id.clone()),
        _ => None,
    }
}
