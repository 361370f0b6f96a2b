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

/// The first 1,000 durable events.
fn from_the_start() -> RangeQuery {
    RangeQuery {
        after: 0,
        from_earliest: false,
        limit: 1000,
        include_ephemeral: false,
    }
}

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
        let copied = typed(&mut world, "/dst", &from_the_start());
        assert!(copied["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["source"]["copiedFrom"].is_array()));
    }
}

/// A stream at `path` of `count` data events of 200 KiB each.
fn large_events(path: &str, count: u64) -> World {
    let mut world = World::new(count);
    let big = "x".repeat(200 * 1024);
    for n in 0..count {
        world.append(path, json!({"type": "data", "payload": {"n": n, "big": big}}));
    }
    world
}

#[test]
fn s12_a_page_of_large_events_is_cut_by_the_read_byte_budget_like_the_typed_read() {
    let mut world = large_events("/big", 30);
    let query = from_the_start();
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
    let mut world = large_events("/wide", 12);
    let query = from_the_start();
    world.stream("/wide").storage().take_statement_counts();
    let page = built(&mut world, "/wide", &query);
    let statements = world.stream("/wide").storage().take_statement_counts();
    let concatenations = common::runs_containing(&statements, "group_concat");
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

/// A storage whose SQLite scans a page's events backwards when the page
/// leaves their order to the scan: the order SQLite does not promise.
struct ScansBackwards<'a>(&'a tributary::storage::rusqlite_driver::RusqliteStorage);

impl tributary::storage::Storage for ScansBackwards<'_> {
    fn query(
        &self,
        sql: &str,
        params: &[tributary::storage::SqlValue],
    ) -> Result<Vec<tributary::storage::Row>, tributary::storage::StorageError> {
        if sql.contains("group_concat(event, ',')") {
            return self.0.query(
                &sql.replace("ORDER BY event_offset", "ORDER BY event_offset DESC"),
                params,
            );
        }
        self.0.query(sql, params)
    }
    fn atomically<T, E: From<tributary::storage::StorageError>>(
        &self,
        body: &mut dyn FnMut() -> Result<T, E>,
    ) -> Result<T, E> {
        self.0.atomically(body)
    }
    fn rows_written(&self) -> u64 {
        self.0.rows_written()
    }
    fn database_bytes(&self) -> Result<u64, tributary::storage::StorageError> {
        self.0.database_bytes()
    }
    fn generation(&self) -> u64 {
        self.0.generation()
    }
    fn execute_script(&self, script: &str) -> Result<(), tributary::storage::StorageError> {
        self.0.execute_script(script)
    }
}

/// The engine checks the order SQLite's scan gave a page: scanned
/// backwards, the page is read again sorted, and is the same page.
#[test]
fn s2_a_page_whose_scan_order_is_not_the_offsets_is_sorted_again() {
    for seed in [3, 11, 29] {
        let mut world = history(seed);
        let whole =
            tributary::stream::page_json::range_json(world.stream("/src").storage(), 0, 1000, true, 4 << 20).unwrap();
        assert!(whole.count > 2, "seed {seed}: a page of several events");
        let storage = ScansBackwards(world.stream("/src").storage());
        let sorted = tributary::stream::page_json::range_json(&storage, 0, 1000, true, 4 << 20).unwrap();
        assert_eq!(sorted.events_json, whole.events_json, "seed {seed}");
        assert_eq!((sorted.count, sorted.last_offset), (whole.count, whole.last_offset));
        // Cut by a budget of a few events, read row by row, the same way.
        let small =
            tributary::stream::page_json::range_json(world.stream("/src").storage(), 1, 1000, true, 300).unwrap();
        let storage = ScansBackwards(world.stream("/src").storage());
        let small_sorted = tributary::stream::page_json::range_json(&storage, 1, 1000, true, 300).unwrap();
        assert!(
            (2..whole.count).contains(&small.count),
            "seed {seed}: a cut page of several events"
        );
        assert_eq!(small_sorted.events_json, small.events_json, "seed {seed}, cut");
    }
}
