//! The HTTP edge's decisions, natively (DESIGN.md §3 rule 4): the engine's
//! reserved idempotency-key namespace.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Value};
use tributary::delivery::Outcome;
use tributary::error::ApiError;
use tributary::reserved_keys::{check_public_append, is_reserved, RESERVED_KEY_PREFIXES};

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

// ---------------------------------------------------------------------------
// §3 rule 4: the engine's idempotency-key namespace
// ---------------------------------------------------------------------------

#[test]
fn s3_every_reserved_prefix_is_refused_single_and_in_a_batch() {
    for prefix in RESERVED_KEY_PREFIXES {
        let key = format!("{prefix}anything");
        let single = json!({"type": "a", "idempotencyKey": key}).to_string();
        let error = check_public_append(single.as_bytes()).unwrap_err();
        assert_eq!(error.prefix, prefix);
        assert_eq!(error.index, None);
        let api = ApiError::from(error);
        assert_eq!((api.status, api.code()), (403, "reserved_idempotency_key"));
        assert_eq!(api.body.error.details["prefix"], json!(prefix));
        let batch = json!({"events": [{"type": "a", "idempotencyKey": "mine"}, {"type": "b", "idempotencyKey": key}]});
        let error = check_public_append(batch.to_string().as_bytes()).unwrap_err();
        assert_eq!((error.index, error.prefix), (Some(1), prefix));
    }
}

#[test]
fn s3_other_keys_and_bodies_pass_the_reserved_check() {
    for body in [
        json!({"type": "a"}).to_string(),
        json!({"type": "a", "idempotencyKey": "order-17"}).to_string(),
        json!({"type": "a", "idempotencyKey": "my-copy:1"}).to_string(),
        json!({"type": "a", "idempotencyKey": "Copy:1"}).to_string(),
        json!({"type": "a", "idempotencyKey": "evm"}).to_string(),
        json!({"events": [{"type": "a", "idempotencyKey": "x"}]}).to_string(),
        "not json".to_owned(),
    ] {
        assert_eq!(check_public_append(body.as_bytes()), Ok(()), "{body}");
    }
}

#[test]
fn s3_a_repeated_key_field_is_read_as_the_stream_reads_it() {
    // serde_json keeps the last of a repeated field, in the stream as here.
    let body = r#"{"type": "a", "idempotencyKey": "fine", "idempotencyKey": "copy:x"}"#;
    assert!(check_public_append(body.as_bytes()).is_err());
    let batch = r#"{"events": [{"type": "a", "idempotencyKey": "fine", "idempotencyKey": "skipped:1:2"}]}"#;
    assert!(check_public_append(batch.as_bytes()).is_err());
}

fn keys_of(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| event["idempotencyKey"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn s3_s7_s8_every_key_the_engine_derives_is_reserved() {
    let mut world = World::new(18);
    world.set_deployment(
        "/a",
        tributary::deployment::Deployment {
            allow_insecure_webhooks: true,
            ..Default::default()
        },
    );
    // A copy /a → /b, and a webhook on /a that skips its failing events.
    world.append("/a", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "copy", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/b", "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}}));
    world.append("/a", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h",
            "delivery": {"start": "beginning", "onFailingEvent": "skip", "retry": {"maxAttempts": 1, "initialBackoffMs": 10, "maxBackoffMs": 10}}}}}));
    world.append(
        "/a",
        json!({"events": [{"type": "data", "payload": 1}, {"type": "data", "payload": 2}]}),
    );
    world.run(&["/a"], 50, &mut |plan: &tributary::delivery::DeliveryPlan| {
        if plan.subscription_key == "hook" {
            Network::Fail(Outcome::permanent("HTTP 410"))
        } else {
            Network::Deliver
        }
    });
    let copies = keys_of(&world.events("/b"));
    let audits = keys_of(&world.events("/a"));
    assert_eq!(copies.len(), 2, "both data events were copied: {copies:?}");
    assert!(audits.iter().any(|key| key.starts_with("skipped:")), "{audits:?}");
    for key in copies.iter().chain(&audits) {
        assert!(
            is_reserved(key).is_some(),
            "the engine derived '{key}', which a public append could take"
        );
    }
    // subscribe-from derives its source event's key (§5).
    let plan = tributary::subscribe_from::plan(
        &common::path("/r"),
        json!({"sourcePath": "/s", "idempotencyKey": "k"})
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    let key = plan.event.idempotency_key.unwrap();
    assert_eq!(is_reserved(&key), Some("subscribe-from:"));
}
