//! One alarm's delivery turn (DESIGN.md §6 rules 9, 10; §12): which due
//! subscriptions to plan now, what each send costs against the turn's
//! subrequest budget, when to give other requests the object (a yield), when
//! to stop planning and when the turn is over. The shell's alarm performs
//! the sends and hands each outcome back in whatever order it arrives; the
//! interleaving simulation drives this very type with a fake clock and fake
//! receivers (tests/sim/world.rs).
//!
//! Subscriptions are independent: each has at most one send in flight, and
//! the moment one completes its next batch may be planned, so a slow or hung
//! receiver (bounded by its own deadline) never holds back another.

use super::{Completion, DeliveryPlan, Outcome};
use crate::limits::{
    ALARM_TURN_MS, ALARM_YIELD_EVERY_MS, MAX_ALARM_COMPLETIONS, MAX_ALARM_SUBREQUESTS, PROCESSOR_DELIVERY_SUBREQUESTS,
    SEND_SUBREQUESTS,
};
use crate::storage::{Storage, StorageError};
use crate::stream::Stream;
use crate::subscription::Receiver;
use std::collections::{BTreeMap, BTreeSet};

/// Subrequests one send to `receiver` makes (§12): a processor wake is a
/// definition read, a wake and a fold; everything else one request.
pub fn send_cost(receiver: &Receiver) -> u32 {
    match receiver {
        Receiver::ProcessorWake { .. } => PROCESSOR_DELIVERY_SUBREQUESTS,
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
}

/// One alarm invocation's bookkeeping. Created when the alarm starts, fed
/// every completion, dropped when the alarm returns (or the object dies).
#[derive(Debug, Clone)]
pub struct Turn {
    ends_at_ms: i64,
    subrequests_left: u32,
    completions: u32,
    last_yield_ms: i64,
    /// Subscription key → (delivery id, attempt) of its send in flight: a
    /// completion frees its key only if it is that key's current send (a
    /// late result of an earlier attempt does not).
    in_flight: BTreeMap<String, (String, u64)>,
    /// Keys whose send was planned before the turn's end and still runs:
    /// the turn waits for them anyway, so healthy subscriptions keep being
    /// planned meanwhile instead of stalling behind a slow receiver.
    started_in_turn: BTreeSet<String>,
}

impl Turn {
    pub fn begin(now_ms: i64) -> Turn {
        Turn {
            ends_at_ms: now_ms.saturating_add(ALARM_TURN_MS),
            subrequests_left: MAX_ALARM_SUBREQUESTS,
            completions: 0,
            last_yield_ms: now_ms,
            in_flight: BTreeMap::new(),
            started_in_turn: BTreeSet::new(),
        }
    }

    /// Whether new sends may be planned at `now_ms`: inside the turn's time,
    /// or while sends started inside it still run; never once the turn
    /// completed [`MAX_ALARM_COMPLETIONS`] (the alarm re-arms for the rest).
    pub fn may_plan(&self, now_ms: i64) -> bool {
        self.completions < MAX_ALARM_COMPLETIONS && (now_ms < self.ends_at_ms || !self.started_in_turn.is_empty())
    }

    /// Whether `key` has a send in flight in this turn.
    pub fn is_busy(&self, key: &str) -> bool {
        self.in_flight.contains_key(key)
    }

    /// Sends planned and not yet completed.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Due keys with nothing in flight, in the order the engine gives them.
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
        if self.is_busy(key) {
            return Ok(Planned::Busy);
        }
        let cost = stream
            .state()
            .subscriptions
            .outbound
            .by_key
            .get(key)
            .and_then(|subscription| subscription.configuration.valid())
            .map_or(SEND_SUBREQUESTS, |configuration| send_cost(&configuration.receiver));
        if cost > self.subrequests_left {
            return Ok(Planned::OverBudget);
        }
        let Some(plan) = stream.plan_delivery(key, now_ms, entropy)? else {
            return Ok(Planned::Nothing);
        };
        if plan.prepared_failure.is_none() {
            self.subrequests_left -= cost;
        }
        self.in_flight
            .insert(key.to_owned(), (plan.delivery_id.clone(), plan.attempt));
        if now_ms < self.ends_at_ms {
            self.started_in_turn.insert(key.to_owned());
        }
        Ok(Planned::Send(Box::new(plan)))
    }

    /// Plans every due subscription that has nothing in flight, while the
    /// budget lasts (one entropy for the call: delivery ids also carry the key).
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
        for key in self.due(stream, now_ms)? {
            match self.plan(stream, &key, now_ms, entropy)? {
                Planned::Send(plan) => plans.push(*plan),
                Planned::Nothing | Planned::Busy => {}
                Planned::OverBudget => break,
            }
        }
        Ok(plans)
    }

    /// Whether the shell should yield to waiting requests (appends, reads,
    /// live tails) before taking the next completion: every
    /// [`ALARM_YIELD_EVERY_MS`], so a long catch-up never starves them.
    pub fn should_yield(&self, now_ms: i64) -> bool {
        now_ms - self.last_yield_ms >= ALARM_YIELD_EVERY_MS
    }

    /// The shell yielded at `now_ms`.
    pub fn yielded(&mut self, now_ms: i64) {
        self.last_yield_ms = now_ms;
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
        let current = self
            .in_flight
            .get(key)
            .is_some_and(|(id, attempt)| *id == plan.delivery_id && *attempt == plan.attempt);
        if current {
            self.in_flight.remove(key);
            self.started_in_turn.remove(key);
        }
        self.completions = self.completions.saturating_add(1);
        stream.complete_delivery(plan, outcome, now_ms, entropy)
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
        turn.started_in_turn.insert("slow".to_owned());
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
    fn processor_wakes_cost_three_subrequests() {
        let wake = Receiver::ProcessorWake {
            expression: serde_json::json!(["processors", "p", "wake"]),
        };
        assert_eq!(send_cost(&wake), PROCESSOR_DELIVERY_SUBREQUESTS);
    }
}
