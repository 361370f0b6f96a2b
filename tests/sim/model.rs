//! What the simulation configures and appends, and an oracle for the filters
//! and transforms it uses. The oracle is written independently of the engine
//! (plain Rust over the event's fields), so "filtered out by a filter that
//! evaluated cleanly" (§6 rule 11) is judged without asking the engine.

use super::rng::SplitMix;
use serde_json::{json, Map, Value};

pub const CONTROL: &str = "events.iterate.com/stream/";

/// The subscription keys the schedule works with: each names a receiver kind
/// and failure mode; policies, filters and transforms vary per configure.
pub const KEYS: [&str; 8] = [
    "wh-halt", "wh-skip", "itx-halt", "itx-skip", "agg", "thr", "copy", "log",
];

/// A condition that always evaluates cleanly.
pub const COND_MOD3: &str = "payload.n % 3 != 0";
/// A condition that errors on events carrying `bad: true`.
pub const COND_ERROR: &str = "payload.bad = true ? $error(\"filter refused\") : payload.n % 2 = 0";
/// A transform that always produces an object.
pub const TRANSFORM_OK: &str = "{\"payload\": {\"n\": payload.n, \"via\": \"t1\"}}";
/// A transform that errors on events carrying `badT: true`.
pub const TRANSFORM_ERROR: &str = "payload.badT = true ? $error(\"transform refused\") : {\"payload\": payload}";
/// A transform that produces a non-object on events carrying `badT: true`.
pub const TRANSFORM_NOT_OBJECT: &str = "payload.badT = true ? payload.n : {\"metadata\": {\"via\": \"t3\"}}";

pub const ITX_SERVICE: &str = "SIM";

/// A `subscription-configured` payload for `KEYS[key]`.
pub fn configuration(key: usize, rng: &mut SplitMix) -> Value {
    let name = KEYS[key % KEYS.len()];
    let mut payload = Map::new();
    payload.insert("subscriptionKey".to_owned(), json!(name));
    let filter = match rng.below(7) {
        0 | 1 => None,
        2 => Some(json!({"eventTypes": ["data"]})),
        3 => Some(json!({"eventTypes": ["data", "other"]})),
        4 => Some(json!({"eventTypes": ["data"], "jsonataCondition": COND_MOD3})),
        _ => Some(json!({"eventTypes": ["data"], "jsonataCondition": COND_ERROR})),
    };
    if let Some(filter) = filter {
        payload.insert("filter".to_owned(), filter);
    }
    let transform = match rng.below(6) {
        0 | 1 => None,
        2 => Some(TRANSFORM_OK),
        3 | 4 => Some(TRANSFORM_ERROR),
        _ => Some(TRANSFORM_NOT_OBJECT),
    };
    let mode = match name {
        "wh-halt" | "itx-halt" | "copy" => "halt",
        "wh-skip" | "itx-skip" => "skip",
        _ => rng.pick(&["halt", "skip"]),
    };
    let start = if rng.percent(70) { "beginning" } else { "now" };
    let mut delivery = json!({"start": start, "onFailingEvent": mode});
    // The log receiver (§15.1) takes only start and onFailingEvent.
    if name == "log" {
        let mut receiver = json!({"action": "log", "delivery": delivery});
        if let Some(transform) = transform {
            receiver["jsonataTransform"] = json!(transform);
        }
        payload.insert("receiver".to_owned(), receiver);
        return Value::Object(payload);
    }
    if rng.percent(85) {
        let initial = rng.pick(&[10u64, 50, 200]);
        delivery["retry"] = json!({
            "maxAttempts": rng.between(1, 4),
            "initialBackoffMs": initial,
            "maxBackoffMs": initial * rng.pick(&[1u64, 4]),
        });
    }
    // Both policies may combine (a digest spends one delivery of the budget).
    let aggregate = name == "agg" || (name == "thr" && rng.percent(30));
    let throttle = name == "thr" || (name == "agg" && rng.percent(30));
    if aggregate {
        delivery["aggregate"] =
            json!({"windowMs": rng.pick(&[200u64, 200, 1000, 5000]), "maxBatch": rng.pick(&[2u64, 3, 5])});
    }
    if throttle {
        delivery["throttle"] =
            json!({"maxDeliveries": rng.between(1, 3), "windowMs": rng.pick(&[500u64, 2000, 10_000])});
    }
    let action = match name {
        "wh-halt" | "wh-skip" => "webhook-post",
        "itx-halt" | "itx-skip" => "itx-call",
        "copy" => "copy-to-stream",
        _ => rng.pick(&["webhook-post", "itx-call"]),
    };
    // Concurrent delivery (§8): skip mode, no aggregate, no gate.
    let may_run_concurrently = matches!(name, "wh-skip" | "itx-skip") || (name == "thr" && !aggregate);
    if may_run_concurrently && mode == "skip" && rng.percent(50) {
        delivery["concurrency"] = json!(rng.between(2, 6));
    } else if action != "copy-to-stream" {
        super::gates::maybe_gate(&mut delivery, rng);
    }
    let mut receiver = match action {
        "webhook-post" => {
            if rng.percent(30) {
                delivery["timeoutMs"] = json!(rng.pick(&[1_000u64, 5_000]));
            }
            json!({"action": action, "url": "http://127.0.0.1:9/hook", "delivery": delivery})
        }
        "itx-call" => {
            json!({"action": action, "expression": ["services", ITX_SERVICE, "deliver"], "delivery": delivery})
        }
        _ => json!({"action": action, "receivingStreamPath": "/dst", "delivery": delivery}),
    };
    if let Some(transform) = transform {
        receiver["jsonataTransform"] = json!(transform);
    }
    payload.insert("receiver".to_owned(), receiver);
    Value::Object(payload)
}

