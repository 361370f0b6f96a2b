//! Retraction, the delivery journal and gates natively (docs/design.md §13):
//! retractions in order before anything after the invalidation, never for
//! what was not delivered, never throttled; dead-lettered retractions kept
//! and never replayed; journal gaps recorded; invalidations flowing down
//! copy chains; threshold and maxOnce gates by event time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use common::Rng;
use serde_json::{json, Value};
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::deployment::Deployment;
use tributary::error::ApiFailure;
use tributary::event::Authority;
use tributary::stream::dead_letters::DeadLetterQuery;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const INVALIDATED: &str = "events.iterate.com/stream/events-invalidated";

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
    world.append(
        path,
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery": full}}}),
    );
}

fn data(world: &mut World, path: &str, n: usize) {
    for i in 0..n {
        world.append(path, json!({"type": "data", "payload": {"i": i}}));
    }
}

/// What the simulated receiver saw, in order: `("event", offset)` or `("retracted", offset)`.
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

fn deliver_all(world: &mut World, sources: &[&str]) {
    world.run(sources, 200, &mut |_: &DeliveryPlan| Network::Deliver);
}

#[test]
fn s13_retractions_come_in_order_before_anything_after_the_invalidation() {
    let mut world = World::new(1);
    webhook(&mut world, "/chain", "hook", json!({}));
    data(&mut world, "/chain", 5); // offsets 2..=6
    deliver_all(&mut world, &["/chain"]);
    world.append(
        "/chain",
        json!({"type": INVALIDATED, "payload": {"afterOffset": 3, "reason": "reorg"}}),
    ); // 7
    data(&mut world, "/chain", 2); // 8, 9
    deliver_all(&mut world, &["/chain"]);
    assert_eq!(
        seen(&world),
        vec![
            ("event", 2),
            ("event", 3),
            ("event", 4),
            ("event", 5),
            ("event", 6),
            ("retracted", 4),
            ("retracted", 5),
            ("retracted", 6),
            ("event", 8),
            ("event", 9)
        ]
    );
    let card = world.card("/chain");
    let runtime = &card["subscriptions"][0]["runtime"];
    assert_eq!(
        runtime["journal"]["size"], 4,
        "delivered retractions forget their rows: {card}"
    );
    assert_eq!(runtime["journal"]["oldestRetainedOffset"], 2);
    let metrics = world.stream("/chain").metrics_text();
    assert!(metrics.contains("tributary_retractions_total 3"), "{metrics}");
}

#[test]
fn s13_no_retraction_for_events_never_delivered_or_filtered_out() {
    let mut world = World::new(2);
    webhook(&mut world, "/f", "hook", json!({}));
    world.append("/f", json!({"type": "noise"})); // 2, filtered out
    data(&mut world, "/f", 1); // 3
    deliver_all(&mut world, &["/f"]);
    world.append("/f", json!({"type": INVALIDATED, "payload": {"offsets": [2, 3]}})); // 4
    data(&mut world, "/f", 1); // 5
    deliver_all(&mut world, &["/f"]);
    assert_eq!(seen(&world), vec![("event", 3), ("retracted", 3), ("event", 5)]);
}

#[test]
fn s13_a_failing_retraction_is_dead_lettered_kept_and_cannot_be_replayed() {
    let mut world = World::new(3);
    webhook(&mut world, "/d", "hook", json!({}));
    data(&mut world, "/d", 2); // 2, 3
    deliver_all(&mut world, &["/d"]);
    world.append("/d", json!({"type": INVALIDATED, "payload": {"afterOffset": 2}})); // 4
    data(&mut world, "/d", 1); // 5
    world.run(&["/d"], 50, &mut |plan: &DeliveryPlan| {
        if plan.retraction.is_some() {
            Network::Fail(Outcome::permanent("HTTP 400"))
        } else {
            Network::Deliver
        }
    });
    assert_eq!(seen(&world), vec![("event", 2), ("event", 3), ("event", 5)]);
    let query = DeadLetterQuery {
        subscription_key: None,
        after: 0,
        limit: 100,
    };
    let letters = world.stream("/d").dead_letters(&query).unwrap()["deadLetters"].clone();
    assert_eq!(letters.as_array().unwrap().len(), 1, "{letters}");
    assert_eq!(letters[0]["kind"], "retraction");
    assert_eq!(letters[0]["offset"], 3);
    let id = letters[0]["id"].as_u64().unwrap();
    let error = world.stream("/d").plan_replay(id, 1).unwrap_err();
    assert_eq!((error.status(), error.code()), (409, "no_replay_retracted"));
    let card = world.card("/d");
    assert_eq!(
        card["subscriptions"][0]["runtime"]["journal"]["size"], 3,
        "the dead-lettered retraction keeps its row"
    );
}

