//! Durable-subscription configuration (docs/design.md §4, §5, §6 runtime rows),
//! natively against real SQLite.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::*;
use serde_json::{json, Value};
use tributary::event::{Authority, InputEvent};
use tributary::route::Action;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const REMOVED: &str = "events.iterate.com/stream/subscription-removed";
const CURSOR_SET: &str = "events.iterate.com/stream/subscription-cursor-set";
const RESUMED: &str = "events.iterate.com/stream/subscription-delivery-resumed";
const HALTED: &str = "events.iterate.com/stream/subscription-delivery-halted";

fn copy_to(path: &str, start: &str) -> Value {
    json!({"action": "copy-to-stream", "receivingStreamPath": path, "delivery": {"start": start, "onFailingEvent": "halt"}})
}

fn configure(payload: Value) -> Value {
    json!({"type": CONFIGURED, "payload": payload})
}

fn card(stream: &mut tributary::stream::Stream<tributary::storage::rusqlite_driver::RusqliteStorage>) -> Value {
    call(stream, Action::Subscriptions, "", "", &inputs(0, 0)).1
}

fn by_key(stream: &mut tributary::stream::Stream<tributary::storage::rusqlite_driver::RusqliteStorage>) -> Value {
    let (_, info) = call(stream, Action::Info, "", "", &inputs(0, 0));
    info["state"]["subscriptions"]["outbound"]["byKey"].clone()
}

fn runtime_of(card: &Value, key: &str) -> Value {
    card["subscriptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["subscriptionKey"] == key)
        .map(|s| s["runtime"].clone())
        .unwrap_or(Value::Null)
}

#[test]
fn s5_configure_with_a_key_then_replace_it() {
    let mut stream = memory_stream("/src");
    append(&mut stream, json!({"events": [{"type": "a"}, {"type": "b"}]}), 1_000);
    let (status, _) = append(
        &mut stream,
        configure(json!({"subscriptionKey": "mirror", "receiver": copy_to("/dst", "beginning")})),
        2_000,
    );
    assert_eq!(status, 201);
    let state = by_key(&mut stream);
    assert_eq!(state["mirror"]["configuredAtOffset"], 3);
    assert_eq!(state["mirror"]["configuredAt"], "1970-01-01T00:00:02.000Z");
    assert_eq!(
        state["mirror"]["configuration"]["receiver"]["receivingStreamPath"],
        "/dst"
    );
    assert!(state["mirror"].get("subscriptionKeyWasGenerated").is_none());
    assert_eq!(
        runtime_of(&card(&mut stream), "mirror")["acknowledgedOffset"],
        0,
        "start=beginning"
    );
    append(
        &mut stream,
        configure(json!({"subscriptionKey": "mirror", "receiver": copy_to("/dst", "now")})),
        3_000,
    );
    let state = by_key(&mut stream);
    assert_eq!(state.as_object().unwrap().len(), 1, "replaced, not added");
    assert_eq!(state["mirror"]["configuredAtOffset"], 4);
    let runtime = runtime_of(&card(&mut stream), "mirror");
    assert_eq!(
        (runtime["runOffset"].as_u64(), runtime["acknowledgedOffset"].as_u64()),
        (Some(4), Some(4)),
        "start=now: a new run after the replace"
    );
}

#[test]
fn s5_keyless_configure_derives_the_key_from_its_offset_and_retries_collapse() {
    let mut stream = memory_stream("/src");
    let event = json!({"type": CONFIGURED, "idempotencyKey": "once", "payload": {"receiver": copy_to("/dst", "now")}});
    let (_, first) = append(&mut stream, event.clone(), 1);
    let (status, again) = append(&mut stream, event, 2);
    assert_eq!(
        (status, again["event"]["offset"].clone()),
        (200, first["event"]["offset"].clone())
    );
    let state = by_key(&mut stream);
    assert_eq!(
        state.as_object().unwrap().keys().collect::<Vec<_>>(),
        vec!["subscription:1"]
    );
    assert_eq!(state["subscription:1"]["subscriptionKeyWasGenerated"], true);
    append(&mut stream, configure(json!({"receiver": copy_to("/dst", "now")})), 3);
    assert_eq!(
        by_key(&mut stream).as_object().unwrap().len(),
        2,
        "two raw keyless appends, two subscriptions"
    );
}

#[test]
fn s4_remove_cursor_set_and_resume() {
    let mut stream = memory_stream("/src");
    append(
        &mut stream,
        configure(json!({"subscriptionKey": "k", "receiver": copy_to("/dst", "beginning")})),
        1,
    );
    append(&mut stream, json!({"events": [{"type": "a"}, {"type": "b"}]}), 2);
    let (status, body) = append(
        &mut stream,
        json!({"type": CURSOR_SET, "payload": {"subscriptionKey": "k", "afterOffset": 4}}),
        3,
    );
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (422, Some("cursor_beyond_head"))
    );
    let (status, body) = append(
        &mut stream,
        json!({"type": CURSOR_SET, "payload": {"subscriptionKey": "nope", "afterOffset": 1}}),
        3,
    );
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (422, Some("unknown_subscription"))
    );
    let (status, _) = append(
        &mut stream,
        json!({"type": CURSOR_SET, "payload": {"subscriptionKey": "k", "afterOffset": 2}}),
        3,
    );
    assert_eq!(status, 201);
    let state = by_key(&mut stream);
    assert_eq!(
        state["k"]["cursorSet"],
        json!({"afterOffset": 2, "setAtSourceOffset": 4})
    );
    let runtime = runtime_of(&card(&mut stream), "k");
    assert_eq!(
        (runtime["runOffset"].as_u64(), runtime["acknowledgedOffset"].as_u64()),
        (Some(4), Some(2))
    );
    let (status, body) = append(
        &mut stream,
        json!({"type": RESUMED, "payload": {"subscriptionKey": "k"}}),
        4,
    );
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("subscription_not_halted"))
    );
    let halted = InputEvent::from_json(
        json!({"type": HALTED, "payload": {"subscriptionKey": "k", "reason": "delivery-failed", "afterOffset": 2, "attempts": 15, "error": "boom"}}),
        Authority::Trusted,
    )
    .unwrap();
    stream.append(vec![halted], &inputs(5, 0)).unwrap();
    assert_eq!(by_key(&mut stream)["k"]["deliveryHalted"]["attempts"], 15);
    let (status, _) = append(
        &mut stream,
        json!({"type": RESUMED, "payload": {"subscriptionKey": "k"}}),
        6,
    );
    assert_eq!(status, 201);
    assert!(by_key(&mut stream)["k"].get("deliveryHalted").is_none());
    let (status, _) = append(
        &mut stream,
        json!({"type": REMOVED, "payload": {"subscriptionKey": "k", "reason": "requested"}}),
        7,
    );
    assert_eq!(status, 201);
    assert_eq!(by_key(&mut stream), json!({}));
    assert_eq!(card(&mut stream)["subscriptions"], json!([]), "runtime row dropped");
    let (status, _) = append(
        &mut stream,
        json!({"type": REMOVED, "payload": {"subscriptionKey": "k"}}),
        8,
    );
    assert_eq!(status, 422);
}

