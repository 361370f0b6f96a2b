//! Hosted processors natively (docs/design.md §9): definitions (validation,
//! versions), the instance's wake/fold, and the determinism property — for
//! random logs, filters, batch sizes, crashes at every step, failures and
//! redefinitions, the instance's state equals a plain fold of the matching
//! committed events from `initialState`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{inputs, FileStream, Rng};
use serde_json::{json, Value};
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::error::ApiFailure;
use tributary::event::Authority;
use tributary::jsonata;
use tributary::processor::{Definition, FoldError, FoldRequest, Instance, ProcessorStore, WakeRequest};
use tributary::storage::rusqlite_driver::RusqliteStorage;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const TOTALS: &str = "$merge([$state, {$event.payload.customer: ($lookup($state, $event.payload.customer) ? $lookup($state, $event.payload.customer) : 0) + $event.payload.amount}])";

fn store() -> ProcessorStore<RusqliteStorage> {
    ProcessorStore::open(RusqliteStorage::in_memory().unwrap()).unwrap()
}

fn define(store: &ProcessorStore<RusqliteStorage>, name: &str, reducer: &str) -> Definition {
    let body = json!({"kind": "jsonata-reducer", "initialState": {}, "reducer": reducer});
    store.put(name, body.to_string().as_bytes(), 1_000).unwrap().0
}

#[test]
fn s9_definitions_are_validated_when_written_with_the_field_named() {
    let store = store();
    for (body, status, field) in [
        (
            json!({"kind": "sql", "initialState": 0, "reducer": "$state"}),
            422,
            "kind",
        ),
        (
            json!({"kind": "jsonata-reducer", "reducer": "$state"}),
            422,
            "initialState",
        ),
        (json!({"kind": "jsonata-reducer", "initialState": 0}), 422, "reducer"),
        (
            json!({"kind": "jsonata-reducer", "initialState": 0, "reducer": "$state +"}),
            422,
            "reducer",
        ),
        (
            json!({"kind": "jsonata-reducer", "initialState": 0, "reducer": "$millis()"}),
            422,
            "reducer",
        ),
        (
            json!({"kind": "jsonata-reducer", "initialState": 0, "reducer": "$state", "extra": 1}),
            422,
            "body",
        ),
        (
            json!({"kind": "jsonata-reducer", "initialState": "x".repeat(300 * 1024), "reducer": "$state"}),
            422,
            "initialState",
        ),
    ] {
        let error = store.put("p", body.to_string().as_bytes(), 1).unwrap_err();
        assert_eq!(error.status(), status, "{body}");
        assert_eq!(error.details()["field"], field, "{body}: {error}");
    }
    assert_eq!(
        store.put("bad name", b"{}", 1).unwrap_err().code(),
        "invalid_processor_name"
    );
    assert_eq!(store.put("p", b"{nope", 1).unwrap_err().status(), 400);
    assert_eq!(store.count().unwrap(), 0, "nothing was written");
}

