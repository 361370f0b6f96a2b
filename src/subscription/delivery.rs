//! `receiver.delivery` (docs/design.md §5, §6, §8): where a run starts, what happens
//! to a failing event, and the policies. Values are checked here, at
//! configure time; a zero, negative or out-of-range value is a 422.

use super::{invalid, object, ConfigError};
use crate::limits::MAX_WEBHOOK_TIMEOUT_MS;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::limits::{
    DEFAULT_RETRY_INITIAL_BACKOFF_MS, DEFAULT_RETRY_MAX_ATTEMPTS, DEFAULT_RETRY_MAX_BACKOFF_MS, MAX_AGGREGATE_BATCH,
    MAX_AGGREGATE_WINDOW_MS, MAX_DELIVERY_CONCURRENCY, MAX_RETRY_ATTEMPTS,
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
    /// Single-event deliveries in flight at once (§8 `concurrency`); `None`
    /// is one: ordered, one batch in flight (§6 rule 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u64>,
}

impl Delivery {
    /// Whether a batch is a digest resent whole (§8 aggregate, §13 threshold
    /// gate): its range is pinned until it completes, and no re-plan may
    /// choose its events again (retention never cuts one in half, §16).
    pub fn resends_whole(&self) -> bool {
        self.aggregate.is_some() || matches!(self.gate, Some(Gate::Threshold { .. }))
    }

    /// How many delivered or dead-lettered offsets the journal keeps (§13).
    pub fn journal_depth(&self) -> u64 {
        self.journal_depth.unwrap_or(crate::limits::DEFAULT_JOURNAL_DEPTH)
    }

    /// Deliveries in flight at once (§8 `concurrency`): 1 unless configured.
    pub fn concurrency(&self) -> u64 {
        self.concurrency.unwrap_or(1)
    }

