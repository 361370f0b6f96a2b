//! One alarm's delivery turn (docs/design.md §6 rules 9, 10; §12): which due
//! subscriptions to plan now, what each send costs against the turn's
//! subrequest budget and its invocation's log budget, when to give other
//! requests the object (a yield, after a count of work, not a clock), when
//! to stop planning and when the turn is over. The shell's alarm performs
//! the sends and hands each outcome back in whatever order it arrives; the
//! interleaving simulation drives this very type with a fake clock and fake
//! receivers (tests/sim/world.rs).
//!
//! Subscriptions are independent: each has at most one send in flight (a
//! concurrent one, §8 `concurrency`, up to its `concurrency`), and the
//! moment one completes its next batch may be planned, so a slow or hung
//! receiver (bounded by its own deadline) never holds back another.

use super::{log_lines, Completion, DeliveryPlan, Outcome, Planning};
use crate::limits::{
    ALARM_TURN_MS, ALARM_YIELD_EVERY_COMPLETIONS, ALARM_YIELD_EVERY_MS, ALARM_YIELD_EVERY_ROWS, INVOCATION_LOG_BYTES,
    MAX_ALARM_COMPLETIONS, MAX_ALARM_SUBREQUESTS, MAX_DELIVERY_CONCURRENCY, PROCESSOR_DELIVERY_SUBREQUESTS,
    SEND_SUBREQUESTS, TRIM_STEPS_PER_TURN,
};
use crate::storage::{Storage, StorageError};
use crate::stream::Stream;
use crate::subscription::{Configuration, Receiver};
use std::collections::{BTreeMap, BTreeSet};

/// Subrequests one send to `receiver` makes (§12): a processor wake is a
/// definition read, a wake and a fold; a webhook naming secrets resolves
/// them first (§9); everything else one request.
pub fn send_cost(receiver: &Receiver) -> u32 {
    match receiver {
        Receiver::ProcessorWake { .. } => PROCESSOR_DELIVERY_SUBREQUESTS,
        Receiver::WebhookPost { .. } if !crate::secrets::references(receiver).is_empty() => {
            crate::limits::SECRET_WEBHOOK_SUBREQUESTS
        }
        _ => SEND_SUBREQUESTS,
    }
}

/// What [`Turn::plan`] made of one due key.
#[derive(Debug)]
pub enum Planned {
    /// Send this (or, with a prepared failure, complete it at once).
    Send(Box<DeliveryPlan>),
    /// Nothing to send for this key now (it may have expired a lost send).
    Nothing,
    /// The key already has a send in flight in this turn.
    Busy,
    /// The turn's subrequest budget cannot pay for this send: plan no more.
    OverBudget,
    /// The key's next log line does not fit in what this invocation may
    /// still log (§12 "log receiver"): it waits for the next alarm, a new
    /// invocation, which the due work re-arms at once.
    WaitsForLogBudget,
}

/// One send of this turn still in flight.
#[derive(Debug, Clone)]
struct Sending {
    delivery_id: String,
    attempt: u64,
    /// The send's lease (§6 rule 7): a dead instance's send of the same
    /// range and attempt number has another.
    lease: u64,
    /// Planned before the turn's end: the turn waits for it anyway, so
    /// healthy subscriptions keep being planned meanwhile instead of
    /// stalling behind a slow receiver.
    started_in_turn: bool,
}

/// One subscription's sends in flight in this turn.
#[derive(Debug, Clone)]
struct KeySends {
    /// How many it may have in flight at once (§8 `concurrency`).
    capacity: usize,
    sends: Vec<Sending>,
}

/// One alarm invocation's bookkeeping. Created when the alarm starts, fed
/// every completion, dropped when the alarm returns (or the object dies).
#[derive(Debug, Clone)]
pub struct Turn {
    ends_at_ms: i64,
    subrequests_left: u32,
    completions: u32,
    last_yield_ms: i64,
    /// Work since the last yield (§12 "one alarm turn's synchronous work"):
    /// completions taken, and offsets the plans made covered.
    completions_since_yield: u32,
    rows_since_yield: u64,
    /// What this invocation may still write to its log (§12 "log
    /// receiver"): log batches and the shell's own lines are charged.
    log_bytes_left: usize,
    /// Log subscriptions whose next line waits for the next invocation.
    waiting_for_log: BTreeSet<String>,
    /// Subscription key → its sends in flight, by (delivery id, attempt,
    /// lease): a completion frees its place only if it is one of them (a
    /// late result of an earlier attempt, or of a dead instance's send of
    /// the same range, does not).
    in_flight: BTreeMap<String, KeySends>,
    /// Retention's trim steps (§16) run once, before the turn's first plan.
    trimmed: bool,
    /// What they did, for the shell's log.
    trim_steps: Vec<crate::retention::trim::TrimStep>,
}

