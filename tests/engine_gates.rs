//! Gates on their failure paths (DESIGN.md §13 Gates, §6 rules 5, 6, 11, §8):
//! a gate decides once per hit and never re-runs on a retry, a failing
//! threshold digest follows the retry ladder and then dead-letters each
//! contained event or halts, and invalidated held hits are dropped.
//! Natively, through the engine's plan/complete API with real SQLite.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::deployment::Deployment;
use tributary::stream::dead_letters::DeadLetterQuery;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const INVALIDATED: &str = "events.iterate.com/stream/events-invalidated";
const HALTED: &str = "events.iterate.com/stream/subscription-delivery-halted";

fn webhook(world: &mut World, path: &str, mode: &str, gate: Value) {
    world.set_deployment(
        path,
        Deployment {
            allow_insecure_webhooks: true,
            ..Default::default()
        },
    );
    let delivery = json!({"start": "beginning", "onFailingEvent": mode, "gate": gate,
        "retry": {"maxAttempts": 3, "initialBackoffMs": 10, "maxBackoffMs": 10}});
    world.append(
        path,
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery": delivery}}}),
    );
}

fn data(world: &mut World, path: &str, n: usize) {
    for i in 0..n {
        world.append(path, json!({"type": "data", "payload": {"i": i}}));
    }
}

