//! The EVM source and its target stream's lifetime (docs/design.md §15, §3 rule
//! 6): the offsets a source keeps for its unfinalized window belong to one
//! lifetime of the target. After the target is deleted (and created again,
//! by anyone), a reorg must not invalidate the new lifetime's unrelated
//! offsets: the source learns the lifetime from each append answer,
//! appends only into the lifetime it expects, and a new lifetime resets the
//! window's offsets (a pending invalidation of the old lifetime is dropped,
//! pending logs are appended again into the new one).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use serde_json::{json, Value};
use std::collections::BTreeSet;
use tributary::api::ApiRequest;
use tributary::path::StreamPath;
use tributary::route::Action;
use tributary::source::{config, lifetime};
use tributary::source::{AppendAnswer, AppendCall, Effect, RpcAnswer, RpcCall, Source};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;
use tributary::Inputs;

const TRANSFER: &str = "Transfer(address indexed from, address indexed to, uint256 value)";
const TRANSFER_TOPIC: &str = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const TOKEN: &str = "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const CHAIN_ID: u64 = 31337;
const STREAM: &str = "/chain/lifetime";
const INVALIDATED: &str = "events.iterate.com/stream/events-invalidated";

fn word(n: u64, tag: u8) -> String {
    format!("0x{tag:02x}{}{n:016x}", "0".repeat(46))
}

