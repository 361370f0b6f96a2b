//! The copy-chain simulation (issue 18; docs/design.md §13 "Through copies" and
//! "Copies and invalidation order", §7): three streams `/a → /b → /c` (copy
//! subscriptions `ab` and `bc`), a webhook `hook` on `/b` and `/c`, noise on `/b` and
//! `/c` shifting offsets, and `events-invalidated` on `/a` — alone or leading
//! a batch of later events. A seeded schedule interleaves appends, planning,
//! completing sends in any order with any outcome (delivered, transient,
//! permanent, answer lost), clock jumps and restarts of any of the three
//! objects (a dying object's sends landed or not, and never complete). The
//! copy route `bc` passes both invalidations, only the copied one, or only
//! `/b`'s derived one, per seed. Checked:
//!
//! - **R1 retractions first** (the invariant): every retraction reaches each
//!   webhook in the chain before anything after its invalidation — when a
//!   webhook receives an event past a local invalidation, every earlier
//!   event of it that the invalidation names was retracted (or its
//!   retraction dead-lettered); and after the drain, every such event was.
//! - **R2 the right copies, once**: a webhook is only sent retractions of
//!   offsets a local invalidation names, each under one delivery id; after
//!   the drain every copy on `/b` and `/c` whose origin a copied invalidation
//!   names (mapped through the copy's hop for the stream that appended it)
//!   is named by exactly one local invalidation, and no other copy is.
//! - **R3 order at the receiver**: a copy batch carries an invalidation only
//!   as its last event, and the derived invalidations of a copied one sit
//!   right after it (before any later copy).
//! - **R4 bounded work** per engine call (the counting driver), and a drained
//!   chain has nothing left due.
//! - **R5** every 50th seed runs twice and must give the same trace.
//!
//! The checks are in `chain_checks.rs`; the many-seed runner, shrinking and
//! the replay command in `chain_run.rs`.

use super::rng::SplitMix;
use super::storage::{Counting, ROWS_PER_CALL};
use super::world::alarm_turn;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use tributary::copy::CopyBatch;
use tributary::delivery::{classify_copy_status, Completion, DeliveryPlan, Outcome, Planned, Turn};
use tributary::deployment::Deployment;
use tributary::error::ApiFailure;
use tributary::event::Authority;
use tributary::path::StreamPath;
use tributary::stream::{RangeQuery, Stream};
use tributary::subscription::Receiver;
use tributary::Inputs;

const PROJECT: &str = "project-chain-sim";
pub(super) const PATHS: [&str; 3] = ["/a", "/b", "/c"];
pub(super) const INVALIDATED: &str = "events.iterate.com/stream/events-invalidated";
const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const START_MS: i64 = 1_700_000_000_000;
const DRAIN_ROUNDS: usize = 2_000;
/// The filters of the `bc` route, one per seed: what travels from `/b`.
const BC_CONDITIONS: [Option<&str>; 3] = [
    None,
    Some("type = 'data' or $exists(source)"),
    Some("type = 'data' or $not($exists(source))"),
];

pub const R1: &str = "R1 retractions reach each receiver before anything after the invalidation";
pub const R2: &str = "R2 exactly the copies of invalidated events are retracted, once";
pub const R3: &str = "R3 a copied invalidation and its derived one precede later copies";
pub const R4: &str = "R4 bounded work, and a drained chain has nothing due";
pub const R5: &str = "R5 deterministic per seed";
pub const R0: &str = "R0 engine call failed";

/// One step; each carries its own dice (shrinking keeps the others' choices).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainStep {
    /// 1-3 data events on `/a`, sometimes led by an invalidation.
    Append {
        dice: u64,
    },
    /// An `events-invalidated` on `/a` (a range or a list).
    Invalidate {
        dice: u64,
    },
    /// A noise event on `/b` or `/c`.
    Noise {
        dice: u64,
    },
    /// Plan the due subscriptions of one stream that have no send out.
    Plan {
        dice: u64,
    },
    /// Complete one outstanding send with a chosen outcome.
    Complete {
        dice: u64,
    },
    Advance {
        dice: u64,
    },
    /// Restart one of the three objects.
    Crash {
        dice: u64,
    },
}

