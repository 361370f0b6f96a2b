//! A deterministic little world for delivery tests (docs/design.md §6, §7): stream
//! objects over SQLite files, a simulated clock, seeded entropy, and the
//! production delivery turn ([`Turn`]) the Durable Object alarm runs. "Crashing"
//! drops every in-memory `Stream` and reopens the files.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use super::{path, tempdir_lite::TempDir, PROJECT};
use serde_json::Value;
use std::collections::{BTreeMap, VecDeque};
use tributary::copy::copy_batch_json;
use tributary::delivery::{classify_copy_status, log_lines, Completion, DeliveryPlan, Outcome, Planned, Turn};
use tributary::error::ApiFailure;
use tributary::event::{Authority, InputEvent};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;
use tributary::subscription::Receiver;
use tributary::Inputs;

/// What the scripted network does with one send.
#[derive(Debug, Clone, PartialEq)]
pub enum Network {
    /// Deliver to the receiving stream and report its answer.
    Deliver,
    /// Report this failure without reaching the receiver.
    Fail(Outcome),
    /// The source object dies before sending (the plan stays in flight).
    CrashBeforeSend,
    /// The copy lands on the receiver, then the source dies before the ack.
    CrashAfterSend,
}

/// What one alarm invocation did, as the shell's loop performs it
/// ([`World::invocation`]).
#[derive(Debug, Default)]
pub struct Invocation {
    /// Bytes of log lines written, each at its length as a JSON string (as
    /// the platform keeps a log message), counted here independently of the
    /// engine's own pricing.
    pub log_bytes: usize,
    /// Offsets written as log lines, in order.
    pub logged: Vec<u64>,
    /// Completions taken between one yield and the next (the last entry:
    /// after the last yield).
    pub stretches: Vec<u32>,
    pub completions: Vec<Completion>,
}

pub struct World {
    dir: TempDir,
    streams: BTreeMap<String, Stream<RusqliteStorage>>,
    pub now: i64,
    seed: u64,
    pub trace: Vec<String>,
    /// Batches acknowledged by simulated external receivers (webhook, itx):
    /// (subscription key, delivery id, offsets).
    pub external: Vec<(String, String, Vec<u64>)>,
    /// What each stream's deployment allows; re-applied when a stream object
    /// is reopened after a crash, as the shell does from its environment.
    deployments: BTreeMap<String, tributary::deployment::Deployment>,
}

impl World {
    pub fn new(seed: u64) -> Self {
        World {
            dir: TempDir::new(),
            streams: BTreeMap::new(),
            now: 1_000_000,
            seed,
            trace: Vec::new(),
            external: Vec::new(),
            deployments: BTreeMap::new(),
        }
    }

