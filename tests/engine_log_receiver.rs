//! The log receiver (docs/design.md §15.1): `receiver: {action: "log"}` plans a
//! batch of events like itx-call, the shell writes one JSON line per event
//! (`tributary::delivery::log_lines`) and the cursor moves past them; a
//! failing transform follows `onFailingEvent`; bad configurations are 422
//! naming the field. Natively, on real SQLite.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use common::{append, log_receiver, memory_stream};
use serde_json::{json, Value};
use tributary::delivery::log_lines;
use tributary::delivery::{Completion, DeliveryPlan, Planned, Turn};

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

fn orders(from: u64, count: u64) -> Value {
    json!({"events": (from..from + count).map(|n| json!({"type": "order", "payload": {"n": n}})).collect::<Vec<_>>()})
}

/// The one plan the alarm makes for `key` now.
fn plan_now(world: &mut World, path: &str, key: &str) -> DeliveryPlan {
    let now = world.now;
    let entropy = world.entropy();
    let mut turn = Turn::begin(now);
    match turn.plan(world.stream(path), key, now, entropy).unwrap() {
        Planned::Send(plan) => *plan,
        other => panic!("expected a plan for {key}, got {other:?}"),
    }
}

#[test]
fn s15_1_a_log_receiver_writes_one_line_per_transformed_event_and_the_cursor_passes_them() {
    let mut world = World::new(3);
    world.append("/shop", orders(1, 3));
    world.append("/shop", json!({"type": "noise"}));
    world.append(
        "/shop",
        log_receiver("audit", "halt", Some("{'payload': {'doubled': payload.n * 2}}")),
    );
    world.append("/shop", orders(4, 2));
    let plan = plan_now(&mut world, "/shop", "audit");
    // One batch for every matching event, as itx-call plans (not one a send).
    let offsets: Vec<u64> = plan.events.iter().map(|event| event.offset).collect();
    assert_eq!(offsets, vec![1, 2, 3, 6, 7]);
    assert_eq!(plan.through_offset, 7);
    let lines: Vec<Value> = log_lines::lines(&plan)
        .iter()
        .map(|line| {
            assert!(!line.contains('\n'), "one line each: {line}");
            serde_json::from_str(line).unwrap()
        })
        .collect();
    assert_eq!(lines.len(), 5);
    let first = &lines[0];
    assert_eq!(first["tributary"], "log-receiver");
    assert_eq!(first["deliveryId"], json!(plan.delivery_id));
    assert_eq!(first["subscriptionKey"], "audit");
    assert_eq!(first["stream"], "/shop");
    assert_eq!(first["project"], json!(plan.stamp.source_project_id));
    assert_eq!(first["streamId"], json!(plan.stamp.stream_id));
    assert_eq!(first["offset"], 1);
    assert_eq!(first["event"]["type"], "order");
    assert_eq!(
        first["event"]["payload"],
        json!({"doubled": 2}),
        "the transform shaped it"
    );
    assert_eq!(lines[4]["offset"], 7);
    assert_eq!(lines[4]["event"]["payload"], json!({"doubled": 10}));
    let completion = world.perform("/shop", plan, Network::Deliver);
    assert_eq!(completion, Some(Completion::Acknowledged { through: 7 }));
    let row = world.runtime("/shop", "audit");
    assert_eq!(row["acknowledgedOffset"], 7);
    assert_eq!(row["lag"], 0);
    let card = world.card("/shop");
    assert_eq!(card["subscriptions"][0]["configuration"]["receiver"]["action"], "log");
}

