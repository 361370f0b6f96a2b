//! Retention (docs/design.md §16) on real SQLite: trimming by count, age and
//! bytes; what pins the log (a lagging or halted subscription); the
//! `trimmed` fact before a cursor is passed; ephemeral expiry; 410 for what
//! was trimmed; the storage budget's 507; snapshot + tail = live state.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use common::{call, inputs};
use serde_json::{json, Value};
use tributary::delivery::Outcome;
use tributary::limits::{EPHEMERAL_RETENTION_MS, TRIM_STEP_ROWS};
use tributary::route::Action;

const RETENTION: &str = "events.iterate.com/stream/retention-configured";

fn retain(world: &mut World, path: &str, retention: Value) {
    world.append(path, json!({"type": RETENTION, "payload": retention}));
}

fn data(world: &mut World, path: &str, n: usize) {
    for chunk in (0..n).collect::<Vec<_>>().chunks(1000) {
        let events: Vec<Value> = chunk
            .iter()
            .map(|i| json!({"type": "tick", "payload": {"i": i}}))
            .collect();
        world.append(path, json!({"events": events}));
    }
}

/// Trim steps until none is due (bounded).
fn trim_all(world: &mut World, path: &str) -> u64 {
    let mut trimmed = 0;
    for _ in 0..10_000 {
        let now = world.now;
        let entropy = world.entropy();
        let stream = world.stream(path);
        if !stream.trim_due(now).unwrap() {
            return trimmed;
        }
        let step = stream.trim_step(now, entropy).unwrap();
        trimmed += step.trimmed;
        if step.trimmed == 0 && step.expired == 0 && !step.more {
            return trimmed;
        }
    }
    panic!("trimming never settled");
}

fn info(world: &mut World, path: &str) -> Value {
    let stream = world.stream(path);
    serde_json::to_value(stream.info().unwrap()).unwrap()
}

fn read(world: &mut World, path: &str, query: &str) -> (u16, Value) {
    call(world.stream(path), Action::ReadRange, query, "", &inputs(0, 0))
}

fn due(world: &mut World, path: &str) -> bool {
    let now = world.now;
    world.stream(path).trim_due(now).unwrap()
}

/// Appends as the API does; (status, body).
fn post(world: &mut World, path: &str, body: &Value) -> (u16, Value) {
    let now = world.now;
    call(
        world.stream(path),
        Action::Append,
        "",
        &body.to_string(),
        &inputs(now, 1),
    )
}

fn rows(world: &mut World, path: &str) -> u64 {
    info(world, path)["eventCount"].as_u64().unwrap()
}

#[test]
fn max_events_trims_to_the_newest_and_reads_before_first_offset_are_410() {
    let mut world = World::new(1);
    retain(&mut world, "/r", json!({"maxEvents": 100}));
    data(&mut world, "/r", 2000);
    let trimmed = trim_all(&mut world, "/r");
    assert_eq!(trimmed, 1901, "the configure event and 1900 ticks go");
    let info = info(&mut world, "/r");
    assert_eq!(info["head"], 2001);
    assert_eq!(info["firstOffset"], 1902);
    assert_eq!(info["eventCount"], 100);
    assert_eq!(
        info["retention"],
        json!({"maxEvents": 100, "trimPastSubscribers": false})
    );
    assert_eq!(info["trimmedEvents"], 1901);

    let (status, body) = read(&mut world, "/r", "after=0");
    assert_eq!(status, 410, "{body}");
    assert_eq!(body["error"]["code"], "trimmed");
    assert_eq!(body["error"]["details"]["firstOffset"], 1902);
    let (status, body) = read(&mut world, "/r", "after=1901&limit=1");
    assert_eq!((status, body["events"][0]["offset"].clone()), (200, json!(1902)));
    for query in ["after=earliest&limit=1", "limit=1"] {
        let (status, body) = read(&mut world, "/r", query);
        assert_eq!(
            (status, body["events"][0]["offset"].clone()),
            (200, json!(1902)),
            "{query}"
        );
    }
    let (status, body) = call(world.stream("/r"), Action::ReadOne(5), "", "", &inputs(0, 0));
    assert_eq!((status, body["error"]["code"].clone()), (410, json!("trimmed")));
    let (status, _) = call(world.stream("/r"), Action::ReadOne(2001), "", "", &inputs(0, 0));
    assert_eq!(status, 200);
    let (status, body) = call(world.stream("/r"), Action::ReadOne(2002), "", "", &inputs(0, 0));
    assert_eq!((status, body["error"]["code"].clone()), (404, json!("event_not_found")));
}

