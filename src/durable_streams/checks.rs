//! A protocol write's checks in the protocol's order (docs/design.md §17
//! "Writers", "Closure"; PROTOCOL §5.2 "Error Precedence", §5.2.1, §5.3),
//! and whether a repeated create matches (PROTOCOL §5.1). The stream object
//! gathers its writer state, asks here, and commits what the plan says in
//! the same transaction as the append; a refusal changes nothing.
//!
//! Order of an append: an empty body without close (400); then, the
//! stream closed (409 with `Stream-Closed`, unless this is the retry of the
//! very request that closed it: 204); the content type (400 missing, 409
//! different); the producer (a duplicate is 204 before `Stream-Seq` is
//! looked at, so a retry carrying both is still a success); `Stream-Seq`
//! (409). A close-only request (empty body, `Stream-Closed: true`) ignores
//! the content type and `Stream-Seq`, and is idempotent.

use super::expiry::Expiry;
use super::headers::{AppendHeaders, CreateHeaders};
use super::media_type::MediaType;
use super::producer::{
    check as check_producer, check_stream_seq, ProducerClaim, ProducerError, ProducerOutcome, ProducerRecord,
    ProducerTable, StreamSeqError,
};
use crate::error::{details, ApiFailure, ErrorCode};
use serde_json::{json, Map, Value};

/// Whether the stream is closed, and by which producer request (PROTOCOL
/// §5.2.1 "Stream Closure with Idempotent Producers").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closure<'a> {
    Open,
    Closed { by: Option<&'a ProducerClaim> },
}

/// What the stream holds that a write is checked against.
#[derive(Debug, Clone, Copy)]
pub struct WriterState<'a> {
    pub content_type: &'a MediaType,
    pub closure: Closure<'a>,
    /// The last accepted `Stream-Seq`, if any.
    pub last_stream_seq: Option<&'a str>,
    /// The stored record of the request's `Producer-Id`, if any.
    pub producer: Option<&'a ProducerRecord>,
    pub producers: &'a ProducerTable,
}

/// What to write with the append, in its transaction.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WriterWrites {
    /// Insert or replace this producer record.
    pub producer: Option<ProducerRecord>,
    /// Delete this producer's record first (the table was full).
    pub evict_producer: Option<String>,
    /// The new last `Stream-Seq`.
    pub stream_seq: Option<String>,
    /// Close the stream, remembering the closing producer request.
    pub close: Option<CloseWrite>,
}

/// Closing the stream (durable, one-way, §17 "Closure").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloseWrite {
    pub by: Option<ProducerClaim>,
}

