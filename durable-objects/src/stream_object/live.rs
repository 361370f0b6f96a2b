//! Live connections, the shell half (docs/design.md §10): Server-Sent Events
//! streams, hibernatable WebSockets and long-poll waiters. The engine's
//! `live` module decides what each connection gets; this file only moves
//! bytes. No borrow of the stream is held across an await.
//!
//! - SSE: the response body is a pull stream fed by a channel; what sits in
//!   the channel is the connection's unsent backlog (§12). A catch-up larger
//!   than the backlog budget (or its page budget) ends the stream early with
//!   its scanned position as the last `id:`: the client's automatic
//!   reconnect (`retry:` 250 ms, `Last-Event-ID`) continues from there. It
//!   stays registered (counted, §10) until its response has been pulled.
//! - WebSocket: accepted through the hibernation API, the connection record
//!   in the socket's attachment, so the object may be evicted with sockets
//!   open; a woken object restores them. Clients acknowledge with
//!   `{"type":"ack","offset":N}`; unacknowledged bytes are the backlog, and
//!   acknowledgements pace a long catch-up. A catch-up that ran out of pages
//!   with nothing to acknowledge continues on the next alarm turn.
//! - Long-polls: keyed waiters, each gone at its answer or its timeout.

use super::StreamObject;
use crate::platform;
use crate::platform::timers::within;
use futures_channel::mpsc::{unbounded, UnboundedSender};
use futures_channel::oneshot;
use futures_util::StreamExt;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use tributary::api::ApiResponse;
use tributary::error::{ApiError, ErrorCode};
use tributary::limits::{
    LIVE_CATCH_UP_SOCKETS_PER_TURN, MAX_LIVE_BACKLOG_BYTES, SSE_HEARTBEAT_MS, SSE_MAX_LIFETIME_MS, SSE_RETRY_MS,
};
use tributary::live::{
    self, AfterAck, ClientMessage, CloseReason, Connection, Fanout, LiveQuery, RecordKey, Transport,
};
use tributary::route::internal::TOKEN_HASH_HEADER;
use wasm_bindgen::{JsCast, JsValue};
use worker::{Headers, Request, Response, Result, WebSocket, WebSocketPair};

/// The subprotocol the server answers when a client offers it (§10).
pub const SUBPROTOCOL: &str = "tributary.v1";

/// One open SSE response: its channel and what it holds unsent.
struct SseSink {
    sender: UnboundedSender<Vec<u8>>,
    unsent: Rc<Cell<usize>>,
}

impl SseSink {
    fn push(&self, text: String) -> bool {
        if text.is_empty() {
            return true;
        }
        self.unsent.set(self.unsent.get().saturating_add(text.len()));
        self.sender.unbounded_send(text.into_bytes()).is_ok()
    }

    /// The response ends after what is queued (an empty chunk marks it).
    fn end(&self) {
        let _ = self.sender.unbounded_send(Vec::new());
    }
}

/// The transports of one stream object's live connections.
#[derive(Default)]
pub struct LiveShell {
    sse: RefCell<BTreeMap<String, SseSink>>,
    sockets: RefCell<BTreeMap<String, WebSocket>>,
    /// Long-polls waiting for the head to move, by their own number: each
    /// leaves at its answer or its timeout (§10).
    waiters: RefCell<BTreeMap<u64, oneshot::Sender<()>>>,
    next_waiter: Cell<u64>,
    /// The head the last fan-out saw: a long-poll wakes when it moves.
    notified_head: Cell<u64>,
    /// Sockets found open by a woken object have been taken back.
    restored: Cell<bool>,
    /// WebSockets whose catch-up continues on the next alarm turn without
    /// an ack (§10: a filtered scan that found nothing sent nothing to ack).
    next_turn: RefCell<BTreeSet<String>>,
}

/// What one fan-out hands to JS once, whatever the readers: each distinct
/// frame as a JS string (readers getting the same events share one
/// `Rc<str>`, keyed by its address), and `WebSocket.prototype.send`, looked
/// up on the first socket and called on every one.
#[derive(Default)]
struct JsFrames {
    frames: Vec<(*const u8, JsValue)>,
    send: Option<js_sys::Function>,
}