/// One line describing a configuration, for traces.
pub fn describe(configuration: &Value) -> String {
    let receiver = &configuration["receiver"];
    let delivery = &receiver["delivery"];
    let mut parts = vec![
        receiver["action"].as_str().unwrap_or("?").to_owned(),
        delivery["onFailingEvent"].as_str().unwrap_or("?").to_owned(),
        format!("start={}", delivery["start"].as_str().unwrap_or("?")),
    ];
    if let Some(types) = configuration["filter"]["eventTypes"].as_array() {
        parts.push(format!(
            "types={}",
            types.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("+")
        ));
    }
    match configuration["filter"]["jsonataCondition"].as_str() {
        Some(COND_MOD3) => parts.push("cond=mod3".to_owned()),
        Some(COND_ERROR) => parts.push("cond=errors-on-bad".to_owned()),
        Some(other) => parts.push(format!("cond={other}")),
        None => {}
    }
    match receiver["jsonataTransform"].as_str() {
        Some(TRANSFORM_OK) => parts.push("transform=ok".to_owned()),
        Some(TRANSFORM_ERROR) => parts.push("transform=errors-on-badT".to_owned()),
        Some(TRANSFORM_NOT_OBJECT) => parts.push("transform=non-object-on-badT".to_owned()),
        Some(other) => parts.push(format!("transform={other}")),
        None => {}
    }
    if let Some(concurrency) = delivery["concurrency"].as_u64() {
        parts.push(format!("concurrency={concurrency}"));
    }
    for policy in ["retry", "aggregate", "throttle", "gate"] {
        if delivery[policy].is_object() {
            parts.push(format!("{policy}={}", delivery[policy]));
        }
    }
    if let Some(timeout) = delivery["timeoutMs"].as_u64() {
        parts.push(format!("timeoutMs={timeout}"));
    }
    parts.join(" ")
}

