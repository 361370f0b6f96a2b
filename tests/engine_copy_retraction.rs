//! Retraction down copy chains natively (docs/design.md §13 "Through copies" and
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
use tributary::stream::dead_letters::DeadLetterQuery;

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
        bodies.extend(plan.events.iter().map(|event| event.body.tree().into_owned()));
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

// Failure paths: every retraction still reaches the receiver before anything
// after its invalidation, or is dead-lettered (kept), or halts the
// subscription before it — never passes silently, never twice in the log.

fn dead_letters(world: &mut World, path: &str) -> Vec<Value> {
    let query = DeadLetterQuery {
        subscription_key: None,
        after: 0,
        limit: 100,
    };
    let letters = world.stream(path).dead_letters(&query).unwrap()["deadLetters"].clone();
    letters.as_array().unwrap().clone()
}

#[test]
fn s13_a_retraction_the_webhook_refuses_transiently_is_retried_before_the_later_event() {
    let mut world = one_hop_world(11, "skip");
    let mut failures = 0;
    world.run(&["/a", "/b"], 300, &mut |plan: &DeliveryPlan| {
        // Each retraction fails once (the retry budget is 2 attempts).
        if plan.retraction.is_some() && failures < 2 && plan.attempt == 1 {
            failures += 1;
            Network::Fail(Outcome::transient("HTTP 503"))
        } else {
            Network::Deliver
        }
    });
    assert_eq!(failures, 2, "each retraction failed once, then was retried");
    assert_one_hop_order(&mut world);
    assert!(dead_letters(&mut world, "/b").is_empty());
}

