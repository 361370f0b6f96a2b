//! The delivery spine and copy-to-stream (docs/design.md §6, §7), driven natively
//! with a simulated clock, seeded entropy and a scripted network.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Value};
use tributary::delivery::Outcome;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

fn subscribe(world: &mut World, source: &str, receiving: &str, key: &str, extra: Value) {
    let mut receiver = json!({"action": "copy-to-stream", "receivingStreamPath": receiving, "delivery": {"start": "beginning", "onFailingEvent": "halt"}});
    if let Some(fields) = extra.as_object() {
        for (name, value) in fields {
            if name == "delivery" {
                for (d, v) in value.as_object().unwrap() {
                    receiver["delivery"][d] = v.clone();
                }
            } else {
                receiver[name] = value.clone();
            }
        }
    }
    world.append(
        source,
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "receiver": receiver}}),
    );
}

fn data(n: usize, from: usize) -> Value {
    json!({"events": (from..from + n).map(|i| json!({"type": "data", "payload": {"i": i}})).collect::<Vec<_>>()})
}

/// Source offsets of the copies on `receiving`, in commit order.
fn copied_offsets(world: &mut World, receiving: &str) -> Vec<u64> {
    world
        .events(receiving)
        .iter()
        .filter(|e| e["type"] == "data")
        .map(|e| {
            e["source"]["copiedFrom"].as_array().unwrap().last().unwrap()["offset"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

fn deliver(_: &tributary::delivery::DeliveryPlan) -> Network {
    Network::Deliver
}

#[test]
fn s7_copies_arrive_in_order_with_the_hop_and_the_transform() {
    let mut world = World::new(1);
    world.append("/a", data(3, 0));
    subscribe(
        &mut world,
        "/a",
        "/b",
        "mirror",
        json!({"jsonataTransform": "{'payload': {'doubled': payload.i * 2}}"}),
    );
    world.append("/a", data(2, 3));
    world.run(&["/a"], 10, &mut deliver);
    let copies = world.events("/b");
    let data_copies: Vec<&Value> = copies.iter().filter(|e| e["type"] == "data").collect();
    assert_eq!(data_copies.len(), 5);
    assert_eq!(data_copies[4]["payload"], json!({"doubled": 8}));
    let hop = &data_copies[0]["source"]["copiedFrom"][0];
    assert_eq!(
        (
            hop["path"].as_str(),
            hop["offset"].as_u64(),
            hop["subscriptionKey"].as_str()
        ),
        (Some("/a"), Some(1), Some("mirror"))
    );
    assert_eq!(hop["cursorChangedAtSourceOffset"], 4);
    assert_eq!(
        copied_offsets(&mut world, "/b"),
        vec![1, 2, 3, 5, 6],
        "the configure event itself is not data"
    );
    let card = world.card("/a");
    assert_eq!(card["subscriptions"][0]["runtime"]["acknowledgedOffset"], 6);
    assert_eq!(card["subscriptions"][0]["runtime"]["lag"], 0);
    let inbound = &world.card("/b")["inbound"]["bySourcePath"]["/a"]["mirror"];
    assert_eq!(inbound["cursorChangedAtSourceOffset"], 4);
}

#[test]
fn s6_filters_skip_and_the_cursor_passes_skipped_events() {
    let mut world = World::new(2);
    subscribe(&mut world, "/a", "/b", "k", json!({}));
    world.append("/a", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "odd", "filter": {"eventTypes": ["data"], "jsonataCondition": "payload.i % 2 = 1"},
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/odd", "delivery": {"start": "now", "onFailingEvent": "halt"}}}}));
    world.append("/a", data(6, 0));
    world.append("/a", json!({"type": "other", "ephemeral": true}));
    world.run(&["/a"], 10, &mut deliver);
    assert_eq!(copied_offsets(&mut world, "/odd"), vec![4, 6, 8]);
    let card = world.card("/a");
    let odd = card["subscriptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["subscriptionKey"] == "odd")
        .unwrap()
        .clone();
    assert_eq!(
        odd["runtime"]["acknowledgedOffset"], 9,
        "past the skipped and ephemeral events"
    );
}

#[test]
fn s7_chains_carry_two_hops_and_cycles_stop_with_one_audit() {
    let mut world = World::new(3);
    subscribe(&mut world, "/a", "/b", "ab", json!({}));
    subscribe(&mut world, "/b", "/c", "bc", json!({}));
    subscribe(&mut world, "/b", "/a", "ba", json!({}));
    world.append("/a", data(2, 0));
    world.run(&["/a", "/b", "/c"], 20, &mut deliver);
    let on_c: Vec<Value> = world.events("/c").into_iter().filter(|e| e["type"] == "data").collect();
    assert_eq!(on_c.len(), 2);
    let chain = on_c[0]["source"]["copiedFrom"].as_array().unwrap();
    assert_eq!(
        chain.iter().map(|h| h["path"].as_str().unwrap()).collect::<Vec<_>>(),
        vec!["/a", "/b"]
    );
    let on_a = world.events("/a");
    let audits: Vec<&Value> = on_a
        .iter()
        .filter(|e| e["type"] == "events.iterate.com/stream/error-occurred")
        .collect();
    assert_eq!(audits.len(), 1, "one audit for the dropped loop: {on_a:?}");
    assert_eq!(audits[0]["payload"]["kind"], "copy-dropped");
    assert_eq!(
        audits[0]["payload"]["count"], 3,
        "the configure copy and both data copies"
    );
    assert_eq!(
        on_a.iter().filter(|e| e["type"] == "data").count(),
        2,
        "nothing looped back as data"
    );
    assert!(
        world.stream("/a").next_due_at().unwrap().is_none(),
        "the audit is not copied onward"
    );
    assert!(world.stream("/b").next_due_at().unwrap().is_none());
}

#[test]
fn s6_start_now_skips_history() {
    let mut world = World::new(4);
    world.append("/a", data(3, 0));
    subscribe(&mut world, "/a", "/b", "k", json!({"delivery": {"start": "now"}}));
    world.append("/a", data(1, 3));
    world.run(&["/a"], 10, &mut deliver);
    assert_eq!(copied_offsets(&mut world, "/b"), vec![5]);
}

#[test]
fn s6_retries_back_off_isolate_then_halt_and_resume_continues_from_the_halt() {
    let mut world = World::new(5);
    subscribe(
        &mut world,
        "/a",
        "/b",
        "k",
        json!({"delivery": {"retry": {"maxAttempts": 3, "initialBackoffMs": 1000, "maxBackoffMs": 4000}}}),
    );
    world.append("/a", data(4, 0));
    let start = world.now;
    let mut failing = |_: &tributary::delivery::DeliveryPlan| Network::Fail(Outcome::transient("receiver down"));
    world.alarm("/a", &mut failing);
    let runtime = world.card("/a")["subscriptions"][0]["runtime"].clone();
    assert_eq!(runtime["attempt"], 1);
    assert_eq!(runtime["lastError"], "receiver down");
    let next = world.stream("/a").next_due_at().unwrap().unwrap();
    assert!(
        (start + 800..=start + 1200).contains(&next),
        "jittered 1 s backoff: {}",
        next - start
    );
    world.run(&["/a"], 10, &mut failing);
    let state = world.stream("/a").state().clone();
    let halted = state.subscriptions.outbound.by_key["k"]
        .delivery_halted
        .clone()
        .unwrap();
    assert_eq!((halted.after_offset, halted.attempts), (0, 3));
    assert!(world
        .events("/a")
        .iter()
        .any(|e| e["type"] == "events.iterate.com/stream/subscription-delivery-halted"));
    assert!(
        world.stream("/a").next_due_at().unwrap().is_none(),
        "a halted subscription delivers nothing"
    );
    world.append(
        "/a",
        json!({"type": "events.iterate.com/stream/subscription-delivery-resumed", "payload": {"subscriptionKey": "k"}}),
    );
    let mut sizes = Vec::new();
    world.run(&["/a"], 10, &mut |plan: &tributary::delivery::DeliveryPlan| {
        sizes.push(plan.events.len());
        Network::Deliver
    });
    assert_eq!(sizes[0], 1, "isolate-or-progress: one event after a failure");
    assert_eq!(copied_offsets(&mut world, "/b"), vec![2, 3, 4, 5], "nothing skipped");
}

#[test]
fn s6_a_transform_error_is_permanent_and_halts_at_that_event() {
    let mut world = World::new(6);
    subscribe(
        &mut world,
        "/a",
        "/b",
        "k",
        json!({"jsonataTransform": "payload.i = 1 ? $error('bad') : {'payload': payload}"}),
    );
    world.append("/a", data(3, 0));
    world.run(&["/a"], 10, &mut deliver);
    assert_eq!(copied_offsets(&mut world, "/b"), vec![2]);
    let halted = world.stream("/a").state().subscriptions.outbound.by_key["k"]
        .delivery_halted
        .clone()
        .unwrap();
    assert_eq!((halted.after_offset, halted.attempts), (2, 1));
    assert!(halted.error.unwrap().contains("transform failed on offset 3"));
}

#[test]
fn s7_cursor_set_redelivers_and_a_stale_run_cannot_land() {
    let mut world = World::new(7);
    subscribe(&mut world, "/a", "/b", "k", json!({}));
    world.append("/a", data(3, 0));
    world.run(&["/a"], 10, &mut deliver);
    assert_eq!(copied_offsets(&mut world, "/b"), vec![2, 3, 4]);
    world.append("/a", data(1, 3));
    let now = world.now;
    let entropy = world.entropy();
    let old_plan = world.stream("/a").plan_delivery("k", now, entropy).unwrap().unwrap();
    world.append("/a", json!({"type": "events.iterate.com/stream/subscription-cursor-set", "payload": {"subscriptionKey": "k", "afterOffset": 1}}));
    world.run(&["/a"], 10, &mut deliver);
    assert_eq!(
        copied_offsets(&mut world, "/b"),
        vec![2, 3, 4, 2, 3, 4, 5],
        "a new run may append old offsets again"
    );
    let completion = world.perform("/a", old_plan, Network::Deliver);
    assert_eq!(completion, Some(tributary::delivery::Completion::Stale));
    assert_eq!(
        copied_offsets(&mut world, "/b").len(),
        7,
        "the superseded run's batch was fenced off"
    );
    let metrics = world.stream("/b").metrics_text();
    assert!(metrics.contains("tributary_fence_rejections_total 1"), "{metrics}");
}

#[test]
fn s7_a_recreated_source_is_accepted_and_its_old_lifetime_is_fenced() {
    let mut world = World::new(8);
    subscribe(&mut world, "/a", "/b", "k", json!({}));
    world.append("/a", data(1, 0));
    let now = world.now;
    let entropy = world.entropy();
    let old_plan = world.stream("/a").plan_delivery("k", now, entropy).unwrap().unwrap();
    world.stream("/a").destroy().unwrap();
    world.now += 1;
    subscribe(&mut world, "/a", "/b", "k", json!({}));
    world.append("/a", data(1, 100));
    world.run(&["/a"], 10, &mut deliver);
    assert_eq!(copied_offsets(&mut world, "/b"), vec![2]);
    world.perform("/a", old_plan, Network::Deliver);
    assert_eq!(copied_offsets(&mut world, "/b"), vec![2], "old lifetime rejected");
    let copies: Vec<Value> = world.events("/b").into_iter().filter(|e| e["type"] == "data").collect();
    assert_eq!(copies[0]["payload"], json!({"i": 100}));
}

/// Crash at every step of a delivery, under seeded random failures: every
/// matching event lands exactly once, in order; no cursor passes an
/// undelivered event; the same seed gives the same trace.
fn chaos(seed: u64) -> (Vec<u64>, Vec<String>) {
    let mut world = World::new(seed);
    subscribe(
        &mut world,
        "/a",
        "/b",
        "k",
        json!({"delivery": {"retry": {"maxAttempts": 1000, "initialBackoffMs": 10, "maxBackoffMs": 100}}}),
    );
    let mut dice = seed;
    let mut roll = move || {
        dice = dice.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (dice >> 33) % 10
    };
    let mut appended = 0;
    for round in 0..40 {
        if round % 3 == 0 && appended < 60 {
            world.append("/a", data(1 + (round % 4), appended));
            appended += 1 + (round % 4);
        }
        let choice = roll();
        let mut network = move |_: &tributary::delivery::DeliveryPlan| match choice {
            0 => Network::CrashBeforeSend,
            1 => Network::CrashAfterSend,
            2 => Network::Fail(Outcome::transient("flaky")),
            _ => Network::Deliver,
        };
        world.now += 40_000;
        world.alarm("/a", &mut network);
        let ack = world.card("/a")["subscriptions"][0]["runtime"]["acknowledgedOffset"]
            .as_u64()
            .unwrap();
        let delivered = copied_offsets(&mut world, "/b");
        assert!(
            delivered.iter().filter(|o| **o <= ack).count() as u64 >= ack.saturating_sub(1),
            "cursor {ack} passed undelivered events: {delivered:?}"
        );
    }
    world.run(&["/a"], 500, &mut deliver);
    let delivered = copied_offsets(&mut world, "/b");
    let source: Vec<u64> = world
        .events("/a")
        .iter()
        .filter(|e| e["type"] == "data")
        .map(|e| e["offset"].as_u64().unwrap())
        .collect();
    assert_eq!(
        delivered, source,
        "seed {seed}: every source event exactly once, in order"
    );
    (delivered, world.trace.clone())
}

#[test]
fn s6_crashes_at_every_step_lose_nothing_and_duplicate_nothing() {
    for seed in 0..12 {
        let (delivered, trace) = chaos(seed);
        assert!(delivered.len() >= 30, "seed {seed}: {} delivered", delivered.len());
        assert_eq!(chaos(seed).1, trace, "seed {seed}: same seed, same trace");
    }
}

#[test]
fn s9_webhook_subscriptions_are_due_like_copies() {
    let mut world = World::new(9);
    world.allow_insecure_webhooks("/w");
    world.append("/w", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery": {"start": "beginning", "onFailingEvent": "skip"}}}}));
    assert_eq!(
        world.stream("/w").next_due_at().map_err(|e| e.to_string()),
        Ok(Some(i64::MIN))
    );
}

#[test]
fn s6_skip_mode_records_the_failure_then_moves_on() {
    let mut world = World::new(10);
    world.allow_insecure_webhooks("/w");
    world.append("/w", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h",
            "delivery": {"start": "beginning", "onFailingEvent": "skip", "retry": {"maxAttempts": 2, "initialBackoffMs": 10, "maxBackoffMs": 10}}}}}));
    world.append("/w", data(3, 0));
    let mut calls = 0;
    world.run(&["/w"], 20, &mut |plan: &tributary::delivery::DeliveryPlan| {
        calls += 1;
        match plan.events[0].offset {
            2 => Network::Fail(Outcome::permanent("HTTP 410")),
            3 => Network::Fail(Outcome::transient("HTTP 503")),
            _ => Network::Deliver,
        }
    });
    let delivered: Vec<u64> = world
        .external
        .iter()
        .flat_map(|(_, _, offsets)| offsets.clone())
        .collect();
    assert_eq!(
        delivered,
        vec![4],
        "the failing events were skipped, the next one delivered"
    );
    let skipped: Vec<Value> = world
        .events("/w")
        .into_iter()
        .filter(|e| e["payload"]["kind"] == "delivery-skipped")
        .collect();
    assert_eq!(skipped.len(), 2);
    assert_eq!(skipped[0]["payload"]["offsets"], json!([2]));
    assert!(skipped[0]["payload"]["reason"]
        .as_str()
        .unwrap()
        .starts_with("permanent: HTTP 410"));
    assert_eq!(skipped[0]["payload"]["attempts"], 1);
    assert!(skipped[1]["payload"]["reason"]
        .as_str()
        .unwrap()
        .starts_with("transient: HTTP 503"));
    assert_eq!(skipped[1]["payload"]["attempts"], 2);
    assert_eq!(calls, 4, "410 once, 503 twice, then the next event");
    assert_eq!(
        world.card("/w")["subscriptions"][0]["runtime"]["acknowledgedOffset"],
        6,
        "past the skip facts too"
    );
}

#[test]
fn s6_a_send_lost_with_its_object_is_retried_as_soon_as_a_new_instance_opens() {
    let mut world = World::new(11);
    subscribe(&mut world, "/a", "/b", "k", json!({}));
    world.append("/a", data(2, 0));
    world.alarm("/a", &mut |_: &tributary::delivery::DeliveryPlan| {
        Network::CrashBeforeSend
    });
    let deadline = world.card("/a")["subscriptions"][0]["runtime"]["inFlightDeadlineAt"].clone();
    assert!(
        deadline.is_string(),
        "the reopened object sees the recorded send: {deadline}"
    );
    assert_eq!(
        world.stream("/a").next_due_at().unwrap(),
        Some(0),
        "due now, not after the 30 s deadline"
    );
    world.run(&["/a"], 10, &mut deliver);
    assert_eq!(copied_offsets(&mut world, "/b"), vec![2, 3]);
}

/// A plain copy (no condition, no transform) is shaped without a JSON tree
/// of the whole event; it carries exactly what the general path carries:
/// here against a copy whose condition is always true.
#[test]
fn s7_a_plain_copy_carries_what_a_conditioned_copy_carries() {
    let mut world = World::new(21);
    subscribe(&mut world, "/src", "/plain", "plain", json!({}));
    world.append("/src", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "conditioned",
        "filter": {"jsonataCondition": "true"},
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/conditioned", "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}}));
    world.append(
        "/src",
        json!({"events": [
            {"type": "data", "payload": {"name": "Zoë \u{1F600}", "list": [1, -2, {"deep": null}], "big": 9007199254740991i64}, "metadata": {"trace": "t-1"}},
            {"type": "data", "payload": "a string"},
            {"type": "data", "payload": [true, false]},
        ]}),
    );
    world.run(&["/src"], 10, &mut deliver);
    let shape = |world: &mut World, path: &str| -> Vec<Value> {
        world
            .events(path)
            .into_iter()
            .filter(|event| event["type"] == "data")
            .map(|event| json!([event["type"], event["payload"], event["metadata"]]))
            .collect()
    };
    let plain = shape(&mut world, "/plain");
    assert_eq!(plain.len(), 3);
    assert_eq!(plain, shape(&mut world, "/conditioned"));
    assert_eq!(plain[0][2], json!({"trace": "t-1"}));
}

