//! What one webhook delivery costs in storage statements (docs/design.md §6,
//! §12): counted through the native driver, per delivery, for one
//! subscription and for ten. The count must be small and flat in the number
//! of subscriptions (issue 20: independent subscriptions scale). Run with
//! `--nocapture` to see the statements.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::json;
use std::collections::BTreeMap;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const EVENTS: u64 = 50;

/// A world whose stream `path` has `subs` webhooks (`k0`, `k1`, …) on type
/// `data`, each with `delivery`.
fn world_with_webhooks(seed: u64, path: &str, subs: usize, delivery: &serde_json::Value) -> World {
    let mut world = World::new(seed);
    world.allow_insecure_webhooks(path);
    for i in 0..subs {
        world.append(path, json!({"type": CONFIGURED, "payload": {"subscriptionKey": format!("k{i}"), "filter": {"eventTypes": ["data"]},
            "receiver": {"action": "webhook-post", "url": format!("http://127.0.0.1:1/r{i}"), "delivery": delivery}}}));
    }
    world
}

/// Statements per delivery, by SQL text, over `EVENTS` events delivered to each of `subs` webhooks.
fn statements_per_delivery(subs: usize) -> (f64, BTreeMap<String, f64>) {
    statements_per_delivery_with(subs, json!({"start": "now", "onFailingEvent": "halt"}))
}

/// The same, with the subscriptions' `delivery` options.
fn statements_per_delivery_with(subs: usize, delivery: serde_json::Value) -> (f64, BTreeMap<String, f64>) {
    let mut world = world_with_webhooks(20, "/cost", subs, &delivery);
    let events: Vec<_> = (0..EVENTS)
        .map(|n| json!({"type": "data", "payload": {"n": n}}))
        .collect();
    world.append("/cost", json!({ "events": events }));
    world.stream("/cost").storage().take_statement_counts();
    world.run(&["/cost"], 10_000, &mut |_| Network::Deliver);
    let deliveries = world.external.len() as f64;
    assert_eq!(
        world.external.len(),
        subs * EVENTS as usize,
        "every event reached every subscription"
    );
    let counts = world.stream("/cost").storage().take_statement_counts();
    let per: BTreeMap<String, f64> = counts
        .into_iter()
        .map(|(sql, n)| (sql, n as f64 / deliveries))
        .collect();
    (per.values().sum(), per)
}

#[test]
fn s12_a_webhook_delivery_costs_a_few_statements_whatever_the_number_of_subscriptions() {
    let (one, detail) = statements_per_delivery(1);
    let (ten, detail_ten) = statements_per_delivery(10);
    println!("statements per delivery: 1 subscription {one:.2}, 10 subscriptions {ten:.2}");
    for (sql, n) in &detail_ten {
        println!(
            "{n:6.2} (1 sub: {:5.2})  {}",
            detail.get(sql).copied().unwrap_or(0.0),
            &sql[..sql.len().min(150)]
        );
    }
    // The journal row, the send marked in flight, the cursor moved: the
    // runtime rows are read once and kept (§6), the log read ahead (§12).
    assert!(one <= 3.5, "one delivery runs {one:.2} statements");
    assert!(
        ten <= one * 1.25,
        "10 subscriptions cost {ten:.2} statements a delivery, 1 costs {one:.2}"
    );
}

/// A full journal (§13): every delivery also prunes its oldest row, which
/// costs one statement, whatever the depth (the rows pruned are found
/// without stepping over the rows kept).
#[test]
fn s13_a_delivery_into_a_full_journal_costs_one_statement_more() {
    let (open, _) = statements_per_delivery(1);
    let (full, detail) =
        statements_per_delivery_with(1, json!({"start": "now", "onFailingEvent": "halt", "journalDepth": 10}));
    println!("statements per delivery: journal with room {open:.2}, full journal {full:.2}");
    for (sql, n) in &detail {
        println!("{n:6.2}  {}", &sql[..sql.len().min(150)]);
    }
    assert!(
        full <= open + 1.0,
        "a full journal costs {full:.2} statements a delivery, one with room {open:.2}"
    );
}

