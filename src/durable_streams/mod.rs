//! The Durable Streams protocol face (docs/design.md §17), as a codec: small pure
//! modules, one concern each, that a stream object calls and never the
//! other way round (`docs/design.md` §17; the protocol's own text is
//! `PROTOCOL.md` of `durable-streams/durable-streams`, cited as "PROTOCOL
//! §N"). Nothing here knows a stream, SQLite or HTTP types: headers and
//! query strings come in as text, time and entropy as numbers, and what to
//! answer or persist goes out as values.
//!
//! - [`offset`]: `{16 digits}_{16 digits}` offsets and the `-1`/`now` sentinels.
//! - [`media_type`]: `Content-Type` parsing, JSON mode and SSE text detection.
//! - [`headers`]: the request headers of create, append and close.
//! - [`query`]: `offset`, `live` and `cursor` of a read.
//! - [`json_mode`]: a JSON body into messages, messages into a JSON array.
//! - [`byte_mode`]: a byte body into events no larger than the event limit.
//! - [`producer`]: idempotent producers (PROTOCOL §5.2.1) and their eviction.
//! - [`checks`]: a write's checks in the protocol's precedence (closed,
//!   content type, producer, `Stream-Seq`), and whether a repeated create
//!   matches.
//! - [`expiry`]: `Stream-TTL` and `Stream-Expires-At`, renewal without a
//!   write per read, and when a stream is gone.
//! - [`cursor`]: `Stream-Cursor` for CDN collapsing (PROTOCOL §10.1).
//! - [`sse`]: `event: data` / `event: control` frames (PROTOCOL §5.8).
//! - [`response`]: the headers of each answer (offsets, ETag, caching,
//!   security, producers).
//! - [`cors`]: `CORS_ALLOWED_ORIGINS` and the headers browsers need.

pub mod byte_mode;
pub mod checks;
pub mod cors;
pub mod cursor;
pub mod expiry;
pub mod face;
pub mod headers;
pub mod json_mode;
pub mod media_type;
pub mod offset;
pub mod producer;
pub mod query;
pub mod response;
pub mod sse;

/// Header, query and SSE field names of the protocol (PROTOCOL §13.2 and
/// §5), spelled as PROTOCOL.md spells them. HTTP header names compare
/// without case; lookups here are case-insensitive.
pub mod names {
    pub const CONTENT_TYPE: &str = "Content-Type";
    pub const STREAM_TTL: &str = "Stream-TTL";
    pub const STREAM_EXPIRES_AT: &str = "Stream-Expires-At";
    pub const STREAM_SEQ: &str = "Stream-Seq";
    pub const STREAM_CLOSED: &str = "Stream-Closed";
    pub const STREAM_CURSOR: &str = "Stream-Cursor";
    pub const STREAM_NEXT_OFFSET: &str = "Stream-Next-Offset";
    pub const STREAM_UP_TO_DATE: &str = "Stream-Up-To-Date";
    pub const STREAM_SSE_DATA_ENCODING: &str = "Stream-SSE-Data-Encoding";
    pub const STREAM_FORKED_FROM: &str = "Stream-Forked-From";
    pub const STREAM_FORK_OFFSET: &str = "Stream-Fork-Offset";
    pub const STREAM_FORK_SUB_OFFSET: &str = "Stream-Fork-Sub-Offset";
    pub const PRODUCER_ID: &str = "Producer-Id";
    pub const PRODUCER_EPOCH: &str = "Producer-Epoch";
    pub const PRODUCER_SEQ: &str = "Producer-Seq";
    pub const PRODUCER_EXPECTED_SEQ: &str = "Producer-Expected-Seq";
    pub const PRODUCER_RECEIVED_SEQ: &str = "Producer-Received-Seq";
    /// Tributary's extension (§17): the event type of a protocol stream's
    /// messages, named by the creating `PUT` (default `message`).
    pub const TRIBUTARY_MESSAGE_TYPE: &str = "Tributary-Message-Type";
    pub const ETAG: &str = "ETag";
    pub const IF_NONE_MATCH: &str = "If-None-Match";
    pub const CACHE_CONTROL: &str = "Cache-Control";
    pub const LOCATION: &str = "Location";
    pub const ORIGIN: &str = "Origin";
    pub const VARY: &str = "Vary";

    /// Query parameters of a read (PROTOCOL §5.6–5.8).
    pub const OFFSET_PARAM: &str = "offset";
    pub const LIVE_PARAM: &str = "live";
    pub const CURSOR_PARAM: &str = "cursor";

    /// Fields of an SSE `control` event (PROTOCOL §5.8, camelCase).
    pub const SSE_NEXT_OFFSET_FIELD: &str = "streamNextOffset";
    pub const SSE_CURSOR_FIELD: &str = "streamCursor";
    pub const SSE_UP_TO_DATE_FIELD: &str = "upToDate";
    pub const SSE_CLOSED_FIELD: &str = "streamClosed";
}

/// Request headers by name, without case (RFC 9110 §5.1). The shell hands
/// over the request's headers as pairs; a header sent twice arrives joined
/// with `", "` (as the platform's `Headers.get` joins them), which every
/// single-valued header here refuses.
pub trait HeaderLookup {
    /// The value of the first header named `name`, compared without case.
    fn header(&self, name: &str) -> Option<&str>;
}

impl<K: AsRef<str>, V: AsRef<str>> HeaderLookup for [(K, V)] {
    fn header(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|(key, _)| key.as_ref().eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_ref())
    }
}

impl<K: AsRef<str>, V: AsRef<str>> HeaderLookup for Vec<(K, V)> {
    fn header(&self, name: &str) -> Option<&str> {
        self.as_slice().header(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lookup_ignores_case_and_takes_the_first() {
        let headers = vec![("content-type", "text/plain"), ("STREAM-TTL", "5"), ("Stream-TTL", "6")];
        assert_eq!(headers.header(names::CONTENT_TYPE), Some("text/plain"));
        assert_eq!(headers.header("stream-ttl"), Some("5"));
        assert_eq!(headers.header(names::STREAM_SEQ), None);
        let owned: Vec<(String, String)> = vec![("Producer-Id".into(), "p".into())];
        assert_eq!(owned.header("producer-id"), Some("p"));
    }
}
