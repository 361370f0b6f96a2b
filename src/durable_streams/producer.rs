//! Writers (docs/design.md §17 "Writers"): idempotent producers (PROTOCOL
//! §5.2.1) as a pure decision over the stored record of one producer, and
//! `Stream-Seq` (PROTOCOL §5.2). The stream object looks the record up,
//! asks here, and writes what comes back in the same transaction as the
//! append; nothing is written for a refusal or a duplicate.
//!
//! Producers are bounded (§12): one idle for [`PRODUCER_FORGET_AFTER_MS`]
//! is forgotten (treated as absent, and swept); a new producer on a stream
//! already holding [`MAX_PRODUCERS_PER_STREAM`] evicts the least recently
//! active one if it has been idle for [`PRODUCER_EVICTION_MIN_IDLE_MS`], and
//! is refused (429) otherwise: a producer active within that window never
//! loses its deduplication to make room.

use crate::error::{details, ApiFailure, ErrorCode};
use crate::limits::{MAX_PRODUCERS_PER_STREAM, PRODUCER_EVICTION_MIN_IDLE_MS, PRODUCER_FORGET_AFTER_MS};
use serde_json::{json, Map, Value};

/// `Producer-Id`, `Producer-Epoch`, `Producer-Seq` of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProducerClaim {
    pub producer_id: String,
    pub epoch: u64,
    pub seq: u64,
}

/// One producer's persisted state on one stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProducerRecord {
    pub producer_id: String,
    pub epoch: u64,
    /// The highest sequence accepted in `epoch`.
    pub last_seq: u64,
    /// When its last batch was accepted.
    pub last_active_ms: i64,
}

/// What the stream knows of its producers besides the claimant's record:
/// how many records it holds and the least recently active one.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProducerTable {
    pub count: u64,
    pub least_recent: Option<ProducerRecord>,
}

/// A claim that may proceed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProducerOutcome {
    /// 200: append, and write `record` (insert or replace) with it; first
    /// delete the record of `evict` when the table was full.
    Accept {
        record: ProducerRecord,
        evict: Option<String>,
    },
    /// 204: a retry of an accepted batch. Nothing is appended or written;
    /// `Producer-Seq` answers the highest accepted (PROTOCOL §5.2.1).
    Duplicate { epoch: u64, highest_seq: u64 },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProducerError {
    #[error("producer epoch {received} is older than the stream's epoch {current} for this producer (fenced)")]
    StaleEpoch { current: u64, received: u64 },
    #[error("producer sequence gap: expected Producer-Seq {expected}, received {received}")]
    SequenceGap { expected: u64, received: u64 },
    #[error("a new producer epoch ({epoch}) must start at Producer-Seq 0, not {seq}")]
    NewEpochNotAtZero { epoch: u64, seq: u64 },
    #[error("this stream remembers {MAX_PRODUCERS_PER_STREAM} producers, all active within the last day; retry later or reuse a Producer-Id")]
    TooManyProducers,
}

impl ApiFailure for ProducerError {
    fn error_code(&self) -> ErrorCode {
        match self {
            ProducerError::StaleEpoch { .. } => ErrorCode::StaleProducerEpoch,
            ProducerError::SequenceGap { .. } => ErrorCode::ProducerSequenceGap,
            ProducerError::NewEpochNotAtZero { .. } => ErrorCode::InvalidProducerSequence,
            ProducerError::TooManyProducers => ErrorCode::TooManyProducers,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            ProducerError::StaleEpoch { current, .. } => details([("currentEpoch", json!(current))]),
            ProducerError::SequenceGap { expected, received } => {
                details([("expectedSeq", json!(expected)), ("receivedSeq", json!(received))])
            }
            ProducerError::NewEpochNotAtZero { .. } => Map::new(),
            ProducerError::TooManyProducers => details([("limit", json!(MAX_PRODUCERS_PER_STREAM))]),
        }
    }
}