/// A plain webhook (no condition, no transform) sends each committed event
/// as its stored text, with no tree of it built; the body is byte for byte
/// the one the general path writes (here a webhook whose condition is
/// always true), and its fields keep their order (§9).
#[test]
fn s9_a_plain_webhook_sends_what_a_conditioned_webhook_sends() {
    let mut world = World::new(22);
    world.allow_insecure_webhooks("/w");
    for (key, condition) in [("plain", None), ("conditioned", Some("true"))] {
        let mut filter = json!({"eventTypes": ["data"]});
        if let Some(condition) = condition {
            filter["jsonataCondition"] = json!(condition);
        }
        world.append("/w", json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "filter": filter,
            "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}}));
    }
    world.append(
        "/w",
        json!({"events": [
            {"type": "data", "payload": {"name": "Zoë \u{1F600} \"quoted\" \\ \n", "list": [1, -2, 1.5, 1e-7, -0.0, {"deep": null}],
                "big": 9007199254740991i64, "huge": 18446744073709551615u64, "float": 12345678.901234567},
                "metadata": {"trace": "t-1"}, "idempotencyKey": "k-1"},
            {"type": "data", "payload": "a string"},
            {"type": "data", "payload": [true, false]},
        ]}),
    );
    let mut sent: Vec<(String, bool, String, String)> = Vec::new();
    world.run(&["/w"], 20, &mut |plan: &tributary::delivery::DeliveryPlan| {
        for event in &plan.events {
            let wire = matches!(event.body, tributary::json_field::JsonField::Wire(_));
            sent.push((
                plan.subscription_key.clone(),
                wire,
                event.body.to_string(),
                tributary::webhook::body(plan),
            ));
        }
        Network::Deliver
    });
    let of = |key: &str| sent.iter().filter(|(sent_to, ..)| sent_to == key).collect::<Vec<_>>();
    let (plain, conditioned) = (of("plain"), of("conditioned"));
    assert_eq!(plain.len(), 3);
    assert_eq!(conditioned.len(), 3);
    for (plain, conditioned) in plain.iter().zip(&conditioned) {
        assert!(plain.1, "a plain webhook's event is text");
        assert!(!conditioned.1, "a conditioned webhook's event is a tree");
        assert_eq!(plain.2, conditioned.2, "the same event text");
        let body: Value = serde_json::from_str(&plain.3).unwrap();
        let keys: Vec<&str> = body.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "projectId",
                "path",
                "streamId",
                "streamCreatedAt",
                "subscriptionKey",
                "cursorChangedAtSourceOffset",
                "deliveryId",
                "attempt",
                "type",
                "event"
            ]
        );
        assert!(
            plain
                .3
                .ends_with(&format!(",\"type\":\"event\",\"event\":{}}}", plain.2)),
            "{}",
            plain.3
        );
        // What differs between the two subscriptions: the key, the
        // configuration's offset (§7 generation) and so the delivery id.
        let without_run = |text: &str| {
            let body: Value = serde_json::from_str(text).unwrap();
            text.replace(&format!("\"subscriptionKey\":{}", body["subscriptionKey"]), "")
                .replace(
                    &format!(
                        "\"cursorChangedAtSourceOffset\":{}",
                        body["cursorChangedAtSourceOffset"]
                    ),
                    "",
                )
                .replace(&format!("\"deliveryId\":{}", body["deliveryId"]), "")
        };
        assert_eq!(
            without_run(&plain.3),
            without_run(&conditioned.3),
            "the whole body, but for the key and the delivery id"
        );
    }
    let first: Value = serde_json::from_str(&plain[0].2).unwrap();
    assert_eq!(first["payload"]["big"], json!(9007199254740991i64));
    assert_eq!(first["idempotencyKey"], "k-1");
    assert_eq!(
        world
            .events("/w")
            .iter()
            .filter(|event| event["type"] == "data")
            .count(),
        3
    );
}