#[test]
fn s13_a_retraction_refused_permanently_in_skip_mode_is_dead_lettered_kept_and_the_later_event_follows() {
    let mut world = one_hop_world(12, "skip");
    world.run(&["/a", "/b"], 300, &mut |plan: &DeliveryPlan| {
        if plan.retraction.is_some() {
            Network::Fail(Outcome::permanent("HTTP 400"))
        } else {
            Network::Deliver
        }
    });
    let dead = offsets_of(&mut world, "/b", &["x2", "x3"]);
    let letters = dead_letters(&mut world, "/b");
    let kinds: Vec<(&str, u64)> = letters
        .iter()
        .map(|letter| (letter["kind"].as_str().unwrap(), letter["offset"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        dead.iter().map(|offset| ("retraction", *offset)).collect::<Vec<_>>()
    );
    let card = world.card("/b");
    assert_eq!(
        card["subscriptions"][0]["runtime"]["journal"]["size"], 4,
        "x1..x3 and new are journaled; the dead-lettered retractions keep their rows: {card}"
    );
    let expected: Vec<(&str, u64)> = offsets_of(&mut world, "/b", &["x1", "x2", "x3", "new"])
        .into_iter()
        .map(|offset| ("event", offset))
        .collect();
    assert_eq!(seen(&world), expected, "nothing retracted, new delivered after");
    // The derived invalidation is still exactly one.
    assert_eq!(local_invalidations(&mut world, "/b").len(), 1);
}

#[test]
fn s13_a_retraction_refused_permanently_in_halt_mode_halts_before_the_later_event() {
    let mut world = one_hop_world(13, "halt");
    world.run(&["/a", "/b"], 300, &mut |plan: &DeliveryPlan| {
        if plan.retraction.is_some() {
            Network::Fail(Outcome::permanent("HTTP 400"))
        } else {
            Network::Deliver
        }
    });
    let events: Vec<(&str, u64)> = offsets_of(&mut world, "/b", &["x1", "x2", "x3"])
        .into_iter()
        .map(|offset| ("event", offset))
        .collect();
    assert_eq!(seen(&world), events, "the later event is not delivered past the halt");
    let new = offset_of(&mut world, "/b", "new");
    let halted = world.stream("/b").state().subscriptions.outbound.by_key["hook"]
        .delivery_halted
        .clone()
        .expect("halted on the retraction");
    assert!(halted.after_offset < new, "halted before the later event: {halted:?}");
    assert!(dead_letters(&mut world, "/b").is_empty());
}

#[test]
fn s13_a_copy_batch_with_an_invalidation_that_fails_transiently_commits_one_derived_invalidation() {
    let mut world = one_hop_world(14, "skip");
    let mut failures = 0;
    world.run(&["/a", "/b"], 300, &mut |plan: &DeliveryPlan| {
        let carries_invalidation = plan.events.iter().any(|event| event.offset == 5);
        if plan.subscription_key == "c" && carries_invalidation && failures < 2 {
            failures += 1;
            Network::Fail(Outcome::transient("HTTP 503"))
        } else {
            Network::Deliver
        }
    });
    assert_eq!(failures, 2);
    assert_one_hop_order(&mut world);
}

/// `seen`, each delivery id counted once (receivers dedupe on `webhook-id`).
fn seen_once(world: &World) -> Vec<(&'static str, u64)> {
    let mut ids = std::collections::BTreeSet::new();
    let mut once = World::new(0);
    once.external = world
        .external
        .iter()
        .filter(|(_, id, _)| ids.insert(id.clone()))
        .cloned()
        .collect();
    seen(&once)
}

#[test]
fn s13_a_crash_between_plan_and_completion_of_the_copy_batch_leaves_one_derived_invalidation() {
    for (seed, crash) in [(15, Network::CrashBeforeSend), (16, Network::CrashAfterSend)] {
        let mut world = one_hop_world(seed, "skip");
        let mut crashed = false;
        world.run(&["/a", "/b"], 300, &mut |plan: &DeliveryPlan| {
            if plan.subscription_key == "c" && plan.events.iter().any(|event| event.offset == 5) && !crashed {
                crashed = true;
                crash.clone()
            } else {
                Network::Deliver
            }
        });
        assert!(crashed);
        // Reopened from storage: the redelivered batch collapsed onto the
        // committed copies, and exactly one derived invalidation exists.
        world.crash();
        assert_one_hop_order(&mut world);
    }
}

#[test]
fn s13_a_crash_after_a_retraction_is_sent_resends_it_under_its_id_before_the_later_event() {
    let mut world = one_hop_world(17, "skip");
    let mut crashed = false;
    world.run(&["/a", "/b"], 300, &mut |plan: &DeliveryPlan| {
        if plan.retraction.is_some() && !crashed {
            crashed = true;
            Network::CrashAfterSend
        } else {
            Network::Deliver
        }
    });
    assert!(crashed);
    let first = world
        .external
        .iter()
        .position(|(_, id, _)| id.starts_with("rtr_"))
        .unwrap();
    let again = world
        .external
        .iter()
        .rposition(|(_, id, _)| *id == world.external[first].1);
    assert_ne!(
        again,
        Some(first),
        "the unacknowledged retraction was sent again, same id"
    );
    let dead = offsets_of(&mut world, "/b", &["x2", "x3"]);
    let new = offset_of(&mut world, "/b", "new");
    let once = seen_once(&world);
    assert_eq!(
        once[3..],
        [("retracted", dead[0]), ("retracted", dead[1]), ("event", new)]
    );
}

#[test]
fn s13_two_hops_with_a_crash_on_each_hop_still_retract_exactly_the_copy_once() {
    // /a → /b crashes after its invalidation landed; /b → /c crashes before
    // sending its own.
    let mut world = World::new(18);
    copy(&mut world, "/a", "/b", "ab", None);
    copy(&mut world, "/b", "/c", "bc", None);
    world.append("/b", json!({"type": "noise"}));
    webhook(&mut world, "/c", "skip");
    for label in ["x1", "x2", "x3"] {
        data(&mut world, "/a", label);
    }
    deliver_all(&mut world, &["/a", "/b", "/c"]);
    world.append("/a", json!({"type": INVALIDATED, "payload": {"offsets": [3]}}));
    data(&mut world, "/a", "after");
    let mut crashes = Vec::new();
    world.run(&["/a", "/b", "/c"], 300, &mut |plan: &DeliveryPlan| {
        let carries_invalidation = plan.events.iter().any(|event| event.body.tree()["type"] == INVALIDATED);
        match plan.subscription_key.as_str() {
            key @ ("ab" | "bc") if carries_invalidation && !crashes.contains(&key.to_owned()) => {
                crashes.push(key.to_owned());
                if key == "ab" {
                    Network::CrashAfterSend
                } else {
                    Network::CrashBeforeSend
                }
            }
            _ => Network::Deliver,
        }
    });
    assert_eq!(crashes, ["ab", "bc"]);
    assert_two_hops_retract_exactly_x2(&mut world);
}
