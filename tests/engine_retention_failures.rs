//! Retention's failure paths (docs/design.md §2, §16, issue 29): an engine fact
//! whose key a public append took first; a trim step retried after the
//! head moved; a trim step that fails (the turn's deliveries go on);
//! ephemeral expiry after a trim deleted the cached oldest row; the storage
//! budget after deduplication and for control events.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::World;
use common::{call, inputs};
use serde_json::{json, Value};
use tributary::delivery::{Outcome, Turn};
use tributary::limits::{EPHEMERAL_RETENTION_MS, TRIM_INTERVAL_MS};
use tributary::route::Action;

const RETENTION: &str = "events.iterate.com/stream/retention-configured";
const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const ERROR_OCCURRED: &str = "events.iterate.com/stream/error-occurred";

fn configure(world: &mut World, path: &str, key: &str, receiver: Value) {
    world.append(
        path,
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "receiver": receiver}}),
    );
}

fn failing_webhook() -> Value {
    json!({"action": "webhook-post", "url": "https://example.com/hook",
           "delivery": {"start": "beginning", "onFailingEvent": "halt",
                        "retry": {"maxAttempts": 1, "initialBackoffMs": 1000, "maxBackoffMs": 1000}}})
}

fn log_receiver() -> Value {
    json!({"action": "log", "delivery": {"start": "beginning", "onFailingEvent": "halt"}})
}

fn data(world: &mut World, path: &str, n: usize) {
    let events: Vec<Value> = (0..n).map(|i| json!({"type": "tick", "payload": {"i": i}})).collect();
    world.append(path, json!({"events": events}));
}

fn info(world: &mut World, path: &str) -> Value {
    serde_json::to_value(world.stream(path).info().unwrap()).unwrap()
}

