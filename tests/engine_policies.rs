//! Delivery policies (docs/design.md §8): dead letters with replay and discard,
//! throttle, aggregate digests, and configurations that no longer validate —
//! natively, with the deterministic world of the spine tests.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Value};
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::deployment::Deployment;
use tributary::stream::dead_letters::DeadLetterQuery;

fn webhook(world: &mut World, path: &str, key: &str, delivery: Value) {
    world.set_deployment(
        path,
        Deployment {
            allow_insecure_webhooks: true,
            ..Default::default()
        },
    );
    let mut full = json!({"start": "beginning", "onFailingEvent": "skip", "retry": {"maxAttempts": 2, "initialBackoffMs": 10, "maxBackoffMs": 10}});
    for (name, value) in delivery.as_object().unwrap() {
        full[name] = value.clone();
    }
    world.append(path, json!({"type": "events.iterate.com/stream/subscription-configured", "payload": {"subscriptionKey": key, "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery": full}}}));
}

fn data(n: usize) -> Value {
    json!({"events": (0..n).map(|i| json!({"type": "data", "payload": {"i": i}})).collect::<Vec<_>>()})
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

fn batches(world: &World) -> Vec<Vec<u64>> {
    world.external.iter().map(|(_, _, offsets)| offsets.clone()).collect()
}

#[test]
fn s8_skip_writes_dead_letters_then_replay_and_discard() {
    let mut world = World::new(21);
    webhook(&mut world, "/w", "hook", json!({}));
    world.append("/w", data(3));
    world.run(&["/w"], 20, &mut |plan: &DeliveryPlan| match plan.events[0].offset {
        2 | 3 => Network::Fail(Outcome::permanent("HTTP 410")),
        _ => Network::Deliver,
    });
    assert_eq!(batches(&world), vec![vec![4]]);
    let dead = letters(&mut world, "/w");
    assert_eq!(dead.len(), 2);
    assert_eq!(
        (dead[0]["offset"].as_u64(), dead[0]["subscriptionKey"].as_str()),
        (Some(2), Some("hook"))
    );
    assert_eq!(dead[0]["reason"], "permanent: HTTP 410");
    assert_eq!(
        dead[0]["payload"]["payload"],
        json!({"i": 0}),
        "the event as it would have been sent"
    );
    assert!(dead[0]["deliveryId"].as_str().unwrap().starts_with("dlv_"));
    // A failed replay keeps the letter, bumping attempts and the reason.
    let id = dead[0]["id"].as_u64().unwrap();
    let stream = world.stream("/w");
    let plan = stream.plan_replay(id, 5).unwrap();
    assert_eq!(
        plan.delivery_id,
        dead[0]["deliveryId"].as_str().unwrap(),
        "replays reuse the delivery id"
    );
    assert!(!stream
        .complete_replay(id, &plan, plan.attempt, &Outcome::transient("HTTP 503"))
        .unwrap());
    let dead = letters(&mut world, "/w");
    assert_eq!(
        (dead[0]["attempts"].as_u64(), dead[0]["reason"].as_str()),
        (Some(2), Some("transient: HTTP 503"))
    );
    // A successful replay deletes it.
    assert!(world
        .stream("/w")
        .complete_replay(id, &plan, 3, &Outcome::Delivered)
        .unwrap());
    assert_eq!(letters(&mut world, "/w").len(), 1);
    let query = DeadLetterQuery {
        subscription_key: Some("hook".to_owned()),
        after: 0,
        limit: 100,
    };
    assert_eq!(world.stream("/w").discard_dead_letters(&query).unwrap()["discarded"], 1);
    assert!(letters(&mut world, "/w").is_empty());
    // Dead letters survive a restart.
    world.append("/w", data(1));
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| {
        Network::Fail(Outcome::permanent("HTTP 400"))
    });
    world.crash();
    assert_eq!(letters(&mut world, "/w").len(), 1);
}

