//! Gates in the simulation (docs/design.md §13 Gates): webhook-post and itx-call
//! subscriptions now and then carry a threshold or maxOnce gate, and the
//! invariant "nothing passes silently" (§6 rule 11) gets its gate form: a
//! gate may discard only a hit it never tried to deliver. Every offset a
//! gated plan carries to the network is recorded per run; once the cursor
//! has passed such an offset it must have been delivered, dead-lettered or
//! covered by a halt — or, for a threshold gate, still be held (its digest
//! is awaiting a retry or in flight).
//!
//! A threshold digest carries held hits the cursor already passed (held
//! hits do not hold the cursor, §13), so plan and receipt checks accept a
//! gated threshold plan's events at or below its `after_offset`.

use super::rng::SplitMix;
use super::storage::Counting;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use tributary::delivery::DeliveryPlan;
use tributary::storage::{Columns, Storage};
use tributary::subscription::Gate;

/// (streamId, subscriptionKey, run offset): a delivery run (§6 rule 7).
pub type Run = (String, String, u64);

/// Gives a webhook-post or itx-call delivery a gate now and then: maxOnce
/// with any policy, threshold only without aggregate (422 otherwise).
pub fn maybe_gate(delivery: &mut Value, rng: &mut SplitMix) {
    if !rng.percent(35) {
        return;
    }
    if !delivery["aggregate"].is_object() && rng.percent(50) {
        delivery["gate"] = json!({"threshold": {"count": rng.between(2, 3),
            "windowMs": rng.pick(&[300u64, 2_000, 20_000])}});
    } else {
        delivery["gate"] = json!({"maxOnce": {"windowMs": rng.pick(&[100u64, 1_000, 10_000])}});
    }
}

pub fn gate_of(plan: &DeliveryPlan) -> Option<Gate> {
    plan.receiver.delivery().and_then(|delivery| delivery.gate)
}

/// Whether a plan is a threshold gate's digest (its events may lie at or
/// below its `after_offset`).
pub fn is_threshold(plan: &DeliveryPlan) -> bool {
    matches!(gate_of(plan), Some(Gate::Threshold { .. }))
}

pub fn configured_gate(configuration: &Value) -> Option<&'static str> {
    let gate = &configuration["receiver"]["delivery"]["gate"];
    if gate["threshold"].is_object() {
        Some("threshold")
    } else if gate["maxOnce"].is_object() {
        Some("maxOnce")
    } else {
        None
    }
}

/// What each run's gate tried to deliver.
#[derive(Debug, Default)]
pub struct Ledger {
    attempted: BTreeMap<Run, BTreeSet<u64>>,
}

impl Ledger {
    /// Records a fresh plan: its events go to the network unless it carries
    /// a prepared failure.
    pub fn record(&mut self, plan: &DeliveryPlan) {
        if gate_of(plan).is_none() {
            return;
        }
        if plan.prepared_failure.is_some() || plan.retraction.is_some() {
            return;
        }
        let run = (
            plan.stamp.stream_id.clone(),
            plan.subscription_key.clone(),
            plan.stamp.cursor_changed_at_source_offset,
        );
        self.attempted
            .entry(run)
            .or_default()
            .extend(plan.events.iter().map(|event| event.offset));
    }

    /// Why the cursor may have passed `offset` of a gated subscription
    /// although it was neither delivered, dead-lettered nor halted on, or
    /// `Err` with what went wrong.
    pub fn passed_quietly(
        &self,
        storage: &Counting,
        run: &Run,
        gate: &str,
        offset: u64,
    ) -> Result<&'static str, String> {
        if !self.attempted.get(run).is_some_and(|tried| tried.contains(&offset)) {
            return Ok(match gate {
                "threshold" => "held, dropped from the window, or never minted",
                _ => "discarded by the maxOnce window",
            });
        }
        if gate == "threshold" && held(storage, &run.1)?.contains(&offset) {
            return Ok("held in a digest awaiting its outcome");
        }
        Err(format!(
            "the {gate} gate tried to deliver offset {offset}, then the cursor passed it without a delivery, \
             dead letter or halt (a gate may discard only a hit it never tried to deliver)"
        ))
    }
}

/// The offsets `key`'s threshold gate holds, read from the engine's table.
fn held(storage: &Counting, key: &str) -> Result<BTreeSet<u64>, String> {
    // An observation, not an engine call: it is not metered.
    storage.begin_call();
    let sql = "SELECT event_offset FROM gate_hits WHERE subscription_key = ? LIMIT 10000";
    let rows = storage.query(sql, &[key.into()]).map_err(|error| error.to_string())?;
    rows.iter()
        .map(|row| {
            Columns { query: sql, row }
                .int(0)
                .map(|offset| offset.max(0) as u64)
                .map_err(|error| error.to_string())
        })
        .collect()
}