#[test]
fn s9_redefining_bumps_the_version_and_versions_survive_delete() {
    let store = store();
    assert_eq!(define(&store, "totals", TOTALS).version, 1);
    assert_eq!(
        define(&store, "totals", TOTALS).version,
        1,
        "an identical PUT changes nothing"
    );
    assert_eq!(define(&store, "totals", "$state").version, 2);
    store.delete("totals").unwrap();
    assert_eq!(store.get("totals").unwrap_err().status(), 404);
    assert_eq!(store.delete("totals").unwrap_err().status(), 404);
    assert_eq!(
        define(&store, "totals", TOTALS).version,
        3,
        "a name defined again continues its versions"
    );
    let listed = store.handle("GET", None, "", b"", 2_000);
    assert_eq!(listed.status, 200);
    assert!(listed.body.contains(r#""name":"totals""#), "{}", listed.body);
}

fn event(offset: u64, customer: &str, amount: i64) -> Value {
    json!({"offset": offset, "type": "order", "payload": {"customer": customer, "amount": amount}, "metadata": {}, "createdAt": "2026-01-01T00:00:00.000Z"})
}

#[test]
fn s9_an_instance_folds_after_its_checkpoint_all_or_nothing_and_resets_on_a_new_lifetime_or_version() {
    let store = store();
    let definition = define(&store, "totals", TOTALS);
    let mut instance = Instance::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    let wake = |definition: &Definition, stream_id: &str| WakeRequest {
        definition: definition.clone(),
        stream_id: stream_id.to_owned(),
    };
    assert_eq!(instance.wake(&wake(&definition, "s1")).unwrap().checkpoint_offset, 0);
    let fold = |events: Vec<Value>, through: u64| FoldRequest {
        version: 1,
        stream_id: "s1".to_owned(),
        events,
        scanned_through_offset: through,
    };
    let answer = instance
        .fold(&fold(vec![event(1, "a", 5), event(3, "b", 2)], 4))
        .unwrap();
    assert_eq!(
        answer.checkpoint_offset, 4,
        "the checkpoint passes filtered-out offsets too"
    );
    // A redelivered batch changes nothing; offsets at or below the checkpoint are ignored.
    instance
        .fold(&fold(vec![event(3, "b", 2), event(5, "a", 1)], 5))
        .unwrap();
    assert_eq!(instance.row().unwrap().state, json!({"a": 6, "b": 2}));
    // A reducer error names its offset and commits nothing of the batch.
    let error = instance
        .fold(&fold(
            vec![
                event(6, "a", 1),
                json!({"offset": 7, "payload": {"customer": "c", "amount": "x"}}),
            ],
            7,
        ))
        .unwrap_err();
    assert!(matches!(error, FoldError::Reducer { offset: 7, .. }), "{error}");
    assert_eq!(error.status(), 422);
    assert_eq!(instance.row().unwrap().checkpoint_offset, 5);
    // A fold for another version or lifetime is refused until woken.
    let stale = FoldRequest {
        version: 2,
        ..fold(vec![], 9)
    };
    assert_eq!(instance.fold(&stale).unwrap_err(), FoldError::NotWoken);
    assert_eq!(
        instance.wake(&wake(&definition, "s2")).unwrap().checkpoint_offset,
        0,
        "a recreated stream resets"
    );
    assert_eq!(instance.row().unwrap().state, json!({}));
}

#[test]
fn s9_state_over_256_kib_is_an_error_of_that_event() {
    let store = store();
    let definition = define(&store, "grow", "$state & $event.payload.fill");
    let definition = Definition {
        body: tributary::processor::DefinitionBody {
            initial_state: json!(""),
            ..definition.body
        },
        ..definition
    };
    let mut instance = Instance::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    instance
        .wake(&WakeRequest {
            definition,
            stream_id: "s".to_owned(),
        })
        .unwrap();
    let fill = "f".repeat(100 * 1024);
    let events = (1..=3)
        .map(|offset| json!({"offset": offset, "payload": {"fill": fill}}))
        .collect();
    let error = instance
        .fold(&FoldRequest {
            version: 1,
            stream_id: "s".to_owned(),
            events,
            scanned_through_offset: 3,
        })
        .unwrap_err();
    assert!(matches!(error, FoldError::StateTooLarge { offset: 3, .. }), "{error}");
}

/// What the stream's shell does for one processor-wake plan (§9), against
/// an instance reopened from its storage whenever the world "crashes".
fn deliver(instance: &mut Instance<RusqliteStorage>, definition: &Definition, plan: &DeliveryPlan) -> Outcome {
    let answer = instance
        .wake(&WakeRequest {
            definition: definition.clone(),
            stream_id: plan.stamp.stream_id.clone(),
        })
        .unwrap();
    if answer.checkpoint_offset != plan.after_offset {
        return Outcome::Checkpointed {
            through: answer.checkpoint_offset,
        };
    }
    let request = FoldRequest {
        version: definition.version,
        stream_id: plan.stamp.stream_id.clone(),
        events: plan.events.iter().map(|event| event.body.tree().into_owned()).collect(),
        scanned_through_offset: plan.through_offset,
    };
    match instance.fold(&request) {
        Ok(answer) => Outcome::Checkpointed {
            through: answer.checkpoint_offset,
        },
        Err(error) if error.status() == 422 => Outcome::permanent(error.to_string()),
        Err(error) => Outcome::transient(error.to_string()),
    }
}

fn processor_run(seed: u64) -> (Value, Value) {
    let mut rng = Rng(seed);
    let source = FileStream::new("/orders");
    let instance_dir = FileStream::new("/instance");
    let open_instance = || Instance::open(RusqliteStorage::open(&instance_dir.db()).unwrap()).unwrap();
    let mut stream = source.open();
    let mut instance = open_instance();
    let store = store();
    let mut definition = define(&store, "totals", TOTALS);
    let filtered = rng.below(2) == 0;
    let filter = if filtered {
        json!({"eventTypes": ["order"]})
    } else {
        json!(null)
    };
    let mut now = 10_000;
    let configure = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "p", "filter": filter,
        "receiver": {"action": "processor-wake", "expression": ["processors", "totals", "wake"]}}});
    stream
        .append_body(configure.to_string().as_bytes(), Authority::Public, &inputs(now, 1))
        .unwrap();
    let customers = ["a", "b", "c"];
    for _step in 0..120 {
        now += 1 + rng.below(50) as i64;
        match rng.below(10) {
            0..=3 => {
                let count = 1 + rng.below(5);
                let events: Vec<Value> = (0..count)
                    .map(|_| {
                        let kind = if filtered && rng.below(4) == 0 { "noise" } else { "order" };
                        json!({"type": kind, "payload": {"customer": customers[rng.below(3) as usize], "amount": rng.below(100)},
                            "ephemeral": rng.below(10) == 0})
                    })
                    .collect();
                stream
                    .append_body(
                        json!({"events": events}).to_string().as_bytes(),
                        Authority::Public,
                        &inputs(now, 2),
                    )
                    .unwrap();
            }
            4 => {
                stream = source.open();
            }
            5 => {
                instance = open_instance();
            }
            6 if rng.below(4) == 0 => {
                // Redefine: a new version refolds from offset 0 (§9).
                let reducer = if definition.body.reducer == TOTALS {
                    format!("({TOTALS})")
                } else {
                    TOTALS.to_owned()
                };
                definition = define(&store, "totals", &reducer);
            }
            _ => {
                for key in stream.due_subscriptions(now).unwrap() {
                    let entropy = [rng.below(256) as u8; 16];
                    let Some(plan) = stream.plan_delivery(&key, now, entropy).unwrap() else {
                        continue;
                    };
                    let outcome = match rng.below(6) {
                        0 => Outcome::transient("network"),
                        1 => {
                            // The instance commits, then the stream dies before the ack.
                            let _ = deliver(&mut instance, &definition, &plan);
                            stream = source.open();
                            continue;
                        }
                        _ => plan
                            .prepared_failure
                            .clone()
                            .unwrap_or_else(|| deliver(&mut instance, &definition, &plan)),
                    };
                    stream.complete_delivery(&plan, outcome, now, entropy).unwrap();
                }
            }
        }
    }
    // Drain: everything is eventually folded.
    for _ in 0..2_000 {
        now += 60_000;
        let due = stream.due_subscriptions(now).unwrap();
        if due.is_empty() {
            break;
        }
        for key in due {
            if let Some(plan) = stream.plan_delivery(&key, now, [7; 16]).unwrap() {
                let outcome = plan
                    .prepared_failure
                    .clone()
                    .unwrap_or_else(|| deliver(&mut instance, &definition, &plan));
                stream.complete_delivery(&plan, outcome, now, [7; 16]).unwrap();
            }
        }
    }
    assert!(
        stream.due_subscriptions(i64::MAX).unwrap().is_empty(),
        "seed {seed}: drained"
    );
    assert!(
        stream.state().subscriptions.outbound.by_key["p"]
            .delivery_halted
            .is_none(),
        "seed {seed}: no halt"
    );
    // The plain fold: matching committed durable events, in order, from initialState.
    let reducer = jsonata::compile(&definition.body.reducer).unwrap();
    let read = stream
        .read_range(&tributary::stream::RangeQuery {
            after: 0,
            from_earliest: false,
            limit: 1000,
            include_ephemeral: false,
        })
        .unwrap();
    let mut expected = definition.body.initial_state.clone();
    for event in read.events {
        let event = serde_json::to_value(&event).unwrap();
        let matches = !filtered || event["type"] == "order";
        let is_audit = event["type"] == "events.iterate.com/stream/error-occurred";
        if !matches || is_audit {
            continue;
        }
        let mut bindings = serde_json::Map::new();
        bindings.insert("state".to_owned(), expected.clone());
        bindings.insert("event".to_owned(), event.clone());
        expected = match reducer.evaluate_with_bindings(Some(&event), &bindings) {
            Ok(Some(next)) => next,
            // Control events have no customer: the reducer fails on them
            // unless the filter keeps them out; such a run halts (checked above).
            other => panic!("seed {seed}: plain fold failed on {event}: {other:?}"),
        };
    }
    assert_eq!(
        instance.row().unwrap().checkpoint_offset,
        stream.head(),
        "seed {seed}: the checkpoint passes filtered-out events at the end of the log too"
    );
    (instance.row().unwrap().state.clone(), expected)
}

