//! The world around one source stream (docs/design.md §6), driving the
//! production delivery turn ([`tributary::delivery::Turn`], the code the
//! Durable Object's alarm runs): each plan step lets the current turn plan
//! any subset of what it would plan, sends stay outstanding, complete in any
//! order with any outcome, and client requests, clock jumps, restarts and
//! destroy-and-recreate happen in between. After every step the invariants
//! are checked through the engine's public API.
//!
//! What the world keeps, and why:
//! - Fake receivers: a receiver takes a batch when its send is completed as
//!   delivered (or as "answer lost"); the turn keeps one send per key in
//!   flight, so within one instance sends of one key never overlap — except
//!   a concurrent subscription's (§8 `concurrency`), up to its concurrency.
//! - The clock: every send is bounded by its own timeout, which fires before
//!   the engine's in-flight deadline (§6 rule 10): before the clock jumps
//!   past a deadline, the shell's timeout completes the send.
//! - Crash points: a restart kills the instance and its turn: whether the
//!   receiver got each send is decided at the crash, and its result may
//!   still be completed later into the new instance (a zombie), or never —
//!   then the engine's deadline path has to retry it.
//! - Alarm invocations: a turn ends as the shell's does (its time is over
//!   and nothing it started is in flight, or its completion budget is
//!   spent); the next plan step begins a new one.
//! - The platform's log capture (§12 "log receiver", §15.1): the shell
//!   writes a log batch's lines the moment it is planned; the platform keeps
//!   [`PLATFORM_LOG_CAPTURE_BYTES`] of one invocation's log and drops the
//!   rest, so a line past it never reaches the model receiver.

mod checks;
mod receivers;
mod requests;
mod shell;

use super::model::{self, Oracle, Verdict, CONTROL, KEYS};
use super::rng::SplitMix;
use super::storage::{Counting, QUERIES_PER_CALL, ROWS_PER_CALL};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use tributary::copy::copy_batch_json;
use tributary::delivery::{classify_copy_status, Completion, DeliveryPlan, Outcome, Planned, Turn};
use tributary::deployment::Deployment;
use tributary::error::ApiFailure;
use tributary::event::{Authority, CommittedEvent};
use tributary::path::StreamPath;
use tributary::schema::RuntimeRow;
use tributary::state::ReducedState;
use tributary::stream::dead_letters::DeadLetterQuery;
use tributary::stream::{RangeQuery, Stream};
use tributary::subscription::Receiver;
use tributary::Inputs;

pub const PROJECT: &str = "project-sim";
pub const SOURCE: &str = "/src";
pub const RECEIVING: &str = "/dst";
const START_MS: i64 = 1_700_000_000_000;
/// Rounds of the final drain before it counts as stuck.
const DRAIN_ROUNDS: usize = 3_000;
/// What Workers Logs keeps of one invocation's log (256 KB); the rest is lost.
const PLATFORM_LOG_CAPTURE_BYTES: usize = 256_000;

/// One step of a schedule. Each carries its own dice, so removing a step
/// (when shrinking a failure) leaves the others' choices unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Configure (create or replace) `KEYS[key]`.
    Configure {
        key: usize,
        dice: u64,
    },
    /// Append 1-4 events, some ephemeral.
    Append {
        dice: u64,
    },
    /// Plan a subset of the due subscriptions that have no send outstanding.
    Plan {
        dice: u64,
    },
    /// Complete one outstanding send (any of them) with a chosen outcome.
    Complete {
        dice: u64,
    },
    CursorSet {
        dice: u64,
    },
    Remove {
        dice: u64,
    },
    Resume {
        dice: u64,
    },
    /// Destroy the stream, then (usually) recreate it with new configurations.
    Destroy {
        dice: u64,
    },
    /// Move the clock: a little, to the next due time, or past deadlines.
    Advance {
        dice: u64,
    },
    /// Restart the source object: in-memory state is lost, sends in flight
    /// become zombies that may still complete later.
    Crash {
        dice: u64,
    },
    /// Restart the receiving stream's object.
    CrashReceiving,
    /// Configure (or clear) the source's retention (§16).
    Retain {
        dice: u64,
    },
}