    /// Whether deliveries run concurrently (§8 `concurrency` above 1): each
    /// event delivered, retried and dead-lettered on its own.
    pub fn is_concurrent(&self) -> bool {
        self.concurrency() > 1
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
    /// log (§15.1): halt or skip; nothing to retry, throttle or gate.
    Log,
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

impl PolicySet {
    /// The fields `receiver.delivery` takes for this receiver kind.
    fn allowed(self) -> &'static [&'static str] {
        match self {
            PolicySet::Copy => &["start", "onFailingEvent", "retry"],
            PolicySet::Log => &["start", "onFailingEvent"],
            PolicySet::Call => &[
                "start",
                "onFailingEvent",
                "retry",
                "throttle",
                "aggregate",
                "journalDepth",
                "gate",
                "concurrency",
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
                "concurrency",
            ],
        }
    }
}

/// `delivery.start`: where a run starts (§5).
fn parse_start(value: Option<&Value>) -> Result<Start, ConfigError> {
    match value.and_then(Value::as_str) {
        Some("beginning") => Ok(Start::Beginning),
        Some("now") => Ok(Start::Now),
        _ => Err(invalid("receiver.delivery.start", "must be \"beginning\" or \"now\"")),
    }
}

/// `delivery.onFailingEvent` (§6): an ordered copy can only halt.
fn parse_on_failing_event(value: Option<&Value>, policies: PolicySet) -> Result<OnFailingEvent, ConfigError> {
    match (value.and_then(Value::as_str), policies) {
        (Some("halt"), _) => Ok(OnFailingEvent::Halt),
        (Some("skip"), PolicySet::Call | PolicySet::Webhook | PolicySet::Log) => Ok(OnFailingEvent::Skip),
        (Some("skip"), PolicySet::Copy) => Err(invalid(
            "receiver.delivery.onFailingEvent",
            "copy-to-stream can only \"halt\": an ordered copy never skips",
        )),
        _ => Err(invalid(
            "receiver.delivery.onFailingEvent",
            "must be \"halt\" or \"skip\"",
        )),
    }
}

impl Throttle {
    fn parse(value: &Value) -> Result<Throttle, ConfigError> {
        let path = "receiver.delivery.throttle";
        let fields = object(value, path, &["maxDeliveries", "windowMs"])?;
        Ok(Throttle {
            max_deliveries: positive(fields, "maxDeliveries", path, MAX_POLICY_VALUE)?,
            window_ms: positive(fields, "windowMs", path, MAX_AGGREGATE_WINDOW_MS)?,
        })
    }
}

impl Aggregate {
    fn parse(value: &Value) -> Result<Aggregate, ConfigError> {
        let path = "receiver.delivery.aggregate";
        let fields = object(value, path, &["windowMs", "maxBatch"])?;
        Ok(Aggregate {
            window_ms: positive(fields, "windowMs", path, MAX_AGGREGATE_WINDOW_MS)?,
            max_batch: positive(fields, "maxBatch", path, MAX_AGGREGATE_BATCH)?,
        })
    }
}

/// A positive integer field of `receiver.delivery` that may be absent.
fn optional_positive(fields: &Map<String, Value>, name: &str, max: u64) -> Result<Option<u64>, ConfigError> {
    match fields.get(name) {
        None => Ok(None),
        Some(_) => positive(fields, name, "receiver.delivery", max).map(Some),
    }
}

/// A threshold gate already delivers digests (§13): it excludes aggregate.
fn check_gate_with_aggregate(gate: Option<&Gate>, aggregate: Option<&Aggregate>) -> Result<(), ConfigError> {
    if matches!(gate, Some(Gate::Threshold { .. })) && aggregate.is_some() {
        return Err(invalid(
            "receiver.delivery.gate",
            "a threshold gate already delivers digests; use it or aggregate, not both",
        ));
    }
    Ok(())
}

/// `delivery.concurrency` above 1 (§8): `skip` mode only, and never with
/// what needs one delivery at a time — an aggregate's or a threshold gate's
/// digest, or a maxOnce gate, whose next hit is judged by the last success.
fn check_concurrency(delivery: &Delivery) -> Result<(), ConfigError> {
    if !delivery.is_concurrent() {
        return Ok(());
    }
    let field = "receiver.delivery.concurrency";
    if delivery.on_failing_event != OnFailingEvent::Skip {
        return Err(invalid(
            field,
            "above 1 needs onFailingEvent \"skip\": concurrent deliveries are acknowledged, retried and dead-lettered each on its own, so one cannot halt the others",
        ));
    }
    if delivery.aggregate.is_some() {
        return Err(invalid(
            field,
            "above 1 cannot be combined with aggregate: a digest is one delivery of many events",
        ));
    }
    match delivery.gate {
        Some(Gate::Threshold { .. }) => Err(invalid(
            field,
            "above 1 cannot be combined with a threshold gate: its digest is one delivery of many events",
        )),
        Some(Gate::MaxOnce { .. }) => Err(invalid(
            field,
            "above 1 cannot be combined with a maxOnce gate: it judges each hit by the delivery before it",
        )),
        None => Ok(()),
    }
}

impl Delivery {
    /// `receiver.delivery` for a receiver kind accepting `policies`: each
    /// field checked in turn, in the order written here.
    pub fn parse(value: Option<&Value>, policies: PolicySet) -> Result<Delivery, ConfigError> {
        let path = "receiver.delivery";
        let value = value.ok_or_else(|| invalid(path, "is required"))?;
        let fields = object(value, path, policies.allowed())?;
        let delivery = Delivery {
            start: parse_start(fields.get("start"))?,
            on_failing_event: parse_on_failing_event(fields.get("onFailingEvent"), policies)?,
            retry: fields.get("retry").map(Retry::parse).transpose()?,
            throttle: fields.get("throttle").map(Throttle::parse).transpose()?,
            aggregate: fields.get("aggregate").map(Aggregate::parse).transpose()?,
            timeout_ms: optional_positive(fields, "timeoutMs", MAX_WEBHOOK_TIMEOUT_MS)?,
            journal_depth: optional_positive(fields, "journalDepth", crate::limits::MAX_JOURNAL_DEPTH)?,
            gate: fields.get("gate").map(parse_gate).transpose()?,
            concurrency: optional_positive(fields, "concurrency", MAX_DELIVERY_CONCURRENCY)?,
        };
        check_gate_with_aggregate(delivery.gate.as_ref(), delivery.aggregate.as_ref())?;
        check_concurrency(&delivery)?;
        Ok(delivery)
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problem(error: ConfigError) -> (String, String) {
        match error {
            ConfigError::Invalid { field, problem } => (field, problem),
            other => panic!("not an Invalid: {other:?}"),
        }
    }

    #[test]
    fn start_is_beginning_or_now() {
        assert_eq!(parse_start(Some(&json!("beginning"))), Ok(Start::Beginning));
        assert_eq!(parse_start(Some(&json!("now"))), Ok(Start::Now));
        for wrong in [None, Some(json!("later")), Some(json!(1))] {
            let (field, text) = problem(parse_start(wrong.as_ref()).unwrap_err());
            assert_eq!(field, "receiver.delivery.start");
            assert_eq!(text, "must be \"beginning\" or \"now\"");
        }
    }

    #[test]
    fn on_failing_event_skips_only_where_the_kind_may() {
        let halt = json!("halt");
        let skip = json!("skip");
        for policies in [PolicySet::Copy, PolicySet::Call, PolicySet::Webhook] {
            assert_eq!(parse_on_failing_event(Some(&halt), policies), Ok(OnFailingEvent::Halt));
        }
        assert_eq!(
            parse_on_failing_event(Some(&skip), PolicySet::Call),
            Ok(OnFailingEvent::Skip)
        );
        assert_eq!(
            parse_on_failing_event(Some(&skip), PolicySet::Webhook),
            Ok(OnFailingEvent::Skip)
        );
        let (field, text) = problem(parse_on_failing_event(Some(&skip), PolicySet::Copy).unwrap_err());
        assert_eq!(field, "receiver.delivery.onFailingEvent");
        assert_eq!(text, "copy-to-stream can only \"halt\": an ordered copy never skips");
        let (field, text) = problem(parse_on_failing_event(None, PolicySet::Call).unwrap_err());
        assert_eq!(field, "receiver.delivery.onFailingEvent");
        assert_eq!(text, "must be \"halt\" or \"skip\"");
    }

    #[test]
    fn only_call_and_webhook_take_policies_and_only_webhook_a_timeout() {
        assert!(!PolicySet::Copy.allowed().contains(&"throttle"));
        assert!(PolicySet::Call.allowed().contains(&"gate"));
        assert!(!PolicySet::Call.allowed().contains(&"timeoutMs"));
        assert!(PolicySet::Webhook.allowed().contains(&"timeoutMs"));
    }

    #[test]
    fn optional_positive_is_none_when_absent_and_checked_when_present() {
        let fields = json!({"timeoutMs": 5, "journalDepth": 0});
        let fields = fields.as_object().unwrap();
        assert_eq!(optional_positive(fields, "absent", 10), Ok(None));
        assert_eq!(optional_positive(fields, "timeoutMs", 10), Ok(Some(5)));
        let (field, text) = problem(optional_positive(fields, "journalDepth", 10).unwrap_err());
        assert_eq!(field, "receiver.delivery.journalDepth");
        assert_eq!(text, "must be positive");
        let (_, text) = problem(optional_positive(fields, "timeoutMs", 4).unwrap_err());
        assert_eq!(text, "must be at most 4");
    }

    #[test]
    fn a_threshold_gate_excludes_aggregate_and_max_once_does_not() {
        let aggregate = Aggregate {
            window_ms: 1,
            max_batch: 1,
        };
        let threshold = Gate::Threshold { count: 2, window_ms: 1 };
        let max_once = Gate::MaxOnce { window_ms: 1 };
        assert!(check_gate_with_aggregate(Some(&threshold), None).is_ok());
        assert!(check_gate_with_aggregate(Some(&max_once), Some(&aggregate)).is_ok());
        assert!(check_gate_with_aggregate(None, Some(&aggregate)).is_ok());
        let (field, _) = problem(check_gate_with_aggregate(Some(&threshold), Some(&aggregate)).unwrap_err());
        assert_eq!(field, "receiver.delivery.gate");
    }
}
