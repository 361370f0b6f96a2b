//! Events (docs/design.md §3): the input a caller sends, its validation, and the
//! committed event every read returns.

use crate::error::{details, ApiFailure, ErrorCode};
use crate::json_field::JsonField;
use crate::json_limits::{json_len, value_depth};
use crate::limits::{MAX_EVENT_BYTES, MAX_EVENT_DEPTH, MAX_IDEMPOTENCY_KEY_BYTES, MAX_TYPE_BYTES};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

/// Prefix of every control event type (§4).
pub const CONTROL_PREFIX: &str = "events.iterate.com/stream/";

/// The control-event catalog of §4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlType {
    SubscriptionConfigured,
    SubscriptionRemoved,
    SubscriptionCursorSet,
    SubscriptionDeliveryResumed,
    SubscriptionDeliveryHalted,
    ErrorOccurred,
    /// Earlier events are invalid; consumers get retractions (§13).
    EventsInvalidated,
    /// How much of the log the stream keeps (§16).
    RetentionConfigured,
    /// No data event commits after this one (§17 "Closure").
    StreamClosed,
    /// When the stream ends by itself (§17 "Expiry").
    ExpiryConfigured,
}

impl ControlType {
    /// Every control type of the catalog (§4).
    pub const ALL: [ControlType; 10] = [
        ControlType::SubscriptionConfigured,
        ControlType::SubscriptionRemoved,
        ControlType::SubscriptionCursorSet,
        ControlType::SubscriptionDeliveryResumed,
        ControlType::SubscriptionDeliveryHalted,
        ControlType::ErrorOccurred,
        ControlType::EventsInvalidated,
        ControlType::RetentionConfigured,
        ControlType::StreamClosed,
        ControlType::ExpiryConfigured,
    ];

    /// The wire `type` of this control event (§4): [`CONTROL_PREFIX`] and
    /// its name. The one place each control type is spelled.
    pub const fn as_str(self) -> &'static str {
        match self {
            ControlType::SubscriptionConfigured => "events.iterate.com/stream/subscription-configured",
            ControlType::SubscriptionRemoved => "events.iterate.com/stream/subscription-removed",
            ControlType::SubscriptionCursorSet => "events.iterate.com/stream/subscription-cursor-set",
            ControlType::SubscriptionDeliveryResumed => "events.iterate.com/stream/subscription-delivery-resumed",
            ControlType::SubscriptionDeliveryHalted => "events.iterate.com/stream/subscription-delivery-halted",
            ControlType::ErrorOccurred => "events.iterate.com/stream/error-occurred",
            ControlType::EventsInvalidated => "events.iterate.com/stream/events-invalidated",
            ControlType::RetentionConfigured => "events.iterate.com/stream/retention-configured",
            ControlType::StreamClosed => "events.iterate.com/stream/stream-closed",
            ControlType::ExpiryConfigured => "events.iterate.com/stream/expiry-configured",
        }
    }

    /// Whether `event_type` is this control type.
    pub fn is(self, event_type: &str) -> bool {
        event_type == self.as_str()
    }

    /// Whether folding it changes the reduced state (audit facts and
    /// invalidations are in the log for readers; the state does not hold them).
    pub fn changes_state(self) -> bool {
        !matches!(self, ControlType::ErrorOccurred | ControlType::EventsInvalidated)
    }

    /// What kind of type `event_type` is.
    pub fn classify(event_type: &str) -> TypeKind {
        if !event_type.starts_with(CONTROL_PREFIX) {
            return TypeKind::Ordinary;
        }
        ControlType::ALL
            .into_iter()
            .find(|control| control.is(event_type))
            .map_or(TypeKind::UnknownControl, TypeKind::Control)
    }

    /// Only the engine itself may append these (§4 "trusted only").
    pub fn is_trusted_only(self) -> bool {
        matches!(
            self,
            ControlType::SubscriptionDeliveryHalted | ControlType::ErrorOccurred
        )
    }
}

/// An event type is ordinary, a catalogued control type, or an unknown name
/// under the control prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    Ordinary,
    Control(ControlType),
    UnknownControl,
}

/// Who is appending: the public API, or the engine/stream-to-stream delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Authority {
    Public,
    Trusted,
}