/// A random schedule: a few configurations, then `steps` interleaved steps.
pub fn schedule(seed: u64, steps: usize) -> Vec<Step> {
    let mut rng = SplitMix::new(seed.wrapping_mul(0xA24B_AED4_963E_E407) ^ 0x5EED);
    let mut schedule = Vec::with_capacity(steps + 6);
    // Each key configured with even odds (at least two), in random order.
    let mut keys: Vec<usize> = (0..KEYS.len()).filter(|_| rng.percent(50)).collect();
    while keys.len() < 2 {
        keys.push(rng.below(KEYS.len() as u64) as usize);
    }
    for index in (1..keys.len()).rev() {
        keys.swap(index, rng.below(index as u64 + 1) as usize);
    }
    for key in keys {
        schedule.push(Step::Configure { key, dice: rng.next() });
    }
    schedule.push(Step::Append { dice: rng.next() });
    // append, plan, complete, advance, configure, cursor-set, remove, resume,
    // destroy, crash, crash receiving, retain
    let weights = [12, 22, 26, 14, 4, 3, 2, 4, 2, 4, 1, 3];
    for _ in 0..steps {
        let dice = rng.next();
        schedule.push(match rng.weighted(&weights) {
            0 => Step::Append { dice },
            1 => Step::Plan { dice },
            2 => Step::Complete { dice },
            3 => Step::Advance { dice },
            4 => Step::Configure {
                key: rng.below(KEYS.len() as u64) as usize,
                dice,
            },
            5 => Step::CursorSet { dice },
            6 => Step::Remove { dice },
            7 => Step::Resume { dice },
            8 => Step::Destroy { dice },
            9 => Step::Crash { dice },
            10 => Step::CrashReceiving,
            _ => Step::Retain { dice },
        });
    }
    schedule
}

/// A broken invariant.
#[derive(Debug, Clone)]
pub struct Violation {
    /// Which invariant ("1 nothing passes silently", ...): shrinking keeps it.
    pub invariant: &'static str,
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invariant {}: {}", self.invariant, self.detail)
    }
}

pub const INV_SILENT: &str = "1 nothing passes silently";
pub const INV_ORDER: &str = "2 in order per subscription within a run";
pub const INV_STALE: &str = "3 no stale completion applied";
pub const INV_WORK: &str = "4 bounded work per engine call";
pub const INV_REBUILD: &str = "5 reduced state equals a rebuild";
pub const INV_PROGRESS: &str = "6 a drained subscription catches up";
pub const INV_ENGINE: &str = "0 engine call failed";
pub const INV_TRIM: &str = "10 no turn stops on a trim step";
pub const INV_WINDOW: &str = "8 a concurrent window resends nothing completed and its cursor passes nothing open";
pub const INV_LOG: &str = "9 nothing is acknowledged past what one invocation may write";

fn violation(invariant: &'static str, detail: impl Into<String>) -> Violation {
    Violation {
        invariant,
        detail: detail.into(),
    }
}

fn engine_error(what: &str, error: impl fmt::Display) -> Violation {
    violation(INV_ENGINE, format!("{what}: {error}"))
}

