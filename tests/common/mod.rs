//! Shared helpers for the native engine tests: real SQLite through rusqlite,
//! running the same migrations and queries as the Durable Object.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use tributary::api::{ApiRequest, ApiResponse};
use tributary::path::StreamPath;
use tributary::route::Action;
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;
use tributary::Inputs;

pub const PROJECT: &str = "project-test";

pub fn inputs(now_ms: i64, seed: u8) -> Inputs {
    Inputs {
        now_ms,
        entropy: [seed; 16],
    }
}

pub fn path(raw: &str) -> StreamPath {
    StreamPath::parse(raw).expect("valid test path")
}

/// A `subscription-configured` event of a log receiver (§15.1) for `order`
/// events, from the beginning.
pub fn log_receiver(key: &str, mode: &str, transform: Option<&str>) -> Value {
    let mut receiver = serde_json::json!({"action": "log", "delivery": {"start": "beginning", "onFailingEvent": mode}});
    if let Some(transform) = transform {
        receiver["jsonataTransform"] = serde_json::json!(transform);
    }
    serde_json::json!({"type": "events.iterate.com/stream/subscription-configured",
        "payload": {"subscriptionKey": key, "filter": {"eventTypes": ["order"]}, "receiver": receiver}})
}

/// The `runtime` of subscription `key` in a debug card (§11); null when absent.
pub fn runtime_of(card: &Value, key: &str) -> Value {
    card["subscriptions"]
        .as_array()
        .and_then(|subscriptions| {
            subscriptions
                .iter()
                .find(|subscription| subscription["subscriptionKey"] == key)
        })
        .map_or(Value::Null, |subscription| subscription["runtime"].clone())
}

pub fn memory_stream(raw_path: &str) -> Stream<RusqliteStorage> {
    Stream::open(RusqliteStorage::in_memory().unwrap(), PROJECT, path(raw_path)).unwrap()
}

/// A stream over a database file, so a test can "restart" by reopening it.
pub struct FileStream {
    pub dir: tempdir_lite::TempDir,
    pub raw_path: String,
}

impl FileStream {
    pub fn new(raw_path: &str) -> Self {
        FileStream {
            dir: tempdir_lite::TempDir::new(),
            raw_path: raw_path.to_owned(),
        }
    }
    pub fn db(&self) -> PathBuf {
        self.dir.path().join("stream.sqlite")
    }
    pub fn open(&self) -> Stream<RusqliteStorage> {
        Stream::open(
            RusqliteStorage::open(&self.db()).unwrap(),
            PROJECT,
            path(&self.raw_path),
        )
        .unwrap()
    }
}

/// Calls the stream's API like the Durable Object does; returns (status, JSON body).
pub fn call(
    stream: &mut Stream<RusqliteStorage>,
    action: Action,
    query: &str,
    body: &str,
    inputs: &Inputs,
) -> (u16, Value) {
    call_within(stream, action, query, body, inputs, None)
}

/// [`call`] by a token limited to `token_prefix` (§2), as the router passes it on.
pub fn call_within(
    stream: &mut Stream<RusqliteStorage>,
    action: Action,
    query: &str,
    body: &str,
    inputs: &Inputs,
    token_prefix: Option<&str>,
) -> (u16, Value) {
    let response: ApiResponse = stream.handle(
        &ApiRequest {
            action: &action,
            query,
            body: body.as_bytes(),
            token_prefix,
        },
        inputs,
    );
    let json = if response.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&response.body).unwrap_or(Value::String(response.body.clone()))
    };
    (response.status, json)
}

pub fn append(stream: &mut Stream<RusqliteStorage>, body: Value, now_ms: i64) -> (u16, Value) {
    call(stream, Action::Append, "", &body.to_string(), &inputs(now_ms, 7))
}

pub fn read(stream: &mut Stream<RusqliteStorage>, query: &str) -> (u16, Value) {
    call(stream, Action::ReadRange, query, "", &inputs(0, 0))
}

/// What a log page's read (a window of `events`) contains.
pub const LOG_READ: &str = "FROM events WHERE event_offset >";

/// Runs of the statements among `counts` whose text contains `needle`.
pub fn runs_containing(counts: &std::collections::BTreeMap<String, u64>, needle: &str) -> u64 {
    counts
        .iter()
        .filter(|(sql, _)| sql.contains(needle))
        .map(|(_, n)| n)
        .sum()
}

/// Reads of the log's pages (windows of `events`) since the last count, and
/// forgets the counts.
pub fn log_reads(stream: &Stream<RusqliteStorage>) -> u64 {
    runs_containing(&stream.storage().take_statement_counts(), LOG_READ)
}

pub fn table_names(db: &Path) -> Vec<String> {
    let connection = rusqlite::Connection::open(db).unwrap();
    let mut statement = connection
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap();
    statement
        .query_map([], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// A tiny self-deleting temporary directory (no extra dependency).
pub mod tempdir_lite {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static COUNTER: AtomicUsize = AtomicUsize::new(0);

    pub struct TempDir(PathBuf);

    impl TempDir {
        pub fn new() -> Self {
            let n = COUNTER.fetch_add(1, Ordering::SeqCst);
            let dir = std::env::temp_dir().join(format!("tributary-test-{}-{n}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

pub mod driver;
pub mod world;

/// splitmix64: a tiny deterministic generator for seeded simulations.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Every inbound fence record of a stream (§7 rule 2), as `(sourcePath,
/// subscriptionKey, record)` in their order, paged through the engine's own
/// pages of 1000 (bounded by the count).
pub fn fence_rows<S: tributary::storage::Storage>(stream: &Stream<S>) -> Vec<(String, String, Value)> {
    let count = stream.inbound_fence_count().unwrap();
    let mut rows = Vec::new();
    let mut after = None;
    for _page in 0..=count / 1000 + 1 {
        let page = stream.inbound_page(after.as_ref(), 1000).unwrap();
        for (path, by_key) in page.records.by_source_path {
            for (key, record) in by_key {
                rows.push((path.clone(), key, serde_json::to_value(record).unwrap()));
            }
        }
        after = page.next_after;
        if after.is_none() {
            return rows;
        }
    }
    panic!("more pages than {count} records need")
}