#[test]
fn s8_throttle_dead_letters_beyond_the_budget_and_only_successes_spend_it() {
    let mut world = World::new(22);
    webhook(
        &mut world,
        "/w",
        "t",
        json!({"throttle": {"maxDeliveries": 2, "windowMs": 60000}}),
    );
    world.append("/w", data(1));
    let mut first = true;
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| {
        let failed = first;
        first = false;
        if failed {
            Network::Fail(Outcome::transient("HTTP 503"))
        } else {
            Network::Deliver
        }
    });
    world.append("/w", data(3));
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert_eq!(
        batches(&world).len(),
        2,
        "a failed attempt spent nothing: two successes fit the budget"
    );
    let dead = letters(&mut world, "/w");
    assert_eq!(dead.len(), 2);
    assert_eq!(
        dead[0]["reason"],
        "permanent: throttled: policy allows 2 deliveries per 60000ms; replay this dead letter to deliver it"
    );
    // Replay delivers without re-checking the window.
    let id = dead[0]["id"].as_u64().unwrap();
    let now = world.now;
    let plan = world.stream("/w").plan_replay(id, now).unwrap();
    assert!(!plan.throttled && plan.prepared_failure.is_none());
    // After the window, deliveries flow again.
    world.now += 60_001;
    world.append("/w", data(1));
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert_eq!(batches(&world).len(), 3);
}

#[test]
fn s8_aggregate_flushes_digests_by_size_and_by_time() {
    let mut world = World::new(23);
    webhook(
        &mut world,
        "/w",
        "agg",
        json!({"aggregate": {"windowMs": 1000, "maxBatch": 3}}),
    );
    world.append("/w", data(7));
    let start = world.now;
    let mut bodies = Vec::new();
    world.run(&["/w"], 20, &mut |plan: &DeliveryPlan| {
        bodies.push(serde_json::from_str::<serde_json::Value>(&tributary::webhook::body(plan)).unwrap());
        Network::Deliver
    });
    assert_eq!(batches(&world), vec![vec![2, 3, 4], vec![5, 6, 7], vec![8]]);
    assert_eq!(bodies[0]["type"], "digest");
    assert_eq!(bodies[0]["events"].as_array().unwrap().len(), 3);
    assert_eq!(bodies[2]["type"], "event", "a flush of one event sends the plain body");
    assert!(world.now >= start + 1000, "the last event waited for its window");
    assert_eq!(world.card("/w")["subscriptions"][0]["runtime"]["acknowledgedOffset"], 8);
}

#[test]
fn s8_a_failing_digest_dead_letters_each_event_in_order() {
    let mut world = World::new(24);
    webhook(
        &mut world,
        "/w",
        "agg",
        json!({"aggregate": {"windowMs": 1000, "maxBatch": 3}}),
    );
    world.append("/w", data(3));
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| {
        Network::Fail(Outcome::transient("HTTP 500"))
    });
    let dead = letters(&mut world, "/w");
    let offsets: Vec<u64> = dead.iter().map(|d| d["offset"].as_u64().unwrap()).collect();
    assert_eq!(offsets, vec![2, 3, 4]);
    assert!(dead
        .iter()
        .all(|d| d["reason"] == "transient: HTTP 500" && d["attempts"] == 2));
    assert_eq!(world.card("/w")["subscriptions"][0]["runtime"]["deadLetters"], 3);
}

#[test]
fn s8_a_restart_with_an_open_window_rebuffers_from_the_log() {
    let mut world = World::new(25);
    webhook(
        &mut world,
        "/w",
        "agg",
        json!({"aggregate": {"windowMs": 1000, "maxBatch": 10}}),
    );
    world.append("/w", data(2));
    world.alarm("/w", &mut |_: &DeliveryPlan| Network::Deliver);
    assert!(world.external.is_empty(), "held");
    world.crash();
    world.set_deployment(
        "/w",
        Deployment {
            allow_insecure_webhooks: true,
            ..Default::default()
        },
    );
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert_eq!(batches(&world), vec![vec![2, 3]], "nothing lost");
}