fn quantity(value: &Value) -> u64 {
    u64::from_str_radix(value.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// One canonical chain: block `n` of fork `tag` has hash `word(n, tag)`
/// and `logs[n]` matched Transfer logs.
struct Chain {
    /// The fork tag of each canonical block.
    forks: Vec<u8>,
    logs: Vec<u64>,
}

impl Chain {
    fn hash(&self, number: u64) -> String {
        word(number, self.forks[number as usize])
    }
    fn tip(&self) -> u64 {
        self.forks.len() as u64 - 1
    }
    fn header(&self, number: u64) -> Value {
        if number > self.tip() {
            return Value::Null;
        }
        let parent = number
            .checked_sub(1)
            .map_or_else(|| word(0, 0), |below| self.hash(below));
        json!({"number": format!("0x{number:x}"), "hash": self.hash(number), "parentHash": parent, "transactions": []})
    }
    fn logs_of(&self, number: u64) -> Vec<Value> {
        (0..self.logs[number as usize])
            .map(|index| {
                json!({"address": TOKEN, "topics": [TRANSFER_TOPIC, word(3, 0), word(4, 0)],
                    "data": word(number * 100 + index, 0), "blockNumber": format!("0x{number:x}"),
                    "blockHash": self.hash(number), "transactionHash": word(number * 100 + index, 0x77),
                    "transactionIndex": format!("0x{index:x}"), "logIndex": format!("0x{index:x}"), "removed": false})
            })
            .collect()
    }
    /// Replaces blocks from `from` on with fork `tag`, one log each.
    fn reorg(&mut self, from: u64, tag: u8) {
        for number in from..=self.tip() {
            self.forks[number as usize] = tag;
            self.logs[number as usize] = 1;
        }
    }
    fn answer(&self, call: &RpcCall) -> RpcAnswer {
        let request: Value = serde_json::from_str(&call.body).unwrap();
        let params = &request["params"];
        let result = match call.method {
            "eth_chainId" => json!(format!("0x{CHAIN_ID:x}")),
            "eth_blockNumber" => json!(format!("0x{:x}", self.tip())),
            "eth_getBlockByNumber" => self.header(quantity(&params[0])),
            "eth_getLogs" => {
                let filter = &params[0];
                let numbers: Vec<u64> = match filter.get("blockHash").and_then(Value::as_str) {
                    Some(hash) => (0..=self.tip()).filter(|n| self.hash(*n) == hash).collect(),
                    None => (quantity(&filter["fromBlock"])..=quantity(&filter["toBlock"]).min(self.tip())).collect(),
                };
                Value::Array(numbers.into_iter().flat_map(|n| self.logs_of(n)).collect())
            }
            other => panic!("unexpected {other}"),
        };
        RpcAnswer::Response {
            status: 200,
            retry_after: None,
            body: json!({"jsonrpc": "2.0", "id": request["id"], "result": result})
                .to_string()
                .into_bytes(),
        }
    }
}

struct Harness {
    source: Source<RusqliteStorage>,
    stream: Stream<RusqliteStorage>,
    chain: Chain,
    now: i64,
    /// The lifetime each append expected.
    appends: Vec<Option<String>>,
}

impl Harness {
    fn new() -> Self {
        let config = json!({"kind": "evm", "rpcUrls": ["https://rpc.example.com/v1"], "chainId": CHAIN_ID,
            "targetStream": STREAM, "filters": [{"address": [TOKEN], "event": TRANSFER}],
            "finalityDepth": 64, "startBlock": 0, "pollMs": 1000});
        let mut source = Source::open(RusqliteStorage::in_memory().unwrap()).unwrap();
        let parsed = config::parse("lifetimes", config.to_string().as_bytes(), false).unwrap();
        source.configure("project", "lifetimes", parsed, 1_000).unwrap();
        let stream = Stream::open(
            RusqliteStorage::in_memory().unwrap(),
            "project",
            StreamPath::parse(STREAM).unwrap(),
        )
        .unwrap();
        Harness {
            source,
            stream,
            chain: Chain {
                forks: vec![0xB0; 6],
                logs: vec![0, 1, 2, 1, 2, 1],
            },
            now: 1_000,
            appends: Vec::new(),
        }
    }

    fn inputs(&self) -> Inputs {
        // Entropy varies with the clock, so each lifetime gets its own streamId.
        let mut entropy = [9; 16];
        entropy[..8].copy_from_slice(&self.now.to_le_bytes());
        Inputs {
            now_ms: self.now,
            entropy,
        }
    }

    fn call(&mut self, action: Action, body: &str, query: &str) -> (u16, String) {
        let inputs = self.inputs();
        let response = self.stream.handle(
            &ApiRequest {
                action: &action,
                query,
                body: body.as_bytes(),
                token_prefix: None,
            },
            &inputs,
        );
        (response.status, response.body)
    }

    fn lifetime(&self) -> Option<String> {
        self.stream.lifetime().map(|meta| meta.stream_id.clone())
    }

    /// What the stream object does with the source's append (the shell):
    /// the expected lifetime is checked before appending, and the answer
    /// names the lifetime the append committed to.
    fn append(&mut self, append: &AppendCall) -> AppendAnswer {
        self.appends.push(append.expect_stream_id.clone());
        let current = self.lifetime();
        if let Some(refusal) = lifetime::refusal(append.expect_stream_id.as_deref(), current.as_deref()) {
            return AppendAnswer::Response {
                status: refusal.status,
                body: refusal.to_json().into_bytes(),
                stream_id: None,
            };
        }
        let (status, body) = self.call(Action::Append, &append.body, "");
        AppendAnswer::Response {
            status,
            body: body.into_bytes(),
            stream_id: (status < 300).then(|| self.lifetime()).flatten(),
        }
    }

    /// Alarm runs until the source has read the tip.
    fn settle(&mut self) {
        for _ in 0..100 {
            // Every run is a due one (a same-height reorg shows on the next poll).
            self.now = self.now.max(self.source.due_at().unwrap_or(self.now));
            let mut effect = self.source.begin_run(&self.inputs()).unwrap();
            let run_id = self.source.run_id().unwrap_or(0);
            loop {
                self.now += 1;
                effect = match effect {
                    Effect::Call(call) => {
                        let answer = self.chain.answer(&call);
                        self.source.on_rpc(run_id, &answer, self.now).unwrap()
                    }
                    Effect::Append(append) => {
                        let answer = self.append(&append);
                        self.source.on_append(run_id, &answer, self.now).unwrap()
                    }
                    Effect::Sleep { at_ms } => {
                        self.now = self.now.max(at_ms);
                        break;
                    }
                    other => panic!("the source stopped: {other:?} {:?}", self.source.status()),
                };
            }
            let row = self.source.row().unwrap();
            if row.next_block == Some(self.chain.tip() + 1) && row.attempt == 0 {
                return;
            }
        }
        panic!("never caught up: {:?}", self.source.status());
    }

    fn events(&mut self) -> Vec<Value> {
        let (status, body) = self.call(Action::ReadRange, "", "after=0&limit=1000");
        if status == 404 {
            return Vec::new();
        }
        let page: Value = serde_json::from_str(&body).unwrap();
        page["events"].as_array().unwrap().clone()
    }

    fn invalidated(&mut self) -> BTreeSet<u64> {
        self.events()
            .iter()
            .filter(|event| event["type"] == INVALIDATED)
            .flat_map(|event| {
                event["payload"]["offsets"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|offset| offset.as_u64().unwrap())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// `blockHash` of each valid `evm.log`, in offset order.
    fn valid_blocks(&mut self) -> Vec<String> {
        let invalid = self.invalidated();
        self.events()
            .iter()
            .filter(|event| event["type"] == "evm.log" && !invalid.contains(&event["offset"].as_u64().unwrap()))
            .map(|event| event["payload"]["blockHash"].as_str().unwrap().to_owned())
            .collect()
    }

    fn status(&mut self) -> Value {
        self.source.status().unwrap()
    }
}

fn user_events(harness: &mut Harness, count: usize) {
    let events: Vec<Value> = (0..count)
        .map(|i| json!({"type": "user.note", "payload": {"i": i}}))
        .collect();
    let (status, body) = harness.call(Action::Append, &json!({ "events": events }).to_string(), "");
    assert_eq!(status, 201, "{body}");
}

/// The reproduction (issue 18): with the window's offsets of a destroyed
/// lifetime, the reorg's invalidation named unrelated events of the new one
/// (`users` of them: enough to cover the old offsets) or was refused (422,
/// the source failed).
fn recreate_then_reorg(users: usize) {
    let mut harness = Harness::new();
    harness.settle();
    assert_eq!(harness.events().len(), 7, "blocks 1..5 appended their logs");
    let first = harness.lifetime();
    assert_eq!(
        harness.source.row().unwrap().target_stream_id,
        first,
        "the source recorded the lifetime its offsets belong to"
    );
    assert_eq!(
        harness.appends.first(),
        Some(&None),
        "the first append expects no lifetime"
    );
    assert!(harness.appends[1..].iter().all(|expected| *expected == first));
    // The target is deleted, and created again by someone else's events.
    assert!(harness.stream.destroy().unwrap());
    user_events(&mut harness, users);
    let second = harness.lifetime();
    assert_ne!(first, second);
    // A reorg of the last three blocks (3, 4, 5): the window's offsets for
    // them belong to the destroyed lifetime.
    harness.chain.reorg(3, 0xC0);
    harness.settle();
    let invalid = harness.invalidated();
    let events = harness.events();
    let users: Vec<u64> = events
        .iter()
        .filter(|event| event["type"] == "user.note")
        .map(|event| event["offset"].as_u64().unwrap())
        .collect();
    assert!(
        users.iter().all(|offset| !invalid.contains(offset)),
        "no event of the new lifetime was invalidated: invalidated {invalid:?}, users {users:?}: {}",
        harness.status()
    );
    assert!(
        invalid.is_empty(),
        "nothing of the new lifetime was appended before the reorg"
    );
    assert_eq!(harness.status()["status"], "running", "{}", harness.status());
    // The new fork's logs arrived in the new lifetime, and the source knows it.
    let expected: Vec<String> = (3..=5).map(|n| harness.chain.hash(n)).collect();
    assert_eq!(harness.valid_blocks(), expected);
    assert_eq!(harness.source.row().unwrap().target_stream_id, second);
    // A later reorg in the new lifetime invalidates exactly the new fork's offsets there.
    let before: Vec<u64> = harness
        .events()
        .iter()
        .filter(|event| event["type"] == "evm.log" && event["payload"]["blockHash"] == harness.chain.hash(5))
        .map(|event| event["offset"].as_u64().unwrap())
        .collect();
    harness.chain.reorg(5, 0xD0);
    harness.settle();
    assert_eq!(harness.invalidated().into_iter().collect::<Vec<_>>(), before);
    let expected: Vec<String> = [3, 4, 5].iter().map(|n| harness.chain.hash(*n)).collect();
    assert_eq!(harness.valid_blocks(), expected);
}

#[test]
fn s15_after_the_target_is_deleted_and_recreated_a_reorg_invalidates_none_of_the_new_lifetimes_events() {
    recreate_then_reorg(12);
}

#[test]
fn s15_after_the_target_is_deleted_and_recreated_with_few_events_a_reorg_does_not_fail_the_source() {
    recreate_then_reorg(2);
}

#[test]
fn s15_a_target_deleted_and_not_recreated_is_recreated_by_the_source_with_a_fresh_window() {
    let mut harness = Harness::new();
    harness.settle();
    assert!(harness.stream.destroy().unwrap());
    harness.chain.forks.push(0xB0);
    harness.chain.logs.push(2);
    harness.settle();
    // The conditional append was refused (no stream), the source reset and
    // appended again without an expectation: block 6's logs start the new lifetime.
    let events = harness.events();
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(events.iter().all(|event| event["payload"]["blockNumber"] == 6));
    assert_eq!(harness.source.row().unwrap().target_stream_id, harness.lifetime());
    harness.chain.reorg(4, 0xE0);
    harness.settle();
    let invalid = harness.invalidated();
    assert_eq!(
        invalid,
        BTreeSet::from([1, 2]),
        "only block 6's offsets in this lifetime"
    );
}

/// A shell that does not send the expectation (or an answer that lands in a
/// lifetime the source did not expect): the answer's lifetime still resets
/// the window, and the batch that landed counts in the new lifetime.
#[test]
fn s15_an_answer_naming_another_lifetime_resets_the_window_too() {
    let mut harness = Harness::new();
    harness.settle();
    assert!(harness.stream.destroy().unwrap());
    user_events(&mut harness, 12);
    harness.chain.forks.push(0xB0);
    harness.chain.logs.push(1);
    // Block 6 is appended without its expectation (an older shell).
    let mut effect = harness.source.begin_run(&harness.inputs()).unwrap();
    let run_id = harness.source.run_id().unwrap();
    loop {
        harness.now += 1;
        effect = match effect {
            Effect::Call(call) => {
                let answer = harness.chain.answer(&call);
                harness.source.on_rpc(run_id, &answer, harness.now).unwrap()
            }
            Effect::Append(mut append) => {
                append.expect_stream_id = None;
                let answer = harness.append(&append);
                harness.source.on_append(run_id, &answer, harness.now).unwrap()
            }
            _ => break,
        };
    }
    assert_eq!(harness.source.row().unwrap().target_stream_id, harness.lifetime());
    harness.chain.reorg(3, 0xC0);
    harness.settle();
    let six: BTreeSet<u64> = harness
        .events()
        .iter()
        .filter(|event| {
            event["type"] == "evm.log"
                && event["payload"]["blockNumber"] == 6
                && event["payload"]["blockHash"] == word(6, 0xB0)
        })
        .map(|event| event["offset"].as_u64().unwrap())
        .collect();
    assert_eq!(
        harness.invalidated(),
        six,
        "only the old block 6's offset, which is of this lifetime"
    );
}