fn runtime(world: &mut World, path: &str, key: &str) -> Value {
    let card = world.card(path);
    card["subscriptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|subscription| subscription["subscriptionKey"] == key)
        .map(|subscription| subscription["runtime"].clone())
        .unwrap()
}

fn trim_facts(world: &mut World, path: &str) -> Vec<Value> {
    world
        .events(path)
        .into_iter()
        .filter(|event| event["type"] == ERROR_OCCURRED && event["payload"]["kind"] == "trimmed")
        .collect()
}

/// One alarm through the production turn, trim steps included: every
/// planned send is delivered. Returns the turn's trim steps.
fn alarm(world: &mut World, path: &str) -> Vec<tributary::retention::trim::TrimStep> {
    let now = world.now;
    let mut turn = Turn::begin(now);
    for _round in 0..100 {
        let entropy = world.entropy();
        let plans = turn.plan_due(world.stream(path), now, entropy).unwrap();
        if plans.is_empty() {
            break;
        }
        for plan in plans {
            let entropy = world.entropy();
            turn.complete(world.stream(path), &plan, Outcome::Delivered, now, entropy)
                .unwrap();
        }
    }
    turn.take_trim_steps()
}

/// A second connection to the stream's SQLite file, as a disk that
/// refuses a statement would.
fn sqlite(world: &World, path: &str) -> rusqlite::Connection {
    rusqlite::Connection::open(world.file(path)).unwrap()
}

/// A stream whose webhook `hook` halted at offset 0, with a healthy `log`
/// subscription beside it; returns hook's run offset.
fn halted_hook_and_healthy_log(world: &mut World, path: &str) -> u64 {
    configure(world, path, "hook", failing_webhook());
    configure(world, path, "audit", log_receiver());
    data(world, path, 1);
    let now = world.now;
    let mut turn = Turn::begin(now);
    let entropy = world.entropy();
    for plan in turn.plan_due(world.stream(path), now, entropy).unwrap() {
        let outcome = match plan.subscription_key.as_str() {
            "hook" => Outcome::permanent("receiver says no"),
            _ => Outcome::Delivered,
        };
        let entropy = world.entropy();
        turn.complete(world.stream(path), &plan, outcome, now, entropy).unwrap();
    }
    let card = world.card(path);
    let hook = card["subscriptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|subscription| subscription["subscriptionKey"] == "hook")
        .unwrap()
        .clone();
    assert!(hook["deliveryHalted"].is_object(), "{card}");
    assert_eq!(hook["runtime"]["acknowledgedOffset"], 0);
    hook["runtime"]["runOffset"].as_u64().unwrap()
}

#[test]
fn a_public_append_of_a_trim_fact_key_is_refused() {
    let body = br#"{"type":"x","idempotencyKey":"trimmed:1:0:hook"}"#;
    let error = tributary::reserved_keys::check_public_append(body).unwrap_err();
    assert_eq!(error.prefix, "trimmed:");
    let batch = br#"{"events":[{"type":"x"},{"type":"y","idempotencyKey":"trimmed:9"}]}"#;
    assert_eq!(
        tributary::reserved_keys::check_public_append(batch).unwrap_err().index,
        Some(1)
    );
}

#[test]
fn a_trim_fact_key_taken_by_an_append_never_wedges_the_stream() {
    let mut world = World::new(1);
    let run = halted_hook_and_healthy_log(&mut world, "/w");
    // Taken before the prefix was reserved (the engine appends as the router would not let a caller now).
    world.append(
        "/w",
        json!({"type": "squat", "payload": {}, "idempotencyKey": format!("trimmed:{run}:0:hook")}),
    );
    world.append(
        "/w",
        json!({"type": RETENTION, "payload": {"maxEvents": 10, "trimPastSubscribers": true}}),
    );
    data(&mut world, "/w", 100);
    let head = info(&mut world, "/w")["head"].as_u64().unwrap();
    for _alarm in 0..20 {
        let steps = alarm(&mut world, "/w");
        assert!(steps.iter().all(|step| step.error.is_none()), "{steps:?}");
        world.now += TRIM_INTERVAL_MS;
    }
    assert_eq!(
        runtime(&mut world, "/w", "audit")["lag"],
        0,
        "the healthy subscription delivered everything"
    );
    let first = info(&mut world, "/w")["firstOffset"].as_u64().unwrap();
    assert!(
        first + 20 > head,
        "trimmed to about 10 events: first {first}, head {head}"
    );
    let facts = trim_facts(&mut world, "/w");
    let hook_fact = facts
        .iter()
        .find(|fact| fact["payload"]["subscriptionKey"] == "hook" && fact["payload"]["afterOffset"] == 0)
        .expect("hook's pass has its fact");
    let key = hook_fact["idempotencyKey"].as_str().unwrap();
    assert!(
        key.starts_with(&format!("trimmed:{run}:0:hook@")),
        "moved under its prefix: {key}"
    );
}

#[test]
fn a_trim_step_retried_after_the_head_moved_keeps_its_first_fact() {
    let mut world = World::new(2);
    halted_hook_and_healthy_log(&mut world, "/r");
    world.append(
        "/r",
        json!({"type": RETENTION, "payload": {"maxEvents": 10, "trimPastSubscribers": true}}),
    );
    data(&mut world, "/r", 100);
    // The fact commits; the trim's transaction does not (a crash between them).
    let disk = sqlite(&world, "/r");
    disk.execute_batch("CREATE TRIGGER refuse BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'disk says no'); END;")
        .unwrap();
    let now = world.now;
    let entropy = world.entropy();
    assert!(world.stream("/r").trim_step(now, entropy).is_err());
    let facts: Vec<Value> = trim_facts(&mut world, "/r")
        .into_iter()
        .filter(|fact| fact["payload"]["subscriptionKey"] == "hook")
        .collect();
    assert_eq!(facts.len(), 1, "{facts:?}");
    let announced = facts[0]["payload"]["throughOffset"].as_u64().unwrap();
    disk.execute_batch("DROP TRIGGER refuse;").unwrap();
    world.crash();
    // The head moves before the retry: the same pass now reaches further.
    data(&mut world, "/r", 50);
    world.now += TRIM_INTERVAL_MS;
    let entropy = world.entropy();
    let now = world.now;
    let step = world.stream("/r").trim_step(now, entropy).unwrap();
    assert_eq!(step.through, announced, "the trim stays within what its fact announced");
    let facts = trim_facts(&mut world, "/r");
    let hook_facts: Vec<&Value> = facts
        .iter()
        .filter(|fact| fact["payload"]["subscriptionKey"] == "hook" && fact["payload"]["afterOffset"] == 0)
        .collect();
    assert_eq!(hook_facts.len(), 1, "one fact for one pass: {facts:?}");
    assert_eq!(runtime(&mut world, "/r", "hook")["acknowledgedOffset"], announced);
}

#[test]
fn a_failing_trim_step_never_stops_the_turn_nor_spins_the_alarm() {
    let mut world = World::new(3);
    configure(&mut world, "/f", "audit", log_receiver());
    world.append("/f", json!({"type": RETENTION, "payload": {"maxEvents": 5}}));
    data(&mut world, "/f", 50);
    alarm(&mut world, "/f");
    world.now += TRIM_INTERVAL_MS;
    data(&mut world, "/f", 10);
    assert_eq!(runtime(&mut world, "/f", "audit")["lag"], 10);
    sqlite(&world, "/f")
        .execute_batch("CREATE TRIGGER refuse BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'disk says no'); END;")
        .unwrap();
    let steps = alarm(&mut world, "/f");
    assert!(
        steps
            .iter()
            .any(|step| step.error.as_deref().is_some_and(|e| e.contains("disk says no"))),
        "{steps:?}"
    );
    assert_eq!(
        runtime(&mut world, "/f", "audit")["lag"],
        0,
        "the deliveries of the turn went on"
    );
    let now = world.now;
    assert!(
        !world.stream("/f").trim_due(now).unwrap(),
        "a failed round waits for the next one"
    );
    assert!(world.stream("/f").trim_due(now + TRIM_INTERVAL_MS).unwrap());
}

#[test]
fn a_key_over_the_limit_still_makes_its_fact() {
    let mut world = World::new(4);
    let key = "k".repeat(256);
    configure(&mut world, "/l", &key, failing_webhook());
    world.append(
        "/l",
        json!({"type": RETENTION, "payload": {"maxEvents": 10, "trimPastSubscribers": true}}),
    );
    data(&mut world, "/l", 40);
    let steps = alarm(&mut world, "/l");
    assert!(steps.iter().all(|step| step.error.is_none()), "{steps:?}");
    let facts = trim_facts(&mut world, "/l");
    assert_eq!(facts.len(), 1, "{facts:?}");
    assert!(facts[0]["idempotencyKey"].as_str().unwrap().len() <= 256);
    assert!(info(&mut world, "/l")["firstOffset"].as_u64().unwrap() > 20);
}

#[test]
fn ephemeral_expiry_stays_scheduled_after_a_trim_deleted_the_oldest_one() {
    let mut world = World::new(5);
    world.append("/e", json!({"type": RETENTION, "payload": {"maxEvents": 100}}));
    world.append("/e", json!({"type": "blip", "ephemeral": true}));
    data(&mut world, "/e", 150);
    // The count trims the first blip (and the rest) within the hour.
    for _alarm in 0..5 {
        alarm(&mut world, "/e");
        world.now += TRIM_INTERVAL_MS;
    }
    assert!(info(&mut world, "/e")["firstOffset"].as_u64().unwrap() > 2);
    // Later than the first blip by more than expiry's slack (a sixteenth of the hour).
    world.now += 10 * 60_000;
    let late = world.append("/e", json!({"type": "blip", "ephemeral": true}));
    let late_offset = late[0]["offset"].as_u64().unwrap();
    world.append("/e", json!({"type": "tick"}));
    let appended_at = world.now;
    let gone = |world: &mut World| {
        let (status, _) = call(world.stream("/e"), Action::ReadOne(late_offset), "", "", &inputs(0, 0));
        status == 410
    };
    for _wake in 0..5 {
        let due = world.stream("/e").next_due_at().unwrap();
        let due = due.unwrap_or_else(|| panic!("the late blip's expiry is no longer scheduled (now {})", world.now));
        world.now = world.now.max(due);
        alarm(&mut world, "/e");
        if gone(&mut world) {
            assert!(
                world.now >= appended_at + EPHEMERAL_RETENTION_MS,
                "never early: {}",
                world.now
            );
            return;
        }
    }
    panic!("the late blip outlived its hour");
}

fn budgeted(world: &mut World, path: &str, budget: u64) {
    let deployment = tributary::deployment::Deployment {
        storage_budget_bytes: Some(budget),
        ..Default::default()
    };
    world.set_deployment(path, deployment);
}

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

/// Appends keyed 2 KB events until the budget refuses one; the last
/// committed body.
fn fill(world: &mut World, path: &str) -> Value {
    let pad = "y".repeat(2000);
    let mut last = None;
    for i in 0..500 {
        let body = json!({"type": "big", "payload": {"i": i, "pad": pad}, "idempotencyKey": format!("k{i}")});
        let (status, answer) = post(world, path, &body);
        if status == 507 {
            return last.expect("something committed first");
        }
        assert_eq!(status, 201, "{answer}");
        last = Some(body);
    }
    panic!("the budget never refused");
}

#[test]
fn near_the_budget_a_retry_of_a_committed_append_is_its_duplicate() {
    let mut world = World::new(6);
    budgeted(&mut world, "/b", 200_000);
    let last = fill(&mut world, "/b");
    let (status, answer) = post(&mut world, "/b", &last);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["deduplicated"], true);
    let batch = json!({"events": [last, {"type": "new"}]});
    let (status, answer) = post(&mut world, "/b", &batch);
    assert_eq!(
        (status, answer["error"]["code"].clone()),
        (507, json!("stream_full")),
        "new data still needs room"
    );
}

#[test]
fn near_the_budget_only_what_makes_room_commits() {
    let mut world = World::new(7);
    configure(&mut world, "/c", "old", log_receiver());
    budgeted(&mut world, "/c", 200_000);
    fill(&mut world, "/c");
    let head = info(&mut world, "/c")["head"].as_u64().unwrap();
    let reason = "r".repeat(200_000);
    let refused = [
        json!({"type": "events.iterate.com/stream/events-invalidated", "payload": {"afterOffset": 0, "reason": reason}}),
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "new", "receiver": log_receiver()}}),
        json!({"type": "events.iterate.com/stream/subscription-cursor-set", "payload": {"subscriptionKey": "old", "afterOffset": 0}}),
    ];
    for body in refused {
        let (status, answer) = post(&mut world, "/c", &body);
        assert_eq!(
            (status, answer["error"]["code"].clone()),
            (507, json!("stream_full")),
            "{body}"
        );
    }
    assert_eq!(
        info(&mut world, "/c")["head"].as_u64().unwrap(),
        head,
        "nothing committed"
    );
    let removed = json!({"type": "events.iterate.com/stream/subscription-removed",
                         "payload": {"subscriptionKey": "old", "reason": "requested"}});
    assert_eq!(post(&mut world, "/c", &removed).0, 201);
    let retention = json!({"type": RETENTION, "payload": {"maxEvents": 10}});
    assert_eq!(post(&mut world, "/c", &retention).0, 201);
}

