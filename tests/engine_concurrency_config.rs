//! `delivery.concurrency` at configure time (docs/design.md §8 `concurrency`,
//! §2 "a bad request never changes state"): an integer 1–32 on itx-call and
//! webhook-post, above 1 only in `skip` mode and never with an aggregate or
//! a gate; anything else is a 422 naming the field, validated before the
//! commit, so the log and the subscriptions stay as they were.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::driver::{Driver, CONFIGURED};
use serde_json::{json, Value};

const FIELD: &str = "receiver.delivery.concurrency";

/// Configures with `delivery` and expects a 422 naming `field` whose message
/// contains `says`; nothing is committed.
fn refused(driver: &mut Driver, action: &str, delivery: Value, field: &str, says: &str) {
    let head_before = driver.stream.lifetime().map(|meta| meta.head);
    let state_before = driver.stream.state().clone();
    let (status, body) = driver.configure("hook", action, delivery.clone());
    assert_eq!(status, 422, "{delivery} → {body}");
    assert_eq!(body["error"]["code"], "invalid_subscription", "{body}");
    assert_eq!(body["error"]["details"]["field"], field, "{delivery} → {body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains(says), "{delivery}: {message:?} should say {says:?}");
    assert_eq!(
        driver.stream.lifetime().map(|meta| meta.head),
        head_before,
        "nothing was appended"
    );
    assert_eq!(driver.stream.state(), &state_before, "no subscription changed");
}

#[test]
fn s8_concurrency_must_be_an_integer_from_1_to_32() {
    let mut driver = Driver::new("/c");
    driver.data(1);
    for action in ["webhook-post", "itx-call"] {
        for (value, says) in [
            (json!(0), "must be positive"),
            (json!(33), "must be at most 32"),
            (json!(1_000_000_000_000u64), "must be at most 32"),
            (json!(1.5), "must be a positive integer"),
            (json!(4.0), "must be a positive integer"),
            (json!("4"), "must be a positive integer"),
            (json!(-1), "must be a positive integer"),
            (json!(null), "must be a positive integer"),
            (json!(true), "must be a positive integer"),
            (json!([4]), "must be a positive integer"),
            (json!({"n": 4}), "must be a positive integer"),
            (json!(1e300), "must be a positive integer"),
        ] {
            refused(&mut driver, action, json!({"concurrency": value}), FIELD, says);
        }
    }
}

#[test]
fn s8_concurrency_above_1_needs_skip_mode() {
    let mut driver = Driver::new("/c");
    for action in ["webhook-post", "itx-call"] {
        refused(
            &mut driver,
            action,
            json!({"onFailingEvent": "halt", "concurrency": 2}),
            FIELD,
            "needs onFailingEvent \"skip\"",
        );
    }
}

#[test]
fn s8_concurrency_above_1_excludes_aggregate_and_gates() {
    let mut driver = Driver::new("/c");
    let aggregate = json!({"windowMs": 1000, "maxBatch": 10});
    let threshold = json!({"threshold": {"count": 2, "windowMs": 1000}});
    let max_once = json!({"maxOnce": {"windowMs": 1000}});
    for action in ["webhook-post", "itx-call"] {
        refused(
            &mut driver,
            action,
            json!({"concurrency": 8, "aggregate": aggregate}),
            FIELD,
            "aggregate",
        );
        refused(
            &mut driver,
            action,
            json!({"concurrency": 8, "gate": threshold}),
            FIELD,
            "threshold gate",
        );
        refused(
            &mut driver,
            action,
            json!({"concurrency": 32, "gate": max_once}),
            FIELD,
            "maxOnce gate",
        );
    }
}

#[test]
fn s8_copies_and_processors_take_no_concurrency() {
    let mut driver = Driver::new("/c");
    let copy = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "copy", "receiver": {
        "action": "copy-to-stream", "receivingStreamPath": "/dst",
        "delivery": {"start": "beginning", "onFailingEvent": "halt", "concurrency": 2}}}});
    let (status, body) = driver.append(copy);
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["error"]["details"]["field"], FIELD);
    assert!(body["error"]["message"].as_str().unwrap().contains("not a known field"));
    let wake = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "wake", "receiver": {
        "action": "processor-wake", "expression": ["processors", "p", "wake"], "concurrency": 2}}});
    let (status, body) = driver.append(wake);
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["error"]["details"]["field"], "receiver.concurrency");
    assert_eq!(
        driver.stream.lifetime().map(|meta| meta.head),
        None,
        "nothing was committed"
    );
}

#[test]
fn s8_a_hostile_configuration_is_refused_whole() {
    let mut driver = Driver::new("/c");
    driver.data(1);
    // A valid concurrency beside an invalid neighbour: the whole append is refused.
    refused(
        &mut driver,
        "webhook-post",
        json!({"concurrency": 4, "retry": {"maxAttempts": 0, "initialBackoffMs": 1, "maxBackoffMs": 1}}),
        "receiver.delivery.retry.maxAttempts",
        "must be positive",
    );
    // A huge string where a number belongs.
    refused(
        &mut driver,
        "itx-call",
        json!({"concurrency": "9".repeat(10_000)}),
        FIELD,
        "must be a positive integer",
    );
    // A batch whose second configuration is bad commits neither.
    let good = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "a", "receiver": {
        "action": "webhook-post", "url": "http://127.0.0.1:1/a",
        "delivery": {"start": "beginning", "onFailingEvent": "skip", "concurrency": 4}}}});
    let bad = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "b", "receiver": {
        "action": "webhook-post", "url": "http://127.0.0.1:1/b",
        "delivery": {"start": "beginning", "onFailingEvent": "skip", "concurrency": 40}}}});
    let head = driver.stream.lifetime().map(|meta| meta.head);
    let (status, body) = driver.append(json!({"events": [good, bad]}));
    assert_eq!(status, 422, "{body}");
    assert_eq!(driver.stream.lifetime().map(|meta| meta.head), head);
    assert!(driver.stream.state().subscriptions.outbound.by_key.is_empty());
}

#[test]
fn s8_valid_concurrency_is_kept_in_the_configuration() {
    let mut driver = Driver::new("/c");
    for (key, action, delivery) in [
        (
            "one-halt",
            "webhook-post",
            json!({"onFailingEvent": "halt", "concurrency": 1}),
        ),
        (
            "one-aggregate",
            "itx-call",
            json!({"concurrency": 1, "aggregate": {"windowMs": 10, "maxBatch": 2}}),
        ),
        (
            "many",
            "webhook-post",
            json!({"concurrency": 32, "throttle": {"maxDeliveries": 5, "windowMs": 1000}}),
        ),
        ("itx", "itx-call", json!({"concurrency": 2})),
    ] {
        let (status, body) = driver.configure(key, action, delivery.clone());
        assert_eq!(status, 201, "{key} {delivery} → {body}");
    }
    let card = driver.stream.subscriptions_card().unwrap();
    let by_key = |key: &str| {
        card["subscriptions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|subscription| subscription["subscriptionKey"] == key)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        by_key("many")["configuration"]["receiver"]["delivery"]["concurrency"],
        32
    );
    assert_eq!(by_key("many")["runtime"]["window"]["concurrency"], 32);
    assert_eq!(by_key("itx")["runtime"]["window"]["inFlight"], json!([]));
    // Concurrency 1 is the ordered default: no window on the card.
    assert!(by_key("one-halt")["runtime"].get("window").is_none());
    assert!(by_key("one-aggregate")["runtime"].get("window").is_none());
}
