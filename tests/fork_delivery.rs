//! A fork's subscriptions (docs/design.md §18): one that starts below the fork
//! point delivers the source's data events up to it, in order and once,
//! then the fork's own; inherited control events are neither delivered nor
//! configure anything; pages cross a chain of forks; a source that cannot
//! be read holds the subscription back until it can, and nothing is skipped.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;
mod fork_world;

use fork_world::*;
use serde_json::{json, Value};
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::limits::{ALARM_RETRY_MS, INHERITED_PAGE_ROWS};

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

fn append_orders(world: &mut World, path: &str, from: u64, count: u64) {
    let now = world.now_ms;
    let events: Vec<Value> = (from..from + count)
        .map(|n| json!({"type": "order", "payload": {"n": n, "at": path}}))
        .collect();
    for chunk in events.chunks(100) {
        let (status, body) = common::append(world.stream(path), json!({ "events": chunk }), now);
        assert_eq!(status, 201, "{body}");
    }
}

fn configure(world: &mut World, path: &str, key: &str, start: Value) {
    let now = world.now_ms;
    let body = json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "filter": {"eventTypes": ["order"]},
        "receiver": {"action": "log", "delivery": {"start": start, "onFailingEvent": "halt"}}}});
    let (status, answer) = common::append(world.stream(path), body, now);
    assert_eq!(status, 201, "{answer}");
}