/// A validated input event: `{type, payload?, metadata?, idempotencyKey?, ephemeral?}`
/// (plus `source` on the trusted path only).
#[derive(Debug, Clone, PartialEq)]
pub struct InputEvent {
    pub event_type: String,
    /// Any JSON value; `{}` when absent.
    pub payload: JsonField,
    /// A JSON object; `{}` when absent.
    pub metadata: JsonField,
    pub idempotency_key: Option<String>,
    pub ephemeral: bool,
    pub source: Option<JsonField>,
    /// A byte message's bytes (§17): stored as a BLOB, `payload` then `null`.
    pub body: Option<Vec<u8>>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EventError {
    #[error("an event must be a JSON object")]
    NotAnObject,
    #[error("field 'type' is required")]
    MissingType,
    #[error("field '{field}' must be {expected}")]
    WrongFieldType {
        field: &'static str,
        expected: &'static str,
    },
    #[error("unknown field '{0}'")]
    UnknownField(String),
    #[error("'type' must be 1-{MAX_TYPE_BYTES} bytes; got {0}")]
    TypeLength(usize),
    #[error("'type' must not contain whitespace or control characters")]
    TypeCharacters,
    #[error("'idempotencyKey' must be 1-{MAX_IDEMPOTENCY_KEY_BYTES} bytes; got {0}")]
    IdempotencyKeyLength(usize),
    #[error("event JSON is {0} bytes; the limit is {MAX_EVENT_BYTES}")]
    TooLarge(usize),
    #[error("event JSON nests {0} levels; the limit is {MAX_EVENT_DEPTH}")]
    TooDeep(usize),
    #[error("events carrying 'source' can only be appended by stream-to-stream delivery")]
    SourceForbidden,
    #[error("'{0}' can only be appended by Tributary itself")]
    TrustedOnlyType(String),
    #[error("'{0}' is not a known control event type")]
    UnknownControlType(String),
    #[error("control events cannot be ephemeral")]
    EphemeralControl,
}

impl ApiFailure for EventError {
    fn error_code(&self) -> ErrorCode {
        match self {
            EventError::TooLarge(_) => ErrorCode::EventTooLarge,
            EventError::TooDeep(_) => ErrorCode::EventTooDeep,
            EventError::SourceForbidden => ErrorCode::SourceForbidden,
            EventError::TrustedOnlyType(_) => ErrorCode::TrustedOnlyType,
            EventError::UnknownControlType(_) => ErrorCode::UnknownControlType,
            _ => ErrorCode::InvalidEvent,
        }
    }
}

fn field_type(field: &'static str, expected: &'static str) -> EventError {
    EventError::WrongFieldType { field, expected }
}

/// The bytes an event's content takes (§3 rule 2). A copy's provenance
/// (`source`, at most 5 bounded hops, §7) and derived `idempotencyKey` are
/// the engine's, not the user's: they do not count, so a source event near
/// the limit can always be copied.
fn content_size(value: &Value) -> usize {
    let total = json_len(value);
    let Some(fields) = value.as_object().filter(|fields| fields.contains_key("source")) else {
        return total;
    };
    let engine_owned: usize = ["source", "idempotencyKey"]
        .iter()
        .filter_map(|name| fields.get(*name).map(|field| (name, field)))
        .map(|(name, field)| json_len(field).saturating_add(name.len() + 4))
        .fold(0, usize::saturating_add);
    total.saturating_sub(engine_owned)
}

impl InputEvent {
    /// Validates one event object against §3 rules 1, 2, 4, 5 and 7.
    pub fn from_json(value: Value, authority: Authority) -> Result<InputEvent, EventError> {
        let depth = value_depth(&value);
        if depth > MAX_EVENT_DEPTH {
            return Err(EventError::TooDeep(depth));
        }
        let size = content_size(&value);
        if size > MAX_EVENT_BYTES {
            return Err(EventError::TooLarge(size));
        }
        let Value::Object(fields) = value else {
            return Err(EventError::NotAnObject);
        };
        let mut event = InputEvent {
            event_type: String::new(),
            payload: json!({}).into(),
            metadata: json!({}).into(),
            idempotency_key: None,
            ephemeral: false,
            source: None,
            body: None,
        };
        let mut saw_type = false;
        for (name, field) in fields {
            match (name.as_str(), field) {
                ("type", Value::String(text)) => {
                    event.event_type = text;
                    saw_type = true;
                }
                ("type", _) => return Err(field_type("type", "a string")),
                ("payload", payload) => event.payload = payload.into(),
                ("metadata", metadata @ Value::Object(_)) => event.metadata = metadata.into(),
                ("metadata", Value::Null) => {}
                ("metadata", _) => return Err(field_type("metadata", "an object")),
                ("idempotencyKey", Value::String(key)) => event.idempotency_key = Some(key),
                ("idempotencyKey", Value::Null) => {}
                ("idempotencyKey", _) => return Err(field_type("idempotencyKey", "a string")),
                ("ephemeral", Value::Bool(flag)) => event.ephemeral = flag,
                ("ephemeral", _) => return Err(field_type("ephemeral", "a boolean")),
                ("source", source) if authority == Authority::Trusted => event.source = Some(source.into()),
                ("source", _) => return Err(EventError::SourceForbidden),
                (other, _) => return Err(EventError::UnknownField(other.to_owned())),
            }
        }
        if !saw_type {
            return Err(EventError::MissingType);
        }
        event.checked(authority)
    }

