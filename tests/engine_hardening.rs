//! Delivery hardening (docs/design.md §6 rules 7, 10, 11; §12): the three
//! reproduced defects of issue 9 as regression tests, and every budget the
//! engine enforces — scan windows, byte-bounded reads — natively, over real
//! SQLite (the inbound fence bound: `engine_fanin.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use common::{inputs, FileStream};
use serde_json::{json, Value};
use std::time::Duration;
use tributary::delivery::{Completion, DeliveryPlan, Outcome};
use tributary::deployment::Deployment;
use tributary::error::ApiFailure;
use tributary::event::Authority;
use tributary::limits::{MAX_READ_BYTES, MAX_SCAN_ROWS};
use tributary::stream::dead_letters::DeadLetterQuery;
use tributary::stream::RangeQuery;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

fn insecure() -> Deployment {
    Deployment {
        allow_insecure_webhooks: true,
        ..Default::default()
    }
}

fn webhook(world: &mut World, path: &str, key: &str, extra: Value, delivery: Value) {
    world.set_deployment(path, insecure());
    let mut full = json!({"start": "beginning", "onFailingEvent": "halt",
        "retry": {"maxAttempts": 3, "initialBackoffMs": 10, "maxBackoffMs": 10}});
    for (name, value) in delivery.as_object().unwrap() {
        full[name] = value.clone();
    }
    let mut receiver = json!({"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery": full});
    for (name, value) in extra.as_object().unwrap() {
        receiver[name] = value.clone();
    }
    world.append(
        path,
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": key,
        "filter": {"eventTypes": ["data"]}, "receiver": receiver}}),
    );
}

fn letters(world: &mut World, path: &str) -> Vec<Value> {
    let query = DeadLetterQuery {
        subscription_key: None,
        after: 0,
        limit: 100,
    };
    world.stream(path).dead_letters(&query).unwrap()["deadLetters"]
        .as_array()
        .unwrap()
        .clone()
}

fn cursor(world: &mut World, path: &str, key: &str) -> u64 {
    world.stream(path).runtime_rows().unwrap()[key].acknowledged_offset
}

/// Runs `test` on its own thread and fails (instead of hanging the suite)
/// when it does not finish: the defect under test was an endless loop.
fn within_seconds(seconds: u64, test: impl FnOnce() + Send + 'static) {
    let (done, finished) = std::sync::mpsc::channel();
    let handle = std::thread::spawn(move || {
        test();
        let _ = done.send(());
    });
    match finished.recv_timeout(Duration::from_secs(seconds)) {
        Ok(()) => handle.join().unwrap(),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => panic!("did not finish in {seconds} s: an unbounded loop"),
    }
}

#[test]
fn defect_1_a_digest_retry_ending_on_an_ephemeral_offset_does_not_loop() {
    within_seconds(60, || {
        let mut world = World::new(1);
        webhook(
            &mut world,
            "/w",
            "digest",
            json!({}),
            json!({"aggregate": {"windowMs": 1000, "maxBatch": 10}}),
        );
        world.append("/w", json!({"type": "data"}));
        world.append("/w", json!({"type": "data", "ephemeral": true}));
        world.now += 1_500;
        let failed = world.alarm("/w", &mut |_: &DeliveryPlan| {
            Network::Fail(Outcome::transient("HTTP 500"))
        });
        assert_eq!(failed, 1, "the digest was sent once and failed");
        world.append("/w", json!({"type": "data"}));
        world.run(&["/w"], 50, &mut |_: &DeliveryPlan| Network::Deliver);
        let offsets: Vec<Vec<u64>> = world.external.iter().map(|(_, _, offsets)| offsets.clone()).collect();
        assert_eq!(
            offsets,
            vec![vec![2], vec![4]],
            "the pinned range resent, then the next digest"
        );
    });
}

#[test]
fn defect_2_skip_mode_dead_letters_an_event_whose_transform_fails() {
    let mut world = World::new(2);
    webhook(
        &mut world,
        "/w",
        "t",
        json!({"jsonataTransform": "$error('boom')"}),
        json!({"onFailingEvent": "skip"}),
    );
    world.append("/w", json!({"type": "data", "payload": {"n": 1}}));
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    // Past the event (2) and the audit fact its dead letter appended (3).
    assert_eq!(cursor(&mut world, "/w", "t"), 3, "the cursor passed the event");
    let letters = letters(&mut world, "/w");
    assert_eq!(letters.len(), 1, "{letters:?}");
    assert_eq!(letters[0]["offset"], 2);
    assert!(letters[0]["reason"].as_str().unwrap().contains("boom"), "{letters:?}");
    assert_eq!(
        letters[0]["payload"]["payload"],
        json!({"n": 1}),
        "the event as committed"
    );
    let skipped: Vec<Value> = world
        .events("/w")
        .into_iter()
        .filter(|event| event["type"] == "events.iterate.com/stream/error-occurred")
        .collect();
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["payload"]["offsets"], json!([2]), "the fact names the event");
}

