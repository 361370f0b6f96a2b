//! Writes through the protocol face (docs/design.md §17, PROTOCOL §5.1–5.4):
//! create, append, close and delete. Every write is checked first in the
//! protocol's order (`checks`), then its messages become events committed
//! together with the writers' state in one transaction.

use super::lifetime::native_face;
use super::store::{self, FaceRow};
use super::{not_found, ProtocolAnswer, ProtocolRequest};
use crate::durable_streams::checks::{self, AppendPlan, Closure, StreamConfig, WriterState};
use crate::durable_streams::expiry::{Expiry, StoredExpiry};
use crate::durable_streams::headers::{AppendHeaders, CreateHeaders};
use crate::durable_streams::json_mode::{self, BodyPurpose};
use crate::durable_streams::media_type::MediaType;
use crate::durable_streams::producer::ProducerClaim;
use crate::durable_streams::{byte_mode, response};
use crate::error::{ApiError, ErrorCode};
use crate::event::{Authority, ControlType, InputEvent};
use crate::state::lifecycle;
use crate::storage::Storage;
use crate::stream::Stream;
use crate::Inputs;
use serde_json::{json, Value};

/// A stream's face: its content type and how its messages are events.
pub(crate) struct Face {
    pub row: FaceRow,
    pub content_type: MediaType,
}

impl Face {
    /// A stream first written natively: JSON, each data event a message.
    pub fn is_native(&self) -> bool {
        self.row.content_type.is_none()
    }
}

impl<S: Storage> Stream<S> {
    pub(crate) fn face(&self) -> Result<Face, crate::storage::StorageError> {
        let row = match self.lifetime {
            Some(_) => store::load_face_of_lifetime(&self.storage)?,
            None => store::load_face(&self.storage)?,
        }
        .unwrap_or_else(native_face);
        let content_type = row
            .content_type
            .as_deref()
            .and_then(|text| MediaType::parse(text).ok())
            .unwrap_or_else(MediaType::json);
        Ok(Face { row, content_type })
    }

