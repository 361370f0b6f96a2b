//! A copy batch read off the internal route (docs/design.md §7) without a
//! JSON tree of each copy (issue 33): each event's `payload`, `metadata`
//! and `source` stay the compact text the source serialized, and are stored
//! as they came. What this typed read refuses (a field of the wrong kind, a
//! field twice, a missing `type`) is read the old way, through a tree and
//! [`InputEvent::from_json`], so the answer and the error are the ones a
//! tree gives.

use crate::copy::{chain_of, chain_of_text, HopText, Stamp};
use crate::event::{Authority, EventError, InputEvent};
use crate::json_field::JsonField;
use crate::json_limits::{raw_depth, string_len};
use crate::limits::{MAX_EVENT_BYTES, MAX_EVENT_DEPTH};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// The body of `POST /internal/copy`, each event still text.
#[derive(Deserialize)]
pub(super) struct WireBatch<'a> {
    pub stamp: Stamp,
    #[serde(borrow)]
    pub events: Vec<&'a RawValue>,
}

/// One copy as the source wrote it (`copy_shaped` in `delivery::prepare`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct WireEvent<'a> {
    #[serde(rename = "type")]
    event_type: String,
    #[serde(default, borrow, deserialize_with = "present")]
    payload: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    metadata: Option<&'a RawValue>,
    #[serde(default)]
    idempotency_key: Option<String>,
    #[serde(default, deserialize_with = "present")]
    ephemeral: Option<bool>,
    #[serde(default, borrow, deserialize_with = "present")]
    source: Option<&'a RawValue>,
}

/// A field that is there, `null` included (absent is the `default`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// One copy of a batch: its provenance chain and the event it becomes (or
/// why it cannot be one).
pub(super) struct WireCopy<'a> {
    pub chain: Vec<HopText<'a>>,
    pub input: Result<InputEvent, EventError>,
}

/// Reads one event of a batch: typed when it can be, else as a tree.
pub(super) fn read(raw: &RawValue) -> WireCopy<'_> {
    match serde_json::from_str::<WireEvent>(raw.get()) {
        Ok(wire) if wire.metadata.is_none_or(is_object_or_null) => WireCopy {
            chain: wire
                .source
                .map(|source| chain_of_text(source.get()))
                .unwrap_or_default(),
            input: input_of(raw, wire),
        },
        _ => {
            let value: Value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
            WireCopy {
                chain: chain_of(value.get("source")).into_iter().map(HopText::from).collect(),
                input: InputEvent::from_json(value, Authority::Trusted),
            }
        }
    }
}

fn is_object_or_null(raw: &RawValue) -> bool {
    raw.get().starts_with('{') || raw.get() == "null"
}

/// The checks of [`InputEvent::from_json`] on the text: depth, then the
/// content's size (§3 rule 2: the copy's whole text less its `source` and
/// `idempotencyKey`, which are the engine's), then the type and key.
fn input_of(raw: &RawValue, wire: WireEvent<'_>) -> Result<InputEvent, EventError> {
    // Nesting needs an opening bracket per level: text with few of them
    // (every copy the source writes) is not scanned for its depth.
    let bytes = raw.get().as_bytes();
    let openings = bytes.iter().filter(|byte| matches!(byte, b'{' | b'[')).count();
    let depth = if openings > MAX_EVENT_DEPTH {
        raw_depth(bytes)
    } else {
        0
    };
    if depth > MAX_EVENT_DEPTH {
        return Err(EventError::TooDeep(depth));
    }
    let size = content_size(raw, &wire);
    if size > MAX_EVENT_BYTES {
        return Err(EventError::TooLarge(size));
    }
    let text = |field: &RawValue| JsonField::Wire(field.to_owned());
    let event = InputEvent {
        event_type: wire.event_type,
        payload: wire
            .payload
            .map_or_else(|| JsonField::Tree(serde_json::json!({})), text),
        metadata: match wire.metadata.filter(|metadata| metadata.get() != "null") {
            Some(metadata) => text(metadata),
            None => JsonField::Tree(serde_json::json!({})),
        },
        idempotency_key: wire.idempotency_key,
        ephemeral: wire.ephemeral.unwrap_or(false),
        source: wire.source.map(text),
        body: None,
    };
    event.checked(Authority::Trusted)
}

