//! The shell's side of the world: the production delivery turn plans,
//! sends stay outstanding and complete in any order; the clock moves; the
//! source object crashes and reopens.

#[allow(unused_imports)]
use super::*;

impl Sim {
    // ---- the shell -------------------------------------------------------

    /// The current alarm's turn; a new alarm begins when the last one is
    /// over (the shell's loop returned: nothing of it is in flight).
    pub(super) fn take_turn(&mut self) -> Turn {
        let now = self.now;
        let goes_on = self
            .turn
            .as_ref()
            .is_some_and(|turn| turn.may_plan(now) || turn.in_flight() > 0);
        if !goes_on {
            // A new invocation, with a log of its own.
            self.invocation_log_bytes = 0;
        }
        alarm_turn(&mut self.turn, now)
    }

    /// A new alarm invocation begins now (the drain's rounds).
    pub(super) fn begin_invocation(&mut self) {
        self.turn = Some(Turn::begin(self.now));
        self.invocation_log_bytes = 0;
    }

    /// The shell writes a log batch's lines the moment it is planned
    /// (§15.1): invariant 9 — the invocation never writes more than its
    /// budget (§12) — and the platform keeps only
    /// [`PLATFORM_LOG_CAPTURE_BYTES`] of it: a line past that is lost, so
    /// the model receiver never sees it (invariant 1 then catches a cursor
    /// passing it).
    fn write_log_lines(&mut self, plan: &DeliveryPlan) -> Result<(), Violation> {
        let mut captured = Vec::new();
        for (line, event) in tributary::delivery::log_lines::lines(plan).iter().zip(&plan.events) {
            self.invocation_log_bytes += serde_json::to_string(line).unwrap_or_default().len();
            if self.invocation_log_bytes <= PLATFORM_LOG_CAPTURE_BYTES {
                captured.push(event.offset);
            }
        }
        self.stats.log_lines += plan.events.len() as u64;
        self.stats.max_invocation_log_bytes = self
            .stats
            .max_invocation_log_bytes
            .max(self.invocation_log_bytes as u64);
        if self.invocation_log_bytes > tributary::limits::INVOCATION_LOG_BYTES {
            return Err(violation(
                INV_LOG,
                format!(
                    "log batch of '{}' ({}..{}] took this invocation's log to {} bytes, past its budget of {}",
                    plan.subscription_key,
                    plan.after_offset,
                    plan.through_offset,
                    self.invocation_log_bytes,
                    tributary::limits::INVOCATION_LOG_BYTES
                ),
            ));
        }
        let offsets: Vec<u64> = plan.events.iter().map(|event| event.offset).collect();
        super::receivers::check_log_lines(plan, &offsets)?;
        self.receive(plan, &captured)
    }

    /// What a send that reached its receiver answers: a log batch was
    /// written when planned; anything else is sent now.
    pub(super) fn delivered(&mut self, item: &Outstanding, rng: &mut SplitMix) -> Result<Outcome, Violation> {
        match item.fate {
            Fate::Written => Ok(Outcome::Delivered),
            _ => self.send(&item.plan, rng),
        }
    }

    pub(super) fn plan(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        let now = self.now;
        let turn = self.take_turn();
        let may_plan = turn.may_plan(now);
        self.turn = Some(turn);
        if !may_plan {
            self.log("plan: the turn is over, its sends are still in flight");
            return Ok(());
        }
        // Now and then (dice of its own, drawn without moving `rng`, so a
        // schedule's other choices stay the ones it made) the next trim
        // step's transaction fails after its facts committed (§16): the
        // object dies there, or the step fails and the turn goes on.
        let mut faults = SplitMix::new(rng.clone().next() ^ 0x7121_FA17);
        let fault = faults.percent(10).then(|| faults.percent(50));
        self.source.storage().arm_trim_crash(fault.is_some());
        if self.trim_first(rng.entropy())? && fault == Some(true) {
            self.log("trim: CRASH between the step's facts and its transaction");
            return self.crash(&mut faults);
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
            // A concurrent subscription (§8) may fill several places at once.
            let places = rng.between(1, self.concurrency_of(&key));
            for _place in 0..places {
                let entropy = rng.entropy();
                match self.plan_key(&key, entropy)? {
                    PlanResult::Planned => {}
                    PlanResult::NotPlanned => break,
                    PlanResult::OverBudget => return Ok(()),
                }
            }
        }
        Ok(())
    }

