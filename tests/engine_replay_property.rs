//! Replay determinism (docs/design.md §5): for random sequences of configure,
//! replace, remove, cursor-set, halt and resume events and of copies from a
//! few sources in older, equal and newer runs — accepted or refused — the
//! incrementally reduced state equals a rebuild from the log, the inbound
//! fence rows (§7 rule 2, their own table) equal the rows the rebuild
//! writes, and the runtime rows agree with the state. Retention (§16) trims
//! in between: the rebuild is then the snapshot plus the retained events,
//! and must still equal the live state.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::*;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use tributary::copy::{copy_idempotency_key, CopyBatch, Stamp};
use tributary::event::{Authority, InputEvent};
use tributary::time::rfc3339_millis;

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
    /// A copy batch of one event from source `source`, key `key`, of the run
    /// (`lifetime`, `generation`), of source offset `offset`.
    Copy {
        source: u8,
        key: u8,
        lifetime: u8,
        generation: u8,
        offset: u8,
    },
    /// `retention-configured` (§16): keep `max_events` (0: clear it).
    Retain {
        max_events: u8,
        trim_past: bool,
    },
    /// Run a few trim steps now.
    Trim,
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
        (0u8..3, 0u8..2, 0u8..3, 1u8..4, 1u8..6).prop_map(|(source, key, lifetime, generation, offset)| Op::Copy {
            source,
            key,
            lifetime,
            generation,
            offset
        }),
        (0u8..8, any::<bool>()).prop_map(|(max_events, trim_past)| Op::Retain { max_events, trim_past }),
        Just(Op::Trim),
        Just(Op::Trim),
    ]
}

/// The model's fence record of one (source, key): the last accepted run
/// (lifetime, generation), the copies received, when the last one was.
type ModelFence = ((u8, u8), u64, i64);

/// A copy batch (trusted path) as a source's delivery sends it (§7).
fn copy_batch(source: u8, key: u8, lifetime: u8, generation: u8, offset: u8) -> CopyBatch {
    let stamp = Stamp {
        source_project_id: PROJECT.to_owned(),
        source_path: format!("/s{source}"),
        subscription_key: format!("c{key}"),
        stream_id: format!("lifetime-{lifetime}"),
        stream_created_at: rfc3339_millis(i64::from(lifetime) * 1_000),
        cursor_changed_at_source_offset: u64::from(generation),
    };
    let offset = u64::from(offset);
    let event = json!({"type": "x", "idempotencyKey": copy_idempotency_key(&stamp, offset),
        "source": {"copiedFrom": [{"projectId": PROJECT, "path": stamp.source_path, "streamId": stamp.stream_id,
            "streamCreatedAt": stamp.stream_created_at, "offset": offset, "type": "x",
            "createdAt": "2026-01-01T00:00:00.000Z", "subscriptionKey": stamp.subscription_key,
            "cursorChangedAtSourceOffset": generation}]}});
    CopyBatch {
        stamp,
        events: vec![event],
    }
}

fn control(name: &str, payload: Value) -> Value {
    json!({"type": format!("events.iterate.com/stream/{name}"), "payload": payload})
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn incremental_state_equals_rebuild(ops in proptest::collection::vec(op(), 1..40)) {
        let mut stream = memory_stream("/prop");
        // (source, key) → (last accepted run, copies received, when), and the
        // copies committed: the fence as the spec describes it.
        let mut fences: BTreeMap<(u8, u8), ModelFence> = BTreeMap::new();
        // Each committed copy and the offset it landed at: retention forgets
        // a trimmed copy's idempotency key (§16), so it may land again.
        let mut copied: BTreeMap<(u8, u8, (u8, u8), u8), u64> = BTreeMap::new();
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
                Op::Copy { source, key, lifetime, generation, offset } => {
                    let accepted = stream.accept_copies(copy_batch(*source, *key, *lifetime, *generation, *offset), &inputs(now, 1));
                    // The model (§7 rule 2): a strictly older run is refused; a
                    // copy already committed is a duplicate; else it counts.
                    let run = (*lifetime, *generation);
                    let record = fences.entry((*source, *key)).or_insert((run, 0, now));
                    if run < record.0 {
                        prop_assert!(accepted.is_err(), "an older run is fenced off");
                    } else if let std::collections::btree_map::Entry::Vacant(entry) = copied.entry((*source, *key, run, *offset)) {
                        let landed = accepted.as_ref().ok().and_then(|a| a.appended.first()).map(|e| e.offset);
                        prop_assert_eq!(accepted.map(|a| a.appended.len() - a.deduplicated).ok(), Some(1));
                        entry.insert(landed.unwrap_or(0));
                        *record = (run, record.1 + 1, now);
                    } else {
                        prop_assert_eq!(accepted.map(|a| a.deduplicated).ok(), Some(1));
                        record.0 = run;
                    }
                    continue;
                }
                Op::Retain { max_events, trim_past } => {
                    let payload = match max_events {
                        0 => json!({}),
                        n => json!({"maxEvents": n, "trimPastSubscribers": trim_past}),
                    };
                    control("retention-configured", payload)
                }
                Op::Trim => {
                    for _ in 0..3 {
                        stream.trim_step(now, [3; 16]).unwrap();
                    }
                    let first = stream.first_offset();
                    copied.retain(|_, landed| *landed >= first);
                    continue;
                }
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
        let live_fences = fence_rows(&stream);
        let modelled: Vec<(String, String, Value)> = fences
            .iter()
            .filter(|(_, (_, received, _))| *received > 0)
            .map(|((source, key), ((lifetime, generation), received, at))| {
                (format!("/s{source}"), format!("c{key}"), json!({
                    "streamId": format!("lifetime-{lifetime}"),
                    "streamCreatedAt": rfc3339_millis(i64::from(*lifetime) * 1_000),
                    "cursorChangedAtSourceOffset": generation,
                    "numEventsReceived": received,
                    "lastEventReceivedAt": rfc3339_millis(*at),
                }))
            })
            .collect();
        prop_assert_eq!(&live_fences, &modelled);
        prop_assert_eq!(stream.inbound_fence_count().unwrap(), live_fences.len() as u64);
        prop_assert_eq!(&stream.rebuild_state().unwrap(), &incremental);
        prop_assert_eq!(fence_rows(&stream), live_fences);
        prop_assert_eq!(stream.inbound_fence_count().unwrap(), fence_rows(&stream).len() as u64);
        let rows = stream.runtime_rows().unwrap();
        let keys: Vec<_> = incremental.subscriptions.outbound.by_key.keys().cloned().collect();
        prop_assert_eq!(rows.keys().cloned().collect::<Vec<_>>(), keys);
        for (key, subscription) in &incremental.subscriptions.outbound.by_key {
            prop_assert_eq!(rows[key].cursor_changed_at_source_offset, subscription.cursor_changed_at_source_offset());
        }
    }
}
