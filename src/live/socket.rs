//! The WebSocket side of a live connection (docs/design.md §10), as decisions:
//! what a client's message is, what an acknowledgement leads to, and when a
//! connection's record is saved. The shell
//! (durable-objects/src/stream_object/live.rs) performs them: it answers a
//! ping, continues a catch-up, or saves the connection's record into the
//! socket's attachment so a woken object restores it where it was.
//!
//! What a save keeps, and what a woken object repeats: a catch-up saves the
//! record after every step, so it resumes exactly after its last frame. A
//! caught-up connection is fed by commits only, so a record up to
//! [`LIVE_PERSIST_EVERY_SENDS`] sends stale resends nothing (every later
//! commit is past what it was sent); what it lags in is counters, and its
//! backlog, which restarts from what was unacknowledged when it was saved
//! until the client's next ack.

use super::registry::Open;
use super::{Connection, Registry};
use crate::limits::{LIVE_ACK_WINDOW_BYTES, LIVE_PERSIST_EVERY_SENDS, MAX_UNACKNOWLEDGED_FRAMES};
use serde_json::Value;
use std::collections::VecDeque;

/// A WebSocket client's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientMessage {
    /// `{"type":"ack","offset":N}`: everything through `N` arrived.
    Ack { offset: u64 },
    /// `{"type":"ping"}`: answered with [`super::WEBSOCKET_PING`].
    Ping,
    /// Anything else (not JSON, another type, an ack without an offset): ignored.
    Ignored,
}

impl ClientMessage {
    pub fn parse(text: &str) -> ClientMessage {
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            return ClientMessage::Ignored;
        };
        match message.get("type").and_then(Value::as_str) {
            Some("ack") => match message.get("offset").and_then(Value::as_u64) {
                Some(offset) => ClientMessage::Ack { offset },
                None => ClientMessage::Ignored,
            },
            Some("ping") => ClientMessage::Ping,
            _ => ClientMessage::Ignored,
        }
    }
}

/// What the shell does after an acknowledgement.
#[derive(Debug, Clone, PartialEq)]
pub enum AfterAck {
    /// The connection is still catching up from the log: send its next
    /// frames (catch-up progress saves the record itself).
    ContinueCatchUp,
    /// Save this record into the socket's attachment.
    SaveAttachment(Connection),
    Nothing,
}

/// What a WebSocket's record (its attachment) does not keep: the frames its
/// client has not acknowledged, and how far the record moved since it was
/// last saved. Lost with the instance: a woken object starts it afresh from
/// the restored record.
#[derive(Debug, Default)]
pub(super) struct Flow {
    /// (the frame's last offset, bytes sent through the frame), oldest
    /// first: what an ack of an offset acknowledges.
    unacknowledged: VecDeque<(u64, u64)>,
    sends_since_save: u32,
    /// The record's `bytes_acknowledged` when it was last saved.
    acknowledged_at_save: u64,
}

impl Flow {
    /// The flow of a record saved with `bytes_acknowledged`.
    pub(super) fn saved_at(bytes_acknowledged: u64) -> Flow {
        Flow {
            acknowledged_at_save: bytes_acknowledged,
            ..Flow::default()
        }
    }

    /// A frame whose last event is `last_sent` went out; `bytes_sent` is the
    /// connection's total through it.
    pub(super) fn sent(&mut self, last_sent: u64, bytes_sent: u64) {
        self.unacknowledged.push_back((last_sent, bytes_sent));
        // Bounded: the backlog limit closes a connection long before.
        if self.unacknowledged.len() > MAX_UNACKNOWLEDGED_FRAMES {
            self.unacknowledged.pop_front();
        }
    }

    /// Counts one fan-out send; `true` once [`LIVE_PERSIST_EVERY_SENDS`]
    /// were counted since the record was last saved: save it now, so a
    /// woken object shows counters at most that many frames behind.
    pub(super) fn send_counted(&mut self) -> bool {
        self.sends_since_save += 1;
        self.sends_since_save >= LIVE_PERSIST_EVERY_SENDS
    }

    /// The record was saved with `bytes_acknowledged`: what it moved since
    /// starts again from here.
    pub(super) fn saved(&mut self, bytes_acknowledged: u64) {
        self.sends_since_save = 0;
        self.acknowledged_at_save = bytes_acknowledged;
    }

    /// Forgets the frames through `offset`: the bytes sent through the last
    /// of them, if any.
    fn acknowledge(&mut self, offset: u64) -> Option<u64> {
        let mut acknowledged = None;
        for _ in 0..MAX_UNACKNOWLEDGED_FRAMES {
            match self.unacknowledged.front() {
                Some((through, bytes)) if *through <= offset => acknowledged = Some(*bytes),
                _ => break,
            }
            self.unacknowledged.pop_front();
        }
        acknowledged
    }
}

