//! Retraction down copy chains natively (DESIGN.md §13 "Through copies" and
//! "Copies and invalidation order", §7): a copy batch ends at an
//! `events-invalidated`, the receiver commits its derived invalidation
//! before any later copy, a copied invalidation's offsets are mapped through
//! the hop of the stream that appended it however many hops away, and each
//! copy is retracted once — on success, on failing receivers and over crashes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Value};
use tributary::copy::CopyBatch;
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::deployment::Deployment;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const INVALIDATED: &str = "events.iterate.com/stream/events-invalidated";

/// A copy subscription `from → to` passing `data` and `events-invalidated`
/// (and, with `condition`, only what that JSONata filter accepts).
fn copy(world: &mut World, from: &str, to: &str, key: &str, condition: Option<&str>) {
    let mut filter = json!({"eventTypes": ["data", INVALIDATED]});
    if let Some(condition) = condition {
        filter["jsonataCondition"] = json!(condition);
    }
    world.append(
        from,
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "filter": filter,
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": to, "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}}),
    );
}

fn webhook(world: &mut World, path: &str, mode: &str) {
    world.set_deployment(
        path,
        Deployment {
            allow_insecure_webhooks: true,
            ..Default::default()
        },
    );
    world.append(
        path,
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery": {"start": "beginning",
            "onFailingEvent": mode, "retry": {"maxAttempts": 2, "initialBackoffMs": 10, "maxBackoffMs": 10}}}}}),
    );
}

fn data(world: &mut World, path: &str, label: &str) {
    world.append(path, json!({"type": "data", "payload": {"label": label}}));
}

/// What the simulated webhook receiver saw, in order.
fn seen(world: &World) -> Vec<(&'static str, u64)> {
    world
        .external
        .iter()
        .flat_map(|(_, delivery_id, offsets)| {
            let kind = if delivery_id.starts_with("rtr_") {
                "retracted"
            } else {
                "event"
            };
            offsets.iter().map(move |offset| (kind, *offset))
        })
        .collect()
}

fn retracted(world: &World) -> Vec<u64> {
    seen(world)
        .into_iter()
        .filter(|(kind, _)| *kind == "retracted")
        .map(|(_, offset)| offset)
        .collect()
}

fn deliver_all(world: &mut World, sources: &[&str]) {
    world.run(sources, 300, &mut |_: &DeliveryPlan| Network::Deliver);
}

/// The stream's own `events-invalidated` events (no `source`).
fn local_invalidations(world: &mut World, path: &str) -> Vec<Value> {
    world
        .events(path)
        .into_iter()
        .filter(|event| event["type"] == INVALIDATED && event.get("source").is_none())
        .collect()
}

/// Offset on `path` of the copy whose payload label is `label`.
fn offset_of(world: &mut World, path: &str, label: &str) -> u64 {
    world
        .events(path)
        .into_iter()
        .find(|event| event["payload"]["label"] == label)
        .and_then(|event| event["offset"].as_u64())
        .unwrap_or_else(|| panic!("{path} has no copy of {label}"))
}

fn offsets_of(world: &mut World, path: &str, labels: &[&str]) -> Vec<u64> {
    labels.iter().map(|label| offset_of(world, path, label)).collect()
}

/// /a copies to /b, webhook on /b; x1..x3 delivered, then one batch on /a:
/// `[events-invalidated {afterOffset} (x2, x3), data "new"]`.
fn one_hop_world(seed: u64, mode: &str) -> World {
    let mut world = World::new(seed);
    copy(&mut world, "/a", "/b", "c", None); // a1
    webhook(&mut world, "/b", mode); // b1
    for label in ["x1", "x2", "x3"] {
        data(&mut world, "/a", label); // a2..a4
    }
    deliver_all(&mut world, &["/a", "/b"]);
    world.append(
        "/a",
        json!({"events": [{"type": INVALIDATED, "payload": {"afterOffset": 2, "reason": "reorg"}},
        {"type": "data", "payload": {"label": "new"}}]}),
    ); // a5, a6
    world
}

/// The one-hop contract on /b after everything ran: one derived
/// invalidation naming the copies of x2 and x3, committed before the copy of
/// "new", and the webhook heard both retractions before "new".
fn assert_one_hop_order(world: &mut World) {
    let dead = offsets_of(world, "/b", &["x2", "x3"]);
    let local = local_invalidations(world, "/b");
    assert_eq!(local.len(), 1, "exactly one derived invalidation: {local:?}");
    assert_eq!(local[0]["payload"]["offsets"], json!(dead));
    let new = offset_of(world, "/b", "new");
    assert!(
        local[0]["offset"].as_u64().unwrap() < new,
        "the derived invalidation sits before the copy of the later event"
    );
    let mut expected: Vec<(&str, u64)> = offsets_of(world, "/b", &["x1", "x2", "x3"])
        .into_iter()
        .map(|offset| ("event", offset))
        .collect();
    expected.extend(dead.iter().map(|offset| ("retracted", *offset)));
    expected.push(("event", new));
    assert_eq!(seen(world), expected, "retractions before the later event");
}