impl JsFrames {
    /// `socket.send(text)`, after saving `save` into its attachment when
    /// the engine says it is due; `false` when the send threw (the socket
    /// is gone).
    fn send(&mut self, socket: &WebSocket, text: &Rc<str>, save: Option<&Connection>) -> bool {
        if let Some(record) = save {
            let _ = socket.serialize_attachment(record);
        }
        let target: &web_sys::WebSocket = socket.as_ref();
        let target: &JsValue = target.as_ref();
        if self.send.is_none() {
            self.send = js_sys::Reflect::get(target, &JsValue::from_str("send"))
                .ok()
                .and_then(|send| send.dyn_into::<js_sys::Function>().ok());
        }
        let at = text.as_ptr();
        if !self.frames.iter().any(|(frame_at, _)| *frame_at == at) {
            self.frames.push((at, JsValue::from_str(text)));
        }
        let frame = self.frames.iter().find(|(frame_at, _)| *frame_at == at);
        match (&self.send, frame) {
            (Some(send), Some((_, frame))) => send.call1(target, frame).is_ok(),
            _ => false,
        }
    }
}

fn error_response(error: impl Into<ApiError>) -> Result<Response> {
    crate::internal::responses::from_api(ApiResponse::from(error.into()))
}

fn live_error(error: live::LiveError) -> Result<Response> {
    error_response(ApiError::from(error))
}

impl LiveShell {
    /// Takes back the WebSockets a previous instance of this object accepted
    /// (they survive hibernation): their records come from the attachments.
    pub fn restore(&self, object: &StreamObject) {
        if self.restored.replace(true) {
            return;
        }
        let mut slot = object.stream_slot().borrow_mut();
        let Some(stream) = slot.as_mut() else {
            self.restored.set(false);
            return;
        };
        let mut sockets = self.sockets.borrow_mut();
        // Re-authentication (§10): a woken object closes the sockets whose
        // token no longer grants `read` on their path in their project.
        let grants = crate::internal::auth::grants_by_token_hash(object.env());
        let project_of = |hash: &str| grants.get(hash).cloned();
        for socket in object.state().get_websockets() {
            if let Ok(Some(connection)) = socket.deserialize_attachment::<Connection>() {
                if !connection.still_authorized(&project_of) {
                    let reason = CloseReason::Unauthorized;
                    let _ = socket.serialize_attachment(serde_json::Value::Null);
                    let _ = socket.send_with_str(live::websocket_error(reason.code(), reason.message()));
                    let _ = socket.close(Some(reason.websocket_code()), Some(reason.code()));
                    continue;
                }
                if !connection.caught_up {
                    // Its scan may have been waiting for a turn, not an ack.
                    self.next_turn.borrow_mut().insert(connection.connection_key.clone());
                }
                sockets.insert(connection.connection_key.clone(), socket);
                stream.live.restore(connection);
            }
        }
    }

    /// Whether a WebSocket catch-up waits for the next turn: the alarm is
    /// then due now.
    pub fn wants_turn(&self) -> bool {
        !self.next_turn.borrow().is_empty()
    }

    /// The alarm's part (§10): takes back the sockets a previous instance
    /// accepted — before anything the alarm commits is fanned out, so an
    /// open socket never misses a fact committed by an alarm-woken object —
    /// and continues the catch-ups that wait for a turn.
    pub fn on_alarm(&self, object: &StreamObject) {
        if !self.is_restored() || object.stream_slot().borrow().is_none() {
            // The first socket with a record names the stream (a closing
            // one has none).
            let sockets = object.state().get_websockets();
            for socket in sockets.iter().take(tributary::limits::MAX_LIVE_CONNECTIONS) {
                if object.open_for_socket(socket) {
                    break;
                }
            }
        }
        let keys: Vec<String> = self
            .next_turn
            .borrow()
            .iter()
            .take(LIVE_CATCH_UP_SOCKETS_PER_TURN)
            .cloned()
            .collect();
        for key in keys {
            self.next_turn.borrow_mut().remove(&key);
            self.catch_up_socket(object, &key);
        }
    }

    /// Whether this instance has taken back its hibernated sockets.
    pub fn is_restored(&self) -> bool {
        self.restored.get()
    }

    /// Forgets SSE connections whose client went away (the runtime dropped
    /// the response stream, and with it the channel's receiver).
    pub fn prune(&self, object: &StreamObject) {
        let gone: Vec<String> = self
            .sse
            .borrow()
            .iter()
            .filter(|(_, sink)| sink.sender.is_closed())
            .map(|(key, _)| key.clone())
            .collect();
        for key in gone {
            self.forget(object, &key);
        }
    }

