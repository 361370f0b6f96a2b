//! What one alarm invocation may do (docs/design.md §12, §15.1), driven as the
//! shell's loop drives the production turn (`World::invocation`):
//!
//! - the log receiver writes at most the invocation's log budget
//!   (`INVOCATION_LOG_BYTES`: Workers Logs keeps 256 KB of one invocation's
//!   log and drops the rest); the cursor passes only what was written, the
//!   rest is delivered by the next invocations, and a single line over the
//!   budget is dead-lettered (`skip`) or halts (`halt`) with a fact, never
//!   acknowledged unseen;
//! - a turn yields after a count of completions, not a clock: completions
//!   that need no I/O (prepared failures, log lines) leave the Workers clock
//!   where it was.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::log_receiver;
use common::world::{Network, World};
use serde_json::{json, Value};
use tributary::delivery::{log_lines, Completion, DeliveryPlan};
use tributary::limits::{ALARM_YIELD_EVERY_COMPLETIONS, INVOCATION_LOG_BYTES};
use tributary::stream::dead_letters::DeadLetterQuery;

const HALTED: &str = "events.iterate.com/stream/subscription-delivery-halted";
const ERROR: &str = "events.iterate.com/stream/error-occurred";

/// An order whose line is about `pad` bytes long.
fn order(n: u64, pad: usize) -> Value {
    json!({"type": "order", "payload": {"n": n, "pad": "x".repeat(pad)}})
}

fn acknowledged(world: &mut World, path: &str, key: &str) -> u64 {
    world.runtime(path, key)["acknowledgedOffset"].as_u64().unwrap()
}

fn deliver(_: &DeliveryPlan) -> Network {
    Network::Deliver
}

#[test]
fn s12_an_invocation_logs_within_its_budget_and_the_next_ones_log_the_rest() {
    let mut world = World::new(11);
    world.append("/shop", log_receiver("audit", "halt", None));
    // Ten lines of ~50 KB: 500 KB, one batch by the batch limits (100 events, 1 MiB).
    let orders: Vec<Value> = (0..10).map(|n| order(n, 50_000)).collect();
    world.append("/shop", json!({ "events": orders }));
    let mut logged: Vec<u64> = Vec::new();
    let mut invocations = 0;
    while acknowledged(&mut world, "/shop", "audit") < 11 {
        invocations += 1;
        assert!(invocations <= 10, "no progress: {:?}", world.trace);
        let invocation = world.invocation("/shop", &mut deliver);
        assert!(
            invocation.log_bytes <= INVOCATION_LOG_BYTES,
            "invocation {invocations} logged {} bytes, over the budget of {INVOCATION_LOG_BYTES}",
            invocation.log_bytes
        );
        assert!(!invocation.logged.is_empty(), "invocation {invocations} logged nothing");
        logged.extend(&invocation.logged);
        // The cursor passed exactly what was written.
        assert_eq!(acknowledged(&mut world, "/shop", "audit"), *logged.last().unwrap());
        if *logged.last().unwrap() < 11 {
            // The rest is due at once: the alarm re-arms for a new invocation.
            let due = world.stream("/shop").next_due_at().unwrap().unwrap();
            assert!(due <= world.now, "due at {due}, now {}", world.now);
        }
    }
    assert_eq!(logged, (2..=11).collect::<Vec<u64>>(), "each line once, in order");
    assert!(invocations >= 3, "500 KB of lines took {invocations} invocations");
}