#[test]
fn s4_a_copied_control_event_configures_nothing() {
    let mut stream = memory_stream("/dst");
    let copied = InputEvent::from_json(
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "x", "receiver": copy_to("/elsewhere", "now")},
               "source": {"copiedFrom": [{"path": "/src", "offset": 1}]}}),
        Authority::Trusted,
    )
    .unwrap();
    stream.append(vec![copied], &inputs(1, 0)).unwrap();
    assert_eq!(by_key(&mut stream), json!({}));
    let (_, read) = read(&mut stream, "");
    assert_eq!(read["events"][0]["type"], CONFIGURED, "stored and readable as data");
}

#[test]
fn s5_every_invalid_configuration_is_422_naming_the_field_and_commits_nothing() {
    let mut stream = memory_stream("/src");
    append(&mut stream, json!({"type": "seed"}), 1);
    let webhook = |delivery: Value| json!({"receiver": {"action": "webhook-post", "url": "https://example.com/h", "delivery": delivery}});
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            json!({"receiver": {"action": "processor-wake", "expression": ["processors", "p", "wake"], "jsonataTransform": "$"}}),
            "invalid_subscription",
            "receiver.jsonataTransform",
        ),
        (
            json!({"receiver": {"action": "processor-wake", "expression": ["processors", "p", "wake"], "delivery": {"start": "now", "onFailingEvent": "halt"}}}),
            "invalid_subscription",
            "receiver.delivery",
        ),
        (
            json!({"receiver": {"action": "copy-to-stream", "receivingStreamPath": "/d", "delivery": {"start": "now", "onFailingEvent": "skip"}}}),
            "invalid_subscription",
            "receiver.delivery.onFailingEvent",
        ),
        (
            json!({"receiver": {"action": "copy-to-stream", "receivingStreamPath": "/d", "delivery": {"start": "now", "onFailingEvent": "halt", "throttle": {"maxDeliveries": 1, "windowMs": 1}}}}),
            "invalid_subscription",
            "receiver.delivery.throttle",
        ),
        (
            json!({"receiver": {"action": "copy-to-stream", "receivingStreamPath": "../d", "delivery": {"start": "now", "onFailingEvent": "halt"}}}),
            "invalid_subscription",
            "receiver.receivingStreamPath",
        ),
        (
            json!({"receiver": {"action": "teleport"}}),
            "invalid_subscription",
            "receiver.action",
        ),
        (
            json!({"receiver": {"action": 5}}),
            "invalid_subscription",
            "receiver.action",
        ),
        (json!({}), "invalid_subscription", "receiver"),
        (
            json!({"receiver": copy_to("/d", "later")}),
            "invalid_subscription",
            "receiver.delivery.start",
        ),
        (
            json!({"receiver": copy_to("/d", "now"), "filter": {"eventTypes": "a"}}),
            "invalid_subscription",
            "filter.eventTypes",
        ),
        (
            json!({"receiver": copy_to("/d", "now"), "filter": {"jsonataCondition": 5}}),
            "invalid_subscription",
            "filter.jsonataCondition",
        ),
        (
            json!({"receiver": copy_to("/d", "now"), "filter": {"jsonataCondition": "payload.("}}),
            "invalid_jsonata",
            "filter.jsonataCondition",
        ),
        (
            json!({"receiver": copy_to("/d", "now"), "filter": {"jsonataCondition": "a".repeat(4097)}}),
            "invalid_jsonata",
            "filter.jsonataCondition",
        ),
        (
            json!({"receiver": {"action": "copy-to-stream", "receivingStreamPath": "/d", "jsonataTransform": "{", "delivery": {"start": "now", "onFailingEvent": "halt"}}}),
            "invalid_jsonata",
            "receiver.jsonataTransform",
        ),
        (
            json!({"subscriptionKey": "subscription:7", "receiver": copy_to("/d", "now")}),
            "invalid_subscription",
            "subscriptionKey",
        ),
        (
            json!({"subscriptionKey": "connection:7", "receiver": copy_to("/d", "now")}),
            "invalid_subscription",
            "subscriptionKey",
        ),
        (
            json!({"subscriptionKey": "k".repeat(257), "receiver": copy_to("/d", "now")}),
            "invalid_subscription",
            "subscriptionKey",
        ),
        (
            json!({"subscriptionKey": 5, "receiver": copy_to("/d", "now")}),
            "invalid_subscription",
            "subscriptionKey",
        ),
        (
            json!({"receiver": copy_to("/d", "now"), "extra": true}),
            "invalid_subscription",
            "extra",
        ),
        (
            webhook(
                json!({"start": "now", "onFailingEvent": "skip", "retry": {"maxAttempts": 0, "initialBackoffMs": 1, "maxBackoffMs": 1}}),
            ),
            "invalid_subscription",
            "receiver.delivery.retry.maxAttempts",
        ),
        (
            webhook(
                json!({"start": "now", "onFailingEvent": "skip", "retry": {"maxAttempts": 3, "initialBackoffMs": 10, "maxBackoffMs": 1}}),
            ),
            "invalid_subscription",
            "receiver.delivery.retry.initialBackoffMs",
        ),
        (
            webhook(
                json!({"start": "now", "onFailingEvent": "skip", "aggregate": {"windowMs": 86_400_001, "maxBatch": 1}}),
            ),
            "invalid_subscription",
            "receiver.delivery.aggregate.windowMs",
        ),
        (
            webhook(
                json!({"start": "now", "onFailingEvent": "skip", "aggregate": {"windowMs": 1, "maxBatch": 10_001}}),
            ),
            "invalid_subscription",
            "receiver.delivery.aggregate.maxBatch",
        ),
        (
            webhook(
                json!({"start": "now", "onFailingEvent": "skip", "throttle": {"maxDeliveries": -1, "windowMs": 1}}),
            ),
            "invalid_subscription",
            "receiver.delivery.throttle.maxDeliveries",
        ),
        (
            webhook(json!({"start": "now", "onFailingEvent": "skip", "timeoutMs": 30_001})),
            "invalid_subscription",
            "receiver.delivery.timeoutMs",
        ),
        (
            json!({"receiver": {"action": "itx-call", "expression": "services", "delivery": {"start": "now", "onFailingEvent": "halt"}}}),
            "invalid_subscription",
            "receiver.expression",
        ),
    ];
    for (payload, code, field) in cases {
        let (status, body) = append(&mut stream, configure(payload.clone()), 2);
        assert_eq!(status, 422, "{payload}: {body}");
        assert_eq!(body["error"]["code"], code, "{payload}");
        assert_eq!(body["error"]["details"]["field"], field, "{payload}");
        assert_eq!(stream.lifetime().unwrap().head, 1);
    }
    assert_eq!(by_key(&mut stream), json!({}));
}

