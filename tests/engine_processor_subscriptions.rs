//! Processor-wake subscriptions on one stream (docs/design.md §9, §12): one per
//! (stream, processor) — a second key naming the same processor is 409
//! `processor_already_subscribed`, in a single or a batch append, and
//! changes nothing; a log written before that rule keeps the first and
//! refuses to run the later (visible on the card), so no checkpoint is
//! shared. Also the per-stream total of subscriptions (§12).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{append, inputs, FileStream};
use serde_json::{json, Value};
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::error::ApiFailure;
use tributary::event::Authority;
use tributary::limits::{MAX_STREAM_SUBSCRIPTIONS, MAX_SUBSCRIPTIONS_PER_RECEIVER};
use tributary::processor::{Definition, FoldRequest, Instance, ProcessorStore, WakeRequest};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::storage::Storage;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const REMOVED: &str = "events.iterate.com/stream/subscription-removed";
/// Counts events by type: `{a: n, b: m}`.
const COUNT_TYPES: &str = "$merge([$state, {$event.type: $lookup($state, $event.type) + 1}])";

fn configure(key: &str, processor: &str, types: &[&str]) -> Value {
    json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "filter": {"eventTypes": types},
        "receiver": {"action": "processor-wake", "expression": ["processors", processor, "wake"]}}})
}

fn define(name: &str) -> Definition {
    let store = ProcessorStore::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    let body = json!({"kind": "jsonata-reducer", "initialState": {"a": 0, "b": 0}, "reducer": COUNT_TYPES});
    store.put(name, body.to_string().as_bytes(), 1_000).unwrap().0
}

/// What the stream's shell does for one processor-wake plan (§9).
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

fn ten_of_each(stream: &mut tributary::stream::Stream<RusqliteStorage>) {
    let events: Vec<Value> = (0..10)
        .flat_map(|_| [json!({"type": "a", "payload": {}}), json!({"type": "b", "payload": {}})])
        .collect();
    assert_eq!(append(stream, json!({ "events": events }), 3_000).0, 201);
}

/// Drives every due subscription until none is due; every processor-wake
/// plan goes to the one instance of `(stream, processor)`.
fn drain(
    stream: &mut tributary::stream::Stream<RusqliteStorage>,
    instance: &mut Instance<RusqliteStorage>,
    definition: &Definition,
) {
    let mut now = 10_000;
    for _ in 0..100 {
        now += 60_000;
        let due = stream.due_subscriptions(now).unwrap();
        if due.is_empty() {
            return;
        }
        for key in due {
            if let Some(plan) = stream.plan_delivery(&key, now, [3; 16]).unwrap() {
                let outcome = plan
                    .prepared_failure
                    .clone()
                    .unwrap_or_else(|| deliver(instance, definition, &plan));
                stream.complete_delivery(&plan, outcome, now, [3; 16]).unwrap();
            }
        }
    }
    panic!("not drained");
}

#[test]
fn s9_a_second_processor_wake_key_for_the_same_processor_on_a_stream_is_409_and_changes_nothing() {
    let source = FileStream::new("/counts");
    let mut stream = source.open();
    assert_eq!(append(&mut stream, configure("p1", "counts", &["a"]), 1_000).0, 201);
    // The reproduction of issue 18 item 7: p2 (types b) naming the same processor.
    let (status, body) = append(&mut stream, configure("p2", "counts", &["b"]), 2_000);
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "processor_already_subscribed", "{body}");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("p1"),
        "the message names the key that runs it: {body}"
    );
    assert_eq!(stream.head(), 1, "nothing was appended");
    assert!(!stream.state().subscriptions.outbound.by_key.contains_key("p2"));
    // Replacing the same key is allowed; another processor is another instance.
    assert_eq!(
        append(&mut stream, configure("p1", "counts", &["a", "b"]), 2_100).0,
        201
    );
    assert_eq!(append(&mut stream, configure("q", "other", &["b"]), 2_200).0, 201);
    // A batch that configures two at once is refused whole.
    let head = stream.head();
    let batch = json!({"events": [configure("r1", "third", &["a"]), configure("r2", "third", &["b"])]});
    let (status, body) = append(&mut stream, batch, 2_300);
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "processor_already_subscribed", "{body}");
    assert_eq!(stream.head(), head, "nothing of the batch was appended");
    // After removing the first, another key may take the processor.
    let removed = json!({"type": REMOVED, "payload": {"subscriptionKey": "q"}});
    assert_eq!(append(&mut stream, removed, 2_400).0, 201);
    assert_eq!(append(&mut stream, configure("q2", "other", &["b"]), 2_500).0, 201);
    // The check runs before commit and survives a restart.
    let mut stream = source.open();
    assert_eq!(append(&mut stream, configure("p3", "counts", &["b"]), 2_600).0, 409);
}

#[test]
fn s9_with_the_second_subscription_refused_the_state_is_the_fold_of_its_own_filter() {
    let source = FileStream::new("/counts");
    let mut stream = source.open();
    let definition = define("counts");
    let mut instance = Instance::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    assert_eq!(append(&mut stream, configure("p1", "counts", &["a"]), 1_000).0, 201);
    assert_eq!(append(&mut stream, configure("p2", "counts", &["b"]), 1_100).0, 409);
    ten_of_each(&mut stream);
    drain(&mut stream, &mut instance, &definition);
    assert_eq!(instance.row().unwrap().state, json!({"a": 10, "b": 0}));
    assert_eq!(instance.row().unwrap().checkpoint_offset, stream.head());
}