#[test]
fn defect_2_a_failing_filter_is_dead_lettered_in_skip_mode_and_halts_in_halt_mode() {
    let mut world = World::new(3);
    let filter = "type = 'data' ? $error('bad filter') : false";
    world.set_deployment("/w", insecure());
    for (key, mode) in [("skipper", "skip"), ("halter", "halt")] {
        world.append(
            "/w",
            json!({"type": CONFIGURED, "payload": {"subscriptionKey": key,
            "filter": {"jsonataCondition": filter},
            "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h",
                "delivery": {"start": "beginning", "onFailingEvent": mode}}}}),
        );
    }
    world.append("/w", json!({"type": "data"}));
    world.run(&["/w"], 30, &mut |_: &DeliveryPlan| Network::Deliver);
    let letters = letters(&mut world, "/w");
    assert_eq!(letters.len(), 1, "{letters:?}");
    assert_eq!(
        (letters[0]["subscriptionKey"].as_str(), letters[0]["offset"].as_u64()),
        (Some("skipper"), Some(3))
    );
    let halted = &world.stream("/w").state().subscriptions.outbound.by_key["halter"].delivery_halted;
    let halted = halted.clone().expect("a durable halt");
    assert_eq!(
        halted.after_offset, 2,
        "halted before the event whose filter failed: {halted:?}"
    );
    assert!(halted.error.unwrap().contains("bad filter"));
    assert!(world.external.is_empty(), "nothing was sent");
}

#[test]
fn defect_3_a_send_from_a_destroyed_lifetime_cannot_move_the_new_run() {
    let mut world = World::new(4);
    webhook(&mut world, "/w", "k", json!({}), json!({}));
    world.append("/w", json!({"type": "data"}));
    let now = world.now;
    let entropy = world.entropy();
    let old_plan = world.stream("/w").plan_delivery("k", now, entropy).unwrap().unwrap();
    assert_eq!((old_plan.after_offset, old_plan.through_offset), (0, 2));
    // DELETE while the send is in flight, then the same key again.
    world.stream("/w").destroy().unwrap();
    webhook(&mut world, "/w", "k", json!({}), json!({}));
    world.append("/w", json!({"type": "data"}));
    let new_row = world.stream("/w").runtime_rows().unwrap()["k"].clone();
    assert_eq!(
        (new_row.cursor_changed_at_source_offset, new_row.acknowledged_offset),
        (old_plan.stamp.cursor_changed_at_source_offset, 0),
        "same generation and cursor: only the lifetime tells the runs apart"
    );
    let entropy = world.entropy();
    let completion = world
        .stream("/w")
        .complete_delivery(&old_plan, Outcome::Delivered, now, entropy)
        .unwrap();
    assert_eq!(completion, Completion::Stale);
    assert_eq!(cursor(&mut world, "/w", "k"), 0, "the new run's cursor did not move");
    // A permanent failure from the old lifetime halts nothing either.
    let entropy = world.entropy();
    let completion = world
        .stream("/w")
        .complete_delivery(&old_plan, Outcome::permanent("HTTP 410"), now, entropy)
        .unwrap();
    assert_eq!(completion, Completion::Stale);
    assert!(world.stream("/w").state().subscriptions.outbound.by_key["k"]
        .delivery_halted
        .is_none());
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert_eq!(world.external.len(), 1, "the new lifetime delivers its own event");
}

/// Writes `count` non-matching events straight into the log (the same rows
/// an append writes), so a test can hold a million events in seconds.
fn bulk_log(file: &FileStream, first: u64, count: u64) {
    let connection = rusqlite::Connection::open(file.db()).unwrap();
    connection
        .execute(
            "WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2) \
             INSERT INTO events (event_offset, type, payload, metadata, idempotency_key, ephemeral, created_at_ms, source) \
             SELECT i, 'noise', '{}', '{}', NULL, 0, 1000, NULL FROM n",
            [first, first + count - 1],
        )
        .unwrap();
    connection
        .execute(
            "UPDATE stream_meta SET head = ?1, event_count = ?1",
            [first + count - 1],
        )
        .unwrap();
}

