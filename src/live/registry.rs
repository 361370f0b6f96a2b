//! The open connections of one stream (docs/design.md §10): admission (keys,
//! the per-stream limit), fan-out of just-committed events, backpressure,
//! and acknowledgements. In memory; a woken object restores its WebSocket
//! connections from their attachments.

use super::socket::Flow;
use super::{Connection, LiveError, LiveQuery, Transport};
use crate::limits::{MAX_LIVE_CONNECTIONS, MAX_LONG_POLL_WAITERS};
use crate::subscription::CONNECTION_KEY_PREFIX;
use crate::time::rfc3339_millis;
use std::collections::BTreeMap;

/// Why the server ends a connection; clients resume from their last offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseReason {
    /// Its backlog passed the limit (§12).
    SlowConsumer,
    /// A newer connection took its key (§10).
    Replaced,
    /// The stream was deleted (§3 rule 6).
    StreamDeleted,
    /// Its token no longer names this project (§10 re-authentication).
    Unauthorized,
}

impl CloseReason {
    pub fn code(self) -> &'static str {
        match self {
            CloseReason::SlowConsumer => "slow_consumer",
            CloseReason::Replaced => "replaced",
            CloseReason::StreamDeleted => "stream_deleted",
            CloseReason::Unauthorized => "unauthorized",
        }
    }

    /// WebSocket close codes: 1013 ("try again later") for a slow consumer
    /// (§10); application codes for the others.
    pub fn websocket_code(self) -> u16 {
        match self {
            CloseReason::SlowConsumer => 1013,
            CloseReason::Replaced => 4409,
            CloseReason::StreamDeleted => 4410,
            CloseReason::Unauthorized => 4401,
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            CloseReason::SlowConsumer => "the unsent backlog passed 1 MiB; reconnect after your last offset",
            CloseReason::Replaced => "a newer connection opened with this connectionKey",
            CloseReason::StreamDeleted => "the stream was deleted",
            CloseReason::Unauthorized => "the connection's token is no longer accepted for this project",
        }
    }
}

/// Totals since the object started (§11 `/-/metrics`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LiveCounters {
    pub opened: u64,
    pub events_sent: u64,
    pub bytes_sent: u64,
    pub slow_consumer_closes: u64,
    /// Frames handed to a transport (one `send` each).
    pub frames_sent: u64,
    /// Frames serialized to JSON (fan-out shares one per distinct frame).
    pub frames_serialized: u64,
    /// WebSocket acknowledgements received (one engine call each).
    pub acks: u64,
    /// Connection records saved into WebSocket attachments.
    pub attachment_writes: u64,
    /// Long-polls waiting now (a gauge, §10): each leaves at its answer or
    /// its timeout, whichever comes first.
    pub long_poll_waiters: u64,
}

#[derive(Debug, Default)]
pub struct Registry {
    pub(super) connections: BTreeMap<String, Open>,
    pub counters: LiveCounters,
}

/// One open connection: its record (what the debug card shows and a
/// WebSocket's attachment keeps) and what the record does not keep
/// (socket.rs).
#[derive(Debug)]
pub(super) struct Open {
    pub(super) record: Connection,
    pub(super) flow: Flow,
}

impl Open {
    /// Records a frame sent (its last event `last_sent`; the connection is
    /// then through `through`, filtered-out offsets included).
    pub(super) fn record_frame(
        &mut self,
        counters: &mut LiveCounters,
        through: u64,
        last_sent: u64,
        events: u64,
        bytes: usize,
    ) {
        let record = &mut self.record;
        record.delivered_through_offset = record.delivered_through_offset.max(through);
        record.events_sent += events;
        record.bytes_sent += bytes as u64;
        counters.events_sent += events;
        counters.frames_sent += 1;
        counters.bytes_sent += bytes as u64;
        if record.transport == Transport::WebSocket {
            self.flow.sent(last_sent, record.bytes_sent);
        }
    }
}

/// Everything [`Registry::admit`] needs to know about the stream.
pub struct Opening<'a> {
    pub transport: Transport,
    pub project_id: &'a str,
    pub path: &'a str,
    pub head: u64,
    pub now_ms: i64,
    pub entropy: [u8; 16],
    /// Whether a key is one of the stream's subscription keys.
    pub is_subscription_key: &'a dyn Fn(&str) -> bool,
    /// [`super::token_hash`] of the caller's token (kept in the record).
    pub token_hash: Option<String>,
}

