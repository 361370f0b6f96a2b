//! The query of a protocol read (docs/design.md §17 "Reads", PROTOCOL §5.6–5.8):
//! `offset` (default `-1`), `live` (`long-poll` or `sse`, which need an
//! `offset`) and `cursor` (echoed for CDN collapsing; one this server could
//! not have written is ignored, never refused). Other parameters are
//! extensions (PROTOCOL §11) and ignored; a protocol parameter given twice
//! is 400.

use super::cursor;
use super::names::{CURSOR_PARAM, LIVE_PARAM, OFFSET_PARAM};
use super::offset::{OffsetError, ProtocolOffset};
use crate::error::{details, ApiFailure, ErrorCode};
use crate::route::percent_decode;
use crate::text::name_excerpt;
use serde_json::{json, Map, Value};

/// How a read answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiveMode {
    /// What is there now (PROTOCOL §5.6).
    CatchUp,
    /// Wait for data when at the tail (PROTOCOL §5.7).
    LongPoll,
    /// Server-Sent Events (PROTOCOL §5.8).
    Sse,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadQuery {
    /// `Start` when absent (PROTOCOL §5.6).
    pub offset: ProtocolOffset,
    pub live: LiveMode,
    /// The echoed cursor, when it is one this server could have written.
    pub cursor: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error(transparent)]
    Offset(#[from] OffsetError),
    #[error("query parameter '{0}' is given more than once")]
    Repeated(&'static str),
    #[error("live '{0}' is not a live mode: use live=long-poll or live=sse")]
    UnknownLive(String),
    #[error("live={0} needs an offset (use offset=-1 for the beginning or offset=now for the tail)")]
    OffsetRequired(&'static str),
}

impl ApiFailure for QueryError {
    fn error_code(&self) -> ErrorCode {
        match self {
            QueryError::Offset(error) => error.error_code(),
            QueryError::Repeated(_) => ErrorCode::InvalidQuery,
            QueryError::UnknownLive(_) | QueryError::OffsetRequired(_) => ErrorCode::InvalidParameter,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            QueryError::Offset(error) => error.details(),
            QueryError::Repeated(name) => details([("parameter", json!(name))]),
            QueryError::UnknownLive(_) => details([("parameter", json!(LIVE_PARAM))]),
            QueryError::OffsetRequired(_) => details([("parameter", json!(OFFSET_PARAM))]),
        }
    }
}

impl ReadQuery {
    /// Parses the query string (no leading `?`).
    pub fn parse(query: &str) -> Result<ReadQuery, QueryError> {
        let mut found: [(&'static str, Option<&str>); 3] =
            [(OFFSET_PARAM, None), (LIVE_PARAM, None), (CURSOR_PARAM, None)];
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            if let Some((known, slot)) = found.iter_mut().find(|(known, _)| *known == name) {
                if slot.replace(value).is_some() {
                    return Err(QueryError::Repeated(known));
                }
            }
        }
        let [(_, offset), (_, live), (_, cursor_text)] = found;
        let live = match live.map(decoded) {
            None => LiveMode::CatchUp,
            Some(Some(mode)) if mode == "long-poll" => LiveMode::LongPoll,
            Some(Some(mode)) if mode == "sse" => LiveMode::Sse,
            Some(other) => return Err(QueryError::UnknownLive(name_excerpt(&other.unwrap_or_default()))),
        };
        let offset = match offset {
            None if live == LiveMode::LongPoll => return Err(QueryError::OffsetRequired("long-poll")),
            None if live == LiveMode::Sse => return Err(QueryError::OffsetRequired("sse")),
            None => ProtocolOffset::Start,
            Some(raw) => parse_offset(raw)?,
        };
        let cursor = cursor_text.and_then(decoded).as_deref().and_then(cursor::parse);
        Ok(ReadQuery { offset, live, cursor })
    }
}

/// A query value, `+` as a space and `%XX` decoded; `None` when empty or
/// not valid percent-encoding of UTF-8.
fn decoded(raw: &str) -> Option<String> {
    percent_decode(&raw.replace('+', " "))
}

fn parse_offset(raw: &str) -> Result<ProtocolOffset, OffsetError> {
    if raw.is_empty() {
        return Err(OffsetError::Empty { name: OFFSET_PARAM });
    }
    let text = decoded(raw).ok_or_else(|| OffsetError::Malformed {
        name: OFFSET_PARAM,
        excerpt: name_excerpt(raw),
    })?;
    ProtocolOffset::parse(OFFSET_PARAM, &text)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error::ApiError;

    fn parse(query: &str) -> Result<ReadQuery, QueryError> {
        ReadQuery::parse(query)
    }

    #[test]
    fn a_bare_read_is_a_catch_up_from_the_beginning() {
        let expected = ReadQuery {
            offset: ProtocolOffset::Start,
            live: LiveMode::CatchUp,
            cursor: None,
        };
        assert_eq!(parse(""), Ok(expected));
        assert_eq!(parse("offset=-1"), Ok(expected));
        assert_eq!(parse("&&offset=-1&"), Ok(expected));
        assert_eq!(parse("offset=now").map(|q| q.offset), Ok(ProtocolOffset::Now));
        let token = "offset=0000000000000000_0000000000000007";
        assert_eq!(parse(token).map(|q| q.offset), Ok(ProtocolOffset::After(7)));
        // Percent-encoded tokens decode first.
        let encoded = "offset=%30000000000000000%5F0000000000000007";
        assert_eq!(parse(encoded).map(|q| q.offset), Ok(ProtocolOffset::After(7)));
    }

    #[test]
    fn live_modes_need_an_offset_and_unknown_modes_are_400() {
        let long_poll = parse("offset=now&live=long-poll&cursor=1000").unwrap();
        assert_eq!((long_poll.live, long_poll.cursor), (LiveMode::LongPoll, Some(1000)));
        assert_eq!(parse("live=sse&offset=-1").map(|q| q.live), Ok(LiveMode::Sse));
        assert_eq!(parse("live=sse"), Err(QueryError::OffsetRequired("sse")));
        assert_eq!(parse("live=long-poll"), Err(QueryError::OffsetRequired("long-poll")));
        for mode in ["true", "LONG-POLL", "SSE", "", "websocket", "long%2Dpoll%00"] {
            let error = parse(&format!("offset=-1&live={mode}")).expect_err(mode);
            assert_eq!(ApiError::from(error).status, 400, "{mode}");
        }
        assert_eq!(
            parse("offset=-1&live=long%2Dpoll").map(|q| q.live),
            Ok(LiveMode::LongPoll)
        );
    }

    #[test]
    fn malformed_and_repeated_offsets_are_400() {
        for query in [
            "offset=",
            "offset",
            "offset=0,1",
            "offset=0%201",
            "offset=0+1",
            "offset=%zz",
            "offset=%ff",
            "offset=..%2F0000000000000000_0000000000000001",
            "offset=0000000000000000_000000000000001%00",
            "offset=NOW",
            "offset=0000000000000001_0000000000000001",
        ] {
            let error = parse(query).expect_err(query);
            let api = ApiError::from(error);
            assert_eq!(
                (api.status, api.body.error.details.get("parameter")),
                (400, Some(&json!("offset"))),
                "{query}"
            );
        }
        let repeated = parse("offset=-1&offset=now").unwrap_err();
        assert_eq!(repeated, QueryError::Repeated("offset"));
        assert_eq!(ApiError::from(repeated).code(), "invalid_query");
        assert_eq!(parse("live=sse&offset=-1&live=sse"), Err(QueryError::Repeated("live")));
        assert_eq!(
            parse("cursor=1&cursor=2&offset=-1"),
            Err(QueryError::Repeated("cursor"))
        );
    }

    #[test]
    fn extensions_are_ignored_and_odd_cursors_too() {
        let query = parse("offset=-1&table=users&where=x%3D1&cursor=abc").unwrap();
        assert_eq!((query.offset, query.cursor), (ProtocolOffset::Start, None));
        assert_eq!(parse("cursor=99999999999999999999").unwrap().cursor, None);
        assert_eq!(parse("cursor=").unwrap().cursor, None);
        let hostile = format!("offset=-1&{}", "x=1&".repeat(10_000));
        assert!(parse(&hostile).is_ok());
    }
}
