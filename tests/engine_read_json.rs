//! Range reads built as JSON by SQLite (docs/design.md §2 reads, §3; issue 20's
//! catch-up read): the page the HTTP route sends (`read_range_json`) is the
//! very JSON of the typed read (`read_range` serialized) — the same events,
//! fields, escapes, `createdAt`, ephemeral flags, idempotency keys, copy
//! provenance and `nextAfter` — over random histories, and the byte budget
//! cuts a page of large events the same way.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use common::Rng;
use serde_json::{json, Value};
use tributary::stream::RangeQuery;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

fn typed(world: &mut World, path: &str, query: &RangeQuery) -> Value {
    serde_json::to_value(world.stream(path).read_range(query).unwrap()).unwrap()
}

fn built(world: &mut World, path: &str, query: &RangeQuery) -> Value {
    let read = world.stream(path).read_range_json(query).unwrap();
    let body: Value = serde_json::from_str(&read.body).expect("the page is JSON");
    assert_eq!(read.count as usize, body["events"].as_array().unwrap().len());
    body
}

/// Strings that exercise escaping: quotes, backslashes, control characters, non-ASCII.
fn awkward(rng: &mut Rng, n: u64) -> String {
    let pieces = [
        "plain",
        "quo\"te",
        "back\\slash",
        "tab\tnew\nline",
        "\u{1}ctl",
        "ünïcødé",
        "😀",
        "a/b",
        "\u{7f}",
        "\u{2028}",
    ];
    format!("{}-{n}", pieces[rng.below(pieces.len() as u64) as usize])
}

/// Type names that need escaping but pass §3's type rules (no whitespace or control characters).
fn awkward_type(rng: &mut Rng, n: u64) -> String {
    let pieces = ["quo\"te", "back\\slash", "ünïcødé", "😀", "a/b.c"];
    format!("{}-{n}", pieces[rng.below(pieces.len() as u64) as usize])
}

fn history(seed: u64) -> World {
    let mut rng = Rng(seed);
    let mut world = World::new(seed);
    world.append("/src", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "copy", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/dst", "delivery": {"start": "now", "onFailingEvent": "halt"}}}}));
    for n in 0..(5 + rng.below(40)) {
        let mut event = json!({"type": if rng.below(3) == 0 { awkward_type(&mut rng, n) } else { "data".to_owned() },
            "payload": {"n": n, "text": awkward(&mut rng, n), "nested": {"list": [1, 2.5, null, true]}}});
        if rng.below(2) == 0 {
            event["metadata"] = json!({"who": awkward(&mut rng, n)});
        }
        if rng.below(3) == 0 {
            event["idempotencyKey"] = json!(format!("key-{}", awkward(&mut rng, n)));
        }
        if rng.below(4) == 0 {
            event["ephemeral"] = json!(true);
        }
        world.append("/src", event);
        world.now += i64::try_from(rng.below(5_000)).unwrap();
    }
    world.run(&["/src"], 1_000, &mut |_| Network::Deliver);
    world
}

#[test]
fn s2_a_page_built_by_sqlite_is_the_typed_read_over_random_histories() {
    for seed in 0..64 {
        let mut world = history(seed);
        let mut rng = Rng(seed ^ 0xabc);
        for path in ["/src", "/dst"] {
            for _ in 0..6 {
                let query = RangeQuery {
                    after: rng.below(30),
                    from_earliest: false,
                    limit: 1 + rng.below(20),
                    include_ephemeral: rng.below(2) == 0,
                };
                assert_eq!(
                    built(&mut world, path, &query),
                    typed(&mut world, path, &query),
                    "seed {seed} {path} {query:?}"
                );
            }
        }
        let copied = typed(
            &mut world,
            "/dst",
            &RangeQuery {
                after: 0,
                from_earliest: false,
                limit: 1000,
                include_ephemeral: false,
            },
        );
        assert!(copied["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["source"]["copiedFrom"].is_array()));
    }
}

#[test]
fn s12_a_page_of_large_events_is_cut_by_the_read_byte_budget_like_the_typed_read() {
    let mut world = World::new(7);
    let big = "x".repeat(200 * 1024);
    for n in 0..30 {
        world.append("/big", json!({"type": "data", "payload": {"n": n, "big": big}}));
    }
    let query = RangeQuery {
        after: 0,
        from_earliest: false,
        limit: 1000,
        include_ephemeral: false,
    };
    let page = built(&mut world, "/big", &query);
    assert_eq!(page, typed(&mut world, "/big", &query));
    let count = page["events"].as_array().unwrap().len();
    assert!((1..30).contains(&count), "the page was cut: {count} events");
    assert_eq!(page["nextAfter"], json!(count));
}

/// Twelve events of 200 KiB fit the read budget (4 MiB) but their JSON
/// passes SQLite's value limit (2 MB, as on a Durable Object): the page's
/// one-pass query fails, and the page is concatenated in chunks instead.
#[test]
fn s12_a_page_past_sqlites_value_limit_within_the_budget_is_whole_like_the_typed_read() {
    let mut world = World::new(9);
    let big = "y".repeat(200 * 1024);
    for n in 0..12 {
        world.append("/wide", json!({"type": "data", "payload": {"n": n, "big": big}}));
    }
    let query = RangeQuery {
        after: 0,
        from_earliest: false,
        limit: 1000,
        include_ephemeral: false,
    };
    world.stream("/wide").storage().take_statement_counts();
    let page = built(&mut world, "/wide", &query);
    let statements = world.stream("/wide").storage().take_statement_counts();
    let concatenations: u64 = statements
        .iter()
        .filter(|(sql, _)| sql.contains("group_concat"))
        .map(|(_, count)| count)
        .sum();
    assert!(
        concatenations >= 3,
        "the one pass, then two chunks at least: {statements:?}"
    );
    assert!(page.to_string().len() > tributary::limits::SQL_VALUE_LIMIT_BYTES as usize);
    assert_eq!(page, typed(&mut world, "/wide", &query));
    assert_eq!(page["events"].as_array().unwrap().len(), 12, "every event, in one page");
}

#[test]
fn s2_an_empty_page_names_the_head_as_next_after() {
    let mut world = World::new(8);
    world.append("/e", json!({"type": "data", "payload": {}}));
    let query = RangeQuery {
        after: 5,
        from_earliest: false,
        limit: 10,
        include_ephemeral: false,
    };
    let page = built(&mut world, "/e", &query);
    assert_eq!(page, typed(&mut world, "/e", &query));
    assert_eq!(page["events"], json!([]));
}