#[test]
fn s12_a_selective_filter_over_a_million_events_advances_a_bounded_window_per_call() {
    let file = FileStream::new("/big");
    let mut stream = file.open();
    stream.set_deployment(insecure());
    let configure = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "rare", "filter": {"eventTypes": ["rare"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}});
    stream
        .append_body(configure.to_string().as_bytes(), Authority::Public, &inputs(1_000, 1))
        .unwrap();
    drop(stream);
    bulk_log(&file, 2, 1_000_000);
    let mut stream = file.open();
    stream
        .append_body(br#"{"type":"rare"}"#, Authority::Public, &inputs(2_000, 2))
        .unwrap();
    let mut calls = 0;
    let mut previous = 0;
    let plan = loop {
        calls += 1;
        assert!(calls <= 200, "no progress");
        if let Some(plan) = stream.plan_delivery("rare", 3_000, [0; 16]).unwrap() {
            break plan;
        }
        let now = stream.runtime_rows().unwrap()["rare"].acknowledged_offset;
        assert!(now > previous, "each call persists how far it got");
        assert!(now - previous <= MAX_SCAN_ROWS, "each call scans at most the budget");
        previous = now;
    };
    assert_eq!(plan.events.len(), 1);
    assert_eq!(plan.events[0].offset, 1_000_002);
    assert_eq!(calls, 101, "1,000,001 offsets in windows of {MAX_SCAN_ROWS}");
}

#[test]
fn s12_a_range_read_stops_at_four_mebibytes_and_next_after_continues() {
    let mut stream = common::memory_stream("/fat");
    let fat = "x".repeat(250 * 1024);
    for i in 0..20 {
        let body = json!({"events": [{"type": "fat", "payload": {"i": i, "fill": fat}}]});
        stream
            .append_body(body.to_string().as_bytes(), Authority::Public, &inputs(1_000, 1))
            .unwrap();
    }
    let mut after = 0;
    let mut pages = Vec::new();
    while after < 20 {
        let read = stream
            .read_range(&RangeQuery {
                after,
                from_earliest: false,
                limit: 1000,
                include_ephemeral: false,
            })
            .unwrap();
        let bytes: usize = read.events.iter().map(|event| event.payload.get().len()).sum();
        assert!(bytes <= MAX_READ_BYTES, "a page holds at most the read budget");
        pages.push(read.events.len());
        after = read.next_after;
    }
    assert_eq!(pages.iter().sum::<usize>(), 20, "nothing skipped: {pages:?}");
    assert!(pages.len() >= 2, "the read was cut: {pages:?}");
}

#[test]
fn s12_delete_resets_every_in_memory_runtime() {
    let mut world = World::new(5);
    let throttle = json!({"throttle": {"maxDeliveries": 1, "windowMs": 86_400_000}, "onFailingEvent": "skip"});
    webhook(&mut world, "/w", "k", json!({}), throttle.clone());
    world.append("/w", json!({"type": "data"}));
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert_eq!(world.external.len(), 1, "the window's one delivery is spent");
    world.stream("/w").destroy().unwrap();
    webhook(&mut world, "/w", "k", json!({}), throttle);
    world.append("/w", json!({"type": "data"}));
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert_eq!(world.external.len(), 2, "a new lifetime starts a new window");
    assert!(letters(&mut world, "/w").is_empty(), "nothing throttled");
    let card = world.card("/w");
    assert_eq!(
        card["subscriptions"][0]["runtime"]["completionLatencyMs"]["count"], 1,
        "{card}"
    );
}

