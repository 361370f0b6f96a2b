//! The harness (docs/design.md §15 tests): the source over a file database it
//! can crash (reopen) between any two steps, driven against the fake node,
//! appending into a real engine stream.

use super::*;

// ---------- the harness ----------

pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> Self {
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
pub fn fast_file(db: &std::path::Path) -> RusqliteStorage {
    use tributary::storage::Storage;
    let storage = RusqliteStorage::open(db).unwrap();
    storage.query("PRAGMA synchronous = OFF", &[]).unwrap();
    storage.query("PRAGMA journal_mode = MEMORY", &[]).unwrap();
    storage
}

pub fn base_config(finality_depth: u64, confirmations: u64, start_block: Option<u64>) -> Value {
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

pub struct Harness {
    pub _dir: TempDir,
    pub db: PathBuf,
    pub source: Source<RusqliteStorage>,
    pub stream: Stream<RusqliteStorage>,
    pub chain: Chain,
    pub rng: Rng,
    pub now: i64,
    pub faults: Faults,
    /// Percent of steps after which the object "crashes" (reopens from SQLite).
    pub crash_percent: u64,
    /// Percent of calls after which the chain moves (extends or reorgs).
    pub move_percent: u64,
    pub max_reorg: u64,
    pub max_logs: u64,
    pub calls: u64,
    pub appends: u64,
    pub crashes: u64,
    pub effects: Vec<&'static str>,
}

impl Harness {
    pub fn new(seed: u64, chain_length: u64, config: &Value) -> Self {
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

    pub fn crash(&mut self) {
        self.crashes += 1;
        self.source = Source::open(fast_file(&self.db)).unwrap();
    }

    pub fn append(&mut self, body: &str) -> AppendAnswer {
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
                token_prefix: None,
            },
            &inputs,
        );
        AppendAnswer::Response {
            status: response.status,
            body: response.body.into_bytes(),
            stream_id: self.stream.lifetime().map(|meta| meta.stream_id.clone()),
        }
    }

    pub fn move_chain(&mut self) {
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
    pub fn run(&mut self) -> Effect {
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
    pub fn settle(&mut self) {
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

    pub fn events(&mut self) -> Vec<Value> {
        let mut events = Vec::new();
        let mut after = 0u64;
        loop {
            let response = self.stream.handle(
                &ApiRequest {
                    action: &Action::ReadRange,
                    query: &format!("after={after}&limit=1000"),
                    body: b"",
                    token_prefix: None,
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

    pub fn invalidated(&mut self) -> BTreeSet<u64> {
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
    pub fn valid_logs(&mut self) -> Vec<(String, u64)> {
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

    pub fn assert_invariant(&mut self, from: u64, context: &str) {
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

/// One alarm run, each call answered by `respond` or else by the fake
/// node without faults: how it ended and how many appends it made.
pub fn drive_one(harness: &mut Harness, respond: &mut dyn FnMut(&RpcCall) -> Option<RpcAnswer>) -> (Effect, u64) {
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