#[test]
fn s5_bounds_64_per_receiver_and_state_size() {
    let mut stream = memory_stream("/src");
    let batch: Vec<Value> = (0..64)
        .map(|i| configure(json!({"subscriptionKey": format!("k{i}"), "receiver": copy_to("/d", "now")})))
        .collect();
    assert_eq!(append(&mut stream, json!({"events": batch}), 1).0, 201);
    let (status, body) = append(
        &mut stream,
        configure(json!({"subscriptionKey": "k64", "receiver": copy_to("/d", "now")})),
        2,
    );
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (422, Some("too_many_subscriptions"))
    );
    assert_eq!(
        append(
            &mut stream,
            configure(json!({"subscriptionKey": "k0", "receiver": copy_to("/d", "beginning")})),
            3
        )
        .0,
        201,
        "replacing is not adding"
    );
    assert_eq!(
        append(
            &mut stream,
            configure(json!({"subscriptionKey": "other", "receiver": copy_to("/e", "now")})),
            4
        )
        .0,
        201
    );

    let mut big = memory_stream("/big");
    let description = "d".repeat(60_000);
    for i in 0..4 {
        let (status, _) = append(
            &mut big,
            configure(
                json!({"subscriptionKey": format!("b{i}"), "description": description, "receiver": copy_to(&format!("/d{i}"), "now")}),
            ),
            1,
        );
        assert_eq!(status, 201);
    }
    let (status, body) = append(
        &mut big,
        configure(json!({"subscriptionKey": "b4", "description": description, "receiver": copy_to("/d4", "now")})),
        2,
    );
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (422, Some("reduced_state_too_large"))
    );
    assert_eq!(by_key(&mut big).as_object().unwrap().len(), 4);
}

