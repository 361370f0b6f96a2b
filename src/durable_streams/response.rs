//! The status and headers of each protocol answer (docs/design.md §17,
//! PROTOCOL §5, §10, §12.7), as values the stream object sends as they are.
//! The body is the caller's (messages, or the §2 error body for a refusal).
//!
//! Caching (PROTOCOL §10.1, §5.5, §8): a catch-up page that ends before the
//! tail is immutable and cacheable (`private`: tokens are per caller); one
//! that reaches the tail may grow or gain `Stream-Closed`, so it is
//! revalidated by `ETag` (`no-cache`); `HEAD`, `offset=now` and long-poll
//! timeouts are `no-store`. The `ETag` names the stream's lifetime
//! (`streamId`), the range and closure, so it changes when data is
//! appended, when the stream is closed, or when a stream is recreated.

use super::checks::AppendRefusal;
use super::expiry::Expiry;
use super::names::{
    CACHE_CONTROL, CONTENT_TYPE, ETAG, LOCATION, PRODUCER_EPOCH, PRODUCER_EXPECTED_SEQ, PRODUCER_RECEIVED_SEQ,
    PRODUCER_SEQ, STREAM_CLOSED, STREAM_CURSOR, STREAM_NEXT_OFFSET, STREAM_UP_TO_DATE,
};
use super::offset::{encode, ReadStart};
use super::producer::ProducerError;
use crate::limits::{MAX_IF_NONE_MATCH_TAGS, PROTOCOL_CACHE_MAX_AGE_SECONDS, PROTOCOL_CACHE_STALE_SECONDS};

/// Headers of every protocol response, refusals included (PROTOCOL §12.7).
pub const SECURITY_HEADERS: [(&str, &str); 2] = [
    ("X-Content-Type-Options", "nosniff"),
    ("Cross-Origin-Resource-Policy", "cross-origin"),
];

pub type Headers = Vec<(&'static str, String)>;

/// A status and its headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub headers: Headers,
}

/// One read's result, in native offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadResult<'a> {
    /// The stream's lifetime id (`streamId`).
    pub stream_id: &'a str,
    /// The stream's canonical content type.
    pub content_type: &'a str,
    /// Where the read began (`offset::ProtocolOffset::read_start`), with
    /// `after` as the stream resolved it (after trimming, §16).
    pub start: ReadStart,
    /// Where the client resumes: the last offset scanned, past control and
    /// ephemeral events the protocol skips (`start.after` if none).
    pub next: u64,
    /// The stream's last offset when the answer was made.
    pub tail: u64,
    pub closed: bool,
    /// The `Stream-Cursor` of a live answer (`super::cursor`).
    pub cursor: Option<u64>,
    /// Seconds before the stream may expire (`StoredExpiry::seconds_left`).
    pub expires_in: Option<u64>,
}

impl ReadResult<'_> {
    fn up_to_date(&self) -> bool {
        self.next >= self.tail
    }

    /// `Stream-Closed` only once the reader reached the final offset.
    fn at_end(&self) -> bool {
        self.closed && self.up_to_date()
    }
}

/// The answer to a catch-up read or a long-poll that found data (PROTOCOL
/// §5.6, §5.7): 200, or 304 when `If-None-Match` holds its `ETag`.
pub fn read(result: &ReadResult<'_>, if_none_match: Option<&str>) -> Answer {
    let mut headers = vec![(STREAM_NEXT_OFFSET, encode(result.next))];
    if result.up_to_date() {
        headers.push((STREAM_UP_TO_DATE, "true".to_owned()));
    }
    if result.at_end() {
        headers.push((STREAM_CLOSED, "true".to_owned()));
    }
    if let (Some(cursor), false) = (result.cursor, result.at_end()) {
        headers.push((STREAM_CURSOR, cursor.to_string()));
    }
    if result.start.now {
        headers.push((CACHE_CONTROL, "no-store".to_owned()));
        headers.push((CONTENT_TYPE, result.content_type.to_owned()));
        return Answer { status: 200, headers };
    }
    let tag = etag(result.stream_id, result.start.after, result.next, result.at_end());
    headers.push((CACHE_CONTROL, read_cache_control(result)));
    let matched = if_none_match_holds(if_none_match, &tag);
    headers.push((ETAG, tag));
    if matched {
        return Answer { status: 304, headers };
    }
    headers.push((CONTENT_TYPE, result.content_type.to_owned()));
    Answer { status: 200, headers }
}

