//! What the entry checks of an append body before it forwards it: each
//! event's `type` and `idempotencyKey`, and a `subscription-configured`'s
//! payload, read in one pass without building the rest of the body. The
//! scopes (§2) and the engine's key namespace (§3 rule 4, `reserved_keys`)
//! are decided from this; the stream then parses the body in full
//! (`stream::append::parse_body`) and refuses what is malformed.
//!
//! The reading keeps `serde_json::Value`'s rules, so a body means the same
//! here as to the stream: a repeated key counts by its last occurrence, an
//! escaped key (`"typ\u0065"`) is the key it spells, and a body is a batch
//! when it is an object whose `events` is an array. Everything else an event
//! holds is skipped (checked as JSON, not built), and a string is borrowed
//! from the body unless it has an escape.

use crate::event::{ControlType, CONTROL_PREFIX};
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// One event of an append body, as far as the entry's checks go.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EventHead<'a> {
    /// Its `type` is a string naming a control event (`events.iterate.com/stream/…`).
    pub control: bool,
    /// The payload of a `subscription-configured`, when it has one.
    pub configured: Option<Value>,
    /// Its `idempotencyKey`, when that is a string.
    pub idempotency_key: Option<Cow<'a, str>>,
}

/// An append body read both ways the stream may take it.
#[derive(Debug, Clone, PartialEq)]
pub struct AppendReading<'a> {
    /// The body's own fields, as one event.
    pub whole: EventHead<'a>,
    /// Each element of its `events`, when it is an object whose `events` is an array.
    pub batch: Option<Vec<EventHead<'a>>>,
}

impl<'a> AppendReading<'a> {
    /// `None` when the body is not JSON (nor then is it to the stream).
    pub fn read(body: &'a [u8]) -> Option<AppendReading<'a>> {
        let top: Fields<'a, Batch<'a>> = serde_json::from_slice(body).ok()?;
        Some(AppendReading {
            whole: top.head(),
            batch: top.events.and_then(|events| events.0),
        })
    }

    /// The events the body carries: a batch's, else the body as one event.
    pub fn events(&self) -> &[EventHead<'a>] {
        match &self.batch {
            Some(events) => events,
            None => std::slice::from_ref(&self.whole),
        }
    }
}

/// The fields of one JSON value the checks read (none for a value that is
/// not an object); `E` is what an `events` field is read as.
struct Fields<'a, E> {
    kind: Option<Text<'a>>,
    key: Option<Text<'a>>,
    payload: Option<&'a RawValue>,
    events: Option<E>,
}

impl<E> Default for Fields<'_, E> {
    fn default() -> Self {
        Fields {
            kind: None,
            key: None,
            payload: None,
            events: None,
        }
    }
}

impl<'a, E> Fields<'a, E> {
    fn head(&self) -> EventHead<'a> {
        let kind = self.kind.as_ref().and_then(|kind| kind.0.as_deref());
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
            idempotency_key: self.key.as_ref().and_then(|key| key.0.clone()),
        }
    }
}

/// A top-level `events`: the heads of its elements when it is an array.
#[derive(Default)]
struct Batch<'a>(Option<Vec<EventHead<'a>>>);

/// An event's own `events` field, which is not a batch: skipped.
struct Skipped;

/// A JSON value read for its text: a string's (borrowed when it has no
/// escape), nothing for any other value (skipped).
#[derive(Default)]
struct Text<'a>(Option<Cow<'a, str>>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TextVisitor)
    }
}

impl<'de> Deserialize<'de> for Skipped {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(deserializer).map(|_| Skipped)
    }
}

impl<'de> Deserialize<'de> for Batch<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BatchVisitor)
    }
}

impl<'de, E: Deserialize<'de>> Deserialize<'de> for Fields<'de, E> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FieldsVisitor(std::marker::PhantomData))
    }
}

/// A key of an event object, as far as the entry's checks go.
enum Field {
    Type,
    IdempotencyKey,
    Payload,
    Events,
    Other,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_identifier(FieldVisitor)
    }
}

struct FieldVisitor;

impl Visitor<'_> for FieldVisitor {
    type Value = Field;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Field, E> {
        Ok(match key {
            "type" => Field::Type,
            "idempotencyKey" => Field::IdempotencyKey,
            "payload" => Field::Payload,
            "events" => Field::Events,
            _ => Field::Other,
        })
    }
}

/// A visitor's answer to a JSON boolean, number or `null`: its value's
/// default (a map, a sequence and a string are each visitor's own).
macro_rules! any_scalar_is_default {
    () => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Default::default())
        }

        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }

        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }

        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }

        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
}

/// Skips the rest of a sequence (as many elements as the size-bounded body holds).
fn skip_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

/// Skips the rest of a map (as many entries as the size-bounded body holds).
fn skip_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    any_scalar_is_default!();

    fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(Text(Some(Cow::Borrowed(text))))
    }

    fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Text(Some(Cow::Owned(text.to_owned()))))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        skip_seq(seq).map(|()| Text(None))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        skip_map(map).map(|()| Text(None))
    }
}

struct BatchVisitor;

impl<'de> Visitor<'de> for BatchVisitor {
    type Value = Batch<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    any_scalar_is_default!();

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Batch(None))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut heads = Vec::new();
        // As many elements as the size-bounded body holds.
        while let Some(event) = seq.next_element::<Fields<'de, Skipped>>()? {
            heads.push(event.head());
        }
        Ok(Batch(Some(heads)))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        skip_map(map).map(|()| Batch(None))
    }
}

struct FieldsVisitor<E>(std::marker::PhantomData<E>);

impl<'de, Events: Deserialize<'de>> Visitor<'de> for FieldsVisitor<Events> {
    type Value = Fields<'de, Events>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    any_scalar_is_default!();

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Fields::default())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut fields = Fields::default();
        // As many keys as the (size-bounded) body holds; each is read once.
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::Type => fields.kind = Some(map.next_value()?),
                Field::IdempotencyKey => fields.key = Some(map.next_value()?),
                Field::Payload => fields.payload = Some(map.next_value()?),
                Field::Events => fields.events = Some(map.next_value()?),
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(fields)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        skip_seq(seq).map(|()| Fields::default())
    }
}