impl Registry {
    /// Registers a new connection (§10): its key never collides with a
    /// subscription key (409); a key already open is replaced (the old one
    /// is returned for the shell to close); at most 1000 per stream (429).
    pub fn admit(
        &mut self,
        query: &LiveQuery,
        opening: &Opening<'_>,
    ) -> Result<(Connection, Option<Connection>), LiveError> {
        let key = match &query.connection_key {
            Some(key) if (opening.is_subscription_key)(key) => return Err(LiveError::KeyIsSubscription(key.clone())),
            Some(key) => key.clone(),
            None => {
                let hex: String = opening
                    .entropy
                    .iter()
                    .take(12)
                    .map(|byte| format!("{byte:02x}"))
                    .collect();
                format!("{CONNECTION_KEY_PREFIX}{hex}")
            }
        };
        let replaced = self.remove(&key);
        if replaced.is_none() && self.connections.len() >= MAX_LIVE_CONNECTIONS {
            return Err(LiveError::TooManyConnections);
        }
        let connection = Connection {
            connection_key: key.clone(),
            transport: opening.transport,
            opened_at: rfc3339_millis(opening.now_ms),
            opened_at_head: opening.head,
            delivered_through_offset: query.after,
            events_sent: 0,
            bytes_sent: 0,
            bytes_acknowledged: 0,
            filter: query.types.clone(),
            caught_up: false,
            project_id: opening.project_id.to_owned(),
            path: opening.path.to_owned(),
            token_hash: opening.token_hash.clone(),
        };
        let open = Open {
            record: connection.clone(),
            flow: Flow::saved_at(0),
        };
        self.connections.insert(key, open);
        self.counters.opened += 1;
        Ok((connection, replaced))
    }

    /// A long-poll starts waiting (§10): at most [`MAX_LONG_POLL_WAITERS`]
    /// per stream at once (429 beyond).
    pub fn admit_waiter(&mut self) -> Result<(), LiveError> {
        if self.counters.long_poll_waiters >= MAX_LONG_POLL_WAITERS as u64 {
            return Err(LiveError::TooManyWaiters);
        }
        self.counters.long_poll_waiters += 1;
        Ok(())
    }

    /// A long-poll stopped waiting (answered or timed out).
    pub fn waiter_done(&mut self) {
        self.counters.long_poll_waiters = self.counters.long_poll_waiters.saturating_sub(1);
    }

    /// Takes back a connection a woken object found open (its attachment).
    pub fn restore(&mut self, connection: Connection) {
        let open = Open {
            flow: Flow::saved_at(connection.bytes_acknowledged),
            record: connection,
        };
        self.connections.insert(open.record.connection_key.clone(), open);
    }

    pub fn remove(&mut self, key: &str) -> Option<Connection> {
        self.connections.remove(key).map(|open| open.record)
    }

    /// Closes every connection's record (the stream was deleted).
    pub fn drain(&mut self) -> Vec<Connection> {
        std::mem::take(&mut self.connections)
            .into_values()
            .map(|open| open.record)
            .collect()
    }

    pub fn get(&self, key: &str) -> Option<&Connection> {
        self.connections.get(key).map(|open| &open.record)
    }

    pub fn contains(&self, key: &str) -> bool {
        self.connections.contains_key(key)
    }

    pub fn len(&self) -> usize {
        self.connections.len()
    }

    pub fn is_empty(&self) -> bool {
        self.connections.is_empty()
    }

    pub fn keys(&self) -> Vec<String> {
        self.connections.keys().cloned().collect()
    }

    pub fn cards(&self) -> Vec<serde_json::Value> {
        self.connections.values().map(|open| open.record.card()).collect()
    }

    /// Records a catch-up frame sent to `key` (fan-out records its own,
    /// [`Registry::on_commit`]).
    pub fn record_sent(&mut self, key: &str, through: u64, last_sent: u64, events: u64, bytes: usize) {
        if let Some(open) = self.connections.get_mut(key) {
            open.record_frame(&mut self.counters, through, last_sent, events, bytes);
        }
    }

    /// Marks `key` caught up with the log at `through` (from now on it is fed
    /// at commit time).
    pub fn caught_up(&mut self, key: &str, through: u64) {
        if let Some(open) = self.connections.get_mut(key) {
            let record = &mut open.record;
            record.delivered_through_offset = record.delivered_through_offset.max(through);
            record.caught_up = true;
        }
    }

    /// Moves a connection past offsets its filter passed over.
    pub fn passed(&mut self, key: &str, through: u64) {
        if let Some(open) = self.connections.get_mut(key) {
            let record = &mut open.record;
            record.delivered_through_offset = record.delivered_through_offset.max(through);
        }
    }
}
