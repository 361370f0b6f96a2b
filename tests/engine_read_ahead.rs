//! The log read ahead of the delivery scans (docs/design.md §12,
//! `src/delivery/read_ahead.rs`), on real SQLite. The native driver checks
//! every page the read-ahead answers against storage, so a stale or wrong
//! row fails the engine call; these tests drive it where it could go wrong:
//! rows larger than its budget, ephemeral rows it must not hold, appends
//! between deliveries, subscriptions far apart, and a destroyed stream.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Value};

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

fn webhook(world: &mut World, path: &str, key: &str, start: &str) {
    world.append(path, json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": format!("http://127.0.0.1:1/{key}"), "delivery": {"start": start, "onFailingEvent": "halt"}}}}));
}

/// Offsets each webhook acknowledged, in the order it acknowledged them.
fn delivered(world: &World, key: &str) -> Vec<u64> {
    world
        .external
        .iter()
        .filter(|(sub, _, _)| sub == key)
        .flat_map(|(_, _, offsets)| offsets.iter().copied())
        .collect()
}

/// The durable `data` events of `path`, by offset.
fn durable_data(world: &mut World, path: &str) -> Vec<u64> {
    world
        .events(path)
        .iter()
        .filter(|event| event["type"] == "data" && event["ephemeral"] != json!(true))
        .map(|event| event["offset"].as_u64().unwrap())
        .collect()
}

#[test]
fn s12_webhooks_read_the_log_ahead_across_large_ephemeral_and_late_rows() {
    let mut world = World::new(33);
    world.allow_insecure_webhooks("/ra");
    for key in ["a", "b"] {
        webhook(&mut world, "/ra", key, "now");
    }
    world.stream("/ra").storage().take_statement_counts();
    let large = "x".repeat(80 * 1024);
    for round in 0..20u64 {
        let events: Vec<Value> = (0..10u64)
            .map(|i| match (round + i) % 7 {
                // Larger than the read-ahead's whole budget: read on its own.
                0 => json!({"type": "data", "payload": {"large": large}}),
                // Ephemeral: durable cursors pass over it (§3 rule 5).
                1 => json!({"type": "data", "payload": {"i": i}, "ephemeral": true}),
                2 => json!({"type": "other", "payload": {"i": i}}),
                _ => json!({"type": "data", "payload": {"round": round, "i": i}}),
            })
            .collect();
        world.append("/ra", json!({ "events": events }));
        if round == 12 {
            // Far behind the others: it reads on its own until it reaches them.
            webhook(&mut world, "/ra", "c", "beginning");
        }
        world.run(&["/ra"], 1_000, &mut |_| Network::Deliver);
    }
    world.run(&["/ra"], 10_000, &mut |_| Network::Deliver);
    let expected = durable_data(&mut world, "/ra");
    assert!(expected.len() >= 100, "{expected:?}");
    for key in ["a", "b", "c"] {
        assert_eq!(
            delivered(&world, key),
            expected,
            "{key}: every durable event once, in order"
        );
    }
    assert_eq!(
        world.stream("/ra").read_ahead_bytes(),
        0,
        "every subscription caught up: no row is held"
    );
    let deliveries = 3 * expected.len() as u64;
    let reads = common::log_reads(world.stream("/ra"));
    // One row in seven is larger than the read-ahead's budget, and a read
    // ahead that meets one costs three statements (sizes, then rows): still
    // fewer reads than deliveries.
    println!("{reads} reads of the log for {deliveries} deliveries");
    assert!(
        reads * 4 <= deliveries * 3,
        "{reads} reads of the log for {deliveries} deliveries"
    );
}

#[test]
fn s12_a_destroyed_stream_answers_none_of_its_old_rows() {
    let mut world = World::new(34);
    world.allow_insecure_webhooks("/d");
    webhook(&mut world, "/d", "k", "beginning");
    let first: Vec<Value> = (0..5)
        .map(|n| json!({"type": "data", "payload": {"life": 1, "n": n}}))
        .collect();
    world.append("/d", json!({ "events": first }));
    world.run(&["/d"], 1_000, &mut |_| Network::Deliver);
    assert_eq!(delivered(&world, "k").len(), 5);

    assert!(world.stream("/d").destroy().unwrap());
    world.external.clear();
    webhook(&mut world, "/d", "k", "beginning");
    let second: Vec<Value> = (0..8)
        .map(|n| json!({"type": "data", "payload": {"life": 2, "n": n}}))
        .collect();
    world.append("/d", json!({ "events": second }));
    let (now, entropy) = (world.now, world.entropy());
    let stream = world.stream("/d");
    let mut turn = tributary::delivery::Turn::begin(now);
    let plans = turn.plan_due(stream, now, entropy).unwrap();
    let event = &plans[0].events[0];
    assert_eq!(event.offset, 2, "the new lifetime's first data event");
    assert_eq!(event.body.tree()["payload"], json!({"life": 2, "n": 0}));
}
