//! The mempool source's native test harness (docs/design.md §15.1), shared by the
//! `engine_mempool*` test files: a fake node with a pending pool and
//! pending-transaction filters (which it can forget, as nodes do), injectable
//! faults, and a [`Harness`] driving the source's state machine against it,
//! appending into a real engine stream over SQLite and crashing (reopening
//! the source's database) between any two steps.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use tributary::api::ApiRequest;
use tributary::limits::MAX_SOURCE_RPC_CALLS_PER_RUN;
use tributary::path::StreamPath;
use tributary::route::Action;
use tributary::source::kinds::{self, AnyConfig};
use tributary::source::mempool::Mempool;
use tributary::source::{AppendAnswer, Effect, RpcAnswer, RpcCall};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::storage::Storage;
use tributary::stream::Stream;
use tributary::Inputs;

pub const CHAIN_ID: u64 = 31337;
pub const STREAM: &str = "/mempool/transfers";
pub const TOKEN: &str = "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
pub const OTHER: &str = "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
pub const TRANSFER: &str = "transfer(address to, uint256 amount)";
pub const TRANSFER_SELECTOR: &str = "a9059cbb";

/// splitmix64: deterministic per seed.
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
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn entropy(&mut self) -> [u8; 16] {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.next().to_le_bytes());
        bytes[8..].copy_from_slice(&self.next().to_le_bytes());
        bytes
    }
}

pub fn config(filters: Value) -> Value {
    json!({
        "kind": "evm-mempool",
        "rpcUrls": ["https://rpc-a.example.com/v1", "https://rpc-b.example.com/v1"],
        "chainId": CHAIN_ID,
        "targetStream": STREAM,
        "filters": filters,
        "pollMs": 1000,
    })
}

/// Transfers to [`TOKEN`] only.
pub fn transfer_config() -> Value {
    config(json!([{"to": [TOKEN], "function": TRANSFER}]))
}

/// `transfer(recipient, amount)` calldata.
pub fn transfer_input(recipient: u64, amount: u64) -> String {
    format!("0x{TRANSFER_SELECTOR}{recipient:064x}{amount:064x}")
}

/// One node: its transactions, its pending-transaction filters (each with
/// the hashes announced to it and not yet polled), and what it answered.
#[derive(Default)]
pub struct Node {
    pub txs: BTreeMap<String, Value>,
    /// Hashes the node dropped from its pool (answered `null` from then on).
    pub dropped: BTreeSet<String>,
    pub filters: BTreeMap<String, Vec<String>>,
    pub next_filter: u64,
    /// Hashes the source received in a change answer it got (recorded by
    /// the harness when it hands the answer over).
    pub delivered: BTreeSet<String>,
    /// Hashes answered `null`.
    pub answered_null: BTreeSet<String>,
    pub forgotten: u64,
    /// Percent of calls failing transiently (503, a timeout, a wrong id).
    pub fault_percent: u64,
}

pub fn ok(id: &Value, result: Value) -> RpcAnswer {
    RpcAnswer::Response {
        status: 200,
        retry_after: None,
        body: json!({"jsonrpc": "2.0", "id": id, "result": result})
            .to_string()
            .into_bytes(),
    }
}

pub fn rpc_error(id: &Value, code: i64, message: &str) -> RpcAnswer {
    RpcAnswer::Response {
        status: 200,
        retry_after: None,
        body: json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
            .to_string()
            .into_bytes(),
    }
}

impl Node {
    /// A new transaction entering the pool: every filter hears of it.
    pub fn submit(&mut self, n: u64, to: Option<&str>, input: String) -> String {
        let hash = format!("0x{n:064x}");
        self.txs.insert(
            hash.clone(),
            json!({"hash": hash, "from": format!("0x{:040x}", 0xf00 + n), "to": to, "nonce": format!("0x{n:x}"),
                   "value": format!("0x{:x}", n * 1_000), "input": input, "blockHash": null}),
        );
        self.announce(&hash);
        hash
    }

    /// The hash announced again (another peer gossips it).
    pub fn announce(&mut self, hash: &str) {
        for changes in self.filters.values_mut() {
            changes.push(hash.to_owned());
        }
    }

    /// The node forgets its filters (idle timeout, restart).
    pub fn forget(&mut self) {
        self.forgotten += u64::try_from(self.filters.len()).unwrap();
        self.filters.clear();
    }