/// Whether `record` is forgotten at `now_ms` (idle past the window).
pub fn is_forgotten(record: &ProducerRecord, now_ms: i64) -> bool {
    now_ms.saturating_sub(record.last_active_ms) > PRODUCER_FORGET_AFTER_MS
}

/// Records last active before this are forgotten: the cutoff of the
/// stream's bounded sweep (`DELETE … WHERE last_active_ms < ?`).
pub fn forget_before(now_ms: i64) -> i64 {
    now_ms.saturating_sub(PRODUCER_FORGET_AFTER_MS)
}

/// Decides one claim against the claimant's stored record (`None` if the
/// stream has none) and the table (PROTOCOL §5.2.1 "Validation Logic").
pub fn check(
    claim: &ProducerClaim,
    stored: Option<&ProducerRecord>,
    table: &ProducerTable,
    now_ms: i64,
) -> Result<ProducerOutcome, ProducerError> {
    let accept = |last_seq, evict| ProducerOutcome::Accept {
        record: ProducerRecord {
            producer_id: claim.producer_id.clone(),
            epoch: claim.epoch,
            last_seq,
            last_active_ms: now_ms,
        },
        evict,
    };
    let Some(state) = stored.filter(|state| !is_forgotten(state, now_ms)) else {
        if claim.seq != 0 {
            return Err(ProducerError::SequenceGap {
                expected: 0,
                received: claim.seq,
            });
        }
        // A forgotten record of the same id is replaced in place.
        let evict = if stored.is_some() { None } else { room(table, now_ms)? };
        return Ok(accept(0, evict));
    };
    if claim.epoch < state.epoch {
        return Err(ProducerError::StaleEpoch {
            current: state.epoch,
            received: claim.epoch,
        });
    }
    if claim.epoch > state.epoch {
        if claim.seq != 0 {
            return Err(ProducerError::NewEpochNotAtZero {
                epoch: claim.epoch,
                seq: claim.seq,
            });
        }
        return Ok(accept(0, None));
    }
    match claim.seq {
        seq if seq <= state.last_seq => Ok(ProducerOutcome::Duplicate {
            epoch: state.epoch,
            highest_seq: state.last_seq,
        }),
        seq if seq == state.last_seq + 1 => Ok(accept(seq, None)),
        seq => Err(ProducerError::SequenceGap {
            expected: state.last_seq + 1,
            received: seq,
        }),
    }
}