fn read_cache_control(result: &ReadResult<'_>) -> String {
    if result.up_to_date() {
        return "no-cache".to_owned();
    }
    let max_age = result.expires_in.map_or(PROTOCOL_CACHE_MAX_AGE_SECONDS, |left| {
        left.min(PROTOCOL_CACHE_MAX_AGE_SECONDS)
    });
    format!("private, max-age={max_age}, stale-while-revalidate={PROTOCOL_CACHE_STALE_SECONDS}")
}

/// A long-poll that waited without data, or at the tail of a closed stream
/// (PROTOCOL §5.7): 204 with the tail, up to date; the cursor while open.
pub fn long_poll_timeout(tail: u64, closed: bool, cursor: u64) -> Answer {
    let mut headers = vec![
        (STREAM_NEXT_OFFSET, encode(tail)),
        (STREAM_UP_TO_DATE, "true".to_owned()),
        (CACHE_CONTROL, "no-store".to_owned()),
    ];
    if closed {
        headers.push((STREAM_CLOSED, "true".to_owned()));
    } else {
        headers.push((STREAM_CURSOR, cursor.to_string()));
    }
    Answer { status: 204, headers }
}

/// `"{streamId}:{start}:{end}"`, with `:c` once the reader reached the end
/// of a closed stream (PROTOCOL §10.1 "ETag and Stream Closure").
pub fn etag(stream_id: &str, after: u64, next: u64, closed_at_end: bool) -> String {
    let closed = if closed_at_end { ":c" } else { "" };
    format!("\"{stream_id}:{}:{}{closed}\"", encode(after), encode(next))
}

/// Whether `If-None-Match` names `tag` (weak comparison, RFC 9110 §13.1.2:
/// a `W/` prefix is ignored; `*` matches any), looking at most
/// [`MAX_IF_NONE_MATCH_TAGS`] entries.
pub fn if_none_match_holds(header: Option<&str>, tag: &str) -> bool {
    let Some(header) = header else {
        return false;
    };
    let bare = |candidate: &str| candidate.trim().trim_start_matches("W/").to_owned();
    let wanted = bare(tag);
    header
        .split(',')
        .take(MAX_IF_NONE_MATCH_TAGS)
        .any(|candidate| candidate.trim() == "*" || bare(candidate) == wanted)
}

/// `HEAD` (PROTOCOL §5.5): never cached.
pub fn head(content_type: &str, tail: u64, closed: bool, expiry: Expiry) -> Answer {
    let mut headers = vec![
        (CONTENT_TYPE, content_type.to_owned()),
        (STREAM_NEXT_OFFSET, encode(tail)),
        (CACHE_CONTROL, "no-store".to_owned()),
    ];
    headers.extend(expiry.headers());
    if closed {
        headers.push((STREAM_CLOSED, "true".to_owned()));
    }
    Answer { status: 200, headers }
}

/// `PUT` (PROTOCOL §5.1): 201 with `Location` when created, 200 when it
/// existed as asked.
pub fn created(location: Option<&str>, content_type: &str, tail: u64, closed: bool) -> Answer {
    let mut headers = vec![
        (CONTENT_TYPE, content_type.to_owned()),
        (STREAM_NEXT_OFFSET, encode(tail)),
    ];
    if closed {
        headers.push((STREAM_CLOSED, "true".to_owned()));
    }
    match location {
        Some(location) => {
            headers.push((LOCATION, location.to_owned()));
            Answer { status: 201, headers }
        }
        None => Answer { status: 200, headers },
    }
}

/// A successful `POST` (PROTOCOL §5.2, §5.3, §5.2.1): 200 when a producer's
/// batch was accepted, else 204 (a plain append, a close, a duplicate).
/// `producer` is `(epoch, seq)` to echo: the accepted seq, or for a
/// duplicate the highest accepted.
pub fn appended(tail: u64, closed: bool, producer: Option<(u64, u64)>, accepted: bool) -> Answer {
    let mut headers = vec![(STREAM_NEXT_OFFSET, encode(tail))];
    if closed {
        headers.push((STREAM_CLOSED, "true".to_owned()));
    }
    if let Some((epoch, seq)) = producer {
        headers.push((PRODUCER_EPOCH, epoch.to_string()));
        headers.push((PRODUCER_SEQ, seq.to_string()));
    }
    let status = if accepted && producer.is_some() { 200 } else { 204 };
    Answer { status, headers }
}