fn letters(world: &mut World, path: &str) -> Vec<u64> {
    let query = DeadLetterQuery {
        subscription_key: None,
        after: 0,
        limit: 1000,
    };
    world.stream(path).dead_letters(&query).unwrap()["deadLetters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|letter| letter["offset"].as_u64().unwrap())
        .collect()
}

fn delivered(world: &World) -> Vec<Vec<u64>> {
    world.external.iter().map(|(_, _, offsets)| offsets.clone()).collect()
}

fn cursor(world: &mut World, path: &str) -> u64 {
    world.card(path)["subscriptions"][0]["runtime"]["acknowledgedOffset"]
        .as_u64()
        .unwrap()
}

fn lag(world: &mut World, path: &str) -> u64 {
    world.card(path)["subscriptions"][0]["runtime"]["lag"].as_u64().unwrap()
}

fn halts(world: &mut World, path: &str) -> usize {
    world
        .events(path)
        .iter()
        .filter(|event| event["type"] == HALTED)
        .count()
}

/// Every offset a send carried (the network saw it).
type Attempted = BTreeSet<u64>;

/// Runs alarms until nothing is due; fails if the work never settles (a busy
/// loop: the alarm due again at once with nothing to send). Returns how many
/// sends the network saw.
fn settle(
    world: &mut World,
    path: &str,
    attempted: &mut Attempted,
    network: &mut dyn FnMut(&DeliveryPlan) -> Network,
) -> usize {
    let mut sends = 0;
    for _ in 0..500 {
        let Some(at) = world.stream(path).next_due_at().unwrap() else {
            return sends;
        };
        world.now = world.now.max(at);
        sends += world.alarm(path, &mut |plan: &DeliveryPlan| {
            if plan.prepared_failure.is_none() {
                attempted.extend(plan.events.iter().map(|event| event.offset));
            }
            network(plan)
        });
    }
    panic!(
        "delivery never settled: the alarm stays due ({} sends)\n{}",
        sends,
        world.trace.join("\n")
    );
}

/// §6 rule 11 for gates: a hit the gate ever tried to deliver ends delivered
/// or dead-lettered (or covered by a durable halt); only hits never tried may
/// be discarded or dropped.
fn assert_nothing_passed_silently(world: &mut World, path: &str, attempted: &Attempted) {
    let mut accounted: BTreeSet<u64> = world
        .external
        .iter()
        .flat_map(|(_, _, offsets)| offsets.clone())
        .collect();
    accounted.extend(letters(world, path));
    if halts(world, path) == 0 {
        let lost: Vec<&u64> = attempted.difference(&accounted).collect();
        assert!(
            lost.is_empty(),
            "tried, then neither delivered nor dead-lettered: {lost:?}\n{}",
            world.trace.join("\n")
        );
    }
}

#[test]
fn s13_max_once_retried_hit_is_delivered_not_discarded_by_its_own_window() {
    // Issue 18 item 2: 503 once, then 200.
    let mut world = World::new(1);
    webhook(&mut world, "/mo", "skip", json!({"maxOnce": {"windowMs": 600_000}}));
    data(&mut world, "/mo", 1); // 2
    let mut attempted = Attempted::new();
    let mut failed = false;
    settle(&mut world, "/mo", &mut attempted, &mut |_| {
        if std::mem::replace(&mut failed, true) {
            Network::Deliver
        } else {
            Network::Fail(Outcome::transient("HTTP 503"))
        }
    });
    assert_eq!(delivered(&world), vec![vec![2]], "{}", world.trace.join("\n"));
    assert!(letters(&mut world, "/mo").is_empty());
    assert_eq!(cursor(&mut world, "/mo"), 2);
    assert!(world
        .stream("/mo")
        .metrics_text()
        .contains("tributary_gate_discarded_total 0"));
    // The anchor moved with the success: a later hit in the window is discarded.
    data(&mut world, "/mo", 1); // 3
    settle(&mut world, "/mo", &mut attempted, &mut |_| Network::Deliver);
    assert_eq!(delivered(&world), vec![vec![2]]);
    assert_eq!(cursor(&mut world, "/mo"), 3);
    assert!(world
        .stream("/mo")
        .metrics_text()
        .contains("tributary_gate_discarded_total 1"));
    assert_nothing_passed_silently(&mut world, "/mo", &attempted);
}

#[test]
fn s13_threshold_digest_refused_with_400_dead_letters_each_event_and_stops() {
    // Issue 18 item 3: the receiver always answers 400.
    let mut world = World::new(2);
    webhook(
        &mut world,
        "/th",
        "skip",
        json!({"threshold": {"count": 2, "windowMs": 600_000}}),
    );
    data(&mut world, "/th", 2); // 2, 3
    let mut attempted = Attempted::new();
    let sends = settle(&mut world, "/th", &mut attempted, &mut |_| {
        Network::Fail(Outcome::permanent("HTTP 400"))
    });
    assert_eq!(
        sends,
        1,
        "a permanent failure skips the ladder and is sent once\n{}",
        world.trace.join("\n")
    );
    assert_eq!(
        letters(&mut world, "/th"),
        vec![2, 3],
        "each contained event dead-lettered"
    );
    assert_eq!(
        lag(&mut world, "/th"),
        0,
        "the cursor passed the digest and the skip's audit fact"
    );
    assert_eq!(world.card("/th")["subscriptions"][0]["runtime"]["gate"]["heldHits"], 0);
    // The gate starts over: a later pair is one more send, not a storm.
    data(&mut world, "/th", 2); // 4, 5 (the skip's error-occurred is an audit fact, never delivered)
    let more = settle(&mut world, "/th", &mut attempted, &mut |_| Network::Deliver);
    assert_eq!(more, 1);
    assert_eq!(delivered(&world).last().unwrap().len(), 2);
    assert_nothing_passed_silently(&mut world, "/th", &attempted);
}

#[test]
fn s13_held_hits_named_by_an_invalidation_are_dropped_and_counted() {
    // Issue 18 item 4.
    let mut world = World::new(3);
    webhook(
        &mut world,
        "/iv",
        "skip",
        json!({"threshold": {"count": 3, "windowMs": 600_000}}),
    );
    data(&mut world, "/iv", 2); // 2, 3 held
    settle(&mut world, "/iv", &mut Attempted::new(), &mut |_| Network::Deliver);
    world.append("/iv", json!({"type": INVALIDATED, "payload": {"offsets": [2, 3]}})); // 4
    data(&mut world, "/iv", 3); // 5, 6, 7
    settle(&mut world, "/iv", &mut Attempted::new(), &mut |_| Network::Deliver);
    assert_eq!(delivered(&world), vec![vec![5, 6, 7]], "only valid hits, no retraction");
    let metrics = world.stream("/iv").metrics_text();
    assert!(metrics.contains("tributary_gate_invalidated_total 2"), "{metrics}");
    assert!(metrics.contains("tributary_retractions_total 0"), "{metrics}");
    // A range invalidation drops held hits too.
    data(&mut world, "/iv", 2); // 8, 9 held
    world.append("/iv", json!({"type": INVALIDATED, "payload": {"afterOffset": 8}})); // 10 names 9
    data(&mut world, "/iv", 2); // 11, 12 → digest of 8, 11, 12
    settle(&mut world, "/iv", &mut Attempted::new(), &mut |_| Network::Deliver);
    assert_eq!(delivered(&world), vec![vec![5, 6, 7], vec![8, 11, 12]]);
    assert!(world
        .stream("/iv")
        .metrics_text()
        .contains("tributary_gate_invalidated_total 3"));
}
