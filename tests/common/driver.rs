//! A hand-driven alarm for delivery tests (docs/design.md §6, §8 `concurrency`):
//! one stream over a database file, the production [`Turn`] planning what
//! is due, and the test deciding which send completes when and how —
//! completions in any order, a crash between any two steps (the `Stream`
//! is dropped and the file reopened).
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use super::{call, inputs, FileStream};
use serde_json::{json, Value};
use tributary::delivery::{Completion, DeliveryPlan, Outcome, Turn};
use tributary::deployment::Deployment;
use tributary::route::Action;
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::dead_letters::DeadLetterQuery;
use tributary::stream::Stream;

pub const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
pub const INVALIDATED: &str = "events.iterate.com/stream/events-invalidated";
pub const ITX_SERVICE: &str = "SVC";

pub struct Driver {
    file: FileStream,
    pub stream: Stream<RusqliteStorage>,
    pub turn: Turn,
    pub now: i64,
    seed: u8,
}

fn open(file: &FileStream) -> Stream<RusqliteStorage> {
    let mut stream = file.open();
    stream.set_deployment(Deployment {
        allow_insecure_webhooks: true,
        itx_services: vec![ITX_SERVICE.to_owned()],
        webhook_signing_key: Some("test-signing-key".to_owned()),
        ..Deployment::default()
    });
    stream
}

impl Driver {
    pub fn new(path: &str) -> Driver {
        let file = FileStream::new(path);
        let stream = open(&file);
        Driver {
            file,
            stream,
            turn: Turn::begin(1_000),
            now: 1_000,
            seed: 1,
        }
    }

    fn entropy(&mut self) -> [u8; 16] {
        self.seed = self.seed.wrapping_add(1);
        [self.seed; 16]
    }

    /// Appends a public request body; returns (status, body).
    pub fn append(&mut self, body: Value) -> (u16, Value) {
        let inputs = inputs(self.now, self.seed);
        call(&mut self.stream, Action::Append, "", &body.to_string(), &inputs)
    }

    /// Configures `key`: a receiver (`webhook-post` or `itx-call`) with
    /// `delivery` over a skip-mode default, filtered to type `data`.
    pub fn configure(&mut self, key: &str, action: &str, delivery: Value) -> (u16, Value) {
        let mut full = json!({"start": "beginning", "onFailingEvent": "skip",
            "retry": {"maxAttempts": 3, "initialBackoffMs": 100, "maxBackoffMs": 100}});
        for (name, value) in delivery.as_object().unwrap() {
            full[name] = value.clone();
        }
        let receiver = match action {
            "itx-call" => {
                json!({"action": action, "expression": ["services", ITX_SERVICE, "deliver"], "delivery": full})
            }
            _ => json!({"action": "webhook-post", "url": "http://127.0.0.1:1/hook", "delivery": full}),
        };
        self.append(json!({"type": CONFIGURED, "payload": {"subscriptionKey": key,
            "filter": {"eventTypes": ["data"]}, "receiver": receiver}}))
    }

    /// Appends `n` data events; returns their offsets.
    pub fn data(&mut self, n: usize) -> Vec<u64> {
        let events: Vec<Value> = (0..n).map(|i| json!({"type": "data", "payload": {"i": i}})).collect();
        let (status, body) = self.append(json!({"events": events}));
        assert_eq!(status, 201, "{body}");
        body["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|event| event["offset"].as_u64().unwrap())
            .collect()
    }

    /// Everything the turn plans now (as the alarm's loop does after each
    /// completion).
    pub fn plan(&mut self) -> Vec<DeliveryPlan> {
        if !self.turn.may_plan(self.now) && self.turn.in_flight() == 0 {
            self.turn = Turn::begin(self.now);
        }
        let entropy = self.entropy();
        self.turn.plan_due(&mut self.stream, self.now, entropy).unwrap()
    }

    pub fn complete(&mut self, plan: &DeliveryPlan, outcome: Outcome) -> Completion {
        let entropy = self.entropy();
        self.turn
            .complete(&mut self.stream, plan, outcome, self.now, entropy)
            .unwrap()
    }

    /// The object dies: its turn and memory are gone, the file is reopened.
    pub fn crash(&mut self) {
        self.stream = open(&self.file);
        self.turn = Turn::begin(self.now);
    }

    pub fn cursor(&self, key: &str) -> u64 {
        self.stream.runtime_rows().unwrap()[key].acknowledged_offset
    }

    pub fn next_due_at(&self) -> Option<i64> {
        self.stream.next_due_at().unwrap()
    }

    pub fn letters(&self, key: &str) -> Vec<Value> {
        let query = DeadLetterQuery {
            subscription_key: Some(key.to_owned()),
            after: 0,
            limit: 1000,
        };
        self.stream.dead_letters(&query).unwrap()["deadLetters"]
            .as_array()
            .unwrap()
            .clone()
    }

    /// The runtime part of `key`'s debug card (§11).
    pub fn runtime_card(&self, key: &str) -> Value {
        super::runtime_of(&self.stream.subscriptions_card().unwrap(), key)
    }

    /// Events of the log whose type is `event_type`, as JSON.
    pub fn events_of_type(&mut self, event_type: &str) -> Vec<Value> {
        let query = tributary::stream::RangeQuery {
            after: 0,
            from_earliest: false,
            limit: 1000,
            include_ephemeral: false,
        };
        let read = self.stream.read_range(&query).unwrap();
        serde_json::to_value(&read.events)
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .filter(|event| event["type"] == event_type)
            .cloned()
            .collect()
    }
}

/// The offsets `plans` deliver, in plan order.
pub fn offsets(plans: &[DeliveryPlan]) -> Vec<u64> {
    plans
        .iter()
        .flat_map(|plan| plan.events.iter().map(|event| event.offset))
        .collect()
}

/// The plan of `plans` that delivers `offset`.
pub fn plan_of(plans: &[DeliveryPlan], offset: u64) -> DeliveryPlan {
    plans
        .iter()
        .find(|plan| plan.retraction.is_none() && plan.events.iter().any(|event| event.offset == offset))
        .cloned()
        .unwrap_or_else(|| panic!("no plan delivers offset {offset} among {:?}", offsets(plans)))
}