#[test]
fn s6_runtime_rows_are_repaired_from_the_state_on_open() {
    let file = FileStream::new("/src");
    {
        let mut stream = file.open();
        append(&mut stream, json!({"events": [{"type": "a"}, {"type": "b"}]}), 1);
        append(
            &mut stream,
            configure(json!({"subscriptionKey": "k", "receiver": copy_to("/d", "now")})),
            2,
        );
    }
    // Simulate a crash between the commit and the repair: the row is gone.
    rusqlite::Connection::open(file.db())
        .unwrap()
        .execute("DELETE FROM subscription_runtime", [])
        .unwrap();
    let mut reopened = file.open();
    let runtime = runtime_of(&card(&mut reopened), "k");
    assert_eq!(
        (runtime["runOffset"].as_u64(), runtime["acknowledgedOffset"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(runtime["lag"], 0);
    append(&mut reopened, json!({"type": "c"}), 3);
    assert_eq!(runtime_of(&card(&mut reopened), "k")["lag"], 1);
}

#[test]
fn s5_recursive_filters_and_transforms_are_accepted_and_bounded_in_steps() {
    // No configure-time refusal: the step budget (§12) ends the evaluation
    // (tests/jsonata_budget.rs drives one through delivery).
    let mut stream = memory_stream("/src");
    let recursive = "($f := function($n) { $f($n + 1) }; $f(0))";
    for payload in [
        json!({"receiver": copy_to("/d", "now"), "filter": {"jsonataCondition": recursive}}),
        json!({"receiver": {"action": "copy-to-stream", "receivingStreamPath": "/d", "jsonataTransform": recursive, "delivery": {"start": "now", "onFailingEvent": "halt"}}}),
    ] {
        let (status, body) = append(&mut stream, configure(payload), 1);
        assert_eq!(status, 201, "{body}");
    }
    let error = tributary::jsonata::compile(recursive)
        .unwrap()
        .evaluate(None)
        .unwrap_err();
    assert_eq!(error.code(), Some("U1001"), "{error}");
}
