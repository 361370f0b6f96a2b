//! The request headers of a protocol create (`PUT`) and append or close
//! (`POST`) (docs/design.md §17, PROTOCOL §5.1–5.3), parsed into values before
//! anything is read from the stream. Every malformed header is 400
//! `invalid_parameter` naming it; nothing here consults the stream.

use super::expiry::Expiry;
use super::media_type::{MediaType, MediaTypeError};
use super::names::{
    CONTENT_TYPE, PRODUCER_EPOCH, PRODUCER_ID, PRODUCER_SEQ, STREAM_CLOSED, STREAM_EXPIRES_AT, STREAM_FORKED_FROM,
    STREAM_FORK_OFFSET, STREAM_FORK_SUB_OFFSET, STREAM_SEQ, STREAM_TTL, TRIBUTARY_MESSAGE_TYPE,
};
use super::offset::ProtocolOffset;
use super::producer::ProducerClaim;
use super::HeaderLookup;
use crate::error::{details, ApiFailure, ErrorCode};
use crate::event::{Authority, ControlType, InputEvent, TypeKind};
use crate::limits::{
    MAX_EXPIRES_AT_MS, MAX_FORKED_FROM_BYTES, MAX_PRODUCER_ID_BYTES, MAX_SAFE_INTEGER, MAX_STREAM_SEQ_BYTES,
    MAX_STREAM_TTL_SECONDS,
};
use crate::text::name_excerpt;
use crate::time::parse_rfc3339;
use serde_json::{json, Map, Value};

/// The event type of a protocol stream's messages when the creating `PUT`
/// names none (§17 "Messages are events").
pub const DEFAULT_MESSAGE_TYPE: &str = "message";

/// Headers of `PUT {stream}` (PROTOCOL §5.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateHeaders {
    /// `None`: `application/octet-stream` for a new stream (a fork, later,
    /// inherits its source's, PROTOCOL §4.2).
    pub content_type: Option<MediaType>,
    pub expiry: Expiry,
    /// `Stream-Closed: true`: created closed, the body its whole content.
    pub closed: bool,
    /// `Tributary-Message-Type`; `None` is [`DEFAULT_MESSAGE_TYPE`].
    pub message_type: Option<String>,
    /// The fork headers (§18, PROTOCOL §4.2), when this `PUT` forks.
    pub fork: Option<ForkHeaders>,
}

/// `Stream-Forked-From`, `Stream-Fork-Offset`, `Stream-Fork-Sub-Offset`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForkHeaders {
    /// The source's URL path as sent; the router resolves it to a stream.
    pub from: String,
    /// The native offset forked at; `None` is the source's tail.
    pub offset: Option<u64>,
    /// Messages (JSON) or bytes past `offset`; 0 when absent.
    pub sub_offset: u64,
}