/// How many sends `configuration` may have in flight at once (§8).
fn capacity(configuration: Option<&Configuration>) -> usize {
    configuration
        .and_then(|configuration| configuration.receiver.delivery())
        .map_or(1, |delivery| delivery.concurrency())
        .clamp(1, MAX_DELIVERY_CONCURRENCY) as usize
}

impl Turn {
    pub fn begin(now_ms: i64) -> Turn {
        Turn {
            ends_at_ms: now_ms.saturating_add(ALARM_TURN_MS),
            subrequests_left: MAX_ALARM_SUBREQUESTS,
            completions: 0,
            last_yield_ms: now_ms,
            completions_since_yield: 0,
            rows_since_yield: 0,
            log_bytes_left: INVOCATION_LOG_BYTES,
            waiting_for_log: BTreeSet::new(),
            in_flight: BTreeMap::new(),
            trimmed: false,
            trim_steps: Vec::new(),
        }
    }

    /// The turn's retention work (§16, §12): when a trim step is due, at
    /// most [`TRIM_STEPS_PER_TURN`] of them, before anything is planned (a
    /// `trimmed` fact precedes any send that would follow its pass). Runs
    /// once per turn; the rest is due again at once.
    pub fn trim<S: Storage>(
        &mut self,
        stream: &mut Stream<S>,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<(), StorageError> {
        if std::mem::replace(&mut self.trimmed, true) || !stream.trim_due(now_ms)? {
            return Ok(());
        }
        for _step in 0..TRIM_STEPS_PER_TURN {
            // A failed step is logged and retried next round; it never
            // stops the turn's deliveries (§16, §6 rule 10).
            let step = match stream.trim_step(now_ms, entropy) {
                Ok(step) => step,
                Err(error) => {
                    stream.trim_failed(now_ms);
                    self.trim_steps.push(crate::retention::trim::TrimStep {
                        error: Some(error.to_string()),
                        ..Default::default()
                    });
                    break;
                }
            };
            let more = step.more;
            if step.trimmed > 0 || step.expired > 0 || !step.passed.is_empty() {
                self.trim_steps.push(step);
            }
            if !more {
                break;
            }
        }
        Ok(())
    }

    /// The trim steps that did something this turn (for the log), once.
    pub fn take_trim_steps(&mut self) -> Vec<crate::retention::trim::TrimStep> {
        std::mem::take(&mut self.trim_steps)
    }

    /// Whether new sends may be planned at `now_ms`: inside the turn's time,
    /// or while sends started inside it still run; never once the turn
    /// completed [`MAX_ALARM_COMPLETIONS`] (the alarm re-arms for the rest).
    pub fn may_plan(&self, now_ms: i64) -> bool {
        self.completions < MAX_ALARM_COMPLETIONS && (now_ms < self.ends_at_ms || self.started_sends_run())
    }

    /// Whether a send planned before the turn's end still runs.
    fn started_sends_run(&self) -> bool {
        self.in_flight
            .values()
            .any(|key| key.sends.iter().any(|send| send.started_in_turn))
    }

    /// Whether `key` has as many sends in flight in this turn as it may
    /// have (one, or its `concurrency`), or its next log line waits for the
    /// next invocation.
    pub fn is_busy(&self, key: &str) -> bool {
        self.waiting_for_log.contains(key)
            || self
                .in_flight
                .get(key)
                .is_some_and(|key| key.sends.len() >= key.capacity)
    }

    /// What this invocation may still write to its log (§12).
    pub fn log_bytes_left(&self) -> usize {
        self.log_bytes_left
    }

    /// The shell wrote `line` to the invocation's log (a structured log of
    /// its turn, §11): it takes its share of the log budget (§12).
    pub fn logged(&mut self, line: &str) {
        self.log_bytes_left = self.log_bytes_left.saturating_sub(log_lines::cost(line));
    }

    /// Whether the turn's budget has a subrequest left for the shell's own
    /// call (a fork's inherited page, §18).
    pub fn has_subrequest(&self) -> bool {
        self.subrequests_left > 0
    }

    /// The shell made one such call.
    pub fn charge_subrequest(&mut self) {
        self.subrequests_left = self.subrequests_left.saturating_sub(1);
    }

    /// Sends planned and not yet completed.
    pub fn in_flight(&self) -> usize {
        self.in_flight.values().map(|key| key.sends.len()).sum()
    }

    /// Due keys that may plan another send, in the order the engine gives them.
    pub fn due<S: Storage>(&self, stream: &Stream<S>, now_ms: i64) -> Result<Vec<String>, StorageError> {
        Ok(stream
            .due_subscriptions(now_ms)?
            .into_iter()
            .filter(|key| !self.is_busy(key))
            .collect())
    }

    /// Plans the next batch of `key`, charging its send to the budget.
    pub fn plan<S: Storage>(
        &mut self,
        stream: &mut Stream<S>,
        key: &str,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Planned, StorageError> {
        if self.waiting_for_log.contains(key) {
            return Ok(Planned::WaitsForLogBudget);
        }
        if self.is_busy(key) {
            return Ok(Planned::Busy);
        }
        let configuration = stream
            .state()
            .subscriptions
            .outbound
            .by_key
            .get(key)
            .and_then(|subscription| subscription.configuration.valid());
        let cost = configuration.map_or(SEND_SUBREQUESTS, |configuration| send_cost(&configuration.receiver));
        let capacity = capacity(configuration);
        if cost > self.subrequests_left {
            return Ok(Planned::OverBudget);
        }
        let plan = match stream.plan_delivery_within(key, now_ms, entropy, self.log_bytes_left)? {
            Planning::Send(plan) => plan,
            Planning::Nothing => return Ok(Planned::Nothing),
            Planning::WaitsForLogBudget => {
                self.waiting_for_log.insert(key.to_owned());
                return Ok(Planned::WaitsForLogBudget);
            }
        };
        self.rows_since_yield = self
            .rows_since_yield
            .saturating_add(plan.through_offset.saturating_sub(plan.after_offset));
        if plan.prepared_failure.is_none() {
            self.subrequests_left -= cost;
            if matches!(plan.receiver, Receiver::Log { .. }) {
                // The shell writes these lines at once (§15.1).
                self.log_bytes_left = self.log_bytes_left.saturating_sub(log_lines::cost_of(&plan));
            }
        }
        let sends = self.in_flight.entry(key.to_owned()).or_insert(KeySends {
            capacity,
            sends: Vec::new(),
        });
        sends.capacity = capacity;
        sends.sends.push(Sending {
            delivery_id: plan.delivery_id.clone(),
            attempt: plan.attempt,
            lease: plan.lease,
            started_in_turn: now_ms < self.ends_at_ms,
        });
        Ok(Planned::Send(plan))
    }

    /// Plans every due subscription that may send, while the budget lasts:
    /// one send each, a concurrent one (§8) up to its free places (one
    /// entropy for the call: delivery ids also carry the key and offsets).
    pub fn plan_due<S: Storage>(
        &mut self,
        stream: &mut Stream<S>,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Vec<DeliveryPlan>, StorageError> {
        let mut plans = Vec::new();
        if !self.may_plan(now_ms) {
            return Ok(plans);
        }
        self.trim(stream, now_ms, entropy)?;
        // Scans at the same cursor share the page the first one read.
        stream.sharing_reads(|stream| {
            for key in self.due(stream, now_ms)? {
                // Each send fills a place of the key: at most its capacity.
                for _place in 0..MAX_DELIVERY_CONCURRENCY {
                    match self.plan(stream, &key, now_ms, entropy)? {
                        Planned::Send(plan) => plans.push(*plan),
                        Planned::Nothing | Planned::Busy | Planned::WaitsForLogBudget => break,
                        Planned::OverBudget => return Ok(plans),
                    }
                    if self.is_busy(&key) {
                        break;
                    }
                }
            }
            Ok(plans)
        })
    }

    /// Whether the shell should yield to waiting requests (appends, reads,
    /// live tails) before taking the next completion, so a long catch-up
    /// never starves them: after [`ALARM_YIELD_EVERY_COMPLETIONS`]
    /// completions or plans covering [`ALARM_YIELD_EVERY_ROWS`] offsets —
    /// counts, for completions that need no I/O leave the Workers clock
    /// where it was (§12) — or every [`ALARM_YIELD_EVERY_MS`] of a clock
    /// that I/O moved.
    pub fn should_yield(&self, now_ms: i64) -> bool {
        self.completions_since_yield >= ALARM_YIELD_EVERY_COMPLETIONS
            || self.rows_since_yield >= ALARM_YIELD_EVERY_ROWS
            || now_ms - self.last_yield_ms >= ALARM_YIELD_EVERY_MS
    }

    /// The shell yielded at `now_ms`.
    pub fn yielded(&mut self, now_ms: i64) {
        self.last_yield_ms = now_ms;
        self.completions_since_yield = 0;
        self.rows_since_yield = 0;
    }

    /// Takes the outcome of `plan`'s send (any order; a completion of a send
    /// this turn did not plan, or of an older run, is the engine's to judge).
    pub fn complete<S: Storage>(
        &mut self,
        stream: &mut Stream<S>,
        plan: &DeliveryPlan,
        outcome: Outcome,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<Completion, StorageError> {
        let key = plan.subscription_key.as_str();
        if let Some(sends) = self.in_flight.get_mut(key) {
            let current = sends.sends.iter().position(|send| {
                send.delivery_id == plan.delivery_id && send.attempt == plan.attempt && send.lease == plan.lease
            });
            if let Some(index) = current {
                sends.sends.swap_remove(index);
            }
            if sends.sends.is_empty() {
                self.in_flight.remove(key);
            }
        }
        self.completions = self.completions.saturating_add(1);
        self.completions_since_yield = self.completions_since_yield.saturating_add(1);
        let completion = stream.complete_delivery(plan, outcome, now_ms, entropy)?;
        if stream.state.subscriptions.outbound.by_key.contains_key(key) {
            stream.memory.of(key).stats.outcomes.record(&completion);
        }
        Ok(completion)
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_plans_until_its_time_ends_unless_its_own_sends_still_run() {
        let mut turn = Turn::begin(1_000);
        assert!(turn.may_plan(1_000));
        assert!(!turn.may_plan(1_000 + ALARM_TURN_MS));
        turn.in_flight.insert(
            "slow".to_owned(),
            KeySends {
                capacity: 1,
                sends: vec![Sending {
                    delivery_id: "dlv".to_owned(),
                    attempt: 1,
                    lease: 1,
                    started_in_turn: true,
                }],
            },
        );
        assert!(turn.may_plan(1_000 + ALARM_TURN_MS + 5_000));
    }

    #[test]
    fn a_turn_stops_planning_after_its_completion_budget() {
        let mut turn = Turn::begin(0);
        turn.completions = MAX_ALARM_COMPLETIONS;
        assert!(!turn.may_plan(0));
    }

    #[test]
    fn yields_come_every_interval() {
        let mut turn = Turn::begin(0);
        assert!(!turn.should_yield(ALARM_YIELD_EVERY_MS - 1));
        assert!(turn.should_yield(ALARM_YIELD_EVERY_MS));
        turn.yielded(ALARM_YIELD_EVERY_MS);
        assert!(!turn.should_yield(ALARM_YIELD_EVERY_MS + 1));
    }

    #[test]
    fn yields_come_after_a_count_of_work_whatever_the_clock() {
        let mut turn = Turn::begin(0);
        turn.completions_since_yield = ALARM_YIELD_EVERY_COMPLETIONS - 1;
        assert!(!turn.should_yield(0));
        turn.completions_since_yield += 1;
        assert!(turn.should_yield(0), "the clock did not move");
        turn.yielded(0);
        assert!(!turn.should_yield(0));
        turn.rows_since_yield = ALARM_YIELD_EVERY_ROWS;
        assert!(turn.should_yield(0));
    }

    #[test]
    fn the_shells_own_lines_take_their_share_of_the_log_budget() {
        let mut turn = Turn::begin(0);
        let line = r#"{"event":"delivery_halted","error":"a \"quoted\" reason"}"#;
        turn.logged(line);
        let as_logged = serde_json::to_string(line).unwrap().len();
        assert_eq!(turn.log_bytes_left(), INVOCATION_LOG_BYTES - as_logged);
        turn.logged(&"x".repeat(INVOCATION_LOG_BYTES));
        assert_eq!(turn.log_bytes_left(), 0);
    }

    #[test]
    fn processor_wakes_cost_three_subrequests() {
        let wake = Receiver::ProcessorWake {
            expression: serde_json::json!(["processors", "p", "wake"]),
        };
        assert_eq!(send_cost(&wake), PROCESSOR_DELIVERY_SUBREQUESTS);
    }
}
