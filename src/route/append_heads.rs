//! What an append body's events say about the token it needs (docs/design.md
//! §2): each event's `type`, and a `subscription-configured`'s payload, read
//! without building the rest of the body. The entry decides the scopes from
//! this before it forwards the body; the stream then parses the body in full
//! (`stream::append::parse_body`) and refuses what is malformed.
//!
//! The reading keeps `serde_json::Value`'s rules, so a body means the same
//! here as to the stream: a repeated key counts by its last occurrence, an
//! escaped key (`"typ\u0065"`) is the key it spells, and a body is a batch
//! when it is an object whose `events` is an array. Everything else an event
//! holds is skipped (checked as JSON, not built): a 100-event batch is read
//! without a map or a string allocated per payload field.

use crate::event::{ControlType, CONTROL_PREFIX};
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt;

/// One event of an append body, as far as its token goes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EventHead {
    /// Its `type` is a string naming a control event (`events.iterate.com/stream/…`).
    pub control: bool,
    /// The payload of a `subscription-configured`, when it has one.
    pub configured: Option<Value>,
}

/// The events of `body`: a batch's `events`, else the body as one event.
/// `None` when the body is not JSON (nor then is it to the stream).
pub fn append_heads(body: &[u8]) -> Option<Vec<EventHead>> {
    let top: Fields = serde_json::from_slice(body).ok()?;
    match top.events {
        Some(events) if events.get().starts_with('[') => {
            let events: Vec<Fields> = serde_json::from_str(events.get()).ok()?;
            Some(events.into_iter().map(Fields::head).collect())
        }
        _ => Some(vec![top.head()]),
    }
}

/// The fields of one JSON value that decide its scopes; all empty for a
/// value that is not an object.
#[derive(Default)]
struct Fields<'a> {
    kind: Option<Value>,
    payload: Option<&'a RawValue>,
    events: Option<&'a RawValue>,
}

impl Fields<'_> {
    fn head(self) -> EventHead {
        let kind = self.kind.as_ref().and_then(Value::as_str);
        let configured = match (kind, self.payload) {
            (Some(kind), Some(payload)) if kind == ControlType::SubscriptionConfigured.as_str() => {
                // A payload `Value` refuses (a number out of range) is refused
                // by the stream too; the event still needs `manage` here.
                serde_json::from_str(payload.get()).ok()
            }
            _ => None,
        };
        EventHead {
            control: kind.is_some_and(|kind| kind.starts_with(CONTROL_PREFIX)),
            configured,
        }
    }
}

/// A key of an event object, as far as its scopes go.
enum Key {
    Type,
    Payload,
    Events,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Key, E> {
        Ok(match key {
            "type" => Key::Type,
            "payload" => Key::Payload,
            "events" => Key::Events,
            _ => Key::Other,
        })
    }
}

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut fields = Fields::default();
        // As many keys as the (size-bounded) body holds; each is read once.
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Type => fields.kind = Some(map.next_value()?),
                Key::Payload => fields.payload = Some(map.next_value()?),
                Key::Events => fields.events = Some(map.next_value()?),
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(fields)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Fields::default())
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Fields::default())
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Fields::default())
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Fields::default())
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Fields::default())
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Fields::default())
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Fields::default())
    }
}