#[test]
fn trimming_is_bounded_per_step_and_waits_for_its_slack() {
    let mut world = World::new(2);
    retain(&mut world, "/r", json!({"maxEvents": 10}));
    data(&mut world, "/r", 5000);
    let now = world.now;
    let step = world.stream("/r").trim_step(now, [0; 16]).unwrap();
    assert_eq!(step.trimmed, TRIM_STEP_ROWS, "a step trims at most its budget");
    assert!(step.more, "and says more is due");
    assert!(due(&mut world, "/r"), "a round stopped by its budget goes on at once");
    trim_all(&mut world, "/r");
    assert_eq!(rows(&mut world, "/r"), 10);
    // Within a sixteenth of the limit (at least one event) nothing is due.
    data(&mut world, "/r", 1);
    assert!(!due(&mut world, "/r"));
    data(&mut world, "/r", 1);
    // Past it, the next round starts a second after the last one.
    assert!(!due(&mut world, "/r"));
    let next = world.stream("/r").next_due_at().unwrap();
    assert_eq!(next, Some(world.now + tributary::limits::TRIM_INTERVAL_MS));
    world.now += tributary::limits::TRIM_INTERVAL_MS;
    assert!(due(&mut world, "/r"));
}

#[test]
fn max_age_trims_what_is_older_and_the_alarm_is_due_when_it_ages_out() {
    let mut world = World::new(3);
    retain(&mut world, "/r", json!({"maxAgeMs": 60_000}));
    data(&mut world, "/r", 10);
    world.now += 30_000;
    data(&mut world, "/r", 5);
    assert!(!due(&mut world, "/r"));
    let due = world.stream("/r").next_due_at().unwrap().unwrap();
    // The oldest row plus the age plus its slack (a sixteenth).
    assert_eq!(due, 1_000_000 + 60_000 + 3_750);
    world.now = due;
    assert_eq!(trim_all(&mut world, "/r"), 11);
    assert_eq!(info(&mut world, "/r")["firstOffset"], 12);
}

#[test]
fn max_bytes_keeps_the_newest_rows_within_the_budget() {
    let mut world = World::new(4);
    retain(&mut world, "/r", json!({"maxBytes": 10_000}));
    let pad = "x".repeat(500);
    for i in 0..100 {
        world.append("/r", json!({"type": "big", "payload": {"i": i, "pad": pad}}));
    }
    let before = info(&mut world, "/r")["bytes"].as_u64().unwrap();
    assert!(before > 50_000, "{before}");
    trim_all(&mut world, "/r");
    let after = info(&mut world, "/r");
    let bytes = after["bytes"].as_u64().unwrap();
    assert!(bytes <= 10_000 && bytes > 9_000, "{bytes}");
    // The count survives a restart: the saved checkpoint plus the tail.
    world.crash();
    assert_eq!(info(&mut world, "/r")["bytes"].as_u64().unwrap(), bytes);
}

fn configure_webhook(world: &mut World, path: &str, key: &str) {
    world.append(
        path,
        json!({"type": "events.iterate.com/stream/subscription-configured", "payload": {
            "subscriptionKey": key,
            "receiver": {"action": "webhook-post", "url": "https://example.com/hook",
                         "delivery": {"start": "beginning", "onFailingEvent": "halt", "retry": {"maxAttempts": 1, "initialBackoffMs": 1000, "maxBackoffMs": 1000}}}}}),
    );
}