/// Figures over a run of the simulation.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub seeds: u64,
    pub steps: u64,
    pub plans: u64,
    pub deliveries: u64,
    pub delivered_events: u64,
    pub dead_letters: u64,
    pub halts: u64,
    pub skips: u64,
    pub stale_completions: u64,
    pub zombie_completions: u64,
    /// Completions of a send a newer send of its subscription superseded
    /// (a dead instance's, §6 rules 6, 7): each must be stale.
    pub superseded_completions: u64,
    pub crashes: u64,
    pub destroys: u64,
    pub fence_rejections: u64,
    pub engine_calls: u64,
    pub max_rows_per_call: u64,
    pub max_queries_per_call: u64,
    /// Plans of subscriptions with a gate (§13).
    pub gated_plans: u64,
    /// Single-event plans of concurrent subscriptions (§8 `concurrency`).
    pub concurrent_plans: u64,
    /// Most deliveries of one concurrent window open at once.
    pub max_open_slots: u64,
    /// Events a concurrent subscription's receiver got below one it had seen.
    pub out_of_order_receipts: u64,
    /// Retention (§16): rows trimmed, `trimmed` facts written, ephemeral
    /// rows expired.
    pub trimmed_rows: u64,
    pub trimmed_facts: u64,
    pub expired_rows: u64,
    /// Trim steps whose transaction failed (injected) after their facts
    /// committed; passes answered by a fact an earlier try committed; keys
    /// of the engine's facts a public append took first.
    pub trim_faults: u64,
    pub retried_facts: u64,
    pub squatted_keys: u64,
    /// The log receiver (§15.1): lines written, the most one invocation
    /// wrote (bytes), and plans that waited for a fresh invocation's budget.
    pub log_lines: u64,
    pub max_invocation_log_bytes: u64,
    pub log_waits: u64,
    /// Log plans failed unwritten: their one line was over the budget.
    pub oversized_lines: u64,
}

impl Stats {
    pub fn add(&mut self, other: &Stats) {
        self.seeds += other.seeds;
        self.steps += other.steps;
        self.plans += other.plans;
        self.deliveries += other.deliveries;
        self.delivered_events += other.delivered_events;
        self.dead_letters += other.dead_letters;
        self.halts += other.halts;
        self.skips += other.skips;
        self.stale_completions += other.stale_completions;
        self.zombie_completions += other.zombie_completions;
        self.superseded_completions += other.superseded_completions;
        self.crashes += other.crashes;
        self.destroys += other.destroys;
        self.fence_rejections += other.fence_rejections;
        self.engine_calls += other.engine_calls;
        self.max_rows_per_call = self.max_rows_per_call.max(other.max_rows_per_call);
        self.max_queries_per_call = self.max_queries_per_call.max(other.max_queries_per_call);
        self.gated_plans += other.gated_plans;
        self.concurrent_plans += other.concurrent_plans;
        self.max_open_slots = self.max_open_slots.max(other.max_open_slots);
        self.out_of_order_receipts += other.out_of_order_receipts;
        self.trimmed_rows += other.trimmed_rows;
        self.trimmed_facts += other.trimmed_facts;
        self.expired_rows += other.expired_rows;
        self.trim_faults += other.trim_faults;
        self.retried_facts += other.retried_facts;
        self.squatted_keys += other.squatted_keys;
        self.log_lines += other.log_lines;
        self.max_invocation_log_bytes = self.max_invocation_log_bytes.max(other.max_invocation_log_bytes);
        self.log_waits += other.log_waits;
        self.oversized_lines += other.oversized_lines;
    }
}

/// What became of a planned send.
#[derive(Debug, Clone)]
enum Fate {
    /// In flight in the current object instance.
    Live,
    /// The receiver never answers; the shell's timeout completes it (or the
    /// completion is lost and the in-flight deadline passes).
    Hung,
    /// Planned by an object instance that has since died; its send finished
    /// (or not) before the crash and its result may still arrive.
    Zombie(Outcome),
    /// A log batch (§15.1): its lines were written when it was planned; its
    /// completion needs no I/O and is a success.
    Written,
}

/// Takes the alarm turn out of `slot`: the current one while it may plan or
/// still has sends in flight, else a new alarm's (the shell's loop returns
/// only when nothing of its turn is in flight).
pub(super) fn alarm_turn(slot: &mut Option<Turn>, now_ms: i64) -> Turn {
    match slot.take() {
        Some(turn) if turn.may_plan(now_ms) || turn.in_flight() > 0 => turn,
        _ => Turn::begin(now_ms),
    }
}

/// What one plan call did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PlanResult {
    Planned,
    NotPlanned,
    OverBudget,
}

#[derive(Debug, Clone)]
struct Outstanding {
    id: u64,
    plan: DeliveryPlan,
    instance: u64,
    deadline: Option<i64>,
    fate: Fate,
}