#[test]
fn s8_a_rebuild_keeps_a_configuration_that_no_longer_validates() {
    let file = FileStream::new("/old");
    let mut stream = file.open();
    stream
        .append_body(br#"{"type":"data"}"#, Authority::Public, &inputs(1_000, 1))
        .unwrap();
    drop(stream);
    // A configuration an older version accepted (zero attempts), written as
    // a restored backup would hold it; no cached state.
    let connection = rusqlite::Connection::open(file.db()).unwrap();
    let old = json!({"subscriptionKey": "legacy", "receiver": {"action": "webhook-post", "url": "https://example.com/h",
        "delivery": {"start": "beginning", "onFailingEvent": "halt", "retry": {"maxAttempts": 0, "initialBackoffMs": 1, "maxBackoffMs": 1}}}});
    connection
        .execute(
            "INSERT INTO events (event_offset, type, payload, metadata, ephemeral, created_at_ms) VALUES (2, ?1, ?2, '{}', 0, 1000)",
            [CONFIGURED, &old.to_string()],
        )
        .unwrap();
    connection
        .execute("UPDATE stream_meta SET head = 2, event_count = 2", [])
        .unwrap();
    connection.execute("DELETE FROM reduced_state", []).unwrap();
    drop(connection);
    let mut stream = file.open();
    assert_eq!(stream.state(), &stream.rebuild_state().unwrap());
    let card = stream.subscriptions_card().unwrap();
    let legacy = &card["subscriptions"][0];
    assert_eq!(legacy["subscriptionKey"], "legacy", "{card}");
    assert!(legacy["invalid"].as_str().unwrap().contains("maxAttempts"), "{card}");
    assert_eq!(
        legacy["runtime"]["acknowledgedOffset"], 0,
        "its runtime row and cursor stay"
    );
    assert_eq!(legacy["configuration"], old, "kept as it was written");
    assert_eq!(
        stream.due_subscriptions(i64::MAX).unwrap(),
        Vec::<String>::new(),
        "it refuses to run"
    );
    assert!(stream.plan_delivery("legacy", 5_000, [0; 16]).unwrap().is_none());
}

#[test]
fn s9_credentials_in_a_webhook_url_are_refused_even_when_insecure_urls_are_allowed() {
    let mut stream = common::memory_stream("/w");
    stream.set_deployment(insecure());
    let body = json!({"type": CONFIGURED, "payload": {"receiver": {"action": "webhook-post", "url": "http://user:secret@127.0.0.1:9/h",
        "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}});
    let error = stream
        .append_body(body.to_string().as_bytes(), Authority::Public, &inputs(1_000, 1))
        .unwrap_err();
    assert_eq!((error.status(), error.code()), (422, "invalid_subscription"));
    assert!(error.to_string().contains("credentials"), "{error}");
    assert_eq!(stream.lifetime(), None, "nothing committed");
}

#[test]
fn s9_a_receiver_the_deployment_no_longer_allows_fails_visibly_when_sending() {
    let mut world = World::new(6);
    webhook(&mut world, "/w", "k", json!({}), json!({}));
    world.append("/w", json!({"type": "data"}));
    world.set_deployment("/w", Deployment::default());
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert!(world.external.is_empty(), "nothing sent");
    let halted = world.stream("/w").state().subscriptions.outbound.by_key["k"]
        .delivery_halted
        .clone()
        .expect("a durable halt");
    assert!(halted.error.unwrap().contains("no longer allows"), "visible reason");
}

#[test]
fn s9_a_url_that_passed_is_checked_again_when_the_deployment_tightens() {
    let mut world = World::new(8);
    webhook(&mut world, "/w", "k", json!({}), json!({}));
    world.append("/w", json!({"type": "data"}));
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert_eq!(world.external.len(), 1, "sent while the deployment allowed it");
    // The same object, its URL remembered as allowed, under a stricter deployment.
    world.set_deployment("/w", Deployment::default());
    world.append("/w", json!({"type": "data"}));
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert_eq!(world.external.len(), 1, "nothing more sent");
    let halted = world.stream("/w").state().subscriptions.outbound.by_key["k"]
        .delivery_halted
        .clone()
        .expect("a durable halt");
    assert!(halted.error.unwrap().contains("must use https"), "visible reason");
}

#[test]
fn s7_a_source_event_near_the_size_limit_is_copied() {
    let mut world = World::new(7);
    world.append("/a", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "c",
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/b", "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}}));
    let fill = "y".repeat(256 * 1024 - 200);
    let appended = world.append("/a", json!({"type": "big", "payload": fill}));
    assert_eq!(appended[0]["offset"], 2);
    world.run(&["/a", "/b"], 30, &mut |_: &DeliveryPlan| Network::Deliver);
    assert!(world.stream("/a").state().subscriptions.outbound.by_key["c"]
        .delivery_halted
        .is_none());
    let copies: Vec<Value> = world.events("/b").into_iter().filter(|e| e["type"] == "big").collect();
    assert_eq!(copies.len(), 1, "the copy landed");
}
