//! Live connections (docs/design.md §10): a reader that replays durable events
//! after an offset, then receives new ones as they commit — ephemeral ones
//! included once it is open. Sans-I/O like the rest of the engine: this
//! module decides what each connection gets (admission, keys, filters,
//! catch-up pages, frames, backpressure) and the shell only moves bytes over
//! SSE streams and hibernatable WebSockets.
//!
//! Within one connection, events arrive in offset order with no gap and no
//! duplicate: a connection is fed from the log (catch-up) until it has seen
//! the head, and only then from commits, both in the object's single thread.

mod catch_up;
mod fanout;
mod frames;
mod query;
mod registry;
mod socket;

/// What a connection's record keeps of its bearer token (§10); defined with the tokens.
pub use crate::auth_tokens::token_hash;
pub use catch_up::{sse_catch_up_budget, CatchUp};
pub use fanout::Fanout;
pub use frames::{
    sse_error, sse_event_frames, sse_preamble, sse_progress, websocket_error, websocket_frame, SSE_HEARTBEAT,
    WEBSOCKET_PING,
};
pub use query::{split_wait, LiveQuery};
pub use registry::{CloseReason, LiveCounters, Opening, Registry};
pub use socket::{AfterAck, ClientMessage};

use crate::auth_tokens::{Grant, Scope};
use crate::error::{details, ApiFailure, ErrorCode};
use crate::event::CommittedEvent;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Transport {
    Sse,
    #[serde(rename = "websocket")]
    WebSocket,
}

/// One live connection: what the debug card shows (§10) and what a
/// WebSocket's attachment keeps across hibernation (it must stay under the
/// platform's 2 KiB, hence the bounded key and types).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Connection {
    pub connection_key: String,
    pub transport: Transport,
    pub opened_at: String,
    /// Ephemeral events after this offset reach it (§3 rule 5).
    pub opened_at_head: u64,
    /// The last offset it has been sent (or passed over by its filter).
    pub delivered_through_offset: u64,
    pub events_sent: u64,
    pub bytes_sent: u64,
    /// Of `bytes_sent`, what the client has acknowledged (WebSocket).
    #[serde(default)]
    pub bytes_acknowledged: u64,
    /// `types`: only these event types; `None` is every type.
    pub filter: Option<Vec<String>>,
    /// Caught up with the log: from now on fed at commit time.
    #[serde(default)]
    pub caught_up: bool,
    /// Where the stream object lives, so a woken object can reopen it.
    pub project_id: String,
    pub path: String,
    /// [`token_hash`] of the bearer token that opened it (never the token):
    /// a woken object closes it once that token no longer names this
    /// project (§10 re-authentication). `None` (a record from before it
    /// was kept) never passes the check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_hash: Option<String>,
}

/// A connection record's key, read alone from a WebSocket's attachment: all
/// a client's message needs to find its connection (the rest of the record
/// is not converted).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordKey {
    pub connection_key: String,
}

impl Connection {
    /// Whether `event` is this connection's next business (§3 rule 5, §10).
    pub fn admits(&self, event: &CommittedEvent) -> bool {
        event.offset > self.delivered_through_offset
            && (!event.ephemeral || event.offset > self.opened_at_head)
            && self
                .filter
                .as_ref()
                .is_none_or(|types| types.contains(&event.event_type))
    }

    /// Whether the token that opened this connection still allows it (§10):
    /// `grant_of_hash` answers what the configured tokens grant a token
    /// hash, if anything; the connection passes only when that grant is for
    /// its own project and allows `read` on its path (§2 Scopes).
    pub fn still_authorized(&self, grant_of_hash: &dyn Fn(&str) -> Option<Grant>) -> bool {
        self.token_hash.as_deref().and_then(grant_of_hash).is_some_and(|grant| {
            grant.project() == self.project_id && grant.has(Scope::Read) && grant.covers(&self.path)
        })
    }

    /// The debug card's view (§10 shape).
    pub fn card(&self) -> Value {
        json!({
            "connectionKey": self.connection_key,
            "transport": self.transport,
            "openedAt": self.opened_at,
            "deliveredThroughOffset": self.delivered_through_offset,
            "eventsSent": self.events_sent,
            "bytesSent": self.bytes_sent,
            "filter": self.filter.as_ref().map(|types| json!({"types": types})),
            "caughtUp": self.caught_up,
        })
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LiveError {
    #[error("query parameter '{name}' {problem}")]
    InvalidParameter { name: &'static str, problem: String },
    #[error("'{0}' is a subscription key on this stream; connection and subscription keys never collide")]
    KeyIsSubscription(String),
    #[error("this stream already has {max} live connections", max = crate::limits::MAX_LIVE_CONNECTIONS)]
    TooManyConnections,
    #[error("this stream already has {max} long-polls waiting", max = crate::limits::MAX_LONG_POLL_WAITERS)]
    TooManyWaiters,
    #[error("offset {asked} was trimmed by retention; the first retained offset is {first_offset} (reconnect with after={} or after=earliest)", first_offset.saturating_sub(1))]
    Trimmed { asked: u64, first_offset: u64 },
    #[error("{0}")]
    Storage(String),
}

impl ApiFailure for LiveError {
    fn error_code(&self) -> ErrorCode {
        match self {
            LiveError::InvalidParameter { .. } => ErrorCode::InvalidParameter,
            LiveError::KeyIsSubscription(_) => ErrorCode::ConnectionKeyConflict,
            LiveError::TooManyConnections => ErrorCode::TooManyConnections,
            LiveError::TooManyWaiters => ErrorCode::TooManyWaiters,
            LiveError::Trimmed { .. } => ErrorCode::Trimmed,
            LiveError::Storage(_) => ErrorCode::Internal,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            LiveError::InvalidParameter { name, .. } => details([("parameter", json!(name))]),
            LiveError::KeyIsSubscription(key) => details([("connectionKey", json!(key))]),
            LiveError::Trimmed { first_offset, .. } => details([("firstOffset", json!(first_offset))]),
            _ => Map::new(),
        }
    }
}
