//! A row of `gate_hits` (docs/design.md §13 Gates): one hit a threshold gate
//! holds, with the body it will be delivered as inside a digest.
//!
//! Columns (migration 0006; persisted, so must be kept stable):
//! `subscription_key`, `event_offset`, `created_at_ms`, `body` (the
//! delivered event as compact JSON text).

use crate::storage::{Columns, SqlValue, StorageError};
use serde_json::Value;

/// Holds one hit; a hit already held keeps its first body (§13: a gate
/// decides once per hit).
pub const INSERT: &str =
    "INSERT OR IGNORE INTO gate_hits (subscription_key, event_offset, created_at_ms, body) VALUES (?, ?, ?, ?)";

/// The columns [`GateHit::decode`] reads, in order, after `SELECT`.
pub const COLUMNS: &str = "event_offset, created_at_ms, body";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateHit {
    pub offset: u64,
    /// Event time: what the gate's window is measured in (§13).
    pub created_at_ms: i64,
    /// The body as stored: compact JSON text, serialized once.
    pub body: String,
}

impl GateHit {
    pub fn new(offset: u64, created_at_ms: i64, body: &Value) -> GateHit {
        GateHit {
            offset,
            created_at_ms,
            body: body.to_string(),
        }
    }

    /// Bytes the body takes in a digest (§12 batch bytes).
    pub fn body_bytes(&self) -> usize {
        self.body.len()
    }

    /// The body as a JSON value (`null` if the stored text does not parse,
    /// as the digest always read it).
    pub fn body_value(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// Parameters of [`INSERT`] for `key`.
    pub fn encode(&self, key: &str) -> [SqlValue; 4] {
        [
            key.into(),
            self.offset.into(),
            SqlValue::Integer(self.created_at_ms),
            self.body.as_str().into(),
        ]
    }

    /// Decodes one row selecting [`COLUMNS`].
    pub fn decode(query: &str, row: &[SqlValue]) -> Result<GateHit, StorageError> {
        let columns = Columns { query, row };
        Ok(GateHit {
            offset: columns.int(0)?.max(0) as u64,
            created_at_ms: columns.int(1)?,
            body: columns.text(2)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            ".{0,12}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                proptest::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                    .prop_map(|map| Value::Object(map.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn s13_gate_hit_round_trips(offset in 0u64..(1 << 53), created_at_ms in any::<i64>(), body in any_json()) {
            let hit = GateHit::new(offset, created_at_ms, &body);
            let params = hit.encode("k");
            // The row a SELECT of COLUMNS returns: the parameters after the key.
            let row: Vec<SqlValue> = params.iter().skip(1).cloned().collect();
            let decoded = GateHit::decode(COLUMNS, &row);
            prop_assert_eq!(decoded.as_ref().map(GateHit::body_value).ok(), Some(body));
            prop_assert_eq!(decoded.ok(), Some(hit));
        }
    }
}