/// A write that may proceed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppendPlan {
    /// Append the body with `writes`: 200 when a producer was accepted
    /// (`Producer-Epoch`/`Producer-Seq` echo it), else 204.
    Append {
        writes: WriterWrites,
        producer: Option<(u64, u64)>,
    },
    /// Close without appending: 204 with `Stream-Closed: true`. Nothing to
    /// write when it was already closed (idempotent, PROTOCOL §5.3).
    Close {
        writes: WriterWrites,
        already_closed: bool,
        producer: Option<(u64, u64)>,
    },
    /// A producer's retry: nothing appended or written; 204 with the
    /// highest accepted seq (and `Stream-Closed` when closed).
    Duplicate { epoch: u64, highest_seq: u64, closed: bool },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppendRefusal {
    #[error("the body is empty; an append needs bytes (or Stream-Closed: true to close)")]
    EmptyBody,
    #[error("Content-Type is required with a body")]
    MissingContentType,
    #[error("the stream is closed; no further appends")]
    StreamClosed,
    #[error("Content-Type '{sent}' does not match the stream's '{stream}'")]
    ContentTypeMismatch { stream: String, sent: String },
    #[error(transparent)]
    Producer(#[from] ProducerError),
    #[error(transparent)]
    StreamSeq(#[from] StreamSeqError),
}

impl ApiFailure for AppendRefusal {
    fn error_code(&self) -> ErrorCode {
        match self {
            AppendRefusal::EmptyBody => ErrorCode::InvalidRequest,
            AppendRefusal::MissingContentType => ErrorCode::InvalidParameter,
            AppendRefusal::StreamClosed => ErrorCode::StreamClosed,
            AppendRefusal::ContentTypeMismatch { .. } => ErrorCode::ContentTypeMismatch,
            AppendRefusal::Producer(error) => error.error_code(),
            AppendRefusal::StreamSeq(error) => error.error_code(),
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            AppendRefusal::MissingContentType => details([("parameter", json!("Content-Type"))]),
            AppendRefusal::ContentTypeMismatch { stream, .. } => details([("contentType", json!(stream))]),
            AppendRefusal::Producer(error) => error.details(),
            AppendRefusal::StreamSeq(error) => error.details(),
            AppendRefusal::EmptyBody | AppendRefusal::StreamClosed => Map::new(),
        }
    }
}

/// Checks one `POST` (`body_empty`: it carried no bytes) at `now_ms`.
pub fn check_append(
    state: &WriterState<'_>,
    request: &AppendHeaders,
    body_empty: bool,
    now_ms: i64,
) -> Result<AppendPlan, AppendRefusal> {
    match (body_empty, request.close) {
        (true, true) => return check_close(state, request, now_ms),
        (true, false) => return Err(AppendRefusal::EmptyBody),
        (false, _) => {}
    }
    if let Closure::Closed { by } = state.closure {
        return closing_retry(by, request.producer.as_ref()).ok_or(AppendRefusal::StreamClosed);
    }
    let sent = request.content_type.as_ref().ok_or(AppendRefusal::MissingContentType)?;
    if !sent.matches(state.content_type) {
        return Err(AppendRefusal::ContentTypeMismatch {
            stream: state.content_type.canonical(),
            sent: sent.canonical(),
        });
    }
    let mut writes = WriterWrites::default();
    let producer = match accept_producer(state, request.producer.as_ref(), now_ms, &mut writes)? {
        Accepted::Duplicate(plan) => return Ok(plan),
        Accepted::Producer(echo) => echo,
    };
    if let Some(seq) = &request.stream_seq {
        check_stream_seq(state.last_stream_seq, seq)?;
        writes.stream_seq = Some(seq.clone());
    }
    if request.close {
        writes.close = Some(CloseWrite {
            by: request.producer.clone(),
        });
    }
    Ok(AppendPlan::Append { writes, producer })
}

/// Close-only: idempotent without a producer; with one, sequenced like an
/// append, and a retry of the closing request is a duplicate.
fn check_close(state: &WriterState<'_>, request: &AppendHeaders, now_ms: i64) -> Result<AppendPlan, AppendRefusal> {
    if let Closure::Closed { by } = state.closure {
        return match &request.producer {
            None => Ok(AppendPlan::Close {
                writes: WriterWrites::default(),
                already_closed: true,
                producer: None,
            }),
            Some(claim) => closing_retry(by, Some(claim)).ok_or(AppendRefusal::StreamClosed),
        };
    }
    let mut writes = WriterWrites::default();
    let producer = match accept_producer(state, request.producer.as_ref(), now_ms, &mut writes)? {
        Accepted::Duplicate(plan) => return Ok(plan),
        Accepted::Producer(echo) => echo,
    };
    writes.close = Some(CloseWrite {
        by: request.producer.clone(),
    });
    Ok(AppendPlan::Close {
        writes,
        already_closed: false,
        producer,
    })
}

/// The retry of the request that closed the stream: the same producer,
/// epoch and seq (PROTOCOL §5.2.1).
fn closing_retry(by: Option<&ProducerClaim>, claim: Option<&ProducerClaim>) -> Option<AppendPlan> {
    match (by, claim) {
        (Some(by), Some(claim)) if by == claim => Some(AppendPlan::Duplicate {
            epoch: claim.epoch,
            highest_seq: claim.seq,
            closed: true,
        }),
        _ => None,
    }
}

enum Accepted {
    Duplicate(AppendPlan),
    /// `(epoch, seq)` to echo, when a producer was accepted.
    Producer(Option<(u64, u64)>),
}

fn accept_producer(
    state: &WriterState<'_>,
    claim: Option<&ProducerClaim>,
    now_ms: i64,
    writes: &mut WriterWrites,
) -> Result<Accepted, ProducerError> {
    let Some(claim) = claim else {
        return Ok(Accepted::Producer(None));
    };
    match check_producer(claim, state.producer, state.producers, now_ms)? {
        ProducerOutcome::Duplicate { epoch, highest_seq } => Ok(Accepted::Duplicate(AppendPlan::Duplicate {
            epoch,
            highest_seq,
            closed: false,
        })),
        ProducerOutcome::Accept { record, evict } => {
            let echo = (record.epoch, record.last_seq);
            writes.producer = Some(record);
            writes.evict_producer = evict;
            Ok(Accepted::Producer(Some(echo)))
        }
    }
}

/// A stream's configuration as a repeated `PUT` compares it (PROTOCOL
/// §5.1: content type, expiry, closure).
#[derive(Debug, Clone, Copy)]
pub struct StreamConfig<'a> {
    pub content_type: &'a MediaType,
    pub expiry: Expiry,
    pub closed: bool,
    /// `None` for a stream first written natively (its events carry their
    /// own types).
    pub message_type: Option<&'a str>,
    /// What it was forked from (§18): source path as the creating `PUT` sent
    /// it, fork offset, sub-offset.
    pub fork: Option<(&'a str, u64, u64)>,
}

/// A `PUT` that may proceed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreatePlan {
    /// 201: create (with the body, if any, as the first messages).
    Create,
    /// 200: the stream exists as asked; the body is not appended.
    Exists,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateRefusal {
    #[error("the stream exists with a different {}", differs.join(", "))]
    Mismatch { differs: Vec<&'static str> },
}

impl ApiFailure for CreateRefusal {
    fn error_code(&self) -> ErrorCode {
        ErrorCode::StreamConfigMismatch
    }
    fn details(&self) -> Map<String, Value> {
        let CreateRefusal::Mismatch { differs } = self;
        details([("differs", json!(differs))])
    }
}

/// Whether a `PUT` creates, matches the existing stream, or conflicts. A
/// `PUT` without `Tributary-Message-Type` accepts any message type, so a
/// standard client's "ensure it exists" matches however it was created.
pub fn check_create(existing: Option<&StreamConfig<'_>>, request: &CreateHeaders) -> Result<CreatePlan, CreateRefusal> {
    let Some(existing) = existing else {
        return Ok(CreatePlan::Create);
    };
    let mut differs = Vec::new();
    // A fork without a type inherits its source's (PROTOCOL §4.2).
    let asked_type = match (&request.content_type, &request.fork) {
        (Some(asked), _) => Some(asked.clone()),
        (None, Some(_)) => None,
        (None, None) => Some(MediaType::octet_stream()),
    };
    if asked_type.is_some_and(|asked| !asked.matches(existing.content_type)) {
        differs.push("content type");
    }
    let same_fork = match (&request.fork, existing.fork) {
        (None, None) => true,
        (Some(asked), Some((from, offset, sub_offset))) => {
            asked.from == from && asked.offset.is_none_or(|asked| asked == offset) && asked.sub_offset == sub_offset
        }
        _ => false,
    };
    if !same_fork {
        differs.push("fork");
    }
    // A fork asking no expiry inherits its source's (PROTOCOL §4.2 table).
    let inherits_expiry = request.fork.is_some() && request.expiry == Expiry::Never;
    if request.expiry != existing.expiry && !inherits_expiry {
        differs.push("expiry");
    }
    if request.closed != existing.closed {
        differs.push("closure status");
    }
    if request.message_type.is_some() && request.message_type.as_deref() != existing.message_type {
        differs.push("message type");
    }
    if differs.is_empty() {
        Ok(CreatePlan::Exists)
    } else {
        Err(CreateRefusal::Mismatch { differs })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::durable_streams::offset;
    use crate::error::ApiError;

    const NOW: i64 = 1_795_963_338_000;

    fn text_plain() -> MediaType {
        MediaType::parse("text/plain").unwrap()
    }

    fn headers(content_type: Option<&str>) -> AppendHeaders {
        AppendHeaders {
            content_type: content_type.map(|raw| MediaType::parse(raw).unwrap()),
            stream_seq: None,
            close: false,
            producer: None,
        }
    }

    fn claim(epoch: u64, seq: u64) -> ProducerClaim {
        ProducerClaim {
            producer_id: "p".into(),
            epoch,
            seq,
        }
    }

    fn with_state<T>(
        closure: Closure<'_>,
        producer: Option<&ProducerRecord>,
        run: impl FnOnce(&WriterState<'_>) -> T,
    ) -> T {
        let content_type = text_plain();
        let table = ProducerTable::default();
        let state = WriterState {
            content_type: &content_type,
            closure,
            last_stream_seq: Some("5"),
            producer,
            producers: &table,
        };
        run(&state)
    }

    fn append(closure: Closure<'_>, request: &AppendHeaders, body_empty: bool) -> Result<AppendPlan, AppendRefusal> {
        with_state(closure, None, |state| check_append(state, request, body_empty, NOW))
    }

    #[test]
    fn a_plain_append_writes_nothing_but_the_body_and_answers_204() {
        let plan = append(Closure::Open, &headers(Some("TEXT/PLAIN; charset=utf-8")), false);
        assert_eq!(
            plan,
            Ok(AppendPlan::Append {
                writes: WriterWrites::default(),
                producer: None
            })
        );
    }

    #[test]
    fn an_empty_body_is_400_unless_it_closes() {
        let refused = append(Closure::Open, &headers(Some("text/plain")), true).unwrap_err();
        assert_eq!(refused, AppendRefusal::EmptyBody);
        assert_eq!(ApiError::from(refused).status, 400);
        let close = AppendHeaders {
            close: true,
            ..headers(None)
        };
        let plan = append(Closure::Open, &close, true).unwrap();
        assert_eq!(
            plan,
            AppendPlan::Close {
                writes: WriterWrites {
                    close: Some(CloseWrite { by: None }),
                    ..WriterWrites::default()
                },
                already_closed: false,
                producer: None
            }
        );
    }

    #[test]
    fn closing_twice_succeeds_and_appending_after_close_is_409_first() {
        let close = AppendHeaders {
            close: true,
            ..headers(Some("application/json"))
        };
        let closed = Closure::Closed { by: None };
        let again = append(closed, &close, true).unwrap();
        assert!(
            matches!(again, AppendPlan::Close { already_closed: true, ref writes, .. } if *writes == WriterWrites::default())
        );
        // Closed is checked before the content type (PROTOCOL §5.2 precedence).
        let refused = append(closed, &headers(Some("application/json")), false).unwrap_err();
        assert_eq!(refused, AppendRefusal::StreamClosed);
        assert_eq!(
            (
                ApiError::from(refused).status,
                ApiError::from(AppendRefusal::StreamClosed).code().to_owned()
            ),
            (409, "stream_closed".to_owned())
        );
        // Append-and-close on a closed stream is not idempotent without a producer.
        assert_eq!(append(closed, &close, false), Err(AppendRefusal::StreamClosed));
    }

    #[test]
    fn the_retry_of_the_closing_producer_request_is_a_duplicate() {
        let closer = claim(0, 3);
        let closed = Closure::Closed { by: Some(&closer) };
        let retry = AppendHeaders {
            close: true,
            producer: Some(claim(0, 3)),
            ..headers(Some("text/plain"))
        };
        let duplicate = AppendPlan::Duplicate {
            epoch: 0,
            highest_seq: 3,
            closed: true,
        };
        assert_eq!(append(closed, &retry, false), Ok(duplicate.clone()));
        assert_eq!(append(closed, &retry, true), Ok(duplicate));
        let other = AppendHeaders {
            producer: Some(claim(0, 4)),
            ..retry
        };
        assert_eq!(append(closed, &other, false), Err(AppendRefusal::StreamClosed));
        assert_eq!(append(closed, &other, true), Err(AppendRefusal::StreamClosed));
    }

    #[test]
    fn the_content_type_is_required_and_must_match() {
        assert_eq!(
            append(Closure::Open, &headers(None), false),
            Err(AppendRefusal::MissingContentType)
        );
        let refused = append(Closure::Open, &headers(Some("application/json")), false).unwrap_err();
        assert_eq!(
            refused,
            AppendRefusal::ContentTypeMismatch {
                stream: "text/plain".into(),
                sent: "application/json".into()
            }
        );
        assert_eq!(ApiError::from(refused).status, 409);
    }

    #[test]
    fn a_producer_duplicate_wins_over_a_stream_seq_regression() {
        let stored = ProducerRecord {
            producer_id: "p".into(),
            epoch: 0,
            last_seq: 2,
            last_active_ms: NOW,
        };
        let retry = AppendHeaders {
            stream_seq: Some("1".into()),
            producer: Some(claim(0, 2)),
            ..headers(Some("text/plain"))
        };
        let plan = with_state(Closure::Open, Some(&stored), |state| {
            check_append(state, &retry, false, NOW)
        });
        assert_eq!(
            plan,
            Ok(AppendPlan::Duplicate {
                epoch: 0,
                highest_seq: 2,
                closed: false
            })
        );
        let next = AppendHeaders {
            producer: Some(claim(0, 3)),
            ..retry.clone()
        };
        let refused = with_state(Closure::Open, Some(&stored), |state| {
            check_append(state, &next, false, NOW)
        });
        assert!(matches!(
            refused,
            Err(AppendRefusal::StreamSeq(StreamSeqError::Regression { .. }))
        ));
        let gap = AppendHeaders {
            producer: Some(claim(0, 5)),
            ..retry
        };
        let refused = with_state(Closure::Open, Some(&stored), |state| {
            check_append(state, &gap, false, NOW)
        })
        .unwrap_err();
        assert_eq!(ApiError::from(refused).status, 409);
    }

    #[test]
    fn an_accepted_append_writes_producer_seq_and_closure_together() {
        let request = AppendHeaders {
            stream_seq: Some("6".into()),
            close: true,
            producer: Some(claim(0, 0)),
            ..headers(Some("text/plain"))
        };
        let plan = append(Closure::Open, &request, false).unwrap();
        let AppendPlan::Append { writes, producer } = plan else {
            unreachable!("{plan:?}");
        };
        assert_eq!(producer, Some((0, 0)));
        assert_eq!(writes.stream_seq.as_deref(), Some("6"));
        assert_eq!(writes.close, Some(CloseWrite { by: Some(claim(0, 0)) }));
        assert_eq!(
            writes.producer.map(|record| (record.last_seq, record.last_active_ms)),
            Some((0, NOW))
        );
    }

    #[test]
    fn a_close_only_request_with_a_producer_is_sequenced() {
        let request = AppendHeaders {
            close: true,
            producer: Some(claim(0, 0)),
            ..headers(None)
        };
        let plan = append(Closure::Open, &request, true).unwrap();
        assert!(
            matches!(plan, AppendPlan::Close { already_closed: false, producer: Some((0, 0)), ref writes } if writes.close.is_some() && writes.producer.is_some())
        );
        let stale = AppendHeaders {
            producer: Some(claim(0, 1)),
            ..request
        };
        let refused = append(Closure::Open, &stale, true).unwrap_err();
        assert_eq!(
            refused,
            AppendRefusal::Producer(ProducerError::SequenceGap {
                expected: 0,
                received: 1
            })
        );
    }

    fn config(content_type: &MediaType) -> StreamConfig<'_> {
        StreamConfig {
            content_type,
            expiry: Expiry::Sliding { ttl_seconds: 3600 },
            closed: false,
            message_type: Some("message"),
            fork: None,
        }
    }

    fn create(headers: &[(&str, &str)]) -> CreateHeaders {
        CreateHeaders::parse(headers).unwrap()
    }

    #[test]
    fn a_repeated_create_matches_by_type_expiry_and_closure() {
        let plain = text_plain();
        let existing = config(&plain);
        assert_eq!(check_create(None, &create(&[])), Ok(CreatePlan::Create));
        let same = create(&[("Content-Type", "TEXT/plain; charset=utf-8"), ("Stream-TTL", "3600")]);
        assert_eq!(check_create(Some(&existing), &same), Ok(CreatePlan::Exists));
        let other_ttl = create(&[("Content-Type", "text/plain"), ("Stream-TTL", "7200")]);
        assert_eq!(
            check_create(Some(&existing), &other_ttl),
            Err(CreateRefusal::Mismatch {
                differs: vec!["expiry"]
            })
        );
        let closed = create(&[
            ("Content-Type", "text/plain"),
            ("Stream-TTL", "3600"),
            ("Stream-Closed", "true"),
        ]);
        assert_eq!(
            check_create(Some(&existing), &closed),
            Err(CreateRefusal::Mismatch {
                differs: vec!["closure status"]
            })
        );
        let untyped = create(&[("Stream-TTL", "3600")]);
        let refused = check_create(Some(&existing), &untyped).unwrap_err();
        assert_eq!(
            refused,
            CreateRefusal::Mismatch {
                differs: vec!["content type"]
            }
        );
        assert_eq!(ApiError::from(refused).status, 409);
    }

    #[test]
    fn a_repeated_fork_matches_its_source_offset_and_sub_offset_section_18() {
        let plain = text_plain();
        let fork = StreamConfig {
            fork: Some(("/v1/stream/src", 4, 0)),
            expiry: Expiry::Never,
            ..config(&plain)
        };
        let same = create(&[
            ("Stream-Forked-From", "/v1/stream/src"),
            ("Stream-Fork-Offset", &offset::encode(4)),
        ]);
        assert_eq!(check_create(Some(&fork), &same), Ok(CreatePlan::Exists));
        let at_tail = create(&[("Stream-Forked-From", "/v1/stream/src")]);
        assert_eq!(check_create(Some(&fork), &at_tail), Ok(CreatePlan::Exists));
        let inherited = StreamConfig {
            expiry: Expiry::Sliding { ttl_seconds: 60 },
            ..fork
        };
        assert_eq!(check_create(Some(&inherited), &at_tail), Ok(CreatePlan::Exists));
        let elsewhere = create(&[
            ("Stream-Forked-From", "/v1/stream/src"),
            ("Stream-Fork-Offset", &offset::encode(3)),
        ]);
        assert_eq!(
            check_create(Some(&fork), &elsewhere),
            Err(CreateRefusal::Mismatch { differs: vec!["fork"] })
        );
        let plain_put = create(&[("Content-Type", "text/plain")]);
        assert_eq!(
            check_create(Some(&fork), &plain_put),
            Err(CreateRefusal::Mismatch { differs: vec!["fork"] })
        );
        let other_type = create(&[
            ("Stream-Forked-From", "/v1/stream/src"),
            ("Content-Type", "application/json"),
        ]);
        assert_eq!(
            check_create(Some(&fork), &other_type),
            Err(CreateRefusal::Mismatch {
                differs: vec!["content type"]
            })
        );
    }

    #[test]
    fn the_message_type_matters_only_when_named() {
        let json = MediaType::json();
        let native = StreamConfig {
            content_type: &json,
            expiry: Expiry::Never,
            closed: false,
            message_type: None,
            fork: None,
        };
        assert_eq!(
            check_create(Some(&native), &create(&[("Content-Type", "application/json")])),
            Ok(CreatePlan::Exists)
        );
        let named = create(&[("Content-Type", "application/json"), ("Tributary-Message-Type", "chat")]);
        assert!(check_create(Some(&native), &named).is_err());
        let plain = text_plain();
        let protocol = StreamConfig {
            message_type: Some("chat"),
            ..config(&plain)
        };
        let same = create(&[
            ("Content-Type", "text/plain"),
            ("Stream-TTL", "3600"),
            ("Tributary-Message-Type", "chat"),
        ]);
        assert_eq!(check_create(Some(&protocol), &same), Ok(CreatePlan::Exists));
    }
}
