//! The EVM source natively (DESIGN.md §15): the state machine driven over
//! scripted chains by a fake JSON-RPC node, appending into a real engine
//! stream over SQLite. The property: whatever the forks (random depth,
//! flip-flops back to an old fork), faults (429, 5xx, timeouts, wrong ids,
//! logs whose block hash does not match) and crashes (between any two
//! steps, an append included), once the source has caught up the stream's
//! non-invalidated `evm.log` events are exactly the final canonical chain's
//! matching logs, in order. Plus deep reorgs, backoff, failure, budgets, the
//! payload, and validation of malformed, oversized and hostile input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use tributary::api::ApiRequest;
use tributary::error::ApiFailure;
use tributary::limits::MAX_SOURCE_RPC_CALLS_PER_RUN;
use tributary::path::StreamPath;
use tributary::route::Action;
use tributary::source::config::{self, SourceConfig};
use tributary::source::{AppendAnswer, Directory, DirectoryChange, Effect, RpcAnswer, RpcCall, RpcFailure, Source};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;
use tributary::Inputs;

const TRANSFER: &str = "Transfer(address indexed from, address indexed to, uint256 value)";
const TRANSFER_TOPIC: &str = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const TOKEN: [u8; 20] = [0xAA; 20];
const OTHER_TOKEN: [u8; 20] = [0xBB; 20];
const CHAIN_ID: u64 = 31337;
const STREAM: &str = "/chain/transfers";
const INVALIDATED: &str = "events.iterate.com/stream/events-invalidated";

// ---------- randomness ----------

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn entropy(&mut self) -> [u8; 16] {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.next().to_le_bytes());
        bytes[8..].copy_from_slice(&self.next().to_le_bytes());
        bytes
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::from("0x");
    for byte in bytes {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

fn unhex(text: &str) -> Option<[u8; 32]> {
    let digits = text.strip_prefix("0x")?;
    if digits.len() != 64 {
        return None;
    }
    let mut bytes = [0u8; 32];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(digits.get(i * 2..i * 2 + 2)?, 16).ok()?;
    }
    Some(bytes)
}

fn word(n: u64, tag: u8) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    bytes[0] = tag;
    bytes[24..].copy_from_slice(&n.to_be_bytes());
    bytes
}

fn padded(address: [u8; 20]) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    bytes[12..].copy_from_slice(&address);
    bytes
}

fn quantity(value: &Value) -> u64 {
    u64::from_str_radix(value.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

// ---------- a scripted chain ----------

#[derive(Clone, Debug)]
struct FakeLog {
    address: [u8; 20],
    topics: Vec<[u8; 32]>,
    data: Vec<u8>,
    tx: [u8; 32],
}

#[derive(Clone, Debug)]
struct Block {
    number: u64,
    hash: [u8; 32],
    parent: [u8; 32],
    logs: Vec<FakeLog>,
}

/// A tree of blocks with one canonical branch; every block ever made stays
/// readable by hash (as a node keeps side blocks).
struct Chain {
    blocks: HashMap<[u8; 32], Block>,
    canonical: Vec<[u8; 32]>,
    /// Tips of abandoned forks (for flip-flops).
    old_tips: Vec<[u8; 32]>,
    made: u64,
    /// The highest tip the chain ever had: a reader may have taken
    /// everything `finality` below it as final.
    high_water: u64,
    /// No fork below this block (the reader's start: below it, a fork is
    /// deeper than anything it read).
    min_ancestor: u64,
}

impl Chain {
    /// Blocks 0..=tip with up to 3 random logs each.
    fn new(rng: &mut Rng, tip: u64) -> Self {
        let mut chain = Chain::empty();
        chain.extend(rng, tip + 1, 3);
        chain
    }

    fn empty() -> Self {
        Chain {
            blocks: HashMap::new(),
            canonical: Vec::new(),
            old_tips: Vec::new(),
            made: 0,
            high_water: 0,
            min_ancestor: 0,
        }
    }

    fn tip(&self) -> u64 {
        self.canonical.len() as u64 - 1
    }

    fn make_logs(&mut self, rng: &mut Rng, max_logs: u64) -> Vec<FakeLog> {
        let count = rng.below(max_logs + 1);
        (0..count)
            .map(|_| {
                self.made += 1;
                let tx = word(self.made, 0x77);
                match rng.below(10) {
                    // Not matched: another contract, another event, or an ERC-721 shape.
                    0 => FakeLog {
                        address: OTHER_TOKEN,
                        topics: vec![transfer_topic(), padded([1; 20]), padded([2; 20])],
                        data: word(5, 0).to_vec(),
                        tx,
                    },
                    1 => FakeLog {
                        address: TOKEN,
                        topics: vec![word(99, 0x55)],
                        data: Vec::new(),
                        tx,
                    },
                    2 => FakeLog {
                        address: TOKEN,
                        topics: vec![transfer_topic(), padded([1; 20]), padded([2; 20]), word(7, 0)],
                        data: Vec::new(),
                        tx,
                    },
                    _ => FakeLog {
                        address: TOKEN,
                        topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
                        data: word(self.made, 0).to_vec(),
                        tx,
                    },
                }
            })
            .collect()
    }

    fn push(&mut self, rng: &mut Rng, max_logs: u64) {
        self.made += 1;
        let number = self.canonical.len() as u64;
        let parent = self.canonical.last().copied().unwrap_or([0; 32]);
        let hash = word(self.made, 0xB0);
        let logs = self.make_logs(rng, max_logs);
        self.blocks.insert(
            hash,
            Block {
                number,
                hash,
                parent,
                logs,
            },
        );
        self.canonical.push(hash);
        self.high_water = self.high_water.max(number);
    }

    fn extend(&mut self, rng: &mut Rng, blocks: u64, max_logs: u64) {
        for _ in 0..blocks {
            self.push(rng, max_logs);
        }
    }

    /// Replaces the last `depth` blocks by `depth + extra` new ones.
    fn reorg(&mut self, rng: &mut Rng, depth: u64, extra: u64, max_logs: u64) {
        let depth = depth.min(self.tip());
        self.reorg_unchecked(rng, depth, extra, max_logs);
    }

    /// A reorg whose common ancestor stays within `within` blocks of the
    /// highest tip ever seen (what a reader with that finality depth can undo).
    fn reorg_within(&mut self, rng: &mut Rng, depth: u64, extra: u64, max_logs: u64, within: u64) {
        let lowest_ancestor = self.high_water.saturating_sub(within).max(self.min_ancestor);
        let depth = depth.min(self.tip().saturating_sub(lowest_ancestor));
        if depth > 0 {
            self.reorg_unchecked(rng, depth, extra, max_logs);
        }
    }

    fn reorg_unchecked(&mut self, rng: &mut Rng, depth: u64, extra: u64, max_logs: u64) {
        if let Some(tip) = self.canonical.last() {
            self.old_tips.push(*tip);
        }
        let keep = self.canonical.len() - depth as usize;
        self.canonical.truncate(keep);
        self.extend(rng, depth + extra, max_logs);
    }

    /// Makes an abandoned fork canonical again (a reorg undone).
    fn flip_back(&mut self, within: u64) -> bool {
        let Some(old) = self.old_tips.pop() else {
            return false;
        };
        let mut branch = Vec::new();
        let mut cursor = old;
        while let Some(block) = self.blocks.get(&cursor) {
            branch.push(block.hash);
            if self.canonical.get(block.number as usize) == Some(&block.hash) {
                break;
            }
            cursor = block.parent;
        }
        branch.reverse();
        let Some(first) = branch.first().and_then(|hash| self.blocks.get(hash)) else {
            return false;
        };
        let fork_number = first.number;
        // The common ancestor (fork_number - 1) stays within reach.
        if fork_number == 0 || fork_number - 1 < self.high_water.saturating_sub(within).max(self.min_ancestor) {
            return false;
        }
        if let Some(tip) = self.canonical.last() {
            self.old_tips.push(*tip);
        }
        self.canonical.truncate(fork_number as usize);
        self.canonical.extend(branch);
        true
    }

    fn by_number(&self, number: u64) -> Option<&Block> {
        self.canonical
            .get(number as usize)
            .and_then(|hash| self.blocks.get(hash))
    }

    /// `(blockHash, logIndex)` of every canonical log the test filter matches.
    fn matching(&self, from: u64) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        for number in from..=self.tip() {
            let block = self.by_number(number).unwrap();
            for (index, log) in block.logs.iter().enumerate() {
                if log.address == TOKEN && log.topics.len() == 3 && log.topics[0] == transfer_topic() {
                    out.push((hex(&block.hash), index as u64));
                }
            }
        }
        out
    }
}

/// A matched Transfer log.
fn transfer(n: u64) -> FakeLog {
    FakeLog {
        address: TOKEN,
        topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
        data: word(n, 0).to_vec(),
        tx: word(n, 0x77),
    }
}

impl Chain {
    /// Sets the logs of canonical block `number`.
    fn set_logs(&mut self, number: u64, logs: Vec<FakeLog>) {
        let hash = self.canonical[number as usize];
        self.blocks.get_mut(&hash).unwrap().logs = logs;
    }
}

fn transfer_topic() -> [u8; 32] {
    let mut bytes = [0u8; 32];
    let digits = TRANSFER_TOPIC.trim_start_matches("0x");
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&digits[i * 2..i * 2 + 2], 16).unwrap();
    }
    bytes
}