    /// `PUT` (PROTOCOL §5.1): 201 created, 200 when it exists as asked
    /// (its body is then not appended), 409 when it exists otherwise.
    pub(super) fn protocol_create(&mut self, request: &ProtocolRequest<'_>, inputs: &Inputs) -> ProtocolAnswer {
        let asked = match CreateHeaders::parse(request.headers) {
            Ok(asked) => asked,
            Err(error) => return ProtocolAnswer::refusal(error, Vec::new()),
        };
        if let Some(meta) = &self.lifetime {
            let head = meta.head;
            let (face, origin) = match self.face().and_then(|face| Ok((face, self.fork_origin()?))) {
                Ok(found) => found,
                Err(error) => return ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new()),
            };
            let existing = StreamConfig {
                content_type: &face.content_type,
                expiry: self.state.expiry,
                closed: self.state.closed.is_some(),
                message_type: Some(face.row.message_type.as_str()),
                fork: origin
                    .as_ref()
                    .map(|origin| (origin.asked_from.as_str(), origin.asked_offset, origin.sub_offset)),
            };
            let closed = existing.closed;
            return match checks::check_create(Some(&existing), &asked) {
                Ok(_) => {
                    let answer = response::created(None, &face.content_type.canonical(), head, closed);
                    ProtocolAnswer::new(answer.status, answer.headers, Vec::new())
                }
                Err(refusal) => ProtocolAnswer::refusal(refusal, Vec::new()),
            };
        }
        if let Some(fork) = &asked.fork {
            return self.protocol_create_fork(request, &asked, fork, inputs);
        }
        let content_type = asked.content_type.clone().unwrap_or_else(MediaType::octet_stream);
        let face = FaceRow {
            content_type: Some(content_type.canonical()),
            message_type: asked.message_type().to_owned(),
            last_stream_seq: None,
            expiry_deadline_ms: StoredExpiry::create(asked.expiry, inputs.now_ms).deadline_ms,
        };
        let face_view = Face {
            row: face.clone(),
            content_type: content_type.clone(),
        };
        let events = match creation_events(&face_view, asked.expiry, None, request.body, asked.closed) {
            Ok(events) => events,
            Err(error) => return ProtocolAnswer::refusal(*error, Vec::new()),
        };
        if let Err(error) = self.check_storage_budget(&events, request.body.len()) {
            return ProtocolAnswer::refusal(error, Vec::new());
        }
        match self.append_within(events, inputs, &|storage| store::save_face(storage, &face)) {
            Ok(_) => {
                self.last_access = crate::durable_streams::expiry::LastAccess(Some(inputs.now_ms));
                let head = self.head();
                let answer = response::created(Some(request.location), &content_type.canonical(), head, asked.closed);
                ProtocolAnswer::new(answer.status, answer.headers, Vec::new())
            }
            Err(error) => ProtocolAnswer::refusal(error, Vec::new()),
        }
    }

    /// `POST` (PROTOCOL §5.2, §5.3): an append, a close, or both at once.
    pub(super) fn protocol_append(&mut self, request: &ProtocolRequest<'_>, inputs: &Inputs) -> ProtocolAnswer {
        let Some(head) = self.lifetime.as_ref().map(|meta| meta.head) else {
            return not_found(self.path.as_str());
        };
        let body_empty = request.body.is_empty();
        let asked = match AppendHeaders::parse(request.headers, body_empty) {
            Ok(asked) => asked,
            Err(error) => return ProtocolAnswer::refusal(error, Vec::new()),
        };
        // Read once: the checks and the messages both need it.
        let face = match self.face() {
            Ok(face) => face,
            Err(error) => return ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new()),
        };
        let plan = match self.plan_append(&face, &asked, body_empty, inputs.now_ms) {
            Ok(Ok(plan)) => plan,
            Ok(Err(answer)) => return answer,
            Err(error) => return ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new()),
        };
        let (writes, producer, mut events) = match plan {
            AppendPlan::Duplicate {
                epoch,
                highest_seq,
                closed,
            } => {
                let answer = response::appended(head, closed, Some((epoch, highest_seq)), false);
                return ProtocolAnswer::new(answer.status, answer.headers, Vec::new());
            }
            AppendPlan::Close {
                already_closed: true, ..
            } => {
                let answer = response::appended(head, true, None, false);
                return ProtocolAnswer::new(answer.status, answer.headers, Vec::new());
            }
            AppendPlan::Close { writes, producer, .. } => (writes, producer, Vec::new()),
            AppendPlan::Append { writes, producer } => match messages(&face, request.body, BodyPurpose::Append) {
                Ok(events) => (writes, producer, events),
                Err(error) => return ProtocolAnswer::refusal(*error, Vec::new()),
            },
        };
        let closing = writes.close.is_some();
        // A close-only request answers 204, with its producer echoed.
        let accepted = !events.is_empty();
        if let Some(close) = &writes.close {
            events.push(control(
                ControlType::StreamClosed,
                lifecycle::closed_payload(close.by.as_ref()),
            ));
        }
        if let Err(error) = self.check_storage_budget(&events, request.body.len()) {
            return ProtocolAnswer::refusal(error, Vec::new());
        }
        self.renew_after_write(inputs.now_ms);
        let row = face.row;
        match self.append_within(events, inputs, &|storage| store::write_writers(storage, &writes, &row)) {
            Ok(_) => {
                let answer = response::appended(self.head(), closing, producer, accepted);
                ProtocolAnswer::new(answer.status, answer.headers, Vec::new())
            }
            Err(error) => ProtocolAnswer::refusal(error, Vec::new()),
        }
    }

    /// The protocol's checks, in its order, against what the stream holds.
    fn plan_append(
        &self,
        face: &Face,
        asked: &AppendHeaders,
        body_empty: bool,
        now_ms: i64,
    ) -> Result<Result<AppendPlan, ProtocolAnswer>, crate::storage::StorageError> {
        let closed_by: Option<ProducerClaim> = self
            .state
            .closed
            .as_ref()
            .and_then(|closed| closed.by.as_ref().map(lifecycle::ClosedBy::claim));
        let closure = match &self.state.closed {
            None => Closure::Open,
            Some(_) => Closure::Closed { by: closed_by.as_ref() },
        };
        let (producer, producers) = match &asked.producer {
            Some(claim) => (
                store::producer(&self.storage, &claim.producer_id)?,
                store::producer_table(&self.storage)?,
            ),
            None => (None, Default::default()),
        };
        let state = WriterState {
            content_type: &face.content_type,
            closure,
            last_stream_seq: face.row.last_stream_seq.as_deref(),
            producer: producer.as_ref(),
            producers: &producers,
        };
        let head = self.head();
        Ok(
            checks::check_append(&state, asked, body_empty, now_ms).map_err(|refusal| {
                let headers = response::refusal_headers(&refusal, head);
                ProtocolAnswer::refusal(refusal, headers)
            }),
        )
    }

    /// A write renews a sliding expiry (a failure to store the renewal
    /// leaves the stored deadline, never early: §17).
    fn renew_after_write(&mut self, now_ms: i64) {
        let _ = self.renew_expiry(now_ms);
    }

    /// `DELETE` (PROTOCOL §5.4): 204, or 404; a stream forks still read is
    /// soft-deleted (§18).
    pub(super) fn protocol_delete(&mut self, now_ms: i64) -> ProtocolAnswer {
        match self.delete_or_soft_delete(now_ms) {
            Ok(true) => ProtocolAnswer::new(204, Vec::new(), Vec::new()),
            Ok(false) => not_found(self.path.as_str()),
            Err(error) => ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new()),
        }
    }
}

