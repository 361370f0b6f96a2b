//! Fake receivers: what a plan must look like, what each receiver takes,
//! and the receiving stream's answer to a copy.

#[allow(unused_imports)]
use super::*;

impl Sim {
    /// A fresh plan covers its range correctly: its events are in offset
    /// order inside (after, through], each is one the configuration sends (or
    /// the one it fails on), and everything else in the range is ephemeral,
    /// an audit fact, or filtered out cleanly (§6 rules 2, 9, 11; §3 rule 5).
    pub(super) fn check_plan(&mut self, plan: &DeliveryPlan) -> Result<(), Violation> {
        let offsets: Vec<u64> = plan.events.iter().map(|event| event.offset).collect();
        let in_order = offsets.windows(2).all(|pair| pair[0] < pair[1]);
        // A threshold digest carries held hits the cursor already passed (§13).
        let digest = super::super::gates::is_threshold(plan);
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
        let gated = super::super::gates::gate_of(plan).is_some();
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
    /// offset it had not seen before comes after every offset it had seen —
    /// except for a concurrent subscription, whose order is not guaranteed
    /// (§8 `concurrency`; invariant 8 checks its window instead).
    pub(super) fn receive(&mut self, plan: &DeliveryPlan, offsets: &[u64]) -> Result<(), Violation> {
        let run = (
            plan.stamp.stream_id.clone(),
            plan.subscription_key.clone(),
            plan.stamp.cursor_changed_at_source_offset,
        );
        let digest = super::super::gates::is_threshold(plan);
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
        let unordered = is_window_plan(plan);
        if unordered && !out_of_order.is_empty() {
            self.stats.out_of_order_receipts += out_of_order.len() as u64;
        }
        if !in_range || !in_order || (!out_of_order.is_empty() && !unordered) {
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
    pub(super) fn send(&mut self, plan: &DeliveryPlan, rng: &mut SplitMix) -> Result<Outcome, Violation> {
        let offsets: Vec<u64> = plan.events.iter().map(|event| event.offset).collect();
        if !matches!(plan.receiver, Receiver::CopyToStream { .. }) {
            self.receive(plan, &offsets)?;
            return Ok(Outcome::Delivered);
        }
        let inputs = Inputs {
            now_ms: self.now,
            entropy: rng.entropy(),
        };
        // The body the shell posts to the receiving object's internal route.
        let body = copy_batch_json(&plan.stamp, plan.events.iter().map(|event| &event.body)).unwrap_or_default();
        let result = self.metered("accept_copy_body", Target::Receiving, |stream| {
            stream.accept_copy_body(body.as_bytes(), &inputs)
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
}

/// The log receiver (§15.1) writes one line per planned event, in order,
/// each naming its delivery, subscription and offset.
pub(super) fn check_log_lines(plan: &DeliveryPlan, offsets: &[u64]) -> Result<(), Violation> {
    let lines: Vec<Value> = tributary::delivery::log_lines::lines(plan)
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or(Value::Null))
        .collect();
    let logged: Vec<u64> = lines.iter().filter_map(|line| line["offset"].as_u64()).collect();
    let named = lines.iter().all(|line| {
        line["tributary"] == json!("log-receiver")
            && line["deliveryId"] == json!(plan.delivery_id)
            && line["subscriptionKey"] == json!(plan.subscription_key)
    });
    if logged != offsets || !named {
        return Err(violation(
            INV_SILENT,
            format!(
                "log lines of '{}' name offsets {logged:?} for a batch of {offsets:?}",
                plan.subscription_key
            ),
        ));
    }
    Ok(())
}
