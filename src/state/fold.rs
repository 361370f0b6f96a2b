//! The fold itself: how each control event changes the reduced state (§4, §5).
//! Every rule that can refuse an append lives here, so the same checks run
//! when appending and when replaying.

use super::outbound::{CursorSet, DeliveryHalted, OutboundSubscription, StoredConfiguration};
use super::ReducedState;
use crate::error::{details, ApiFailure, ErrorCode};
use crate::event::{ControlType, StoredEvent, TypeKind};
use crate::limits::{MAX_STREAM_SUBSCRIPTIONS, MAX_SUBSCRIPTIONS_PER_RECEIVER};
use crate::subscription::{ConfigError, Configuration, Receiver, GENERATED_KEY_PREFIX};
use crate::time::rfc3339_millis;
use serde_json::{json, Map, Value};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReduceError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("'{field}' {problem}")]
    Payload { field: &'static str, problem: &'static str },
    #[error("no subscription with key '{0}'")]
    UnknownSubscription(String),
    #[error("afterOffset {after_offset} is beyond the head ({head})")]
    CursorBeyondHead { after_offset: u64, head: u64 },
    #[error("subscription '{0}' is not halted; there is nothing to resume")]
    NotHalted(String),
    #[error("a source stream may have at most {MAX_SUBSCRIPTIONS_PER_RECEIVER} subscriptions to one receiver")]
    TooManySubscriptions,
    #[error("a stream may have at most {MAX_STREAM_SUBSCRIPTIONS} durable subscriptions in all; remove one first")]
    TooManyStreamSubscriptions,
    #[error("processor '{processor}' already runs on this stream as subscription '{key}' (one processor-wake subscription per stream and processor); replace or remove '{key}' instead")]
    ProcessorAlreadySubscribed { processor: String, key: String },
    #[error("the reduced state would be {0} bytes; the limit is {max}", max = crate::limits::MAX_REDUCED_STATE_BYTES)]
    StateTooLarge(usize),
    #[error(transparent)]
    Retention(#[from] crate::retention::RetentionError),
    #[error("this stream already keeps {0} inbound fence records, one per (sourcePath, subscriptionKey) it received copies from; it takes copies from at most {max} (a copy from a new pair is refused)", max = crate::limits::MAX_INBOUND_FENCE_RECORDS)]
    InboundFenceFull(u64),
}

impl ApiFailure for ReduceError {
    fn error_code(&self) -> ErrorCode {
        match self {
            ReduceError::Config(error) => error.error_code(),
            ReduceError::Payload { .. } | ReduceError::Retention(_) => ErrorCode::InvalidControlEvent,
            ReduceError::UnknownSubscription(_) => ErrorCode::UnknownSubscription,
            ReduceError::CursorBeyondHead { .. } => ErrorCode::CursorBeyondHead,
            ReduceError::NotHalted(_) => ErrorCode::SubscriptionNotHalted,
            ReduceError::TooManySubscriptions => ErrorCode::TooManySubscriptions,
            ReduceError::TooManyStreamSubscriptions => ErrorCode::TooManyStreamSubscriptions,
            ReduceError::ProcessorAlreadySubscribed { .. } => ErrorCode::ProcessorAlreadySubscribed,
            ReduceError::StateTooLarge(_) => ErrorCode::ReducedStateTooLarge,
            ReduceError::InboundFenceFull(_) => ErrorCode::InboundFenceFull,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            ReduceError::Config(error) => error.details(),
            ReduceError::Payload { field, .. } => details([("field", json!(field))]),
            ReduceError::Retention(error) => details([("field", json!(error.field))]),
            ReduceError::UnknownSubscription(key) | ReduceError::NotHalted(key) => {
                details([("subscriptionKey", json!(key))])
            }
            ReduceError::ProcessorAlreadySubscribed { processor, key } => {
                details([("processor", json!(processor)), ("subscriptionKey", json!(key))])
            }
            ReduceError::TooManyStreamSubscriptions => details([("limit", json!(MAX_STREAM_SUBSCRIPTIONS))]),
            ReduceError::InboundFenceFull(records) => details([
                ("records", json!(records)),
                ("limit", json!(crate::limits::MAX_INBOUND_FENCE_RECORDS)),
            ]),
            _ => Map::new(),
        }
    }
}