/// A log written before the rule (two keys, one processor): rebuilt, the
/// first keeps the processor; the later is kept as written, marked invalid
/// on the card and never planned, so it cannot move the shared checkpoint.
#[test]
fn s9_a_restored_log_with_two_subscriptions_of_one_processor_runs_only_the_first() {
    let source = FileStream::new("/counts");
    let mut stream = source.open();
    let definition = define("counts");
    let mut instance = Instance::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    assert_eq!(append(&mut stream, configure("p1", "counts", &["a"]), 1_000).0, 201);
    assert_eq!(append(&mut stream, configure("p2", "elsewhere", &["b"]), 1_100).0, 201);
    ten_of_each(&mut stream);
    drop(stream);
    // What the engine before the fix would have committed: p2 names "counts" too,
    // and the cached state is of the older fold version.
    let storage = RusqliteStorage::open(&source.db()).unwrap();
    let restored = configure("p2", "counts", &["b"])["payload"].to_string();
    storage
        .execute(
            "UPDATE events SET payload = ? WHERE event_offset = 2",
            &[restored.as_str().into()],
        )
        .unwrap();
    storage
        .execute("UPDATE reduced_state SET version = version - 1", &[])
        .unwrap();
    drop(storage);
    let mut stream = source.open();
    let card = stream.subscriptions_card().unwrap();
    let cards = card["subscriptions"].as_array().unwrap();
    let p2 = cards.iter().find(|card| card["subscriptionKey"] == "p2").unwrap();
    let problem = p2["invalid"].as_str().unwrap_or_default();
    assert!(
        problem.contains("processor_already_subscribed") && problem.contains("p1"),
        "the card says why p2 refuses to run: {p2}"
    );
    assert_eq!(
        p2["configuration"]["receiver"]["expression"],
        json!(["processors", "counts", "wake"]),
        "the later configuration is kept as written"
    );
    let p1 = cards.iter().find(|card| card["subscriptionKey"] == "p1").unwrap();
    assert!(p1.get("invalid").is_none(), "{p1}");
    drain(&mut stream, &mut instance, &definition);
    assert_eq!(
        instance.row().unwrap().state,
        json!({"a": 10, "b": 0}),
        "the state is the fold of p1's filter only"
    );
    assert!(
        stream.due_subscriptions(i64::MAX).unwrap().is_empty(),
        "p2 is never due"
    );
    // Replacing the refused key is still refused while p1 holds the processor.
    assert_eq!(append(&mut stream, configure("p2", "counts", &["b"]), 9_000).0, 409);
    // Once p1 is removed, p2 may be configured again.
    let removed = json!({"type": REMOVED, "payload": {"subscriptionKey": "p1"}});
    assert_eq!(append(&mut stream, removed, 9_100).0, 201);
    assert_eq!(append(&mut stream, configure("p2", "counts", &["b"]), 9_200).0, 201);
}

fn webhook(key: &str, url: &str) -> Value {
    json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "receiver": {"action": "webhook-post",
        "url": url, "delivery": {"start": "now", "onFailingEvent": "skip"}}}})
}

#[test]
fn s12_a_stream_holds_at_most_128_subscriptions_in_all_checked_before_commit() {
    let mut stream = common::memory_stream("/many");
    // Fill with batches over distinct receivers (each under the per-receiver 64).
    let per_receiver = MAX_SUBSCRIPTIONS_PER_RECEIVER;
    let events: Vec<Value> = (0..MAX_STREAM_SUBSCRIPTIONS)
        .map(|n| {
            webhook(
                &format!("w{n}"),
                &format!("https://r{}.example.com/hook", n / per_receiver),
            )
        })
        .collect();
    let (status, body) = append(&mut stream, json!({ "events": events }), 1_000);
    assert_eq!(status, 201, "{body}");
    let head = stream.head();
    let (status, body) = append(&mut stream, webhook("one-more", "https://other.example.com/"), 2_000);
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["error"]["code"], "too_many_stream_subscriptions", "{body}");
    assert_eq!(stream.head(), head, "nothing was appended");
    // A replace of an existing key is not a new subscription.
    assert_eq!(
        append(&mut stream, webhook("w0", "https://other.example.com/"), 3_000).0,
        201
    );
    // A batch that would cross the limit is refused whole.
    let removed = json!({"type": REMOVED, "payload": {"subscriptionKey": "w1"}});
    let batch =
        json!({"events": [removed, webhook("x1", "https://x.example.com/"), webhook("x2", "https://x.example.com/")]});
    let (status, body) = append(&mut stream, batch, 4_000);
    assert_eq!(status, 422, "{body}");
    assert_eq!(stream.head(), head + 1);
    assert!(stream.state().subscriptions.outbound.by_key.contains_key("w1"));
    // The refusal is an append error like any other: the stream still answers.
    let _ = stream
        .append_body(
            json!({"type": "data", "payload": {}}).to_string().as_bytes(),
            Authority::Public,
            &inputs(5_000, 1),
        )
        .unwrap();
    assert_eq!(stream.head(), head + 2);
}