/// An offset journaled again by a new run (§13): the row loses the mark its
/// dead-lettered retraction left, so the invalidation retracts it again.
#[test]
fn s13_an_offset_a_new_run_delivers_again_is_journaled_again() {
    let mut world = World::new(13);
    webhook(&mut world, "/r", "hook", json!({}));
    data(&mut world, "/r", 1); // 2
    deliver_all(&mut world, &["/r"]);
    world.append("/r", json!({"type": INVALIDATED, "payload": {"offsets": [2]}})); // 3
    world.run(&["/r"], 50, &mut |plan: &DeliveryPlan| {
        if plan.retraction.is_some() {
            Network::Fail(Outcome::permanent("HTTP 400"))
        } else {
            Network::Deliver
        }
    });
    assert_eq!(seen(&world), vec![("event", 2)], "the retraction was dead-lettered");
    // A new run from the beginning delivers offset 2 again, then meets the
    // invalidation at 3 again: the journaled row is retracted this time.
    webhook(&mut world, "/r", "hook", json!({"start": "beginning"}));
    deliver_all(&mut world, &["/r"]);
    assert_eq!(seen(&world), vec![("event", 2), ("event", 2), ("retracted", 2)]);
    let card = world.card("/r");
    assert_eq!(
        card["subscriptions"][0]["runtime"]["journal"]["size"], 0,
        "the delivered retraction forgot its row"
    );
}

#[test]
fn s13_an_invalidation_older_than_the_journal_is_a_recorded_gap() {
    let mut world = World::new(4);
    webhook(&mut world, "/g", "hook", json!({"journalDepth": 2}));
    data(&mut world, "/g", 4); // 2..=5
    deliver_all(&mut world, &["/g"]);
    world.append("/g", json!({"type": INVALIDATED, "payload": {"afterOffset": 1}})); // 6
    data(&mut world, "/g", 1); // 7
    deliver_all(&mut world, &["/g"]);
    assert_eq!(
        seen(&world)[4..],
        [("retracted", 4), ("retracted", 5), ("event", 7)],
        "the retained part is retracted"
    );
    let gaps: Vec<Value> = world
        .events("/g")
        .into_iter()
        .filter(|event| event["payload"]["kind"] == "journal-gap")
        .collect();
    assert_eq!(gaps.len(), 1);
    assert_eq!(gaps[0]["payload"]["invalidatedAtOffset"], 6);
    assert!(world
        .stream("/g")
        .metrics_text()
        .contains("tributary_journal_gap_total 1"));
}

#[test]
fn s13_retractions_are_never_throttled_and_an_open_aggregate_window_flushes_first() {
    let mut world = World::new(5);
    webhook(
        &mut world,
        "/t",
        "hook",
        json!({"throttle": {"maxDeliveries": 1, "windowMs": 86_400_000}}),
    );
    data(&mut world, "/t", 1); // 2
    deliver_all(&mut world, &["/t"]);
    world.append("/t", json!({"type": INVALIDATED, "payload": {"offsets": [2]}})); // 3
    deliver_all(&mut world, &["/t"]);
    assert_eq!(
        seen(&world),
        vec![("event", 2), ("retracted", 2)],
        "the budget was spent; the retraction went anyway"
    );

    let mut world = World::new(6);
    webhook(
        &mut world,
        "/a",
        "hook",
        json!({"aggregate": {"windowMs": 60_000, "maxBatch": 10}}),
    );
    data(&mut world, "/a", 2); // 2, 3 held
                               // One alarm at the current time (`run` would jump the clock to the flush).
    world.alarm("/a", &mut |_: &DeliveryPlan| Network::Deliver);
    assert!(world.external.is_empty(), "held in the open window");
    world.append("/a", json!({"type": INVALIDATED, "payload": {"offsets": [1]}})); // 4
    world.alarm("/a", &mut |_: &DeliveryPlan| Network::Deliver);
    assert_eq!(
        seen(&world),
        vec![("event", 2), ("event", 3)],
        "the invalidation flushed the digest early"
    );
}

