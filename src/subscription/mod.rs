//! Durable-subscription configuration (docs/design.md §5): the payload of
//! `subscription-configured`, parsed into a structurally valid union. Anything
//! else is a 422 naming the offending field.

mod delivery;
pub mod headers;
mod receiver;

pub use delivery::{Aggregate, Delivery, Gate, OnFailingEvent, Retry, Start, Throttle};
pub use receiver::Receiver;

use crate::error::{details, ApiFailure, ErrorCode};
use crate::jsonata::{self, JsonataError};
use crate::limits::MAX_SUBSCRIPTION_KEY_BYTES;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// Prefix of keys the reducer generates from the configuring event's offset.
pub const GENERATED_KEY_PREFIX: &str = "subscription:";
/// Prefix reserved for live-connection keys (§10), so the two never collide.
pub const CONNECTION_KEY_PREFIX: &str = "connection:";

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConfigError {
    #[error("'{field}' {problem}")]
    Invalid { field: String, problem: String },
    #[error("'{field}' is not valid JSONata: {error}")]
    Jsonata { field: String, error: JsonataError },
}

impl ApiFailure for ConfigError {
    fn error_code(&self) -> ErrorCode {
        match self {
            ConfigError::Invalid { .. } => ErrorCode::InvalidSubscription,
            ConfigError::Jsonata { .. } => ErrorCode::InvalidJsonata,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            ConfigError::Invalid { field, .. } => details([("field", json!(field))]),
            ConfigError::Jsonata { field, error } => {
                details([("field", json!(field)), ("jsonataCode", json!(error.code()))])
            }
        }
    }
}

pub fn invalid(field: &str, problem: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        field: field.to_owned(),
        problem: problem.into(),
    }
}

/// Reads an object's fields, refusing any field not in `allowed`.
pub(crate) fn object<'a>(
    value: &'a Value,
    field: &str,
    allowed: &[&str],
) -> Result<&'a Map<String, Value>, ConfigError> {
    let fields = value.as_object().ok_or_else(|| invalid(field, "must be an object"))?;
    if let Some(unknown) = fields.keys().find(|name| !allowed.contains(&name.as_str())) {
        let path = if field.is_empty() {
            unknown.clone()
        } else {
            format!("{field}.{unknown}")
        };
        return Err(invalid(&path, "is not a known field here"));
    }
    Ok(fields)
}

pub(crate) fn optional_string(
    fields: &Map<String, Value>,
    name: &str,
    path: &str,
) -> Result<Option<String>, ConfigError> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(invalid(path, "must be a string")),
    }
}

/// Compiles a JSONata field at configure time (§5): a syntax error is a 422,
/// and so is a call of a nondeterministic builtin (a retry or a rebuild would
/// see another result). Recursion is allowed: evaluation is bounded in steps.
pub(crate) fn optional_jsonata(
    fields: &Map<String, Value>,
    name: &str,
    path: &str,
) -> Result<Option<String>, ConfigError> {
    let Some(source) = optional_string(fields, name, path)? else {
        return Ok(None);
    };
    let compiled = jsonata::compile(&source).map_err(|error| ConfigError::Jsonata {
        field: path.to_owned(),
        error,
    })?;
    if let Some(builtin) = compiled.calls_nondeterministic() {
        return Err(invalid(
            path,
            format!("calls {builtin}(), which differs between retries; a filter or transform must be deterministic"),
        ));
    }
    Ok(Some(source))
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Filter {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_types: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jsonata_condition: Option<String>,
}

/// One validated subscription configuration, as it appears in the reduced
/// state (`subscriptions.outbound.byKey[key].configuration`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Configuration {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subscription_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Filter>,
    pub receiver: Receiver,
}

/// Checks a caller-chosen subscription key (§5 "Keys").
pub fn check_caller_key(key: &str, field: &str) -> Result<(), ConfigError> {
    if key.is_empty() || key.len() > MAX_SUBSCRIPTION_KEY_BYTES {
        return Err(invalid(field, format!("must be 1-{MAX_SUBSCRIPTION_KEY_BYTES} bytes")));
    }
    if key.starts_with(GENERATED_KEY_PREFIX) {
        return Err(invalid(
            field,
            format!("must not start with the reserved prefix '{GENERATED_KEY_PREFIX}'"),
        ));
    }
    if key.starts_with(CONNECTION_KEY_PREFIX) {
        return Err(invalid(
            field,
            format!("must not start with '{CONNECTION_KEY_PREFIX}' (reserved for live connections)"),
        ));
    }
    if key.chars().any(char::is_control) {
        return Err(invalid(field, "must not contain control characters"));
    }
    Ok(())
}

fn parse_filter(value: &Value) -> Result<Filter, ConfigError> {
    let fields = object(value, "filter", &["eventTypes", "jsonataCondition"])?;
    let event_types = match fields.get("eventTypes") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => Some(
            items
                .iter()
                .map(|item| {
                    item.as_str()
                        .map(str::to_owned)
                        .ok_or_else(|| invalid("filter.eventTypes", "must be an array of strings"))
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Some(_) => return Err(invalid("filter.eventTypes", "must be an array of strings")),
    };
    let jsonata_condition = optional_jsonata(fields, "jsonataCondition", "filter.jsonataCondition")?;
    Ok(Filter {
        event_types,
        jsonata_condition,
    })
}

impl Configuration {
    /// Parses and validates a `subscription-configured` payload.
    pub fn parse(payload: &Value) -> Result<Configuration, ConfigError> {
        let fields = object(payload, "", &["subscriptionKey", "description", "filter", "receiver"])?;
        let subscription_key = optional_string(fields, "subscriptionKey", "subscriptionKey")?;
        if let Some(key) = &subscription_key {
            check_caller_key(key, "subscriptionKey")?;
        }
        let description = optional_string(fields, "description", "description")?;
        let filter = match fields.get("filter") {
            None | Some(Value::Null) => None,
            Some(filter) => Some(parse_filter(filter)?),
        };
        let receiver = Receiver::parse(
            fields
                .get("receiver")
                .ok_or_else(|| invalid("receiver", "is required"))?,
        )?;
        Ok(Configuration {
            subscription_key,
            description,
            filter,
            receiver,
        })
    }
}

/// The valid configurations of the `subscription-configured` events an
/// append body carries (one event or `{"events": [...]}`), for the checks
/// the router makes against the project before the append (§9: processors,
/// secrets). A body that does not parse, or a configuration that does not
/// validate, yields none: the append itself reports them.
pub fn configured_in_append(body: &[u8]) -> Vec<Configuration> {
    if !crate::json_limits::may_contain(body, b"subscription-configured") {
        return Vec::new();
    }
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Vec::new();
    };
    let events = match value.get("events").and_then(Value::as_array) {
        Some(events) => events.as_slice(),
        None => std::slice::from_ref(&value),
    };
    let configured = crate::event::ControlType::SubscriptionConfigured.as_str();
    events
        .iter()
        .filter(|event| event.get("type").and_then(Value::as_str) == Some(configured))
        .filter_map(|event| event.get("payload"))
        .filter_map(|payload| Configuration::parse(payload).ok())
        .collect()
}
