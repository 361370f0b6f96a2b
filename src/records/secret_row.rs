//! A row of the project object's `secrets` (docs/design.md §9 "Receiver secrets
//! and headers"): one secret, its version and when it was last written.
//!
//! Columns (project migration 0004; persisted, so must be kept stable):
//! `name`, `version` (bumped by every changed write; continued after a
//! delete through `secret_versions`), `value`, `updated_at_ms`.
//!
//! Two reads: the listing selects [`SUMMARY_COLUMNS`], which never include
//! the value; only the resolution a stream makes selects [`COLUMNS`].

use super::columns::Named;
use crate::storage::{SqlValue, StorageError};
use crate::time::rfc3339_millis;
use serde_json::{json, Value};

/// Writes one secret (a new name, or a new version of one).
pub const UPSERT: &str = "INSERT INTO secrets (name, version, value, updated_at_ms) VALUES (?, ?, ?, ?) \
     ON CONFLICT (name) DO UPDATE SET version = excluded.version, value = excluded.value, \
     updated_at_ms = excluded.updated_at_ms";

/// The columns [`SecretRow::decode`] reads, in order, after `SELECT`.
pub const COLUMNS: &[&str] = &["name", "version", "value", "updated_at_ms"];
/// The columns [`SecretSummary::decode`] reads: never the value.
pub const SUMMARY_COLUMNS: &[&str] = &["name", "version", "updated_at_ms"];

/// One stored secret, value included: read only to resolve it.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretRow {
    pub name: String,
    pub version: u64,
    pub value: String,
    pub updated_at_ms: i64,
}

/// A `Debug` that cannot print the value (a log line or a panic message
/// formatting a row shows its name and version only).
impl std::fmt::Debug for SecretRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecretRow")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("value", &"<redacted>")
            .field("updated_at_ms", &self.updated_at_ms)
            .finish()
    }
}

impl SecretRow {
    /// Parameters of [`UPSERT`].
    pub fn encode(&self) -> [SqlValue; 4] {
        [
            self.name.as_str().into(),
            self.version.into(),
            self.value.as_str().into(),
            SqlValue::Integer(self.updated_at_ms),
        ]
    }

    /// Decodes one row selecting [`COLUMNS`].
    pub fn decode(query: &str, row: &[SqlValue]) -> Result<SecretRow, StorageError> {
        let named = Named::new(query, row, COLUMNS);
        Ok(SecretRow {
            name: named.text("name")?,
            version: named.count("version")?,
            value: named.text("value")?,
            updated_at_ms: named.int("updated_at_ms")?,
        })
    }

    pub fn summary(&self) -> SecretSummary {
        SecretSummary {
            name: self.name.clone(),
            version: self.version,
            updated_at_ms: self.updated_at_ms,
        }
    }
}

/// What `GET /v1/secrets` and `PUT` answer of a secret: never its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretSummary {
    pub name: String,
    pub version: u64,
    pub updated_at_ms: i64,
}

impl SecretSummary {
    /// Decodes one row selecting [`SUMMARY_COLUMNS`].
    pub fn decode(query: &str, row: &[SqlValue]) -> Result<SecretSummary, StorageError> {
        let named = Named::new(query, row, SUMMARY_COLUMNS);
        Ok(SecretSummary {
            name: named.text("name")?,
            version: named.count("version")?,
            updated_at_ms: named.int("updated_at_ms")?,
        })
    }

    /// `{name, version, updatedAt}`.
    pub fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "version": self.version,
            "updatedAt": rfc3339_millis(self.updated_at_ms),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn s9_secret_row_round_trips(
            name in "[A-Za-z0-9_.-]{1,64}",
            version in 1u64..(1 << 53),
            value in "[ -~]{0,64}",
            updated_at_ms in any::<i64>(),
        ) {
            // A ':' no name holds, so the value is told apart from the name.
            let value = format!(":{value}");
            let row = SecretRow { name, version, value, updated_at_ms };
            let encoded = row.encode();
            prop_assert_eq!(SecretRow::decode(UPSERT, &encoded).ok(), Some(row.clone()));
            // The summary's row: the parameters without the value.
            let summary_row: Vec<SqlValue> = [0, 1, 3].iter().filter_map(|index| encoded.get(*index).cloned()).collect();
            prop_assert_eq!(SecretSummary::decode(UPSERT, &summary_row).ok(), Some(row.summary()));
            let shown = format!("{:?}", row);
            let quoted = format!("\"{}\"", row.value);
            prop_assert!(!shown.contains(&quoted));
        }
    }
}