#[test]
fn s15_1_a_line_over_the_budget_is_dead_lettered_in_skip_mode_and_halts_in_halt_mode() {
    // The middle order's line alone is over the budget (its event is within 256 KiB).
    let big = INVOCATION_LOG_BYTES + 10_000;
    for mode in ["skip", "halt"] {
        let mut world = World::new(12);
        world.append("/shop", log_receiver("audit", mode, None));
        world.append("/shop", json!({"events": [order(1, 10), order(2, big), order(3, 10)]}));
        let mut logged = Vec::new();
        for _ in 0..4 {
            let invocation = world.invocation("/shop", &mut deliver);
            assert!(invocation.log_bytes <= INVOCATION_LOG_BYTES);
            logged.extend(invocation.logged);
        }
        let events = world.events("/shop");
        let facts = |kind: &str| -> Vec<Value> {
            events
                .iter()
                .filter(|event| event["type"] == kind)
                .map(|event| event["payload"].clone())
                .collect()
        };
        let letters = world
            .stream("/shop")
            .dead_letters(&DeadLetterQuery::parse("").unwrap())
            .unwrap();
        let letters = letters["deadLetters"].as_array().unwrap().clone();
        if mode == "skip" {
            assert_eq!(logged, vec![2, 4], "offset 3 is never written: {:?}", world.trace);
            assert_eq!(letters.len(), 1, "{letters:?}");
            assert_eq!(letters[0]["offset"], 3);
            let reason = letters[0]["reason"].as_str().unwrap();
            assert!(reason.contains("more than one invocation may log"), "{reason}");
            let skipped = facts(ERROR);
            assert_eq!(skipped.len(), 1, "{skipped:?}");
            assert_eq!(skipped[0]["offsets"], json!([3]));
            assert_eq!(acknowledged(&mut world, "/shop", "audit"), 5, "past the fact too");
            // A replay would not write it either (§8): it fails, permanently.
            let id = letters[0]["id"].as_u64().unwrap();
            let now = world.now;
            let replay = world.stream("/shop").plan_replay(id, now).unwrap();
            assert!(replay.prepared_failure.is_some(), "{replay:?}");
        } else {
            assert_eq!(logged, vec![2], "{:?}", world.trace);
            assert!(letters.is_empty());
            let halted = facts(HALTED);
            assert_eq!(halted.len(), 1, "{halted:?}");
            assert_eq!(halted[0]["afterOffset"], 2);
            assert!(halted[0]["error"]
                .as_str()
                .unwrap()
                .contains("more than one invocation may log"));
            assert_eq!(acknowledged(&mut world, "/shop", "audit"), 2);
        }
    }
}

#[test]
fn s12_a_line_that_fits_a_fresh_invocation_waits_for_one() {
    let mut world = World::new(13);
    world.append("/shop", log_receiver("audit", "halt", None));
    // 120 KB, then 120 KB: together over the budget, each within it.
    world.append("/shop", json!({"events": [order(1, 120_000), order(2, 120_000)]}));
    let first = world.invocation("/shop", &mut deliver);
    assert_eq!(first.logged, vec![2]);
    assert_eq!(first.completions, vec![Completion::Acknowledged { through: 2 }]);
    let second = world.invocation("/shop", &mut deliver);
    assert_eq!(second.logged, vec![3]);
    assert!(world
        .stream("/shop")
        .dead_letters(&DeadLetterQuery::parse("").unwrap())
        .unwrap()["deadLetters"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[test]
fn s12_the_engine_prices_a_batch_as_its_lines_are_written() {
    let mut world = World::new(14);
    world.append(
        "/shop",
        log_receiver(
            "audit",
            "halt",
            Some("{'payload': {'quote': '\"\\\\', 'n': payload.n}}"),
        ),
    );
    world.append("/shop", json!({"events": [order(1, 10), order(2, 10)]}));
    let now = world.now;
    let plan = world
        .stream("/shop")
        .plan_delivery("audit", now, [3; 16])
        .unwrap()
        .unwrap();
    let written: usize = log_lines::lines(&plan)
        .iter()
        .map(|line| serde_json::to_string(line).unwrap().len())
        .sum();
    assert_eq!(log_lines::cost_of(&plan), written);
}

#[test]
fn s12_a_turn_of_prepared_failures_yields_after_a_count_of_completions() {
    let mut world = World::new(15);
    world.append("/shop", log_receiver("audit", "skip", Some("$error('refused')")));
    let orders: Vec<Value> = (0..300).map(|n| order(n, 0)).collect();
    world.append("/shop", json!({ "events": orders }));
    let invocation = world.invocation("/shop", &mut deliver);
    let completions: u32 = invocation.stretches.iter().sum();
    assert_eq!(completions, 300, "each failing event dead-lettered in one turn");
    let longest = invocation.stretches.iter().max().copied().unwrap();
    assert!(
        longest <= ALARM_YIELD_EVERY_COMPLETIONS,
        "{longest} completions without a yield: {:?}",
        invocation.stretches
    );
}

#[test]
fn s12_a_turn_of_log_lines_yields_after_a_count_of_completions() {
    let mut world = World::new(16);
    // 64 log subscriptions (the most to one receiver), each logging the
    // events around one its transform refuses: three completions each.
    let refusing = "payload.n = 2 ? $error('refused') : {'payload': payload}";
    for key in 0..64 {
        world.append("/shop", log_receiver(&format!("audit-{key}"), "skip", Some(refusing)));
    }
    world.append("/shop", json!({"events": [order(1, 10), order(2, 10), order(3, 10)]}));
    let invocation = world.invocation("/shop", &mut deliver);
    assert_eq!(invocation.logged.len(), 128, "two lines per subscription");
    assert_eq!(invocation.completions.len(), 192);
    let longest = invocation.stretches.iter().max().copied().unwrap();
    assert!(
        longest <= ALARM_YIELD_EVERY_COMPLETIONS,
        "{longest} completions without a yield: {:?}",
        invocation.stretches
    );
}
