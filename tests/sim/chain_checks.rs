//! The copy-chain simulation's invariants (see `chain.rs`): R1 retractions
//! first, R2 the right copies once, R3 order at the receiver — judged from
//! the webhooks' receipts and the streams' logs in plain Rust, never by
//! asking the engine what it meant to do.

use super::chain::{
    chain, covers, is_copied_invalidation, is_local_invalidation, offset, violation, ChainSim, ChainViolation, Receipt,
    INVALIDATED, PATHS, R1, R2, R3,
};
use serde_json::Value;
use std::collections::BTreeSet;
use tributary::delivery::DeliveryPlan;
use tributary::subscription::Receiver;

impl ChainSim {
    /// R3, source side: a copy batch carries an invalidation only last.
    pub(super) fn check_copy_batch(&self, node: usize, plan: &DeliveryPlan) -> Result<(), ChainViolation> {
        if !matches!(plan.receiver, Receiver::CopyToStream { .. }) {
            return Ok(());
        }
        let last = plan.events.len().saturating_sub(1);
        if let Some(index) = plan
            .events
            .iter()
            .position(|event| event.body.tree()["type"] == INVALIDATED)
            .filter(|index| *index < last)
        {
            return Err(violation(
                R3,
                format!(
                    "{} {}: copy batch {:?} carries an invalidation at position {index} of {}",
                    PATHS[node],
                    plan.subscription_key,
                    plan.events.iter().map(|event| event.offset).collect::<Vec<_>>(),
                    plan.events.len()
                ),
            ));
        }
        Ok(())
    }

    /// R1: before `node`'s webhook receives anything at `at`, every event it
    /// received that a local invalidation below `at` names was retracted.
    pub(super) fn check_retracted_before(&self, node: usize, at: u64) -> Result<(), ChainViolation> {
        let received: BTreeSet<u64> = self.receipts[node]
            .iter()
            .filter_map(|receipt| match receipt {
                Receipt::Event(offset) => Some(*offset),
                Receipt::Retracted(..) => None,
            })
            .collect();
        let retracted: BTreeSet<u64> = self.receipts[node]
            .iter()
            .filter_map(|receipt| match receipt {
                Receipt::Retracted(offset, _) => Some(*offset),
                Receipt::Event(_) => None,
            })
            .chain(self.dead_retractions[node].iter().copied())
            .collect();
        for invalidation in self.logs[node]
            .iter()
            .filter(|event| is_local_invalidation(event) && offset(event) < at)
        {
            let invalidated_at = offset(invalidation);
            if let Some(missing) = received.iter().find(|offset| {
                covers(&invalidation["payload"], invalidated_at, **offset) && !retracted.contains(offset)
            }) {
                return Err(violation(
                    R1,
                    format!(
                        "{}'s webhook got offset {at} while its delivery of {missing}, invalidated at {invalidated_at}, \
                         was never retracted",
                        PATHS[node]
                    ),
                ));
            }
        }
        Ok(())
    }

    /// R3, receiver side: each copied invalidation's derived invalidations
    /// take the offsets right after it.
    pub(super) fn check_order_at_receivers(&mut self) -> Result<(), ChainViolation> {
        for (node, path) in PATHS.iter().enumerate().skip(1) {
            self.refresh(node)?;
            let log = &self.logs[node];
            for (index, copied) in log
                .iter()
                .enumerate()
                .filter(|(_, event)| is_copied_invalidation(event))
            {
                let prefix = format!(
                    "invalidated-copies:{}:",
                    copied["idempotencyKey"].as_str().unwrap_or("?")
                );
                let derived: Vec<usize> = log
                    .iter()
                    .enumerate()
                    .filter(|(_, event)| {
                        is_local_invalidation(event)
                            && event["idempotencyKey"]
                                .as_str()
                                .is_some_and(|key| key.starts_with(&prefix))
                    })
                    .map(|(position, _)| position)
                    .collect();
                let expected: Vec<usize> = (index + 1..index + 1 + derived.len()).collect();
                if derived != expected {
                    return Err(violation(
                        R3,
                        format!(
                            "on {} the copied invalidation at {} has derived ones at log positions {derived:?}, \
                             not right after it",
                            path,
                            offset(copied)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    pub(super) fn check_final(&mut self) -> Result<(), ChainViolation> {
        // The logs never change: where the derived invalidations sit is
        // checked once, over everything committed.
        self.check_order_at_receivers()?;
        self.refresh(0)?;
        for node in 1..3 {
            self.refresh(node)?;
            let halted = self.streams[node]
                .state()
                .subscriptions
                .outbound
                .by_key
                .get("hook")
                .is_some_and(|hook| hook.delivery_halted.is_some());
            if !halted {
                // Past every invalidation now: R1 must hold for the head.
                let head = self.logs[node].last().map_or(0, offset);
                self.check_retracted_before(node, head + 1)?;
            }
        }
        for node in 1..3 {
            self.check_named_once(node)?;
        }
        self.stats.invalidations += self.logs[0].iter().filter(|event| is_local_invalidation(event)).count() as u64;
        Ok(())
    }

    /// R2 after the drain: each copy whose origin a copied invalidation
    /// names — through the copy's hop for the stream that appended it — is
    /// named by exactly one local invalidation; no other copy is named.
    pub(super) fn check_named_once(&mut self, node: usize) -> Result<(), ChainViolation> {
        let log = &self.logs[node];
        let locals: Vec<&Value> = log.iter().filter(|event| is_local_invalidation(event)).collect();
        let copied: Vec<&Value> = log.iter().filter(|event| is_copied_invalidation(event)).collect();
        for copy in log.iter().filter(|event| event.get("source").is_some()) {
            let dead = copied.iter().any(|invalidation| {
                let Some(origin) = chain(invalidation).first() else {
                    return false;
                };
                let at = origin["offset"].as_u64().unwrap_or(0);
                chain(copy).iter().any(|hop| {
                    hop["path"] == origin["path"]
                        && hop["streamId"] == origin["streamId"]
                        && hop["offset"]
                            .as_u64()
                            .is_some_and(|hop_offset| covers(&invalidation["payload"], at, hop_offset))
                })
            });
            let named = locals
                .iter()
                .filter(|local| covers(&local["payload"], offset(local), offset(copy)))
                .count();
            if named != usize::from(dead) {
                return Err(violation(
                    R2,
                    format!(
                        "on {} the copy at {} (chain {}) is named by {named} invalidations; its origin is {}",
                        PATHS[node],
                        offset(copy),
                        copy["source"]["copiedFrom"],
                        if dead { "invalidated" } else { "not invalidated" }
                    ),
                ));
            }
        }
        self.stats.derived += locals.len() as u64;
        Ok(())
    }
}
