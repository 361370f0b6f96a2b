//! Retention (docs/design.md §16): a stream that cannot grow without bound.
//!
//! - [`Retention`]: what `retention-configured` sets, part of the reduced
//!   state (the latest one applies).
//! - [`progress`]: how far the log was trimmed and the bytes it holds (the
//!   `retention_progress` row).
//! - [`snapshot`]: the fold as of the trim point, so a rebuild is the
//!   snapshot plus the retained events.
//! - [`trim`]: one bounded trim step of the alarm: never past a durable
//!   subscription's cursor unless `trimPastSubscribers`, and then only after
//!   each passed subscription's `trimmed` fact; `due` says when one is due,
//!   `expire` deletes ephemeral rows past their hour.

mod due;
mod expire;
pub mod passes;
pub mod progress;
pub mod snapshot;
pub mod trim;

use crate::limits::{MAX_SAFE_INTEGER, MIN_RETENTION_AGE_MS};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A `retention-configured` payload (§16). Every limit is optional; none
/// means keep everything (the default).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Retention {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_age_ms: Option<u64>,
    /// Most offsets kept, from the head back (ephemeral ones count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_events: Option<u64>,
    /// Most bytes of event rows kept (type, payload, metadata, idempotency
    /// key and provenance, as stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u64>,
    #[serde(default)]
    pub trim_past_subscribers: bool,
}

/// Why a `retention-configured` payload was refused (422, naming the field).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{field}' {problem}")]
pub struct RetentionError {
    pub field: &'static str,
    pub problem: &'static str,
}

const FIELDS: [&str; 4] = ["maxAgeMs", "maxEvents", "maxBytes", "trimPastSubscribers"];

fn limit(payload: &Value, field: &'static str, least: u64) -> Result<Option<u64>, RetentionError> {
    let Some(value) = payload.get(field) else {
        return Ok(None);
    };
    match value.as_u64() {
        Some(n) if (least..=MAX_SAFE_INTEGER).contains(&n) => Ok(Some(n)),
        _ if field == "maxAgeMs" => Err(RetentionError {
            field,
            problem: "must be an integer of at least 60000 (one minute) and below 2^53",
        }),
        _ => Err(RetentionError {
            field,
            problem: "must be a positive integer below 2^53",
        }),
    }
}

impl Retention {
    /// Validates a payload before commit (§16): positive integers below
    /// 2^53, `maxAgeMs` at least a minute, a boolean `trimPastSubscribers`,
    /// no other field.
    pub fn parse(payload: &Value) -> Result<Retention, RetentionError> {
        let fields = payload.as_object().ok_or(RetentionError {
            field: "payload",
            problem: "must be an object",
        })?;
        if fields.keys().any(|name| !FIELDS.contains(&name.as_str())) {
            return Err(RetentionError {
                field: "payload",
                problem: "has a field retention-configured does not take (maxAgeMs, maxEvents, maxBytes, trimPastSubscribers)",
            });
        }
        let trim_past_subscribers = match payload.get("trimPastSubscribers") {
            None => false,
            Some(Value::Bool(flag)) => *flag,
            Some(_) => {
                return Err(RetentionError {
                    field: "trimPastSubscribers",
                    problem: "must be true or false",
                })
            }
        };
        Ok(Retention {
            max_age_ms: limit(payload, "maxAgeMs", MIN_RETENTION_AGE_MS)?,
            max_events: limit(payload, "maxEvents", 1)?,
            max_bytes: limit(payload, "maxBytes", 1)?,
            trim_past_subscribers,
        })
    }

    /// Whether any limit is set (otherwise only ephemeral rows expire).
    pub fn limits_anything(&self) -> bool {
        self.max_age_ms.is_some() || self.max_events.is_some() || self.max_bytes.is_some()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn absent_limits_keep_everything() {
        let retention = Retention::parse(&json!({})).unwrap();
        assert_eq!(retention, Retention::default());
        assert!(!retention.limits_anything());
    }

    #[test]
    fn every_limit_and_the_flag() {
        let retention = Retention::parse(
            &json!({"maxAgeMs": 60000, "maxEvents": 1, "maxBytes": 1024, "trimPastSubscribers": true}),
        )
        .unwrap();
        assert_eq!(retention.max_age_ms, Some(60000));
        assert_eq!(retention.max_events, Some(1));
        assert_eq!(retention.max_bytes, Some(1024));
        assert!(retention.trim_past_subscribers && retention.limits_anything());
    }

    #[test]
    fn malformed_hostile_and_oversized_values_name_their_field() {
        let cases = [
            (json!({"maxEvents": 0}), "maxEvents"),
            (json!({"maxEvents": -1}), "maxEvents"),
            (json!({"maxEvents": 1.5}), "maxEvents"),
            (json!({"maxEvents": "10"}), "maxEvents"),
            (json!({"maxEvents": 9007199254740992u64}), "maxEvents"),
            (json!({"maxBytes": null}), "maxBytes"),
            (json!({"maxAgeMs": 59999}), "maxAgeMs"),
            (json!({"maxAgeMs": [60000]}), "maxAgeMs"),
            (json!({"trimPastSubscribers": "true"}), "trimPastSubscribers"),
            (json!({"maxevents": 10}), "payload"),
            (json!([1]), "payload"),
            (json!(null), "payload"),
        ];
        for (payload, field) in cases {
            let error = Retention::parse(&payload).unwrap_err();
            assert_eq!(error.field, field, "{payload}");
        }
    }
}
