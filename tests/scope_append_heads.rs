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
use std::borrow::Cow;
use tributary::auth_tokens::Scope;
use tributary::reserved_keys::{check_public_append, is_reserved, ReservedKeyError};
use tributary::route::append_heads::{AppendReading, EventHead};
use tributary::route::scope;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const REMOVED: &str = "events.iterate.com/stream/subscription-removed";

/// One event as the whole-body reading saw it.
fn head_of(event: &Value) -> EventHead<'static> {
    let kind = event.get("type").and_then(Value::as_str);
    EventHead {
        control: kind.is_some_and(|kind| kind.starts_with("events.iterate.com/stream/")),
        configured: match kind {
            Some(CONFIGURED) => event.get("payload").cloned(),
            _ => None,
        },
        idempotency_key: event
            .get("idempotencyKey")
            .and_then(Value::as_str)
            .map(|key| Cow::Owned(key.to_owned())),
    }
}

/// The reading the entry did before: the whole body as a `Value`.
fn reference(body: &[u8]) -> Option<AppendReading<'static>> {
    let value = serde_json::from_slice::<Value>(body).ok()?;
    Some(AppendReading {
        whole: head_of(&value),
        batch: value
            .get("events")
            .and_then(Value::as_array)
            .map(|events| events.iter().map(head_of).collect()),
    })
}

fn agrees(body: &str) {
    assert_eq!(
        AppendReading::read(body.as_bytes()),
        reference(body.as_bytes()),
        "{body}"
    );
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
        // Idempotency keys: repeated, escaped, not a string, on the batch itself.
        r#"{"type": "a", "idempotencyKey": "copy:1", "idempotencyKey": "mine"}"#,
        r#"{"type": "a", "idempotencyKey": "mine", "idempotency\u004bey": "copy:1"}"#,
        r#"{"type": "a", "idempotencyKey": {"k": "copy:1"}}"#,
        r#"{"idempotencyKey": "evm:1", "events": [{"type": "a", "idempotencyKey": "k"}]}"#,
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
    let reading = AppendReading::read(body.as_bytes()).unwrap();
    let controls: Vec<bool> = reading.events().iter().map(|head| head.control).collect();
    assert_eq!(controls, vec![false, true]);
    assert_eq!(scope::append_needs(body.as_bytes()), vec![Scope::Append, Scope::Manage]);
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
        Just(r#""copy:0123""#.to_owned()),
        Just(r#""evm:1:2""#.to_owned()),
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
        Just("idempotencyKey"),
        Just("idempotency\\u004bey"),
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

/// The reserved-key check as it read the whole body before (`reserved_keys`).
fn reserved_reference(body: &[u8]) -> Result<(), ReservedKeyError> {
    if !tributary::json_limits::may_contain(body, b"idempotencyKey") {
        return Ok(());
    }
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Ok(());
    };
    let check = |event: &Value, index| match event.get("idempotencyKey").and_then(Value::as_str) {
        Some(key) => match is_reserved(key) {
            Some(prefix) => Err(ReservedKeyError {
                index,
                key: key.to_owned(),
                prefix,
            }),
            None => Ok(()),
        },
        None => Ok(()),
    };
    for (index, event) in value
        .get("events")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        check(event, Some(index))?;
    }
    check(&value, None)
}

#[test]
fn s3_reserved_keys_are_found_as_the_whole_body_finds_them() {
    for body in [
        r#"{"type": "a", "idempotencyKey": "copy:1"}"#,
        r#"{"events": [{"type": "a"}, {"type": "a", "idempotencyKey": "trimmed:k"}]}"#,
        r#"{"idempotencyKey": "evm:1", "events": [{"type": "a", "idempotencyKey": "k"}]}"#,
        r#"{"idempotencyKey": "evm:1", "events": [{"type": "a", "idempotencyKey": "skipped:k"}]}"#,
        r#"{"type": "a", "idempotencyKey": "copy:1", "idempotencyKey": "mine"}"#,
        r#"{"type": "a", "idempotencyKey": "mine", "idempotency\u004bey": "copy:1"}"#,
        r#"{"type": "a", "idempotencyKey": "mine"}"#,
        r#"{"type": "a", "idempotencyKey": "copy:1"#,
    ] {
        assert_eq!(
            check_public_append(body.as_bytes()),
            reserved_reference(body.as_bytes()),
            "{body}"
        );
    }
    assert!(check_public_append(br#"{"events": [{"type": "a", "idempotencyKey": "copy:1"}]}"#).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn s2_generated_bodies_read_as_the_whole_body_reads(body in prop_oneof![
        object(2),
        proptest::collection::vec(prop_oneof![object(2), leaf()], 0..6)
            .prop_map(|events| format!(r#"{{"events": [{}]}}"#, events.join(", "))),
    ]) {
        prop_assert_eq!(AppendReading::read(body.as_bytes()), reference(body.as_bytes()), "{}", body);
        prop_assert_eq!(check_public_append(body.as_bytes()), reserved_reference(body.as_bytes()), "{}", body);
    }
}
