//! A stream's end, as part of the reduced state (docs/design.md §17): closure
//! (`events.iterate.com/stream/stream-closed`, one-way) and expiry
//! (`events.iterate.com/stream/expiry-configured`). Either face appends
//! them; both faces read them here.

use super::fold::ReduceError;
use crate::durable_streams::expiry::Expiry;
use crate::durable_streams::producer::ProducerClaim;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The stream is closed: no data event commits after `at_offset` (§17).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Closed {
    /// The offset of the `stream-closed` event.
    pub at_offset: u64,
    /// The producer request that closed it (PROTOCOL §5.2.1: its retry is
    /// answered as a duplicate), when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<ClosedBy>,
}

/// The `(Producer-Id, Producer-Epoch, Producer-Seq)` of a closing request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClosedBy {
    pub producer_id: String,
    pub epoch: u64,
    pub seq: u64,
}

impl ClosedBy {
    pub fn claim(&self) -> ProducerClaim {
        ProducerClaim {
            producer_id: self.producer_id.clone(),
            epoch: self.epoch,
            seq: self.seq,
        }
    }
}

/// The `stream-closed` payload: `{}` or `{"producer": {producerId, epoch, seq}}`.
pub fn closed_payload(by: Option<&ProducerClaim>) -> Value {
    match by {
        None => json!({}),
        Some(claim) => json!({"producer": {
            "producerId": claim.producer_id, "epoch": claim.epoch, "seq": claim.seq
        }}),
    }
}

/// Folds a `stream-closed` at `offset`: closing twice keeps the first.
pub fn fold_closed(current: &mut Option<Closed>, payload: &Value, offset: u64) -> Result<(), ReduceError> {
    let by = match payload.get("producer") {
        None | Some(Value::Null) => None,
        Some(producer) => {
            Some(
                serde_json::from_value::<ClosedBy>(producer.clone()).map_err(|_| ReduceError::Payload {
                    field: "producer",
                    problem: "must be {producerId: string, epoch: integer, seq: integer}",
                })?,
            )
        }
    };
    if current.is_none() {
        *current = Some(Closed { at_offset: offset, by });
    }
    Ok(())
}

/// The `expiry-configured` payload of an expiry.
pub fn expiry_payload(expiry: Expiry) -> Value {
    match expiry {
        Expiry::Never => json!({}),
        Expiry::Sliding { ttl_seconds } => json!({"ttlSeconds": ttl_seconds}),
        Expiry::At { at_ms } => json!({"expiresAt": crate::time::rfc3339_millis(at_ms)}),
    }
}

/// Parses an `expiry-configured` payload: `{}` (never), `{"ttlSeconds": n}`
/// or `{"expiresAt": "RFC 3339"}` — the same bounds as the protocol's headers.
pub fn parse_expiry(payload: &Value) -> Result<Expiry, ReduceError> {
    let invalid = |field, problem| ReduceError::Payload { field, problem };
    let Value::Object(fields) = payload else {
        return Err(invalid("payload", "must be {}, {ttlSeconds} or {expiresAt}"));
    };
    if fields.keys().any(|key| key != "ttlSeconds" && key != "expiresAt") {
        return Err(invalid("payload", "takes only ttlSeconds or expiresAt"));
    }
    match (fields.get("ttlSeconds"), fields.get("expiresAt")) {
        (None, None) => Ok(Expiry::Never),
        (Some(_), Some(_)) => Err(invalid("ttlSeconds", "and expiresAt exclude each other")),
        (Some(ttl), None) => ttl
            .as_u64()
            .filter(|ttl| *ttl <= crate::limits::MAX_STREAM_TTL_SECONDS)
            .map(|ttl_seconds| Expiry::Sliding { ttl_seconds })
            .ok_or(invalid(
                "ttlSeconds",
                "must be a whole number of seconds, at most ten years",
            )),
        (None, Some(at)) => at
            .as_str()
            .and_then(|text| crate::durable_streams::headers::parse_expires_at(text).ok())
            .map(|at_ms| Expiry::At { at_ms })
            .ok_or(invalid(
                "expiresAt",
                "must be an RFC 3339 instant between 1970 and 9999",
            )),
    }
}

/// How the reduced state stores an expiry (`null` when it never expires).
pub mod stored_expiry {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(expiry: &Expiry, serializer: S) -> Result<S::Ok, S::Error> {
        expiry_payload(*expiry).serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Expiry, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Ok(parse_expiry(&value).unwrap_or_default())
    }

    pub fn is_never(expiry: &Expiry) -> bool {
        *expiry == Expiry::Never
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn s17_expiry_payloads_round_trip_and_refuse_what_the_headers_refuse() {
        for expiry in [
            Expiry::Never,
            Expiry::Sliding { ttl_seconds: 60 },
            Expiry::At {
                at_ms: 1_700_000_000_123,
            },
        ] {
            assert_eq!(parse_expiry(&expiry_payload(expiry)).ok(), Some(expiry));
        }
        for bad in [
            json!({"ttlSeconds": -1}),
            json!({"ttlSeconds": 1e12}),
            json!({"ttlSeconds": 5, "expiresAt": "2030-01-01T00:00:00Z"}),
            json!({"expiresAt": "tomorrow"}),
            json!({"other": 1}),
            json!([]),
        ] {
            assert!(parse_expiry(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn s17_closing_twice_keeps_the_first_and_a_bad_producer_is_refused() {
        let mut closed = None;
        let claim = ProducerClaim {
            producer_id: "p".into(),
            epoch: 1,
            seq: 4,
        };
        fold_closed(&mut closed, &closed_payload(Some(&claim)), 7).unwrap();
        fold_closed(&mut closed, &closed_payload(None), 9).unwrap();
        let closed = closed.unwrap();
        assert_eq!(closed.at_offset, 7);
        assert_eq!(closed.by.map(|by| by.claim()), Some(claim));
        assert!(fold_closed(&mut None, &json!({"producer": {"epoch": "x"}}), 1).is_err());
    }
}
