//! The JSONata steps of one engine call are capped (docs/design.md §12 row "JSONata
//! per engine call", issue 18 item 9): an expensive filter on a long log used
//! to evaluate up to MAX_SCAN_ROWS events in one synchronous `plan_delivery`,
//! freezing every stream of the isolate (a request to another stream waited
//! 14.3 s). Now one call spends at most MAX_JSONATA_STEPS_PER_CALL steps, then
//! persists its position like the row budget does, and the next call goes on;
//! the event that ran out of the call's budget is retried, not failed. The
//! same for one processor fold. (Live filters are event-type lists only, §10:
//! they evaluate no JSONata.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Value};
use tributary::limits::{MAX_JSONATA_STEPS, MAX_JSONATA_STEPS_PER_CALL};
use tributary::processor::{Definition, FoldError, FoldRequest, Instance, ProcessorStore, WakeRequest};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::dead_letters::DeadLetterQuery;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
/// About 90 000 steps when `payload.cost` is 90 000: within one evaluation's
/// budget, a tenth of a call's.
const FILTER: &str = "$count([1..payload.cost]) >= 0 and payload.keep";

fn subscribe(world: &mut World, filter: &str) {
    world.append(
        "/a",
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "k", "filter": {"jsonataCondition": filter},
            "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/b",
                "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}}),
    );
}

/// Appends events `first..=last` (offsets `i + 1`: the configuration is offset 1).
fn append_events(world: &mut World, first: u64, last: u64, event: impl Fn(u64) -> Value) {
    let all: Vec<Value> = (first..=last).map(event).collect();
    for batch in all.chunks(500) {
        world.append("/a", json!({ "events": batch }));
    }
}

fn cursor(world: &mut World) -> u64 {
    world.stream("/a").runtime_rows().unwrap()["k"].acknowledged_offset
}

fn head(world: &mut World) -> u64 {
    let (_, read) = common::read(world.stream("/a"), "after=0&limit=1");
    read["head"].as_u64().unwrap()
}

fn halted_after(world: &mut World) -> Option<(u64, String)> {
    let halted = world.stream("/a").state().subscriptions.outbound.by_key["k"]
        .delivery_halted
        .clone();
    halted.map(|halted| (halted.after_offset, halted.error.unwrap_or_default()))
}