/// The headers a refused `POST` carries besides its §2 body: the closed
/// stream's end (PROTOCOL §5.2), the current epoch (403), the expected and
/// received seq (409 gap).
pub fn refusal_headers(refusal: &AppendRefusal, tail: u64) -> Headers {
    match refusal {
        AppendRefusal::StreamClosed => vec![(STREAM_CLOSED, "true".to_owned()), (STREAM_NEXT_OFFSET, encode(tail))],
        AppendRefusal::Producer(ProducerError::StaleEpoch { current, .. }) => {
            vec![(PRODUCER_EPOCH, current.to_string())]
        }
        AppendRefusal::Producer(ProducerError::SequenceGap { expected, received }) => vec![
            (PRODUCER_EXPECTED_SEQ, expected.to_string()),
            (PRODUCER_RECEIVED_SEQ, received.to_string()),
        ],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::durable_streams::offset::ProtocolOffset;

    const ID: &str = "0b7f4c52-3d0e-4c7a-9e41-1f2a3b4c5d6e";

    fn header<'a>(answer: &'a Answer, name: &str) -> Option<&'a str> {
        answer
            .headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    fn result(offset: ProtocolOffset, next: u64, tail: u64, closed: bool) -> ReadResult<'static> {
        ReadResult {
            stream_id: ID,
            content_type: "text/plain",
            start: offset.read_start(tail).unwrap_or(ReadStart {
                after: 0,
                from_earliest: false,
                now: false,
            }),
            next,
            tail,
            closed,
            cursor: None,
            expires_in: None,
        }
    }

    #[test]
    fn a_page_short_of_the_tail_is_cacheable_and_not_up_to_date() {
        let answer = read(&result(ProtocolOffset::After(0), 4, 9, true), None);
        assert_eq!(answer.status, 200);
        assert_eq!(
            header(&answer, "Stream-Next-Offset"),
            Some("0000000000000000_0000000000000004")
        );
        assert_eq!(header(&answer, "Stream-Up-To-Date"), None);
        // Closed, but the reader has not reached the end: no Stream-Closed.
        assert_eq!(header(&answer, "Stream-Closed"), None);
        assert_eq!(
            header(&answer, "Cache-Control"),
            Some("private, max-age=60, stale-while-revalidate=300")
        );
        assert_eq!(header(&answer, "Content-Type"), Some("text/plain"));
        let expiring = ReadResult {
            expires_in: Some(12),
            ..result(ProtocolOffset::After(0), 4, 9, false)
        };
        assert_eq!(
            header(&read(&expiring, None), "Cache-Control"),
            Some("private, max-age=12, stale-while-revalidate=300")
        );
    }

    #[test]
    fn reaching_the_tail_is_up_to_date_revalidated_and_closed_at_the_end() {
        let open = read(&result(ProtocolOffset::After(2), 9, 9, false), None);
        assert_eq!(header(&open, "Stream-Up-To-Date"), Some("true"));
        assert_eq!(header(&open, "Cache-Control"), Some("no-cache"));
        assert_eq!(
            header(&open, "ETag"),
            Some(format!("\"{ID}:0000000000000000_0000000000000002:0000000000000000_0000000000000009\"").as_str())
        );
        let closed = read(&result(ProtocolOffset::After(9), 9, 9, true), None);
        assert_eq!(header(&closed, "Stream-Closed"), Some("true"));
        assert!(header(&closed, "ETag").is_some_and(|tag| tag.ends_with(":c\"")));
        assert_ne!(header(&open, "ETag"), header(&closed, "ETag"));
    }

    #[test]
    fn offset_now_is_never_cached_and_has_no_etag_protocol_8() {
        let answer = read(&result(ProtocolOffset::Now, 9, 9, false), None);
        assert_eq!(header(&answer, "Cache-Control"), Some("no-store"));
        assert_eq!(header(&answer, "ETag"), None);
        assert_eq!(header(&answer, "Stream-Up-To-Date"), Some("true"));
        assert_eq!(
            header(&answer, "Stream-Next-Offset"),
            Some("0000000000000000_0000000000000009")
        );
        let closed = read(&result(ProtocolOffset::Now, 9, 9, true), None);
        assert_eq!(header(&closed, "Stream-Closed"), Some("true"));
    }

    #[test]
    fn if_none_match_gives_304_and_changes_with_data_or_closure() {
        let first = read(&result(ProtocolOffset::Start, 3, 3, false), None);
        let tag = header(&first, "ETag").map(str::to_owned);
        let again = read(&result(ProtocolOffset::Start, 3, 3, false), tag.as_deref());
        assert_eq!(again.status, 304);
        assert_eq!(header(&again, "Content-Type"), None);
        assert_eq!(
            read(&result(ProtocolOffset::Start, 4, 4, false), tag.as_deref()).status,
            200
        );
        assert_eq!(
            read(&result(ProtocolOffset::Start, 3, 3, true), tag.as_deref()).status,
            200
        );
        assert_eq!(
            read(&result(ProtocolOffset::Start, 3, 3, false), Some("\"wrong-etag\"")).status,
            200
        );
        let tag = tag.unwrap_or_default();
        assert!(if_none_match_holds(Some(&format!("\"a\", W/{tag}")), &tag));
        assert!(if_none_match_holds(Some("*"), &tag));
        assert!(!if_none_match_holds(None, &tag));
        assert!(!if_none_match_holds(Some(""), &tag));
        let many = format!("{}{tag}", "\"x\",".repeat(MAX_IF_NONE_MATCH_TAGS));
        assert!(
            !if_none_match_holds(Some(&many), &tag),
            "entries past the limit are not compared"
        );
    }

    #[test]
    fn a_long_poll_timeout_is_204_up_to_date_with_a_cursor_while_open() {
        let open = long_poll_timeout(5, false, 77);
        assert_eq!(open.status, 204);
        assert_eq!(header(&open, "Stream-Cursor"), Some("77"));
        assert_eq!(header(&open, "Stream-Up-To-Date"), Some("true"));
        assert_eq!(header(&open, "Stream-Closed"), None);
        let closed = long_poll_timeout(5, true, 77);
        assert_eq!(
            (header(&closed, "Stream-Closed"), header(&closed, "Stream-Cursor")),
            (Some("true"), None)
        );
        let live = ReadResult {
            cursor: Some(78),
            ..result(ProtocolOffset::After(0), 5, 5, false)
        };
        assert_eq!(header(&read(&live, None), "Stream-Cursor"), Some("78"));
    }

    #[test]
    fn head_create_and_append_answers() {
        let head = head("text/plain", 3, true, Expiry::Sliding { ttl_seconds: 60 });
        assert_eq!(header(&head, "Cache-Control"), Some("no-store"));
        assert_eq!(
            (header(&head, "Stream-TTL"), header(&head, "Stream-Closed")),
            (Some("60"), Some("true"))
        );
        let made = created(Some("/v1/stream/a"), "text/plain", 0, false);
        assert_eq!((made.status, header(&made, "Location")), (201, Some("/v1/stream/a")));
        assert_eq!(created(None, "text/plain", 0, true).status, 200);
        assert_eq!(appended(4, false, None, true).status, 204);
        let accepted = appended(4, false, Some((1, 2)), true);
        assert_eq!((accepted.status, header(&accepted, "Producer-Seq")), (200, Some("2")));
        let duplicate = appended(4, true, Some((1, 9)), false);
        assert_eq!(
            (duplicate.status, header(&duplicate, "Stream-Closed")),
            (204, Some("true"))
        );
    }

    #[test]
    fn refusals_carry_the_protocol_headers() {
        let closed = refusal_headers(&AppendRefusal::StreamClosed, 7);
        assert!(closed.contains(&("Stream-Closed", "true".to_owned())));
        assert!(closed.contains(&("Stream-Next-Offset", encode(7))));
        let stale = AppendRefusal::Producer(ProducerError::StaleEpoch {
            current: 3,
            received: 1,
        });
        assert_eq!(refusal_headers(&stale, 7), vec![("Producer-Epoch", "3".to_owned())]);
        let gap = AppendRefusal::Producer(ProducerError::SequenceGap {
            expected: 2,
            received: 5,
        });
        assert_eq!(
            refusal_headers(&gap, 7),
            vec![
                ("Producer-Expected-Seq", "2".to_owned()),
                ("Producer-Received-Seq", "5".to_owned())
            ]
        );
        assert!(refusal_headers(&AppendRefusal::EmptyBody, 7).is_empty());
    }
}