    /// `GET /-/live` (§10): validates everything before any upgrade.
    pub async fn open(&self, object: &StreamObject, request: &Request, query: &str) -> Result<Response> {
        self.prune(object);
        let last_event_id = request.headers().get("last-event-id")?;
        let live_query = match LiveQuery::parse(query, last_event_id.as_deref()) {
            Ok(live_query) => live_query,
            Err(error) => return live_error(error),
        };
        let upgrade = request
            .headers()
            .get("upgrade")?
            .is_some_and(|value| value.eq_ignore_ascii_case("websocket"));
        let transport = if upgrade { Transport::WebSocket } else { Transport::Sse };
        let inputs = platform::inputs()?;
        let token_hash = request.headers().get(TOKEN_HASH_HEADER)?;
        let opened = {
            let mut slot = object.stream_slot().borrow_mut();
            let Some(stream) = slot.as_mut() else {
                return error_response(ApiError::new(ErrorCode::Internal, "stream not open"));
            };
            stream
                .open_live_for(&live_query, transport, inputs.now_ms, inputs.entropy, token_hash)
                .map(|(connection, replaced)| (connection, replaced, stream.head()))
        };
        let (connection, replaced, _head) = match opened {
            Ok(opened) => opened,
            Err(error) => return live_error(error),
        };
        if let Some(replaced) = replaced {
            self.close_transport(&replaced, CloseReason::Replaced);
        }
        let key = connection.connection_key.clone();
        match transport {
            Transport::Sse => self.open_sse(object, &key),
            Transport::WebSocket => {
                let offered = request.headers().get("sec-websocket-protocol")?.unwrap_or_default();
                self.open_websocket(object, &connection, offered.split(',').any(|p| p.trim() == SUBPROTOCOL))
            }
        }
    }

    fn open_sse(&self, object: &StreamObject, key: &str) -> Result<Response> {
        let (sender, receiver) = unbounded::<Vec<u8>>();
        let unsent = Rc::new(Cell::new(0usize));
        let sink = SseSink {
            sender,
            unsent: Rc::clone(&unsent),
        };
        sink.push(live::sse_preamble(SSE_RETRY_MS));
        // What every SSE response of this stream holds unsent is bounded
        // (§12): a catch-up gets at most what is left of that, and with
        // nothing left it only repeats its position and ends (the client
        // retries after `retry:`).
        let pinned: usize = self.sse.borrow().values().map(|sink| sink.unsent.get()).sum();
        let budget = live::sse_catch_up_budget(pinned);
        let catch_up = {
            let mut slot = object.stream_slot().borrow_mut();
            slot.as_mut().map(|stream| stream.live_catch_up(key, budget))
        };
        let caught_up = match catch_up {
            Some(Ok(catch_up)) => {
                for frame in catch_up.frames {
                    sink.push(frame);
                }
                catch_up.caught_up
            }
            Some(Err(error)) => {
                sink.push(live::sse_error("internal", &error.to_string()));
                false
            }
            None => false,
        };
        if !caught_up {
            // The rest of the replay comes with the client's reconnect
            // (Last-Event-ID, moved by the catch-up's last `id:`): the stream
            // ends once the client has read what was queued. Until then the
            // connection stays registered, so it counts against the
            // per-stream limit (§10) — `prune` forgets it when its body ends.
            sink.end();
        }
        self.sse.borrow_mut().insert(key.to_owned(), sink);
        // Pulled by the runtime as the client reads: a chunk when one is
        // queued, a heartbeat comment after a quiet interval, the end when the
        // channel closes, and at most SSE_MAX_LIFETIME_MS in all (§10).
        let body = futures_util::stream::unfold(receiver, move |mut receiver| {
            let unsent = Rc::clone(&unsent);
            async move {
                match within(SSE_HEARTBEAT_MS, receiver.next()).await {
                    // The end marker of a catch-up that is not caught up.
                    Some(Some(chunk)) if chunk.is_empty() => None,
                    Some(Some(chunk)) => {
                        unsent.set(unsent.get().saturating_sub(chunk.len()));
                        Some((Ok::<Vec<u8>, worker::Error>(chunk), receiver))
                    }
                    Some(None) => None,
                    None => Some((Ok(live::SSE_HEARTBEAT.as_bytes().to_vec()), receiver)),
                }
            }
        })
        .take_until(crate::platform::timers::sleep(SSE_MAX_LIFETIME_MS));
        let headers = Headers::new();
        headers.set("content-type", "text/event-stream; charset=utf-8")?;
        headers.set("cache-control", "no-cache")?;
        Ok(Response::from_stream(body)?.with_headers(headers))
    }