impl Registry {
    /// A WebSocket client acknowledged everything through `offset` (§10).
    /// Every ack counts at once against the backlog, in memory; the record
    /// is saved only when acks moved it by [`LIVE_ACK_WINDOW_BYTES`] since
    /// its last save, so an ack sent after every frame costs no write.
    pub fn on_ack(&mut self, key: &str, offset: u64) -> AfterAck {
        self.counters.acks += 1;
        self.acknowledge(key, offset);
        let Some(open) = self.connections.get(key) else {
            return AfterAck::Nothing;
        };
        if !open.record.caught_up {
            return AfterAck::ContinueCatchUp;
        }
        let moved = open
            .record
            .bytes_acknowledged
            .saturating_sub(open.flow.acknowledged_at_save);
        if moved < LIVE_ACK_WINDOW_BYTES as u64 {
            return AfterAck::Nothing;
        }
        self.attachment_record(key)
            .map_or(AfterAck::Nothing, AfterAck::SaveAttachment)
    }

    /// A WebSocket client acknowledged everything through `offset`: its
    /// acknowledged bytes move to the last frame through it (or to all it
    /// was sent, when it acknowledges what it was sent last — also after a
    /// wake, when no frame is tracked).
    pub fn acknowledge(&mut self, key: &str, offset: u64) {
        let Some(Open {
            record: connection,
            flow,
        }) = self.connections.get_mut(key)
        else {
            return;
        };
        let mut acknowledged = flow.acknowledge(offset);
        if offset >= connection.delivered_through_offset {
            acknowledged = Some(connection.bytes_sent);
        }
        if let Some(bytes) = acknowledged {
            connection.bytes_acknowledged = connection.bytes_acknowledged.max(bytes);
        }
    }

    /// A WebSocket's unacknowledged bytes.
    pub fn backlog(&self, key: &str) -> usize {
        self.get(key).map_or(0, Connection::backlog)
    }

    /// `key`'s record, to be saved into its socket's attachment now
    /// (counted in [`super::LiveCounters::attachment_writes`]); what the
    /// record moved since its last save starts again from here.
    pub fn attachment_record(&mut self, key: &str) -> Option<Connection> {
        let open = self.connections.get_mut(key)?;
        open.flow.saved(open.record.bytes_acknowledged);
        self.counters.attachment_writes += 1;
        Some(open.record.clone())
    }
}

impl Connection {
    /// What its client has not acknowledged (a WebSocket's backlog, §12).
    pub fn backlog(&self) -> usize {
        usize::try_from(self.bytes_sent.saturating_sub(self.bytes_acknowledged)).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_parse_strictly() {
        assert_eq!(
            ClientMessage::parse(r#"{"type":"ack","offset":7}"#),
            ClientMessage::Ack { offset: 7 }
        );
        assert_eq!(ClientMessage::parse(r#"{"type":"ping"}"#), ClientMessage::Ping);
        for ignored in [
            "",
            "not json",
            "[]",
            r#"{"type":"ack"}"#,
            r#"{"type":"ack","offset":-1}"#,
            r#"{"type":"ack","offset":"7"}"#,
            r#"{"type":"subscribe"}"#,
        ] {
            assert_eq!(ClientMessage::parse(ignored), ClientMessage::Ignored, "{ignored}");
        }
    }

    fn caught_up_record(key: &str) -> Connection {
        Connection {
            connection_key: key.to_owned(),
            transport: super::super::Transport::WebSocket,
            opened_at: "2026-01-01T00:00:00.000Z".to_owned(),
            opened_at_head: 0,
            delivered_through_offset: 0,
            events_sent: 0,
            bytes_sent: 0,
            bytes_acknowledged: 0,
            filter: None,
            caught_up: true,
            project_id: "p".to_owned(),
            path: "/s".to_owned(),
            token_hash: None,
        }
    }

    #[test]
    fn a_flow_is_due_for_a_save_every_few_sends() {
        let mut flow = Flow::default();
        let mut saves = 0;
        for _ in 0..LIVE_PERSIST_EVERY_SENDS * 2 {
            if flow.send_counted() {
                flow.saved(0);
                saves += 1;
            }
        }
        assert_eq!(saves, 2);
    }

    #[test]
    fn acks_save_the_record_only_once_they_moved_it_by_the_window() {
        let mut registry = Registry::default();
        registry.restore(caught_up_record("k"));
        let frame = LIVE_ACK_WINDOW_BYTES as u64 / 4;
        let mut saves = Vec::new();
        for offset in 1..=8u64 {
            registry.record_sent("k", offset, offset, 1, frame as usize);
            if let AfterAck::SaveAttachment(record) = registry.on_ack("k", offset) {
                saves.push(record.bytes_acknowledged);
            }
        }
        assert_eq!(saves, vec![4 * frame, 8 * frame]);
        assert_eq!(registry.counters.acks, 8);
        assert_eq!(registry.backlog("k"), 0, "every ack counts at once in memory");
    }

    #[test]
    fn an_ack_for_an_unknown_connection_does_nothing() {
        let mut registry = Registry::default();
        assert_eq!(registry.on_ack("gone", 3), AfterAck::Nothing);
    }
}