/// A batch append body of 1-4 events: `data` or `other`, some (or all) ephemeral, some
/// carrying the markers the erroring filter and transforms react to. Now
/// and then a large batch: log lines (§15.1) that fill an invocation's log
/// budget together, now and then one line over it (§12).
pub fn events(rng: &mut SplitMix, counter: &mut u64) -> Value {
    let count = rng.between(1, 4);
    // Now and then a burst of only ephemeral events (presence, progress).
    let burst = rng.percent(20);
    // The large batches have dice of their own (drawn without moving `rng`),
    // so every other choice of a schedule is the one it always made.
    let mut sizes = SplitMix::new(rng.clone().next() ^ 0x001A_46E5);
    let large = sizes.percent(6);
    let events: Vec<Value> = (0..count)
        .map(|_| {
            *counter += 1;
            let mut payload = json!({"n": *counter});
            if rng.percent(12) {
                payload["bad"] = json!(true);
            }
            if rng.percent(12) {
                payload["badT"] = json!(true);
            }
            if large {
                payload["pad"] = json!("x".repeat(sizes.pick(&[70_000usize, 110_000, 130_000, 215_000])));
            }
            let mut event = json!({"type": if rng.percent(80) { "data" } else { "other" }, "payload": payload});
            if burst || rng.percent(25) {
                event["ephemeral"] = json!(true);
            }
            event
        })
        .collect();
    json!({ "events": events })
}

/// What a subscription's configuration does with one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The filter rejected it, evaluating cleanly: the cursor may pass it.
    FilteredOut,
    /// It is to be sent.
    Send,
    /// The filter or transform fails on it: a permanent failure of the event.
    Fails,
}

/// The filter and transform of one configuration, judged in plain Rust.
#[derive(Debug, Clone)]
pub struct Oracle {
    types: Option<Vec<String>>,
    condition: Option<String>,
    transform: Option<String>,
}

impl Oracle {
    pub fn new(configuration: &Value) -> Oracle {
        let types = configuration["filter"]["eventTypes"]
            .as_array()
            .map(|types| types.iter().filter_map(Value::as_str).map(str::to_owned).collect());
        Oracle {
            types,
            condition: configuration["filter"]["jsonataCondition"].as_str().map(str::to_owned),
            transform: configuration["receiver"]["jsonataTransform"]
                .as_str()
                .map(str::to_owned),
        }
    }

    pub fn verdict(&self, event_type: &str, payload: &Value) -> Verdict {
        if let Some(types) = &self.types {
            if !types.iter().any(|allowed| allowed == event_type) {
                return Verdict::FilteredOut;
            }
        }
        let n = payload["n"].as_u64();
        let flag = |name: &str| payload[name] == json!(true);
        match self.condition.as_deref() {
            None => {}
            Some(COND_MOD3) if n.is_none_or(|n| n % 3 == 0) => return Verdict::FilteredOut,
            Some(COND_MOD3) => {}
            Some(COND_ERROR) => {
                if flag("bad") {
                    return Verdict::Fails;
                }
                if n.is_none_or(|n| n % 2 != 0) {
                    return Verdict::FilteredOut;
                }
            }
            Some(other) => panic!("the oracle does not know the condition {other}"),
        }
        match self.transform.as_deref() {
            None | Some(TRANSFORM_OK) => Verdict::Send,
            Some(TRANSFORM_ERROR) | Some(TRANSFORM_NOT_OBJECT) if flag("badT") => Verdict::Fails,
            Some(TRANSFORM_ERROR) | Some(TRANSFORM_NOT_OBJECT) => Verdict::Send,
            Some(other) => panic!("the oracle does not know the transform {other}"),
        }
    }
}

/// The `delivery.concurrency` of a configuration (1 when absent, §8).
pub fn concurrency_of(configuration: &Value) -> u64 {
    configuration["receiver"]["delivery"]["concurrency"]
        .as_u64()
        .unwrap_or(1)
}

/// A `retention-configured` payload (§16): small limits, so trimming races
/// the deliveries; sometimes past subscribers; sometimes cleared.
pub fn retention(rng: &mut SplitMix) -> Value {
    if rng.percent(15) {
        return json!({});
    }
    let mut payload = serde_json::Map::new();
    match rng.below(3) {
        0 => payload.insert("maxEvents".to_owned(), json!(rng.between(1, 30))),
        1 => payload.insert("maxAgeMs".to_owned(), json!(rng.between(60_000, 600_000))),
        _ => payload.insert("maxBytes".to_owned(), json!(rng.between(200, 5_000))),
    };
    if rng.percent(20) {
        payload.insert("maxEvents".to_owned(), json!(rng.between(1, 30)));
    }
    if rng.percent(40) {
        payload.insert("trimPastSubscribers".to_owned(), json!(true));
    }
    Value::Object(payload)
}