/// What the model receiver saw of one run of one subscription.
#[derive(Debug, Clone, Default)]
struct RunLog {
    seen: BTreeSet<u64>,
    max_seen: u64,
}

/// (streamId, subscriptionKey, run offset): a delivery run (§6 rule 7).
type RunId = (String, String, u64);

#[derive(Clone, Copy)]
enum Target {
    Source,
    Receiving,
}

/// Observable state compared around a completion of a stale plan.
#[derive(Debug, PartialEq)]
struct Snapshot {
    stream_id: Option<String>,
    head: u64,
    rows: BTreeMap<String, RuntimeRow>,
    state: ReducedState,
    dead_letters: u64,
}

/// A stream's lifetime and head (`None` before its first write) and the
/// state a rebuild gave there.
type Verified = (Option<(String, u64)>, ReducedState);

/// What the simulation has read of the current lifetime's log and dead letters.
#[derive(Default)]
struct Observed {
    stream_id: Option<String>,
    events: BTreeMap<u64, LoggedEvent>,
    letters: BTreeSet<(String, u64)>,
    letter_count: u64,
    last_letter_id: u64,
}

struct LoggedEvent {
    event_type: String,
    payload: Value,
    ephemeral: bool,
    local_audit: bool,
}

static DATABASES: AtomicU64 = AtomicU64::new(0);

fn deployment() -> Deployment {
    Deployment {
        allow_insecure_webhooks: true,
        itx_services: vec![model::ITX_SERVICE.to_owned()],
        webhook_signing_key: Some("sim-signing-key".to_owned()),
        storage_budget_bytes: None,
    }
}

fn shared_memory_uri(seed: u64, name: &str) -> String {
    let n = DATABASES.fetch_add(1, Ordering::SeqCst);
    format!(
        "file:tributary-sim-{}-{seed}-{name}-{n}?mode=memory&cache=shared",
        std::process::id()
    )
}

fn open_stream(uri: &str, path: &str) -> Result<Stream<Counting>, String> {
    let storage = Counting::open(uri).map_err(|error| error.to_string())?;
    storage.begin_call();
    let path = StreamPath::parse(path).map_err(|error| error.to_string())?;
    let mut stream = Stream::open(storage, PROJECT, path).map_err(|error| error.to_string())?;
    stream.set_deployment(deployment());
    Ok(stream)
}

fn run_offset_of(subscription: &tributary::state::OutboundSubscription) -> u64 {
    subscription.cursor_changed_at_source_offset()
}

/// Whether `plan` is one single-event delivery of a concurrent window (§8).
fn is_window_plan(plan: &DeliveryPlan) -> bool {
    plan.retraction.is_none()
        && plan
            .receiver
            .delivery()
            .is_some_and(|delivery| delivery.is_concurrent())
}

/// What a send's lease is of: its run, and in a concurrent window its slot.
fn lease_of(plan: &DeliveryPlan) -> (RunId, Option<u64>) {
    (run_of(plan), is_window_plan(plan).then_some(plan.through_offset))
}

fn run_of(plan: &DeliveryPlan) -> RunId {
    (
        plan.stamp.stream_id.clone(),
        plan.subscription_key.clone(),
        plan.stamp.cursor_changed_at_source_offset,
    )
}

fn outcome_label(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Delivered => "delivered".to_owned(),
        Outcome::Failed {
            kind,
            message,
            retry_after_ms,
        } => {
            let message: String = message.chars().take(70).collect();
            match retry_after_ms {
                Some(ms) => format!("{kind:?} ({message}, retry-after {ms}ms)"),
                None => format!("{kind:?} ({message})"),
            }
        }
        #[allow(unreachable_patterns)]
        other => format!("{other:?}"),
    }
}