fn dead_letter_offsets(world: &mut World) -> Vec<u64> {
    let query = DeadLetterQuery {
        subscription_key: None,
        after: 0,
        limit: 100,
    };
    world.stream("/a").dead_letters(&query).unwrap()["deadLetters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|letter| letter["eventOffset"].as_u64().unwrap())
        .collect()
}

fn copied_offsets(world: &mut World) -> Vec<u64> {
    world
        .events("/b")
        .iter()
        .filter(|e| e["type"] == "data")
        .map(|e| {
            e["source"]["copiedFrom"].as_array().unwrap().last().unwrap()["offset"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

/// One alarm's worth: plan (and send) once for "k". Returns the plan's range.
fn one_call(world: &mut World) -> Option<(u64, u64, usize)> {
    let now = world.now;
    let entropy = world.entropy();
    let plan = world.stream("/a").plan_delivery("k", now, entropy).unwrap()?;
    let range = (plan.after_offset, plan.through_offset, plan.events.len());
    world.perform("/a", plan, Network::Deliver);
    Some(range)
}

#[test]
fn s12_an_expensive_filter_that_matches_nothing_spends_one_call_budget_then_persists_its_position() {
    // The reproduced case (`$count([1..90000]) < 0`), on fewer events: every
    // event costs ~90 000 steps, so a call evaluates about ten of them.
    let mut world = World::new(91);
    subscribe(&mut world, "$count([1..90000]) < 0");
    append_events(&mut world, 1, 60, |i| json!({"type": "data", "payload": {"i": i}}));
    let head = head(&mut world);
    assert_eq!(head, 61);
    assert_eq!(one_call(&mut world), None, "nothing matched: no batch");
    let first = cursor(&mut world);
    let per_call = MAX_JSONATA_STEPS_PER_CALL / 90_000;
    assert!(
        first > 1 && first < head && first <= 1 + per_call,
        "one call stopped after about {per_call} evaluations and persisted its position: cursor {first}"
    );
    assert!(
        world.stream("/a").next_due_at().unwrap().is_some(),
        "the alarm re-arms for the rest"
    );
    let mut calls = 1;
    while cursor(&mut world) < head {
        assert_eq!(one_call(&mut world), None);
        calls += 1;
        assert!(calls <= 20, "the scan progresses every call");
    }
    assert!(calls >= 5, "{calls} calls for 60 events of ~90 000 steps each");
    assert_eq!(
        dead_letter_offsets(&mut world),
        Vec::<u64>::new(),
        "nothing failed for the call's budget"
    );
    assert_eq!(halted_after(&mut world), None, "nothing halted for the call's budget");
}

#[test]
fn s12_ten_thousand_events_with_an_expensive_filter_are_scanned_over_many_calls_with_the_right_result() {
    // 10 000 events; every hundredth costs ~90 000 steps (a hundred of them,
    // nine million steps: about ten calls), every five-hundredth is kept. One
    // event near the end alone exceeds an evaluation's budget: it, and only
    // it, is a permanent failure (the ordered copy halts on it).
    let mut world = World::new(92);
    subscribe(&mut world, FILTER);
    let bomb = 9_999;
    append_events(&mut world, 1, 10_000, |i| {
        let cost = if i == bomb {
            MAX_JSONATA_STEPS * 2
        } else if i % 100 == 0 {
            90_000
        } else {
            1
        };
        json!({"type": "data", "payload": {"i": i, "cost": cost, "keep": i % 500 == 0}})
    });
    let head = head(&mut world);
    assert_eq!(head, 10_001);
    // The first call stops long before the end of its 10 000-row window.
    let (after, through, events) = one_call(&mut world).expect("kept events before the budget ran out");
    assert_eq!(after, 0);
    assert!(
        through < 1_500,
        "the first call stopped after about ten expensive events: through {through}"
    );
    assert_eq!(events, 2, "events 500 and 1000 (offsets 501, 1001) were kept");
    assert_eq!(cursor(&mut world), through, "and the position is persisted");
    // Repeated calls finish the scan, up to the bomb.
    let mut calls = 1;
    while halted_after(&mut world).is_none() {
        one_call(&mut world);
        calls += 1;
        assert!(calls <= 100, "the scan progresses every call");
    }
    assert!(calls >= 9, "{calls} calls for nine million steps");
    let kept: Vec<u64> = (1..=19).map(|n| n * 500 + 1).collect();
    assert_eq!(
        copied_offsets(&mut world),
        kept,
        "every kept event copied once, in order"
    );
    let (after_offset, error) = halted_after(&mut world).unwrap();
    assert_eq!(
        after_offset,
        bomb,
        "halted right before the event over an evaluation's own budget (offset {}), and nothing earlier failed",
        bomb + 1
    );
    assert!(error.contains("U1001"), "{error}");
    assert_eq!(cursor(&mut world), bomb);
}

fn instance_with(reducer: &str) -> (Instance<RusqliteStorage>, Definition) {
    let store = ProcessorStore::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    let body = json!({"kind": "jsonata-reducer", "initialState": 0, "reducer": reducer});
    let definition = store.put("counter", body.to_string().as_bytes(), 1_000).unwrap().0;
    let mut instance = Instance::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    let wake = WakeRequest {
        definition: definition.clone(),
        stream_id: "s1".to_owned(),
    };
    assert_eq!(instance.wake(&wake).unwrap().checkpoint_offset, 0);
    (instance, definition)
}

fn fold_request(definition: &Definition, offsets: &[u64], through: u64) -> FoldRequest {
    FoldRequest {
        version: definition.version,
        stream_id: "s1".to_owned(),
        events: offsets
            .iter()
            .map(|offset| json!({"offset": offset, "type": "t", "payload": {}, "metadata": {}, "createdAt": "2026-01-01T00:00:00.000Z"}))
            .collect(),
        scanned_through_offset: through,
    }
}

#[test]
fn s12_a_processor_fold_that_hits_the_call_budget_commits_what_it_folded_and_continues() {
    let (mut instance, definition) = instance_with("$count([1..90000]) >= 0 ? $state + 1 : $state");
    // 30 events at odd offsets (the even ones were filtered out), scanned through 60.
    let offsets: Vec<u64> = (0..30).map(|n| 2 * n + 1).collect();
    let request = fold_request(&definition, &offsets, 60);
    let first = instance.fold(&request).unwrap().checkpoint_offset;
    assert!(first > 1 && first < 60, "the fold stopped part-way: checkpoint {first}");
    let state = |instance: &mut Instance<RusqliteStorage>| {
        let response = instance.handle("state", b"");
        serde_json::from_str::<Value>(&response.body).unwrap()["state"].clone()
    };
    let folded = offsets.iter().filter(|offset| **offset <= first).count();
    assert!(folded >= 5, "about ten folded: {folded}");
    assert_eq!(
        state(&mut instance),
        json!(folded),
        "state and checkpoint committed together"
    );
    assert!(
        offsets.contains(&(first + 1)),
        "the checkpoint stops right before the event that ran out"
    );
    // The spine resends from the checkpoint (the instance ignores what it folded).
    let mut checkpoint = first;
    for _ in 0..10 {
        if checkpoint == 60 {
            break;
        }
        checkpoint = instance.fold(&request).unwrap().checkpoint_offset;
    }
    assert_eq!(checkpoint, 60);
    assert_eq!(state(&mut instance), json!(30), "every event folded exactly once");
}

#[test]
fn s12_a_reducer_over_one_evaluations_budget_still_fails_that_event() {
    let (mut instance, definition) = instance_with("$count([1..200000]) + $state");
    let error = instance.fold(&fold_request(&definition, &[1], 1)).unwrap_err();
    assert!(
        matches!(&error, FoldError::Reducer { offset: 1, message } if message.contains("U1001")),
        "{error:?}"
    );
}
