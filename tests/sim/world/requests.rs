//! The clients' side of the world: appends, configurations, cursor moves,
//! removals, resumes and destroy-and-recreate, as a user sends them.

#[allow(unused_imports)]
use super::*;

impl Sim {
    // ---- client requests -------------------------------------------------

    /// Appends a public request body; `Err` inside is the API's refusal.
    pub(super) fn append_public(
        &mut self,
        body: &Value,
        rng: &mut SplitMix,
    ) -> Result<Result<Vec<u64>, String>, Violation> {
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

    pub(super) fn configure(&mut self, key: usize, rng: &mut SplitMix) -> Result<(), Violation> {
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

    pub(super) fn append_events(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        // The squat has dice of its own (drawn without moving `rng`), so
        // every other choice of a schedule is the one it always made.
        let mut squat = SplitMix::new(rng.clone().next() ^ 0x5A0A_77E2);
        let mut body = model::events(rng, &mut self.event_counter);
        if squat.percent(10) {
            self.squat_engine_keys(&mut body, &mut squat)?;
        }
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
                        if let Some(pad) = event["payload"]["pad"].as_str() {
                            text.push_str(&format!(" pad={}", pad.len()));
                        }
                        text
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.log(format!("append [{}] -> {result:?}", described.join(", ")));
        Ok(())
    }

    /// A hostile caller who reads the debug card and the stream's
    /// `firstOffset` takes the key of the `trimmed` fact retention would
    /// append next for one subscription (§2, §16) — and, with the batch's
    /// later events, the keys that fact would move to (`{key}@{offset}`,
    /// offsets the caller can predict from the head). The router refuses
    /// them (the prefix is reserved); the sim appends them anyway, as keys
    /// taken before the reservation: the engine's fact must still be
    /// written and its trim still happen (invariants 1 and 10).
    fn squat_engine_keys(&mut self, body: &mut Value, dice: &mut SplitMix) -> Result<(), Violation> {
        let card = self
            .source
            .subscriptions_card()
            .map_err(|error| engine_error("subscriptions_card", error))?;
        let Some(subscriptions) = card["subscriptions"].as_array().filter(|all| !all.is_empty()) else {
            return Ok(());
        };
        let chosen = &subscriptions[dice.below(subscriptions.len() as u64) as usize];
        let runtime = &chosen["runtime"];
        let cursor = runtime["acknowledgedOffset"]
            .as_u64()
            .unwrap_or(0)
            .max(self.source.first_offset() - 1);
        let mut key = format!(
            "trimmed:{}:{cursor}:{}",
            runtime["runOffset"],
            chosen["subscriptionKey"].as_str().unwrap_or_default()
        );
        let events = body["events"].as_array_mut().expect("a batch body");
        let taken = (dice.between(1, events.len() as u64) as usize).min(events.len());
        let mut keys = Vec::with_capacity(taken);
        // The engine moves a key held at `offset` to `{key}@{offset}`.
        for (offset, event) in (self.head() + 1..).zip(events.iter_mut().take(taken)) {
            event["idempotencyKey"] = json!(key);
            keys.push(key.clone());
            key = format!("{key}@{offset}");
        }
        if tributary::reserved_keys::check_public_append(body.to_string().as_bytes()).is_ok() {
            return Err(violation(
                INV_TRIM,
                format!("the router would accept the engine's keys {keys:?}"),
            ));
        }
        self.stats.squatted_keys += keys.len() as u64;
        self.log(format!("squat the engine's keys {keys:?}"));
        Ok(())
    }

    pub(super) fn existing_keys(&self) -> Vec<String> {
        self.source
            .state()
            .subscriptions
            .outbound
            .by_key
            .keys()
            .cloned()
            .collect()
    }

    pub(super) fn cursor_set(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
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

    pub(super) fn remove(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
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

    /// A `retention-configured` (§16): later trim steps race deliveries.
    pub(super) fn retain(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
        let payload = model::retention(rng);
        let body = json!({"type": format!("{CONTROL}retention-configured"), "payload": payload});
        let result = self.append_public(&body, rng)?;
        self.log(format!("retain {payload} -> {result:?}"));
        Ok(())
    }

    pub(super) fn resume(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
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
    pub(super) fn tally(&mut self) -> Result<(), Violation> {
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

    pub(super) fn destroy(&mut self, rng: &mut SplitMix) -> Result<(), Violation> {
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
}