    /// The last checks of [`InputEvent::from_json`], once the fields are
    /// read: the type (§3 rule 7, §4) and the idempotency key's length.
    pub(crate) fn checked(self, authority: Authority) -> Result<InputEvent, EventError> {
        self.check_type(authority)?;
        if let Some(key) = &self.idempotency_key {
            if key.is_empty() || key.len() > MAX_IDEMPOTENCY_KEY_BYTES {
                return Err(EventError::IdempotencyKeyLength(key.len()));
            }
        }
        Ok(self)
    }

    fn check_type(&self, authority: Authority) -> Result<(), EventError> {
        let event_type = &self.event_type;
        if event_type.is_empty() || event_type.len() > MAX_TYPE_BYTES {
            return Err(EventError::TypeLength(event_type.len()));
        }
        if event_type.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(EventError::TypeCharacters);
        }
        // A copied control event is data (§4): its type is not checked here.
        if self.source.is_some() {
            return Ok(());
        }
        match ControlType::classify(event_type) {
            TypeKind::Ordinary => Ok(()),
            TypeKind::UnknownControl => Err(EventError::UnknownControlType(event_type.clone())),
            TypeKind::Control(control) if control.is_trusted_only() && authority == Authority::Public => {
                Err(EventError::TrustedOnlyType(event_type.clone()))
            }
            TypeKind::Control(_) if self.ephemeral => Err(EventError::EphemeralControl),
            TypeKind::Control(_) => Ok(()),
        }
    }

    /// The input form of this event, as a caller would send it.
    pub fn to_json(&self) -> Value {
        let mut fields = Map::new();
        fields.insert("type".to_owned(), json!(self.event_type));
        fields.insert("payload".to_owned(), self.payload.tree().into_owned());
        fields.insert("metadata".to_owned(), self.metadata.tree().into_owned());
        if let Some(key) = &self.idempotency_key {
            fields.insert("idempotencyKey".to_owned(), json!(key));
        }
        if self.ephemeral {
            fields.insert("ephemeral".to_owned(), json!(true));
        }
        if let Some(source) = &self.source {
            fields.insert("source".to_owned(), source.tree().into_owned());
        }
        Value::Object(fields)
    }

    /// The control type this event has on the stream that holds it: none for
    /// copies, whose control events are data (§4).
    pub fn control_type(&self) -> Option<ControlType> {
        if self.source.is_some() {
            return None;
        }
        match ControlType::classify(&self.event_type) {
            TypeKind::Control(control) => Some(control),
            _ => None,
        }
    }

    /// Whether this engine fact (a trusted-only control event, §4) restates
    /// `stored`, the same kind of fact the engine committed under the same
    /// key: its details may have moved on (a retried trim step after the
    /// head moved), and the first one stands (§2, `stream::facts`). Public
    /// inputs never carry these types, so this never answers for them.
    pub fn restates_fact(&self, stored: &StoredEvent) -> bool {
        self.control_type().is_some_and(ControlType::is_trusted_only)
            && stored.source.is_none()
            && self.event_type == stored.event_type
    }

    /// Whether a stored event is the same content (§3 rule 4).
    pub fn same_content_as(&self, stored: &StoredEvent) -> bool {
        self.event_type == stored.event_type
            && self.ephemeral == stored.ephemeral
            && self.payload.same_as_stored(&stored.payload)
            && self.metadata.same_as_stored(&stored.metadata)
            && match (&self.source, &stored.source) {
                (Some(source), Some(stored)) => source.same_as_stored(stored),
                (None, None) => true,
                _ => false,
            }
    }
}

