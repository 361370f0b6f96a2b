//! Helpers for the gate tests (docs/design.md §13 Gates): a gated webhook in the
//! deterministic world, a settle loop that fails on a busy alarm, and the
//! §6 rule 11 check for gates — a hit the gate ever tried to deliver ends
//! delivered, dead-lettered or covered by a durable halt.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use crate::common::world::{Network, World};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use tributary::delivery::DeliveryPlan;
use tributary::deployment::Deployment;
use tributary::stream::dead_letters::DeadLetterQuery;

pub const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
pub const INVALIDATED: &str = "events.iterate.com/stream/events-invalidated";
pub const HALTED: &str = "events.iterate.com/stream/subscription-delivery-halted";
pub const RESUMED: &str = "events.iterate.com/stream/subscription-delivery-resumed";

/// Configures webhook `hook` on `path` with `gate`, in `mode` (`halt` or
/// `skip`), 3 attempts 10 ms apart, on events of type `data`.
pub fn webhook(world: &mut World, path: &str, mode: &str, gate: Value) {
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

pub fn data(world: &mut World, path: &str, n: usize) {
    for i in 0..n {
        world.append(path, json!({"type": "data", "payload": {"i": i}}));
    }
}

pub fn resume(world: &mut World, path: &str) {
    world.append(path, json!({"type": RESUMED, "payload": {"subscriptionKey": "hook"}}));
}

/// `(offset, reason)` of every dead letter, in insertion order.
pub fn letters(world: &mut World, path: &str) -> Vec<(u64, String)> {
    let query = DeadLetterQuery {
        subscription_key: None,
        after: 0,
        limit: 1000,
    };
    world.stream(path).dead_letters(&query).unwrap()["deadLetters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|letter| {
            (
                letter["offset"].as_u64().unwrap(),
                letter["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

pub fn letter_offsets(world: &mut World, path: &str) -> Vec<u64> {
    letters(world, path).into_iter().map(|(offset, _)| offset).collect()
}

/// Offsets of each batch the receiver acknowledged, in order.
pub fn delivered(world: &World) -> Vec<Vec<u64>> {
    world.external.iter().map(|(_, _, offsets)| offsets.clone()).collect()
}

/// Delivery ids the receiver acknowledged, in order.
pub fn delivery_ids(world: &World) -> Vec<String> {
    world.external.iter().map(|(_, id, _)| id.clone()).collect()
}

pub fn runtime(world: &mut World, path: &str) -> Value {
    world.card(path)["subscriptions"][0]["runtime"].clone()
}

pub fn lag(world: &mut World, path: &str) -> u64 {
    runtime(world, path)["lag"].as_u64().unwrap()
}

pub fn held_hits(world: &mut World, path: &str) -> u64 {
    runtime(world, path)["gate"]["heldHits"].as_u64().unwrap()
}

pub fn halts(world: &mut World, path: &str) -> usize {
    world
        .events(path)
        .iter()
        .filter(|event| event["type"] == HALTED)
        .count()
}

pub fn halted(world: &mut World, path: &str) -> bool {
    world.card(path)["subscriptions"][0].get("deliveryHalted").is_some()
}

pub fn metric(world: &mut World, path: &str, name: &str) -> u64 {
    let text = world.stream(path).metrics_text();
    let prefix = format!("tributary_{name} ");
    text.lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("no metric {name} in\n{text}"))
}

/// Every offset a send carried (the network saw it).
pub type Attempted = BTreeSet<u64>;

/// Runs alarms on `path` until nothing is due; fails if the work never
/// settles (a busy loop: the alarm due again at once with nothing to send).
/// Returns how many sends the network saw. A halted subscription is not due.
pub fn settle(
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
        "delivery never settled: the alarm stays due ({sends} sends)\n{}",
        world.trace.join("\n")
    );
}

/// §6 rule 11 for gates: a hit the gate ever tried to deliver ends delivered
/// or dead-lettered, or a durable halt covers it; only hits never tried may
/// be discarded or dropped.
pub fn assert_nothing_passed_silently(world: &mut World, path: &str, attempted: &Attempted) {
    let mut accounted: BTreeSet<u64> = world
        .external
        .iter()
        .flat_map(|(_, _, offsets)| offsets.clone())
        .collect();
    accounted.extend(letter_offsets(world, path));
    if halted(world, path) {
        return;
    }
    let lost: Vec<&u64> = attempted.difference(&accounted).collect();
    assert!(
        lost.is_empty(),
        "tried, then neither delivered nor dead-lettered: {lost:?}\n{}",
        world.trace.join("\n")
    );
}