    /// The turn's retention work before its first plan (§16), as the
    /// production `Turn::plan_due` does: once per turn. `true` when an
    /// injected fault struck a step's transaction; then the turn must still
    /// go on. Any other failed step is a violation (invariant 10: a trim
    /// step never fails on its own, and no turn stops on one).
    pub(super) fn trim_first(&mut self, entropy: [u8; 16]) -> Result<bool, Violation> {
        let now = self.now;
        // What is about to be trimmed is observed first: the invariants
        // judge every offset a cursor passed against the log as it was.
        self.refresh()?;
        let Some(mut turn) = self.turn.take() else {
            return Ok(false);
        };
        let trimmed = self.metered("trim", Target::Source, |stream| turn.trim(stream, now, entropy));
        self.source.storage().arm_trim_crash(false);
        // The facts the steps wrote, some trimmed again by a later step of
        // the same turn: observed as written.
        let written = self.observe_written();
        let steps = turn.take_trim_steps();
        let goes_on = turn.may_plan(now);
        self.turn = Some(turn);
        trimmed?.map_err(|error| engine_error("trim", error))?;
        let mut struck = false;
        for step in steps {
            match step.error.as_deref() {
                Some(error) if error.contains(super::super::storage::TRIM_CRASH) => {
                    self.stats.trim_faults += 1;
                    self.log("trim: the step's transaction failed after its facts");
                    struck = true;
                    continue;
                }
                Some(error) => return Err(violation(INV_TRIM, error.to_owned())),
                None => {}
            }
            self.tally_trim_step(&step, &written);
        }
        if struck && !goes_on {
            return Err(violation(INV_TRIM, "the turn stopped on a failed trim step"));
        }
        Ok(struck)
    }

    /// Figures and the trace line of one trim step; a pass whose fact was
    /// not written by this turn was answered by the fact an earlier try of
    /// the step committed (a retry after a crash, the head moved since).
    fn tally_trim_step(&mut self, step: &tributary::retention::trim::TrimStep, written: &BTreeSet<u64>) {
        self.stats.trimmed_rows += step.trimmed;
        self.stats.expired_rows += step.expired;
        let facts: Vec<u64> = step
            .passed
            .iter()
            .map(|pass| pass.fact_offset)
            .filter(|offset| *offset > 0)
            .collect();
        self.stats.trimmed_facts += facts.len() as u64;
        self.stats.retried_facts += facts.iter().filter(|offset| !written.contains(offset)).count() as u64;
        self.log(format!(
            "trim: {} rows through {}, {} ephemeral expired, passed {:?}",
            step.trimmed,
            step.through,
            step.expired,
            step.passed
                .iter()
                .map(|pass| format!(
                    "{} ({}..{}] fact {}",
                    pass.subscription_key, pass.after_offset, pass.through_offset, pass.fact_offset
                ))
                .collect::<Vec<_>>()
        ));
    }

    /// Adds the event rows the last source call committed to what was
    /// observed of this lifetime's log (a later statement of the call may
    /// have trimmed them already); returns their offsets.
    fn observe_written(&mut self) -> BTreeSet<u64> {
        let rows = self.source.storage().take_written();
        let same_lifetime = self.observed.stream_id.is_some() && self.observed.stream_id == self.stream_id();
        let mut offsets = BTreeSet::new();
        for row in rows {
            let stored = tributary::records::event_row::decode(tributary::records::event_row::LIST, &row)
                .expect("an event row as the engine inserted it");
            offsets.insert(stored.offset);
            if same_lifetime {
                self.observed
                    .events
                    .entry(stored.offset)
                    .or_insert_with(|| logged(CommittedEvent::from(stored)));
            }
        }
        offsets
    }

    /// The configured `delivery.concurrency` of `key` (1 when absent).
    pub(super) fn concurrency_of(&self, key: &str) -> u64 {
        self.source
            .state()
            .subscriptions
            .outbound
            .by_key
            .get(key)
            .map(|subscription| serde_json::to_value(&subscription.configuration).unwrap_or(Value::Null))
            .map_or(1, |configuration| model::concurrency_of(&configuration))
    }

    /// When the engine counts `plan`'s send as lost (§6 rule 6): the runtime
    /// row's deadline, or a concurrent delivery's own slot's.
    fn send_deadline(&mut self, plan: &DeliveryPlan) -> Result<Option<i64>, Violation> {
        if plan.prepared_failure.is_some() {
            return Ok(None);
        }
        let key = plan.subscription_key.clone();
        if !is_window_plan(plan) {
            return Ok(self
                .runtime_rows()?
                .get(&key)
                .and_then(|row| row.in_flight_deadline_at_ms));
        }
        let window = self
            .metered("delivery_window", Target::Source, |stream| stream.delivery_window(&key))?
            .map_err(|error| engine_error("delivery_window", error))?;
        Ok(window
            .iter()
            .find(|slot| slot.event_offset == plan.through_offset)
            .and_then(|slot| slot.in_flight_deadline_at_ms))
    }