#[test]
fn s8_a_stored_configuration_that_no_longer_validates_refuses_to_run() {
    let mut world = World::new(26);
    webhook(&mut world, "/w", "bad", json!({}));
    world.crash();
    // Corrupt the stored configuration as a restored backup might.
    let stream = world.stream("/w");
    let mut state = stream.state().clone();
    let entry = state.subscriptions.outbound.by_key.get_mut("bad").unwrap();
    let tributary::state::StoredConfiguration::Valid(configuration) = &mut entry.configuration else {
        panic!("configured as valid")
    };
    if let tributary::subscription::Receiver::WebhookPost { delivery, .. } = &mut configuration.receiver {
        delivery.retry = Some(tributary::subscription::Retry {
            max_attempts: 0,
            initial_backoff_ms: 10,
            max_backoff_ms: 1,
        });
    }
    let json = serde_json::to_string(&state).unwrap();
    world.corrupt_state("/w", &json);
    world.append("/w", data(2));
    world.run(&["/w"], 20, &mut |_: &DeliveryPlan| Network::Deliver);
    assert!(world.external.is_empty(), "an invalid configuration delivers nothing");
    let card = world.card("/w");
    assert!(
        card["subscriptions"][0]["invalid"]
            .as_str()
            .unwrap()
            .contains("maxAttempts"),
        "{card}"
    );
}

/// The spine's fault simulation, extended with the policies: under seeded
/// crashes and failures, every matching event ends delivered or dead-lettered
/// (never neither), delivered batches arrive in offset order, and the cursor
/// never passes an event that is neither.
fn policy_chaos(seed: u64) -> Vec<String> {
    let mut world = World::new(seed);
    webhook(
        &mut world,
        "/w",
        "p",
        json!({"retry": {"maxAttempts": 3, "initialBackoffMs": 10, "maxBackoffMs": 40},
               "aggregate": {"windowMs": 500, "maxBatch": 4}, "throttle": {"maxDeliveries": 5, "windowMs": 2000}}),
    );
    let mut dice = seed.wrapping_add(7);
    let mut roll = move || {
        dice = dice.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (dice >> 33) % 10
    };
    for round in 0..30 {
        if round % 2 == 0 {
            world.append("/w", data(1 + round % 3));
        }
        let choice = roll();
        world.now += 300;
        world.set_deployment(
            "/w",
            Deployment {
                allow_insecure_webhooks: true,
                ..Default::default()
            },
        );
        world.alarm("/w", &mut move |_: &DeliveryPlan| match choice {
            0 => Network::CrashBeforeSend,
            1 => Network::CrashAfterSend,
            2 => Network::Fail(Outcome::transient("HTTP 503")),
            3 => Network::Fail(Outcome::permanent("HTTP 400")),
            _ => Network::Deliver,
        });
    }
    world.set_deployment(
        "/w",
        Deployment {
            allow_insecure_webhooks: true,
            ..Default::default()
        },
    );
    world.run(&["/w"], 500, &mut |_: &DeliveryPlan| Network::Deliver);
    let source: Vec<u64> = world
        .events("/w")
        .iter()
        .filter(|e| e["type"] == "data")
        .map(|e| e["offset"].as_u64().unwrap())
        .collect();
    let mut delivered: Vec<u64> = world
        .external
        .iter()
        .flat_map(|(_, _, offsets)| offsets.clone())
        .collect();
    let in_order = world
        .external
        .windows(2)
        .all(|pair| pair[0].2.first() <= pair[1].2.first());
    assert!(in_order, "seed {seed}: batches out of order");
    delivered.sort_unstable();
    delivered.dedup();
    let dead: Vec<u64> = letters(&mut world, "/w")
        .iter()
        .map(|d| d["offset"].as_u64().unwrap())
        .collect();
    for offset in &source {
        assert!(
            delivered.contains(offset) || dead.contains(offset),
            "seed {seed}: offset {offset} neither delivered nor dead-lettered: {:#?}",
            world.trace
        );
    }
    assert_eq!(world.card("/w")["subscriptions"][0]["runtime"]["lag"], 0, "seed {seed}");
    world.trace.clone()
}

#[test]
fn s8_policies_under_crashes_lose_nothing_and_replay_deterministically() {
    for seed in 0..10 {
        let trace = policy_chaos(seed);
        assert_eq!(policy_chaos(seed), trace, "seed {seed}: same seed, same trace");
    }
}
