//! The engine's idempotency-key namespace (docs/design.md §3 rule 4, §7 rule 4,
//! §8, §13, §15). The engine derives keys for the events it appends itself,
//! from data any reader of the stream can see; a public append that took one
//! first would make the engine's own append fail with 409
//! `idempotency_key_reused` (a copy halts, a source fails). So a public append
//! carrying a key in this namespace is refused with 403
//! `reserved_idempotency_key`, nothing committed (§2: bad input changes
//! nothing). The check runs at the public edge (the router), before the
//! append reaches the stream: the engine's own appends — copies, audits,
//! sources, and the `subscribe-from` route, which derives its source event's
//! key itself — never pass through it.

use crate::error::{details, ApiFailure, ErrorCode};
use crate::route::append_heads::AppendReading;
use serde_json::{json, Map, Value};

/// Every prefix the engine builds keys with, and where.
pub const RESERVED_KEY_PREFIXES: [&str; 9] = [
    // A copied event on the receiving stream (§7 rule 4, `copy::copy_idempotency_key`).
    "copy:",
    // The audit of copies a receiving stream dropped (§7, `stream::copies`).
    "copy-dropped:",
    // Invalidations a receiving stream derives from a copied one (§13, `stream::copies`).
    "invalidated-copies:",
    // The audit of a skipped delivery (§8, `delivery::complete`).
    "skipped:",
    // The audit of retractions past the delivery journal (§13, `delivery::plan`).
    "journal-gap:",
    // A subscription retention trimmed past (§16, `retention::trim`).
    "trimmed:",
    // EVM source logs and reorg invalidations (§15, `source::machine`).
    "evm:",
    // Mempool source transactions (§15.1, `source::mempool::payload`).
    "evm-mempool:",
    // The source's `subscription-configured` of `subscribe-from` (§5,
    // `subscribe_from`): namespaced by the receiving stream so two callers'
    // keys never collide on a shared source; a public append must not take it.
    "subscribe-from:",
];

/// Whether `key` lies in the engine's namespace.
pub fn is_reserved(key: &str) -> Option<&'static str> {
    RESERVED_KEY_PREFIXES
        .iter()
        .copied()
        .find(|prefix| key.starts_with(prefix))
}

#[derive(Debug, thiserror::Error, PartialEq)]
#[error("idempotencyKey '{key}' starts with '{prefix}', which Tributary reserves for the events it appends itself")]
pub struct ReservedKeyError {
    /// The event's index in a batch (`None` for a single append).
    pub index: Option<usize>,
    pub key: String,
    pub prefix: &'static str,
}

impl ApiFailure for ReservedKeyError {
    fn error_code(&self) -> ErrorCode {
        ErrorCode::ReservedIdempotencyKey
    }
    fn details(&self) -> Map<String, Value> {
        let mut fields = details([
            ("field", json!("idempotencyKey")),
            ("prefix", json!(self.prefix)),
            ("reservedPrefixes", json!(RESERVED_KEY_PREFIXES)),
        ]);
        if let Some(index) = self.index {
            fields.insert("index".to_owned(), json!(index));
        }
        fields
    }
}

fn check_key(key: Option<&str>, index: Option<usize>) -> Result<(), ReservedKeyError> {
    let Some(key) = key else {
        return Ok(());
    };
    match is_reserved(key) {
        Some(prefix) => Err(ReservedKeyError {
            index,
            key: key.to_owned(),
            prefix,
        }),
        None => Ok(()),
    }
}

/// Refuses a public append body (single or `{"events": [...]}`) any of
/// whose events carries a reserved key. A body that is not JSON passes: the
/// stream answers it with its own 400. Both readings of the body are checked
/// (the event itself, and each element of an `events` array), so no shape
/// the stream accepts escapes; the JSON is read the way the stream parses
/// it (a repeated field keeps its last value in both), each event's key
/// without building the rest of it (`route::append_heads`).
pub fn check_public_append(body: &[u8]) -> Result<(), ReservedKeyError> {
    if !crate::json_limits::may_contain(body, b"idempotencyKey") {
        return Ok(());
    }
    check_reading(AppendReading::read(body).as_ref())
}

/// [`check_public_append`] of a body the entry has read (`None`: not JSON).
pub fn check_reading(reading: Option<&AppendReading>) -> Result<(), ReservedKeyError> {
    let Some(reading) = reading else {
        return Ok(());
    };
    // Bounded by the body, which is bounded by the append cap (§12).
    for (index, event) in reading.batch.iter().flatten().enumerate() {
        check_key(event.idempotency_key.as_deref(), Some(index))?;
    }
    check_key(reading.whole.idempotency_key.as_deref(), None)
}
