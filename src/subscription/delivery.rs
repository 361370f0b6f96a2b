//! `receiver.delivery` (DESIGN.md §5, §6, §8): where a run starts, what happens
//! to a failing event, and the policies. Values are checked here, at
//! configure time; a zero, negative or out-of-range value is a 422.

use super::{invalid, object, ConfigError};
use crate::limits::MAX_WEBHOOK_TIMEOUT_MS;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::limits::{
    DEFAULT_RETRY_INITIAL_BACKOFF_MS, DEFAULT_RETRY_MAX_ATTEMPTS, DEFAULT_RETRY_MAX_BACKOFF_MS, MAX_AGGREGATE_BATCH,
    MAX_AGGREGATE_WINDOW_MS, MAX_RETRY_ATTEMPTS,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Start {
    Beginning,
    Now,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnFailingEvent {
    Halt,
    Skip,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Retry {
    pub max_attempts: u64,
    pub initial_backoff_ms: u64,
    pub max_backoff_ms: u64,
}

impl Default for Retry {
    /// §6 rule 5: 15 attempts, 1 s initial, 30 min max.
    fn default() -> Self {
        Retry {
            max_attempts: DEFAULT_RETRY_MAX_ATTEMPTS,
            initial_backoff_ms: DEFAULT_RETRY_INITIAL_BACKOFF_MS,
            max_backoff_ms: DEFAULT_RETRY_MAX_BACKOFF_MS,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Throttle {
    pub max_deliveries: u64,
    pub window_ms: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Aggregate {
    pub window_ms: u64,
    pub max_batch: u64,
}

/// `delivery.gate` (§13): whether matching events become deliveries at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Gate {
    /// `count` matching events within `windowMs` (event time) mint one digest.
    Threshold { count: u64, window_ms: u64 },
    /// At most one delivery per window, anchored at the first admitted hit.
    MaxOnce { window_ms: u64 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub start: Start,
    pub on_failing_event: OnFailingEvent,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<Retry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throttle: Option<Throttle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aggregate: Option<Aggregate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Rows of the delivery journal kept (§13); `None` is the default depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal_depth: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<Gate>,
}

impl Delivery {
    /// How many delivered or dead-lettered offsets the journal keeps (§13).
    pub fn journal_depth(&self) -> u64 {
        self.journal_depth.unwrap_or(crate::limits::DEFAULT_JOURNAL_DEPTH)
    }
}

/// Which policies a receiver kind accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicySet {
    /// copy-to-stream: halt only; retry only.
    Copy,
    /// itx-call: halt or skip; retry, throttle, aggregate.
    Call,
    /// webhook-post: as itx-call, plus timeoutMs.
    Webhook,
}

fn positive(fields: &Map<String, Value>, name: &str, path: &str, max: u64) -> Result<u64, ConfigError> {
    let field = format!("{path}.{name}");
    let number = fields.get(name).ok_or_else(|| invalid(&field, "is required"))?;
    match number.as_u64() {
        Some(n) if n > 0 && n <= max => Ok(n),
        Some(0) => Err(invalid(&field, "must be positive")),
        Some(_) => Err(invalid(&field, format!("must be at most {max}"))),
        None => Err(invalid(&field, "must be a positive integer")),
    }
}

/// Integers this large would not survive the trip through JS (§1).
const MAX_POLICY_VALUE: u64 = crate::limits::MAX_SAFE_INTEGER;

impl Retry {
    fn parse(value: &Value) -> Result<Retry, ConfigError> {
        let path = "receiver.delivery.retry";
        let fields = object(value, path, &["maxAttempts", "initialBackoffMs", "maxBackoffMs"])?;
        let retry = Retry {
            max_attempts: positive(fields, "maxAttempts", path, MAX_RETRY_ATTEMPTS)?,
            initial_backoff_ms: positive(fields, "initialBackoffMs", path, MAX_POLICY_VALUE)?,
            max_backoff_ms: positive(fields, "maxBackoffMs", path, MAX_POLICY_VALUE)?,
        };
        if retry.initial_backoff_ms > retry.max_backoff_ms {
            return Err(invalid(
                &format!("{path}.initialBackoffMs"),
                "must not exceed maxBackoffMs",
            ));
        }
        Ok(retry)
    }
}

fn parse_gate(value: &Value) -> Result<Gate, ConfigError> {
    let path = "receiver.delivery.gate";
    let fields = object(value, path, &["threshold", "maxOnce"])?;
    match (fields.get("threshold"), fields.get("maxOnce")) {
        (Some(threshold), None) => {
            let path = "receiver.delivery.gate.threshold";
            let fields = object(threshold, path, &["count", "windowMs"])?;
            Ok(Gate::Threshold {
                count: positive(fields, "count", path, MAX_AGGREGATE_BATCH)?,
                window_ms: positive(fields, "windowMs", path, MAX_AGGREGATE_WINDOW_MS)?,
            })
        }
        (None, Some(max_once)) => {
            let path = "receiver.delivery.gate.maxOnce";
            let fields = object(max_once, path, &["windowMs"])?;
            Ok(Gate::MaxOnce {
                window_ms: positive(fields, "windowMs", path, MAX_AGGREGATE_WINDOW_MS)?,
            })
        }
        _ => Err(invalid(
            path,
            "must be {\"threshold\": {count, windowMs}} or {\"maxOnce\": {windowMs}}",
        )),
    }
}

impl Delivery {
    pub fn parse(value: Option<&Value>, policies: PolicySet) -> Result<Delivery, ConfigError> {
        let path = "receiver.delivery";
        let value = value.ok_or_else(|| invalid(path, "is required"))?;
        let allowed: &[&str] = match policies {
            PolicySet::Copy => &["start", "onFailingEvent", "retry"],
            PolicySet::Call => &[
                "start",
                "onFailingEvent",
                "retry",
                "throttle",
                "aggregate",
                "journalDepth",
                "gate",
            ],
            PolicySet::Webhook => &[
                "start",
                "onFailingEvent",
                "retry",
                "throttle",
                "aggregate",
                "timeoutMs",
                "journalDepth",
                "gate",
            ],
        };
        let fields = object(value, path, allowed)?;
        let start = match fields.get("start").and_then(Value::as_str) {
            Some("beginning") => Start::Beginning,
            Some("now") => Start::Now,
            _ => return Err(invalid("receiver.delivery.start", "must be \"beginning\" or \"now\"")),
        };
        let on_failing_event = match (fields.get("onFailingEvent").and_then(Value::as_str), policies) {
            (Some("halt"), _) => OnFailingEvent::Halt,
            (Some("skip"), PolicySet::Call | PolicySet::Webhook) => OnFailingEvent::Skip,
            (Some("skip"), PolicySet::Copy) => {
                return Err(invalid(
                    "receiver.delivery.onFailingEvent",
                    "copy-to-stream can only \"halt\": an ordered copy never skips",
                ))
            }
            _ => {
                return Err(invalid(
                    "receiver.delivery.onFailingEvent",
                    "must be \"halt\" or \"skip\"",
                ))
            }
        };
        let retry = fields.get("retry").map(Retry::parse).transpose()?;
        let throttle = match fields.get("throttle") {
            None => None,
            Some(value) => {
                let path = "receiver.delivery.throttle";
                let fields = object(value, path, &["maxDeliveries", "windowMs"])?;
                Some(Throttle {
                    max_deliveries: positive(fields, "maxDeliveries", path, MAX_POLICY_VALUE)?,
                    window_ms: positive(fields, "windowMs", path, MAX_AGGREGATE_WINDOW_MS)?,
                })
            }
        };
        let aggregate = match fields.get("aggregate") {
            None => None,
            Some(value) => {
                let path = "receiver.delivery.aggregate";
                let fields = object(value, path, &["windowMs", "maxBatch"])?;
                Some(Aggregate {
                    window_ms: positive(fields, "windowMs", path, MAX_AGGREGATE_WINDOW_MS)?,
                    max_batch: positive(fields, "maxBatch", path, MAX_AGGREGATE_BATCH)?,
                })
            }
        };
        let timeout_ms = match fields.get("timeoutMs") {
            None => None,
            Some(_) => Some(positive(fields, "timeoutMs", path, MAX_WEBHOOK_TIMEOUT_MS)?),
        };
        let journal_depth = match fields.get("journalDepth") {
            None => None,
            Some(_) => Some(positive(
                fields,
                "journalDepth",
                path,
                crate::limits::MAX_JOURNAL_DEPTH,
            )?),
        };
        let gate = match fields.get("gate") {
            None => None,
            Some(value) => Some(parse_gate(value)?),
        };
        if matches!(gate, Some(Gate::Threshold { .. })) && aggregate.is_some() {
            return Err(invalid(
                "receiver.delivery.gate",
                "a threshold gate already delivers digests; use it or aggregate, not both",
            ));
        }
        Ok(Delivery {
            start,
            on_failing_event,
            retry,
            throttle,
            aggregate,
            timeout_ms,
            journal_depth,
            gate,
        })
    }
}
