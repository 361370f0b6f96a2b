//! Dead-letter replay under a changing stream (docs/design.md §8, §13, §3 rule 6):
//! a replay's completion is fenced by the lifetime it was planned in (a
//! stream deleted and recreated while a replay is in flight keeps the new
//! lifetime's letter with the same id), and an event that was invalidated —
//! its retraction sent — is never replayed (409 `no_replay_invalidated`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Value};
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::deployment::Deployment;
use tributary::error::ApiFailure;
use tributary::stream::dead_letters::DeadLetterQuery;

const INVALIDATED: &str = "events.iterate.com/stream/events-invalidated";

fn webhook(world: &mut World, path: &str, key: &str) {
    world.set_deployment(
        path,
        Deployment {
            allow_insecure_webhooks: true,
            ..Default::default()
        },
    );
    let delivery = json!({"start": "beginning", "onFailingEvent": "skip", "retry": {"maxAttempts": 2, "initialBackoffMs": 10, "maxBackoffMs": 10}});
    world.append(path, json!({"type": "events.iterate.com/stream/subscription-configured", "payload": {"subscriptionKey": key, "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery": delivery}}}));
}

fn data(world: &mut World, path: &str, n: usize) {
    world.append(
        path,
        json!({"events": (0..n).map(|i| json!({"type": "data", "payload": {"i": i}})).collect::<Vec<_>>()}),
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

/// Every send of an event fails permanently (skip: dead-lettered).
fn refuse_events(plan: &DeliveryPlan) -> Network {
    if plan.retraction.is_some() {
        Network::Deliver
    } else {
        Network::Fail(Outcome::permanent("HTTP 400"))
    }
}

#[test]
fn s8_a_replay_that_finishes_after_delete_and_recreate_leaves_the_new_lifetimes_letter_alone() {
    let mut world = World::new(41);
    webhook(&mut world, "/r", "hook");
    data(&mut world, "/r", 1); // 2
    world.run(&["/r"], 20, &mut refuse_events);
    let old = letters(&mut world, "/r");
    assert_eq!(old.len(), 1);
    let id = old[0]["id"].as_u64().unwrap();
    let now = world.now;
    let plan = world.stream("/r").plan_replay(id, now).unwrap();
    // While the replay's send is in flight, the stream is deleted and
    // recreated, and the new lifetime dead-letters an event of its own.
    assert!(world.stream("/r").destroy().unwrap());
    webhook(&mut world, "/r", "hook");
    data(&mut world, "/r", 1);
    world.run(&["/r"], 20, &mut refuse_events);
    let new = letters(&mut world, "/r");
    assert_eq!(new.len(), 1);
    assert_eq!(new[0]["id"].as_u64(), Some(id), "ids start again in a new lifetime");
    // The late replay completes: success or failure, the new letter stays as it was.
    for outcome in [Outcome::transient("HTTP 503"), Outcome::Delivered] {
        let error = world
            .stream("/r")
            .complete_replay(id, &plan, plan.attempt, &outcome)
            .unwrap_err();
        assert_eq!(
            (error.status(), error.code()),
            (409, "stream_lifetime_ended"),
            "{error}"
        );
        assert_eq!(letters(&mut world, "/r"), new, "the new lifetime's letter is untouched");
    }
    // The new lifetime's own replay still works.
    let now = world.now;
    let plan = world.stream("/r").plan_replay(id, now).unwrap();
    assert!(world
        .stream("/r")
        .complete_replay(id, &plan, plan.attempt, &Outcome::Delivered)
        .unwrap());
    assert!(letters(&mut world, "/r").is_empty());
}

#[test]
fn s8_a_replay_completing_after_its_letter_was_discarded_and_another_took_the_id_changes_nothing() {
    let mut world = World::new(42);
    webhook(&mut world, "/d", "hook");
    data(&mut world, "/d", 1);
    world.run(&["/d"], 20, &mut refuse_events);
    let id = letters(&mut world, "/d")[0]["id"].as_u64().unwrap();
    let now = world.now;
    let plan = world.stream("/d").plan_replay(id, now).unwrap();
    world.stream("/d").discard_dead_letter(id).unwrap();
    data(&mut world, "/d", 1);
    world.run(&["/d"], 20, &mut refuse_events);
    let after = letters(&mut world, "/d");
    assert_eq!(after.len(), 1, "{after:?}");
    // Whatever id the new letter got, the late replay of the discarded one
    // touches no other letter.
    let _ = world
        .stream("/d")
        .complete_replay(id, &plan, plan.attempt, &Outcome::Delivered);
    let _ = world
        .stream("/d")
        .complete_replay(id, &plan, plan.attempt, &Outcome::transient("x"));
    assert_eq!(letters(&mut world, "/d"), after);
}

#[test]
fn s13_a_dead_lettered_event_whose_retraction_was_sent_is_not_replayed() {
    let mut world = World::new(43);
    webhook(&mut world, "/i", "hook");
    data(&mut world, "/i", 2); // 2, 3
    world.run(&["/i"], 20, &mut refuse_events);
    let dead = letters(&mut world, "/i");
    assert_eq!(dead.len(), 2);
    // Offset 2 is invalidated; the cursor passes the invalidation, its
    // retraction goes out (the journal holds dead-lettered events too).
    let at = world.append("/i", json!({"type": INVALIDATED, "payload": {"offsets": [2]}}))[0]["offset"].clone();
    data(&mut world, "/i", 1);
    let mut retracted = Vec::new();
    world.run(&["/i"], 50, &mut |plan: &DeliveryPlan| {
        if plan.retraction.is_some() {
            retracted.extend(plan.events.iter().map(|event| event.offset));
        }
        Network::Deliver
    });
    assert_eq!(retracted, vec![2], "the dead-lettered event's retraction was sent");
    let invalidated = dead.iter().find(|letter| letter["offset"] == 2).unwrap();
    let id = invalidated["id"].as_u64().unwrap();
    let now = world.now;
    let error = world.stream("/i").plan_replay(id, now).unwrap_err();
    assert_eq!(
        (error.status(), error.code()),
        (409, "no_replay_invalidated"),
        "{error}"
    );
    assert_eq!(
        error.details()["invalidatedAtOffset"],
        at,
        "names the invalidation: {error}"
    );
    assert!(error.to_string().contains(&format!("offset {at}")), "{error}");
    assert_eq!(letters(&mut world, "/i").len(), 2, "the refusal changes nothing");
    // The other letter (offset 3, not invalidated) replays.
    let other = dead.iter().find(|letter| letter["offset"] == 3).unwrap()["id"]
        .as_u64()
        .unwrap();
    let plan = world.stream("/i").plan_replay(other, now).unwrap();
    assert!(world
        .stream("/i")
        .complete_replay(other, &plan, plan.attempt, &Outcome::Delivered)
        .unwrap());
    // An `afterOffset` invalidation covers its range too.
    let head = world.stream("/i").head();
    data(&mut world, "/i", 1); // head + 1: dead-lettered
    world.run(&["/i"], 20, &mut refuse_events);
    world.append("/i", json!({"type": INVALIDATED, "payload": {"afterOffset": head}}));
    world.run(&["/i"], 50, &mut |_: &DeliveryPlan| Network::Deliver);
    let six = letters(&mut world, "/i")
        .into_iter()
        .find(|letter| letter["offset"] == head + 1)
        .unwrap();
    let error = world
        .stream("/i")
        .plan_replay(six["id"].as_u64().unwrap(), now)
        .unwrap_err();
    assert_eq!(error.code(), "no_replay_invalidated");
}
