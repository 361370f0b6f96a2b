//! What a stream object's compiled statements hold in SQLite's memory
//! (issue 33, §12: budget memory, not only steps). The platform keeps each
//! statement text an object runs compiled, for as long as the object lives
//! (up to 1 MiB of text an object, `SQL_STATEMENT_CACHE_MAX_SIZE` in workerd's
//! `api/sql.c++`), so the statements one object keeps, times the objects a
//! process holds, is a budget: measured in workerd, 21 more statements of
//! about 4.7 KB each made a bare JS object 123 KB larger (docs/benchmarks.md,
//! thirty-fourth round).
//!
//! This test runs a copy source and its receiving stream through their
//! steady path (single appends and batches of every size up to 25, copies
//! delivered), takes every statement text the engine ran for each (the shell
//! adds a few of its own), compiles each once on the migrated schema as the
//! platform does (`SQLITE_PREPARE_PERSISTENT`, workerd's `util/sqlite.c++`)
//! and adds what SQLite says each holds (`SQLITE_STMTSTATUS_MEMUSED`). It
//! holds both to budgets and prints the figures. The bundled SQLite here
//! keeps column metadata that workerd's build does not
//! (`SQLITE_ENABLE_COLUMN_METADATA`): its figures are about 12 % above
//! workerd's for the same texts, which `bench/statement_memory.sh` measures
//! (it runs this test with `TRIBUTARY_STATEMENT_TEXTS` set to a directory,
//! where the test writes the texts).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use rusqlite::{Connection, PrepFlags, StatementStatus};
use serde_json::json;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
/// Statement memory a copy source keeps (measured 91,336 bytes with the
/// bundled SQLite; 162,840 when the events INSERT had a text a row count).
const SOURCE_BUDGET_BYTES: usize = 100 * 1024;
/// Statement memory the stream receiving the copies keeps (measured 73,176;
/// 144,680 with a text a row count).
const TARGET_BUDGET_BYTES: usize = 80 * 1024;

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
            let statement = conn
                .prepare_with_flags(sql, PrepFlags::SQLITE_PREPARE_PERSISTENT)
                .unwrap_or_else(|error| panic!("{error}: {sql}"));
            (statement.get_status(StatementStatus::MemUsed) as usize, sql.clone())
        })
        .collect();
    sizes.sort_by(|a, b| b.cmp(a));
    sizes
}

/// The texts, for `bench/statement_memory.sh` to compile in SQLite built as
/// workerd builds it: `{dir}/source.txt` or `target.txt`, one statement
/// after another, each followed by a line holding only U+0001.
fn write_texts(dir: &std::path::Path, stream: &str, sizes: &[(usize, String)]) {
    let text: String = sizes.iter().map(|(_, sql)| format!("{sql}\n\u{1}\n")).collect();
    let name = format!("{}.txt", stream.trim_start_matches('/'));
    std::fs::write(dir.join(name), text).unwrap();
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
    // Batches of every size: one statement text a row count would keep one
    // compiled statement a size (the events INSERT, `stream/rows.rs`).
    for size in 1..=25 {
        let events: Vec<_> = (0..size)
            .map(|n| json!({"type": "data", "payload": {"size": size, "n": n}}))
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
    assert_eq!(
        world.events("/target").len(),
        1 + (1..=25).sum::<usize>(),
        "every event was copied"
    );
    // Every figure first, then the budgets: bench/statement_memory.sh
    // measures the texts of a revision over its budgets too.
    let mut over = Vec::new();
    for ((stream, budget), texts) in [("/source", SOURCE_BUDGET_BYTES), ("/target", TARGET_BUDGET_BYTES)]
        .into_iter()
        .zip(texts)
    {
        let sizes = compiled_sizes(&texts);
        if let Some(dir) = std::env::var_os("TRIBUTARY_STATEMENT_TEXTS") {
            write_texts(std::path::Path::new(&dir), stream, &sizes);
        }
        let total: usize = sizes.iter().map(|(bytes, _)| bytes).sum();
        println!(
            "{stream}: {} statements hold {total} bytes compiled; the largest:",
            sizes.len()
        );
        for (bytes, sql) in sizes.iter().take(5) {
            println!("  {bytes:>6}  {}", sql.chars().take(100).collect::<String>());
        }
        if total > budget {
            over.push(format!(
                "{stream}'s statements hold {total} bytes, over its budget of {budget}"
            ));
        }
    }
    assert!(over.is_empty(), "{over:?}");
}