/// A committed event as stored in the `events` table.
#[derive(Debug, Clone)]
pub struct StoredEvent {
    pub offset: u64,
    pub event_type: String,
    pub payload: Box<RawValue>,
    pub metadata: Box<RawValue>,
    pub idempotency_key: Option<String>,
    pub ephemeral: bool,
    pub created_at_ms: i64,
    pub source: Option<Box<RawValue>>,
    /// A byte message (§17): how `payload` (then a JSON string) carries its
    /// bytes; `None` for a JSON event.
    pub encoding: Option<BodyEncoding>,
    /// The bytes themselves, when this value was built to be inserted (a
    /// read leaves them in SQLite: `payload` carries them).
    pub body: Option<Vec<u8>>,
}

/// How a byte message (§17) travels where JSON must carry it — native
/// reads, subscriptions, webhooks, copies, dead letters: `payload` is a
/// JSON string and `encoding` says how it holds the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum BodyEncoding {
    /// The bytes are valid UTF-8: the string is them.
    #[serde(rename = "utf-8")]
    Utf8,
    /// Standard base64 (RFC 4648, padded).
    #[serde(rename = "base64")]
    Base64,
}

impl BodyEncoding {
    /// `bytes` as a JSON string, and how it holds them.
    pub fn carry(bytes: &[u8]) -> (Box<RawValue>, BodyEncoding) {
        use base64::Engine;
        let (text, encoding) = match std::str::from_utf8(bytes) {
            Ok(text) => (text.to_owned(), BodyEncoding::Utf8),
            Err(_) => (
                base64::engine::general_purpose::STANDARD.encode(bytes),
                BodyEncoding::Base64,
            ),
        };
        let quoted = serde_json::to_string(&text).unwrap_or_else(|_| "\"\"".to_owned());
        let raw = RawValue::from_string(quoted).unwrap_or_else(|_| RawValue::NULL.to_owned());
        (raw, encoding)
    }
}

/// The committed event of §3, as every read and append returns it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CommittedEvent {
    pub offset: u64,
    #[serde(rename = "type")]
    pub event_type: String,
    pub payload: Box<RawValue>,
    pub metadata: Box<RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ephemeral: bool,
    pub created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Box<RawValue>>,
    /// A byte message's form (§17): `payload` is a string holding its bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<BodyEncoding>,
}

impl From<StoredEvent> for CommittedEvent {
    fn from(stored: StoredEvent) -> Self {
        CommittedEvent {
            offset: stored.offset,
            event_type: stored.event_type,
            payload: stored.payload,
            metadata: stored.metadata,
            idempotency_key: stored.idempotency_key,
            ephemeral: stored.ephemeral,
            created_at: crate::time::rfc3339_millis(stored.created_at_ms),
            source: stored.source,
            encoding: stored.encoding,
        }
    }
}

#[cfg(test)]
impl StoredEvent {
    /// A durable `data` event at `offset` whose payload is a string of
    /// `payload_bytes` bytes (for the unit tests).
    #[allow(clippy::unwrap_used)]
    pub(crate) fn sample(offset: u64, payload_bytes: usize) -> StoredEvent {
        StoredEvent {
            offset,
            event_type: "data".to_owned(),
            payload: RawValue::from_string(format!("\"{}\"", "x".repeat(payload_bytes))).unwrap(),
            metadata: RawValue::from_string("{}".to_owned()).unwrap(),
            idempotency_key: None,
            ephemeral: false,
            created_at_ms: 0,
            source: None,
            encoding: None,
            body: None,
        }
    }
}

/// Details naming which event of a batch failed.
pub fn batch_index_details(index: usize) -> Map<String, Value> {
    details([("index", json!(index))])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section4_every_control_type_is_spelled_once_and_classifies_back() {
        for control in ControlType::ALL {
            assert!(control.as_str().starts_with(CONTROL_PREFIX), "{control:?}");
            assert_eq!(ControlType::classify(control.as_str()), TypeKind::Control(control));
        }
        assert_eq!(
            ControlType::EventsInvalidated.as_str(),
            "events.iterate.com/stream/events-invalidated"
        );
        assert_eq!(
            ControlType::classify("events.iterate.com/stream/subscription-configured"),
            TypeKind::Control(ControlType::SubscriptionConfigured)
        );
        assert_eq!(
            ControlType::classify("events.iterate.com/stream/no-such"),
            TypeKind::UnknownControl
        );
        assert_eq!(
            ControlType::classify("events.iterate.com/stream/"),
            TypeKind::UnknownControl
        );
        assert_eq!(ControlType::classify("order-placed"), TypeKind::Ordinary);
    }
}