// ---------- a fake JSON-RPC node ----------

#[derive(Default, Clone, Copy)]
struct Faults {
    /// Percent of calls that fail or answer inconsistently.
    percent: u64,
}

fn header_json(block: &Block) -> Value {
    json!({"number": format!("0x{:x}", block.number), "hash": hex(&block.hash), "parentHash": hex(&block.parent), "transactions": []})
}

fn log_json(block: &Block, index: usize, log: &FakeLog) -> Value {
    json!({
        "address": hex(&log.address),
        "topics": log.topics.iter().map(|t| hex(t)).collect::<Vec<_>>(),
        "data": hex(&log.data),
        "blockNumber": format!("0x{:x}", block.number),
        "blockHash": hex(&block.hash),
        "transactionHash": hex(&log.tx),
        "transactionIndex": format!("0x{:x}", index),
        "logIndex": format!("0x{:x}", index),
        "removed": false,
    })
}

fn node_filter(filter: &Value, log: &FakeLog) -> bool {
    if let Some(addresses) = filter.get("address").and_then(Value::as_array) {
        if !addresses.iter().any(|a| a.as_str() == Some(hex(&log.address).as_str())) {
            return false;
        }
    }
    if let Some(first) = filter.pointer("/topics/0").and_then(Value::as_array) {
        let Some(topic) = log.topics.first() else {
            return false;
        };
        if !first.iter().any(|t| t.as_str() == Some(hex(topic).as_str())) {
            return false;
        }
    }
    true
}

fn ok(id: &Value, result: Value) -> RpcAnswer {
    RpcAnswer::Response {
        status: 200,
        retry_after: None,
        body: json!({"jsonrpc": "2.0", "id": id, "result": result})
            .to_string()
            .into_bytes(),
    }
}

fn rpc_error(id: &Value, code: i64, message: &str) -> RpcAnswer {
    RpcAnswer::Response {
        status: 200,
        retry_after: None,
        body: json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
            .to_string()
            .into_bytes(),
    }
}

fn answer(chain: &Chain, call: &RpcCall, rng: &mut Rng, faults: Faults) -> RpcAnswer {
    let request: Value = serde_json::from_str(&call.body).unwrap();
    let id = request["id"].clone();
    let params = &request["params"];
    if faults.percent > 0 && rng.chance(faults.percent) {
        return match rng.below(5) {
            0 => RpcAnswer::Response {
                status: 429,
                retry_after: Some("1".to_owned()),
                body: b"slow down".to_vec(),
            },
            1 => RpcAnswer::Response {
                status: 503,
                retry_after: None,
                body: Vec::new(),
            },
            2 => RpcAnswer::Timeout,
            3 => ok(&json!(9_999_999), json!("0x1")),
            _ => {
                // An inconsistent answer: a log of another block (another
                // hash, or a number outside the asked range).
                if call.method == "eth_getLogs" {
                    let mut wrong = chain.by_number(chain.tip()).unwrap().clone();
                    wrong.hash = word(rng.next(), 0xEE);
                    if let Some(to) = params[0].get("toBlock") {
                        wrong.number = quantity(to) + 5;
                    }
                    let fake = FakeLog {
                        address: TOKEN,
                        topics: vec![transfer_topic(), padded([9; 20]), padded([9; 20])],
                        data: word(1, 0).to_vec(),
                        tx: word(1, 0x99),
                    };
                    ok(&id, json!([log_json(&wrong, 0, &fake)]))
                } else {
                    RpcAnswer::Network("connection reset".to_owned())
                }
            }
        };
    }
    match call.method {
        "eth_chainId" => ok(&id, json!(format!("0x{CHAIN_ID:x}"))),
        "eth_blockNumber" => ok(&id, json!(format!("0x{:x}", chain.tip()))),
        "eth_getBlockByNumber" => {
            let number = quantity(&params[0]);
            ok(&id, chain.by_number(number).map_or(Value::Null, header_json))
        }
        "eth_getLogs" => {
            let filter = &params[0];
            let blocks: Vec<&Block> = if let Some(hash) = filter.get("blockHash").and_then(Value::as_str) {
                match unhex(hash).and_then(|hash| chain.blocks.get(&hash)) {
                    Some(block) => vec![block],
                    None => return rpc_error(&id, -32000, "unknown block"),
                }
            } else {
                let from = quantity(&filter["fromBlock"]);
                let to = quantity(&filter["toBlock"]);
                (from..=to.min(chain.tip()))
                    .filter_map(|n| chain.by_number(n))
                    .collect()
            };
            let mut logs = Vec::new();
            for block in blocks {
                for (index, log) in block.logs.iter().enumerate() {
                    if node_filter(filter, log) {
                        logs.push(log_json(block, index, log));
                    }
                }
            }
            ok(&id, Value::Array(logs))
        }
        _ => rpc_error(&id, -32601, "method not found"),
    }
}

// ---------- the harness ----------

struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("tributary-source-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A database file without fsync: a "crash" here is a reopen, not power loss.
fn fast_file(db: &std::path::Path) -> RusqliteStorage {
    use tributary::storage::Storage;
    let storage = RusqliteStorage::open(db).unwrap();
    storage.query("PRAGMA synchronous = OFF", &[]).unwrap();
    storage.query("PRAGMA journal_mode = MEMORY", &[]).unwrap();
    storage
}

fn base_config(finality_depth: u64, confirmations: u64, start_block: Option<u64>) -> Value {
    let mut config = json!({
        "kind": "evm",
        "rpcUrls": ["https://rpc-a.example.com/v1", "https://rpc-b.example.com/v1"],
        "chainId": CHAIN_ID,
        "targetStream": STREAM,
        "filters": [{"address": [hex(&TOKEN)], "event": TRANSFER}],
        "finalityDepth": finality_depth,
        "confirmations": confirmations,
        "pollMs": 1000,
    });
    if let Some(start) = start_block {
        config["startBlock"] = json!(start);
    }
    config
}

struct Harness {
    _dir: TempDir,
    db: PathBuf,
    source: Source<RusqliteStorage>,
    stream: Stream<RusqliteStorage>,
    chain: Chain,
    rng: Rng,
    now: i64,
    faults: Faults,
    /// Percent of steps after which the object "crashes" (reopens from SQLite).
    crash_percent: u64,
    /// Percent of calls after which the chain moves (extends or reorgs).
    move_percent: u64,
    max_reorg: u64,
    max_logs: u64,
    calls: u64,
    appends: u64,
    crashes: u64,
    effects: Vec<&'static str>,
}

impl Harness {
    fn new(seed: u64, chain_length: u64, config: &Value) -> Self {
        let mut rng = Rng::new(seed);
        let chain = Chain::new(&mut rng, chain_length);
        let dir = TempDir::new();
        let db = dir.0.join("source.sqlite");
        let mut source = Source::open(fast_file(&db)).unwrap();
        let parsed = config::parse("transfers", config.to_string().as_bytes(), false).unwrap();
        source.configure("project", "transfers", parsed, 1_000).unwrap();
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
            chain,
            rng,
            now: 1_000,
            faults: Faults::default(),
            crash_percent: 0,
            move_percent: 0,
            max_reorg: 0,
            max_logs: 3,
            calls: 0,
            appends: 0,
            crashes: 0,
            effects: Vec::new(),
        }
    }

    fn crash(&mut self) {
        self.crashes += 1;
        self.source = Source::open(fast_file(&self.db)).unwrap();
    }

    fn append(&mut self, body: &str) -> AppendAnswer {
        self.appends += 1;
        let inputs = Inputs {
            now_ms: self.now,
            entropy: [7; 16],
        };
        let response = self.stream.handle(
            &ApiRequest {
                action: &Action::Append,
                query: "",
                body: body.as_bytes(),
            },
            &inputs,
        );
        AppendAnswer::Response {
            status: response.status,
            body: response.body.into_bytes(),
            stream_id: self.stream.lifetime().map(|meta| meta.stream_id.clone()),
        }
    }

    fn move_chain(&mut self) {
        let roll = self.rng.below(10);
        if roll < 5 {
            let blocks = 1 + self.rng.below(3);
            self.chain.extend(&mut self.rng, blocks, self.max_logs);
        } else if roll < 8 && self.max_reorg > 0 {
            let depth = 1 + self.rng.below(self.max_reorg);
            let extra = self.rng.below(3);
            self.chain
                .reorg_within(&mut self.rng, depth, extra, self.max_logs, self.max_reorg);
        } else if self.max_reorg > 0 {
            self.chain.flip_back(self.max_reorg);
        }
    }

    /// One alarm run; returns its last effect.
    fn run(&mut self) -> Effect {
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
                    if std::env::var("SOURCE_TRACE").is_ok() {
                        eprintln!("call {} {} (tip {})", call.method, call.body, self.chain.tip());
                    }
                    calls += 1;
                    self.calls += 1;
                    self.effects.push(call.method);
                    assert!(calls <= MAX_SOURCE_RPC_CALLS_PER_RUN, "a run made more than 40 calls");
                    if self.move_percent > 0 && self.rng.chance(self.move_percent) {
                        self.move_chain();
                    }
                    let answer = answer(&self.chain, &call, &mut self.rng, self.faults);
                    if self.crash_percent > 0 && self.rng.chance(self.crash_percent) {
                        self.crash();
                        return Effect::Abandoned;
                    }
                    effect = self.source.on_rpc(run_id, &answer, self.now).unwrap();
                }
                Effect::Append(append) => {
                    if std::env::var("SOURCE_TRACE").is_ok() {
                        eprintln!("append {}", append.body.chars().take(300).collect::<String>());
                    }
                    assert_eq!(append.stream, STREAM);
                    self.effects.push("append");
                    let answer = self.append(&append.body);
                    if self.crash_percent > 0 && self.rng.chance(self.crash_percent) {
                        self.crash();
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

    /// Runs with a still chain and no faults until the source has read the tip.
    fn settle(&mut self) {
        self.faults = Faults::default();
        self.crash_percent = 0;
        self.move_percent = 0;
        // A chain that got shorter (a flip back to a shorter fork) grows past
        // its highest height again, as chains do: only a block at a height
        // the reader already passed reveals a fork above its confirmations.
        if self.chain.tip() < self.chain.high_water {
            let past = self.chain.high_water + 1;
            while self.chain.tip() < past {
                self.chain.push(&mut self.rng, self.max_logs);
            }
        }
        let tip = self.chain.tip();
        let confirmations = self.source.row().unwrap().config.confirmations;
        let caught_up = Some(tip.saturating_sub(confirmations) + 1);
        for _ in 0..10_000 {
            let effect = self.run();
            assert!(
                !matches!(effect, Effect::Stop),
                "the source stopped: {:?}",
                self.source.status()
            );
            let row = self.source.row().unwrap();
            if row.next_block == caught_up && row.attempt == 0 && matches!(effect, Effect::Sleep { .. }) {
                // One more run confirms the top (the same-height reorg check).
                let effect = self.run();
                if self.source.row().unwrap().next_block == caught_up && matches!(effect, Effect::Sleep { .. }) {
                    return;
                }
            }
        }
        panic!("the source never caught up: {:?}", self.source.status());
    }

    fn events(&mut self) -> Vec<Value> {
        let mut events = Vec::new();
        let mut after = 0u64;
        loop {
            let response = self.stream.handle(
                &ApiRequest {
                    action: &Action::ReadRange,
                    query: &format!("after={after}&limit=1000"),
                    body: b"",
                },
                &Inputs {
                    now_ms: 0,
                    entropy: [0; 16],
                },
            );
            if response.status == 404 {
                return events;
            }
            let page: Value = serde_json::from_str(&response.body).unwrap();
            let list = page["events"].as_array().unwrap().clone();
            if list.is_empty() {
                return events;
            }
            after = page["nextAfter"].as_u64().unwrap();
            events.extend(list);
        }
    }

    fn invalidated(&mut self) -> BTreeSet<u64> {
        let mut invalid = BTreeSet::new();
        for event in self.events() {
            if event["type"] == INVALIDATED {
                let own = event["offset"].as_u64().unwrap();
                let offsets = event["payload"]["offsets"].as_array().unwrap();
                assert!(!offsets.is_empty() && offsets.len() <= 1000);
                for offset in offsets {
                    let offset = offset.as_u64().unwrap();
                    assert!(offset < own);
                    invalid.insert(offset);
                }
                assert_eq!(event["payload"]["reason"], "reorg");
            }
        }
        invalid
    }

    /// `(blockHash, logIndex)` of the stream's non-invalidated evm.log events, in offset order.
    fn valid_logs(&mut self) -> Vec<(String, u64)> {
        let invalid = self.invalidated();
        self.events()
            .iter()
            .filter(|event| event["type"] == "evm.log" && !invalid.contains(&event["offset"].as_u64().unwrap()))
            .map(|event| {
                (
                    event["payload"]["blockHash"].as_str().unwrap().to_owned(),
                    event["payload"]["logIndex"].as_u64().unwrap(),
                )
            })
            .collect()
    }

    fn assert_invariant(&mut self, from: u64, context: &str) {
        let confirmations = self.source.row().unwrap().config.confirmations;
        let tip = self.chain.tip().saturating_sub(confirmations);
        let expected: Vec<(String, u64)> = {
            let all = self.chain.matching(from);
            all.into_iter()
                .filter(|(hash, _)| {
                    unhex(hash)
                        .and_then(|hash| self.chain.blocks.get(&hash))
                        .is_some_and(|block| block.number <= tip)
                })
                .collect()
        };
        let got = self.valid_logs();
        assert_eq!(got, expected, "{context}");
    }
}

// ---------- the property ----------

#[test]
fn s15_random_forks_faults_and_crashes_leave_exactly_the_canonical_logs_valid() {
    let seeds: u64 = std::env::var("SOURCE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let only: Option<u64> = std::env::var("SOURCE_SEED").ok().and_then(|s| s.parse().ok());
    let mut reorgs = 0;
    let mut deep = 0;
    let mut crashes = 0;
    let mut invalidations = 0;
    let mut revived = 0;
    for seed in only.map_or(1..=seeds, |seed| seed..=seed) {
        let mut rng = Rng::new(seed ^ 0xABCD);
        let finality = 3 + rng.below(10);
        let confirmations = rng.below(3);
        let start = rng.below(5);
        let config = base_config(finality, confirmations, Some(start));
        let mut harness = Harness::new(seed, 5 + rng.below(20), &config);
        harness.chain.min_ancestor = start;
        harness.faults = Faults { percent: rng.below(15) };
        harness.crash_percent = rng.below(8);
        harness.move_percent = 10 + rng.below(30);
        // Reorgs stay within the window (deep ones are their own test).
        harness.max_reorg = finality.min(1 + rng.below(6));
        harness.max_logs = 1 + rng.below(4);
        for _step in 0..(40 + rng.below(80)) {
            let effect = harness.run();
            assert!(
                !matches!(effect, Effect::Stop),
                "seed {seed}: the source stopped: {:?}",
                harness.source.status()
            );
        }
        harness.settle();
        let context = format!(
            "seed {seed} (replay: SOURCE_SEED={seed} cargo test --test engine_source s15_random): finality {finality}, confirmations {confirmations}, status {}",
            harness.source.status().unwrap()
        );
        assert_eq!(harness.source.row().unwrap().deep_reorgs, 0, "{context}");
        harness.assert_invariant(start, &context);
        revived += harness
            .events()
            .iter()
            .filter(|event| {
                event["type"] == "evm.log" && event["idempotencyKey"].as_str().unwrap().matches(':').count() > 4
            })
            .count();
        invalidations += harness.source.row().unwrap().invalidations;
        let row = harness.source.row().unwrap();
        reorgs += row.reorgs;
        deep += row.deep_reorgs;
        crashes += harness.crashes;
    }
    eprintln!(
        "{seeds} seeds: {reorgs} reorgs, {invalidations} invalidations, {revived} revived logs, {deep} deep, {crashes} crashes"
    );
    if only.is_none() {
        assert!(
            reorgs > 0 && invalidations > 0 && crashes > 0 && revived > 0,
            "the property saw too little"
        );
    }
}

// ---------- reorg shapes ----------

fn offsets_of(harness: &mut Harness, block_hashes: &[String]) -> Vec<u64> {
    harness
        .events()
        .iter()
        .filter(|event| {
            event["type"] == "evm.log"
                && block_hashes
                    .iter()
                    .any(|hash| event["payload"]["blockHash"].as_str() == Some(hash.as_str()))
        })
        .map(|event| event["offset"].as_u64().unwrap())
        .collect()
}

fn invalidations(harness: &mut Harness) -> Vec<Value> {
    harness
        .events()
        .into_iter()
        .filter(|event| event["type"] == INVALIDATED)
        .collect()
}

#[test]
fn s15_a_reorg_invalidates_exactly_the_dead_forks_offsets_then_appends_the_new_fork() {
    let mut harness = Harness::new(11, 12, &base_config(64, 0, Some(0)));
    harness.chain.set_logs(11, vec![transfer(1), transfer(2)]);
    harness.chain.set_logs(12, vec![transfer(3)]);
    harness.settle();
    harness.assert_invariant(0, "before");
    let dead: Vec<String> = (harness.chain.tip() - 1..=harness.chain.tip())
        .map(|n| hex(&harness.chain.by_number(n).unwrap().hash))
        .collect();
    let dead_offsets = offsets_of(&mut harness, &dead);
    assert!(!dead_offsets.is_empty());
    let mut rng = Rng::new(5);
    harness.chain.reorg(&mut rng, 2, 1, 3);
    let head_before = harness.events().len() as u64;
    harness.settle();
    let found = invalidations(&mut harness);
    assert_eq!(found.len(), 1);
    let offsets: Vec<u64> = found[0]["payload"]["offsets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|offset| offset.as_u64().unwrap())
        .collect();
    assert_eq!(offsets, dead_offsets);
    // The invalidation comes before the new fork's logs.
    assert_eq!(found[0]["offset"].as_u64().unwrap(), head_before + 1);
    let key = found[0]["idempotencyKey"].as_str().unwrap();
    let ancestor = hex(&harness.chain.by_number(harness.chain.tip() - 3).unwrap().hash);
    assert_eq!(
        key,
        format!("evm:transfers:{CHAIN_ID}:reorg:{ancestor}:{}:0:0", dead[1]),
        "the key names the ancestor and the dead tip"
    );
    assert_eq!(found[0]["metadata"]["deep"], false);
    harness.assert_invariant(0, "after");
    let row = harness.source.row().unwrap();
    assert_eq!((row.reorgs, row.deep_reorgs, row.invalidations), (1, 0, 1));
}

#[test]
fn s15_a_reorg_touching_no_matched_logs_invalidates_nothing() {
    let mut harness = Harness::new(3, 10, &base_config(64, 0, Some(0)));
    harness.max_logs = 0;
    // Blocks 11 and 12 without logs, then a reorg of exactly those.
    let mut rng = Rng::new(9);
    harness.chain.extend(&mut rng, 2, 0);
    harness.settle();
    let before = harness.events().len();
    harness.chain.reorg(&mut rng, 2, 1, 0);
    harness.settle();
    assert!(invalidations(&mut harness).is_empty());
    assert_eq!(harness.events().len(), before);
    assert_eq!(harness.source.row().unwrap().reorgs, 1);
    harness.assert_invariant(0, "no-log reorg");
}

#[test]
fn s15_a_fork_deeper_than_the_window_invalidates_the_whole_window_and_rewinds_to_the_floor() {
    let finality = 3;
    let mut rng = Rng::new(21);
    let mut harness = Harness::new(21, 0, &base_config(finality, 0, Some(0)));
    // Every block has logs so the window has offsets.
    harness.chain = Chain::empty();
    while harness.chain.canonical.len() < 13 {
        harness.chain.push(&mut rng, 0);
        let number = harness.chain.tip();
        let hash = harness.chain.canonical[number as usize];
        let block = harness.chain.blocks.get_mut(&hash).unwrap();
        block.logs = vec![FakeLog {
            address: TOKEN,
            topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
            data: word(number, 0).to_vec(),
            tx: word(number, 0x77),
        }];
    }
    harness.settle();
    let row = harness.source.row().unwrap().clone();
    assert_eq!(row.finalized_block, Some(12 - finality));
    let window: Vec<String> = (row.finalized_block.unwrap() + 1..=12)
        .map(|n| hex(&harness.chain.by_number(n).unwrap().hash))
        .collect();
    let window_offsets = offsets_of(&mut harness, &window);
    assert_eq!(window_offsets.len(), finality as usize);
    harness.chain.reorg(&mut rng, 6, 1, 2);
    harness.settle();
    let found = invalidations(&mut harness);
    assert_eq!(found.len(), 1);
    let offsets: Vec<u64> = found[0]["payload"]["offsets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|offset| offset.as_u64().unwrap())
        .collect();
    assert_eq!(offsets, window_offsets, "the whole window, and only it");
    assert_eq!(found[0]["metadata"]["deep"], true);
    let row = harness.source.row().unwrap();
    assert_eq!(row.deep_reorgs, 1);
    // Above the floor the stream again equals the canonical chain.
    let floor = 12 - finality;
    let expected = harness.chain.matching(floor + 1);
    let valid = harness.valid_logs();
    assert!(valid.ends_with(&expected), "{valid:?} does not end with {expected:?}");
    let logs = harness.source.take_logs();
    assert!(logs.iter().any(|line| line["event"] == "source_deep_reorg"), "{logs:?}");
}

#[test]
fn s15_a_block_that_comes_back_is_appended_again_under_a_new_key() {
    let mut rng = Rng::new(33);
    let mut harness = Harness::new(33, 0, &base_config(64, 0, Some(0)));
    harness.chain = Chain::empty();
    let log = FakeLog {
        address: TOKEN,
        topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
        data: word(1, 0).to_vec(),
        tx: word(1, 0x77),
    };
    for _ in 0..6 {
        harness.chain.push(&mut rng, 0);
    }
    let hash = harness.chain.canonical[5];
    harness.chain.blocks.get_mut(&hash).unwrap().logs = vec![log];
    harness.settle();
    harness.chain.reorg(&mut rng, 2, 1, 0);
    harness.settle();
    assert!(harness.chain.flip_back(10));
    harness.chain.extend(&mut rng, 1, 0);
    harness.settle();
    harness.assert_invariant(0, "flip-flop");
    let keys: Vec<String> = harness
        .events()
        .iter()
        .filter(|event| event["type"] == "evm.log")
        .map(|event| event["idempotencyKey"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[1], format!("{}:1", keys[0]));
}

#[test]
fn s15_a_crash_after_an_append_before_the_checkpoint_repeats_the_work_once_even_if_the_block_died() {
    let mut rng = Rng::new(44);
    let mut harness = Harness::new(44, 0, &base_config(64, 0, Some(0)));
    harness.chain = Chain::empty();
    harness.chain.push(&mut rng, 0);
    harness.chain.set_logs(0, vec![transfer(0)]);
    harness.settle();
    harness.chain.push(&mut rng, 0);
    harness.chain.set_logs(1, vec![transfer(1), transfer(2)]);
    // Run until block 1's append lands, then crash before its answer is fed.
    let inputs = Inputs {
        now_ms: harness.now,
        entropy: [1; 16],
    };
    let mut effect = harness.source.begin_run(&inputs).unwrap();
    let run_id = harness.source.run_id().unwrap();
    loop {
        match effect {
            Effect::Call(call) => {
                let answer = answer(&harness.chain, &call, &mut rng, Faults::default());
                effect = harness.source.on_rpc(run_id, &answer, harness.now).unwrap();
            }
            Effect::Append(append) => {
                harness.append(&append.body);
                break;
            }
            other => panic!("expected an append, got {other:?}"),
        }
    }
    harness.crash();
    assert_eq!(harness.events().len(), 3);
    assert_eq!(
        harness.source.row().unwrap().next_block,
        Some(1),
        "the checkpoint did not move"
    );
    // The block the append came from dies before the restart.
    harness.chain.reorg(&mut rng, 1, 1, 0);
    harness.settle();
    // The restart finished the written-ahead block (same keys: nothing
    // appended twice), then the reorg invalidated it: never left valid.
    let invalidated: Vec<u64> = harness.invalidated().into_iter().collect();
    assert_eq!(invalidated, vec![2, 3]);
    assert_eq!(harness.events().len(), 4, "three evm.log events and one invalidation");
    harness.assert_invariant(0, "crash then reorg");
    let row = harness.source.row().unwrap();
    assert_eq!(row.events_appended, 3);
}

#[test]
fn s15_more_than_1000_dead_offsets_are_split_into_several_invalidations() {
    let mut rng = Rng::new(55);
    let mut harness = Harness::new(55, 0, &base_config(64, 0, Some(0)));
    harness.chain = Chain::empty();
    harness.chain.push(&mut rng, 0);
    harness.chain.push(&mut rng, 0);
    let hash = harness.chain.canonical[1];
    harness.chain.blocks.get_mut(&hash).unwrap().logs = (0..1500)
        .map(|i| FakeLog {
            address: TOKEN,
            topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
            data: word(i, 0).to_vec(),
            tx: word(i, 0x77),
        })
        .collect();
    harness.settle();
    assert_eq!(harness.events().len(), 1500);
    harness.chain.reorg(&mut rng, 1, 1, 0);
    harness.settle();
    let found = invalidations(&mut harness);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0]["payload"]["offsets"].as_array().unwrap().len(), 1000);
    assert_eq!(found[1]["payload"]["offsets"].as_array().unwrap().len(), 500);
    assert_ne!(found[0]["idempotencyKey"], found[1]["idempotencyKey"]);
    assert_eq!(harness.invalidated().len(), 1500);
    assert_eq!(harness.source.row().unwrap().invalidations, 2);
}

// ---------- catch-up, payload ----------

#[test]
fn s15_catch_up_reads_finalized_blocks_by_range_and_unfinalized_ones_by_hash() {
    let mut harness = Harness::new(66, 2_000, &base_config(64, 0, Some(0)));
    harness.settle();
    harness.assert_invariant(0, "catch-up");
    let ranges = harness.effects.iter().filter(|m| **m == "eth_getLogs").count();
    // 2001 blocks: ~1937 final ones in a few ranges (500, then growing), 64 by hash.
    assert!(ranges < 64 + 10, "{ranges} getLogs calls");
    assert_eq!(harness.source.row().unwrap().finalized_block, Some(2_000 - 64));
}

#[test]
fn s15_the_payload_decodes_args_and_carries_the_log_coordinates() {
    let mut rng = Rng::new(77);
    let mut harness = Harness::new(77, 0, &base_config(64, 0, Some(0)));
    harness.chain = Chain::empty();
    harness.chain.push(&mut rng, 0);
    let from = [
        0x52, 0x90, 0x84, 0x00, 0x09, 0x85, 0x27, 0x88, 0x6E, 0x0F, 0x70, 0x30, 0x06, 0x98, 0x57, 0xD2, 0xE4, 0x16,
        0x9E, 0xE7,
    ];
    let hash = harness.chain.canonical[0];
    harness.chain.blocks.get_mut(&hash).unwrap().logs = vec![FakeLog {
        address: TOKEN,
        topics: vec![transfer_topic(), padded(from), padded([0x11; 20])],
        data: word(1_000_000_000_000_000_000, 0).to_vec(),
        tx: word(5, 0x77),
    }];
    harness.settle();
    let events = harness.events();
    assert_eq!(events.len(), 1);
    let event = &events[0];
    let block_hash = hex(&hash);
    assert_eq!(event["type"], "evm.log");
    assert_eq!(
        event["idempotencyKey"],
        format!("evm:transfers:{CHAIN_ID}:{block_hash}:0")
    );
    let payload = &event["payload"];
    assert_eq!(payload["chainId"], CHAIN_ID);
    assert_eq!(payload["address"], "0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa");
    assert_eq!(payload["event"], "Transfer");
    assert_eq!(payload["args"]["from"], "0x52908400098527886E0F7030069857D2E4169EE7");
    assert_eq!(payload["args"]["to"], "0x1111111111111111111111111111111111111111");
    assert_eq!(payload["args"]["value"], "1000000000000000000");
    assert_eq!(payload["topics"][0], TRANSFER_TOPIC);
    assert_eq!(payload["blockNumber"], 0);
    assert_eq!(payload["blockHash"], block_hash);
    assert_eq!(payload["transactionHash"], hex(&word(5, 0x77)));
    assert_eq!(payload["transactionIndex"], 0);
    assert_eq!(payload["logIndex"], 0);
    assert!(payload["data"].as_str().unwrap().starts_with("0x"));
}

// ---------- failures ----------

fn drive_one(harness: &mut Harness, respond: &mut dyn FnMut(&RpcCall) -> Option<RpcAnswer>) -> (Effect, u64) {
    let inputs = Inputs {
        now_ms: harness.now,
        entropy: [0x00, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    };
    let mut effect = harness.source.begin_run(&inputs).unwrap();
    let run_id = harness.source.run_id().unwrap_or(0);
    let mut appends = 0;
    loop {
        match effect {
            Effect::Call(call) => {
                let answer = respond(&call)
                    .unwrap_or_else(|| answer(&harness.chain, &call, &mut Rng::new(1), Faults::default()));
                effect = harness.source.on_rpc(run_id, &answer, harness.now).unwrap();
            }
            Effect::Append(append) => {
                appends += 1;
                let answer = harness.append(&append.body);
                effect = harness.source.on_append(run_id, &answer, harness.now).unwrap();
            }
            other => return (other, appends),
        }
    }
}

#[test]
fn s15_transient_failures_back_off_1s_to_5min_and_rotate_urls() {
    let mut harness = Harness::new(88, 5, &base_config(64, 0, Some(0)));
    let mut delays = Vec::new();
    let mut urls = Vec::new();
    for _ in 0..12 {
        let now = harness.now;
        let (effect, appends) = drive_one(&mut harness, &mut |call| {
            urls.push(call.url_index);
            Some(RpcAnswer::Response {
                status: 503,
                retry_after: None,
                body: Vec::new(),
            })
        });
        assert_eq!(appends, 0);
        let Effect::Sleep { at_ms } = effect else {
            panic!("expected a backoff, got {effect:?}")
        };
        delays.push(at_ms - now);
        harness.now = at_ms;
    }
    assert_eq!(&delays[..4], &[1_000, 2_000, 4_000, 8_000]);
    // Capped at 5 minutes (the jitter factor of this entropy is 1.000003).
    assert!((*delays.last().unwrap() - 300_000).abs() <= 1, "{delays:?}");
    assert_eq!(&urls[..4], &[0, 1, 0, 1], "each failed run moves to the next URL");
    let status = harness.source.status().unwrap();
    assert_eq!(status["status"], "retrying");
    assert_eq!(status["lastError"], "eth_blockNumber on rpcUrls[1]: HTTP 503");
    // Retry-After is a floor.
    let now = harness.now;
    let (effect, _) = drive_one(&mut harness, &mut |_| {
        Some(RpcAnswer::Response {
            status: 429,
            retry_after: Some("600".to_owned()),
            body: Vec::new(),
        })
    });
    let Effect::Sleep { at_ms } = effect else {
        panic!("{effect:?}")
    };
    assert!(
        (at_ms - now - 300_000).abs() <= 1,
        "Retry-After capped at the max backoff"
    );
    // Recovery resets the attempt and clears the error.
    harness.now += 300_000;
    harness.settle();
    let status = harness.source.status().unwrap();
    assert_eq!(status["status"], "running");
    assert_eq!(status["lastError"], Value::Null);
}

#[test]
fn s15_malformed_requests_and_unsupported_methods_stop_the_source() {
    for (code, status) in [(-32601, 200u16), (-32600, 200)] {
        let mut harness = Harness::new(89, 5, &base_config(64, 0, Some(0)));
        let (effect, _) = drive_one(&mut harness, &mut |call| {
            let id: Value = serde_json::from_str::<Value>(&call.body).unwrap()["id"].clone();
            let mut answer = rpc_error(&id, code, "nope");
            if let RpcAnswer::Response { status: s, .. } = &mut answer {
                *s = status;
            }
            Some(answer)
        });
        assert_eq!(effect, Effect::Stop);
        let status = harness.source.status().unwrap();
        assert_eq!(status["status"], "failed");
        assert!(status["lastError"].as_str().unwrap().contains(&code.to_string()));
        assert_eq!(harness.source.due_at(), None);
        // A failed source does not run until it is configured again.
        assert_eq!(drive_one(&mut harness, &mut |_| None).0, Effect::Stop);
        let config = config::parse("transfers", base_config(64, 0, Some(0)).to_string().as_bytes(), false).unwrap();
        assert!(!harness
            .source
            .configure("project", "transfers", config, harness.now)
            .unwrap());
        harness.settle();
        harness.assert_invariant(0, "after a re-PUT");
    }
    let mut harness = Harness::new(90, 5, &base_config(64, 0, Some(0)));
    let (effect, _) = drive_one(&mut harness, &mut |_| {
        Some(RpcAnswer::Response {
            status: 405,
            retry_after: None,
            body: b"method not allowed".to_vec(),
        })
    });
    assert_eq!(effect, Effect::Stop);
}

#[test]
fn s15_logs_whose_block_hash_does_not_match_are_never_appended() {
    let mut harness = Harness::new(91, 3, &base_config(64, 0, Some(0)));
    let chain_blocks: Vec<Block> = (0..=3).map(|n| harness.chain.by_number(n).unwrap().clone()).collect();
    for _ in 0..5 {
        let (effect, appends) = drive_one(&mut harness, &mut |call| {
            if call.method != "eth_getLogs" {
                return None;
            }
            let id: Value = serde_json::from_str::<Value>(&call.body).unwrap()["id"].clone();
            let mut wrong = chain_blocks[0].clone();
            wrong.hash = word(12345, 0xEE);
            let log = FakeLog {
                address: TOKEN,
                topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
                data: word(1, 0).to_vec(),
                tx: word(1, 0x77),
            };
            Some(ok(&id, json!([log_json(&wrong, 0, &log)])))
        });
        assert_eq!(appends, 0, "no wrong append");
        let Effect::Sleep { at_ms } = effect else {
            panic!("{effect:?}")
        };
        harness.now = at_ms;
    }
    assert!(harness.events().is_empty());
    let status = harness.source.status().unwrap();
    assert!(
        status["lastError"].as_str().unwrap().contains("inconsistent"),
        "{status}"
    );
    harness.settle();
    harness.assert_invariant(0, "after the proxy heals");
}

#[test]
fn s15_a_refused_log_range_is_halved_without_failing() {
    let mut harness = Harness::new(92, 600, &base_config(64, 0, Some(0)));
    let mut spans = Vec::new();
    let (effect, _) = drive_one(&mut harness, &mut |call| {
        let request: Value = serde_json::from_str(&call.body).unwrap();
        let filter = &request["params"][0];
        if call.method == "eth_getLogs" && filter.get("fromBlock").is_some() {
            let span = quantity(&filter["toBlock"]) - quantity(&filter["fromBlock"]) + 1;
            spans.push(span);
            if span > 100 {
                return Some(rpc_error(
                    &request["id"],
                    -32005,
                    "query returned more than 10000 results",
                ));
            }
        }
        None
    });
    assert!(matches!(effect, Effect::Sleep { .. }));
    assert_eq!(&spans[..4], &[500, 250, 125, 62]);
    assert_eq!(harness.source.row().unwrap().attempt, 0);
}

#[test]
fn s15_an_append_refused_by_the_stream_fails_the_source_with_the_reason() {
    let mut harness = Harness::new(93, 3, &base_config(64, 0, Some(0)));
    let hash = harness.chain.canonical[1];
    harness.chain.blocks.get_mut(&hash).unwrap().logs = vec![FakeLog {
        address: TOKEN,
        topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
        data: word(1, 0).to_vec(),
        tx: word(1, 0x77),
    }];
    // Someone else holds the source's key with other content.
    let key = format!("evm:transfers:{CHAIN_ID}:{}:0", hex(&hash));
    let body = json!({"type": "evm.log", "payload": {"forged": true}, "idempotencyKey": key}).to_string();
    harness.append(&body);
    let (effect, _) = drive_one(&mut harness, &mut |_| None);
    assert_eq!(effect, Effect::Stop);
    let status = harness.source.status().unwrap();
    assert!(
        status["lastError"].as_str().unwrap().contains("idempotency_key_reused"),
        "{status}"
    );
}

// ---------- configuration ----------

fn refused(body: &Value) -> (u16, String, Value) {
    match config::parse("transfers", body.to_string().as_bytes(), false) {
        Ok(config) => panic!("accepted {body}: {config:?}"),
        Err(error) => (
            error.status(),
            error.code().to_owned(),
            json!(error.details().get("field")),
        ),
    }
}

#[test]
fn s15_configuration_defaults_and_normalisation() {
    let body = json!({
        "kind": "evm",
        "rpcUrls": ["https://rpc.example.com"],
        "chainId": 1,
        "targetStream": "/eth/usdc",
        "filters": [{"address": ["0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"], "event": format!("  {TRANSFER} ")}],
    });
    let config = config::parse("usdc", body.to_string().as_bytes(), false).unwrap();
    assert_eq!(config.confirmations, 0);
    assert_eq!(config.finality_depth, 64);
    assert_eq!(config.poll_ms, 2000);
    assert_eq!(config.start_block, None);
    assert_eq!(
        config.filters[0].address.as_deref(),
        Some(&["0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48".to_owned()][..])
    );
    assert_eq!(config.filters[0].event, TRANSFER);
    let again: SourceConfig = serde_json::from_value(serde_json::to_value(&config).unwrap()).unwrap();
    assert_eq!(again, config);
    // Insecure URLs only with the deployment switch.
    let mut local = body.clone();
    local["rpcUrls"] = json!(["http://127.0.0.1:8545"]);
    assert!(config::parse("usdc", local.to_string().as_bytes(), false).is_err());
    assert!(config::parse("usdc", local.to_string().as_bytes(), true).is_ok());
}

#[test]
fn s15_bad_configurations_are_refused_naming_the_field() {
    let good = base_config(64, 0, None);
    let with = |field: &str, value: Value| {
        let mut body = good.clone();
        body[field] = value;
        body
    };
    let filter = |value: Value| with("filters", json!([value]));
    let cases: Vec<(Value, &str)> = vec![
        (with("kind", json!("solana")), "kind"),
        (with("rpcUrls", json!([])), "rpcUrls"),
        (with("rpcUrls", json!("https://x.example.com")), "rpcUrls"),
        (
            with(
                "rpcUrls",
                json!((0..9).map(|i| format!("https://r{i}.example.com")).collect::<Vec<_>>()),
            ),
            "rpcUrls",
        ),
        (with("rpcUrls", json!(["http://rpc.example.com"])), "rpcUrls[0]"),
        (
            with("rpcUrls", json!(["https://user:pw@rpc.example.com"])),
            "rpcUrls[0]",
        ),
        (with("rpcUrls", json!(["https://localhost:8545"])), "rpcUrls[0]"),
        (with("rpcUrls", json!(["https://169.254.169.254/"])), "rpcUrls[0]"),
        (
            with("rpcUrls", json!(["https://a.example.com", "https://a.example.com"])),
            "rpcUrls[1]",
        ),
        (
            with(
                "rpcUrls",
                json!([format!("https://a.example.com/{}", "x".repeat(3000))]),
            ),
            "rpcUrls[0]",
        ),
        (with("rpcUrls", json!([7])), "rpcUrls[0]"),
        (with("chainId", json!(0)), "chainId"),
        (with("chainId", json!("1")), "chainId"),
        (with("chainId", json!(-1)), "chainId"),
        (with("chainId", json!(1.5)), "chainId"),
        (with("chainId", json!(9_007_199_254_740_992u64)), "chainId"),
        (with("targetStream", json!("no-slash")), "targetStream"),
        (with("targetStream", json!("/a/-/b")), "targetStream"),
        (with("targetStream", json!(null)), "targetStream"),
        (with("filters", json!([])), "filters"),
        (with("filters", json!({})), "filters"),
        (
            with(
                "filters",
                json!((0..17).map(|_| json!({"event": TRANSFER})).collect::<Vec<_>>()),
            ),
            "filters",
        ),
        (filter(json!("Transfer")), "filters[0]"),
        (filter(json!({"event": ""})), "filters[0].event"),
        (filter(json!({"event": "Transfer(address"})), "filters[0].event"),
        (
            filter(json!({"event": "function transfer(address to, uint256 value)"})),
            "filters[0].event",
        ),
        (
            filter(json!({"event": "Transfer(address indexed from, address indexed to, uint256 value) anonymous"})),
            "filters[0].event",
        ),
        (
            filter(json!({"event": "E(uint8 indexed a, uint8 indexed b, uint8 indexed c, uint8 indexed d)"})),
            "filters[0].event",
        ),
        (filter(json!({"event": "E(uint256[4294967295] a)"})), "filters[0].event"),
        (filter(json!({"event": "E(uint256[64][64] a)"})), "filters[0].event"),
        (
            filter(json!({"event": "E(uint256[][][][][][][][][][] a)"})),
            "filters[0].event",
        ),
        (filter(json!({"event": "E(uint256 a, address a)"})), "filters[0].event"),
        (filter(json!({"event": "E(uint257 a)"})), "filters[0].event"),
        (
            filter(json!({"event": format!("E({})", vec!["uint256"; 300].join(","))})),
            "filters[0].event",
        ),
        (filter(json!({"event": TRANSFER, "topics": []})), "filters[0].topics"),
        (filter(json!({"event": TRANSFER, "address": []})), "filters[0].address"),
        (
            filter(json!({"event": TRANSFER, "address": "0x00"})),
            "filters[0].address",
        ),
        (
            filter(json!({"event": TRANSFER, "address": ["0x1234"]})),
            "filters[0].address[0]",
        ),
        (
            filter(json!({"event": TRANSFER, "address": ["A0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"]})),
            "filters[0].address[0]",
        ),
        (
            filter(json!({"event": TRANSFER, "address": ["0xA0b86991c6218b36c1d19d4a2e9eb0ce3606eB48"]})),
            "filters[0].address[0]",
        ),
        (
            filter(json!({"event": TRANSFER, "address": ["0xzz b86991c6218b36c1d19d4a2e9eb0ce3606eb4"]})),
            "filters[0].address[0]",
        ),
        (
            filter(json!({"event": TRANSFER, "address": (0..257).map(|i| format!("0x{i:040x}")).collect::<Vec<_>>()})),
            "filters[0].address",
        ),
        (with("startBlock", json!(-1)), "startBlock"),
        (with("startBlock", json!("latest")), "startBlock"),
        (with("confirmations", json!(1025)), "confirmations"),
        (with("finalityDepth", json!(0)), "finalityDepth"),
        (with("finalityDepth", json!(1025)), "finalityDepth"),
        (with("pollMs", json!(249)), "pollMs"),
        (with("pollMs", json!(3_600_001)), "pollMs"),
        (with("webhook", json!("x")), "webhook"),
    ];
    for (body, field) in cases {
        let (status, code, named) = refused(&body);
        assert_eq!((status, code.as_str()), (422, "invalid_source"), "{body}");
        assert_eq!(named, json!(field), "{body}");
    }
    // Bodies that are not configurations at all.
    for (raw, status, code) in [
        (b"{".to_vec(), 400, "malformed_json"),
        (b"[1,2]".to_vec(), 422, "invalid_source"),
        (b"null".to_vec(), 422, "invalid_source"),
        (vec![b'['; 200_000], 413, "source_too_large"),
        (
            format!("{{\"kind\": \"{}\"}}", "x".repeat(70_000)).into_bytes(),
            413,
            "source_too_large",
        ),
        ("[".repeat(5_000).into_bytes(), 400, "malformed_json"),
    ] {
        let error = config::parse("transfers", &raw, false).unwrap_err();
        assert_eq!((error.status(), error.code()), (status, code));
    }
    for name in ["", "a/b", "a b", "ü", &"n".repeat(65), ".."] {
        let error = config::parse(name, good.to_string().as_bytes(), false);
        if name == ".." {
            // Dots are allowed characters; ".." is still one segment name.
            assert!(error.is_ok());
            continue;
        }
        let error = error.unwrap_err();
        assert_eq!((error.status(), error.code()), (400, "invalid_source_name"), "{name}");
    }
}

#[test]
fn s15_the_endpoint_chain_id_must_match() {
    let config = config::parse("x", base_config(64, 0, None).to_string().as_bytes(), false).unwrap();
    assert!(config::check_chain_ids(&config, &[Ok(CHAIN_ID), Ok(CHAIN_ID)]).is_ok());
    let error = config::check_chain_ids(&config, &[Ok(CHAIN_ID), Ok(1)]).unwrap_err();
    assert_eq!(
        (error.status(), error.details()["field"].clone()),
        (422, json!("chainId"))
    );
    assert!(error.to_string().contains("rpcUrls[1] serves chain 1"));
    let error = config::check_chain_ids(
        &config,
        &[Err(RpcFailure::Transient {
            reason: "eth_chainId on rpcUrls[0]: timed out".to_owned(),
            retry_after_ms: None,
        })],
    )
    .unwrap_err();
    assert_eq!(error.details()["field"], json!("rpcUrls"));
    // The shell's call and the parse of its answer.
    let call = tributary::source::rpc::chain_id_call("https://x.example.com", 0);
    assert_eq!(
        tributary::source::rpc::parse_chain_id(&call, &ok(&json!(1), json!("0x7a69"))),
        Ok(31337)
    );
    assert!(tributary::source::rpc::parse_chain_id(&call, &ok(&json!(1), json!(31337))).is_err());
    assert!(tributary::source::rpc::parse_chain_id(&call, &RpcAnswer::Timeout).is_err());
}

#[test]
fn s15_hostile_logs_decode_cleanly_or_not_at_all() {
    use tributary::source::abi;
    let filters = vec![abi::compile(
        0,
        &config::FilterConfig {
            address: None,
            event:
                "E(uint256[] big, string indexed name, bytes blob, int8 small, bool flag, (uint16,address)[2] pairs)"
                    .to_owned(),
        },
    )
    .unwrap()];
    let selector = filters[0].selector;
    let name_hash = [7u8; 32];
    let base = abi::Log {
        address: alloy_primitives::Address::ZERO,
        topics: vec![selector, alloy_primitives::B256::from(name_hash)],
        data: Vec::new(),
        block_number: 1,
        block_hash: alloy_primitives::B256::ZERO,
        transaction_hash: alloy_primitives::B256::ZERO,
        transaction_index: 0,
        log_index: 0,
    };
    // Too short, a huge array length claim, an offset far out of range: no match, no panic.
    let mut huge = vec![0u8; 32 * 9];
    huge[30] = 0x01;
    huge[31] = 0x20; // `big` at word 9...
    huge.extend_from_slice(&[0x7f; 32]); // ...claims 2^255 elements
    let mut far = vec![0u8; 32 * 9];
    far[..32].copy_from_slice(&[0xff; 32]);
    for data in [vec![], vec![1, 2, 3], huge, far, vec![0xff; 4096]] {
        let log = abi::Log { data, ..base.clone() };
        assert_eq!(abi::decode(&filters, &log), None);
    }
    // Random bytes never panic (decoding may succeed or not).
    let mut rng = Rng::new(8);
    for _ in 0..2_000 {
        let len = rng.below(600) as usize;
        let data: Vec<u8> = (0..len).map(|_| (rng.next() % 4) as u8 * 0x40).collect();
        let log = abi::Log { data, ..base.clone() };
        let _ = abi::decode(&filters, &log);
    }
    // A well-formed one renders every type.
    let mut data = Vec::new();
    let word_of = |n: u64| {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&n.to_be_bytes());
        w
    };
    // head: big offset, blob offset, small, flag, pairs (2 x (uint16, address)) = 8 words
    data.extend_from_slice(&word_of(32 * 8));
    data.extend_from_slice(&word_of(32 * 10));
    data.extend_from_slice(&[0xff; 32]); // int8 -1
    data.extend_from_slice(&word_of(1));
    data.extend_from_slice(&word_of(7));
    data.extend_from_slice(&padded([0xAB; 20]));
    data.extend_from_slice(&word_of(8));
    data.extend_from_slice(&padded([0xCD; 20]));
    // big: [5]
    data.extend_from_slice(&word_of(1));
    data.extend_from_slice(&word_of(5));
    // blob: 0xdeadbeef
    data.extend_from_slice(&word_of(4));
    let mut blob = [0u8; 32];
    blob[..4].copy_from_slice(&[0xde, 0xad, 0xbe, 0xef]);
    data.extend_from_slice(&blob);
    let log = abi::Log { data, ..base };
    let (_, args) = abi::decode(&filters, &log).unwrap();
    assert_eq!(
        args,
        json!({
            "big": ["5"],
            "name": hex(&name_hash),
            "blob": "0xdeadbeef",
            "small": "-1",
            "flag": true,
            "pairs": [["7", "0xABaBaBaBABabABabAbAbABAbABabababaBaBABaB"], ["8", "0xCdCDCdCdcdcdcdCdcDcDCdcDcDCdCdcdCdcDCDcD"]],
        })
    );
}

#[test]
fn s15_oversized_logs_keep_their_coordinates_and_drop_what_does_not_fit() {
    let config = json!({
        "kind": "evm",
        "rpcUrls": ["https://rpc.example.com"],
        "chainId": CHAIN_ID,
        "targetStream": STREAM,
        "filters": [{"event": "Blob(bytes data)"}],
        "startBlock": 0,
    });
    let mut harness = Harness::new(94, 0, &config);
    let mut rng = Rng::new(1);
    harness.chain = Chain::empty();
    harness.chain.push(&mut rng, 0);
    let selector = tributary::source::abi::compile(
        0,
        &config::FilterConfig {
            address: None,
            event: "Blob(bytes data)".to_owned(),
        },
    )
    .unwrap()
    .selector;
    let mut topic = [0u8; 32];
    topic.copy_from_slice(selector.as_slice());
    let len = 200_000u64;
    let mut data = Vec::new();
    let mut w = [0u8; 32];
    w[31] = 32;
    data.extend_from_slice(&w);
    let mut l = [0u8; 32];
    l[24..].copy_from_slice(&len.to_be_bytes());
    data.extend_from_slice(&l);
    data.extend(std::iter::repeat_n(0xAB, len as usize));
    let hash = harness.chain.canonical[0];
    harness.chain.blocks.get_mut(&hash).unwrap().logs = vec![FakeLog {
        address: TOKEN,
        topics: vec![topic],
        data,
        tx: word(1, 0x77),
    }];
    harness.settle();
    let events = harness.events();
    assert_eq!(events.len(), 1);
    let payload = &events[0]["payload"];
    assert_eq!(payload["args"], Value::Null);
    assert_eq!(payload["argsOmitted"], true);
    assert_eq!(payload["dataOmitted"], true);
    assert_eq!(payload["blockHash"], hex(&hash));
}

#[test]
fn s15_a_put_that_changes_what_is_read_restarts_ingestion_and_others_keep_progress() {
    let mut harness = Harness::new(95, 10, &base_config(64, 0, Some(0)));
    harness.settle();
    let appended = harness.source.row().unwrap().events_appended;
    let mut faster = base_config(64, 0, Some(0));
    faster["pollMs"] = json!(250);
    let config = config::parse("transfers", faster.to_string().as_bytes(), false).unwrap();
    harness
        .source
        .configure("project", "transfers", config, harness.now)
        .unwrap();
    let row = harness.source.row().unwrap();
    assert_eq!((row.next_block, row.events_appended), (Some(11), appended));
    let mut later = base_config(64, 0, Some(5));
    later["pollMs"] = json!(250);
    let config = config::parse("transfers", later.to_string().as_bytes(), false).unwrap();
    harness
        .source
        .configure("project", "transfers", config, harness.now)
        .unwrap();
    let row = harness.source.row().unwrap();
    assert_eq!(
        (row.next_block, row.finalized_block, row.events_appended),
        (Some(5), Some(4), 0)
    );
    harness.settle();
    // Re-reading blocks 5.. collapses onto the same keys: nothing new.
    harness.assert_invariant(0, "after restart from 5");
}

#[test]
fn s15_without_start_block_the_source_begins_after_the_current_head() {
    let mut harness = Harness::new(96, 30, &base_config(64, 2, None));
    harness.settle();
    assert!(harness.events().is_empty());
    assert_eq!(harness.source.row().unwrap().next_block, Some(29));
    let mut rng = Rng::new(3);
    harness.chain.extend(&mut rng, 5, 3);
    harness.settle();
    harness.assert_invariant(29, "new blocks only");
}

#[test]
fn s15_the_status_has_the_documented_shape() {
    let mut harness = Harness::new(97, 3, &base_config(64, 0, Some(0)));
    harness.settle();
    let status = harness.source.status().unwrap();
    for field in [
        "name",
        "config",
        "status",
        "nextBlock",
        "finalizedBlock",
        "lastError",
        "eventsAppended",
        "invalidations",
    ] {
        assert!(status.get(field).is_some(), "{field} missing from {status}");
    }
    assert_eq!(status["name"], "transfers");
    assert_eq!(status["nextBlock"], 4);
    assert_eq!(status["config"]["filters"][0]["event"], TRANSFER);
    assert!(harness.source.delete().unwrap());
    assert!(harness.source.status().is_none());
    assert_eq!(drive_one(&mut harness, &mut |_| None).0, Effect::Stop);
}

#[test]
fn s15_the_directory_lists_sources_in_name_order_with_paging() {
    let directory = Directory::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    for name in ["c", "a", "b"] {
        let change = DirectoryChange::Register {
            name: name.to_owned(),
            config: json!({"kind": "evm"}),
        };
        assert_eq!(directory.apply(&change, 1_000).unwrap().status, 204);
    }
    directory
        .apply(&DirectoryChange::Unregister { name: "b".to_owned() }, 1_000)
        .unwrap();
    let page: Value = serde_json::from_str(&directory.list("limit=1").unwrap().body).unwrap();
    assert_eq!(page["sources"][0]["name"], "a");
    assert_eq!(page["nextAfter"], "a");
    let page: Value = serde_json::from_str(&directory.list("after=a").unwrap().body).unwrap();
    assert_eq!(page["sources"].as_array().unwrap().len(), 1);
    assert_eq!(page["sources"][0]["name"], "c");
    assert_eq!(page["nextAfter"], Value::Null);
    assert_eq!(directory.list("limit=0").unwrap().status, 400);
}