/// Room for one more record: nothing to evict below the limit; else the
/// least recently active record, if idle long enough.
fn room(table: &ProducerTable, now_ms: i64) -> Result<Option<String>, ProducerError> {
    if table.count < MAX_PRODUCERS_PER_STREAM {
        return Ok(None);
    }
    match &table.least_recent {
        Some(oldest) if now_ms.saturating_sub(oldest.last_active_ms) >= PRODUCER_EVICTION_MIN_IDLE_MS => {
            Ok(Some(oldest.producer_id.clone()))
        }
        _ => Err(ProducerError::TooManyProducers),
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StreamSeqError {
    #[error("Stream-Seq '{received}' is not above the last one, '{last}' (byte-wise order)")]
    Regression { last: String, received: String },
}

impl ApiFailure for StreamSeqError {
    fn error_code(&self) -> ErrorCode {
        ErrorCode::StreamSeqConflict
    }
    fn details(&self) -> Map<String, Value> {
        let StreamSeqError::Regression { last, received } = self;
        details([("lastSeq", json!(last)), ("receivedSeq", json!(received))])
    }
}

/// `Stream-Seq` must be strictly above the stream's last one, byte by byte
/// (PROTOCOL §5.2: `"2"` then `"10"` is a regression, `"09"` then `"10"` is
/// not). Scope: per stream, whoever writes (PROTOCOL asks servers to say).
pub fn check_stream_seq(last: Option<&str>, received: &str) -> Result<(), StreamSeqError> {
    match last {
        Some(last) if received.as_bytes() <= last.as_bytes() => Err(StreamSeqError::Regression {
            last: last.to_owned(),
            received: received.to_owned(),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::error::ApiError;
    use proptest::prelude::*;

    const NOW: i64 = 1_795_963_338_000;

    fn claim(epoch: u64, seq: u64) -> ProducerClaim {
        ProducerClaim {
            producer_id: "p".into(),
            epoch,
            seq,
        }
    }

    fn record(epoch: u64, last_seq: u64) -> ProducerRecord {
        ProducerRecord {
            producer_id: "p".into(),
            epoch,
            last_seq,
            last_active_ms: NOW - 1_000,
        }
    }

    fn accepted(epoch: u64, last_seq: u64) -> Result<ProducerOutcome, ProducerError> {
        Ok(ProducerOutcome::Accept {
            record: ProducerRecord {
                producer_id: "p".into(),
                epoch,
                last_seq,
                last_active_ms: NOW,
            },
            evict: None,
        })
    }

    fn decide(claim: &ProducerClaim, stored: Option<&ProducerRecord>) -> Result<ProducerOutcome, ProducerError> {
        check(claim, stored, &ProducerTable::default(), NOW)
    }

    #[test]
    fn every_status_of_protocol_5_2_1() {
        // 200: a new producer at seq 0 (any epoch), the next seq, a new epoch at 0.
        assert_eq!(decide(&claim(0, 0), None), accepted(0, 0));
        assert_eq!(decide(&claim(5, 0), None), accepted(5, 0));
        assert_eq!(decide(&claim(0, 3), Some(&record(0, 2))), accepted(0, 3));
        assert_eq!(decide(&claim(1, 0), Some(&record(0, 9))), accepted(1, 0));
        // 204: a duplicate answers the highest accepted seq, not the request's.
        let duplicate = Ok(ProducerOutcome::Duplicate {
            epoch: 0,
            highest_seq: 2,
        });
        assert_eq!(decide(&claim(0, 1), Some(&record(0, 2))), duplicate);
        assert_eq!(decide(&claim(0, 2), Some(&record(0, 2))), duplicate);
        // 403: a stale epoch, with the current one.
        let stale = decide(&claim(0, 7), Some(&record(1, 0)));
        assert_eq!(
            stale,
            Err(ProducerError::StaleEpoch {
                current: 1,
                received: 0
            })
        );
        // 409: a gap, with expected and received; a new producer not at 0.
        let gap = decide(&claim(0, 4), Some(&record(0, 2)));
        assert_eq!(
            gap,
            Err(ProducerError::SequenceGap {
                expected: 3,
                received: 4
            })
        );
        assert_eq!(
            decide(&claim(0, 1), None),
            Err(ProducerError::SequenceGap {
                expected: 0,
                received: 1
            })
        );
        // 400: a new epoch not at seq 0.
        let not_zero = decide(&claim(2, 1), Some(&record(1, 5)));
        assert_eq!(not_zero, Err(ProducerError::NewEpochNotAtZero { epoch: 2, seq: 1 }));
        let statuses: Vec<u16> = [stale, gap, not_zero]
            .into_iter()
            .map(|result| ApiError::from(result.unwrap_err()).status)
            .collect();
        assert_eq!(statuses, [403, 409, 400]);
    }

    #[test]
    fn error_details_carry_what_the_response_headers_need() {
        let stale = ApiError::from(ProducerError::StaleEpoch {
            current: 4,
            received: 1,
        });
        assert_eq!(stale.body.error.details.get("currentEpoch"), Some(&json!(4)));
        let gap = ApiError::from(ProducerError::SequenceGap {
            expected: 3,
            received: 9,
        });
        assert_eq!(
            (gap.code(), gap.body.error.details.get("expectedSeq")),
            ("producer_sequence_gap", Some(&json!(3)))
        );
    }

    #[test]
    fn the_largest_safe_sequence_is_accepted_without_overflow() {
        let max = crate::limits::MAX_SAFE_INTEGER;
        assert_eq!(decide(&claim(0, max), Some(&record(0, max - 1))), accepted(0, max));
        assert!(matches!(
            decide(&claim(0, max), Some(&record(0, max))),
            Ok(ProducerOutcome::Duplicate { .. })
        ));
        assert_eq!(decide(&claim(max, 0), Some(&record(max - 1, max))), accepted(max, 0));
    }

    #[test]
    fn a_producer_idle_for_seven_days_is_forgotten() {
        let mut old = record(3, 40);
        old.last_active_ms = NOW - PRODUCER_FORGET_AFTER_MS;
        assert!(!is_forgotten(&old, NOW));
        assert!(matches!(
            decide(&claim(0, 0), Some(&old)),
            Err(ProducerError::StaleEpoch { .. })
        ));
        old.last_active_ms -= 1;
        assert!(is_forgotten(&old, NOW));
        // Forgotten: treated as new, its row replaced (nothing evicted).
        assert_eq!(decide(&claim(0, 0), Some(&old)), accepted(0, 0));
        assert!(matches!(
            decide(&claim(3, 41), Some(&old)),
            Err(ProducerError::SequenceGap { expected: 0, .. })
        ));
        assert_eq!(forget_before(NOW), NOW - PRODUCER_FORGET_AFTER_MS);
    }

    #[test]
    fn a_full_table_evicts_the_oldest_idle_producer_never_an_active_one() {
        let mut oldest = record(0, 0);
        oldest.producer_id = "old".into();
        oldest.last_active_ms = NOW - PRODUCER_EVICTION_MIN_IDLE_MS;
        let full = ProducerTable {
            count: MAX_PRODUCERS_PER_STREAM,
            least_recent: Some(oldest.clone()),
        };
        let outcome = check(&claim(0, 0), None, &full, NOW);
        assert!(matches!(outcome, Ok(ProducerOutcome::Accept { evict: Some(ref id), .. }) if id == "old"));
        // Active within the window: refused with a clear 429, nothing evicted.
        oldest.last_active_ms += 1;
        let busy = ProducerTable {
            count: MAX_PRODUCERS_PER_STREAM,
            least_recent: Some(oldest),
        };
        let refused = check(&claim(0, 0), None, &busy, NOW);
        assert_eq!(refused, Err(ProducerError::TooManyProducers));
        assert_eq!(ApiError::from(refused.unwrap_err()).status, 429);
        // A known producer is never refused for room.
        assert_eq!(check(&claim(0, 3), Some(&record(0, 2)), &busy, NOW), accepted(0, 3));
        // A full table whose oldest record is missing (a racing sweep) refuses.
        let unknown = ProducerTable {
            count: MAX_PRODUCERS_PER_STREAM,
            least_recent: None,
        };
        assert_eq!(
            check(&claim(0, 0), None, &unknown, NOW),
            Err(ProducerError::TooManyProducers)
        );
    }

    #[test]
    fn stream_seq_is_strictly_increasing_byte_wise() {
        assert_eq!(check_stream_seq(None, "1"), Ok(()));
        assert_eq!(check_stream_seq(Some("09"), "10"), Ok(()));
        assert_eq!(check_stream_seq(Some("a"), "b"), Ok(()));
        assert_eq!(check_stream_seq(Some("a"), "aa"), Ok(()));
        for (last, received) in [("2", "10"), ("1", "1"), ("b", "a"), ("aa", "a"), ("é", "z")] {
            let error = check_stream_seq(Some(last), received).unwrap_err();
            assert_eq!(ApiError::from(error).status, 409, "{last} then {received}");
        }
    }

    proptest! {
        /// Replaying any sequence of claims accepts each (epoch, seq) at most
        /// once: no duplicate is ever appended twice.
        #[test]
        fn no_batch_is_accepted_twice(claims in proptest::collection::vec((0u64..3, 0u64..6), 1..60)) {
            let mut stored: Option<ProducerRecord> = None;
            let mut seen = std::collections::BTreeSet::new();
            for (epoch, seq) in claims {
                if let Ok(ProducerOutcome::Accept { record, .. }) = decide(&claim(epoch, seq), stored.as_ref()) {
                    prop_assert!(seen.insert((epoch, seq)), "accepted twice: {epoch}/{seq}");
                    stored = Some(record);
                }
            }
        }
    }
}