fn content_size(raw: &RawValue, wire: &WireEvent<'_>) -> usize {
    let total = raw.get().len();
    let Some(source) = wire.source else { return total };
    let field = |name: &str, len: usize| len.saturating_add(name.len() + 4);
    let key = wire
        .idempotency_key
        .as_deref()
        .map_or(0, |key| field("idempotencyKey", string_len(key)));
    total
        .saturating_sub(field("source", source.get().len()))
        .saturating_sub(key)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// What the typed read gives against what a tree and `from_json` give:
    /// the same chain, the same event (or error), the same stored text.
    fn agrees(text: &str) -> Result<(), TestCaseError> {
        let raw = RawValue::from_string(text.to_owned()).unwrap();
        let typed = read(&raw);
        let value: Value = serde_json::from_str(text).unwrap();
        let chain: Vec<HopText> = chain_of(value.get("source")).into_iter().map(HopText::from).collect();
        let tree = InputEvent::from_json(value, Authority::Trusted);
        prop_assert_eq!(&typed.chain, &chain, "{}", text);
        match (&typed.input, &tree) {
            (Ok(typed), Ok(tree)) => {
                prop_assert_eq!(typed, tree, "{}", text);
                // Stored as it came: the text the source wrote, floats
                // included (a tree would round them through serde_json's
                // parse), else what the tree stores.
                let original = serde_json::from_str::<serde_json::Map<String, Value>>(text).unwrap();
                for (name, field) in [("payload", &typed.payload), ("metadata", &typed.metadata)] {
                    let came = original.get(name).filter(|field| !field.is_null() || name == "payload");
                    let stored = field.to_raw().unwrap().get().to_owned();
                    match came {
                        Some(_) => prop_assert_eq!(stored, field_text(text, name), "{}", text),
                        None => prop_assert_eq!(stored, "{}", "{}", text),
                    }
                }
                let source = typed
                    .source
                    .as_ref()
                    .map(|source| source.to_raw().unwrap().get().to_owned());
                prop_assert_eq!(
                    source,
                    original.get("source").map(|_| field_text(text, "source")),
                    "{}",
                    text
                );
            }
            (typed, tree) => prop_assert_eq!(typed.as_ref().err(), tree.as_ref().err(), "{}", text),
        }
        Ok(())
    }

    /// A top-level field's text in a compact event.
    fn field_text(text: &str, name: &str) -> String {
        #[derive(Deserialize)]
        struct Fields<'a>(#[serde(borrow)] std::collections::HashMap<String, &'a RawValue>);
        let fields: Fields = serde_json::from_str(text).unwrap();
        fields.0[name].get().to_owned()
    }

    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            ".{0,12}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                proptest::collection::btree_map(".{1,6}", inner, 0..4)
                    .prop_map(|map| Value::Object(map.into_iter().collect())),
            ]
        })
    }

    fn hop(offset: u64) -> Value {
        json!({"projectId": "p", "path": "/a", "streamId": "s", "streamCreatedAt": "2026-01-01T00:00:00.000Z",
               "offset": offset, "type": "x", "createdAt": "2026-01-01T00:00:00.000Z", "subscriptionKey": "k",
               "cursorChangedAtSourceOffset": 1})
    }

    /// A field that may be absent, well formed or of the wrong kind.
    fn field(choices: Vec<Value>) -> impl Strategy<Value = Option<Value>> {
        proptest::option::of(proptest::sample::select(choices))
    }

    fn any_copy() -> impl Strategy<Value = Value> {
        let long_key = "k".repeat(crate::limits::MAX_IDEMPOTENCY_KEY_BYTES + 1);
        (
            field(vec![
                json!("x"),
                json!("a b"),
                json!(""),
                json!(5),
                json!("events.iterate.com/stream/error-occurred"),
            ]),
            proptest::option::of(any_json()),
            prop_oneof![
                Just(None),
                Just(Some(Value::Null)),
                Just(Some(json!(5))),
                any_json().prop_map(|v| Some(json!({"m": v})))
            ],
            field(vec![Value::Null, json!("copy:1"), json!(""), json!(long_key), json!(3)]),
            field(vec![json!(true), json!(false), Value::Null, json!("yes")]),
            field(vec![
                json!({"copiedFrom": [hop(1)]}),
                json!({"copiedFrom": [hop(1), hop(2)], "x": 1}),
                json!({"copiedFrom": "no"}),
                json!(7),
            ]),
            any::<bool>(),
        )
            .prop_map(|(event_type, payload, metadata, key, ephemeral, source, unknown)| {
                let mut event = serde_json::Map::new();
                for (name, field) in [
                    ("type", event_type),
                    ("payload", payload),
                    ("metadata", metadata),
                    ("idempotencyKey", key),
                    ("ephemeral", ephemeral),
                    ("source", source),
                ] {
                    if let Some(field) = field {
                        event.insert(name.to_owned(), field);
                    }
                }
                if unknown {
                    event.insert("unknown".to_owned(), json!(1));
                }
                Value::Object(event)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn s7_a_copy_read_as_text_is_the_copy_read_as_a_tree(event in any_copy()) {
            agrees(&serde_json::to_string(&event).unwrap())?;
        }
    }

    #[test]
    fn s7_what_the_typed_read_refuses_is_read_as_a_tree() {
        let source = json!({"copiedFrom": [hop(1)]}).to_string();
        for text in [
            format!(r#"{{"type":"x","type":"y","source":{source}}}"#),
            format!(r#"{{"type":"x","payload":1,"payload":{{"a":2}},"source":{source}}}"#),
            format!(r#"{{"type":"x","source":{{"copiedFrom":[]}},"source":{source}}}"#),
            format!(r#"{{"payload":1,"source":{source}}}"#),
            format!(r#"{{"type":"x","metadata":[],"source":{source}}}"#),
            format!(r#"{{"type":"x","ephemeral":null,"source":{source}}}"#),
            "[1]".to_owned(),
            "\"x\"".to_owned(),
        ] {
            agrees(&text).unwrap();
        }
    }

    #[test]
    fn s3_a_copy_at_the_size_and_depth_limits_is_judged_as_a_tree_judges_it() {
        let source = json!({"copiedFrom": [hop(1)]});
        let sized = |content: usize| {
            let event = |payload: String| json!({"type": "x", "payload": payload, "idempotencyKey": "copy:1", "source": source});
            let len = crate::json_limits::json_len;
            // The engine's fields do not count: `"source":` and `,` around each.
            let base = len(&event(String::new())) - (len(&source) + 10) - (len(&json!("copy:1")) + 18);
            event("a".repeat(content - base))
        };
        for content in [MAX_EVENT_BYTES - 1, MAX_EVENT_BYTES, MAX_EVENT_BYTES + 1] {
            let event = sized(content);
            agrees(&event.to_string()).unwrap();
            let raw = RawValue::from_string(event.to_string()).unwrap();
            let refused = matches!(read(&raw).input, Err(EventError::TooLarge(_)));
            assert_eq!(refused, content > MAX_EVENT_BYTES, "content {content}");
        }
        let nested = |levels: usize| format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
        for levels in [
            MAX_EVENT_DEPTH - 2,
            MAX_EVENT_DEPTH - 1,
            MAX_EVENT_DEPTH,
            MAX_EVENT_DEPTH + 1,
        ] {
            agrees(&format!(
                r#"{{"type":"x","payload":{},"source":{source}}}"#,
                nested(levels)
            ))
            .unwrap();
        }
        // Many brackets, none deep: scanned, and within the limit.
        let wide = format!("[{}]", vec!["[]"; MAX_EVENT_DEPTH * 2].join(","));
        let text = format!(r#"{{"type":"x","payload":{wide},"source":{source}}}"#);
        agrees(&text).unwrap();
        assert!(read(&RawValue::from_string(text).unwrap()).input.is_ok());
    }
}
