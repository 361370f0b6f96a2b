//! The entry reads an append body's event types without building the body
//! (`route::append_heads`, docs/design.md §2). It must decide exactly what
//! reading the whole body as a `serde_json::Value` decided: the same scopes,
//! the same `subscription-configured` payloads (which carry the copy targets
//! and secret references a prefix token is checked against). Checked here
//! against that reading, kept as the reference, on hostile bodies: repeated
//! and escaped keys, non-object events, `events` that is not an array,
//! non-string types, whitespace, and bodies that are not JSON.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use proptest::prelude::*;
use serde_json::Value;
use tributary::route::append_heads::{append_heads, EventHead};

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const REMOVED: &str = "events.iterate.com/stream/subscription-removed";

/// The reading the entry did before: the whole body as a `Value`.
fn reference(body: &[u8]) -> Option<Vec<EventHead>> {
    let value = serde_json::from_slice::<Value>(body).ok()?;
    let events = match value {
        Value::Object(mut batch) if batch.get("events").is_some_and(Value::is_array) => match batch.remove("events") {
            Some(Value::Array(events)) => events,
            _ => unreachable!(),
        },
        event => vec![event],
    };
    Some(
        events
            .iter()
            .map(|event| {
                let kind = event.get("type").and_then(Value::as_str);
                EventHead {
                    control: kind.is_some_and(|kind| kind.starts_with("events.iterate.com/stream/")),
                    configured: match kind {
                        Some(CONFIGURED) => event.get("payload").cloned(),
                        _ => None,
                    },
                }
            })
            .collect(),
    )
}

fn agrees(body: &str) {
    assert_eq!(append_heads(body.as_bytes()), reference(body.as_bytes()), "{body}");
}

#[test]
fn s2_hostile_bodies_read_as_the_whole_body_reads() {
    let copy =
        r#"{"subscriptionKey": "k", "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/other/x"}}"#;
    for body in [
        "",
        "{",
        "[]",
        "null",
        "7",
        r#""events.iterate.com/stream/x""#,
        r#"{"events": []}"#,
        r#"{"events": {"type": "events.iterate.com/stream/x"}, "type": "a"}"#,
        r#"{"events": "x", "type": "events.iterate.com/stream/x"}"#,
        r#"{"type": 7}"#,
        r#"{"type": null, "payload": 1}"#,
        r#"{"type": ["events.iterate.com/stream/x"]}"#,
        // A repeated key counts by its last occurrence, either way round.
        r#"{"type": "a", "type": "events.iterate.com/stream/x"}"#,
        r#"{"type": "events.iterate.com/stream/x", "type": "a"}"#,
        r#"{"events": [{"type": "a"}], "events": 3}"#,
        r#"{"events": 3, "events": [{"type": "events.iterate.com/stream/x"}]}"#,
        // An escaped key is the key it spells; an escaped value the value.
        r#"{"typ\u0065": "events.iterate.com/stream/x"}"#,
        r#"{"type": "events.iterate.com\/stream\/x"}"#,
        r#"{"\u0065vents": [{"type": "events.iterate.com/stream/x"}]}"#,
        // Non-object events inside a batch, and a batch inside an event.
        r#"{"events": [1, "s", null, true, [], [{"type": "events.iterate.com/stream/x"}]]}"#,
        r#"{"events": [{"events": [{"type": "events.iterate.com/stream/x"}]}]}"#,
        "  \n {\"events\" : [ {\"type\" : \"a\" } ] } \t",
        // Not JSON after a valid prefix; a number `Value` refuses where it is read.
        r#"{"type": "a"} {"type": "events.iterate.com/stream/x"}"#,
        r#"{"type": 1e999}"#,
        r#"{"events": [1e999]}"#,
    ] {
        agrees(body);
    }
    for payload in [
        copy,
        "null",
        "[]",
        r#"{"receiver": 3}"#,
        r#"{"receiver": {"action": "copy-to-stream"}}"#,
    ] {
        agrees(&format!(r#"{{"type": "{CONFIGURED}", "payload": {payload}}}"#));
        agrees(&format!(
            r#"{{"type": "{CONFIGURED}", "payload": {payload}, "payload": {{}}}}"#
        ));
        agrees(&format!(r#"{{"payload": {payload}, "type": "{CONFIGURED}"}}"#));
        agrees(&format!(
            r#"{{"events": [{{"type": "a"}}, {{"type": "{CONFIGURED}", "payload": {payload}}}]}}"#
        ));
    }
    agrees(&format!(r#"{{"type": "{CONFIGURED}"}}"#));
}

/// The one place the readings may differ: a body `Value` refuses but the
/// skipping reader accepts (a number out of `f64`'s range inside a payload).
/// The stream refuses that body (400 `malformed_json`); the entry asks the
/// stricter scope of its types, never a looser one.
#[test]
fn s2_a_body_value_refuses_needs_at_least_what_it_would() {
    let body = r#"{"events": [{"type": "a", "payload": 1e999}, {"type": "events.iterate.com/stream/x"}]}"#;
    assert_eq!(reference(body.as_bytes()), None);
    let heads = append_heads(body.as_bytes()).unwrap();
    assert_eq!(
        heads.iter().map(|head| head.control).collect::<Vec<_>>(),
        vec![false, true]
    );
}

/// One JSON value of a few shapes an event may be built from.
fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("-12.5e3".to_owned()),
        Just(r#""a\"b\u00e9""#.to_owned()),
        Just(format!(r#""{CONFIGURED}""#)),
        Just(format!(r#""{REMOVED}""#)),
        Just(r#"{"action": "copy-to-stream", "receivingStreamPath": "/o/p"}"#.to_owned()),
        Just("[]".to_owned()),
    ]
}

/// A key an event may carry, escaped or not.
fn key() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("type"),
        Just("typ\\u0065"),
        Just("payload"),
        Just("p\\u0061yload"),
        Just("events"),
        Just("receiver"),
        Just("metadata"),
    ]
}

/// An object of up to five fields (keys may repeat), each a leaf or an object of leaves.
fn object(depth: u32) -> BoxedStrategy<String> {
    let value = if depth == 0 {
        leaf().boxed()
    } else {
        prop_oneof![
            3 => leaf(),
            1 => object(depth - 1),
            1 => proptest::collection::vec(object(depth - 1), 0..4).prop_map(|items| format!("[{}]", items.join(", "))),
        ]
        .boxed()
    };
    proptest::collection::vec((key(), value), 0..5)
        .prop_map(|fields| {
            let fields: Vec<String> = fields
                .iter()
                .map(|(key, value)| format!(r#""{key}": {value}"#))
                .collect();
            format!("{{{}}}", fields.join(", "))
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn s2_generated_bodies_read_as_the_whole_body_reads(body in prop_oneof![
        object(2),
        proptest::collection::vec(prop_oneof![object(2), leaf()], 0..6)
            .prop_map(|events| format!(r#"{{"events": [{}]}}"#, events.join(", "))),
    ]) {
        prop_assert_eq!(append_heads(body.as_bytes()), reference(body.as_bytes()), "{}", body);
    }
}