    fn open_websocket(&self, object: &StreamObject, connection: &Connection, offered: bool) -> Result<Response> {
        let pair = WebSocketPair::new()?;
        object.state().accept_web_socket(&pair.server);
        let key = connection.connection_key.clone();
        let record = object
            .stream_slot()
            .borrow_mut()
            .as_mut()
            .and_then(|stream| stream.live.attachment_record(&key));
        if pair
            .server
            .serialize_attachment(record.as_ref().unwrap_or(connection))
            .is_err()
        {
            self.forget(object, &key);
            return error_response(ApiError::new(ErrorCode::Internal, "could not record the connection"));
        }
        self.sockets.borrow_mut().insert(key.clone(), pair.server);
        self.catch_up_socket(object, &key);
        let mut response = Response::from_websocket(pair.client)?;
        if offered {
            response.headers_mut().set("sec-websocket-protocol", SUBPROTOCOL)?;
        }
        Ok(response)
    }

    /// Sends a WebSocket the next catch-up frames its backlog allows; a scan
    /// that ran out of pages (not of backlog) continues on the next turn.
    fn catch_up_socket(&self, object: &StreamObject, key: &str) {
        let (catch_up, record) = {
            let mut slot = object.stream_slot().borrow_mut();
            let Some(stream) = slot.as_mut() else {
                return;
            };
            let Some(connection) = stream.live.get(key) else {
                return;
            };
            if connection.caught_up {
                return;
            }
            let budget = MAX_LIVE_BACKLOG_BYTES.saturating_sub(stream.live.backlog(key));
            if budget == 0 {
                return;
            }
            let catch_up = stream.live_catch_up(key, budget).ok();
            (catch_up, stream.live.attachment_record(key))
        };
        let Some(catch_up) = catch_up else {
            return;
        };
        if catch_up.next_turn {
            self.next_turn.borrow_mut().insert(key.to_owned());
        }
        let sockets = self.sockets.borrow();
        let Some(socket) = sockets.get(key) else {
            return;
        };
        for frame in catch_up.frames {
            let _ = socket.send_with_str(&frame);
        }
        if let Some(record) = record {
            let _ = socket.serialize_attachment(&record);
        }
    }

    /// Fans out what the stream committed since the last call (§10) and
    /// wakes long-polls. Call after every engine call that may append.
    pub fn fan_out(&self, object: &StreamObject) {
        // An object woken by its alarm has not taken its sockets back yet:
        // what it commits must reach them (§10, no gap within a connection).
        self.restore(object);
        self.prune(object);
        let mut gone = Vec::new();
        let mut closing = Vec::new();
        {
            let mut slot = object.stream_slot().borrow_mut();
            let Some(stream) = slot.as_mut() else {
                return;
            };
            let head = stream.head();
            if head != self.notified_head.replace(head) {
                for (_, waiter) in std::mem::take(&mut *self.waiters.borrow_mut()) {
                    let _ = waiter.send(());
                }
                object.protocol_sse().push(stream);
            }
            let committed = stream.take_committed();
            if committed.is_empty() {
                return;
            }
            let decisions = {
                let sse = self.sse.borrow();
                let unsent = |key: &str| sse.get(key).map_or(0, |sink| sink.unsent.get());
                stream.live.on_commit(&committed, head, &unsent)
            };
            let mut frames = JsFrames::default();
            let (sse, sockets) = (self.sse.borrow(), self.sockets.borrow());
            for (key, fanout) in decisions {
                match fanout {
                    Fanout::Nothing => {}
                    Fanout::Close(reason) => closing.push((stream.live.get(&key).cloned(), key, reason)),
                    Fanout::Send { text, save } => {
                        let sent = match sse.get(&key) {
                            Some(sink) => sink.push(text.to_string()),
                            None => sockets
                                .get(&key)
                                .is_some_and(|socket| frames.send(socket, &text, save.as_deref())),
                        };
                        if !sent {
                            gone.push(key);
                        }
                    }
                }
            }
        }
        for key in gone {
            self.forget(object, &key);
        }
        for (record, key, reason) in closing {
            if let Some(connection) = record {
                self.close_transport(&connection, reason);
            }
            self.forget(object, &key);
        }
    }

