//! Replay determinism (DESIGN.md §5): for random sequences of configure,
//! replace, remove, cursor-set, halt and resume events — accepted or refused —
//! the incrementally reduced state equals a rebuild from the log, and the
//! runtime rows agree with it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::*;
use proptest::prelude::*;
use serde_json::{json, Value};
use tributary::event::{Authority, InputEvent};

#[derive(Debug, Clone)]
enum Op {
    Configure {
        key: Option<u8>,
        receiver: u8,
        start_now: bool,
    },
    Remove(u8),
    CursorSet {
        key: u8,
        after: u64,
    },
    Halt {
        key: u8,
        after: u64,
    },
    Resume(u8),
    Data(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (proptest::option::of(0u8..4), 0u8..3, any::<bool>()).prop_map(|(key, receiver, start_now)| Op::Configure {
            key,
            receiver,
            start_now
        }),
        (0u8..4).prop_map(Op::Remove),
        (0u8..4, 0u64..30).prop_map(|(key, after)| Op::CursorSet { key, after }),
        (0u8..4, 0u64..30).prop_map(|(key, after)| Op::Halt { key, after }),
        (0u8..4).prop_map(Op::Resume),
        (1u8..5).prop_map(Op::Data),
    ]
}

fn control(name: &str, payload: Value) -> Value {
    json!({"type": format!("events.iterate.com/stream/{name}"), "payload": payload})
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn incremental_state_equals_rebuild(ops in proptest::collection::vec(op(), 1..40)) {
        let mut stream = memory_stream("/prop");
        for (step, op) in ops.iter().enumerate() {
            let now = step as i64 * 10;
            let body = match op {
                Op::Configure { key, receiver, start_now } => {
                    let mut payload = json!({"receiver": {"action": "copy-to-stream", "receivingStreamPath": format!("/r{receiver}"),
                        "delivery": {"start": if *start_now { "now" } else { "beginning" }, "onFailingEvent": "halt"}}});
                    if let Some(key) = key {
                        payload["subscriptionKey"] = json!(format!("k{key}"));
                    }
                    control("subscription-configured", payload)
                }
                Op::Remove(key) => control("subscription-removed", json!({"subscriptionKey": format!("k{key}"), "reason": "requested"})),
                Op::CursorSet { key, after } => control("subscription-cursor-set", json!({"subscriptionKey": format!("k{key}"), "afterOffset": after})),
                Op::Resume(key) => control("subscription-delivery-resumed", json!({"subscriptionKey": format!("k{key}")})),
                Op::Data(n) => json!({"events": (0..*n).map(|i| json!({"type": "data", "payload": i})).collect::<Vec<_>>()}),
                Op::Halt { key, after } => {
                    let halted = InputEvent::from_json(
                        control("subscription-delivery-halted", json!({"subscriptionKey": format!("k{key}"), "reason": "delivery-failed", "afterOffset": after, "attempts": 3})),
                        Authority::Trusted,
                    ).unwrap();
                    let _ = stream.append(vec![halted], &inputs(now, 1));
                    continue;
                }
            };
            let _ = append(&mut stream, body, now);
        }
        let incremental = stream.state().clone();
        prop_assert_eq!(&stream.rebuild_state().unwrap(), &incremental);
        let rows = stream.runtime_rows().unwrap();
        let keys: Vec<_> = incremental.subscriptions.outbound.by_key.keys().cloned().collect();
        prop_assert_eq!(rows.keys().cloned().collect::<Vec<_>>(), keys);
        for (key, subscription) in &incremental.subscriptions.outbound.by_key {
            prop_assert_eq!(rows[key].cursor_changed_at_source_offset, subscription.cursor_changed_at_source_offset());
        }
    }
}
