//! The WebSocket side of a live connection (DESIGN.md §10), as decisions:
//! what a client's message is, and what an acknowledgement leads to. The
//! shell (durable-objects/src/live_shell.rs) performs them: it answers a
//! ping, continues a catch-up, or saves the connection's record into the
//! socket's attachment so a woken object restores it where it was.

use super::{Connection, Registry};
use crate::limits::LIVE_PERSIST_EVERY_SENDS;
use serde_json::Value;

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

impl Registry {
    /// A WebSocket client acknowledged everything through `offset`.
    pub fn on_ack(&mut self, key: &str, offset: u64) -> AfterAck {
        self.counters.acks += 1;
        self.acknowledge(key, offset);
        let caught_up = match self.get(key) {
            None => return AfterAck::Nothing,
            Some(record) => record.caught_up,
        };
        if !caught_up {
            return AfterAck::ContinueCatchUp;
        }
        match self.attachment_due(key) {
            true => self
                .attachment_record(key)
                .map_or(AfterAck::Nothing, AfterAck::SaveAttachment),
            false => AfterAck::Nothing,
        }
    }

    /// `key`'s record, to be saved into its socket's attachment now
    /// (counted in [`super::LiveCounters::attachment_writes`]).
    pub fn attachment_record(&mut self, key: &str) -> Option<Connection> {
        let record = self.get(key).cloned()?;
        self.counters.attachment_writes += 1;
        Some(record)
    }

    /// Counts one send (or acknowledgement) on a WebSocket; `true` every
    /// [`LIVE_PERSIST_EVERY_SENDS`]: save its record into the attachment
    /// now, so a woken object resumes it at most that many frames behind.
    pub fn attachment_due(&mut self, key: &str) -> bool {
        let count = self.unsaved_sends.entry(key.to_owned()).or_insert(0);
        *count += 1;
        if *count >= LIVE_PERSIST_EVERY_SENDS {
            *count = 0;
            return true;
        }
        false
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

    #[test]
    fn an_attachment_is_saved_every_few_sends() {
        let mut registry = Registry::default();
        let saves = (0..LIVE_PERSIST_EVERY_SENDS * 2)
            .filter(|_| registry.attachment_due("k"))
            .count();
        assert_eq!(saves, 2);
    }

    #[test]
    fn an_ack_for_an_unknown_connection_does_nothing() {
        let mut registry = Registry::default();
        assert_eq!(registry.on_ack("gone", 3), AfterAck::Nothing);
    }
}
