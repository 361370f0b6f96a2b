//! A copy's idempotency key (docs/design.md §7 rule 4) in its ordered form:
//! one run's keys sort by source offset, so the receiving stream's key index
//! grows at one end. A run the stream had when migration 0016 ran keeps the
//! first form, so a retry after the deploy collapses into the append it
//! retries; every run begun after it copies under ordered keys.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Value};
use tributary::copy::{copy_idempotency_key_in, CopyKeyForm, Stamp};
use tributary::delivery::DeliveryPlan;
use tributary::storage::Storage;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

fn subscribe(world: &mut World, source: &str, receiving: &str, key: &str) {
    world.append(
        source,
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "receiver": {"action": "copy-to-stream",
            "receivingStreamPath": receiving, "delivery": {"start": "now", "onFailingEvent": "halt"}}}}),
    );
}

fn data(world: &mut World, path: &str, n: usize) {
    let events: Vec<Value> = (0..n).map(|i| json!({"type": "data", "payload": {"i": i}})).collect();
    world.append(path, json!({ "events": events }));
}

/// The key of each data copy on `receiving`, each checked to be the key its
/// last hop derives in `form`.
fn keys(world: &mut World, receiving: &str, form: CopyKeyForm) -> Vec<String> {
    world
        .events(receiving)
        .iter()
        .filter(|event| event["type"] == "data")
        .map(|event| {
            let hop = event["source"]["copiedFrom"].as_array().unwrap().last().unwrap();
            let stamp = Stamp {
                source_project_id: hop["projectId"].as_str().unwrap().to_owned(),
                source_path: hop["path"].as_str().unwrap().to_owned(),
                subscription_key: hop["subscriptionKey"].as_str().unwrap().to_owned(),
                stream_id: hop["streamId"].as_str().unwrap().to_owned(),
                stream_created_at: hop["streamCreatedAt"].as_str().unwrap().to_owned(),
                cursor_changed_at_source_offset: hop["cursorChangedAtSourceOffset"].as_u64().unwrap(),
            };
            let key = event["idempotencyKey"].as_str().unwrap().to_owned();
            let derived = copy_idempotency_key_in(form, &stamp, hop["offset"].as_u64().unwrap());
            assert_eq!(key, derived, "the {form:?} form of the hop's coordinates");
            key
        })
        .collect()
}

fn deliver(_: &DeliveryPlan) -> Network {
    Network::Deliver
}

#[test]
fn s7_a_run_copies_under_ordered_keys_that_sort_by_source_offset() {
    let mut world = World::new(1);
    subscribe(&mut world, "/a", "/b", "mirror");
    data(&mut world, "/a", 20);
    world.run(&["/a"], 10, &mut deliver);
    let copies = keys(&mut world, "/b", CopyKeyForm::Ordered);
    assert_eq!(copies.len(), 20);
    for key in &copies {
        assert_eq!(key.len(), "copy:".len() + 32 + 16, "{key}");
    }
    let in_commit_order = copies.clone();
    let mut sorted = in_commit_order.clone();
    sorted.sort();
    assert_eq!(in_commit_order, sorted, "one run's keys sort in offset order");
}

/// The first form is exactly the key as it was before 0016: a blake3 of the
/// coordinates, generation and offset.
#[test]
fn s7_the_first_form_is_the_key_as_it_was() {
    let stamp = Stamp {
        source_project_id: "p".into(),
        source_path: "/a".into(),
        subscription_key: "mirror".into(),
        stream_id: "s".into(),
        stream_created_at: "2026-12-04T00:00:00.000Z".into(),
        cursor_changed_at_source_offset: 4,
    };
    let mut hasher = blake3::Hasher::new();
    for part in ["p", "/a", "s", "mirror"] {
        hasher.update(part.as_bytes());
        hasher.update(&[0]);
    }
    hasher.update(&4u64.to_le_bytes());
    hasher.update(&9u64.to_le_bytes());
    assert_eq!(
        copy_idempotency_key_in(CopyKeyForm::First, &stamp, 9),
        format!("copy:{}", hasher.finalize().to_hex())
    );
    assert_ne!(
        copy_idempotency_key_in(CopyKeyForm::Ordered, &stamp, 9),
        copy_idempotency_key_in(CopyKeyForm::First, &stamp, 9)
    );
}

/// Migration 0016 run on a stream with an open copy run (as on the deploy
/// that brings it): that run keeps the first form, across a source crash
/// between the receiver's commit and the acknowledgement, so the retry
/// collapses; a run begun afterwards copies under ordered keys.
#[test]
fn s7_a_run_open_when_the_form_changed_keeps_the_first_form_and_its_retry_collapses() {
    let mut world = World::new(2);
    subscribe(&mut world, "/a", "/b", "mirror");
    // The stream as it was before the migration: run it again on open.
    world
        .stream("/a")
        .storage()
        .execute("DELETE FROM schema_migrations WHERE version = 16", &[])
        .unwrap();
    world.crash();
    let listed = world
        .stream("/a")
        .storage()
        .query("SELECT subscription_key FROM copy_key_first_form_runs", &[])
        .unwrap();
    assert_eq!(listed.len(), 1, "the open run is listed");

    data(&mut world, "/a", 3);
    let mut sends = 0;
    world.run(&["/a"], 10, &mut |_: &DeliveryPlan| {
        sends += 1;
        if sends == 1 {
            Network::CrashAfterSend
        } else {
            Network::Deliver
        }
    });
    assert!(sends >= 2, "the batch was sent again after the crash");
    let copies = keys(&mut world, "/b", CopyKeyForm::First);
    assert_eq!(
        copies.len(),
        3,
        "the retry collapsed, both attempts in the first form: {copies:?}"
    );

    // A run begun after the migration: ordered keys.
    subscribe(&mut world, "/a", "/c", "later");
    data(&mut world, "/a", 2);
    world.run(&["/a"], 10, &mut deliver);
    assert_eq!(keys(&mut world, "/c", CopyKeyForm::Ordered).len(), 2);
    assert_eq!(
        keys(&mut world, "/b", CopyKeyForm::First).len(),
        5,
        "the open run goes on in its form"
    );
}