#[test]
fn a_lagging_or_halted_subscription_pins_the_log_until_it_moves() {
    let mut world = World::new(5);
    configure_webhook(&mut world, "/r", "w");
    retain(&mut world, "/r", json!({"maxEvents": 10}));
    data(&mut world, "/r", 100);
    assert_eq!(trim_all(&mut world, "/r"), 0, "nothing delivered yet: nothing trimmed");
    assert!(
        !due(&mut world, "/r"),
        "a pinned log schedules no trim step (no alarm storm)"
    );
    // Halt it: the halted subscription still pins.
    let failure = Outcome::permanent("receiver says no");
    world.alarm("/r", &mut |_| Network::Fail(failure.clone()));
    let card = world.card("/r");
    assert!(card["subscriptions"][0]["deliveryHalted"].is_object(), "{card}");
    assert_eq!(trim_all(&mut world, "/r"), 0);
    // Resumed and delivered, the log is trimmed up to its cursor only.
    world.append(
        "/r",
        json!({"type": "events.iterate.com/stream/subscription-delivery-resumed", "payload": {"subscriptionKey": "w"}}),
    );
    world.run(&["/r"], 100, &mut |_| Network::Deliver);
    let delivered: Vec<u64> = world
        .external
        .iter()
        .flat_map(|(_, _, offsets)| offsets.clone())
        .collect();
    assert!(
        delivered.contains(&3),
        "every tick delivered before trimming: {delivered:?}"
    );
    trim_all(&mut world, "/r");
    let first = info(&mut world, "/r")["firstOffset"].as_u64().unwrap();
    let cursor = world.card("/r")["subscriptions"][0]["runtime"]["acknowledgedOffset"]
        .as_u64()
        .unwrap();
    assert!(
        first <= cursor + 1,
        "never past the cursor: first {first}, cursor {cursor}"
    );
    assert!(rows(&mut world, "/r") <= 12);
}

#[test]
fn trim_past_subscribers_writes_the_fact_before_the_cursor_moves() {
    let mut world = World::new(6);
    configure_webhook(&mut world, "/r", "w");
    retain(&mut world, "/r", json!({"maxEvents": 10, "trimPastSubscribers": true}));
    data(&mut world, "/r", 50);
    trim_all(&mut world, "/r");
    let info = info(&mut world, "/r");
    let first = info["firstOffset"].as_u64().unwrap();
    let head = info["head"].as_u64().unwrap();
    assert!(head - first < 12, "trimmed anyway: first {first} head {head}");
    let facts: Vec<Value> = world
        .events("/r")
        .into_iter()
        .filter(|event| event["type"] == "events.iterate.com/stream/error-occurred")
        .collect();
    assert_eq!(facts.len(), 1, "{facts:?}");
    let fact = &facts[0]["payload"];
    assert_eq!(fact["kind"], "trimmed");
    assert_eq!(fact["subscriptionKey"], "w");
    assert_eq!(fact["afterOffset"], 0);
    assert_eq!(fact["throughOffset"].as_u64().unwrap() + 1, first);
    let card = world.card("/r");
    let subscription = &card["subscriptions"][0];
    assert_eq!(subscription["trimmed"]["eventsPassed"].as_u64().unwrap(), first - 1);
    assert_eq!(subscription["trimmed"]["lastFactOffset"], facts[0]["offset"]);
    assert_eq!(
        subscription["runtime"]["acknowledgedOffset"].as_u64().unwrap(),
        first - 1
    );
    let metrics = world.stream("/r").metrics_text();
    assert!(metrics.contains("tributary_retention_passes_total 1"), "{metrics}");
    // Delivery goes on from the first retained event.
    world.run(&["/r"], 100, &mut |_| Network::Deliver);
    let delivered: Vec<u64> = world
        .external
        .iter()
        .flat_map(|(_, _, offsets)| offsets.clone())
        .collect();
    assert_eq!(delivered.first().copied(), Some(first), "{delivered:?}");
}