#[test]
fn s13_a_copy_batch_ends_at_an_invalidation_and_retractions_precede_the_new_fork() {
    let mut world = one_hop_world(1, "skip");
    let mut batches: Vec<Vec<u64>> = Vec::new();
    world.run(&["/a", "/b"], 300, &mut |plan: &DeliveryPlan| {
        if plan.subscription_key == "c" {
            batches.push(plan.events.iter().map(|event| event.offset).collect());
        }
        Network::Deliver
    });
    assert_eq!(
        batches,
        vec![vec![5], vec![6]],
        "the copy batch ends at the invalidation"
    );
    assert_one_hop_order(&mut world);
}

#[test]
fn s13_a_receiver_commits_the_derived_invalidation_before_later_copies_of_the_same_batch() {
    // A batch [invalidation, new] as a source that does not end batches at
    // invalidations would send it: the receiver still orders them.
    let mut world = one_hop_world(2, "skip");
    let mut bodies = Vec::new();
    let mut stamp = None;
    for _ in 0..2 {
        let now = world.now;
        let entropy = world.entropy();
        let plan = world.stream("/a").plan_delivery("c", now, entropy).unwrap().unwrap();
        bodies.extend(plan.events.iter().map(|event| event.body.clone()));
        stamp = Some(plan.stamp.clone());
        world
            .stream("/a")
            .complete_delivery(&plan, Outcome::Delivered, now, entropy)
            .unwrap();
    }
    assert_eq!(bodies.len(), 2);
    let batch = CopyBatch {
        stamp: stamp.unwrap(),
        events: bodies,
    };
    let inputs = world.inputs();
    world.stream("/b").accept_copies(batch, &inputs).unwrap();
    deliver_all(&mut world, &["/a", "/b"]);
    assert_one_hop_order(&mut world);
}

/// /a → /b → /c, a noise event on /b shifting offsets, webhook on /c; x1..x3
/// delivered to /c, then /a invalidates x2 alone, then appends "after".
fn two_hop_world(seed: u64, b_to_c: Option<&str>) -> World {
    let mut world = World::new(seed);
    copy(&mut world, "/a", "/b", "ab", None); // a1
    copy(&mut world, "/b", "/c", "bc", b_to_c); // b1
    world.append("/b", json!({"type": "noise"})); // b2
    webhook(&mut world, "/c", "skip"); // c1
    for label in ["x1", "x2", "x3"] {
        data(&mut world, "/a", label); // a2..a4
    }
    deliver_all(&mut world, &["/a", "/b", "/c"]);
    world.append("/a", json!({"type": INVALIDATED, "payload": {"offsets": [3]}})); // a5: x2
    data(&mut world, "/a", "after");
    deliver_all(&mut world, &["/a", "/b", "/c"]);
    world
}

fn assert_two_hops_retract_exactly_x2(world: &mut World) {
    for path in ["/b", "/c"] {
        let x2 = offset_of(world, path, "x2");
        let local = local_invalidations(world, path);
        assert_eq!(local.len(), 1, "{path}: one derived invalidation: {local:?}");
        assert_eq!(
            local[0]["payload"]["offsets"],
            json!([x2]),
            "{path} names its copy of x2"
        );
    }
    let x2 = offset_of(world, "/c", "x2");
    assert_eq!(retracted(world), vec![x2], "only /c's copy of x2, once");
    let after = offset_of(world, "/c", "after");
    assert_eq!(
        seen(world).last(),
        Some(&("event", after)),
        "the retraction went before the later event"
    );
}

#[test]
fn s13_two_hops_retract_exactly_the_copies_of_the_invalidated_event() {
    // Both /a's invalidation (offsets in /a's space) and /b's derived one
    // reach /c.
    let mut world = two_hop_world(3, None);
    assert_two_hops_retract_exactly_x2(&mut world);
}

#[test]
fn s13_two_hops_map_through_the_first_hop_when_only_the_copied_invalidation_travels() {
    let mut world = two_hop_world(4, Some("type = 'data' or $exists(source)"));
    assert_two_hops_retract_exactly_x2(&mut world);
}

#[test]
fn s13_two_hops_map_through_the_first_hop_when_only_the_derived_invalidation_travels() {
    let mut world = two_hop_world(5, Some("type = 'data' or $not($exists(source))"));
    assert_two_hops_retract_exactly_x2(&mut world);
}