/// The code of a second processor-wake subscription of one processor on one
/// stream (§9); also what the card of such a stored one says.
pub const PROCESSOR_ALREADY_SUBSCRIBED: &str = "processor_already_subscribed";

/// The processor a configuration wakes, if it is a processor-wake.
fn processor_of(configuration: &Configuration) -> Option<&str> {
    match &configuration.receiver {
        Receiver::ProcessorWake { expression } => crate::processor::name_of(expression),
        _ => None,
    }
}

/// Another key whose valid configuration wakes `processor` on this stream.
fn processor_holder<'a>(
    by_key: &'a std::collections::BTreeMap<String, OutboundSubscription>,
    processor: &str,
    key: &str,
) -> Option<&'a String> {
    by_key
        .iter()
        .find(|(other_key, other)| {
            other_key.as_str() != key
                && other
                    .configuration
                    .valid()
                    .and_then(processor_of)
                    .is_some_and(|other| other == processor)
        })
        .map(|(other_key, _)| other_key)
}

fn payload_of(event: &StoredEvent) -> Value {
    serde_json::from_str(event.payload.get()).unwrap_or(Value::Null)
}

fn required_key(payload: &Value) -> Result<String, ReduceError> {
    payload
        .get("subscriptionKey")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or(ReduceError::Payload {
            field: "subscriptionKey",
            problem: "is required and must be a string",
        })
}

fn required_offset(payload: &Value, field: &'static str) -> Result<u64, ReduceError> {
    payload.get(field).and_then(Value::as_u64).ok_or(ReduceError::Payload {
        field,
        problem: "is required and must be a non-negative integer",
    })
}

fn only_fields(payload: &Value, allowed: &[&str]) -> Result<(), ReduceError> {
    let fields = payload.as_object().ok_or(ReduceError::Payload {
        field: "payload",
        problem: "must be an object",
    })?;
    if fields.keys().any(|name| !allowed.contains(&name.as_str())) {
        return Err(ReduceError::Payload {
            field: "payload",
            problem: "has a field this control event does not take",
        });
    }
    Ok(())
}

/// The outbound subscriptions of a reduced state, by key (§5).
type ByKey = std::collections::BTreeMap<String, OutboundSubscription>;

/// `subscription-removed`: the key must name a subscription; the only
/// reason an append may give is "requested".
fn remove(by_key: &mut ByKey, payload: &Value) -> Result<(), ReduceError> {
    only_fields(payload, &["subscriptionKey", "reason"])?;
    if payload.get("reason").is_some_and(|reason| reason != "requested") {
        return Err(ReduceError::Payload {
            field: "reason",
            problem: "must be \"requested\"",
        });
    }
    let key = required_key(payload)?;
    by_key
        .remove(&key)
        .map(|_| ())
        .ok_or(ReduceError::UnknownSubscription(key))
}

/// `subscription-cursor-set` at `offset` (§7): a new generation starting
/// after `afterOffset`, which is at most the head before it; it clears a halt.
fn set_cursor(by_key: &mut ByKey, payload: &Value, offset: u64) -> Result<(), ReduceError> {
    only_fields(payload, &["subscriptionKey", "afterOffset"])?;
    let key = required_key(payload)?;
    let after_offset = required_offset(payload, "afterOffset")?;
    let head = offset.saturating_sub(1);
    let entry = by_key.get_mut(&key).ok_or(ReduceError::UnknownSubscription(key))?;
    if after_offset > head {
        return Err(ReduceError::CursorBeyondHead { after_offset, head });
    }
    entry.cursor_set = Some(CursorSet {
        after_offset,
        cursor_changed_at_source_offset: offset,
    });
    entry.delivery_halted = None;
    Ok(())
}