#[test]
fn s13_invalidations_flow_down_copy_chains() {
    let mut world = World::new(7);
    world.append("/a", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "c",
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/b", "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}}));
    webhook(&mut world, "/b", "hook", json!({}));
    data(&mut world, "/a", 3); // a: 2, 3, 4
    deliver_all(&mut world, &["/a", "/b"]);
    world.append(
        "/a",
        json!({"type": INVALIDATED, "payload": {"afterOffset": 2, "reason": "reorg"}}),
    ); // a: 5
    data(&mut world, "/a", 1); // a: 6
    deliver_all(&mut world, &["/a", "/b"]);
    let b = world.events("/b");
    let local: Vec<&Value> = b
        .iter()
        .filter(|event| event["type"] == INVALIDATED && event.get("source").is_none())
        .collect();
    assert_eq!(local.len(), 1, "B invalidated its own copies in the same commit");
    let copies_of = |source_offsets: &[u64]| -> Vec<u64> {
        b.iter()
            .filter(|event| {
                event["source"]["copiedFrom"]
                    .as_array()
                    .and_then(|chain| chain.last())
                    .and_then(|hop| hop["offset"].as_u64())
                    .is_some_and(|offset| source_offsets.contains(&offset))
            })
            .map(|event| event["offset"].as_u64().unwrap())
            .collect()
    };
    let invalidated = copies_of(&[3, 4]);
    assert_eq!(local[0]["payload"]["offsets"], json!(invalidated));
    assert_eq!(local[0]["payload"]["reason"], "reorg");
    let retracted: Vec<u64> = seen(&world)
        .into_iter()
        .filter(|(kind, _)| *kind == "retracted")
        .map(|(_, offset)| offset)
        .collect();
    assert_eq!(
        retracted, invalidated,
        "B's webhook retracted B's copies of the dead events"
    );
}

#[test]
fn s13_a_threshold_gate_mints_one_digest_per_count_within_the_window() {
    let mut world = World::new(8);
    webhook(
        &mut world,
        "/th",
        "hook",
        json!({"gate": {"threshold": {"count": 3, "windowMs": 1000}}}),
    );
    data(&mut world, "/th", 2); // 2, 3 (held)
    world.now += 5_000; // both fall out of the window
    data(&mut world, "/th", 3); // 4, 5, 6 → digest
    deliver_all(&mut world, &["/th"]);
    assert_eq!(world.external.len(), 1, "{:?}", world.external);
    assert_eq!(
        world.external[0].2,
        vec![4, 5, 6],
        "one digest at the position of the last hit"
    );
    let metrics = world.stream("/th").metrics_text();
    assert!(metrics.contains("tributary_gate_dropped_total 2"), "{metrics}");
    let card = world.card("/th");
    assert_eq!(card["subscriptions"][0]["runtime"]["gate"]["heldHits"], 0);
}

#[test]
fn s13_a_max_once_gate_delivers_once_per_window_and_discards_quietly() {
    let mut world = World::new(9);
    webhook(
        &mut world,
        "/mo",
        "hook",
        json!({"gate": {"maxOnce": {"windowMs": 1000}}}),
    );
    data(&mut world, "/mo", 3); // 2 delivered, 3 and 4 discarded
    deliver_all(&mut world, &["/mo"]);
    world.now += 2_000;
    data(&mut world, "/mo", 2); // 5 delivered, 6 discarded
    deliver_all(&mut world, &["/mo"]);
    assert_eq!(seen(&world), vec![("event", 2), ("event", 5)]);
    assert!(world
        .stream("/mo")
        .metrics_text()
        .contains("tributary_gate_discarded_total 3"));
    let query = DeadLetterQuery {
        subscription_key: None,
        after: 0,
        limit: 10,
    };
    assert_eq!(
        world.stream("/mo").dead_letters(&query).unwrap()["deadLetters"],
        json!([]),
        "no dead letters"
    );
}

