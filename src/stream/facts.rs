//! The engine's own facts (docs/design.md §2, §6 rule 5, §8, §13, §16): the
//! `error-occurred` and `subscription-delivery-halted` events a stream
//! appends about itself — halts, skipped deliveries, journal gaps, trim
//! passes. One door for all of them, so one rule holds everywhere: **no
//! engine append can fail forever on its own key** (§2).
//!
//! - A fact's key is derived from what identifies it ([`fact_key`]), bounded
//!   to the key limit however long its parts are (a 256-byte subscription
//!   key included).
//! - The first fact committed under a key stands: a retry whose details
//!   moved on (a trim step retried after the head moved, a skip retried with
//!   another attempt count) answers the committed fact, never 409.
//! - A key already taken by an event that is not this engine's fact (one a
//!   public append took before the prefix was reserved) moves the fact to a
//!   key derived from the squatter's offset, which never changes, so the
//!   fact stays idempotent; a bounded number of such moves, then the fact is
//!   appended without a key (a duplicate fact is identifiable; a missing one
//!   would be silent).

use crate::event::{Authority, CommittedEvent, InputEvent};
use crate::limits::{ENGINE_FACT_KEY_MOVES, MAX_IDEMPOTENCY_KEY_BYTES};
use crate::storage::{Storage, StorageError};
use crate::stream::{AppendError, Stream};
use crate::Inputs;
use serde_json::Value;

/// A fact as committed, and whether this call wrote it.
#[derive(Debug)]
pub struct EngineFact {
    pub event: CommittedEvent,
    /// `false` when the fact was already committed under its key.
    pub fresh: bool,
}

/// The idempotency key of a fact: `prefix` (a reserved one, §2) and the
/// identifying `parts`, readable while it fits the key limit, else the
/// prefix and a blake3 digest of the parts.
pub fn fact_key(prefix: &str, parts: &str) -> String {
    if prefix.len().saturating_add(parts.len()) <= MAX_IDEMPOTENCY_KEY_BYTES {
        return format!("{prefix}{parts}");
    }
    format!("{prefix}b3:{}", blake3::hash(parts.as_bytes()).to_hex())
}

/// The key a fact moves to when `key` is held by another event at `offset`:
/// still under its reserved prefix, so no public append can take it first.
fn moved_key(key: &str, offset: u64) -> String {
    let prefix = crate::reserved_keys::is_reserved(key).unwrap_or_default();
    let parts = key.strip_prefix(prefix).unwrap_or(key);
    fact_key(prefix, &format!("{parts}@{offset}"))
}

impl<S: Storage> Stream<S> {
    /// Appends one engine fact (trusted, idempotent by its key as above).
    pub(crate) fn append_engine_fact(&mut self, fact: Value, inputs: &Inputs) -> Result<EngineFact, StorageError> {
        let mut input =
            InputEvent::from_json(fact, Authority::Trusted).map_err(|error| StorageError::Sql(error.to_string()))?;
        for _move in 0..=ENGINE_FACT_KEY_MOVES {
            match self.append(vec![input.clone()], inputs) {
                Ok(committed) => return committed_fact(committed),
                Err(AppendError::IdempotencyKeyReused { key, offset }) => {
                    input.idempotency_key = Some(moved_key(&key, offset));
                }
                Err(error) => return Err(storage_error(error)),
            }
        }
        input.idempotency_key = None;
        let committed = self.append(vec![input], inputs).map_err(storage_error)?;
        committed_fact(committed)
    }
}

fn committed_fact((events, duplicates): (Vec<CommittedEvent>, Vec<bool>)) -> Result<EngineFact, StorageError> {
    let fresh = duplicates.first() == Some(&false);
    let event = events
        .into_iter()
        .next()
        .ok_or_else(|| StorageError::Sql("a fact append committed nothing".to_owned()))?;
    Ok(EngineFact { event, fresh })
}

fn storage_error(error: AppendError) -> StorageError {
    match error {
        AppendError::Storage(error) => error,
        other => StorageError::Sql(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_that_fits_stays_readable() {
        assert_eq!(fact_key("trimmed:", "3:0:hook"), "trimmed:3:0:hook");
    }

    #[test]
    fn a_long_key_is_digested_within_the_limit() {
        let parts = format!("3:0:{}", "k".repeat(MAX_IDEMPOTENCY_KEY_BYTES));
        let key = fact_key("trimmed:", &parts);
        assert!(key.len() <= MAX_IDEMPOTENCY_KEY_BYTES, "{}", key.len());
        assert!(key.starts_with("trimmed:b3:"));
        assert_ne!(key, fact_key("trimmed:", &format!("{parts}x")));
    }

    #[test]
    fn a_moved_key_keeps_its_prefix_and_fits() {
        let long = "trimmed:".to_owned() + &"k".repeat(MAX_IDEMPOTENCY_KEY_BYTES - 8);
        let moved = moved_key(&long, 42);
        assert!(moved.len() <= MAX_IDEMPOTENCY_KEY_BYTES);
        assert!(moved.starts_with("trimmed:b3:"), "{moved}");
        assert_eq!(moved_key("skipped:1:d", 7), "skipped:1:d@7");
    }
}