/// Headers of `POST {stream}` (PROTOCOL §5.2, §5.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppendHeaders {
    /// Not parsed when the body is empty (PROTOCOL §5.2: a close-only
    /// request is never refused for its `Content-Type`).
    pub content_type: Option<MediaType>,
    pub stream_seq: Option<String>,
    /// `Stream-Closed: true`: close after this append (or without one).
    pub close: bool,
    pub producer: Option<ProducerClaim>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    #[error(transparent)]
    ContentType(#[from] MediaTypeError),
    #[error("header {header} {problem}")]
    Invalid { header: &'static str, problem: String },
    #[error("header {header} is {bytes} bytes; the limit is {limit}")]
    TooLong {
        header: &'static str,
        bytes: usize,
        limit: usize,
    },
    #[error("Stream-TTL and Stream-Expires-At cannot both be set: pick a sliding or an absolute expiry")]
    BothExpiries,
    #[error("Producer-Id, Producer-Epoch and Producer-Seq go together; {missing} is missing")]
    IncompleteProducer { missing: &'static str },
}

impl ApiFailure for HeaderError {
    fn error_code(&self) -> ErrorCode {
        match self {
            HeaderError::ContentType(error) => error.error_code(),
            _ => ErrorCode::InvalidParameter,
        }
    }
    fn details(&self) -> Map<String, Value> {
        let header = match self {
            HeaderError::ContentType(error) => return error.details(),
            HeaderError::Invalid { header, .. } | HeaderError::TooLong { header, .. } => *header,
            HeaderError::BothExpiries => STREAM_TTL,
            HeaderError::IncompleteProducer { missing } => missing,
        };
        details([("parameter", json!(header))])
    }
}

fn invalid(header: &'static str, problem: impl Into<String>) -> HeaderError {
    HeaderError::Invalid {
        header,
        problem: problem.into(),
    }
}

impl CreateHeaders {
    pub fn parse<H: HeaderLookup + ?Sized>(headers: &H) -> Result<CreateHeaders, HeaderError> {
        Ok(CreateHeaders {
            content_type: content_type(headers)?,
            expiry: expiry(headers.header(STREAM_TTL), headers.header(STREAM_EXPIRES_AT))?,
            closed: stream_closed(headers.header(STREAM_CLOSED)),
            message_type: headers.header(TRIBUTARY_MESSAGE_TYPE).map(message_type).transpose()?,
            fork: fork(headers)?,
        })
    }

    /// The event type this stream's messages get.
    pub fn message_type(&self) -> &str {
        self.message_type.as_deref().unwrap_or(DEFAULT_MESSAGE_TYPE)
    }
}

impl AppendHeaders {
    /// `body_empty`: the request carried no bytes (a close-only request).
    pub fn parse<H: HeaderLookup + ?Sized>(headers: &H, body_empty: bool) -> Result<AppendHeaders, HeaderError> {
        Ok(AppendHeaders {
            content_type: if body_empty { None } else { content_type(headers)? },
            stream_seq: headers.header(STREAM_SEQ).map(stream_seq).transpose()?,
            close: stream_closed(headers.header(STREAM_CLOSED)),
            producer: producer(headers)?,
        })
    }
}

/// `Content-Type`, absent when missing or blank.
fn content_type<H: HeaderLookup + ?Sized>(headers: &H) -> Result<Option<MediaType>, HeaderError> {
    match headers.header(CONTENT_TYPE) {
        Some(raw) if !raw.trim_matches([' ', '\t']).is_empty() => Ok(Some(MediaType::parse(raw)?)),
        _ => Ok(None),
    }
}

/// The fork headers: the offsets only with `Stream-Forked-From`; the offset
/// a token this server returned (a sentinel or a foreign token is 400); the
/// sub-offset a plain non-negative integer.
fn fork<H: HeaderLookup + ?Sized>(headers: &H) -> Result<Option<ForkHeaders>, HeaderError> {
    let offset = headers.header(STREAM_FORK_OFFSET);
    let sub_offset = headers.header(STREAM_FORK_SUB_OFFSET);
    let Some(from) = headers.header(STREAM_FORKED_FROM) else {
        return match (offset, sub_offset) {
            (None, None) => Ok(None),
            (Some(_), _) => Err(invalid(STREAM_FORK_OFFSET, "needs Stream-Forked-From")),
            (None, Some(_)) => Err(invalid(STREAM_FORK_SUB_OFFSET, "needs Stream-Forked-From")),
        };
    };
    let offset = offset
        .map(|text| ProtocolOffset::parse_minted(STREAM_FORK_OFFSET, text))
        .transpose()
        .map_err(|error| invalid(STREAM_FORK_OFFSET, error.to_string()))?;
    let sub_offset = sub_offset
        .map(|text| plain_integer(STREAM_FORK_SUB_OFFSET, text))
        .transpose()?;
    Ok(Some(ForkHeaders {
        from: bounded_text(STREAM_FORKED_FROM, from, MAX_FORKED_FROM_BYTES)?,
        offset,
        sub_offset: sub_offset.unwrap_or(0),
    }))
}

/// A decimal integer without sign or leading zeros, at most 2^53 − 1.
fn plain_integer(header: &'static str, text: &str) -> Result<u64, HeaderError> {
    if text.len() > 1 && text.starts_with('0') {
        return Err(invalid(header, format!("'{}' has leading zeros", name_excerpt(text))));
    }
    safe_integer(header, text)
}

/// `Stream-Closed` is present only when exactly `true`, without case; any
/// other value is as if absent, never an error (PROTOCOL §4.1).
pub fn stream_closed(value: Option<&str>) -> bool {
    value.is_some_and(|value| value.eq_ignore_ascii_case("true"))
}

/// `Stream-TTL` and `Stream-Expires-At` (PROTOCOL §5.1): at most one.
pub fn expiry(ttl: Option<&str>, expires_at: Option<&str>) -> Result<Expiry, HeaderError> {
    match (ttl, expires_at) {
        (Some(_), Some(_)) => Err(HeaderError::BothExpiries),
        (Some(ttl), None) => parse_ttl(ttl).map(|ttl_seconds| Expiry::Sliding { ttl_seconds }),
        (None, Some(at)) => parse_expires_at(at).map(|at_ms| Expiry::At { at_ms }),
        (None, None) => Ok(Expiry::Never),
    }
}

/// A non-negative decimal integer without sign, leading zeros, point or
/// exponent (`0` itself is allowed), at most [`MAX_STREAM_TTL_SECONDS`].
pub fn parse_ttl(text: &str) -> Result<u64, HeaderError> {
    let digits = text.bytes().all(|b| b.is_ascii_digit());
    if text.is_empty() || !digits || (text.len() > 1 && text.starts_with('0')) {
        return Err(invalid(
            STREAM_TTL,
            format!(
                "'{}' is not a number of seconds: decimal digits only, without sign, leading zeros, point or exponent",
                name_excerpt(text)
            ),
        ));
    }
    text.parse::<u64>()
        .ok()
        .filter(|seconds| *seconds <= MAX_STREAM_TTL_SECONDS)
        .ok_or_else(|| {
            invalid(
                STREAM_TTL,
                format!("must be at most {MAX_STREAM_TTL_SECONDS} seconds (ten years)"),
            )
        })
}

/// An RFC 3339 instant up to 9999-12-31T23:59:59.999Z, in Unix ms. A past
/// instant is accepted: the stream then expires at its first request.
pub fn parse_expires_at(text: &str) -> Result<i64, HeaderError> {
    let at_ms = parse_rfc3339(text).ok_or_else(|| {
        invalid(
            STREAM_EXPIRES_AT,
            format!("'{}' is not an RFC 3339 date-time", name_excerpt(text)),
        )
    })?;
    if !(0..=MAX_EXPIRES_AT_MS).contains(&at_ms) {
        return Err(invalid(STREAM_EXPIRES_AT, "must lie between 1970 and the year 9999"));
    }
    Ok(at_ms)
}

/// An opaque, non-empty `Stream-Seq` of visible characters.
fn stream_seq(text: &str) -> Result<String, HeaderError> {
    bounded_text(STREAM_SEQ, text, MAX_STREAM_SEQ_BYTES)
}

fn bounded_text(header: &'static str, text: &str, limit: usize) -> Result<String, HeaderError> {
    if text.is_empty() {
        return Err(invalid(header, "must not be empty"));
    }
    if text.len() > limit {
        return Err(HeaderError::TooLong {
            header,
            bytes: text.len(),
            limit,
        });
    }
    if text.chars().any(char::is_control) {
        return Err(invalid(header, "must not contain control characters"));
    }
    Ok(text.to_owned())
}

/// The three producer headers, all or none (PROTOCOL §5.2.1).
fn producer<H: HeaderLookup + ?Sized>(headers: &H) -> Result<Option<ProducerClaim>, HeaderError> {
    let values = (
        headers.header(PRODUCER_ID),
        headers.header(PRODUCER_EPOCH),
        headers.header(PRODUCER_SEQ),
    );
    let (id, epoch, seq) = match values {
        (None, None, None) => return Ok(None),
        (Some(id), Some(epoch), Some(seq)) => (id, epoch, seq),
        (None, _, _) => return Err(HeaderError::IncompleteProducer { missing: PRODUCER_ID }),
        (_, None, _) => {
            return Err(HeaderError::IncompleteProducer {
                missing: PRODUCER_EPOCH,
            })
        }
        (_, _, None) => return Err(HeaderError::IncompleteProducer { missing: PRODUCER_SEQ }),
    };
    Ok(Some(ProducerClaim {
        producer_id: bounded_text(PRODUCER_ID, id, MAX_PRODUCER_ID_BYTES)?,
        epoch: safe_integer(PRODUCER_EPOCH, epoch)?,
        seq: safe_integer(PRODUCER_SEQ, seq)?,
    }))
}

/// ASCII digits (leading zeros allowed, as the reference server allows
/// them) worth at most 2^53 − 1.
fn safe_integer(header: &'static str, text: &str) -> Result<u64, HeaderError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(
            header,
            format!("'{}' is not a non-negative decimal integer", name_excerpt(text)),
        ));
    }
    text.bytes()
        .try_fold(0u64, |total, digit| {
            total
                .checked_mul(10)?
                .checked_add(u64::from(digit - b'0'))
                .filter(|value| *value <= MAX_SAFE_INTEGER)
        })
        .ok_or_else(|| invalid(header, format!("must be at most {MAX_SAFE_INTEGER} (2^53 - 1)")))
}

