//! Every statement the engine repeats is compiled once (issue 33). A
//! Durable Object keeps its compiled statements by SQL text, but SQLite
//! compiles a kept statement again before running it when the statement
//! has expired. A bound `LIMIT ?` is one way to expire it: the planner reads
//! the bound value, so every new binding expires the statement (SQLite
//! 3.50, here and in workerd). `LIMIT +?` hides the value from the planner,
//! and the plans do not change (their `ORDER BY` follows a key).
//!
//! The paths here run over and over in a stream's life: webhook deliveries
//! with journal pruning, copies into another stream (keyed appends and the
//! fence), catch-up reads (the JSON page), and retention trimming. After one
//! warm-up round (which creates tables, and a schema change rightly expires
//! statements), a second round must compile nothing again.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::json;
use tributary::stream::RangeQuery;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const RETENTION: &str = "events.iterate.com/stream/retention-configured";

fn round(world: &mut World, round: u64) {
    let events: Vec<_> = (0..40)
        .map(
            |n| json!({"type": "data", "payload": {"round": round, "n": n}, "idempotencyKey": format!("r{round}-{n}")}),
        )
        .collect();
    world.append("/source", json!({ "events": events }));
    world.run(&["/source"], 10_000, &mut |_| Network::Deliver);
    for stream in ["/source", "/target"] {
        let read = world
            .stream(stream)
            .read_range_json(&RangeQuery {
                after: 0,
                from_earliest: true,
                limit: 25,
                include_ephemeral: false,
            })
            .unwrap();
        assert!(read.count > 0, "{stream} reads events");
    }
}

#[test]
fn s12_no_statement_the_engine_repeats_is_compiled_again() {
    let mut world = World::new(33);
    world.allow_insecure_webhooks("/source");
    world.append("/source", json!({"type": RETENTION, "payload": {"maxEvents": 50}}));
    world.append("/source", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/hook", "delivery": {"start": "now", "onFailingEvent": "halt", "journalDepth": 8}}}}));
    world.append("/source", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "copy", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/target", "delivery": {"start": "now", "onFailingEvent": "halt"}}}}));
    round(&mut world, 0);
    for stream in ["/source", "/target"] {
        world.stream(stream).storage().take_reprepares();
    }
    for n in 1..=3 {
        round(&mut world, n);
    }
    assert_eq!(world.external.len(), 160, "every event reached the webhook");
    assert_eq!(world.events("/target").len(), 160, "every event was copied");
    for stream in ["/source", "/target"] {
        let compiled_again = world.stream(stream).storage().take_reprepares();
        assert!(
            compiled_again.is_empty(),
            "{stream} compiled statements again: {compiled_again:#?}"
        );
    }
}

/// The statements the paths above do not reach (sources, processors, the
/// catalog, secrets, project metrics, the Durable Streams face) are held to
/// the same rule by their text: no SQL in the engine or the shell binds a
/// bare `LIMIT ?`.
#[test]
fn s12_no_statement_binds_a_bare_limit() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut folders = vec![root.join("src"), root.join("durable-objects").join("src")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (line, content) in text.lines().enumerate() {
                    if content.contains("LIMIT ?") {
                        found.push(format!("{}:{}", path.display(), line + 1));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "bind `LIMIT +?` instead of `LIMIT ?`: {found:#?}");
}