pub fn chain_schedule(seed: u64, steps: usize) -> Vec<ChainStep> {
    let mut rng = SplitMix::new(seed.wrapping_mul(0x9FB2_1C65_1E98_DF25) ^ 0xC4A1);
    let weights = [14, 6, 4, 30, 30, 10, 4];
    (0..steps)
        .map(|_| {
            let dice = rng.next();
            match rng.weighted(&weights) {
                0 => ChainStep::Append { dice },
                1 => ChainStep::Invalidate { dice },
                2 => ChainStep::Noise { dice },
                3 => ChainStep::Plan { dice },
                4 => ChainStep::Complete { dice },
                5 => ChainStep::Advance { dice },
                _ => ChainStep::Crash { dice },
            }
        })
        .collect()
}

#[derive(Debug, Clone)]
pub struct ChainViolation {
    pub invariant: &'static str,
    pub detail: String,
}

impl fmt::Display for ChainViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invariant {}: {}", self.invariant, self.detail)
    }
}

pub(super) fn violation(invariant: &'static str, detail: impl Into<String>) -> ChainViolation {
    ChainViolation {
        invariant,
        detail: detail.into(),
    }
}

/// Figures over a run.
#[derive(Debug, Clone, Default)]
pub struct ChainStats {
    pub seeds: u64,
    pub steps: u64,
    pub copies: u64,
    pub invalidations: u64,
    pub derived: u64,
    pub retractions: u64,
    pub dead_lettered_retractions: u64,
    pub halts: u64,
    pub crashes: u64,
}

impl ChainStats {
    pub fn add(&mut self, other: &ChainStats) {
        self.seeds += other.seeds;
        self.steps += other.steps;
        self.copies += other.copies;
        self.invalidations += other.invalidations;
        self.derived += other.derived;
        self.retractions += other.retractions;
        self.dead_lettered_retractions += other.dead_lettered_retractions;
        self.halts += other.halts;
        self.crashes += other.crashes;
    }
}

static DATABASES: AtomicU64 = AtomicU64::new(0);

fn open(uri: &str, path: &str) -> Result<Stream<Counting>, String> {
    let storage = Counting::open(uri).map_err(|error| error.to_string())?;
    storage.begin_call();
    let path = StreamPath::parse(path).map_err(|error| error.to_string())?;
    let mut stream = Stream::open(storage, PROJECT, path).map_err(|error| error.to_string())?;
    stream.set_deployment(Deployment {
        allow_insecure_webhooks: true,
        ..Default::default()
    });
    Ok(stream)
}

/// What a webhook received, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Receipt {
    Event(u64),
    Retracted(u64, String),
}

/// Whether an `events-invalidated` payload at `at` names `offset` (plain
/// Rust, independent of the engine).
pub(super) fn covers(payload: &Value, at: u64, offset: u64) -> bool {
    if let Some(after) = payload["afterOffset"].as_u64() {
        return after < offset && offset < at;
    }
    payload["offsets"]
        .as_array()
        .is_some_and(|offsets| offsets.iter().any(|named| named.as_u64() == Some(offset)))
}

pub(super) fn chain(event: &Value) -> &[Value] {
    event["source"]["copiedFrom"].as_array().map_or(&[], Vec::as_slice)
}

pub(super) fn offset(event: &Value) -> u64 {
    event["offset"].as_u64().unwrap_or(0)
}

/// This stream's own invalidations.
pub(super) fn is_local_invalidation(event: &Value) -> bool {
    event["type"] == INVALIDATED && event.get("source").is_none()
}

/// A copy whose origin (first hop) is an invalidation.
pub(super) fn is_copied_invalidation(event: &Value) -> bool {
    chain(event).first().is_some_and(|hop| hop["type"] == INVALIDATED)
}

pub(super) struct Send {
    id: u64,
    node: usize,
    plan: DeliveryPlan,
}

pub struct ChainSim {
    pub trace: Vec<String>,
    pub stats: ChainStats,
    pub verbose: bool,
    pub(super) now: i64,
    pub(super) rng: SplitMix,
    pub(super) uris: Vec<String>,
    pub(super) _keepers: Vec<rusqlite::Connection>,
    pub(super) streams: Vec<Stream<Counting>>,
    /// Each stream object's current alarm turn (the production one).
    pub(super) turns: [Option<Turn>; 3],
    pub(super) outstanding: Vec<Send>,
    pub(super) next_id: u64,
    pub(super) receipts: [Vec<Receipt>; 3],
    pub(super) dead_retractions: [BTreeSet<u64>; 3],
    /// Each stream's log as read so far (it only grows).
    pub(super) logs: [Vec<Value>; 3],
    pub(super) step_index: usize,
    pub(super) label: u64,
}