    pub fn entropy(&mut self) -> [u8; 16] {
        // splitmix64: deterministic per seed.
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&z.to_le_bytes());
        bytes[8..].copy_from_slice(&z.rotate_left(17).to_le_bytes());
        bytes
    }

    pub fn inputs(&mut self) -> Inputs {
        Inputs {
            now_ms: self.now,
            entropy: self.entropy(),
        }
    }

    pub fn stream(&mut self, raw_path: &str) -> &mut Stream<RusqliteStorage> {
        if !self.streams.contains_key(raw_path) {
            let file = self.dir.path().join(format!("{}.sqlite", raw_path.replace('/', "_")));
            let mut stream = Stream::open(RusqliteStorage::open(&file).unwrap(), PROJECT, path(raw_path)).unwrap();
            if let Some(deployment) = self.deployments.get(raw_path) {
                stream.set_deployment(deployment.clone());
            }
            self.streams.insert(raw_path.to_owned(), stream);
        }
        self.streams.get_mut(raw_path).unwrap()
    }

    /// Sets what `raw_path`'s deployment allows, now and after every crash.
    pub fn set_deployment(&mut self, raw_path: &str, deployment: tributary::deployment::Deployment) {
        self.deployments.insert(raw_path.to_owned(), deployment.clone());
        self.stream(raw_path).set_deployment(deployment);
    }

    /// Lets `raw_path` post webhooks to plain-http loopback receivers (the
    /// tests' `http://127.0.0.1:1/...`), as the local deployment does.
    pub fn allow_insecure_webhooks(&mut self, raw_path: &str) {
        self.set_deployment(
            raw_path,
            tributary::deployment::Deployment {
                allow_insecure_webhooks: true,
                ..Default::default()
            },
        );
    }

    /// Drops all in-memory state, as an evicted or killed object would.
    pub fn crash(&mut self) {
        self.trace.push(format!("{} crash", self.now));
        self.streams.clear();
    }

    pub fn append(&mut self, raw_path: &str, body: Value) -> Value {
        let inputs = self.inputs();
        let outcome = self
            .stream(raw_path)
            .append_body(body.to_string().as_bytes(), Authority::Public, &inputs);
        let outcome = outcome.map_err(|error| format!("{error}")).unwrap();
        serde_json::to_value(&outcome.events).unwrap()
    }

    pub fn append_trusted(&mut self, raw_path: &str, event: Value) {
        let inputs = self.inputs();
        let input = InputEvent::from_json(event, Authority::Trusted).unwrap();
        self.stream(raw_path).append(vec![input], &inputs).unwrap();
    }

    fn send(&mut self, plan: &DeliveryPlan) -> Outcome {
        let Receiver::CopyToStream {
            receiving_stream_path, ..
        } = &plan.receiver
        else {
            // A simulated external receiver (webhook, itx) that acknowledges.
            let offsets = plan.events.iter().map(|e| e.offset).collect();
            self.external
                .push((plan.subscription_key.clone(), plan.delivery_id.clone(), offsets));
            return Outcome::Delivered;
        };
        // The body the shell posts to the receiving object's internal route.
        let body = copy_batch_json(&plan.stamp, plan.events.iter().map(|e| &e.body)).unwrap_or_default();
        let inputs = self.inputs();
        match self
            .stream(receiving_stream_path)
            .accept_copy_body(body.as_bytes(), &inputs)
        {
            Ok(_) => Outcome::Delivered,
            Err(error) => classify_copy_status(error.status(), &error.to_string()),
        }
    }

    /// What the scripted network makes of one send; `None` when the source
    /// object died with it.
    fn outcome_of(&mut self, plan: &DeliveryPlan, network: Network) -> Option<Outcome> {
        match (&plan.prepared_failure, network) {
            (Some(failure), _) => Some(failure.clone()),
            (None, Network::CrashBeforeSend) => {
                self.crash();
                None
            }
            (None, Network::CrashAfterSend) => {
                let _ = self.send(plan);
                self.crash();
                None
            }
            (None, Network::Fail(outcome)) => Some(outcome),
            (None, Network::Deliver) => Some(self.send(plan)),
        }
    }

    /// Sends one planned batch through the scripted network, then completes it.
    pub fn perform(&mut self, source: &str, plan: DeliveryPlan, network: Network) -> Option<Completion> {
        let mut turn = Turn::begin(self.now);
        self.perform_in(&mut turn, source, plan, network)
    }

    /// [`World::perform`] inside an alarm's turn.
    fn perform_in(
        &mut self,
        turn: &mut Turn,
        source: &str,
        plan: DeliveryPlan,
        network: Network,
    ) -> Option<Completion> {
        let outcome = self.outcome_of(&plan, network)?;
        Some(self.complete_in(turn, source, &plan, outcome))
    }

    /// Hands `outcome` of `plan` to the turn.
    fn complete_in(&mut self, turn: &mut Turn, source: &str, plan: &DeliveryPlan, outcome: Outcome) -> Completion {
        let entropy = self.entropy();
        let now = self.now;
        let completion = turn
            .complete(self.stream(source), plan, outcome.clone(), now, entropy)
            .unwrap();
        self.trace.push(format!(
            "{now} {source} {} ({}..{}] #{} {outcome:?} -> {completion:?}",
            plan.subscription_key, plan.after_offset, plan.through_offset, plan.attempt
        ));
        completion
    }

    /// One alarm invocation of `source` as the shell's loop performs it
    /// (`durable-objects/src/stream_object/delivery.rs::run`): the turn's
    /// retention work, then every due subscription planned each round, log
    /// lines written the moment they are planned (their completion needs no
    /// I/O), other sends through `network`, completions taken in order (every
    /// send already answered completes before the next plan), and a yield
    /// whenever the turn asks for one. The clock does not move, as
    /// the Workers clock does not without I/O.
    pub fn invocation(&mut self, source: &str, network: &mut dyn FnMut(&DeliveryPlan) -> Network) -> Invocation {
        let now = self.now;
        let mut turn = Turn::begin(now);
        let mut report = Invocation::default();
        let mut sending: VecDeque<(DeliveryPlan, Option<Outcome>)> = VecDeque::new();
        let mut stretch = 0;
        for _round in 0..tributary::limits::MAX_TURN_ROUNDS {
            let entropy = self.entropy();
            if turn.may_plan(now) {
                turn.trim(self.stream(source), now, entropy).unwrap();
            }
            for plan in turn.plan_due(self.stream(source), now, entropy).unwrap() {
                let written = match (&plan.prepared_failure, &plan.receiver) {
                    (Some(failure), _) => Some(failure.clone()),
                    (None, Receiver::Log { .. }) => Some(self.write_log_lines(&plan, &mut report)),
                    (None, _) => None,
                };
                sending.push_back((plan, written));
            }
            let Some((plan, done)) = sending.pop_front() else {
                break;
            };
            if turn.should_yield(now) {
                report.stretches.push(std::mem::take(&mut stretch));
                turn.yielded(now);
            }
            let outcome = match done {
                Some(outcome) => outcome,
                None => match self.outcome_of(&plan, network(&plan)) {
                    Some(outcome) => outcome,
                    None => break,
                },
            };
            let completion = self.complete_in(&mut turn, source, &plan, outcome);
            report.completions.push(completion);
            stretch += 1;
            // As the shell: every other send already answered (here, all of
            // them) completes before the next plan, unless a yield is due.
            for _ready in 0..sending.len() {
                if turn.should_yield(now) {
                    break;
                }
                let Some((plan, done)) = sending.pop_front() else {
                    break;
                };
                let outcome = match done {
                    Some(outcome) => outcome,
                    None => match self.outcome_of(&plan, network(&plan)) {
                        Some(outcome) => outcome,
                        None => {
                            report.stretches.push(stretch);
                            return report;
                        }
                    },
                };
                let completion = self.complete_in(&mut turn, source, &plan, outcome);
                report.completions.push(completion);
                stretch += 1;
            }
        }
        report.stretches.push(stretch);
        report
    }

    /// The shell writes a log batch's lines (§15.1): what the platform
    /// receives, priced as it keeps it.
    fn write_log_lines(&mut self, plan: &DeliveryPlan, report: &mut Invocation) -> Outcome {
        for line in log_lines::lines(plan) {
            report.log_bytes += serde_json::to_string(&line).unwrap().len();
        }
        let offsets: Vec<u64> = plan.events.iter().map(|event| event.offset).collect();
        report.logged.extend(&offsets);
        self.external
            .push((plan.subscription_key.clone(), plan.delivery_id.clone(), offsets));
        Outcome::Delivered
    }

    /// One alarm of `source` at the current time: every due subscription gets
    /// one plan, sent through `network`. Returns how many sends happened.
    /// Driven by the production turn ([`Turn`]), one send at a time.
    pub fn alarm(&mut self, source: &str, network: &mut dyn FnMut(&DeliveryPlan) -> Network) -> usize {
        let now = self.now;
        let mut turn = Turn::begin(now);
        let keys = turn.due(self.stream(source), now).unwrap();
        let mut sends = 0;
        for key in keys {
            let entropy = self.entropy();
            let plan = match turn.plan(self.stream(source), &key, now, entropy).unwrap() {
                Planned::Send(plan) => *plan,
                Planned::Nothing | Planned::Busy | Planned::WaitsForLogBudget => continue,
                Planned::OverBudget => break,
            };
            let choice = network(&plan);
            sends += 1;
            if self.perform_in(&mut turn, source, plan, choice).is_none() {
                return sends;
            }
        }
        sends
    }

    /// Runs alarms on `sources`, jumping the clock to each next due time,
    /// until nothing is due (or `max_steps`).
    pub fn run(&mut self, sources: &[&str], max_steps: usize, network: &mut dyn FnMut(&DeliveryPlan) -> Network) {
        for _ in 0..max_steps {
            let mut next: Option<i64> = None;
            for source in sources {
                if let Some(at) = self.stream(source).next_due_at().unwrap() {
                    next = Some(next.map_or(at, |n: i64| n.min(at)));
                }
            }
            let Some(at) = next else { return };
            self.now = self.now.max(at);
            for source in sources {
                self.alarm(source, network);
            }
        }
    }

    /// Committed non-audit events of `raw_path`, as JSON.
    pub fn events(&mut self, raw_path: &str) -> Vec<Value> {
        let query = tributary::stream::RangeQuery {
            after: 0,
            from_earliest: true,
            limit: 1000,
            include_ephemeral: true,
        };
        match self.stream(raw_path).read_range(&query) {
            Ok(read) => serde_json::to_value(&read.events).unwrap().as_array().unwrap().clone(),
            Err(_) => Vec::new(),
        }
    }

    /// The stream's SQLite file (a second connection can play a failing disk).
    pub fn file(&self, raw_path: &str) -> std::path::PathBuf {
        self.dir.path().join(format!("{}.sqlite", raw_path.replace('/', "_")))
    }

    /// Overwrites the cached reduced state on disk (as a restored backup
    /// might), then reopens the stream.
    pub fn corrupt_state(&mut self, raw_path: &str, state_json: &str) {
        self.streams.remove(raw_path);
        let connection = rusqlite::Connection::open(self.file(raw_path)).unwrap();
        connection
            .execute("UPDATE reduced_state SET state = ?1", [state_json])
            .unwrap();
    }

    pub fn card(&mut self, raw_path: &str) -> Value {
        self.stream(raw_path).subscriptions_card().unwrap()
    }

    /// The debug card's `runtime` of subscription `key` on `raw_path`.
    pub fn runtime(&mut self, raw_path: &str, key: &str) -> Value {
        let card = self.card(raw_path);
        super::runtime_of(&card, key)
    }
}