    /// Invariant 8 at plan time (§8 `concurrency`): a concurrent delivery is
    /// of one event past the cursor, never of one whose delivery completed.
    fn check_window_plan(&mut self, plan: &DeliveryPlan) -> Result<(), Violation> {
        if !is_window_plan(plan) {
            return Ok(());
        }
        self.stats.concurrent_plans += 1;
        let key = &plan.subscription_key;
        let cursor = self.runtime_rows()?.get(key).map_or(0, |row| row.acknowledged_offset);
        let offsets: Vec<u64> = plan.events.iter().map(|event| event.offset).collect();
        let completed = self
            .completed_slots
            .get(&run_of(plan))
            .is_some_and(|done| done.contains(&plan.through_offset));
        if offsets != [plan.through_offset] || plan.through_offset <= cursor || completed {
            return Err(violation(
                INV_WINDOW,
                format!(
                    "concurrent plan of '{key}' carries {offsets:?} for ({}..{}] with the cursor at {cursor}{}",
                    plan.after_offset,
                    plan.through_offset,
                    if completed { "; its delivery had completed" } else { "" }
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn plan_key(&mut self, key: &str, entropy: [u8; 16]) -> Result<PlanResult, Violation> {
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
            Planned::WaitsForLogBudget => {
                self.stats.log_waits += 1;
                self.log(format!(
                    "  plan {key}: its next log line waits for the next invocation ({} bytes logged)",
                    self.invocation_log_bytes
                ));
                return Ok(PlanResult::NotPlanned);
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
        self.check_window_plan(&plan)?;
        if super::super::gates::gate_of(&plan).is_some() {
            self.stats.gated_plans += 1;
        }
        self.gates.record(&plan);
        let deadline = self.send_deadline(&plan)?;
        let id = self.next_id;
        self.next_id += 1;
        if plan.lease > 0 {
            self.latest_sends.insert(lease_of(&plan), id);
        }
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
        let oversized = plan.prepared_failure.as_ref().is_some_and(|failure| {
            matches!(failure, Outcome::Failed { message, .. } if message.contains("more than one invocation may log"))
        });
        self.stats.oversized_lines += u64::from(oversized);
        let fate = if plan.prepared_failure.is_none() && matches!(plan.receiver, Receiver::Log { .. }) {
            self.write_log_lines(&plan)?;
            Fate::Written
        } else {
            Fate::Live
        };
        self.outstanding.push(Outstanding {
            id,
            plan,
            instance: self.instance,
            deadline,
            fate,
        });
        Ok(PlanResult::Planned)
    }

    /// Why a plan belongs to a run that is no longer current (§6 rule 7), if
    /// it does: another lifetime, another config generation, a removed key.
    pub(super) fn staleness(&self, plan: &DeliveryPlan) -> Option<&'static str> {
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

    pub(super) fn is_stale(&self, plan: &DeliveryPlan) -> bool {
        self.staleness(plan).is_some()
    }

    pub(super) fn snapshot(&mut self) -> Result<Snapshot, Violation> {
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
    pub(super) fn complete(
        &mut self,
        item: Outstanding,
        outcome: Outcome,
        rng: &mut SplitMix,
    ) -> Result<(), Violation> {
        let staleness = self.staleness(&item.plan);
        // A send of the current run that a newer send of its subscription
        // (of its slot, in a concurrent window) superseded — the dead
        // instance's, while the new instance's send of the same range is in
        // flight — answers nothing either (§6 rules 6, 7, 9): same run, range
        // and attempt number, another lease.
        let superseded = staleness.is_none()
            && item.plan.lease > 0
            && self
                .latest_sends
                .get(&lease_of(&item.plan))
                .is_some_and(|latest| *latest > item.id);
        let staleness = staleness.or(superseded.then_some("a newer send of its subscription was planned"));
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
        if is_window_plan(&plan) && matches!(completion, Completion::Acknowledged { .. } | Completion::Skipped { .. }) {
            self.completed_slots
                .entry(run_of(&plan))
                .or_default()
                .insert(plan.through_offset);
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
            if superseded {
                " [superseded]"
            } else if stale {
                " [stale run]"
            } else {
                ""
            },
            outcome_label(&outcome)
        ));
        self.stats.superseded_completions += u64::from(superseded);
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

    pub(super) fn complete_one(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
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
            // Written log lines (§15.1) are delivered.
            (None, Fate::Written) => Outcome::Delivered,
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

    pub(super) fn advance(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
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
                Fate::Written => Outcome::Delivered,
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

    pub(super) fn crash(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
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
                // The lines were written; whether the acknowledgement was made is open.
                (None, Fate::Written) => rng.percent(50).then_some(Outcome::Delivered),
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

    pub(super) fn crash_receiving(&mut self) -> Result<(), Violation> {
        self.receiving = self.reopen(&self.receiving_uri.clone(), RECEIVING)?;
        self.log("CRASH the receiving object");
        Ok(())
    }

    pub(super) fn reopen(&mut self, uri: &str, path: &str) -> Result<Stream<Counting>, Violation> {
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
}
