//! Wire frames of live connections (docs/design.md §10): Server-Sent Events (one
//! message per event, `id:` the offset, so `Last-Event-ID` resumes) and
//! WebSocket text frames (`{"type": "events", "events": [...], "head"}`).

use crate::event::CommittedEvent;
use serde_json::json;

/// One SSE message per event: `id: <offset>`, `event: event`, `data: <E>`.
pub fn sse_event_frames(events: &[CommittedEvent]) -> String {
    let mut text = String::new();
    for event in events {
        let data = serde_json::to_string(event).unwrap_or_default();
        text.push_str(&format!("id: {}\nevent: event\ndata: {data}\n\n", event.offset));
    }
    text
}

/// The scanned position of an SSE catch-up that ends before the head (§10):
/// a message whose `id:` moves the client's `Last-Event-ID` (it carries
/// data, since clients such as the `eventsource` package dispatch — and so
/// record the id of — only messages with data; its own event type keeps it
/// away from `event` and `message` listeners).
pub fn sse_progress(through: u64) -> String {
    format!(
        "id: {through}\nevent: progress\ndata: {}\n\n",
        json!({"deliveredThroughOffset": through})
    )
}

/// The first bytes of an SSE stream: the reconnect delay clients should use.
pub fn sse_preamble(retry_ms: u64) -> String {
    format!("retry: {retry_ms}\n\n")
}

/// A comment heartbeat (§10: at least every 20 s).
pub const SSE_HEARTBEAT: &str = ": keep-alive\n\n";

/// The final message of an SSE stream the server ends with a reason.
pub fn sse_error(code: &str, message: &str) -> String {
    format!("event: error\ndata: {}\n\n", json!({"code": code, "message": message}))
}

/// The gap a connection fell into (§16): retention trimmed `(after,
/// first_offset)` before it was sent; the connection goes on from
/// `first_offset`. SSE: `event: trimmed`; WebSocket: `{"type": "trimmed"}`.
pub fn trimmed(transport: super::Transport, after_offset: u64, first_offset: u64) -> String {
    let body = json!({"type": "trimmed", "afterOffset": after_offset, "firstOffset": first_offset});
    match transport {
        super::Transport::Sse => format!("event: trimmed\ndata: {body}\n\n"),
        super::Transport::WebSocket => body.to_string(),
    }
}

/// One WebSocket text frame carrying `events`, with the stream's head.
pub fn websocket_frame(events: &[CommittedEvent], head: u64) -> String {
    json!({"type": "events", "events": events, "head": head}).to_string()
}

/// The last frame a WebSocket gets before the server closes it with a
/// reason (§10): the same `{code, message}` as SSE's final `event: error`,
/// so a client knows why at once (a close frame's code reaches some clients
/// only when the TCP connection ends, seconds later).
pub fn websocket_error(code: &str, message: &str) -> String {
    json!({"type": "error", "code": code, "message": message}).to_string()
}

/// The WebSocket keep-alive frame (§10); answered to a client's own ping
/// by the platform without waking the object.
pub const WEBSOCKET_PING: &str = r#"{"type":"ping"}"#;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn a_websocket_error_frame_carries_the_code_and_message_an_sse_error_does() {
        let frame: Value =
            serde_json::from_str(&websocket_error("replaced", "a \"newer\" connection")).unwrap_or_default();
        assert_eq!(
            frame,
            json!({"type": "error", "code": "replaced", "message": "a \"newer\" connection"})
        );
        let sse = sse_error("replaced", "a \"newer\" connection");
        let data = sse.trim_end().strip_prefix("event: error\ndata: ").unwrap_or_default();
        let sse_body: Value = serde_json::from_str(data).unwrap_or_default();
        assert_eq!(sse_body.get("code"), frame.get("code"));
        assert_eq!(sse_body.get("message"), frame.get("message"));
    }
}