#[test]
fn a_pass_never_cuts_a_digest_awaiting_its_send() {
    let mut world = World::new(8);
    let digest = json!({"action": "webhook-post", "url": "https://example.com/hook",
        "delivery": {"start": "beginning", "onFailingEvent": "skip", "aggregate": {"windowMs": 60_000, "maxBatch": 20},
                     "retry": {"maxAttempts": 5, "initialBackoffMs": 1000, "maxBackoffMs": 1000}, "timeoutMs": 1000}});
    configure(&mut world, "/d", "digest", digest);
    data(&mut world, "/d", 20);
    // The digest is planned and its send lost (the object died with it).
    let now = world.now;
    let mut turn = Turn::begin(now);
    let entropy = world.entropy();
    let plans = turn.plan_due(world.stream("/d"), now, entropy).unwrap();
    let lost = plans
        .iter()
        .find(|plan| plan.subscription_key == "digest")
        .expect("a digest");
    let (after, through) = (lost.after_offset, lost.through_offset);
    assert!(through > after + 10, "a digest of many events: ({after}..{through}]");
    world.crash();
    world.append(
        "/d",
        json!({"type": RETENTION, "payload": {"maxEvents": 5, "trimPastSubscribers": true}}),
    );
    data(&mut world, "/d", 30);
    world.now += 10_000;
    let now = world.now;
    let entropy = world.entropy();
    let step = world.stream("/d").trim_step(now, entropy).unwrap();
    assert!(step.through <= after, "never into the pending digest: {step:?}");
    assert_eq!(runtime(&mut world, "/d", "digest")["acknowledgedOffset"], after);
}