/// One planning pass reads a window of the log once (§12): ten webhooks at
/// the same cursor share what the first of them read, and the next pass
/// finds the rows already read ahead.
#[test]
fn s12_one_planning_pass_reads_the_page_ten_scans_at_one_cursor_share() {
    let mut world = world_with_webhooks(
        21,
        "/shared",
        10,
        &json!({"start": "beginning", "onFailingEvent": "halt"}),
    );
    let events: Vec<_> = (0..5).map(|n| json!({"type": "data", "payload": {"n": n}})).collect();
    world.append("/shared", json!({ "events": events }));
    let (now, entropy) = (world.now, world.entropy());
    let stream = world.stream("/shared");
    stream.storage().take_statement_counts();
    let mut turn = tributary::delivery::Turn::begin(now);
    let plans = turn.plan_due(stream, now, entropy).unwrap();
    assert_eq!(plans.len(), 10, "every subscription planned in one pass");
    assert!(plans
        .iter()
        .all(|plan| plan.events.len() == 1 && plan.events[0].offset == 11));
    let reads = common::log_reads(stream);
    // Scans from the beginning pass the ten configurations in pages of 1, 2,
    // 4, 8 rows (offsets 1..=11): the first page reads the log ahead, its
    // size then its rows (offsets 1..=15), and every scan's pages come from it.
    assert_eq!(reads, 2, "the ten scans read the log once");
    let mut turn = tributary::delivery::Turn::begin(now);
    for plan in &plans {
        turn.complete(stream, plan, tributary::delivery::Outcome::Delivered, now, entropy)
            .unwrap();
    }
    stream.storage().take_statement_counts();
    assert_eq!(turn.plan_due(stream, now, entropy).unwrap().len(), 10);
    assert_eq!(common::log_reads(stream), 0, "the next pass's pages were read ahead");
}

/// Statements per delivery as the shell's alarm turn runs them
/// (`World::invocation`): ten subscriptions cost no more a delivery than
/// one, and the log is read ahead, once for many deliveries (§12).
#[test]
fn s12_in_the_alarms_turn_ten_subscriptions_cost_less_a_delivery_than_one() {
    let mut per_delivery = Vec::new();
    for subs in [1usize, 10] {
        let mut world = world_with_webhooks(22, "/turn", subs, &json!({"start": "now", "onFailingEvent": "halt"}));
        world.run(&["/turn"], 1000, &mut |_| Network::Deliver);
        let events: Vec<_> = (0..EVENTS)
            .map(|n| json!({"type": "data", "payload": {"n": n}}))
            .collect();
        world.append("/turn", json!({ "events": events }));
        let before = world.external.len();
        world.stream("/turn").storage().take_statement_counts();
        for _ in 0..100 {
            world.invocation("/turn", &mut |_| Network::Deliver);
            if world.external.len() - before >= subs * EVENTS as usize {
                break;
            }
        }
        let deliveries = (world.external.len() - before) as f64;
        let counts = world.stream("/turn").storage().take_statement_counts();
        let total: u64 = counts.values().sum();
        let reads = common::runs_containing(&counts, common::LOG_READ);
        assert!(
            reads as f64 / deliveries <= 0.1,
            "{subs} subscriptions: {reads} reads of the log for {deliveries} deliveries"
        );
        per_delivery.push(total as f64 / deliveries);
        println!(
            "{subs} subscriptions: {:.2} statements per delivery ({deliveries} deliveries)",
            total as f64 / deliveries
        );
        for (sql, n) in &counts {
            println!("{:6.2}  {}", *n as f64 / deliveries, &sql[..sql.len().min(140)]);
        }
    }
    let (one, ten) = (per_delivery[0], per_delivery[1]);
    assert!(one <= 3.5, "one subscription: {one:.2} statements a delivery");
    assert!(
        ten <= one,
        "ten subscriptions: {ten:.2} statements a delivery, one: {one:.2}"
    );
}
