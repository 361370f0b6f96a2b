//! The world around one source stream (DESIGN.md §6), driving the
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
//!   flight, so within one instance sends of one key never overlap.
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

use super::model::{self, Oracle, Verdict, CONTROL, KEYS};
use super::rng::SplitMix;
use super::storage::{Counting, QUERIES_PER_CALL, ROWS_PER_CALL};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use tributary::copy::CopyBatch;
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
    // destroy, crash, crash receiving
    let weights = [12, 22, 26, 14, 4, 3, 2, 4, 2, 4, 1];
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
            _ => Step::CrashReceiving,
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
    pub crashes: u64,
    pub destroys: u64,
    pub fence_rejections: u64,
    pub engine_calls: u64,
    pub max_rows_per_call: u64,
    pub max_queries_per_call: u64,
    /// Plans of subscriptions with a gate (§13).
    pub gated_plans: u64,
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
        self.crashes += other.crashes;
        self.destroys += other.destroys;
        self.fence_rejections += other.fence_rejections;
        self.engine_calls += other.engine_calls;
        self.max_rows_per_call = self.max_rows_per_call.max(other.max_rows_per_call);
        self.max_queries_per_call = self.max_queries_per_call.max(other.max_queries_per_call);
        self.gated_plans += other.gated_plans;
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
    /// Per run: the cursor and halt at which invariant 1 last held.
    verified_runs: BTreeMap<RunId, (u64, Option<u64>)>,
    /// A call that may write dead letters ran since they were last read.
    letters_dirty: bool,
    event_counter: u64,
    step_index: usize,
    observed: Observed,
    /// The current alarm invocation's turn in the current instance.
    turn: Option<Turn>,
    /// Per stream (source, receiving): the lifetime and head at which the
    /// state last equalled a rebuild, and that state.
    verified: [Option<Verified>; 2],
    /// What each run's gate tried to deliver (§13).
    gates: super::gates::Ledger,
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
            verified_runs: BTreeMap::new(),
            letters_dirty: true,
            event_counter: 0,
            step_index: 0,
            observed: Observed::default(),
            turn: None,
            verified: [None, None],
            gates: super::gates::Ledger::default(),
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
        }?;
        self.check_invariants()
    }

    // ---- client requests -------------------------------------------------

    /// Appends a public request body; `Err` inside is the API's refusal.
    fn append_public(&mut self, body: &Value, rng: &mut SplitMix) -> Result<Result<Vec<u64>, String>, Violation> {
        let inputs = Inputs {
            now_ms: self.now,
            entropy: rng.entropy(),
        };
        let bytes = body.to_string();
        self.metered("append_body", Target::Source, |stream| {
            stream
                .append_body(bytes.as_bytes(), Authority::Public, &inputs)
                .map(|outcome| outcome.events.iter().map(|event| event.offset).collect())
                .map_err(|error| format!("{} {}", error.status(), error))
        })
    }

    fn configure(&mut self, key: usize, rng: &mut SplitMix) -> Result<(), Violation> {
        let payload = model::configuration(key, rng);
        let body = json!({"type": format!("{CONTROL}subscription-configured"), "payload": payload});
        let result = self.append_public(&body, rng)?;
        self.log(format!(
            "configure {}: {} -> {result:?}",
            KEYS[key % KEYS.len()],
            model::describe(&payload)
        ));
        Ok(())
    }

    fn append_events(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        let body = model::events(rng, &mut self.event_counter);
        let result = self.append_public(&body, rng)?;
        let described: Vec<String> = body["events"]
            .as_array()
            .map(|events| {
                events
                    .iter()
                    .map(|event| {
                        let mut text = format!("{} n={}", event["type"].as_str().unwrap_or("?"), event["payload"]["n"]);
                        if event["payload"]["bad"] == json!(true) {
                            text.push_str(" bad");
                        }
                        if event["payload"]["badT"] == json!(true) {
                            text.push_str(" badT");
                        }
                        if event["ephemeral"] == json!(true) {
                            text.push_str(" ephemeral");
                        }
                        text
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.log(format!("append [{}] -> {result:?}", described.join(", ")));
        Ok(())
    }

    fn existing_keys(&self) -> Vec<String> {
        self.source
            .state()
            .subscriptions
            .outbound
            .by_key
            .keys()
            .cloned()
            .collect()
    }

    fn cursor_set(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        let keys = self.existing_keys();
        if keys.is_empty() {
            self.log("cursor-set: no subscription");
            return Ok(());
        }
        let key = keys[rng.below(keys.len() as u64) as usize].clone();
        let after = rng.below(self.head() + 1);
        let body = json!({"type": format!("{CONTROL}subscription-cursor-set"),
            "payload": {"subscriptionKey": key, "afterOffset": after}});
        let result = self.append_public(&body, rng)?;
        self.log(format!("cursor-set {key} after {after} -> {result:?}"));
        Ok(())
    }

    fn remove(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        let keys = self.existing_keys();
        if keys.is_empty() {
            self.log("remove: no subscription");
            return Ok(());
        }
        let key = keys[rng.below(keys.len() as u64) as usize].clone();
        let body = json!({"type": format!("{CONTROL}subscription-removed"),
            "payload": {"subscriptionKey": key, "reason": "requested"}});
        let result = self.append_public(&body, rng)?;
        self.log(format!("remove {key} -> {result:?}"));
        Ok(())
    }

    fn resume(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        let halted: Vec<String> = self
            .source
            .state()
            .subscriptions
            .outbound
            .by_key
            .iter()
            .filter(|(_, subscription)| subscription.delivery_halted.is_some())
            .map(|(key, _)| key.clone())
            .collect();
        if halted.is_empty() {
            self.log("resume: nothing halted");
            return Ok(());
        }
        let key = halted[rng.below(halted.len() as u64) as usize].clone();
        let body =
            json!({"type": format!("{CONTROL}subscription-delivery-resumed"), "payload": {"subscriptionKey": key}});
        let result = self.append_public(&body, rng)?;
        self.log(format!("resume {key} -> {result:?}"));
        Ok(())
    }

    /// Adds this lifetime's dead letters and halt facts to the figures
    /// (before they are destroyed, and at the end).
    fn tally(&mut self) -> Result<(), Violation> {
        self.refresh()?;
        self.stats.dead_letters += self.observed.letter_count;
        let halted = format!("{CONTROL}subscription-delivery-halted");
        self.stats.halts += self
            .observed
            .events
            .values()
            .filter(|event| event.event_type == halted)
            .count() as u64;
        Ok(())
    }

    fn destroy(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        self.tally()?;
        // The configurations in the order they were made: recreating a stream
        // by running the same setup again gives the new lifetime's runs the
        // config offsets the old lifetime's runs had.
        let mut setup: Vec<(u64, Value)> = self
            .source
            .state()
            .subscriptions
            .outbound
            .by_key
            .values()
            .map(|subscription| {
                (
                    subscription.configured_at_offset,
                    serde_json::to_value(&subscription.configuration).unwrap_or(Value::Null),
                )
            })
            .collect();
        setup.sort_by_key(|(offset, _)| *offset);
        let existed = self
            .metered("destroy", Target::Source, |stream| stream.destroy())?
            .map_err(|error| engine_error("destroy", error))?;
        self.stats.destroys += 1;
        self.log(format!("DESTROY the stream (existed: {existed})"));
        match rng.below(20) {
            0..=7 if !setup.is_empty() => {
                for (_, payload) in setup {
                    let body = json!({"type": format!("{CONTROL}subscription-configured"), "payload": payload});
                    let result = self.append_public(&body, rng)?;
                    self.log(format!(
                        "configure {} again: {} -> {result:?}",
                        payload["subscriptionKey"].as_str().unwrap_or("?"),
                        model::describe(&payload)
                    ));
                }
            }
            0..=14 => {
                for _ in 0..rng.between(1, 3) {
                    let key = rng.below(KEYS.len() as u64) as usize;
                    self.configure(key, rng)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    // ---- the shell -------------------------------------------------------

    /// The current alarm's turn; a new alarm begins when the last one is
    /// over (the shell's loop returned: nothing of it is in flight).
    fn take_turn(&mut self) -> Turn {
        alarm_turn(&mut self.turn, self.now)
    }

    fn plan(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        let now = self.now;
        let turn = self.take_turn();
        let may_plan = turn.may_plan(now);
        self.turn = Some(turn);
        if !may_plan {
            self.log("plan: the turn is over, its sends are still in flight");
            return Ok(());
        }
        let due = self
            .metered("due_subscriptions", Target::Source, |stream| {
                stream.due_subscriptions(now)
            })?
            .map_err(|error| engine_error("due_subscriptions", error))?;
        let busy: Vec<String> = due
            .iter()
            .filter(|key| self.turn.as_ref().is_some_and(|turn| turn.is_busy(key)))
            .cloned()
            .collect();
        // Planning some of what is due now and the rest in a later round is
        // a choice the real turn makes too (a completion frees a key).
        let chosen: Vec<String> = due
            .iter()
            .filter(|key| !busy.contains(*key))
            .filter(|_| rng.percent(80))
            .cloned()
            .collect();
        self.log(format!("plan: due {due:?}, busy {busy:?}, planning {chosen:?}"));
        for key in chosen {
            let entropy = rng.entropy();
            if self.plan_key(&key, entropy)? == PlanResult::OverBudget {
                break;
            }
        }
        Ok(())
    }

    fn plan_key(&mut self, key: &str, entropy: [u8; 16]) -> Result<PlanResult, Violation> {
        let now = self.now;
        let head = self.head();
        let mut turn = self.take_turn();
        let planned = self.metered("plan_delivery", Target::Source, |stream| {
            turn.plan(stream, key, now, entropy)
        });
        self.turn = Some(turn);
        let planned = planned
            .map_err(|mut error| {
                error.detail = format!("{} (plan_delivery of '{key}' at head {head})", error.detail);
                error
            })?
            .map_err(|error| engine_error("plan_delivery", error))?;
        let plan = match planned {
            Planned::Send(plan) => Some(*plan),
            Planned::Nothing => None,
            Planned::Busy => {
                self.log(format!("  plan {key}: busy in this turn"));
                return Ok(PlanResult::NotPlanned);
            }
            Planned::OverBudget => {
                self.log(format!("  plan {key}: the turn's subrequest budget is spent"));
                return Ok(PlanResult::OverBudget);
            }
        };
        let Some(plan) = plan else {
            // Nothing to send; it may have expired a send whose deadline
            // passed, which can schedule a retry, halt or dead-letter.
            let row = self.runtime_rows()?.remove(key);
            let halted = self
                .source
                .state()
                .subscriptions
                .outbound
                .by_key
                .get(key)
                .is_some_and(|subscription| subscription.delivery_halted.is_some());
            let appended = self.head().saturating_sub(head);
            self.log(format!(
                "  plan {key}: nothing to send (cursor {:?}, attempt {:?}{}{})",
                row.as_ref().map(|row| row.acknowledged_offset),
                row.as_ref().map(|row| row.attempt),
                if appended > 0 {
                    format!(", {appended} fact(s) appended")
                } else {
                    String::new()
                },
                if halted { ", halted" } else { "" }
            ));
            return Ok(PlanResult::NotPlanned);
        };
        self.stats.plans += 1;
        self.check_plan(&plan)?;
        if super::gates::gate_of(&plan).is_some() {
            self.stats.gated_plans += 1;
        }
        self.gates.record(&plan);
        let deadline = match plan.prepared_failure {
            Some(_) => None,
            None => self
                .runtime_rows()?
                .get(key)
                .and_then(|row| row.in_flight_deadline_at_ms),
        };
        let id = self.next_id;
        self.next_id += 1;
        self.log(format!(
            "  plan #{id} {key} run {} ({}..{}] attempt {} events {:?}{}{}",
            plan.stamp.cursor_changed_at_source_offset,
            plan.after_offset,
            plan.through_offset,
            plan.attempt,
            plan.events.iter().map(|event| event.offset).collect::<Vec<_>>(),
            plan.prepared_failure
                .as_ref()
                .map(|failure| format!(" prepared failure: {}", outcome_label(failure)))
                .unwrap_or_default(),
            if plan.throttled { " (throttled)" } else { "" },
        ));
        self.outstanding.push(Outstanding {
            id,
            plan,
            instance: self.instance,
            deadline,
            fate: Fate::Live,
        });
        Ok(PlanResult::Planned)
    }

    /// A fresh plan covers its range correctly: its events are in offset
    /// order inside (after, through], each is one the configuration sends (or
    /// the one it fails on), and everything else in the range is ephemeral,
    /// an audit fact, or filtered out cleanly (§6 rules 2, 9, 11; §3 rule 5).
    fn check_plan(&mut self, plan: &DeliveryPlan) -> Result<(), Violation> {
        let offsets: Vec<u64> = plan.events.iter().map(|event| event.offset).collect();
        let in_order = offsets.windows(2).all(|pair| pair[0] < pair[1]);
        // A threshold digest carries held hits the cursor already passed (§13).
        let digest = super::gates::is_threshold(plan);
        let in_range = offsets
            .iter()
            .all(|offset| (digest || *offset > plan.after_offset) && *offset <= plan.through_offset);
        if !in_order || !in_range {
            return Err(violation(
                INV_ORDER,
                format!(
                    "plan of '{}' ({}..{}] carries events {offsets:?}",
                    plan.subscription_key, plan.after_offset, plan.through_offset
                ),
            ));
        }
        let Some(subscription) = self
            .source
            .state()
            .subscriptions
            .outbound
            .by_key
            .get(&plan.subscription_key)
        else {
            return Ok(());
        };
        let configuration = serde_json::to_value(&subscription.configuration).unwrap_or(Value::Null);
        let oracle = Oracle::new(&configuration);
        self.refresh()?;
        let log = &self.observed.events;
        let gated = super::gates::gate_of(plan).is_some();
        for offset in offsets.iter().copied().filter(|offset| *offset <= plan.after_offset) {
            let sends = log
                .get(&offset)
                .is_some_and(|event| oracle.verdict(&event.event_type, &event.payload) == Verdict::Send);
            if !sends {
                return Err(violation(
                    INV_SILENT,
                    format!(
                        "digest of '{}' carries held offset {offset}, which it does not send",
                        plan.subscription_key
                    ),
                ));
            }
        }
        for offset in plan.after_offset + 1..=plan.through_offset {
            let Some(event) = log.get(&offset) else {
                return Err(violation(
                    INV_SILENT,
                    format!("plan of '{}' reaches past the log to {offset}", plan.subscription_key),
                ));
            };
            let included = offsets.contains(&offset);
            if event.ephemeral || event.local_audit {
                if included {
                    return Err(violation(
                        INV_SILENT,
                        format!(
                            "plan of '{}' sends offset {offset}, an ephemeral event or audit fact",
                            plan.subscription_key
                        ),
                    ));
                }
                continue;
            }
            let verdict = oracle.verdict(&event.event_type, &event.payload);
            let fine = match (included, verdict, &plan.prepared_failure) {
                (true, Verdict::Send, _) => true,
                (true, Verdict::Fails, Some(_)) => true,
                (false, Verdict::FilteredOut, _) => true,
                // A gate holds or discards hits (§13): whether it had tried
                // them first is invariant 1's business.
                (false, Verdict::Send, _) => gated,
                // The failing event ends the range and the failure is carried
                // by the plan: whether the cursor may pass it (a dead letter
                // first) is invariant 1's business once it completes.
                (false, Verdict::Fails, Some(_)) => offset == plan.through_offset,
                _ => false,
            };
            if !fine {
                return Err(violation(
                    INV_SILENT,
                    format!(
                        "plan of '{}' ({}..{}] {} offset {offset} ({} {}) although the oracle says {verdict:?} \
                         (prepared failure: {:?}; configuration: {})",
                        plan.subscription_key,
                        plan.after_offset,
                        plan.through_offset,
                        if included { "sends" } else { "passes over" },
                        event.event_type,
                        event.payload,
                        plan.prepared_failure.as_ref().map(outcome_label),
                        model::describe(&configuration)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The model receiver takes a batch (§6 rule 9): within one run, every
    /// offset it had not seen before comes after every offset it had seen.
    fn receive(&mut self, plan: &DeliveryPlan, offsets: &[u64]) -> Result<(), Violation> {
        let run = (
            plan.stamp.stream_id.clone(),
            plan.subscription_key.clone(),
            plan.stamp.cursor_changed_at_source_offset,
        );
        let digest = super::gates::is_threshold(plan);
        let log = self.receipts.entry(run).or_default();
        let in_range = offsets
            .iter()
            .all(|offset| (digest || *offset > plan.after_offset) && *offset <= plan.through_offset);
        let in_order = offsets.windows(2).all(|pair| pair[0] < pair[1]);
        let max_before = log.max_seen;
        let out_of_order: Vec<u64> = offsets
            .iter()
            .copied()
            .filter(|offset| !log.seen.contains(offset) && *offset <= max_before)
            .collect();
        if !in_range || !in_order || !out_of_order.is_empty() {
            return Err(violation(
                INV_ORDER,
                format!(
                    "receiver of '{}' (run {}) got {offsets:?} for ({}..{}] after seeing up to {max_before}; \
                     new offsets below that: {out_of_order:?}",
                    plan.subscription_key,
                    plan.stamp.cursor_changed_at_source_offset,
                    plan.after_offset,
                    plan.through_offset
                ),
            ));
        }
        let new = offsets.iter().filter(|offset| !log.seen.contains(offset)).count() as u64;
        log.seen.extend(offsets.iter().copied());
        log.max_seen = log.max_seen.max(offsets.last().copied().unwrap_or(0));
        self.stats.deliveries += 1;
        self.stats.delivered_events += new;
        Ok(())
    }

    /// Performs a send: the receiver gets it (webhook, itx) or the receiving
    /// stream accepts or refuses it (copy). Returns the send's outcome.
    fn send(&mut self, plan: &DeliveryPlan, rng: &mut SplitMix) -> Result<Outcome, Violation> {
        let offsets: Vec<u64> = plan.events.iter().map(|event| event.offset).collect();
        if !matches!(plan.receiver, Receiver::CopyToStream { .. }) {
            self.receive(plan, &offsets)?;
            return Ok(Outcome::Delivered);
        }
        let batch = CopyBatch {
            stamp: plan.stamp.clone(),
            events: plan.events.iter().map(|event| event.body.clone()).collect(),
        };
        let inputs = Inputs {
            now_ms: self.now,
            entropy: rng.entropy(),
        };
        // The body the shell posts to the receiving object's internal route.
        let body = serde_json::to_vec(&batch).unwrap_or_default();
        let result = self.metered("accept_copy_body", Target::Receiving, |stream| {
            stream.accept_copy_body(&body, &inputs)
        })?;
        match result {
            Ok(accepted) => {
                // What the receiving stream committed, read from the copies' provenance.
                let copied: Vec<u64> = accepted
                    .appended
                    .iter()
                    .filter_map(|event| {
                        let source: Value = serde_json::from_str(event.source.as_ref()?.get()).ok()?;
                        source["copiedFrom"].as_array()?.last()?["offset"].as_u64()
                    })
                    .collect();
                if copied != offsets {
                    return Err(violation(
                        INV_SILENT,
                        format!(
                            "receiving stream committed copies of {copied:?} for a batch of {offsets:?} (dropped {})",
                            accepted.dropped
                        ),
                    ));
                }
                self.receive(plan, &copied)?;
                Ok(Outcome::Delivered)
            }
            Err(error) => {
                if error.code() == "stale_stamp" {
                    self.stats.fence_rejections += 1;
                    if !self.is_stale(plan) {
                        return Err(violation(
                            INV_STALE,
                            format!(
                                "the receiving stream fenced off the current run of '{}' (run {}): {error}",
                                plan.subscription_key, plan.stamp.cursor_changed_at_source_offset
                            ),
                        ));
                    }
                }
                Ok(classify_copy_status(error.status(), &error.to_string()))
            }
        }
    }

    /// Why a plan belongs to a run that is no longer current (§6 rule 7), if
    /// it does: another lifetime, another config generation, a removed key.
    fn staleness(&self, plan: &DeliveryPlan) -> Option<&'static str> {
        if self.stream_id().as_deref() != Some(plan.stamp.stream_id.as_str()) {
            return Some("its lifetime was destroyed");
        }
        match self
            .source
            .state()
            .subscriptions
            .outbound
            .by_key
            .get(&plan.subscription_key)
        {
            Some(subscription) if run_offset_of(subscription) != plan.stamp.cursor_changed_at_source_offset => {
                Some("its config generation was replaced")
            }
            Some(_) => None,
            None => Some("its subscription was removed"),
        }
    }

    fn is_stale(&self, plan: &DeliveryPlan) -> bool {
        self.staleness(plan).is_some()
    }

    fn snapshot(&mut self) -> Result<Snapshot, Violation> {
        let rows = self.runtime_rows()?;
        self.refresh()?;
        Ok(Snapshot {
            stream_id: self.stream_id(),
            head: self.head(),
            rows,
            state: self.source.state().clone(),
            dead_letters: self.observed.letter_count,
        })
    }

    /// Hands an outcome to the engine; a stale plan's completion must change
    /// nothing observable (invariant 3).
    fn complete(&mut self, item: Outstanding, outcome: Outcome, rng: &mut SplitMix) -> Result<(), Violation> {
        let staleness = self.staleness(&item.plan);
        let stale = staleness.is_some();
        let before = if stale { Some(self.snapshot()?) } else { None };
        let (now, entropy) = (self.now, rng.entropy());
        let plan = item.plan.clone();
        let given = outcome.clone();
        let mut turn = self.take_turn();
        let completion = self.metered("complete_delivery", Target::Source, |stream| {
            turn.complete(stream, &plan, given, now, entropy)
        });
        self.turn = Some(turn);
        let completion = completion?.map_err(|error| engine_error("complete_delivery", error))?;
        if matches!(item.fate, Fate::Zombie(_)) || item.instance != self.instance {
            self.stats.zombie_completions += 1;
        }
        if matches!(completion, Completion::Skipped { .. }) {
            self.stats.skips += 1;
        }
        self.log(format!(
            "complete #{} {} ({}..{}]{}{}: {} -> {completion:?}",
            item.id,
            plan.subscription_key,
            plan.after_offset,
            plan.through_offset,
            if item.instance != self.instance {
                " [zombie of a dead instance]"
            } else {
                ""
            },
            if stale { " [stale run]" } else { "" },
            outcome_label(&outcome)
        ));
        if let Some(before) = before {
            self.stats.stale_completions += 1;
            let after = self.snapshot()?;
            if after != before || completion != Completion::Stale {
                let mut changes = Vec::new();
                if after.head != before.head {
                    changes.push(format!("head {} -> {} (a fact was appended)", before.head, after.head));
                }
                let key = &plan.subscription_key;
                if after.rows.get(key) != before.rows.get(key) {
                    changes.push(format!(
                        "runtime row of '{key}' {:?} -> {:?}",
                        before.rows.get(key),
                        after.rows.get(key)
                    ));
                }
                if after.dead_letters != before.dead_letters {
                    changes.push(format!(
                        "dead letters {} -> {}",
                        before.dead_letters, after.dead_letters
                    ));
                }
                if after.state != before.state {
                    changes.push("reduced state changed".to_owned());
                }
                return Err(violation(
                    INV_STALE,
                    format!(
                        "completion #{} of '{key}' is stale ({}): from lifetime {} run {} (current: lifetime \
                         {:?}) with {} it returned {completion:?} and changed: {}",
                        item.id,
                        staleness.unwrap_or_default(),
                        plan.stamp.stream_id,
                        plan.stamp.cursor_changed_at_source_offset,
                        before.stream_id,
                        outcome_label(&outcome),
                        if changes.is_empty() {
                            "nothing".to_owned()
                        } else {
                            changes.join("; ")
                        }
                    ),
                ));
            }
        }
        Ok(())
    }

    fn complete_one(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        if self.outstanding.is_empty() {
            self.log("complete: nothing outstanding");
            return Ok(());
        }
        let index = rng.below(self.outstanding.len() as u64) as usize;
        let outcome = match (
            self.outstanding[index].plan.prepared_failure.clone(),
            self.outstanding[index].fate.clone(),
        ) {
            (Some(failure), _) => failure,
            (None, Fate::Zombie(outcome)) => outcome,
            (None, Fate::Hung) => Outcome::transient("timed out"),
            (None, Fate::Live) => {
                // delivered, transient, transient with Retry-After, permanent,
                // hang, delivered but the answer lost
                match rng.weighted(&[55, 14, 5, 10, 10, 6]) {
                    0 => {
                        let plan = self.outstanding[index].plan.clone();
                        self.send(&plan, rng)?
                    }
                    1 => Outcome::transient("HTTP 503"),
                    2 => Outcome::Failed {
                        kind: tributary::delivery::FailureKind::Transient,
                        message: "HTTP 429".to_owned(),
                        retry_after_ms: Some(rng.between(1, 3_000) as i64),
                    },
                    3 => Outcome::permanent("HTTP 400"),
                    4 => {
                        let item = &mut self.outstanding[index];
                        item.fate = Fate::Hung;
                        let line = format!(
                            "hang #{} {}: the receiver does not answer",
                            item.id, item.plan.subscription_key
                        );
                        self.log(line);
                        return Ok(());
                    }
                    _ => {
                        let plan = self.outstanding[index].plan.clone();
                        match self.send(&plan, rng)? {
                            Outcome::Delivered => Outcome::transient("connection reset after the receiver took it"),
                            failure => failure,
                        }
                    }
                }
            }
        };
        let item = self.outstanding.remove(index);
        self.complete(item, outcome, rng)
    }

    fn advance(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        let now = self.now;
        let target = match rng.below(10) {
            0..=2 => now + 1 + rng.below(200) as i64,
            3..=5 => now + 200 + rng.below(5_000) as i64,
            6..=8 => {
                let next = self
                    .metered("next_due_at", Target::Source, |stream| stream.next_due_at())?
                    .map_err(|error| engine_error("next_due_at", error))?;
                match next {
                    Some(at) if at > now => at.min(now + 3_600_000),
                    _ => now + 1,
                }
            }
            _ => now + 40_000 + rng.below(30_000) as i64,
        };
        // A send's own timeout fires before its in-flight deadline (§6 rule
        // 10): resolve the sends this jump would pass, before jumping.
        let mut index = 0;
        while index < self.outstanding.len() {
            let item = &self.outstanding[index];
            let passes = item.instance == self.instance
                && !matches!(item.fate, Fate::Zombie(_))
                && item.deadline.is_some_and(|deadline| deadline <= target);
            if !passes {
                index += 1;
                continue;
            }
            let item = self.outstanding.remove(index);
            let outcome = match item.fate {
                Fate::Hung => Outcome::transient("timed out"),
                _ => match rng.weighted(&[60, 25, 15]) {
                    0 => self.send(&item.plan, rng)?,
                    1 => Outcome::transient("timed out"),
                    _ => Outcome::permanent("HTTP 410"),
                },
            };
            self.complete(item, outcome, rng)?;
        }
        self.now = target;
        self.log(format!("advance the clock by {} ms", target - now));
        Ok(())
    }

    fn crash(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        // Decide now what each send of the dying instance did: the receiver
        // took it before the crash or not, and whether a result arrives later.
        let mut survivors = Vec::new();
        for mut item in std::mem::take(&mut self.outstanding) {
            if item.instance != self.instance || matches!(item.fate, Fate::Zombie(_)) {
                survivors.push(item);
                continue;
            }
            let outcome = match (&item.plan.prepared_failure, &item.fate) {
                (Some(failure), _) => rng.percent(50).then(|| failure.clone()),
                (None, Fate::Hung) => rng.percent(40).then(|| Outcome::transient("timed out")),
                (None, _) if rng.percent(50) => match self.send(&item.plan, rng)? {
                    Outcome::Delivered if rng.percent(20) => Some(Outcome::transient("connection reset")),
                    outcome => Some(outcome),
                },
                (None, _) => match rng.below(10) {
                    0..=3 => Some(Outcome::transient("connection reset")),
                    4..=5 => Some(Outcome::permanent("HTTP 400")),
                    _ => None,
                },
            };
            if let Some(outcome) = outcome {
                item.fate = Fate::Zombie(outcome);
                survivors.push(item);
            }
        }
        self.outstanding = survivors;
        self.turn = None;
        self.stats.crashes += 1;
        self.instance += 1;
        let zombies: Vec<u64> = self.outstanding.iter().map(|item| item.id).collect();
        self.source = self.reopen(&self.source_uri.clone(), SOURCE)?;
        self.log(format!(
            "CRASH the source object; sends that may still complete: {zombies:?}"
        ));
        Ok(())
    }

    fn crash_receiving(&mut self) -> Result<(), Violation> {
        self.receiving = self.reopen(&self.receiving_uri.clone(), RECEIVING)?;
        self.log("CRASH the receiving object");
        Ok(())
    }

    fn reopen(&mut self, uri: &str, path: &str) -> Result<Stream<Counting>, Violation> {
        let stream = open_stream(uri, path).map_err(|error| engine_error("Stream::open", error))?;
        let storage = stream.storage();
        let (rows, tripped) = (storage.rows_read(), storage.tripped());
        self.stats.engine_calls += 1;
        self.stats.max_rows_per_call = self.stats.max_rows_per_call.max(rows);
        if tripped || rows > ROWS_PER_CALL {
            return Err(violation(INV_WORK, format!("Stream::open read {rows} rows")));
        }
        Ok(stream)
    }

    // ---- the end: drain ---------------------------------------------------

    /// Lets every outstanding send finish, then delivers until nothing is
    /// due: every subscription that is not halted must catch up with the head.
    pub fn drain(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        self.step_index += 1;
        self.log("DRAIN: every outstanding send completes, then every send succeeds");
        while !self.outstanding.is_empty() {
            let item = self.outstanding.remove(0);
            let outcome = match (&item.plan.prepared_failure, &item.fate) {
                (Some(failure), _) => failure.clone(),
                (None, Fate::Zombie(outcome)) => outcome.clone(),
                (None, Fate::Hung) => Outcome::transient("timed out"),
                (None, Fate::Live) => self.send(&item.plan, rng)?,
            };
            self.complete(item, outcome, rng)?;
        }
        self.check_invariants()?;
        let mut settled = false;
        for round in 0..DRAIN_ROUNDS {
            // Each round is one alarm: nothing is in flight between rounds.
            self.turn = Some(Turn::begin(self.now));
            let now = self.now;
            let due = self
                .metered("due_subscriptions", Target::Source, |stream| {
                    stream.due_subscriptions(now)
                })?
                .map_err(|error| engine_error("due_subscriptions", error))?;
            let mut planned = Vec::new();
            for key in &due {
                let entropy = rng.entropy();
                if self.plan_key(key, entropy)? == PlanResult::Planned {
                    if let Some(item) = self.outstanding.pop() {
                        planned.push(item);
                    }
                }
            }
            for item in planned {
                let outcome = match &item.plan.prepared_failure {
                    Some(failure) => failure.clone(),
                    None => self.send(&item.plan, rng)?,
                };
                self.complete(item, outcome, rng)?;
            }
            if round % 16 == 15 {
                self.check_invariants()?;
            }
            if due.is_empty() {
                let next = self
                    .metered("next_due_at", Target::Source, |stream| stream.next_due_at())?
                    .map_err(|error| engine_error("next_due_at", error))?;
                match next {
                    Some(at) if at > self.now => self.now = at,
                    Some(_) => self.now += 1,
                    None => {
                        settled = true;
                        break;
                    }
                }
            }
        }
        self.check_invariants()?;
        if !settled {
            return Err(violation(
                INV_PROGRESS,
                format!("delivery was still due after {DRAIN_ROUNDS} drain rounds"),
            ));
        }
        let head = self.head();
        let rows = self.runtime_rows()?;
        for (key, subscription) in &self.source.state().subscriptions.outbound.by_key {
            if subscription.delivery_halted.is_some() {
                continue;
            }
            let cursor = rows.get(key).map(|row| row.acknowledged_offset);
            if cursor != Some(head) {
                return Err(violation(
                    INV_PROGRESS,
                    format!("'{key}' is not halted, nothing is due, yet its cursor is {cursor:?} at head {head}"),
                ));
            }
        }
        self.tally()?;
        self.log(format!("drained: every running subscription is at head {head}"));
        Ok(())
    }

    // ---- observation -------------------------------------------------------

    fn runtime_rows(&mut self) -> Result<BTreeMap<String, RuntimeRow>, Violation> {
        self.metered("runtime_rows", Target::Source, |stream| stream.runtime_rows())?
            .map_err(|error| engine_error("runtime_rows", error))
    }

    /// Brings the cached copy of this lifetime's log and dead letters up to
    /// date. Both only grow within a lifetime (the simulation never discards
    /// or replays a dead letter), so reading what is new is enough.
    fn refresh(&mut self) -> Result<(), Violation> {
        let stream_id = self.stream_id();
        if self.observed.stream_id != stream_id {
            self.observed = Observed {
                stream_id: stream_id.clone(),
                ..Observed::default()
            };
            self.letters_dirty = true;
        }
        if stream_id.is_none() {
            return Ok(());
        }
        let head = self.head();
        let mut after = self.observed.events.keys().next_back().copied().unwrap_or(0);
        while after < head {
            let query = RangeQuery {
                after,
                limit: 1000,
                include_ephemeral: true,
            };
            let page = self
                .metered("read_range", Target::Source, |stream| stream.read_range(&query))?
                .map_err(|error| engine_error("read_range", error))?;
            if page.events.is_empty() {
                break;
            }
            after = page.next_after.max(after + 1);
            for event in page.events {
                self.observed.events.insert(event.offset, logged(event));
            }
        }
        while self.letters_dirty {
            let query = DeadLetterQuery {
                subscription_key: None,
                after: self.observed.last_letter_id,
                limit: 1000,
            };
            let page = self
                .metered("dead_letters", Target::Source, |stream| stream.dead_letters(&query))?
                .map_err(|error| engine_error("dead_letters", error))?;
            let batch = page["deadLetters"].as_array().cloned().unwrap_or_default();
            let complete = batch.len() < 1000;
            self.observed.last_letter_id = page["nextAfter"].as_u64().unwrap_or(u64::MAX);
            for letter in batch {
                self.observed.letters.insert((
                    letter["subscriptionKey"].as_str().unwrap_or_default().to_owned(),
                    letter["offset"].as_u64().unwrap_or(0),
                ));
                self.observed.letter_count += 1;
            }
            if complete {
                self.letters_dirty = false;
            }
        }
        Ok(())
    }

    /// Invariants 1, 2 (cursor side) and 5, through the public API.
    pub fn check_invariants(&mut self) -> Result<(), Violation> {
        for (index, target) in [Target::Source, Target::Receiving].into_iter().enumerate() {
            let stream = match target {
                Target::Source => &self.source,
                Target::Receiving => &self.receiving,
            };
            // The log only grows within a lifetime: with the same lifetime and
            // head, a rebuild gives what it gave last time.
            let coordinates = stream.lifetime().map(|meta| (meta.stream_id.clone(), meta.head));
            if let Some((verified_at, verified)) = &self.verified[index] {
                if *verified_at == coordinates && stream.state() == verified {
                    continue;
                }
            }
            let rebuilt = self
                .metered("rebuild_state", target, |stream| stream.rebuild_state())?
                .map_err(|error| engine_error("rebuild_state", error))?;
            let stream = match target {
                Target::Source => &self.source,
                Target::Receiving => &self.receiving,
            };
            if stream.state() == &rebuilt {
                self.verified[index] = Some((coordinates, rebuilt));
            } else {
                return Err(violation(
                    INV_REBUILD,
                    format!(
                        "{}: state {} but the log rebuilds {}",
                        stream.path(),
                        serde_json::to_string(stream.state()).unwrap_or_default(),
                        serde_json::to_string(&rebuilt).unwrap_or_default()
                    ),
                ));
            }
        }
        let Some(stream_id) = self.stream_id() else {
            return Ok(());
        };
        let head = self.head();
        let rows = self.runtime_rows()?;
        self.refresh()?;
        let log = &self.observed.events;
        let letters = &self.observed.letters;
        let subscriptions = self.source.state().subscriptions.outbound.by_key.clone();
        for (key, subscription) in &subscriptions {
            let run = run_offset_of(subscription);
            let Some(row) = rows.get(key) else {
                return Err(violation(
                    INV_REBUILD,
                    format!("'{key}' has no runtime row (§6 repair)"),
                ));
            };
            if row.cursor_changed_at_source_offset != run || row.acknowledged_offset > head {
                return Err(violation(
                    INV_REBUILD,
                    format!("runtime row of '{key}' {row:?} disagrees with run {run} / head {head}"),
                ));
            }
            let run_id = (stream_id.clone(), key.clone(), run);
            let previous = self.cursors.get(&run_id).copied().unwrap_or(0);
            if row.acknowledged_offset < previous {
                return Err(violation(
                    INV_ORDER,
                    format!(
                        "cursor of '{key}' (run {run}) moved back from {previous} to {}",
                        row.acknowledged_offset
                    ),
                ));
            }
            self.cursors.insert(run_id.clone(), row.acknowledged_offset);
            // Receipts and dead letters only grow: what was verified at this
            // cursor and halt stays verified.
            let halted_after = subscription.delivery_halted.as_ref().map(|halt| halt.after_offset);
            if self.verified_runs.get(&run_id) == Some(&(row.acknowledged_offset, halted_after)) {
                continue;
            }
            let configuration = serde_json::to_value(&subscription.configuration).unwrap_or(Value::Null);
            if !configuration["receiver"].is_object() {
                continue;
            }
            let start = match subscription.cursor_set {
                Some(set) => set.after_offset,
                None if configuration["receiver"]["delivery"]["start"] == json!("now") => {
                    subscription.configured_at_offset
                }
                None => 0,
            };
            let oracle = Oracle::new(&configuration);
            let seen = self.receipts.get(&run_id);
            for offset in start + 1..=row.acknowledged_offset {
                let Some(event) = log.get(&offset) else {
                    return Err(violation(INV_SILENT, format!("no event at offset {offset}")));
                };
                if event.ephemeral || event.local_audit {
                    continue;
                }
                if seen.is_some_and(|seen| seen.seen.contains(&offset)) {
                    continue;
                }
                let verdict = oracle.verdict(&event.event_type, &event.payload);
                if verdict == Verdict::FilteredOut
                    || letters.contains(&(key.clone(), offset))
                    || halted_after.is_some_and(|after| after < offset)
                {
                    continue;
                }
                if let Some(gate) = super::gates::configured_gate(&configuration) {
                    match self.gates.passed_quietly(self.source.storage(), &run_id, gate, offset) {
                        Ok(_) => continue,
                        Err(detail) => {
                            return Err(violation(
                                INV_SILENT,
                                format!("'{key}' (run {run}): {detail} [{}]", model::describe(&configuration)),
                            ))
                        }
                    }
                }
                return Err(violation(
                    INV_SILENT,
                    format!(
                        "cursor of '{key}' (run {run}, start after {start}) is {} but offset {offset} ({} {}) \
                         was not delivered in this run, the oracle says {verdict:?}, no dead letter, no halt \
                         covers it [{}]",
                        row.acknowledged_offset,
                        event.event_type,
                        event.payload,
                        model::describe(&configuration)
                    ),
                ));
            }
            self.verified_runs
                .insert(run_id, (row.acknowledged_offset, halted_after));
        }
        Ok(())
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