/// `subscription-delivery-resumed`: only a halted subscription resumes.
fn resume(by_key: &mut ByKey, payload: &Value) -> Result<(), ReduceError> {
    only_fields(payload, &["subscriptionKey"])?;
    let key = required_key(payload)?;
    let entry = by_key
        .get_mut(&key)
        .ok_or_else(|| ReduceError::UnknownSubscription(key.clone()))?;
    entry
        .delivery_halted
        .take()
        .map(|_| ())
        .ok_or(ReduceError::NotHalted(key))
}

/// `subscription-delivery-halted`: the durable fact that delivery stopped.
fn halt(by_key: &mut ByKey, payload: &Value) -> Result<(), ReduceError> {
    let (key, halted) = delivery_halted(payload)?;
    let entry = by_key.get_mut(&key).ok_or(ReduceError::UnknownSubscription(key))?;
    entry.delivery_halted = Some(halted);
    Ok(())
}

/// The key and the halt a `subscription-delivery-halted` payload carries;
/// a halt without a reason is a "delivery-failed".
fn delivery_halted(payload: &Value) -> Result<(String, DeliveryHalted), ReduceError> {
    only_fields(
        payload,
        &["subscriptionKey", "reason", "afterOffset", "attempts", "error"],
    )?;
    let key = required_key(payload)?;
    let halted = DeliveryHalted {
        reason: payload
            .get("reason")
            .and_then(Value::as_str)
            .unwrap_or("delivery-failed")
            .to_owned(),
        after_offset: required_offset(payload, "afterOffset")?,
        attempts: required_offset(payload, "attempts")?,
        error: payload.get("error").and_then(Value::as_str).map(str::to_owned),
    };
    Ok((key, halted))
}

impl ReducedState {
    /// Why a stored configuration kept as written (`Unreadable`) refuses to
    /// run, when it is a processor-wake whose processor another key of this
    /// stream holds (§9); `None` for any other unreadable configuration.
    pub fn processor_conflict(&self, key: &str, raw: &Value) -> Option<String> {
        let configuration = Configuration::parse(raw).ok()?;
        let processor = processor_of(&configuration)?;
        let by_key = &self.subscriptions.outbound.by_key;
        let holder = processor_holder(by_key, processor, key)
            .map_or_else(|| "another key".to_owned(), |holder| format!("subscription '{holder}'"));
        Some(format!(
            "{PROCESSOR_ALREADY_SUBSCRIBED}: processor '{processor}' is already run on this stream by {holder} \
             (one processor-wake subscription per stream and processor); this one was configured before that \
             rule and refuses to run so it cannot share the checkpoint: remove it, or remove the other and \
             configure it again"
        ))
    }

    /// Folds one committed event. Ordinary events and copies (whose control
    /// events are data on this stream, §4) leave the document unchanged: a
    /// copy's fence record is the table's part of the fold ([`super::inbound`]).
    pub fn apply(&mut self, event: &StoredEvent) -> Result<(), ReduceError> {
        self.fold(event, Mode::Commit)
    }

    /// Folds one event that is already committed (a rebuild). A
    /// configuration that no longer validates is kept as it was written,
    /// marked invalid, instead of vanishing (§8); other refusals leave the
    /// state unchanged, as they did when the event was first folded.
    pub fn replay(&mut self, event: &StoredEvent) -> Result<(), ReduceError> {
        self.fold(event, Mode::Replay)
    }