#[test]
fn s15_1_a_crash_before_the_acknowledgement_writes_the_same_delivery_again() {
    let mut world = World::new(5);
    world.append("/shop", log_receiver("audit", "skip", None));
    world.append("/shop", orders(1, 2));
    let first = plan_now(&mut world, "/shop", "audit");
    assert_eq!(world.perform("/shop", first.clone(), Network::CrashAfterSend), None);
    // The object restarts; the batch's deadline passes; it is planned again
    // (isolated, §6 rule 4): its lines are written again, at least once, and
    // a reader dedupes them on (streamId, offset).
    world.now += 60_000;
    let again = plan_now(&mut world, "/shop", "audit");
    assert_eq!(again.after_offset, first.after_offset);
    assert_eq!(again.events[0].offset, 2);
    let line: Value = serde_json::from_str(&log_lines::lines(&again)[0]).unwrap();
    assert_eq!(
        (line["streamId"].clone(), line["offset"].clone()),
        (json!(first.stamp.stream_id), json!(2))
    );
    world.perform("/shop", again, Network::Deliver);
    world.run(&["/shop"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert_eq!(world.runtime("/shop", "audit")["acknowledgedOffset"], 3);
    let logged: Vec<u64> = world
        .external
        .iter()
        .flat_map(|(_, _, offsets)| offsets.clone())
        .collect();
    assert_eq!(logged, vec![2, 3, 2, 3], "the lost batch, then each event again");
}

#[test]
fn s15_1_a_failing_transform_follows_on_failing_event() {
    let failing = "payload.n = 2 ? $error('no') : {'payload': payload}";
    for (mode, dead_letters) in [("skip", 1), ("halt", 0)] {
        let mut world = World::new(7);
        world.append("/shop", log_receiver("audit", mode, Some(failing)));
        world.append("/shop", orders(1, 3));
        world.run(&["/shop"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
        let logged: Vec<u64> = world
            .external
            .iter()
            .flat_map(|(_, _, offsets)| offsets.clone())
            .collect();
        let row = world.runtime("/shop", "audit");
        let card = world.card("/shop");
        let halted = &card["subscriptions"][0]["deliveryHalted"];
        if mode == "skip" {
            assert_eq!(
                logged,
                vec![2, 4],
                "offset 3 failed and was dead-lettered: {:?}",
                world.trace
            );
            assert!(halted.is_null());
            // Past the skip's own error-occurred fact, too.
            assert_eq!(row["acknowledgedOffset"], 5);
        } else {
            assert_eq!(logged, vec![2], "{:?}", world.trace);
            assert_eq!(halted["afterOffset"], 2, "halted before offset 3: {card}");
            assert_eq!(row["acknowledgedOffset"], 2);
        }
        assert_eq!(row["deadLetters"], dead_letters, "{row}");
    }
}

#[test]
fn s8_a_dead_letter_of_a_log_subscription_replays_as_its_line() {
    let failing = "payload.n = 2 ? $error('no') : {'payload': payload}";
    let mut world = World::new(8);
    world.append("/shop", log_receiver("audit", "skip", Some(failing)));
    world.append("/shop", orders(1, 3));
    world.run(&["/shop"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    let query = tributary::stream::dead_letters::DeadLetterQuery::parse("").unwrap();
    let letters = world.stream("/shop").dead_letters(&query).unwrap();
    let id = letters["deadLetters"][0]["id"].as_u64().unwrap();
    let now = world.now;
    let plan = world.stream("/shop").plan_replay(id, now).unwrap();
    assert!(matches!(plan.receiver, tributary::subscription::Receiver::Log { .. }));
    assert_eq!(
        plan.events.iter().map(|event| event.offset).collect::<Vec<_>>(),
        vec![3]
    );
    let lines = log_lines::lines(&plan);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(
        (line["offset"].clone(), line["deliveryId"].clone()),
        (json!(3), json!(plan.delivery_id))
    );
}

#[test]
fn s15_1_a_bad_log_receiver_is_422_naming_the_field_and_commits_nothing() {
    let mut stream = memory_stream("/shop");
    let cases = [
        (
            json!({"action": "log", "delivery": {"start": "now", "onFailingEvent": "halt", "retry": {"maxAttempts": 2, "initialBackoffMs": 1, "maxBackoffMs": 1}}}),
            "receiver.delivery.retry",
        ),
        (
            json!({"action": "log", "url": "https://example.com", "delivery": {"start": "now", "onFailingEvent": "halt"}}),
            "receiver.url",
        ),
        (json!({"action": "log"}), "receiver.delivery"),
        (
            json!({"action": "log", "delivery": {"start": "now", "onFailingEvent": "retry"}}),
            "receiver.delivery.onFailingEvent",
        ),
        (
            json!({"action": "log", "jsonataTransform": "{", "delivery": {"start": "now", "onFailingEvent": "halt"}}),
            "receiver.jsonataTransform",
        ),
        (
            json!({"action": "log", "jsonataTransform": "x".repeat(5000), "delivery": {"start": "now", "onFailingEvent": "halt"}}),
            "receiver.jsonataTransform",
        ),
        (
            json!({"action": "log", "delivery": {"start": "now", "onFailingEvent": "halt", "concurrency": 4}}),
            "receiver.delivery.concurrency",
        ),
    ];
    for (receiver, field) in cases {
        let body = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "audit", "receiver": receiver}});
        let (status, answer) = append(&mut stream, body, 1);
        assert_eq!(status, 422, "{receiver}: {answer}");
        assert_eq!(answer["error"]["details"]["field"], field, "{receiver}: {answer}");
    }
    assert!(stream.lifetime().is_none_or(|meta| meta.head == 0), "nothing committed");
}