    /// Ends a connection's transport with a reason the client can resume from.
    fn close_transport(&self, connection: &Connection, reason: CloseReason) {
        let key = &connection.connection_key;
        if let Some(sink) = self.sse.borrow_mut().remove(key) {
            sink.push(live::sse_error(reason.code(), reason.message()));
        }
        if let Some(socket) = self.sockets.borrow_mut().remove(key) {
            // A closing socket is no connection any more: a woken object
            // must not restore it (a replacement may hold its key).
            let _ = socket.serialize_attachment(serde_json::Value::Null);
            let _ = socket.send_with_str(live::websocket_error(reason.code(), reason.message()));
            let _ = socket.close(Some(reason.websocket_code()), Some(reason.code()));
        }
    }

    fn forget(&self, object: &StreamObject, key: &str) {
        self.sse.borrow_mut().remove(key);
        self.sockets.borrow_mut().remove(key);
        self.next_turn.borrow_mut().remove(key);
        if let Some(stream) = object.stream_slot().borrow_mut().as_mut() {
            stream.live.remove(key);
        }
    }

    /// The stream was deleted: every connection ends with that reason.
    pub fn close_all(&self, object: &StreamObject) {
        let connections = object
            .stream_slot()
            .borrow_mut()
            .as_mut()
            .map(|stream| stream.live.drain())
            .unwrap_or_default();
        for connection in connections {
            self.close_transport(&connection, CloseReason::StreamDeleted);
        }
        for (_, waiter) in std::mem::take(&mut *self.waiters.borrow_mut()) {
            let _ = waiter.send(());
        }
    }

    /// A WebSocket message: an acknowledgement (which may let a catch-up
    /// continue) or a ping; anything else is ignored.
    pub fn on_message(&self, object: &StreamObject, socket: &WebSocket, text: &str) {
        let Ok(Some(RecordKey { connection_key: key })) = socket.deserialize_attachment::<RecordKey>() else {
            return;
        };
        match ClientMessage::parse(text) {
            ClientMessage::Ack { offset } => {
                let after = {
                    let mut slot = object.stream_slot().borrow_mut();
                    let Some(stream) = slot.as_mut() else {
                        return;
                    };
                    stream.live.on_ack(&key, offset)
                };
                match after {
                    AfterAck::ContinueCatchUp => self.catch_up_socket(object, &key),
                    AfterAck::SaveAttachment(record) => {
                        let _ = socket.serialize_attachment(&record);
                    }
                    AfterAck::Nothing => {}
                }
            }
            ClientMessage::Ping => {
                let _ = socket.send_with_str(live::WEBSOCKET_PING);
            }
            ClientMessage::Ignored => {}
        }
    }

    /// A WebSocket closed or failed: forget it — only if its key is still
    /// its own (a replaced socket's close must not forget its replacement).
    pub fn on_closed(&self, object: &StreamObject, socket: &WebSocket) {
        let Ok(Some(connection)) = socket.deserialize_attachment::<Connection>() else {
            return;
        };
        let key = connection.connection_key;
        let owns_key = self
            .sockets
            .borrow()
            .get(&key)
            .is_some_and(|registered| registered == socket);
        if owns_key {
            self.forget(object, &key);
        }
    }

    /// Waits until the head moves (or `wait_ms` passes): a long-poll. At
    /// most [`tributary::limits::MAX_LONG_POLL_WAITERS`] wait at once (429
    /// beyond); a waiter leaves the queue — and the gauge — at its wake-up
    /// or its timeout, whichever comes first.
    pub async fn wait_for_commit(
        &self,
        object: &StreamObject,
        wait_ms: u64,
    ) -> std::result::Result<(), live::LiveError> {
        {
            let mut slot = object.stream_slot().borrow_mut();
            if let Some(stream) = slot.as_mut() {
                stream.live.admit_waiter()?;
            }
        }
        let id = self.next_waiter.get();
        self.next_waiter.set(id.wrapping_add(1));
        let (sender, receiver) = oneshot::channel();
        self.waiters.borrow_mut().insert(id, sender);
        let _ = within(wait_ms, receiver).await;
        self.waiters.borrow_mut().remove(&id);
        if let Some(stream) = object.stream_slot().borrow_mut().as_mut() {
            stream.live.waiter_done();
        }
        Ok(())
    }
}
