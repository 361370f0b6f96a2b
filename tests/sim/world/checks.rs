//! The end (drain until nothing is due) and the observation behind the
//! invariants, checked after every step.

#[allow(unused_imports)]
use super::*;
use tributary::limits::MAX_INBOUND_FENCE_PAGE;

impl Sim {
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
                (None, Fate::Written | Fate::Live) => self.delivered(&item, rng)?,
            };
            self.complete(item, outcome, rng)?;
        }
        self.check_invariants()?;
        let mut settled = false;
        for round in 0..DRAIN_ROUNDS {
            // Each round is one alarm: nothing is in flight between rounds.
            self.begin_invocation();
            self.trim_first(rng.entropy())?;
            let now = self.now;
            let due = self
                .metered("due_subscriptions", Target::Source, |stream| {
                    stream.due_subscriptions(now)
                })?
                .map_err(|error| engine_error("due_subscriptions", error))?;
            let mut planned = Vec::new();
            for key in &due {
                // A concurrent subscription fills its places (§8).
                for _place in 0..self.concurrency_of(key) {
                    let entropy = rng.entropy();
                    if self.plan_key(key, entropy)? != PlanResult::Planned {
                        break;
                    }
                    if let Some(item) = self.outstanding.pop() {
                        planned.push(item);
                    }
                }
            }
            for item in planned {
                let outcome = match &item.plan.prepared_failure {
                    Some(failure) => failure.clone(),
                    None => self.delivered(&item, rng)?,
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

    pub(super) fn runtime_rows(&mut self) -> Result<BTreeMap<String, RuntimeRow>, Violation> {
        self.metered("runtime_rows", Target::Source, |stream| stream.runtime_rows())?
            .map_err(|error| engine_error("runtime_rows", error))
    }

    /// Brings the cached copy of this lifetime's log and dead letters up to
    /// date. Both only grow within a lifetime (the simulation never discards
    /// or replays a dead letter), so reading what is new is enough.
    pub(super) fn refresh(&mut self) -> Result<(), Violation> {
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
                from_earliest: false,
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

    /// Invariant 8 (§8 `concurrency`): at most `concurrency` deliveries of a
    /// concurrent window are open, each past the cursor, so the cursor never passed an event
    /// whose delivery had not completed; and a slot marked completed is one
    /// the simulation saw complete.
    fn check_window(&mut self, key: &str, row: &RuntimeRow, run_id: &RunId) -> Result<(), Violation> {
        let owned = key.to_owned();
        let window = self
            .metered("delivery_window", Target::Source, |stream| {
                stream.delivery_window(&owned)
            })?
            .map_err(|error| engine_error("delivery_window", error))?;
        let open = window.iter().filter(|slot| !slot.completed).count() as u64;
        let concurrency = self.concurrency_of(key);
        self.stats.max_open_slots = self.stats.max_open_slots.max(open);
        if open > concurrency {
            return Err(violation(
                INV_WINDOW,
                format!("window of '{key}' has {open} deliveries open at concurrency {concurrency}"),
            ));
        }
        for slot in &window {
            let seen_completing = self
                .completed_slots
                .get(run_id)
                .is_some_and(|done| done.contains(&slot.event_offset));
            if slot.event_offset <= row.acknowledged_offset || (slot.completed && !seen_completing) {
                return Err(violation(
                    INV_WINDOW,
                    format!(
                        "window of '{key}' holds {slot:?} with the cursor at {}{}",
                        row.acknowledged_offset,
                        if slot.completed {
                            " (completed, but no completion said so)"
                        } else {
                            ""
                        }
                    ),
                ));
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
            // The fence rows (§7 rule 2) are part of the fold too: a rebuild
            // rewrites them, and must write the rows the commits wrote.
            let fences = |stream: &Stream<Counting>| {
                stream
                    .inbound_page(None, MAX_INBOUND_FENCE_PAGE)
                    .map(|page| (page.records, page.next_after.is_none()))
            };
            let (live_fences, rebuilt, rebuilt_fences) = self.metered("rebuild_state", target, |stream| {
                (fences(stream), stream.rebuild_state(), fences(stream))
            })?;
            let rebuilt = rebuilt.map_err(|error| engine_error("rebuild_state", error))?;
            let live_fences = live_fences.map_err(|error| engine_error("inbound_page", error))?;
            let rebuilt_fences = rebuilt_fences.map_err(|error| engine_error("inbound_page", error))?;
            let stream = match target {
                Target::Source => &self.source,
                Target::Receiving => &self.receiving,
            };
            if live_fences != rebuilt_fences || !live_fences.1 {
                return Err(violation(
                    INV_REBUILD,
                    format!(
                        "{}: fence rows {:?} but the log rebuilds {:?}",
                        stream.path(),
                        live_fences,
                        rebuilt_fences
                    ),
                ));
            }
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
        for (key, row) in &rows {
            if self.concurrency_of(key) > 1 {
                let run_id = (stream_id.clone(), key.clone(), row.cursor_changed_at_source_offset);
                self.check_window(key, row, &run_id)?;
            }
        }
        self.refresh()?;
        let log = &self.observed.events;
        let letters = &self.observed.letters;
        // The `trimmed` facts (§16): what retention passed, per key, and
        // where each fact stands (a run owns only the facts after its start).
        let mut trimmed: BTreeMap<String, Vec<(u64, u64, u64)>> = BTreeMap::new();
        for (offset, event) in log
            .iter()
            .filter(|(_, event)| event.local_audit && event.payload["kind"] == "trimmed")
        {
            let payload = &event.payload;
            if let (Some(key), Some(after), Some(through)) = (
                payload["subscriptionKey"].as_str(),
                payload["afterOffset"].as_u64(),
                payload["throughOffset"].as_u64(),
            ) {
                trimmed
                    .entry(key.to_owned())
                    .or_default()
                    .push((after, through, *offset));
            }
        }
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
            let first_offset = self.source.first_offset();
            let floor = *self.run_floors.entry(run_id.clone()).or_insert(first_offset - 1);
            let start = match subscription.cursor_set {
                Some(set) => set.after_offset,
                None if configuration["receiver"]["delivery"]["start"] == json!("now") => {
                    subscription.configured_at_offset
                }
                None => 0,
            }
            .max(floor);
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
                let passed_by_trim = trimmed.get(key).is_some_and(|passes| {
                    passes
                        .iter()
                        .any(|(after, through, fact)| *fact > run && *after < offset && offset <= *through)
                });
                if verdict == Verdict::FilteredOut
                    || passed_by_trim
                    || letters.contains(&(key.clone(), offset))
                    || halted_after.is_some_and(|after| after < offset)
                {
                    continue;
                }
                if let Some(gate) = super::super::gates::configured_gate(&configuration) {
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