/// Every event each plan of `key` carried: (offset, payload.n, payload.at).
fn delivered(plans: &[DeliveryPlan], key: &str) -> Vec<(u64, u64, String)> {
    plans
        .iter()
        .filter(|plan| plan.subscription_key == key)
        .flat_map(|plan| plan.events.iter())
        .map(|event| {
            let body = event.body.tree();
            let payload = &body["payload"];
            (
                event.offset,
                payload["n"].as_u64().unwrap(),
                payload["at"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn fork_of(world: &mut World, path: &str, from: &str) {
    let answer = fork(world, path, from, &[]);
    assert_eq!(answer.status, 201, "{}", String::from_utf8_lossy(&answer.body));
}

#[test]
fn s18_a_subscription_from_the_beginning_delivers_inherited_data_then_the_forks_own() {
    let mut world = World::new();
    append_orders(&mut world, "/src", 1, 5);
    // A control event in the prefix: the source's own subscription, not the fork's.
    configure(&mut world, "/src", "source-only", json!("now"));
    fork_of(&mut world, "/f", "/src");
    append_orders(&mut world, "/f", 100, 2);
    append_orders(&mut world, "/src", 50, 1); // after the fork point: not the fork's
    configure(&mut world, "/f", "all", json!("beginning"));

    let plans = world.deliver_all("/f", 10, 20, &mut |_| Outcome::Delivered);
    let got = delivered(&plans, "all");
    let expected: Vec<(u64, u64, String)> = (1..=5)
        .map(|n| (n, n, "/src".to_owned()))
        .chain([(7, 100, "/f".to_owned()), (8, 101, "/f".to_owned())])
        .collect();
    assert_eq!(got, expected, "inherited data in order, then the fork's own, each once");
    assert!(
        plans.iter().all(|plan| plan.subscription_key == "all"),
        "the inherited configuration configures nothing on the fork"
    );
    // Nothing is due any more and the cursor stands at the head.
    assert_eq!(world.stream("/f").next_due_at().unwrap(), None);
}

#[test]
fn s18_inherited_pages_cross_a_chain_and_more_than_one_page() {
    let mut world = World::new();
    let many = INHERITED_PAGE_ROWS * 2 + 17;
    append_orders(&mut world, "/a", 1, many);
    fork_of(&mut world, "/b", "/a");
    append_orders(&mut world, "/b", 10_000, 3);
    fork_of(&mut world, "/c", "/b");
    append_orders(&mut world, "/c", 20_000, 2);
    configure(&mut world, "/c", "all", json!("beginning"));

    let plans = world.deliver_all("/c", 10, 200, &mut |_| Outcome::Delivered);
    let got = delivered(&plans, "all");
    let offsets: Vec<u64> = got.iter().map(|(offset, _, _)| *offset).collect();
    let expected: Vec<u64> = (1..=many + 3).chain(many + 4..=many + 5).collect();
    assert_eq!(offsets, expected, "every offset of the chain once, in order");
    assert_eq!(got.iter().filter(|(_, _, at)| at == "/a").count() as u64, many);
    assert_eq!(got.iter().filter(|(_, _, at)| at == "/b").count(), 3);
    assert_eq!(got.iter().filter(|(_, _, at)| at == "/c").count(), 2);
}

#[test]
fn s18_an_unreachable_source_holds_the_subscription_back_and_skips_nothing() {
    let mut world = World::new();
    append_orders(&mut world, "/src", 1, 4);
    fork_of(&mut world, "/f", "/src");
    append_orders(&mut world, "/f", 100, 1);
    configure(&mut world, "/f", "all", json!("beginning"));
    world.unreachable_sources = 1;

    let first = world.delivery_turn("/f", &mut |_| Outcome::Delivered);
    assert!(
        first.is_empty(),
        "nothing goes past the inherited events it could not read"
    );
    let due = world.stream("/f").next_due_at().unwrap().unwrap();
    assert!(
        due >= world.now_ms + ALARM_RETRY_MS - 10,
        "the alarm waits before asking again"
    );

    world.now_ms = due;
    let plans = world.deliver_all("/f", 10, 20, &mut |_| Outcome::Delivered);
    let offsets: Vec<u64> = delivered(&plans, "all").iter().map(|(offset, _, _)| *offset).collect();
    assert_eq!(offsets, vec![1, 2, 3, 4, 5]);
}

#[test]
fn s18_subscriptions_at_different_cursors_and_a_failing_receiver_each_get_the_prefix_once() {
    let mut world = World::new();
    append_orders(&mut world, "/src", 1, 30);
    fork_of(&mut world, "/f", "/src");
    append_orders(&mut world, "/f", 100, 2);
    configure(&mut world, "/f", "from-start", json!("beginning"));
    configure(&mut world, "/f", "mid", json!("now"));
    let now = world.now_ms;
    let cursor_set = json!({"type": "events.iterate.com/stream/subscription-cursor-set",
        "payload": {"subscriptionKey": "mid", "afterOffset": 20}});
    assert_eq!(common::append(world.stream("/f"), cursor_set, now).0, 201);
    configure(&mut world, "/f", "flaky", json!("beginning"));
    let mut failures = 3;
    let mut acknowledged: Vec<DeliveryPlan> = Vec::new();
    world.deliver_all("/f", 60_000, 50, &mut |plan: &DeliveryPlan| {
        if plan.subscription_key == "flaky" && failures > 0 {
            failures -= 1;
            return Outcome::transient("receiver down");
        }
        acknowledged.push(plan.clone());
        Outcome::Delivered
    });
    assert_eq!(failures, 0, "the flaky receiver failed three times");
    let offsets = |key: &str| -> Vec<u64> {
        delivered(&acknowledged, key)
            .iter()
            .map(|(offset, _, _)| *offset)
            .collect()
    };
    // The fork's own events follow its configuration events' offsets.
    let own: Vec<u64> = delivered(&acknowledged, "from-start")
        .iter()
        .filter(|(_, _, at)| at == "/f")
        .map(|(offset, _, _)| *offset)
        .collect();
    assert_eq!(own.len(), 2);
    let expected_all: Vec<u64> = (1..=30).chain(own.iter().copied()).collect();
    assert_eq!(offsets("from-start"), expected_all);
    assert_eq!(
        offsets("mid"),
        expected_all.iter().copied().filter(|o| *o > 20).collect::<Vec<_>>()
    );
    assert_eq!(
        offsets("flaky"),
        expected_all,
        "retried from where it failed, nothing skipped"
    );
}

#[test]
fn s18_a_concurrent_webhook_on_a_fork_sends_every_inherited_event_once() {
    let mut world = World::new();
    append_orders(&mut world, "/src", 1, 12);
    fork_of(&mut world, "/f", "/src");
    append_orders(&mut world, "/f", 100, 3);
    let now = world.now_ms;
    let body = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["order"]},
        "receiver": {"action": "webhook-post", "url": "https://receiver.example/hook",
            "delivery": {"start": "beginning", "onFailingEvent": "skip", "concurrency": 4}}}});
    let (status, answer) = common::append(world.stream("/f"), body, now);
    assert_eq!(status, 201, "{answer}");
    let plans = world.deliver_all("/f", 10, 50, &mut |_| Outcome::Delivered);
    let mut offsets: Vec<u64> = delivered(&plans, "hook").iter().map(|(offset, _, _)| *offset).collect();
    offsets.sort_unstable();
    assert_eq!(offsets, (1..=15).collect::<Vec<u64>>(), "each once, none skipped");
}

/// Every data event a native reader sees paging from `after` with `limit`:
/// (offset, payload.n), following `nextAfter`.
fn native_pages(world: &mut World, path: &str, limit: u64) -> Vec<(u64, u64)> {
    let mut seen = Vec::new();
    let mut after = 0;
    for _ in 0..10_000 {
        let page = world.native_read(path, &format!("after={after}&limit={limit}"));
        seen.extend(
            page.events
                .iter()
                .filter(|event| event.event_type == "order")
                .map(|event| {
                    (
                        event.offset,
                        serde_json::to_value(event).unwrap()["payload"]["n"].as_u64().unwrap(),
                    )
                }),
        );
        if page.next_after <= after || page.next_after >= page.head {
            return seen;
        }
        after = page.next_after;
    }
    panic!("a read that never reached the head");
}

/// [`native_pages`] through the JSON pages SQLite builds and the fork splices.
fn native_json_pages(world: &mut World, path: &str, limit: u64) -> Vec<(u64, u64)> {
    let mut seen = Vec::new();
    let mut after = 0;
    for _ in 0..10_000 {
        let page = world.native_read_json(path, &format!("after={after}&limit={limit}"));
        let events = page["events"].as_array().unwrap();
        assert!(events.len() as u64 <= limit);
        seen.extend(events.iter().filter(|event| event["type"] == "order").map(|event| {
            (
                event["offset"].as_u64().unwrap(),
                event["payload"]["n"].as_u64().unwrap(),
            )
        }));
        let next = page["nextAfter"].as_u64().unwrap();
        if next <= after || next >= page["head"].as_u64().unwrap() {
            return seen;
        }
        after = next;
    }
    panic!("a read that never reached the head");
}

#[test]
fn s18_a_native_range_read_of_a_fork_crosses_the_fork_point_like_the_protocol_face() {
    let mut world = World::new();
    let many = INHERITED_PAGE_ROWS + 250;
    append_orders(&mut world, "/a", 1, many);
    configure(&mut world, "/a", "source-only", json!("now"));
    fork_of(&mut world, "/b", "/a");
    append_orders(&mut world, "/b", 10_000, 3);
    fork_of(&mut world, "/c", "/b");
    append_orders(&mut world, "/c", 20_000, 2);
    let expected: Vec<(u64, u64)> = (1..=many)
        .map(|n| (n, n))
        .chain((0..3).map(|i| (many + 2 + i, 10_000 + i)))
        .chain((0..2).map(|i| (many + 5 + i, 20_000 + i)))
        .collect();
    for limit in [1, 7, 100, 1000] {
        assert_eq!(native_pages(&mut world, "/c", limit), expected, "limit {limit}");
        assert_eq!(
            native_json_pages(&mut world, "/c", limit),
            expected,
            "JSON pages, limit {limit}"
        );
    }
    // A read from inside the prefix starts there; one from past the point is the fork's own.
    let from_inside = world.native_read("/c", &format!("after={}&limit=2", many - 1));
    let offsets: Vec<u64> = from_inside.events.iter().map(|event| event.offset).collect();
    assert_eq!(
        offsets,
        vec![many],
        "one ancestor's page at a time; its control event is not inherited"
    );
    assert_eq!(from_inside.next_after, many + 1);
    let next = world.native_read("/c", &format!("after={}&limit=2", many + 1));
    assert_eq!(
        next.events.iter().map(|event| event.offset).collect::<Vec<_>>(),
        vec![many + 2, many + 3]
    );
    let own = world.native_read("/c", &format!("after={}", many + 4));
    assert_eq!(
        own.events.iter().map(|event| event.offset).collect::<Vec<_>>(),
        vec![many + 5, many + 6]
    );
}

#[test]
fn s18_a_point_read_of_an_inherited_offset_answers_the_sources_event() {
    let mut world = World::new();
    append_orders(&mut world, "/a", 1, 3);
    configure(&mut world, "/a", "source-only", json!("now"));
    fork_of(&mut world, "/b", "/a");
    append_orders(&mut world, "/b", 100, 1);
    fork_of(&mut world, "/c", "/b");
    let n_of =
        |read: tributary::stream::read::PointRead| serde_json::to_value(&read.event).unwrap()["payload"]["n"].clone();
    assert_eq!(n_of(world.native_read_one("/c", 2).unwrap()), json!(2), "two hops down");
    assert_eq!(
        n_of(world.native_read_one("/c", 5).unwrap()),
        json!(100),
        "one hop down"
    );
    assert!(
        matches!(
            world.native_read_one("/c", 4),
            Err(tributary::stream::read::ReadError::EventNotFound(4))
        ),
        "the source's control event is not the fork's"
    );
    assert!(matches!(
        world.native_read_one("/c", 9),
        Err(tributary::stream::read::ReadError::EventNotFound(9))
    ));
}

#[test]
fn s18_a_fork_that_dies_mid_delivery_resends_from_its_cursor_and_skips_nothing() {
    for crash_after in [0, 1, 3, 7] {
        let mut world = World::new();
        append_orders(&mut world, "/src", 1, 6);
        fork_of(&mut world, "/f", "/src");
        append_orders(&mut world, "/f", 100, 2);
        let now = world.now_ms;
        let body = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["order"]},
            "receiver": {"action": "webhook-post", "url": "https://receiver.example/hook",
                "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}});
        assert_eq!(common::append(world.stream("/f"), body, now).0, 201);
        world.crash_after_sends = Some(crash_after);
        let mut received: Vec<u64> = Vec::new();
        world.deliver_all("/f", 60_000, 50, &mut |plan: &DeliveryPlan| {
            received.extend(plan.events.iter().map(|event| event.offset));
            Outcome::Delivered
        });
        let mut once = received.clone();
        once.dedup();
        assert_eq!(
            once,
            (1..=8).collect::<Vec<u64>>(),
            "crash after {crash_after}: in order, nothing skipped"
        );
    }
}