#[test]
fn s9_the_instance_state_equals_a_plain_fold_whatever_the_batching_crashes_and_redefinitions() {
    let seeds: u64 = std::env::var("PROCESSOR_SEEDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64);
    for seed in 0..seeds {
        let (folded, expected) = processor_run(seed);
        assert_eq!(
            folded,
            expected,
            "seed {seed} (replay: PROCESSOR_SEEDS={} cargo test --test engine_processors)",
            seed + 1
        );
    }
}

#[test]
fn s16_a_refold_after_a_trim_says_which_offset_it_folded_from() {
    let store = store();
    let definition = define(&store, "totals", TOTALS);
    let file = std::env::temp_dir().join(format!("tributary-folded-from-{}.sqlite", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let mut instance = Instance::open(RusqliteStorage::open(&file).unwrap()).unwrap();
    let wake = |definition: &Definition| WakeRequest {
        definition: definition.clone(),
        stream_id: "s1".to_owned(),
    };
    instance.wake(&wake(&definition)).unwrap();
    assert_eq!(instance.row().unwrap().folded_from_offset, None, "nothing folded yet");
    let fold = |version: u64, events: Vec<Value>, through: u64| FoldRequest {
        version,
        stream_id: "s1".to_owned(),
        events,
        scanned_through_offset: through,
    };
    instance.fold(&fold(1, vec![event(1, "a", 5)], 1)).unwrap();
    assert_eq!(instance.row().unwrap().folded_from_offset, Some(1));
    // Redefined after the stream trimmed 1..=100: the reset refolds from 101.
    let redefined = Definition {
        version: definition.version + 1,
        ..definition.clone()
    };
    instance.wake(&wake(&redefined)).unwrap();
    assert_eq!(instance.row().unwrap().folded_from_offset, None, "a reset forgets it");
    instance
        .fold(&fold(
            redefined.version,
            vec![event(101, "a", 2), event(102, "b", 1)],
            102,
        ))
        .unwrap();
    let row = instance.row().unwrap();
    assert_eq!((row.folded_from_offset, row.checkpoint_offset), (Some(101), 102));
    drop(instance);
    let reopened = Instance::open(RusqliteStorage::open(&file).unwrap()).unwrap();
    assert_eq!(reopened.row().unwrap().folded_from_offset, Some(101), "persisted");
    let _ = std::fs::remove_file(&file);
}