    fn fold(&mut self, event: &StoredEvent, mode: Mode) -> Result<(), ReduceError> {
        if event.source.is_some() {
            return Ok(());
        }
        let TypeKind::Control(control) = ControlType::classify(&event.event_type) else {
            return Ok(());
        };
        let payload = payload_of(event);
        let by_key = &mut self.subscriptions.outbound.by_key;
        match control {
            ControlType::SubscriptionConfigured => self.configure(event, &payload, mode),
            ControlType::SubscriptionRemoved => remove(by_key, &payload),
            ControlType::SubscriptionCursorSet => set_cursor(by_key, &payload, event.offset),
            ControlType::SubscriptionDeliveryResumed => resume(by_key, &payload),
            ControlType::SubscriptionDeliveryHalted => halt(by_key, &payload),
            ControlType::ErrorOccurred => Ok(()),
            ControlType::EventsInvalidated => {
                crate::invalidation::Invalidation::parse(&payload, event.offset).map(|_| ())
            }
            ControlType::RetentionConfigured => {
                let retention = crate::retention::Retention::parse(&payload)?;
                self.retention = retention.limits_anything().then_some(retention);
                Ok(())
            }
            ControlType::StreamClosed => super::lifecycle::fold_closed(&mut self.closed, &payload, event.offset),
            ControlType::ExpiryConfigured => {
                self.expiry = super::lifecycle::parse_expiry(&payload)?;
                Ok(())
            }
        }
    }

    fn configure(&mut self, event: &StoredEvent, payload: &Value, mode: Mode) -> Result<(), ReduceError> {
        let configuration = match (Configuration::parse(payload), mode) {
            (Ok(configuration), _) => StoredConfiguration::Valid(configuration),
            (Err(error), Mode::Commit) => return Err(error.into()),
            (Err(_), Mode::Replay) => StoredConfiguration::Unreadable(payload.clone()),
        };
        let caller_key = match &configuration {
            StoredConfiguration::Valid(configuration) => configuration.subscription_key.clone(),
            StoredConfiguration::Unreadable(raw) => {
                raw.get("subscriptionKey").and_then(Value::as_str).map(str::to_owned)
            }
        };
        let (key, generated) = match caller_key {
            Some(key) => (key, None),
            None => (format!("{GENERATED_KEY_PREFIX}{}", event.offset), Some(true)),
        };
        let by_key = &mut self.subscriptions.outbound.by_key;
        // One processor-wake subscription per (stream, processor) (§9): the
        // instance's checkpoint is per stream, so a second key would share it.
        // Committing, a second is refused; replaying a log written before the
        // rule, the later one is kept as written, marked invalid (it refuses
        // to run and the card says why), and the first keeps the processor.
        let holder = configuration.valid().and_then(processor_of).and_then(|processor| {
            processor_holder(by_key, processor, &key).map(|holder| (processor.to_owned(), holder.clone()))
        });
        let configuration = match (holder, mode) {
            (None, _) => configuration,
            (Some((processor, holder)), Mode::Commit) => {
                return Err(ReduceError::ProcessorAlreadySubscribed { processor, key: holder })
            }
            (Some(_), Mode::Replay) => StoredConfiguration::Unreadable(payload.clone()),
        };
        if mode == Mode::Commit && !by_key.contains_key(&key) && by_key.len() >= MAX_STREAM_SUBSCRIPTIONS {
            return Err(ReduceError::TooManyStreamSubscriptions);
        }
        if let (StoredConfiguration::Valid(configuration), Mode::Commit) = (&configuration, mode) {
            let receiver = configuration.receiver.identity();
            let same_receiver = by_key
                .iter()
                .filter(|(other_key, other)| {
                    **other_key != key
                        && other
                            .configuration
                            .valid()
                            .is_some_and(|other| other.receiver.identity() == receiver)
                })
                .count();
            if same_receiver >= MAX_SUBSCRIPTIONS_PER_RECEIVER {
                return Err(ReduceError::TooManySubscriptions);
            }
        }
        by_key.insert(
            key,
            OutboundSubscription {
                configuration,
                configured_at_offset: event.offset,
                configured_at: rfc3339_millis(event.created_at_ms),
                subscription_key_was_generated: generated,
                cursor_set: None,
                delivery_halted: None,
            },
        );
        Ok(())
    }
}

