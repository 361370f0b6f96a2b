//! A copy batch read off the internal route (docs/design.md §7) without a
//! JSON tree of each copy (issue 33): each event's `payload`, `metadata`
//! and `source` stay the compact text the source serialized, and are stored
//! as they came. A batch is read in one pass, each copy typed as it is read;
//! a batch that pass refuses is read again event by event, and what the
//! typed read refuses (a field of the wrong kind, a field twice, a missing
//! `type`) is read the old way, through a tree and
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
struct WireBatch<'a> {
    stamp: Stamp,
    #[serde(borrow)]
    events: Vec<&'a RawValue>,
}

/// The body of `POST /internal/copy`, each event typed as it is read.
#[derive(Deserialize)]
struct TypedBatch<'a> {
    stamp: Stamp,
    #[serde(borrow)]
    events: Vec<WireEvent<'a>>,
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
    #[serde(default, deserialize_with = "present")]
    idempotency_key: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    ephemeral: Option<bool>,
    #[serde(default, borrow, deserialize_with = "present")]
    source: Option<&'a RawValue>,
}

impl WireEvent<'_> {
    /// What the typed read takes: metadata an object or `null` (anything
    /// else is refused as a tree refuses it).
    fn typed(&self) -> bool {
        self.metadata
            .is_none_or(|raw| raw.get().starts_with('{') || raw.get() == "null")
    }
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

/// Reads a batch's stamp and each of its copies: in one pass when every
/// copy types, else event by event. A body that is not a batch is refused
/// with the reason serde_json gives.
pub(super) fn read_batch(body: &[u8]) -> Result<(Stamp, Vec<WireCopy<'_>>), serde_json::Error> {
    if let Ok(batch) = serde_json::from_slice::<TypedBatch>(body) {
        if batch.events.iter().all(WireEvent::typed) {
            return Ok((batch.stamp, batch.events.into_iter().map(typed_copy).collect()));
        }
    }
    let batch: WireBatch = serde_json::from_slice(body)?;
    Ok((batch.stamp, batch.events.into_iter().map(read).collect()))
}

/// Reads one event of a batch: typed when it can be, else as a tree.
pub(super) fn read(raw: &RawValue) -> WireCopy<'_> {
    match serde_json::from_str::<WireEvent>(raw.get()) {
        Ok(wire) if wire.typed() => typed_copy(wire),
        _ => {
            let value: Value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
            WireCopy {
                chain: chain_of(value.get("source")).into_iter().map(HopText::from).collect(),
                input: InputEvent::from_json(value, Authority::Trusted),
            }
        }
    }
}

fn typed_copy(wire: WireEvent<'_>) -> WireCopy<'_> {
    WireCopy {
        chain: wire
            .source
            .map(|source| chain_of_text(source.get()))
            .unwrap_or_default(),
        input: input_of(wire),
    }
}

/// The checks of [`InputEvent::from_json`] on the text: depth, then the
/// content's size (§3 rule 2: the copy's text less its `source` and
/// `idempotencyKey`, which are the engine's), then the type and key.
fn input_of(wire: WireEvent<'_>) -> Result<InputEvent, EventError> {
    let parts = || [wire.payload, wire.metadata, wire.source].into_iter().flatten();
    // Nesting needs an opening bracket per level: parts with few of them
    // (every copy the source writes) are not scanned for their depth. The
    // event is one level, its deepest part the rest.
    let openings: usize = parts()
        .map(|part| part.get().bytes().filter(|byte| matches!(byte, b'{' | b'[')).count())
        .sum();
    if openings >= MAX_EVENT_DEPTH {
        let depth = 1 + parts().map(|part| raw_depth(part.get().as_bytes())).max().unwrap_or(0);
        if depth > MAX_EVENT_DEPTH {
            return Err(EventError::TooDeep(depth));
        }
    }
    let size = content_size(&wire);
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
        idempotency_key: wire.idempotency_key.flatten(),
        ephemeral: wire.ephemeral.unwrap_or(false),
        source: wire.source.map(text),
        body: None,
    };
    event.checked(Authority::Trusted)
}

/// The compact text's length of the fields that are the event's content:
/// each written `"name":value` and a comma or the closing brace, after the
/// opening brace. With a `source`, it and the key are the engine's.
fn content_size(wire: &WireEvent<'_>) -> usize {
    let field = |name: &str, len: usize| len.saturating_add(name.len() + 4);
    let raw = |name: &str, part: Option<&RawValue>| part.map_or(0, |part| field(name, part.get().len()));
    let mut size = 1 + field("type", string_len(&wire.event_type));
    size = size
        .saturating_add(raw("payload", wire.payload))
        .saturating_add(raw("metadata", wire.metadata));
    if let Some(ephemeral) = wire.ephemeral {
        size = size.saturating_add(field("ephemeral", if ephemeral { 4 } else { 5 }));
    }
    if wire.source.is_none() {
        if let Some(key) = &wire.idempotency_key {
            let len = key.as_deref().map_or(4, string_len);
            size = size.saturating_add(field("idempotencyKey", len));
        }
    }
    size
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
        // Read in a batch (in one pass or event by event), it reads the same.
        let body = format!(r#"{{"stamp":{},"events":[{text}]}}"#, stamp_json());
        let (_, batched) = read_batch(body.as_bytes()).unwrap();
        prop_assert_eq!(batched.len(), 1);
        prop_assert_eq!(&batched[0].chain, &typed.chain, "{}", text);
        prop_assert_eq!(&batched[0].input, &typed.input, "{}", text);
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

    fn stamp_json() -> String {
        serde_json::to_string(&Stamp {
            source_project_id: "p".to_owned(),
            source_path: "/a".to_owned(),
            subscription_key: "k".to_owned(),
            stream_id: "s".to_owned(),
            stream_created_at: "2026-01-01T00:00:00.000Z".to_owned(),
            cursor_changed_at_source_offset: 1,
        })
        .unwrap()
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
    fn s7_a_batch_one_copy_of_which_does_not_type_is_read_copy_by_copy() {
        let source = json!({"copiedFrom": [hop(1)]}).to_string();
        let texts = [
            format!(r#"{{"type":"x","payload":{{"a":1.5e3}},"source":{source},"idempotencyKey":"copy:1"}}"#),
            format!(r#"{{"type":"x","metadata":[],"source":{source}}}"#),
            format!(r#"{{"type":"y","payload":[1],"source":{source},"idempotencyKey":"copy:2"}}"#),
        ];
        let body = format!(r#"{{"stamp":{},"events":[{}]}}"#, stamp_json(), texts.join(","));
        let (stamp, copies) = read_batch(body.as_bytes()).unwrap();
        assert_eq!(stamp.source_path, "/a");
        assert_eq!(copies.len(), texts.len());
        for (copy, text) in copies.iter().zip(&texts) {
            let raw = RawValue::from_string(text.clone()).unwrap();
            let alone = read(&raw);
            assert_eq!(copy.chain, alone.chain);
            assert_eq!(copy.input, alone.input);
        }
        // The first kept its payload's text (a tree would write 1500.0).
        let first = copies[0].input.as_ref().unwrap();
        assert_eq!(first.payload.to_raw().unwrap().get(), r#"{"a":1.5e3}"#);
        assert!(copies[1].input.is_err());
        // What is not a batch is refused with serde_json's reason.
        for body in ["", "[]", r#"{"events":[]}"#, r#"{"stamp":{},"events":[]}"#] {
            assert!(read_batch(body.as_bytes()).is_err(), "{body}");
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