pub struct Sim {
    pub trace: Vec<String>,
    pub stats: Stats,
    /// Print each trace line as it happens.
    pub verbose: bool,
    now: i64,
    seed: u64,
    source_uri: String,
    receiving_uri: String,
    /// Connections that keep the shared in-memory databases alive across
    /// restarts (SQLite frees one when its last connection closes).
    _keepers: Vec<rusqlite::Connection>,
    source: Stream<Counting>,
    receiving: Stream<Counting>,
    instance: u64,
    next_id: u64,
    outstanding: Vec<Outstanding>,
    receipts: BTreeMap<RunId, RunLog>,
    cursors: BTreeMap<RunId, u64>,
    /// Where retention had trimmed to when each run was first seen (§16): a
    /// run from the beginning starts at the first retained event.
    run_floors: BTreeMap<RunId, u64>,
    /// Per run: the cursor and halt at which invariant 1 last held.
    verified_runs: BTreeMap<RunId, (u64, Option<u64>)>,
    /// A call that may write dead letters ran since they were last read.
    letters_dirty: bool,
    event_counter: u64,
    step_index: usize,
    observed: Observed,
    /// The current alarm invocation's turn in the current instance.
    turn: Option<Turn>,
    /// Bytes the current invocation wrote to its log (§12), each line at its
    /// length as a JSON string.
    invocation_log_bytes: usize,
    /// Per stream (source, receiving): the lifetime and head at which the
    /// state last equalled a rebuild, and that state.
    verified: [Option<Verified>; 2],
    /// What each run's gate tried to deliver (§13).
    gates: super::gates::Ledger,
    /// Per run of a concurrent subscription: the offsets whose delivery
    /// completed (acknowledged or dead-lettered) — never to be sent again.
    completed_slots: BTreeMap<RunId, BTreeSet<u64>>,
    /// Per run (and, in a concurrent window, per slot): the id of the last
    /// send planned that holds its lease (§6 rules 6, 7). A send planned
    /// before it answers nothing: its completion must be stale.
    latest_sends: BTreeMap<(RunId, Option<u64>), u64>,
}

impl Sim {
    pub fn new(seed: u64) -> Result<Sim, Violation> {
        let source_uri = shared_memory_uri(seed, "src");
        let receiving_uri = shared_memory_uri(seed, "dst");
        let keep = |uri: &str| rusqlite::Connection::open(uri).map_err(|error| engine_error("keeper", error));
        let keepers = vec![keep(&source_uri)?, keep(&receiving_uri)?];
        let source = open_stream(&source_uri, SOURCE).map_err(|error| engine_error("open source", error))?;
        let receiving =
            open_stream(&receiving_uri, RECEIVING).map_err(|error| engine_error("open receiving", error))?;
        Ok(Sim {
            trace: Vec::new(),
            stats: Stats::default(),
            verbose: false,
            now: START_MS,
            seed,
            source_uri,
            receiving_uri,
            _keepers: keepers,
            source,
            receiving,
            instance: 1,
            next_id: 1,
            outstanding: Vec::new(),
            receipts: BTreeMap::new(),
            cursors: BTreeMap::new(),
            run_floors: BTreeMap::new(),
            verified_runs: BTreeMap::new(),
            letters_dirty: true,
            event_counter: 0,
            step_index: 0,
            observed: Observed::default(),
            turn: None,
            invocation_log_bytes: 0,
            verified: [None, None],
            gates: super::gates::Ledger::default(),
            completed_slots: BTreeMap::new(),
            latest_sends: BTreeMap::new(),
        })
    }

    fn log(&mut self, line: impl Into<String>) {
        let line = format!("[{:>3}] t+{:<7} {}", self.step_index, self.now - START_MS, line.into());
        if self.verbose {
            println!("{line}");
        }
        self.trace.push(line);
    }