    pub fn answer(&mut self, call: &RpcCall, rng: &mut Rng) -> RpcAnswer {
        let request: Value = serde_json::from_str(&call.body).unwrap();
        let id = request["id"].clone();
        if self.fault_percent > 0 && rng.chance(self.fault_percent) {
            return match rng.below(3) {
                0 => RpcAnswer::Timeout,
                1 => ok(&json!(999_999), json!(null)),
                _ => RpcAnswer::Response {
                    status: 503,
                    retry_after: None,
                    body: b"busy".to_vec(),
                },
            };
        }
        match request["method"].as_str().unwrap() {
            "eth_newPendingTransactionFilter" => {
                self.next_filter += 1;
                let filter = format!("0x{:x}", self.next_filter);
                self.filters.insert(filter.clone(), Vec::new());
                ok(&id, json!(filter))
            }
            "eth_getFilterChanges" => {
                let filter = request["params"][0].as_str().unwrap().to_owned();
                match self.filters.get_mut(&filter) {
                    Some(changes) => ok(&id, json!(std::mem::take(changes))),
                    None => rpc_error(&id, -32000, "filter not found"),
                }
            }
            "eth_getTransactionByHash" => {
                let hash = request["params"][0].as_str().unwrap().to_owned();
                if self.dropped.contains(&hash) {
                    self.answered_null.insert(hash);
                    return ok(&id, Value::Null);
                }
                ok(&id, self.txs.get(&hash).cloned().unwrap_or(Value::Null))
            }
            other => rpc_error(&id, -32601, &format!("the method {other} does not exist")),
        }
    }

    /// Whether a transaction matches [`transfer_config`].
    pub fn matches(&self, hash: &str) -> bool {
        let tx = &self.txs[hash];
        tx["to"] == json!(TOKEN)
            && tx["input"].as_str().unwrap().len() == 2 + 8 + 128
            && tx["input"].as_str().unwrap()[2..10] == *TRANSFER_SELECTOR
    }
}

pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> Self {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("tributary-mempool-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fast_file(db: &std::path::Path) -> RusqliteStorage {
    let storage = RusqliteStorage::open(db).unwrap();
    storage.query("PRAGMA synchronous = OFF", &[]).unwrap();
    storage
}

pub struct Harness {
    pub _dir: TempDir,
    pub db: PathBuf,
    pub source: Mempool<RusqliteStorage>,
    pub stream: Stream<RusqliteStorage>,
    pub node: Node,
    pub rng: Rng,
    pub now: i64,
    /// Percent of steps after which the source object dies (reopens from SQLite).
    pub crash_percent: u64,
    /// Dies once, right after the next effect of this kind (a method, or "append").
    pub crash_after: Option<&'static str>,
    pub crashes: u64,
    /// The most calls one run made.
    pub most_calls: u32,
    /// Append answers refused (a 409 would mean a key reused for other content).
    pub refused_appends: Vec<u16>,
    pub methods: Vec<&'static str>,
}

impl Harness {
    pub fn new(seed: u64, config: &Value) -> Self {
        let dir = TempDir::new();
        let db = dir.0.join("mempool.sqlite");
        let mut source = Mempool::open(fast_file(&db)).unwrap();
        let Ok(AnyConfig::Mempool(parsed)) = kinds::parse("watcher", config.to_string().as_bytes(), false) else {
            panic!("not a mempool configuration: {config}");
        };
        source.configure("project", "watcher", parsed, 1_000).unwrap();
        let stream = Stream::open(
            RusqliteStorage::in_memory().unwrap(),
            "project",
            StreamPath::parse(STREAM).unwrap(),
        )
        .unwrap();
        Harness {
            _dir: dir,
            db,
            source,
            stream,
            node: Node::default(),
            rng: Rng(seed),
            now: 1_000,
            crash_percent: 0,
            crash_after: None,
            crashes: 0,
            most_calls: 0,
            refused_appends: Vec::new(),
            methods: Vec::new(),
        }
    }

    pub fn crash(&mut self) {
        self.crashes += 1;
        self.source = Mempool::open(fast_file(&self.db)).unwrap();
    }

    fn append(&mut self, body: &str) -> AppendAnswer {
        let inputs = Inputs {
            now_ms: self.now,
            entropy: [7; 16],
        };
        let response = self.stream.handle(
            &ApiRequest {
                action: &Action::Append,
                query: "",
                body: body.as_bytes(),
                token_prefix: None,
            },
            &inputs,
        );
        // 201 appended, 200 a repeat that collapsed onto its idempotency key.
        if response.status >= 300 {
            self.refused_appends.push(response.status);
        }
        AppendAnswer::Response {
            status: response.status,
            body: response.body.into_bytes(),
            stream_id: None,
        }
    }

    /// One alarm run at the time it is due; returns its last effect.
    pub fn run(&mut self) -> Effect {
        if let Some(due) = self.source.due_at() {
            self.now = self.now.max(due);
        }
        let inputs = Inputs {
            now_ms: self.now,
            entropy: self.rng.entropy(),
        };
        let mut effect = self.source.begin_run(&inputs).unwrap();
        let run_id = self.source.run_id().unwrap_or(0);
        let mut calls = 0u32;
        loop {
            self.now += 1;
            match effect {
                Effect::Call(call) => {
                    calls += 1;
                    self.most_calls = self.most_calls.max(calls);
                    self.methods.push(call.method);
                    assert!(calls <= MAX_SOURCE_RPC_CALLS_PER_RUN, "a run made more than its calls");
                    let answer = self.node.answer(&call, &mut self.rng);
                    if self.dies_after(call.method) {
                        return Effect::Abandoned;
                    }
                    self.record_delivered(&call, &answer);
                    effect = self.source.on_rpc(run_id, &answer, self.now).unwrap();
                }
                Effect::Append(append) => {
                    assert_eq!(append.stream, STREAM);
                    self.methods.push("append");
                    let answer = self.append(&append.body);
                    if self.dies_after("append") {
                        return Effect::Abandoned;
                    }
                    effect = self.source.on_append(run_id, &answer, self.now).unwrap();
                }
                Effect::Sleep { at_ms } => {
                    self.now = self.now.max(at_ms);
                    return Effect::Sleep { at_ms };
                }
                other => return other,
            }
        }
    }

    /// Whether the object dies after this step (it then reopens from SQLite).
    fn dies_after(&mut self, step: &'static str) -> bool {
        let planned = self.crash_after == Some(step);
        if planned || (self.crash_percent > 0 && self.rng.chance(self.crash_percent)) {
            if planned {
                self.crash_after = None;
            }
            self.crash();
            return true;
        }
        false
    }

    /// The hashes of a change answer the source is handed.
    fn record_delivered(&mut self, call: &RpcCall, answer: &RpcAnswer) {
        let RpcAnswer::Response { body, .. } = answer else {
            return;
        };
        if call.method != "eth_getFilterChanges" {
            return;
        }
        let answer: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        if answer["id"] != json!(call.id) {
            return;
        }
        for hash in answer["result"].as_array().into_iter().flatten() {
            self.node.delivered.insert(hash.as_str().unwrap().to_owned());
        }
    }

    /// Runs without faults or crashes until the source holds nothing queued
    /// and has polled once more.
    pub fn settle(&mut self) {
        self.crash_percent = 0;
        self.node.fault_percent = 0;
        for _ in 0..200 {
            self.run();
            let status = self.source.status().unwrap().unwrap();
            if status["txsQueued"] == 0 && status["attempt"] == 0 {
                self.run();
                return;
            }
        }
        panic!("the source did not settle: {:?}", self.source.status());
    }

    /// The `evm.pending-tx` events of the stream.
    pub fn events(&mut self) -> Vec<Value> {
        let query = tributary::stream::RangeQuery {
            after: 0,
            from_earliest: false,
            limit: 1000,
            include_ephemeral: false,
        };
        // Nothing appended yet: the stream does not exist.
        let Ok(read) = self.stream.read_range(&query) else {
            return Vec::new();
        };
        serde_json::to_value(&read.events)
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .filter(|event| event["type"] == "evm.pending-tx")
            .cloned()
            .collect()
    }

    pub fn appended_hashes(&mut self) -> Vec<String> {
        self.events()
            .iter()
            .map(|event| event["payload"]["hash"].as_str().unwrap().to_owned())
            .collect()
    }
}