/// `Tributary-Message-Type`: an event type as §3 rule 1 allows, and never
/// a control type (§17: protocol messages are data events).
fn message_type(text: &str) -> Result<String, HeaderError> {
    InputEvent::from_json(json!({"type": text}), Authority::Public)
        .map_err(|error| invalid(TRIBUTARY_MESSAGE_TYPE, error.to_string()))?;
    if ControlType::classify(text) != TypeKind::Ordinary {
        return Err(invalid(TRIBUTARY_MESSAGE_TYPE, "must not be a control event type"));
    }
    Ok(text.to_owned())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error::ApiError;

    fn create(headers: &[(&str, &str)]) -> Result<CreateHeaders, HeaderError> {
        CreateHeaders::parse(headers)
    }

    fn append(headers: &[(&str, &str)]) -> Result<AppendHeaders, HeaderError> {
        AppendHeaders::parse(headers, false)
    }

    fn status_and_parameter(error: HeaderError) -> (u16, Value) {
        let api = ApiError::from(error);
        (
            api.status,
            api.body.error.details.get("parameter").cloned().unwrap_or_default(),
        )
    }

    #[test]
    fn a_bare_create_is_octet_stream_default_never_expiring_and_open() {
        let parsed = create(&[]).unwrap();
        assert_eq!(parsed.content_type, None);
        assert_eq!(
            (parsed.expiry, parsed.closed, parsed.message_type()),
            (Expiry::Never, false, "message")
        );
        let blank = create(&[("Content-Type", "  ")]).unwrap();
        assert_eq!(blank.content_type, None);
    }

    #[test]
    fn ttl_takes_plain_decimal_seconds_only() {
        let ttl = |value| expiry(Some(value), None);
        assert_eq!(ttl("0"), Ok(Expiry::Sliding { ttl_seconds: 0 }));
        assert_eq!(ttl("3600"), Ok(Expiry::Sliding { ttl_seconds: 3600 }));
        assert_eq!(
            ttl("315360000"),
            Ok(Expiry::Sliding {
                ttl_seconds: MAX_STREAM_TTL_SECONDS
            })
        );
        let refused = [
            "",
            "-1",
            "+60",
            "00060",
            "060",
            "60.5",
            "60.0",
            "1e3",
            " 5",
            "5 ",
            "abc",
            "0x10",
            "５",
            "٣",
            "315360001",
            "99999999999999999999",
            "5, 5",
        ];
        for value in refused {
            let error = ttl(value).expect_err(value);
            assert_eq!(status_and_parameter(error), (400, json!("Stream-TTL")), "{value:?}");
        }
        let huge = "9".repeat(100_000);
        assert!(ttl(&huge).is_err());
    }

    #[test]
    fn expires_at_takes_rfc_3339_and_not_both_expiries() {
        let at = |value| expiry(None, Some(value));
        assert_eq!(
            at("2026-11-29T14:42:18.123Z"),
            Ok(Expiry::At {
                at_ms: 1_795_963_338_123
            })
        );
        assert_eq!(
            at("2026-11-29T15:42:18.123+01:00"),
            Ok(Expiry::At {
                at_ms: 1_795_963_338_123
            })
        );
        assert_eq!(at("1970-01-01T00:00:00Z"), Ok(Expiry::At { at_ms: 0 }));
        for value in [
            "not-a-timestamp",
            "1795963338123",
            "2026-11-29",
            "1969-12-31T23:59:59Z",
            "2026-02-30T00:00:00Z",
        ] {
            assert_eq!(
                status_and_parameter(at(value).expect_err(value)),
                (400, json!("Stream-Expires-At")),
                "{value}"
            );
        }
        let both = create(&[("Stream-TTL", "60"), ("Stream-Expires-At", "2026-11-29T14:42:18Z")]);
        assert_eq!(both, Err(HeaderError::BothExpiries));
        // Both, even when one of them is malformed: the conflict is named.
        assert_eq!(expiry(Some("x"), Some("y")), Err(HeaderError::BothExpiries));
        assert_eq!(status_and_parameter(HeaderError::BothExpiries).0, 400);
    }

    #[test]
    fn stream_closed_is_true_without_case_and_nothing_else_ever_an_error() {
        for value in ["true", "TRUE", "True", "tRuE"] {
            assert!(stream_closed(Some(value)), "{value}");
        }
        for value in ["false", "yes", "1", "", " true", "true ", "truee"] {
            assert!(!stream_closed(Some(value)), "{value:?}");
        }
        assert!(!stream_closed(None));
        assert!(create(&[("Stream-Closed", "yes")]).is_ok_and(|parsed| !parsed.closed));
    }

    #[test]
    fn content_types_parse_or_are_400_and_are_skipped_for_an_empty_body() {
        let parsed = append(&[("content-type", r#"Application/JSON ; charset="utf-8""#)]).unwrap();
        assert!(parsed.content_type.is_some_and(|media| media.is_json()));
        let error = append(&[("Content-Type", "application/json;;=")]).unwrap_err();
        assert_eq!(status_and_parameter(error), (400, json!("Content-Type")));
        let close_only = AppendHeaders::parse(&[("Content-Type", "not a type"), ("Stream-Closed", "true")][..], true);
        assert_eq!(
            close_only.map(|parsed| (parsed.content_type, parsed.close)),
            Ok((None, true))
        );
    }

    #[test]
    fn stream_seq_is_opaque_non_empty_and_bounded() {
        assert_eq!(
            append(&[("stream-seq", "001")]).unwrap().stream_seq.as_deref(),
            Some("001")
        );
        let long = "a".repeat(MAX_STREAM_SEQ_BYTES + 1);
        for value in ["", "a\u{0}b", "a\tb", long.as_str()] {
            let error = append(&[("Stream-Seq", value)]).expect_err(value);
            assert_eq!(status_and_parameter(error), (400, json!("Stream-Seq")), "{value:?}");
        }
    }

    #[test]
    fn producer_headers_are_all_or_none_and_safe_integers() {
        let full = [("Producer-Id", "p-1"), ("Producer-Epoch", "0"), ("Producer-Seq", "007")];
        let claim = append(&full).unwrap().producer.unwrap();
        assert_eq!((claim.producer_id.as_str(), claim.epoch, claim.seq), ("p-1", 0, 7));
        let at_limit = [
            ("Producer-Id", "p"),
            ("Producer-Epoch", "9007199254740991"),
            ("Producer-Seq", "0"),
        ];
        assert_eq!(
            append(&at_limit).unwrap().producer.map(|c| c.epoch),
            Some(MAX_SAFE_INTEGER)
        );
        assert_eq!(append(&[]).unwrap().producer, None);
        let partial = append(&[("Producer-Id", "p"), ("Producer-Seq", "0")]);
        assert_eq!(
            partial,
            Err(HeaderError::IncompleteProducer {
                missing: "Producer-Epoch"
            })
        );
        let only_epoch = append(&[("Producer-Epoch", "0")]).unwrap_err();
        assert_eq!(status_and_parameter(only_epoch), (400, json!("Producer-Id")));
        for (epoch, seq) in [
            ("1abc", "0"),
            ("0xyz", "0"),
            ("1e3", "0"),
            ("-1", "0"),
            ("+1", "0"),
            (" 1", "0"),
            ("", "0"),
            ("٣", "0"),
            ("0", "9007199254740992"),
            ("0", "99999999999999999999999"),
            ("18446744073709551616", "0"),
        ] {
            let headers = [("Producer-Id", "p"), ("Producer-Epoch", epoch), ("Producer-Seq", seq)];
            assert_eq!(
                append(&headers).map(|_| ()).map_err(|e| status_and_parameter(e).0),
                Err(400),
                "{epoch}/{seq}"
            );
        }
        let long_id = "p".repeat(MAX_PRODUCER_ID_BYTES + 1);
        for id in ["", long_id.as_str(), "a\nb"] {
            let headers = [("Producer-Id", id), ("Producer-Epoch", "0"), ("Producer-Seq", "0")];
            assert_eq!(
                status_and_parameter(append(&headers).unwrap_err()),
                (400, json!("Producer-Id"))
            );
        }
    }

    #[test]
    fn fork_headers_need_a_source_a_minted_offset_and_a_plain_sub_offset_section_18() {
        assert_eq!(create(&[]).unwrap().fork, None);
        let fork = create(&[
            ("Stream-Forked-From", "/v1/stream/source"),
            ("Stream-Fork-Offset", "0000000000000000_0000000000000004"),
            ("Stream-Fork-Sub-Offset", "12"),
        ])
        .unwrap()
        .fork;
        let expected = ForkHeaders {
            from: "/v1/stream/source".into(),
            offset: Some(4),
            sub_offset: 12,
        };
        assert_eq!(fork, Some(expected));
        let at_tail = create(&[("Stream-Forked-From", "/v1/stream/source")])
            .unwrap()
            .fork
            .unwrap();
        assert_eq!((at_tail.offset, at_tail.sub_offset), (None, 0));
        let long = "/".repeat(MAX_FORKED_FROM_BYTES + 1);
        let refused: [(&[(&str, &str)], &str); 8] = [
            (
                &[("Stream-Fork-Offset", "0000000000000000_0000000000000000")],
                "Stream-Fork-Offset",
            ),
            (&[("Stream-Fork-Sub-Offset", "1")], "Stream-Fork-Sub-Offset"),
            (
                &[("Stream-Forked-From", "/s"), ("Stream-Fork-Offset", "now")],
                "Stream-Fork-Offset",
            ),
            (
                &[
                    ("Stream-Forked-From", "/s"),
                    ("Stream-Fork-Offset", "9999999999999999_9999999999999999"),
                ],
                "Stream-Fork-Offset",
            ),
            (
                &[("Stream-Forked-From", "/s"), ("Stream-Fork-Sub-Offset", "-1")],
                "Stream-Fork-Sub-Offset",
            ),
            (
                &[("Stream-Forked-From", "/s"), ("Stream-Fork-Sub-Offset", "01")],
                "Stream-Fork-Sub-Offset",
            ),
            (&[("Stream-Forked-From", "")], "Stream-Forked-From"),
            (&[("Stream-Forked-From", long.as_str())], "Stream-Forked-From"),
        ];
        for (headers, named) in refused {
            let error = CreateHeaders::parse(headers).unwrap_err();
            assert_eq!(status_and_parameter(error), (400, json!(named)), "{headers:?}");
        }
    }

    #[test]
    fn the_message_type_is_an_ordinary_event_type() {
        let parsed = create(&[("Tributary-Message-Type", "chat.token")]).unwrap();
        assert_eq!(parsed.message_type(), "chat.token");
        let long = "t".repeat(257);
        for value in [
            "",
            "two words",
            long.as_str(),
            "events.iterate.com/stream/retention-configured",
        ] {
            let error = create(&[("Tributary-Message-Type", value)]).expect_err(value);
            assert_eq!(status_and_parameter(error), (400, json!("Tributary-Message-Type")));
        }
    }
}
