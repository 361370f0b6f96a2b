//! `POST /v1/streams/{receivingPath}/-/subscribe-from` (docs/design.md §5): called
//! on the receiving stream, it appends exactly one event — the source's
//! `subscription-configured` with a `copy-to-stream` receiver pointing back at
//! the caller. This module turns the request into that event; the router
//! appends it to the source stream.

use crate::error::{details, ApiFailure, ErrorCode};
use crate::event::{Authority, ControlType, EventError, InputEvent};
use crate::path::{PathError, StreamPath};
use crate::subscription::{check_caller_key, ConfigError, Configuration, GENERATED_KEY_PREFIX};
use serde_json::{json, Map, Value};

#[derive(Debug, thiserror::Error)]
pub enum SubscribeFromError {
    #[error("request body is not a valid JSON object: {0}")]
    Malformed(String),
    #[error("'{0}' is not a known field of subscribe-from")]
    UnknownField(String),
    #[error("'sourcePath' is required and must be a string")]
    MissingSource,
    #[error("'sourcePath' is invalid: {0}")]
    SourcePath(PathError),
    #[error("a stream cannot subscribe to itself")]
    SelfSubscription,
    #[error("'{0}' must be a string")]
    NotAString(&'static str),
    #[error("without a 'subscriptionKey', an 'idempotencyKey' is required so a retried call cannot create a second subscription")]
    IdempotencyKeyRequired,
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Event(#[from] EventError),
}

impl ApiFailure for SubscribeFromError {
    fn error_code(&self) -> ErrorCode {
        match self {
            SubscribeFromError::Malformed(_) => ErrorCode::MalformedJson,
            SubscribeFromError::SourcePath(_) => ErrorCode::InvalidPath,
            SubscribeFromError::SelfSubscription => ErrorCode::InvalidSubscription,
            SubscribeFromError::IdempotencyKeyRequired => ErrorCode::IdempotencyKeyRequired,
            SubscribeFromError::Config(error) => error.error_code(),
            SubscribeFromError::Event(error) => error.error_code(),
            _ => ErrorCode::InvalidRequest,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            SubscribeFromError::Config(error) => error.details(),
            SubscribeFromError::UnknownField(field) => details([("field", json!(field))]),
            _ => Map::new(),
        }
    }
}

/// The source to append to, and the event to append there.
#[derive(Debug)]
pub struct SubscribeFrom {
    pub source_path: StreamPath,
    pub event: InputEvent,
    /// The key when the caller chose one; `None` means the reducer derives it.
    pub subscription_key: Option<String>,
}

const FIELDS: &[&str] = &[
    "sourcePath",
    "subscriptionKey",
    "idempotencyKey",
    "filter",
    "jsonataTransform",
    "start",
];

fn optional_string(fields: &Map<String, Value>, name: &'static str) -> Result<Option<String>, SubscribeFromError> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(SubscribeFromError::NotAString(name)),
    }
}

/// The source event's idempotency key: namespaced by the receiving stream so
/// two callers' keys never collide on a shared source.
fn source_idempotency_key(receiving: &StreamPath, caller_key: &str) -> String {
    let digest = blake3::hash(format!("{receiving}\n{caller_key}").as_bytes());
    format!("subscribe-from:{}", digest.to_hex())
}

/// Validates a subscribe-from body. `start` defaults to `"beginning"`: a
/// copy is a mirror of the source's history unless asked otherwise.
pub fn plan(receiving: &StreamPath, body: &[u8]) -> Result<SubscribeFrom, SubscribeFromError> {
    let value: Value =
        serde_json::from_slice(body).map_err(|error| SubscribeFromError::Malformed(error.to_string()))?;
    let fields = value
        .as_object()
        .ok_or_else(|| SubscribeFromError::Malformed("not an object".to_owned()))?;
    if let Some(unknown) = fields.keys().find(|name| !FIELDS.contains(&name.as_str())) {
        return Err(SubscribeFromError::UnknownField(unknown.clone()));
    }
    let source = optional_string(fields, "sourcePath")?.ok_or(SubscribeFromError::MissingSource)?;
    let source_path = StreamPath::parse(&source).map_err(SubscribeFromError::SourcePath)?;
    if &source_path == receiving {
        return Err(SubscribeFromError::SelfSubscription);
    }
    let subscription_key = optional_string(fields, "subscriptionKey")?;
    if let Some(key) = &subscription_key {
        check_caller_key(key, "subscriptionKey")?;
    }
    let idempotency_key = optional_string(fields, "idempotencyKey")?;
    if subscription_key.is_none() && idempotency_key.is_none() {
        return Err(SubscribeFromError::IdempotencyKeyRequired);
    }
    let mut receiver = json!({
        "action": "copy-to-stream",
        "receivingStreamPath": receiving.as_str(),
        "delivery": {"start": fields.get("start").cloned().unwrap_or(json!("beginning")), "onFailingEvent": "halt"},
    });
    if let (Some(transform), Some(receiver)) = (fields.get("jsonataTransform"), receiver.as_object_mut()) {
        receiver.insert("jsonataTransform".to_owned(), transform.clone());
    }
    let mut payload = Map::new();
    if let Some(key) = &subscription_key {
        payload.insert("subscriptionKey".to_owned(), json!(key));
    }
    if let Some(filter) = fields.get("filter") {
        payload.insert("filter".to_owned(), filter.clone());
    }
    payload.insert("receiver".to_owned(), receiver);
    let payload = Value::Object(payload);
    Configuration::parse(&payload)?;
    let mut event = json!({"type": ControlType::SubscriptionConfigured.as_str(), "payload": payload});
    if let (Some(key), Some(event)) = (&idempotency_key, event.as_object_mut()) {
        let key = source_idempotency_key(receiving, key);
        event.insert("idempotencyKey".to_owned(), json!(key));
    }
    let event = InputEvent::from_json(event, Authority::Public)?;
    Ok(SubscribeFrom {
        source_path,
        event,
        subscription_key,
    })
}

/// The key a committed configure event established (explicit or derived).
pub fn established_key(explicit: Option<&str>, offset: u64) -> String {
    explicit.map_or_else(|| format!("{GENERATED_KEY_PREFIX}{offset}"), str::to_owned)
}