    /// Runs one engine call on a stream, metering its storage work (invariant 4).
    fn metered<T>(
        &mut self,
        what: &str,
        target: Target,
        call: impl FnOnce(&mut Stream<Counting>) -> T,
    ) -> Result<T, Violation> {
        let stream = match target {
            Target::Source => &mut self.source,
            Target::Receiving => &mut self.receiving,
        };
        stream.storage().begin_call();
        // Dead letters are written when a send completes (also when planning
        // finds an expired send and completes it).
        if matches!(what, "complete_delivery" | "plan_delivery") {
            self.letters_dirty = true;
        }
        let out = call(stream);
        let storage = stream.storage();
        let (rows, queries, tripped) = (storage.rows_read(), storage.queries(), storage.tripped());
        self.stats.engine_calls += 1;
        self.stats.max_rows_per_call = self.stats.max_rows_per_call.max(rows);
        self.stats.max_queries_per_call = self.stats.max_queries_per_call.max(queries);
        if tripped || rows > ROWS_PER_CALL {
            return Err(violation(
                INV_WORK,
                format!(
                    "{what} read {rows} rows in {queries} statements (bounds per call: {ROWS_PER_CALL} rows, \
                     {QUERIES_PER_CALL} statements)"
                ),
            ));
        }
        Ok(out)
    }

    fn stream_id(&self) -> Option<String> {
        self.source.lifetime().map(|meta| meta.stream_id.clone())
    }

    fn head(&self) -> u64 {
        self.source.lifetime().map_or(0, |meta| meta.head)
    }

    pub fn run_step(&mut self, index: usize, step: Step) -> Result<(), Violation> {
        self.step_index = index;
        self.stats.steps += 1;
        match step {
            Step::Configure { key, dice } => self.configure(key, &mut SplitMix::new(dice)),
            Step::Append { dice } => self.append_events(&mut SplitMix::new(dice)),
            Step::Plan { dice } => self.plan(&mut SplitMix::new(dice)),
            Step::Complete { dice } => self.complete_one(&mut SplitMix::new(dice)),
            Step::CursorSet { dice } => self.cursor_set(&mut SplitMix::new(dice)),
            Step::Remove { dice } => self.remove(&mut SplitMix::new(dice)),
            Step::Resume { dice } => self.resume(&mut SplitMix::new(dice)),
            Step::Destroy { dice } => self.destroy(&mut SplitMix::new(dice)),
            Step::Advance { dice } => self.advance(&mut SplitMix::new(dice)),
            Step::Crash { dice } => self.crash(&mut SplitMix::new(dice)),
            Step::CrashReceiving => self.crash_receiving(),
            Step::Retain { dice } => self.retain(&mut SplitMix::new(dice)),
        }?;
        self.check_invariants()
    }
}

fn logged(event: CommittedEvent) -> LoggedEvent {
    let local_audit = event.source.is_none() && event.event_type == format!("{CONTROL}error-occurred");
    LoggedEvent {
        payload: serde_json::from_str(event.payload.get()).unwrap_or(Value::Null),
        event_type: event.event_type,
        ephemeral: event.ephemeral,
        local_audit,
    }
}

/// The result of one schedule.
pub struct Report {
    pub stats: Stats,
    /// The failing step's index and the broken invariant.
    pub failure: Option<(usize, Violation)>,
    pub trace: Vec<String>,
}

/// Runs `steps` (then the drain) from a fresh world.
pub fn run(seed: u64, steps: &[Step], verbose: bool) -> Report {
    let mut sim = match Sim::new(seed) {
        Ok(sim) => sim,
        Err(error) => {
            return Report {
                stats: Stats::default(),
                failure: Some((0, error)),
                trace: Vec::new(),
            }
        }
    };
    sim.verbose = verbose;
    sim.stats.seeds = 1;
    sim.log("shell: the production delivery turn, one send outstanding per subscription key");
    let mut failure = None;
    for (index, step) in steps.iter().enumerate() {
        if let Err(error) = sim.run_step(index, *step) {
            failure = Some((index, error));
            break;
        }
    }
    if failure.is_none() {
        let mut rng = SplitMix::new(seed ^ 0xD7A1_4E55);
        if let Err(error) = sim.drain(&mut rng) {
            failure = Some((steps.len(), error));
        }
    }
    if let Some((_, error)) = &failure {
        sim.log(format!("VIOLATION {error}"));
    }
    Report {
        stats: sim.stats,
        failure,
        trace: sim.trace,
    }
}
