//! The stream's side of the processor wake protocol (docs/design.md §9), as
//! decisions: the shell reads the definition from the project object, posts
//! the wake, then the fold, and hands each answer here. The answers become
//! outcomes for the delivery spine:
//! - the instance's checkpoint decides replay: a wake answering another
//!   checkpoint than the batch starts at (reset, or ahead after a crash)
//!   ends the send with `Checkpointed` at that checkpoint, no fold;
//! - a fold answered 422 (the reducer failed) and an undefined processor are
//!   permanent: the subscription halts;
//! - anything else unexpected is transient, retried with backoff.

use super::{Definition, FoldAnswer, FoldRequest, InstanceRow, WakeAnswer, WakeRequest};
use crate::delivery::{DeliveryPlan, Outcome};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// An internal call's answer: `(status, body)`, or why it never arrived.
pub type Answer = Result<(u16, String), String>;

/// The error message of a JSON error body, else an excerpt of the body.
pub fn message_of(text: &str) -> String {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|value| {
            value
                .pointer("/error/message")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .unwrap_or_else(|| crate::text::excerpt(text))
}

fn parse<T: DeserializeOwned>(text: &str) -> Option<T> {
    serde_json::from_str(text).ok()
}

/// The project object's answer to a definition read: `Ok(None)` when the
/// project has no processor of that name.
pub fn definition_answer(answer: Answer) -> Result<Option<Definition>, String> {
    match answer {
        Ok((200, text)) => parse(&text).map(Some).ok_or_else(|| "definition unreadable".to_owned()),
        Ok((404, _)) => Ok(None),
        Ok((status, text)) => Err(format!("project object answered {status}: {}", message_of(&text))),
        Err(error) => Err(format!("project object unreachable: {error}")),
    }
}

/// Where one delivery to a processor stands after a step.
#[derive(Debug)]
pub enum WakeStep<T> {
    /// Post this request (a wake, then a fold) to the instance.
    Post(T),
    /// The send is over with this outcome.
    Done(Outcome),
}

/// The first step of delivering `plan` to the processor `name`, given the
/// project's definition read.
pub fn start(name: &str, plan: &DeliveryPlan, definition: Result<Option<Definition>, String>) -> WakeStep<WakeRequest> {
    match definition {
        Ok(Some(definition)) => WakeStep::Post(WakeRequest {
            definition,
            stream_id: plan.stamp.stream_id.clone(),
        }),
        Ok(None) => WakeStep::Done(Outcome::permanent(format!(
            "processor '{name}' is not defined; define it (PUT /v1/processors/{name}), then resume this subscription"
        ))),
        Err(error) => WakeStep::Done(Outcome::transient(error)),
    }
}

/// After the wake: fold the batch when the instance's checkpoint is where
/// the batch starts; otherwise its checkpoint decides.
pub fn after_wake(plan: &DeliveryPlan, version: u64, answer: Answer) -> WakeStep<FoldRequest> {
    let woke: WakeAnswer = match answer {
        Ok((200, text)) => match parse(&text) {
            Some(woke) => woke,
            None => return WakeStep::Done(Outcome::transient("processor wake answer unreadable")),
        },
        Ok((status, text)) => {
            return WakeStep::Done(Outcome::transient(format!(
                "processor wake answered {status}: {}",
                message_of(&text)
            )))
        }
        Err(error) => return WakeStep::Done(Outcome::transient(format!("processor wake failed: {error}"))),
    };
    if woke.checkpoint_offset != plan.after_offset {
        return WakeStep::Done(Outcome::Checkpointed {
            through: woke.checkpoint_offset,
        });
    }
    WakeStep::Post(FoldRequest {
        version,
        stream_id: plan.stamp.stream_id.clone(),
        events: plan.events.iter().map(|event| event.body.tree().into_owned()).collect(),
        scanned_through_offset: plan.through_offset,
    })
}

/// The fold's answer as the send's outcome.
pub fn after_fold(name: &str, answer: Answer) -> Outcome {
    match answer {
        Ok((200, text)) => match parse::<FoldAnswer>(&text) {
            Some(folded) => Outcome::Checkpointed {
                through: folded.checkpoint_offset,
            },
            None => Outcome::transient("processor fold answer unreadable"),
        },
        Ok((422, text)) => Outcome::permanent(format!("processor '{name}': {}", message_of(&text))),
        Ok((status, text)) => Outcome::transient(format!("processor fold answered {status}: {}", message_of(&text))),
        Err(error) => Outcome::transient(format!("processor fold failed: {error}")),
    }
}

/// `GET /v1/streams/{path}/-/processors/{name}` (§9): an instance not yet
/// woken for this stream's lifetime and the current definition shows the
/// reset it will make on its next wake, `initialState` at checkpoint 0.
pub fn state_view(name: &str, definition: &Definition, instance: &str, stream_id: &str, head: u64) -> Value {
    let row: Option<InstanceRow> = parse::<Option<InstanceRow>>(instance).flatten();
    let current = row
        .as_ref()
        .filter(|row| row.stream_id == stream_id && row.version == definition.version);
    let (checkpoint, state, folded_from) = match current {
        Some(row) => (row.checkpoint_offset, row.state.clone(), row.folded_from_offset),
        None => (0, definition.body.initial_state.clone(), None),
    };
    // §16: the first event the state folded since its reset (after a trim,
    // the stream's first retained event or later; null before any fold).
    json!({
        "name": name, "version": definition.version, "streamId": stream_id,
        "checkpointOffset": checkpoint, "lag": head.saturating_sub(checkpoint), "state": state,
        "foldedFromOffset": folded_from,
    })
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::copy::Stamp;
    use crate::delivery::{FailureKind, PlannedEvent};
    use crate::subscription::Receiver;

    fn plan(after: u64, through: u64) -> DeliveryPlan {
        DeliveryPlan {
            subscription_key: "p".to_owned(),
            receiver: Receiver::ProcessorWake {
                expression: json!(["processors", "p", "wake"]),
            },
            stamp: Stamp {
                source_project_id: "proj".to_owned(),
                source_path: "/s".to_owned(),
                subscription_key: "p".to_owned(),
                stream_id: "s1".to_owned(),
                stream_created_at: "2026-01-01T00:00:00.000Z".to_owned(),
                cursor_changed_at_source_offset: 1,
            },
            after_offset: after,
            through_offset: through,
            attempt: 1,
            lease: 1,
            delivery_id: "d".to_owned(),
            started_at_ms: 0,
            events: vec![PlannedEvent {
                offset: through,
                created_at_ms: 0,
                body: json!({"type": "a"}).into(),
            }],
            prepared_failure: None,
            throttled: false,
            timeout_ms: 1_000,
            retraction: None,
        }
    }

    fn definition() -> Definition {
        Definition {
            name: "p".to_owned(),
            version: 7,
            body: crate::processor::DefinitionBody {
                kind: "jsonata".to_owned(),
                initial_state: json!({"n": 0}),
                reducer: "$state".to_owned(),
                description: None,
            },
            defined_at: "2026-01-01T00:00:00.000Z".to_owned(),
        }
    }

    fn kind(outcome: &Outcome) -> Option<FailureKind> {
        match outcome {
            Outcome::Failed { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    #[test]
    fn an_undefined_processor_is_permanent_and_an_unreachable_project_transient() {
        let plan = plan(0, 1);
        let WakeStep::Done(undefined) = start("p", &plan, definition_answer(Ok((404, String::new())))) else {
            panic!("an undefined processor ends the send");
        };
        assert_eq!(kind(&undefined), Some(FailureKind::Permanent));
        let WakeStep::Done(down) = start("p", &plan, definition_answer(Err("reset".to_owned()))) else {
            panic!("an unreachable project ends the send");
        };
        assert_eq!(kind(&down), Some(FailureKind::Transient));
        let body = serde_json::to_string(&definition()).unwrap_or_default();
        assert!(matches!(
            start("p", &plan, definition_answer(Ok((200, body)))),
            WakeStep::Post(_)
        ));
    }

    #[test]
    fn the_instance_checkpoint_decides_when_it_differs_from_the_batch_start() {
        let plan = plan(4, 6);
        let elsewhere = after_wake(
            &plan,
            7,
            Ok((200, r#"{"streamId":"s1","checkpointOffset":0,"version":7}"#.to_owned())),
        );
        assert!(matches!(
            elsewhere,
            WakeStep::Done(Outcome::Checkpointed { through: 0 })
        ));
        let here = after_wake(
            &plan,
            7,
            Ok((200, r#"{"streamId":"s1","checkpointOffset":4,"version":7}"#.to_owned())),
        );
        let WakeStep::Post(fold) = here else {
            panic!("a wake at the batch start folds it");
        };
        assert_eq!(
            (fold.version, fold.scanned_through_offset, fold.events.len()),
            (7, 6, 1)
        );
        let garbled = after_wake(&plan, 7, Ok((200, "not json".to_owned())));
        assert!(matches!(garbled, WakeStep::Done(ref outcome) if kind(outcome) == Some(FailureKind::Transient)));
    }

    #[test]
    fn a_fold_refused_with_422_is_permanent_any_other_failure_transient() {
        let refused = after_fold("p", Ok((422, r#"{"error":{"message":"reducer failed"}}"#.to_owned())));
        assert_eq!(kind(&refused), Some(FailureKind::Permanent));
        assert!(matches!(&refused, Outcome::Failed { message, .. } if message.contains("reducer failed")));
        assert_eq!(
            kind(&after_fold("p", Ok((503, String::new())))),
            Some(FailureKind::Transient)
        );
        assert_eq!(
            kind(&after_fold("p", Err("hung".to_owned()))),
            Some(FailureKind::Transient)
        );
        let folded = after_fold("p", Ok((200, r#"{"checkpointOffset":9}"#.to_owned())));
        assert_eq!(folded, Outcome::Checkpointed { through: 9 });
    }

    #[test]
    fn the_state_view_shows_the_reset_an_instance_of_another_lifetime_will_make() {
        let definition = definition();
        let other = r#"{"version":7,"reducer":"$state","streamId":"old","checkpointOffset":5,"state":{"n":5}}"#;
        let view = state_view("p", &definition, other, "s1", 9);
        assert_eq!(
            (view["checkpointOffset"].clone(), view["lag"].clone()),
            (json!(0), json!(9))
        );
        assert_eq!(view["state"], json!({"n": 0}));
        let current = r#"{"version":7,"reducer":"$state","streamId":"s1","checkpointOffset":5,"state":{"n":5}}"#;
        let view = state_view("p", &definition, current, "s1", 9);
        assert_eq!(
            (view["checkpointOffset"].clone(), view["lag"].clone()),
            (json!(5), json!(4))
        );
    }
}
