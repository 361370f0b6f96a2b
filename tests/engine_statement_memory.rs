//! What a stream object's compiled statements hold in SQLite's memory
//! (issue 33, §12: budget memory, not only steps). The platform keeps each
//! statement an object runs compiled, by its text (up to 1 MiB an object),
//! and gives SQLite one soft heap limit for the whole process (128 MiB in
//! workerd). With 1,000 sources copying into one stream, pages were read
//! from the files again and a copy cost more, and not with 300
//! (docs/benchmarks.md, thirty-third round): the statements one object
//! keeps, times the objects a process holds, is a budget.
//!
//! This test runs a copy source and its receiving stream through their
//! steady path (single and 20-event appends, copies delivered), takes every
//! statement text the engine ran for each (the shell adds a few of its own), compiles each once on the migrated schema and
//! adds what SQLite says each holds (`SQLITE_STMTSTATUS_MEMUSED`). It holds
//! both to budgets and prints the figures.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use rusqlite::{Connection, StatementStatus};
use serde_json::json;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
/// Statement memory a copy source keeps (measured 183,184 bytes, the bundled SQLite).
const SOURCE_BUDGET_BYTES: usize = 200 * 1024;
/// Statement memory the stream receiving the copies keeps (measured 123,336).
const TARGET_BUDGET_BYTES: usize = 132 * 1024;

/// The bytes each of `statements` holds compiled, largest first.
fn compiled_sizes(statements: &[String]) -> Vec<(usize, String)> {
    let conn = Connection::open_in_memory().unwrap();
    conn.execute_batch("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY)")
        .unwrap();
    let schema = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/fresh/stream.sql")).unwrap();
    conn.execute_batch(&schema).unwrap();
    let mut sizes: Vec<(usize, String)> = statements
        .iter()
        // The migration script runs once, as one batch of statements.
        .filter(|sql| !sql.starts_with("--"))
        .map(|sql| {
            let statement = conn.prepare(sql).unwrap_or_else(|error| panic!("{error}: {sql}"));
            (statement.get_status(StatementStatus::MemUsed) as usize, sql.clone())
        })
        .collect();
    sizes.sort_by(|a, b| b.cmp(a));
    sizes
}

#[test]
fn s12_a_copy_source_and_its_receiver_keep_their_compiled_statements_within_budget() {
    let mut world = World::new(33);
    world.append(
        "/source",
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "copy", "filter": {"eventTypes": ["data"]},
            "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/target", "delivery": {"start": "now", "onFailingEvent": "halt"}}}}),
    );
    world.append("/source", json!({"type": "data", "payload": {"n": 0}}));
    world.run(&["/source"], 10_000, &mut |_| Network::Deliver);
    for round in 0..3 {
        let events: Vec<_> = (0..20)
            .map(|n| json!({"type": "data", "payload": {"round": round, "n": n}}))
            .collect();
        world.append("/source", json!({ "events": events }));
        world.run(&["/source"], 10_000, &mut |_| Network::Deliver);
    }
    // The texts first: the check below reads the target with statements of its own.
    let texts: Vec<Vec<String>> = ["/source", "/target"]
        .iter()
        .map(|stream| {
            world
                .stream(stream)
                .storage()
                .take_statement_counts()
                .into_keys()
                .collect()
        })
        .collect();
    assert_eq!(world.events("/target").len(), 61, "every event was copied");
    for ((stream, budget), texts) in [("/source", SOURCE_BUDGET_BYTES), ("/target", TARGET_BUDGET_BYTES)]
        .into_iter()
        .zip(texts)
    {
        let sizes = compiled_sizes(&texts);
        let total: usize = sizes.iter().map(|(bytes, _)| bytes).sum();
        println!(
            "{stream}: {} statements hold {total} bytes compiled; the largest:",
            sizes.len()
        );
        for (bytes, sql) in sizes.iter().take(5) {
            println!("  {bytes:>6}  {}", sql.chars().take(100).collect::<String>());
        }
        assert!(
            total <= budget,
            "{stream}'s statements hold {total} bytes, over its budget of {budget}"
        );
    }
}