#[test]
fn ephemeral_rows_expire_after_an_hour_whatever_the_retention() {
    let mut world = World::new(7);
    world.append("/r", json!({"type": "kept"}));
    world.append("/r", json!({"type": "blip", "ephemeral": true}));
    world.append("/r", json!({"type": "kept"}));
    assert!(!due(&mut world, "/r"));
    let due = world.stream("/r").next_due_at().unwrap().unwrap();
    assert!(due > world.now + EPHEMERAL_RETENTION_MS, "{due}");
    world.now = due;
    trim_all(&mut world, "/r");
    assert_eq!(rows(&mut world, "/r"), 2);
    let (status, body) = call(world.stream("/r"), Action::ReadOne(2), "", "", &inputs(0, 0));
    assert_eq!((status, body["error"]["code"].clone()), (410, json!("trimmed")));
    assert_eq!(
        info(&mut world, "/r")["firstOffset"],
        1,
        "an expired ephemeral row is no trim point"
    );
    assert_eq!(
        world.stream("/r").next_due_at().unwrap(),
        None,
        "nothing left to expire"
    );
}

#[test]
fn a_cursor_set_before_first_offset_is_410_and_changes_nothing() {
    let mut world = World::new(8);
    configure_webhook(&mut world, "/r", "w");
    retain(&mut world, "/r", json!({"maxEvents": 5, "trimPastSubscribers": true}));
    data(&mut world, "/r", 40);
    trim_all(&mut world, "/r");
    let first = info(&mut world, "/r")["firstOffset"].as_u64().unwrap();
    let head = info(&mut world, "/r")["head"].clone();
    let body = json!({"type": "events.iterate.com/stream/subscription-cursor-set",
                      "payload": {"subscriptionKey": "w", "afterOffset": first - 2}});
    let (status, answer) = post(&mut world, "/r", &body);
    assert_eq!(status, 410, "{answer}");
    assert_eq!(answer["error"]["details"]["firstOffset"], first);
    assert_eq!(info(&mut world, "/r")["head"], head, "nothing committed");
    let body = json!({"type": "events.iterate.com/stream/subscription-cursor-set",
                      "payload": {"subscriptionKey": "w", "afterOffset": first - 1}});
    let (status, _) = post(&mut world, "/r", &body);
    assert_eq!(status, 201, "the first retained event is a valid start");
}

#[test]
fn retention_configured_is_validated_before_commit() {
    let mut world = World::new(9);
    world.append("/r", json!({"type": "a"}));
    for (payload, field) in [
        (json!({"maxEvents": 0}), "maxEvents"),
        (json!({"maxAgeMs": 1000}), "maxAgeMs"),
        (json!({"maxBytes": "big"}), "maxBytes"),
        (json!({"trimPastSubscribers": 1}), "trimPastSubscribers"),
        (json!({"maxEvents": 10, "keep": "forever"}), "payload"),
        (json!("everything"), "payload"),
    ] {
        let body = json!({"type": RETENTION, "payload": payload});
        let (status, answer) = post(&mut world, "/r", &body);
        assert_eq!(status, 422, "{payload}: {answer}");
        assert_eq!(answer["error"]["code"], "invalid_control_event");
        assert_eq!(answer["error"]["details"]["field"], field, "{payload}");
    }
    assert_eq!(info(&mut world, "/r")["head"], 1, "nothing committed");
    assert_eq!(info(&mut world, "/r")["retention"], Value::Null);
    // The latest applies; an empty one keeps everything again.
    retain(&mut world, "/r", json!({"maxEvents": 3}));
    retain(&mut world, "/r", json!({}));
    assert_eq!(info(&mut world, "/r")["retention"], Value::Null);
}