impl ChainSim {
    pub fn new(seed: u64) -> Result<ChainSim, ChainViolation> {
        let engine = |what: &str, error: String| violation(R0, format!("{what}: {error}"));
        let mut uris = Vec::new();
        let mut keepers = Vec::new();
        let mut streams = Vec::new();
        for path in PATHS {
            let n = DATABASES.fetch_add(1, Ordering::SeqCst);
            let uri = format!(
                "file:tributary-chain-{}-{seed}-{}-{n}?mode=memory&cache=shared",
                std::process::id(),
                path.trim_start_matches('/')
            );
            keepers.push(rusqlite::Connection::open(&uri).map_err(|error| engine("keeper", error.to_string()))?);
            streams.push(open(&uri, path).map_err(|error| engine("open", error))?);
            uris.push(uri);
        }
        let mut sim = ChainSim {
            trace: Vec::new(),
            stats: ChainStats::default(),
            verbose: false,
            now: START_MS,
            rng: SplitMix::new(seed ^ 0x0C0B_1E55),
            uris,
            _keepers: keepers,
            streams,
            turns: Default::default(),
            outstanding: Vec::new(),
            next_id: 1,
            receipts: Default::default(),
            dead_retractions: Default::default(),
            logs: Default::default(),
            step_index: 0,
            label: 0,
        };
        sim.configure(seed)?;
        Ok(sim)
    }

    pub(super) fn log(&mut self, line: impl Into<String>) {
        let line = format!("[{:>3}] t+{:<7} {}", self.step_index, self.now - START_MS, line.into());
        if self.verbose {
            println!("{line}");
        }
        self.trace.push(line);
    }

    pub(super) fn inputs(&mut self) -> Inputs {
        Inputs {
            now_ms: self.now,
            entropy: self.rng.entropy(),
        }
    }

    /// One engine call on stream `node`, metered (R4).
    pub(super) fn metered<T>(
        &mut self,
        node: usize,
        what: &str,
        call: impl FnOnce(&mut Stream<Counting>) -> T,
    ) -> Result<T, ChainViolation> {
        let stream = &mut self.streams[node];
        stream.storage().begin_call();
        let out = call(stream);
        let storage = stream.storage();
        if storage.tripped() || storage.rows_read() > ROWS_PER_CALL {
            return Err(violation(
                R4,
                format!("{what} on {} read {} rows", PATHS[node], storage.rows_read()),
            ));
        }
        Ok(out)
    }

    pub(super) fn append(&mut self, node: usize, body: Value) -> Result<(), ChainViolation> {
        let inputs = self.inputs();
        let text = body.to_string();
        let result = self.metered(node, "append", |stream| {
            stream.append_body(text.as_bytes(), Authority::Public, &inputs)
        })?;
        let outcome = result.map_err(|error| violation(R0, format!("append {body} to {}: {error}", PATHS[node])))?;
        let offsets: Vec<u64> = outcome.events.iter().map(|event| event.offset).collect();
        self.log(format!("append {} at {offsets:?}: {body}", PATHS[node]));
        Ok(())
    }