/// Whether an event is being committed (every rule refuses) or replayed
/// from the log (what was committed stays).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Commit,
    Replay,
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn one(key: &str, halted: bool) -> ByKey {
        let subscription = OutboundSubscription {
            configuration: StoredConfiguration::Unreadable(Value::Null),
            configured_at_offset: 1,
            configured_at: String::new(),
            subscription_key_was_generated: None,
            cursor_set: None,
            delivery_halted: halted.then(|| DeliveryHalted {
                reason: "delivery-failed".to_owned(),
                after_offset: 0,
                attempts: 1,
                error: None,
            }),
        };
        std::iter::once((key.to_owned(), subscription)).collect()
    }

    #[test]
    fn remove_takes_only_requested_and_a_known_key() {
        let mut by_key = one("a", false);
        let wrong = remove(&mut by_key, &json!({"subscriptionKey": "a", "reason": "other"}));
        assert_eq!(
            wrong,
            Err(ReduceError::Payload {
                field: "reason",
                problem: "must be \"requested\""
            })
        );
        let unknown = remove(&mut by_key, &json!({"subscriptionKey": "b"}));
        assert_eq!(unknown, Err(ReduceError::UnknownSubscription("b".to_owned())));
        assert_eq!(
            remove(&mut by_key, &json!({"subscriptionKey": "a", "reason": "requested"})),
            Ok(())
        );
        assert!(by_key.is_empty());
    }

    #[test]
    fn set_cursor_names_an_unknown_key_before_a_cursor_beyond_the_head() {
        let mut by_key = one("a", true);
        let unknown = set_cursor(&mut by_key, &json!({"subscriptionKey": "b", "afterOffset": 9}), 5);
        assert_eq!(unknown, Err(ReduceError::UnknownSubscription("b".to_owned())));
        let beyond = set_cursor(&mut by_key, &json!({"subscriptionKey": "a", "afterOffset": 5}), 5);
        assert_eq!(
            beyond,
            Err(ReduceError::CursorBeyondHead {
                after_offset: 5,
                head: 4
            })
        );
        assert_eq!(
            set_cursor(&mut by_key, &json!({"subscriptionKey": "a", "afterOffset": 4}), 5),
            Ok(())
        );
        let entry = &by_key["a"];
        assert_eq!(
            entry.cursor_set,
            Some(CursorSet {
                after_offset: 4,
                cursor_changed_at_source_offset: 5
            })
        );
        assert_eq!(entry.delivery_halted, None);
    }

    #[test]
    fn resume_only_a_halted_subscription() {
        let mut by_key = one("a", true);
        let payload = json!({"subscriptionKey": "a"});
        assert_eq!(resume(&mut by_key, &payload), Ok(()));
        assert_eq!(
            resume(&mut by_key, &payload),
            Err(ReduceError::NotHalted("a".to_owned()))
        );
        let extra = resume(&mut by_key, &json!({"subscriptionKey": "a", "reason": "x"}));
        assert!(matches!(extra, Err(ReduceError::Payload { field: "payload", .. })));
    }

    #[test]
    fn a_halt_without_a_reason_is_delivery_failed() {
        let (key, halted) = delivery_halted(&json!({"subscriptionKey": "a", "afterOffset": 3, "attempts": 2})).unwrap();
        assert_eq!(key, "a");
        assert_eq!(halted.reason, "delivery-failed");
        assert_eq!((halted.after_offset, halted.attempts, halted.error), (3, 2, None));
        let missing = delivery_halted(&json!({"subscriptionKey": "a", "afterOffset": 3}));
        assert!(matches!(missing, Err(ReduceError::Payload { field: "attempts", .. })));
        let mut by_key = one("a", false);
        halt(
            &mut by_key,
            &json!({"subscriptionKey": "a", "afterOffset": 3, "attempts": 2}),
        )
        .unwrap();
        assert!(by_key["a"].delivery_halted.is_some());
    }
}