#[test]
fn s13_malformed_invalidations_and_gates_are_refused_before_commit() {
    let mut stream = common::memory_stream("/bad");
    stream
        .append_body(br#"{"type":"data"}"#, Authority::Public, &common::inputs(1_000, 1))
        .unwrap();
    for payload in [
        json!({}),
        json!({"afterOffset": 0, "offsets": [1]}),
        json!({"afterOffset": 2}),
        json!({"offsets": [2]}),
        json!({"offsets": []}),
        json!({"offsets": (1..=1001).collect::<Vec<_>>()}),
        json!({"offsets": ["1"]}),
        json!({"afterOffset": 0, "reason": "r".repeat(300)}),
        json!({"afterOffset": 0, "extra": true}),
    ] {
        let body = json!({"type": INVALIDATED, "payload": payload});
        let error = stream
            .append_body(
                body.to_string().as_bytes(),
                Authority::Public,
                &common::inputs(2_000, 1),
            )
            .unwrap_err();
        assert_eq!(error.status(), 422, "{payload}");
    }
    for gate in [
        json!({"threshold": {"count": 0, "windowMs": 10}}),
        json!({"threshold": {"count": 1, "windowMs": 86_400_001}}),
        json!({"maxOnce": {"windowMs": 0}}),
        json!({"maxOnce": {}}),
        json!({"threshold": {"count": 1, "windowMs": 1}, "maxOnce": {"windowMs": 1}}),
    ] {
        let body = json!({"type": CONFIGURED, "payload": {"receiver": {"action": "webhook-post", "url": "https://example.com/h",
            "delivery": {"start": "now", "onFailingEvent": "skip", "gate": gate}}}});
        let error = stream
            .append_body(
                body.to_string().as_bytes(),
                Authority::Public,
                &common::inputs(2_000, 1),
            )
            .unwrap_err();
        assert_eq!(error.status(), 422, "{gate}");
    }
    assert_eq!(stream.head(), 1, "nothing committed");
}

/// One seed: random data, noise and invalidations (ranges and lists),
/// receivers failing and recovering, crashes; then the §13 invariants over
/// what the receiver saw.
fn retraction_run(seed: u64) {
    let mut rng = Rng(seed);
    let mut world = World::new(seed);
    let throttled = rng.below(2) == 0;
    let delivery = if throttled {
        json!({"throttle": {"maxDeliveries": 1 + rng.below(3), "windowMs": 86_400_000}})
    } else {
        json!({})
    };
    webhook(&mut world, "/s", "hook", delivery);
    let mut invalidations: Vec<(u64, Value)> = Vec::new();
    for _step in 0..80 {
        world.now += 1 + rng.below(100) as i64;
        match rng.below(10) {
            0..=3 => data(&mut world, "/s", 1 + rng.below(3) as usize),
            4 => {
                world.append("/s", json!({"type": "noise"}));
            }
            5 => {
                let head = world.stream("/s").head();
                let payload = if rng.below(2) == 0 {
                    json!({"afterOffset": rng.below(head.max(1))})
                } else {
                    let offsets: std::collections::BTreeSet<u64> =
                        (0..1 + rng.below(4)).map(|_| 1 + rng.below(head)).collect();
                    json!({"offsets": offsets})
                };
                let appended = world.append("/s", json!({"type": INVALIDATED, "payload": payload}));
                invalidations.push((appended[0]["offset"].as_u64().unwrap(), payload));
            }
            6 => world.crash(),
            _ => {
                let failing = rng.below(4) == 0;
                let permanent = rng.below(3) == 0;
                world.alarm("/s", &mut |_: &DeliveryPlan| {
                    if failing && permanent {
                        Network::Fail(Outcome::permanent("HTTP 400"))
                    } else if failing {
                        Network::Fail(Outcome::transient("HTTP 503"))
                    } else {
                        Network::Deliver
                    }
                });
            }
        }
    }
    let card = world.card("/s");
    let journal = card["subscriptions"][0]["runtime"]["journal"]["size"]
        .as_u64()
        .unwrap_or(0);
    assert!(journal <= 1024, "seed {seed}: the journal never exceeds its depth");
    world.now += 86_400_000;
    deliver_all(&mut world, &["/s"]);
    // What the receiver saw, deduplicated by delivery id, in order.
    let mut seen_ids = std::collections::BTreeSet::new();
    let sequence: Vec<(bool, u64)> = world
        .external
        .iter()
        .filter(|(_, id, _)| seen_ids.insert(id.clone()))
        .flat_map(|(_, id, offsets)| offsets.iter().map(move |offset| (id.starts_with("rtr_"), *offset)))
        .collect();
    let query = DeadLetterQuery {
        subscription_key: None,
        after: 0,
        limit: 1000,
    };
    let letters = world.stream("/s").dead_letters(&query).unwrap()["deadLetters"]
        .as_array()
        .unwrap()
        .clone();
    let dead_retractions: Vec<u64> = letters
        .iter()
        .filter(|letter| letter["kind"] == "retraction")
        .map(|letter| letter["offset"].as_u64().unwrap())
        .collect();
    for letter in &letters {
        if letter["kind"] == "retraction" {
            assert!(
                !letter["reason"].as_str().unwrap().contains("throttled"),
                "seed {seed}: retractions are never throttled"
            );
        }
    }
    // No retraction of something never delivered (or dead-lettered).
    let mut delivered: std::collections::BTreeSet<u64> = std::collections::BTreeSet::new();
    let event_letters: std::collections::BTreeSet<u64> = letters
        .iter()
        .filter(|letter| letter["kind"] == "event")
        .map(|letter| letter["offset"].as_u64().unwrap())
        .collect();
    for (retraction, offset) in &sequence {
        if *retraction {
            assert!(
                delivered.contains(offset) || event_letters.contains(offset),
                "seed {seed}: retraction of {offset}, never delivered: {sequence:?}"
            );
            delivered.remove(offset);
        } else {
            delivered.insert(*offset);
        }
    }
    // Every delivery an invalidation covers is retracted (or its retraction
    // dead-lettered) before anything after the invalidation is delivered.
    for (at, payload) in &invalidations {
        let invalidation = tributary::invalidation::Invalidation::parse(payload, *at).unwrap();
        let barrier = sequence
            .iter()
            .position(|(retraction, offset)| !retraction && offset > at)
            .unwrap_or(sequence.len());
        let mut live: std::collections::BTreeSet<u64> = std::collections::BTreeSet::new();
        for (retraction, offset) in &sequence[..barrier] {
            if *retraction {
                live.remove(offset);
            } else {
                live.insert(*offset);
            }
        }
        for offset in live.iter().filter(|offset| invalidation.covers(**offset)) {
            assert!(
                dead_retractions.contains(offset),
                "seed {seed}: delivered {offset} is covered by the invalidation at {at} but was not retracted before later deliveries: {sequence:?}"
            );
        }
    }
}

#[test]
fn s13_simulation_retractions_hold_their_invariants_over_many_seeds() {
    let seeds: u64 = std::env::var("RETRACTION_SEEDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(150);
    for seed in 0..seeds {
        retraction_run(seed);
    }
}

/// The journal holds exactly the newest `journalDepth` offsets delivered
/// (§12, §13), whatever wrote it before: new offsets, a retraction that
/// forgot a row, a new run delivering the same offsets again, a lower depth.
#[test]
fn s13_the_journal_keeps_exactly_its_depth_of_newest_offsets() {
    let mut world = World::new(7);
    webhook(&mut world, "/j", "hook", json!({"journalDepth": 3}));
    let mut model = std::collections::BTreeSet::new();
    let mut data_offsets = Vec::new();
    let check = |world: &mut World, model: &std::collections::BTreeSet<u64>, step: &str| {
        let journal = &world.card("/j")["subscriptions"][0]["runtime"]["journal"];
        assert_eq!(journal["size"].as_u64(), Some(model.len() as u64), "{step}: {journal}");
        assert_eq!(
            journal["oldestRetainedOffset"].as_u64(),
            model.first().copied(),
            "{step}: {journal}"
        );
    };
    let prune = |model: &mut std::collections::BTreeSet<u64>, depth: usize| {
        while model.len() > depth {
            model.pop_first();
        }
    };
    // One data event delivered; the model journals it and keeps 3.
    let deliver_one = |world: &mut World, model: &mut std::collections::BTreeSet<u64>, round: u64| {
        let offset = world.append("/j", json!({"type": "data", "payload": {"round": round}}))[0]["offset"]
            .as_u64()
            .unwrap();
        deliver_all(world, &["/j"]);
        model.insert(offset);
        prune(model, 3);
        check(world, model, &format!("delivery {round}"));
        offset
    };
    for round in 0..6 {
        data_offsets.push(deliver_one(&mut world, &mut model, round));
    }
    // A delivered retraction forgets its row: the journal holds one less.
    let newest = *model.last().unwrap();
    world.append("/j", json!({"type": INVALIDATED, "payload": {"offsets": [newest]}}));
    deliver_all(&mut world, &["/j"]);
    assert_eq!(seen(&world).last(), Some(&("retracted", newest)));
    model.remove(&newest);
    check(&mut world, &model, "after the retraction");
    // Two more deliveries: pruned to exactly the depth again.
    for round in 6..8 {
        data_offsets.push(deliver_one(&mut world, &mut model, round));
    }
    // A new run from the beginning with depth 2 delivers every offset again:
    // journaled ones take the new delivery, the rest are new rows; 2 stay.
    webhook(&mut world, "/j", "hook", json!({"journalDepth": 2}));
    world.crash();
    deliver_all(&mut world, &["/j"]);
    model.extend(data_offsets.iter().copied());
    prune(&mut model, 2);
    check(&mut world, &model, "after the new run");
    let pruned = world.card("/j")["subscriptions"][0]["runtime"]["journal"]["prunedThroughOffset"]
        .as_u64()
        .unwrap();
    assert_eq!(
        pruned,
        data_offsets[data_offsets.len() - 3],
        "pruning reached the third-newest offset"
    );
}

/// The same, over many prunes with the journal's oldest offsets kept in
/// memory between them (`delivery/journal_heads.rs`): more prunes than the
/// heads hold, batches pruning several rows, retractions forgetting the
/// newest row, restarts, and a new run journaling offsets below the kept
/// ones without a restart. After every step the card shows exactly the
/// model's journal and how far pruning reached; the native driver checks
/// the kept heads against storage before every prune that uses them.
#[test]
fn s13_simulation_the_journal_keeps_its_depth_through_kept_heads() {
    for seed in 0..12 {
        let mut rng = Rng(seed);
        let mut world = World::new(seed);
        let depth = 1 + rng.below(4) as usize;
        webhook(&mut world, "/h", "hook", json!({"journalDepth": depth}));
        let mut model = std::collections::BTreeSet::new();
        let mut pruned_through = 0u64;
        let mut data_offsets = Vec::new();
        let check = |world: &mut World, model: &std::collections::BTreeSet<u64>, pruned: u64, step: &str| {
            let journal = &world.card("/h")["subscriptions"][0]["runtime"]["journal"];
            assert_eq!(
                journal["size"].as_u64(),
                Some(model.len() as u64),
                "seed {seed} {step}: {journal}"
            );
            assert_eq!(
                journal["oldestRetainedOffset"].as_u64(),
                model.first().copied(),
                "seed {seed} {step}: {journal}"
            );
            assert_eq!(
                journal["prunedThroughOffset"].as_u64(),
                Some(pruned),
                "seed {seed} {step}: {journal}"
            );
        };
        let keep = |model: &mut std::collections::BTreeSet<u64>, pruned: &mut u64, depth: usize| {
            while model.len() > depth {
                if let Some(oldest) = model.pop_first() {
                    *pruned = (*pruned).max(oldest);
                }
            }
        };
        for step in 0..200 {
            match rng.below(12) {
                0 if !model.is_empty() => {
                    let newest = *model.last().unwrap();
                    world.append("/h", json!({"type": INVALIDATED, "payload": {"offsets": [newest]}}));
                    deliver_all(&mut world, &["/h"]);
                    model.remove(&newest);
                }
                1 => world.crash(),
                _ => {
                    for round in 0..1 + rng.below(3) {
                        let appended = world.append("/h", json!({"type": "data", "payload": {"round": round}}));
                        data_offsets.push(appended[0]["offset"].as_u64().unwrap());
                        model.insert(appended[0]["offset"].as_u64().unwrap());
                    }
                    deliver_all(&mut world, &["/h"]);
                    keep(&mut model, &mut pruned_through, depth);
                }
            }
            check(&mut world, &model, pruned_through, &format!("step {step}"));
        }
        // Newer data than every invalidation, then a new run from the
        // beginning, no restart: every offset journaled again, most of them
        // below the kept heads.
        for round in 0..3 {
            let appended = world.append("/h", json!({"type": "data", "payload": {"round": round}}));
            data_offsets.push(appended[0]["offset"].as_u64().unwrap());
        }
        let new_depth = 1 + rng.below(3) as usize;
        webhook(&mut world, "/h", "hook", json!({"journalDepth": new_depth}));
        // Hundreds of offsets again, more than one `deliver_all` sends.
        for _pass in 0..4 {
            deliver_all(&mut world, &["/h"]);
        }
        model.extend(data_offsets.iter().copied());
        keep(&mut model, &mut pruned_through, new_depth);
        check(
            &mut world,
            &model,
            pruned_through,
            &format!("after the new run, model {model:?}, pruned {pruned_through}, depth {depth} → {new_depth}"),
        );
    }
}

/// When the journal changed behind the kept heads' back (here by hand, with
/// the native driver's checks off), the prune's own count disagrees: the
/// heads are dropped, the journal counted again and pruned exactly to its
/// depth.
#[test]
fn s13_a_prune_whose_count_disagrees_counts_the_journal_again() {
    use tributary::storage::Storage;
    let mut world = World::new(11);
    webhook(&mut world, "/r", "hook", json!({"journalDepth": 3}));
    let mut delivered = Vec::new();
    let deliver = |world: &mut World| {
        let offset = world.append("/r", json!({"type": "data", "payload": {}}))[0]["offset"]
            .as_u64()
            .unwrap();
        deliver_all(world, &["/r"]);
        offset
    };
    for _ in 0..6 {
        delivered.push(deliver(&mut world));
    }
    let journal = |world: &mut World| world.card("/r")["subscriptions"][0]["runtime"]["journal"].clone();
    assert_eq!(journal(&mut world)["oldestRetainedOffset"].as_u64(), Some(delivered[3]));
    world.stream("/r").storage().check_reads(false);
    // A kept head deleted behind its back: the next prune deletes nothing.
    world
        .stream("/r")
        .storage()
        .execute(
            "DELETE FROM delivery_journal WHERE event_offset = ?",
            &[delivered[3].into()],
        )
        .unwrap();
    delivered.push(deliver(&mut world));
    let after = journal(&mut world);
    assert_eq!(after["size"].as_u64(), Some(3), "{after}");
    assert_eq!(after["oldestRetainedOffset"].as_u64(), Some(delivered[4]), "{after}");
    // The next prunes read the heads again and keep them.
    delivered.push(deliver(&mut world));
    delivered.push(deliver(&mut world));
    assert_eq!(journal(&mut world)["oldestRetainedOffset"].as_u64(), Some(delivered[6]));
    // A row older than every kept head written behind its back, counted:
    // the next prune deletes it with the heads it meant to, more than it
    // expected. The heads are dropped and the journal counted again (one
    // row under its depth, until the next delivery).
    for sql in [
        "INSERT INTO delivery_journal (subscription_key, event_offset, delivery_id) VALUES ('hook', 1, 'dlv_old')",
        "UPDATE subscription_runtime SET journal_rows = journal_rows + 1",
    ] {
        world.stream("/r").storage().execute(sql, &[]).unwrap();
    }
    delivered.push(deliver(&mut world));
    let after = journal(&mut world);
    assert_eq!(after["size"].as_u64(), Some(2), "{after}");
    assert_eq!(after["oldestRetainedOffset"].as_u64(), Some(delivered[8]), "{after}");
    assert_eq!(after["prunedThroughOffset"].as_u64(), Some(delivered[7]), "{after}");
    delivered.push(deliver(&mut world));
    let after = journal(&mut world);
    assert_eq!(after["size"].as_u64(), Some(3), "{after}");
    assert_eq!(after["oldestRetainedOffset"].as_u64(), Some(delivered[8]), "{after}");
    world.stream("/r").storage().check_reads(true);
    delivered.push(deliver(&mut world));
    assert_eq!(journal(&mut world)["oldestRetainedOffset"].as_u64(), Some(delivered[9]));
}
