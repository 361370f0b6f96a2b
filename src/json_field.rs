//! One JSON field of an input event (`payload`, `metadata`, `source`,
//! docs/design.md §3): a tree parsed from a caller's body, or the compact
//! text a copy carried over the internal route (§7), which the receiving
//! stream stores as it came without building a tree of it (issue 33). A
//! planned delivery's body is one too: a copy's or a plain webhook's event
//! is text (`delivery::prepare`), anything a JSONata expression shaped is a
//! tree.

use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;

#[derive(Debug, Clone)]
pub enum JsonField {
    /// Parsed: a caller's append, or a value the engine built.
    Tree(Value),
    /// Compact JSON text: as the source serialized it (a copy: valid JSON,
    /// checked when the batch was read), or a stored event serialized as a
    /// read returns it (a plain webhook's body).
    Wire(Box<RawValue>),
}

impl JsonField {
    /// The value as a tree: borrowed when parsed, parsed when wire text.
    pub fn tree(&self) -> Cow<'_, Value> {
        match self {
            JsonField::Tree(value) => Cow::Borrowed(value),
            JsonField::Wire(raw) => Cow::Owned(serde_json::from_str(raw.get()).unwrap_or(Value::Null)),
        }
    }

    /// The tree, when this field was parsed. A control event's fields always
    /// are: wire text arrives only in copies, which are never control events
    /// on the stream that holds them (§4).
    pub fn as_tree(&self) -> Option<&Value> {
        match self {
            JsonField::Tree(value) => Some(value),
            JsonField::Wire(_) => None,
        }
    }

    /// The compact JSON text this field is stored as: a tree serialized, wire
    /// text as it is.
    pub fn to_raw(&self) -> Result<Box<RawValue>, serde_json::Error> {
        match self {
            JsonField::Tree(value) => serde_json::value::to_raw_value(value),
            JsonField::Wire(raw) => Ok(raw.clone()),
        }
    }

    /// Whether `stored` (a committed row's text) holds the same value: equal
    /// text is, otherwise the two are compared as trees.
    pub fn same_as_stored(&self, stored: &RawValue) -> bool {
        if let JsonField::Wire(raw) = self {
            if raw.get() == stored.get() {
                return true;
            }
        }
        serde_json::from_str::<Value>(stored.get()).is_ok_and(|stored| *self.tree() == stored)
    }

    /// The length of its compact JSON text (`json_len` of a tree).
    pub fn json_len(&self) -> usize {
        match self {
            JsonField::Tree(value) => crate::json_limits::json_len(value),
            JsonField::Wire(raw) => raw.get().len(),
        }
    }
}

/// Its compact JSON text.
impl std::fmt::Display for JsonField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JsonField::Tree(value) => write!(f, "{value}"),
            JsonField::Wire(raw) => f.write_str(raw.get()),
        }
    }
}

/// Written as its JSON: a tree serialized, wire text as it is.
impl serde::Serialize for JsonField {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            JsonField::Tree(value) => value.serialize(serializer),
            JsonField::Wire(raw) => raw.serialize(serializer),
        }
    }
}

impl From<Value> for JsonField {
    fn from(value: Value) -> Self {
        JsonField::Tree(value)
    }
}

/// Equal values, whatever their form.
impl PartialEq for JsonField {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (JsonField::Wire(left), JsonField::Wire(right)) if left.get() == right.get() => true,
            _ => self.tree() == other.tree(),
        }
    }
}

impl PartialEq<Value> for JsonField {
    fn eq(&self, other: &Value) -> bool {
        *self.tree() == *other
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_field_is_the_same_value_in_either_form() {
        let value = json!({"b": [1, 2.5, null], "a": "é\u{1}\""});
        let wire = JsonField::Wire(serde_json::value::to_raw_value(&value).unwrap());
        let tree = JsonField::Tree(value.clone());
        assert_eq!(wire, tree);
        assert_eq!(*wire.tree(), value);
        assert_eq!(wire.to_raw().unwrap().get(), tree.to_raw().unwrap().get());
        assert_eq!(wire.to_string(), tree.to_string());
        assert_eq!(wire.json_len(), tree.json_len());
        assert_eq!(wire.json_len(), tree.to_string().len());
        assert_eq!(
            serde_json::to_string(&wire).unwrap(),
            tree.to_string(),
            "wire text is written as it is"
        );
        let stored = serde_json::value::to_raw_value(&value).unwrap();
        assert!(wire.same_as_stored(&stored) && tree.same_as_stored(&stored));
        let spaced = RawValue::from_string("{ \"b\": [1, 2.5, null], \"a\": \"é\\u0001\\\"\" }".to_owned()).unwrap();
        assert!(wire.same_as_stored(&spaced), "equal values in other text are the same");
        let other = serde_json::value::to_raw_value(&json!({"b": []})).unwrap();
        assert!(!wire.same_as_stored(&other) && !tree.same_as_stored(&other));
    }
}