    pub(super) fn configure(&mut self, seed: u64) -> Result<(), ChainViolation> {
        let mut dice = SplitMix::new(seed ^ 0xC0F1);
        let retry = |attempts: u64| json!({"maxAttempts": attempts, "initialBackoffMs": 10, "maxBackoffMs": 40});
        let copy_filter = |condition: Option<&str>| {
            let mut filter = json!({"eventTypes": ["data", INVALIDATED]});
            if let Some(condition) = condition {
                filter["jsonataCondition"] = json!(condition);
            }
            filter
        };
        let ab_filter = if dice.percent(50) {
            copy_filter(None)
        } else {
            Value::Null
        };
        let bc_filter = copy_filter(BC_CONDITIONS[dice.below(3) as usize]);
        for (node, filter) in [(0, ab_filter), (1, bc_filter)] {
            let mut payload = json!({"subscriptionKey": if node == 0 { "ab" } else { "bc" },
                "receiver": {"action": "copy-to-stream", "receivingStreamPath": PATHS[node + 1],
                    "delivery": {"start": "beginning", "onFailingEvent": "halt", "retry": retry(12)}}});
            if !filter.is_null() {
                payload["filter"] = filter;
            }
            self.append(node, json!({"type": CONFIGURED, "payload": payload}))?;
        }
        // The receivers in the chain (a webhook on the origin is the
        // single-stream retraction simulation's, tests/engine_retraction.rs).
        for node in 1..3 {
            let mode = dice.pick(&["skip", "halt", "skip"]);
            let attempts = dice.between(1, 3);
            self.append(
                node,
                json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["data"]},
                "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:9/hook",
                    "delivery": {"start": "beginning", "onFailingEvent": mode, "retry": retry(attempts)}}}}),
            )?;
        }
        Ok(())
    }

    pub(super) fn data_events(&mut self, rng: &mut SplitMix) -> Vec<Value> {
        (0..rng.between(1, 3))
            .map(|_| {
                self.label += 1;
                json!({"type": "data", "payload": {"n": self.label}})
            })
            .collect()
    }

    pub(super) fn invalidation(&mut self, rng: &mut SplitMix) -> Result<Option<Value>, ChainViolation> {
        self.refresh(0)?;
        let data: Vec<u64> = self.logs[0]
            .iter()
            .filter(|event| event["type"] == "data")
            .map(offset)
            .collect();
        let Some(&last) = data.last() else {
            return Ok(None);
        };
        let payload = if rng.percent(50) {
            json!({"afterOffset": rng.below(last)})
        } else {
            let named: BTreeSet<u64> = (0..rng.between(1, 3))
                .map(|_| data[rng.below(data.len() as u64) as usize])
                .collect();
            json!({"offsets": named})
        };
        Ok(Some(json!({"type": INVALIDATED, "payload": payload})))
    }

    pub fn run_step(&mut self, index: usize, step: ChainStep) -> Result<(), ChainViolation> {
        self.step_index = index;
        self.stats.steps += 1;
        match step {
            ChainStep::Append { dice } => {
                let mut rng = SplitMix::new(dice);
                let mut events = Vec::new();
                // The item-5 shape: one batch [invalidation, later events].
                if rng.percent(25) {
                    events.extend(self.invalidation(&mut rng)?);
                }
                events.extend(self.data_events(&mut rng));
                self.append(0, json!({ "events": events }))
            }
            ChainStep::Invalidate { dice } => match self.invalidation(&mut SplitMix::new(dice))? {
                Some(event) => self.append(0, event),
                None => Ok(()),
            },
            ChainStep::Noise { dice } => {
                let node = 1 + SplitMix::new(dice).below(2) as usize;
                self.append(node, json!({"type": "noise"}))
            }
            ChainStep::Plan { dice } => self.plan(SplitMix::new(dice).below(3) as usize),
            ChainStep::Complete { dice } => self.complete_one(&mut SplitMix::new(dice)),
            ChainStep::Advance { dice } => self.advance(&mut SplitMix::new(dice)),
            ChainStep::Crash { dice } => self.crash(&mut SplitMix::new(dice)),
        }?;
        Ok(())
    }

    // ---- the shell ---------------------------------------------------------

    pub(super) fn plan(&mut self, node: usize) -> Result<(), ChainViolation> {
        let now = self.now;
        let turn = alarm_turn(&mut self.turns[node], now);
        if !turn.may_plan(now) {
            self.turns[node] = Some(turn);
            return Ok(());
        }
        let due = self.metered(node, "due_subscriptions", |stream| turn.due(stream, now));
        self.turns[node] = Some(turn);
        let due = due?.map_err(|error| violation(R0, format!("due_subscriptions: {error}")))?;
        for key in due {
            let entropy = self.rng.entropy();
            let mut turn = alarm_turn(&mut self.turns[node], now);
            let planned = self.metered(node, "plan_delivery", |stream| turn.plan(stream, &key, now, entropy));
            self.turns[node] = Some(turn);
            let plan = match planned?.map_err(|error| violation(R0, format!("plan_delivery: {error}")))? {
                Planned::Send(plan) => *plan,
                Planned::Nothing | Planned::Busy | Planned::WaitsForLogBudget => continue,
                Planned::OverBudget => break,
            };
            self.check_copy_batch(node, &plan)?;
            let id = self.next_id;
            self.next_id += 1;
            self.log(format!(
                "plan #{id} {} {} ({}..{}] events {:?}{}",
                PATHS[node],
                plan.subscription_key,
                plan.after_offset,
                plan.through_offset,
                plan.events.iter().map(|event| event.offset).collect::<Vec<_>>(),
                if plan.retraction.is_some() { " (retraction)" } else { "" }
            ));
            if let Some(failure) = plan.prepared_failure.clone() {
                self.finish(Send { id, node, plan }, failure)?;
            } else {
                self.outstanding.push(Send { id, node, plan });
            }
        }
        Ok(())
    }

    /// The receiver takes the batch: a copy is committed downstream, a
    /// webhook's receipts are recorded (and R1/R2 checked as they arrive).
    pub(super) fn deliver(&mut self, node: usize, plan: &DeliveryPlan) -> Result<Outcome, ChainViolation> {
        if let Receiver::CopyToStream { .. } = &plan.receiver {
            let batch = CopyBatch {
                stamp: plan.stamp.clone(),
                events: plan.events.iter().map(|event| event.body.tree().into_owned()).collect(),
            };
            let inputs = self.inputs();
            let target = node + 1;
            let result = self.metered(target, "accept_copies", |stream| stream.accept_copies(batch, &inputs))?;
            return Ok(match result {
                Ok(accepted) => {
                    self.stats.copies += accepted.appended.len() as u64;
                    Outcome::Delivered
                }
                Err(error) => classify_copy_status(error.status(), &error.to_string()),
            });
        }
        self.refresh(node)?;
        for event in &plan.events {
            let receipt = match &plan.retraction {
                Some(_) => Receipt::Retracted(event.offset, plan.delivery_id.clone()),
                None => Receipt::Event(event.offset),
            };
            self.receive(node, receipt)?;
        }
        Ok(Outcome::Delivered)
    }

    pub(super) fn receive(&mut self, node: usize, receipt: Receipt) -> Result<(), ChainViolation> {
        let path = PATHS[node];
        match &receipt {
            Receipt::Event(at) => self.check_retracted_before(node, *at)?,
            Receipt::Retracted(retracted, id) => {
                let named = self.logs[node]
                    .iter()
                    .any(|event| is_local_invalidation(event) && covers(&event["payload"], offset(event), *retracted));
                if !named {
                    return Err(violation(
                        R2,
                        format!(
                            "{path}'s webhook got a retraction of {retracted}, which no invalidation of {path} names"
                        ),
                    ));
                }
                let twice = self.receipts[node]
                    .iter()
                    .any(|earlier| matches!(earlier, Receipt::Retracted(o, other) if o == retracted && other != id));
                if twice {
                    return Err(violation(
                        R2,
                        format!("{path}'s webhook got a second retraction of {retracted} (another delivery id)"),
                    ));
                }
                self.stats.retractions += 1;
            }
        }
        self.log(format!("  {path} webhook receives {receipt:?}"));
        self.receipts[node].push(receipt);
        Ok(())
    }

    pub(super) fn finish(&mut self, send: Send, outcome: Outcome) -> Result<(), ChainViolation> {
        let entropy = self.rng.entropy();
        let now = self.now;
        let mut turn = alarm_turn(&mut self.turns[send.node], now);
        let completion = self.metered(send.node, "complete_delivery", |stream| {
            turn.complete(stream, &send.plan, outcome.clone(), now, entropy)
        });
        self.turns[send.node] = Some(turn);
        let completion = completion?.map_err(|error| violation(R0, format!("complete_delivery: {error}")))?;
        if send.plan.retraction.is_some() && matches!(completion, Completion::Skipped { .. }) {
            self.stats.dead_lettered_retractions += send.plan.events.len() as u64;
            self.dead_retractions[send.node].extend(send.plan.events.iter().map(|event| event.offset));
        }
        if matches!(completion, Completion::Halted { .. }) {
            self.stats.halts += 1;
        }
        self.log(format!(
            "complete #{} {} {}: {outcome:?} -> {completion:?}",
            send.id, PATHS[send.node], send.plan.subscription_key
        ));
        Ok(())
    }

    pub(super) fn complete_one(&mut self, rng: &mut SplitMix) -> Result<(), ChainViolation> {
        if self.outstanding.is_empty() {
            return Ok(());
        }
        let send = self
            .outstanding
            .remove(rng.below(self.outstanding.len() as u64) as usize);
        let copying = matches!(send.plan.receiver, Receiver::CopyToStream { .. });
        // Retractions are refused more often, so skip mode dead-letters some.
        let refused = send.plan.retraction.is_some() && rng.percent(15);
        let outcome = match if refused { 19 } else { rng.below(20) } {
            0..=9 => self.deliver(send.node, &send.plan)?,
            10..=12 => Outcome::transient("HTTP 503"),
            13..=15 => {
                // The answer is lost: the receiver took it.
                self.deliver(send.node, &send.plan)?;
                Outcome::transient("connection reset")
            }
            _ if copying => Outcome::transient("HTTP 503"),
            _ => Outcome::permanent("HTTP 400"),
        };
        self.finish(send, outcome)
    }

    pub(super) fn next_due(&mut self) -> Result<Option<i64>, ChainViolation> {
        let mut next: Option<i64> = None;
        for node in 0..3 {
            let due = self
                .metered(node, "next_due_at", |stream| stream.next_due_at())?
                .map_err(|error| violation(R0, format!("next_due_at: {error}")))?;
            if let Some(at) = due {
                next = Some(next.map_or(at, |next| next.min(at)));
            }
        }
        Ok(next)
    }

    pub(super) fn advance(&mut self, rng: &mut SplitMix) -> Result<(), ChainViolation> {
        let target = match rng.below(10) {
            0..=3 => self.now + rng.between(1, 50) as i64,
            4..=7 => self.next_due()?.map_or(self.now + 10, |at| at.max(self.now)),
            _ => self.now + 40_000,
        };
        // A send times out before the engine's in-flight deadline: the shell
        // completes it first.
        let (expired, live): (Vec<Send>, Vec<Send>) = std::mem::take(&mut self.outstanding)
            .into_iter()
            .partition(|send| send.plan.started_at_ms + send.plan.timeout_ms as i64 <= target);
        self.outstanding = live;
        for send in expired {
            self.finish(send, Outcome::transient("timed out"))?;
        }
        self.now = target;
        self.log("advance");
        Ok(())
    }

    pub(super) fn crash(&mut self, rng: &mut SplitMix) -> Result<(), ChainViolation> {
        let node = rng.below(3) as usize;
        for send in std::mem::take(&mut self.outstanding) {
            if send.node != node {
                self.outstanding.push(send);
            } else if rng.percent(50) {
                // Landed before the crash; its result is never heard.
                self.deliver(node, &send.plan)?;
            }
        }
        self.streams[node] =
            open(&self.uris[node], PATHS[node]).map_err(|error| violation(R0, format!("reopen: {error}")))?;
        self.turns[node] = None;
        self.stats.crashes += 1;
        self.log(format!("CRASH {}", PATHS[node]));
        Ok(())
    }

    /// Reads what `node` committed since the last read.
    pub(super) fn refresh(&mut self, node: usize) -> Result<(), ChainViolation> {
        let after = self.logs[node].last().map_or(0, offset);
        let query = RangeQuery {
            after,
            from_earliest: false,
            limit: 1000,
            include_ephemeral: true,
        };
        let read = self
            .metered(node, "read_range", |stream| stream.read_range(&query))?
            .map_err(|error| violation(R0, format!("read_range: {error}")))?;
        let events = serde_json::to_value(&read.events).unwrap_or(Value::Null);
        self.logs[node].extend(events.as_array().cloned().unwrap_or_default());
        Ok(())
    }

    // ---- the end -------------------------------------------------------------

    /// The drain's send: delivered, except that a webhook refuses one
    /// retraction in ten (a skip-mode subscription dead-letters it and goes
    /// on, a halt-mode one halts: either way the chain comes to rest).
    fn drain_one(&mut self, send: Send) -> Result<(), ChainViolation> {
        let outcome = if send.plan.retraction.is_some() && self.rng.percent(10) {
            Outcome::permanent("HTTP 400")
        } else {
            self.deliver(send.node, &send.plan)?
        };
        self.finish(send, outcome)
    }

    /// Every outstanding send completes, then everything due is sent until
    /// nothing is.
    pub fn drain(&mut self) -> Result<(), ChainViolation> {
        self.step_index += 1;
        self.log("DRAIN");
        while !self.outstanding.is_empty() {
            let send = self.outstanding.remove(0);
            self.drain_one(send)?;
        }
        for _ in 0..DRAIN_ROUNDS {
            let Some(at) = self.next_due()? else {
                return self.check_final();
            };
            self.now = self.now.max(at);
            for node in 0..3 {
                // Each round is one alarm per stream: nothing is in flight between rounds.
                self.turns[node] = Some(Turn::begin(self.now));
                self.plan(node)?;
                while let Some(position) = self.outstanding.iter().position(|send| send.node == node) {
                    let send = self.outstanding.remove(position);
                    self.drain_one(send)?;
                }
            }
        }
        Err(violation(R4, format!("still due after {DRAIN_ROUNDS} drain rounds")))
    }
}