/// A control event the face appends (§17: closure and expiry).
pub(super) fn control(control: ControlType, payload: Value) -> InputEvent {
    InputEvent {
        event_type: control.as_str().to_owned(),
        payload: payload.into(),
        metadata: json!({}).into(),
        idempotency_key: None,
        ephemeral: false,
        source: None,
        body: None,
    }
}

/// A creating `PUT`'s first events (§17, §18): its expiry, `cut` (a fork's
/// sub-offset bytes), the body's messages, its closure.
pub(super) fn creation_events(
    face: &Face,
    expiry: Expiry,
    cut: Option<&[u8]>,
    body: &[u8],
    closed: bool,
) -> Result<Vec<InputEvent>, Box<ApiError>> {
    let mut events = Vec::new();
    if expiry != Expiry::Never {
        events.push(control(
            ControlType::ExpiryConfigured,
            lifecycle::expiry_payload(expiry),
        ));
    }
    if let Some(bytes) = cut {
        events.push(byte_event(&face.row.message_type, bytes));
    }
    events.extend(messages(face, body, BodyPurpose::Create)?);
    if closed {
        events.push(control(ControlType::StreamClosed, lifecycle::closed_payload(None)));
    }
    Ok(events)
}

/// A byte message as an event: its bytes in `body`, `payload` null (§17).
fn byte_event(message_type: &str, bytes: &[u8]) -> InputEvent {
    InputEvent {
        event_type: message_type.to_owned(),
        payload: Value::Null.into(),
        metadata: json!({}).into(),
        idempotency_key: None,
        ephemeral: false,
        source: None,
        body: Some(bytes.to_vec()),
    }
}

/// The events a body's messages become (§17 "Messages are events").
fn messages(face: &Face, body: &[u8], purpose: BodyPurpose) -> Result<Vec<InputEvent>, Box<ApiError>> {
    if body.is_empty() {
        return Ok(Vec::new());
    }
    if !face.content_type.is_json() {
        return Ok(byte_mode::split(body)
            .into_iter()
            .map(|piece| byte_event(&face.row.message_type, piece))
            .collect());
    }
    let raw = json_mode::messages(body, purpose).map_err(|error| Box::new(ApiError::from(error)))?;
    let mut events = Vec::with_capacity(raw.len());
    for (index, message) in raw.into_iter().enumerate() {
        let value: Value = serde_json::from_str(message.get()).unwrap_or(Value::Null);
        if face.is_native() {
            events.push(native_event(index, value)?);
            continue;
        }
        events.push(InputEvent {
            event_type: face.row.message_type.clone(),
            payload: value.into(),
            metadata: json!({}).into(),
            idempotency_key: None,
            ephemeral: false,
            source: None,
            body: None,
        });
    }
    Ok(events)
}

/// A message to a stream first written natively is an input event (§3),
/// validated as the native append validates it.
fn native_event(index: usize, value: Value) -> Result<InputEvent, Box<ApiError>> {
    let event = InputEvent::from_json(value, Authority::Public)
        .map_err(|error| Box::new(ApiError::from(crate::stream::AppendError::Event { index, error })))?;
    if event.control_type().is_some() {
        // Configuring a stream needs `manage`, which a protocol write does
        // not check (§17 "Auth"): control events take the native face.
        let error = ApiError::new(
            ErrorCode::ForbiddenScope,
            format!(
                "message {index}: control events ({}) are appended through the native face",
                event.event_type
            ),
        );
        return Err(Box::new(error));
    }
    if let Some(key) = &event.idempotency_key {
        if let Some(prefix) = crate::reserved_keys::is_reserved(key) {
            let error = ApiError::new(
                ErrorCode::ReservedIdempotencyKey,
                format!("message {index}: idempotency keys starting with '{prefix}' are the engine's"),
            );
            return Err(Box::new(error));
        }
    }
    Ok(event)
}