#[test]
fn past_the_storage_budget_data_is_507_and_control_events_still_commit() {
    let mut world = World::new(10);
    let deployment = tributary::deployment::Deployment {
        storage_budget_bytes: Some(200_000),
        ..Default::default()
    };
    world.set_deployment("/r", deployment);
    let pad = "y".repeat(2000);
    let mut refused = None;
    for i in 0..200 {
        let body = json!({"type": "big", "payload": {"i": i, "pad": pad}});
        let (status, answer) = post(&mut world, "/r", &body);
        if status != 201 {
            refused = Some((status, answer));
            break;
        }
    }
    let (status, answer) = refused.expect("the budget refuses appends");
    assert_eq!(status, 507, "{answer}");
    assert_eq!(answer["error"]["code"], "stream_full");
    assert_eq!(answer["error"]["details"]["budgetBytes"], 200_000);
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("retention-configured"));
    let head = info(&mut world, "/r")["head"].as_u64().unwrap();
    // The way out: a retention, which commits; trimming makes room.
    retain(&mut world, "/r", json!({"maxEvents": 10}));
    trim_all(&mut world, "/r");
    assert_eq!(info(&mut world, "/r")["head"].as_u64().unwrap(), head + 1);
    let body = json!({"type": "big", "payload": {"pad": pad}});
    let (status, answer) = post(&mut world, "/r", &body);
    assert_eq!(status, 201, "{answer}");
}

#[test]
fn a_rebuild_from_the_snapshot_equals_the_live_state() {
    let mut world = World::new(11);
    configure_webhook(&mut world, "/r", "w");
    configure_webhook(&mut world, "/r", "gone");
    retain(&mut world, "/r", json!({"maxEvents": 5, "trimPastSubscribers": true}));
    world.append(
        "/r",
        json!({"type": "events.iterate.com/stream/subscription-removed", "payload": {"subscriptionKey": "gone"}}),
    );
    data(&mut world, "/r", 30);
    trim_all(&mut world, "/r");
    let live = world.stream("/r").state().clone();
    assert!(live.retention.is_some() && live.subscriptions.outbound.by_key.contains_key("w"));
    let rebuilt = world.stream("/r").rebuild_state().unwrap();
    assert_eq!(rebuilt, live);
}

#[test]
fn live_tails_before_first_offset_are_410_at_open_and_a_catch_up_behind_a_trim_says_so() {
    use tributary::live::{LiveQuery, Transport};
    let mut world = World::new(12);
    retain(&mut world, "/r", json!({"maxEvents": 10}));
    data(&mut world, "/r", 5);
    // Opened at the beginning, not yet caught up, when the log is trimmed.
    let query = LiveQuery::parse("after=0", None).unwrap();
    let (connection, _) = world
        .stream("/r")
        .open_live(&query, Transport::WebSocket, 0, [1; 16])
        .unwrap();
    data(&mut world, "/r", 100);
    trim_all(&mut world, "/r");
    let first = info(&mut world, "/r")["firstOffset"].as_u64().unwrap();
    let catch_up = world
        .stream("/r")
        .live_catch_up(&connection.connection_key, 1 << 20)
        .unwrap();
    let frame: Value = serde_json::from_str(&catch_up.frames[0]).unwrap();
    assert_eq!(
        frame,
        json!({"type": "trimmed", "afterOffset": 0, "firstOffset": first})
    );
    let events: Value = serde_json::from_str(&catch_up.frames[1]).unwrap();
    assert_eq!(events["events"][0]["offset"].as_u64().unwrap(), first);
    // A new tail before the first offset is refused; `earliest` starts there.
    for (raw, last_event_id) in [("after=3", None), ("", Some("3"))] {
        let query = LiveQuery::parse(raw, last_event_id).unwrap();
        let refused = world
            .stream("/r")
            .open_live(&query, Transport::Sse, 0, [2; 16])
            .unwrap_err();
        assert!(matches!(refused, tributary::live::LiveError::Trimmed { first_offset, .. } if first_offset == first));
    }
    for raw in ["after=earliest", ""] {
        let query = LiveQuery::parse(raw, None).unwrap();
        let (connection, _) = world
            .stream("/r")
            .open_live(&query, Transport::Sse, 0, [3; 16])
            .unwrap();
        assert_eq!(connection.delivered_through_offset, first - 1, "{raw}");
    }
}
