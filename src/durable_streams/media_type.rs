//! A stream's content type (docs/design.md §17 "Content type", PROTOCOL §9):
//! `Content-Type` parsed as RFC 9110 §8.3.1 writes it (`type "/" subtype
//! *( OWS ";" OWS [ parameter ] )`), compared by its essence (type and
//! subtype, without case, parameters ignored: PROTOCOL §5.2 matches
//! `text/plain` with `TEXT/PLAIN; charset=utf-8`), and stored in one
//! canonical spelling. JSON mode is the essence `application/json`
//! (PROTOCOL §9.1); SSE carries `text/*` and JSON as text and base64s the
//! rest (§5.8).

use crate::error::{details, ApiFailure, ErrorCode};
use crate::limits::MAX_CONTENT_TYPE_BYTES;
use crate::text::name_excerpt;
use serde_json::{json, Map, Value};

/// The type a `PUT` without `Content-Type` creates (PROTOCOL §5.1).
pub const OCTET_STREAM: &str = "application/octet-stream";
/// JSON mode's essence (PROTOCOL §9.1), and natively created streams' type.
pub const JSON: &str = "application/json";

/// A parsed `Content-Type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaType {
    /// `type/subtype`, lowercase.
    essence: String,
    /// Parameters in order: lowercase names, values unquoted.
    parameters: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaTypeError {
    #[error("Content-Type is {bytes} bytes; the limit is {MAX_CONTENT_TYPE_BYTES}")]
    TooLong { bytes: usize },
    #[error("Content-Type '{excerpt}' is not a media type: {problem}")]
    Malformed { excerpt: String, problem: &'static str },
}

impl ApiFailure for MediaTypeError {
    fn error_code(&self) -> ErrorCode {
        ErrorCode::InvalidParameter
    }
    fn details(&self) -> Map<String, Value> {
        details([("parameter", json!("Content-Type"))])
    }
}

impl MediaType {
    /// Parses a `Content-Type` value. Leading and trailing whitespace is the
    /// field's own (RFC 9110 §5.5) and dropped; empty parameters (`;;`) are
    /// allowed by the grammar; anything else outside it — a missing
    /// subtype, a space around `/`, a control or non-ASCII byte, an
    /// unterminated quote — is 400.
    pub fn parse(raw: &str) -> Result<MediaType, MediaTypeError> {
        let text = raw.trim_matches([' ', '\t']);
        if text.len() > MAX_CONTENT_TYPE_BYTES {
            return Err(MediaTypeError::TooLong { bytes: text.len() });
        }
        let malformed = |problem| MediaTypeError::Malformed {
            excerpt: name_excerpt(text),
            problem,
        };
        let mut cursor = Cursor { text, at: 0 };
        let kind = cursor.token().ok_or_else(|| malformed("the type is missing"))?;
        if !cursor.eat(b'/') {
            return Err(malformed("'/' must follow the type directly"));
        }
        let subtype = cursor.token().ok_or_else(|| malformed("the subtype is missing"))?;
        let mut parameters = Vec::new();
        loop {
            cursor.skip_whitespace();
            if cursor.done() {
                break;
            }
            if !cursor.eat(b';') {
                return Err(malformed("only ';' and parameters may follow the subtype"));
            }
            cursor.skip_whitespace();
            if cursor.done() || cursor.peek() == Some(b';') {
                continue;
            }
            parameters.push(cursor.parameter().map_err(malformed)?);
        }
        let media = MediaType {
            essence: format!("{}/{}", kind.to_ascii_lowercase(), subtype.to_ascii_lowercase()),
            parameters,
        };
        // `a;b=c` grows to `a; b=c`: what is stored must fit the limit too.
        match media.canonical().len() {
            bytes if bytes > MAX_CONTENT_TYPE_BYTES => Err(MediaTypeError::TooLong { bytes }),
            _ => Ok(media),
        }
    }

    /// `application/octet-stream`, what a create without a type gets.
    pub fn octet_stream() -> MediaType {
        MediaType {
            essence: OCTET_STREAM.to_owned(),
            parameters: Vec::new(),
        }
    }

    /// `application/json`, the type of a stream first written natively.
    pub fn json() -> MediaType {
        MediaType {
            essence: JSON.to_owned(),
            parameters: Vec::new(),
        }
    }

    /// `type/subtype`, lowercase.
    pub fn essence(&self) -> &str {
        &self.essence
    }

    /// Whether two types match for an append or a repeated create: the same
    /// essence, whatever the parameters (PROTOCOL §5.2).
    pub fn matches(&self, other: &MediaType) -> bool {
        self.essence == other.essence
    }

    /// JSON mode (PROTOCOL §9.1): bodies are JSON, arrays flatten, reads
    /// answer arrays.
    pub fn is_json(&self) -> bool {
        self.essence == JSON
    }

    /// SSE carries `text/*` and JSON as UTF-8 text and base64-encodes every
    /// other type, saying so with `Stream-SSE-Data-Encoding: base64`
    /// (PROTOCOL §5.8).
    pub fn sse_base64(&self) -> bool {
        !(self.is_json() || self.essence.starts_with("text/"))
    }

    /// The one spelling stored and answered: lowercase essence, then
    /// `; name=value` per parameter, the value quoted only when it must be.
    pub fn canonical(&self) -> String {
        let mut text = self.essence.clone();
        for (name, value) in &self.parameters {
            text.push_str("; ");
            text.push_str(name);
            text.push('=');
            if !value.is_empty() && value.bytes().all(is_token_byte) {
                text.push_str(value);
            } else {
                text.push('"');
                for c in value.chars() {
                    if c == '"' || c == '\\' {
                        text.push('\\');
                    }
                    text.push(c);
                }
                text.push('"');
            }
        }
        text
    }
}

/// RFC 9110 §5.6.2 `tchar`.
fn is_token_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

/// RFC 9110 §5.6.4 `qdtext` (obs-text excluded: a stored type stays ASCII).
fn is_quoted_text_byte(byte: u8) -> bool {
    matches!(byte, b'\t' | b' ' | 0x21 | 0x23..=0x5b | 0x5d..=0x7e)
}

struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn done(&self) -> bool {
        self.at >= self.text.len()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let matched = self.peek() == Some(byte);
        self.at += usize::from(matched);
        matched
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
        }
    }

    /// One or more token bytes.
    fn token(&mut self) -> Option<&'a str> {
        let start = self.at;
        while self.peek().is_some_and(is_token_byte) {
            self.at += 1;
        }
        self.text.get(start..self.at).filter(|token| !token.is_empty())
    }

    /// `name "=" ( token / quoted-string )`.
    fn parameter(&mut self) -> Result<(String, String), &'static str> {
        let name = self.token().ok_or("a parameter needs a name")?.to_ascii_lowercase();
        if !self.eat(b'=') {
            return Err("a parameter needs '=' and a value");
        }
        if !self.eat(b'"') {
            let value = self
                .token()
                .ok_or("a parameter value must be a token or a quoted string")?;
            return Ok((name, value.to_owned()));
        }
        let mut value = String::new();
        loop {
            match self.peek() {
                None => return Err("a quoted parameter value is not terminated"),
                Some(b'"') => {
                    self.at += 1;
                    return Ok((name, value));
                }
                Some(b'\\') => {
                    self.at += 1;
                    match self.peek() {
                        Some(byte) if byte == b'\t' || (0x20..0x7f).contains(&byte) => value.push(char::from(byte)),
                        _ => return Err("a quoted pair must escape a visible character"),
                    }
                }
                Some(byte) if is_quoted_text_byte(byte) => value.push(char::from(byte)),
                Some(_) => return Err("a quoted parameter value holds a control or non-ASCII byte"),
            }
            self.at += 1;
        }
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error::ApiError;
    use proptest::prelude::*;

    fn canonical(raw: &str) -> String {
        MediaType::parse(raw).expect(raw).canonical()
    }

    #[test]
    fn types_are_normalized_case_whitespace_and_parameters() {
        assert_eq!(canonical("text/plain"), "text/plain");
        assert_eq!(canonical("TEXT/PLAIN"), "text/plain");
        assert_eq!(canonical("  application/json\t"), "application/json");
        assert_eq!(
            canonical(r#"Application/JSON ; charset="utf-8""#),
            "application/json; charset=utf-8"
        );
        assert_eq!(
            canonical("application/json;charset=UTF-8"),
            "application/json; charset=UTF-8"
        );
        assert_eq!(canonical("application/json;;"), "application/json");
        assert_eq!(
            canonical("application/json ; ; charset=utf-8 ;"),
            "application/json; charset=utf-8"
        );
        assert_eq!(
            canonical(r#"text/plain; Note="a \"b\" c""#),
            r#"text/plain; note="a \"b\" c""#
        );
        assert_eq!(canonical(r#"text/plain; empty="""#), r#"text/plain; empty="""#);
        assert_eq!(canonical("application/vnd.api+json"), "application/vnd.api+json");
    }

    #[test]
    fn json_mode_is_the_essence_application_json_only_section_17() {
        for json in [
            "application/json",
            "APPLICATION/JSON",
            "application/json; charset=utf-8",
        ] {
            let media = MediaType::parse(json).expect(json);
            assert!(media.is_json(), "{json}");
            assert!(!media.sse_base64(), "{json}");
            assert!(media.matches(&MediaType::json()));
        }
        for other in [
            "application/ndjson",
            "application/vnd.api+json",
            "text/json",
            "application/jsonx",
        ] {
            assert!(!MediaType::parse(other).expect(other).is_json(), "{other}");
        }
    }

    #[test]
    fn sse_base64_is_everything_but_text_and_json_section_5_8() {
        for text in ["text/plain", "Text/HTML; charset=utf-8", "application/json"] {
            assert!(!MediaType::parse(text).expect(text).sse_base64(), "{text}");
        }
        for binary in [
            OCTET_STREAM,
            "application/x-protobuf",
            "image/png",
            "application/ndjson",
        ] {
            assert!(MediaType::parse(binary).expect(binary).sse_base64(), "{binary}");
        }
    }

    #[test]
    fn appends_match_by_essence_whatever_the_parameters() {
        let stream = MediaType::parse("text/plain").expect("stream");
        assert!(stream.matches(&MediaType::parse("TEXT/PLAIN; charset=utf-8").expect("request")));
        assert!(!stream.matches(&MediaType::parse("text/html").expect("other")));
        assert!(MediaType::octet_stream().matches(&MediaType::parse("Application/Octet-Stream").expect("octet")));
    }

    #[test]
    fn malformed_types_are_400() {
        let cases = [
            "",
            "   ",
            "text",
            "text/",
            "/plain",
            "text /plain",
            "text/ plain",
            "text/plain/extra",
            "text/plain, application/json",
            "text/plain charset=utf-8",
            "text/plain; charset",
            "text/plain; charset=",
            "text/plain; =utf-8",
            r#"text/plain; charset="utf-8"#,
            r#"text/plain; charset="a"b"#,
            "text/plain; charset=\"\u{7}\"",
            "text/pl\u{e9}in",
            "text/plain; charset=\"\u{e9}\"",
            "text/plain\r\nX-Injected: 1",
            "text/plain\0",
            "*/*\u{0}",
        ];
        for raw in cases {
            let error = MediaType::parse(raw).expect_err(raw);
            assert!(matches!(error, MediaTypeError::Malformed { .. }), "{raw:?}: {error:?}");
            let api = ApiError::from(error);
            assert_eq!((api.status, api.code()), (400, "invalid_parameter"), "{raw:?}");
        }
    }

    #[test]
    fn an_oversized_type_is_refused_before_parsing() {
        let long = format!("text/{}", "x".repeat(MAX_CONTENT_TYPE_BYTES));
        assert_eq!(
            MediaType::parse(&long),
            Err(MediaTypeError::TooLong {
                bytes: MAX_CONTENT_TYPE_BYTES + 5
            })
        );
        let hostile = format!("text/plain{}", ";".repeat(1_000_000));
        assert!(matches!(
            MediaType::parse(&hostile),
            Err(MediaTypeError::TooLong { .. })
        ));
        let at_limit = format!("a/{}", "b".repeat(MAX_CONTENT_TYPE_BYTES - 2));
        assert_eq!(
            MediaType::parse(&at_limit).map(|m| m.essence().len()),
            Ok(MAX_CONTENT_TYPE_BYTES)
        );
        // Within the limit as sent, past it as stored (`;p=v` becomes `; p=v`).
        let grows = format!("a/b{}", ";p=v".repeat((MAX_CONTENT_TYPE_BYTES - 3) / 4));
        assert!(grows.len() <= MAX_CONTENT_TYPE_BYTES);
        assert!(matches!(MediaType::parse(&grows), Err(MediaTypeError::TooLong { .. })));
    }

    proptest! {
        #[test]
        fn the_canonical_spelling_parses_to_itself(raw in "[ -~]{0,80}") {
            if let Ok(media) = MediaType::parse(&raw) {
                let again = MediaType::parse(&media.canonical());
                prop_assert_eq!(again.as_ref(), Ok(&media));
                prop_assert!(media.canonical().len() <= MAX_CONTENT_TYPE_BYTES);
            }
        }
    }
}
