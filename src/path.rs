//! Stream paths (docs/design.md §2): `/` then 1–16 segments of `[A-Za-z0-9._~-]+`,
//! never `.`, `..` or `-`, at most 512 bytes.

use crate::error::{details, ApiFailure, ErrorCode};
use crate::limits::{MAX_PATH_BYTES, MAX_PATH_SEGMENTS};
use serde_json::json;
use std::fmt;

/// A validated stream path. The only way to make one is [`StreamPath::parse`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamPath(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("stream path must start with '/'")]
    MissingLeadingSlash,
    #[error("stream path is {0} bytes; the limit is {MAX_PATH_BYTES}")]
    TooLong(usize),
    #[error("stream path has {0} segments; the limit is {MAX_PATH_SEGMENTS}")]
    TooDeep(usize),
    #[error("stream path has an empty segment")]
    EmptySegment,
    #[error("stream path segment '{0}' is reserved")]
    ReservedSegment(String),
    #[error("stream path segment contains a character outside [A-Za-z0-9._~-]")]
    BadCharacter,
}

impl ApiFailure for PathError {
    fn error_code(&self) -> ErrorCode {
        ErrorCode::InvalidPath
    }
    fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        details([("rule", json!(format!("{self:?}")))])
    }
}

fn is_segment_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'~' | b'-')
}

impl StreamPath {
    pub fn parse(raw: &str) -> Result<Self, PathError> {
        let rest = raw.strip_prefix('/').ok_or(PathError::MissingLeadingSlash)?;
        if raw.len() > MAX_PATH_BYTES {
            return Err(PathError::TooLong(raw.len()));
        }
        let segments: Vec<&str> = rest.split('/').collect();
        if segments.len() > MAX_PATH_SEGMENTS {
            return Err(PathError::TooDeep(segments.len()));
        }
        for segment in segments {
            if segment.is_empty() {
                return Err(PathError::EmptySegment);
            }
            if matches!(segment, "." | ".." | "-") {
                return Err(PathError::ReservedSegment(segment.to_owned()));
            }
            if !segment.bytes().all(is_segment_char) {
                return Err(PathError::BadCharacter);
            }
        }
        Ok(StreamPath(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for StreamPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_valid_paths() {
        for ok in ["/a", "/app/events", "/A-z_0.9~x/y", "/..a/b..", "/x/-y"] {
            assert_eq!(StreamPath::parse(ok).map(|p| p.0), Ok(ok.to_owned()), "{ok}");
        }
        let sixteen = "/s".repeat(16);
        assert!(StreamPath::parse(&sixteen).is_ok());
        let longest = format!("/{}", "a".repeat(511));
        assert!(StreamPath::parse(&longest).is_ok());
    }

    #[test]
    fn rejects_each_rule() {
        assert_eq!(StreamPath::parse("a"), Err(PathError::MissingLeadingSlash));
        assert_eq!(StreamPath::parse(""), Err(PathError::MissingLeadingSlash));
        assert_eq!(StreamPath::parse("/"), Err(PathError::EmptySegment));
        assert_eq!(StreamPath::parse("/a//b"), Err(PathError::EmptySegment));
        assert_eq!(StreamPath::parse("/a/"), Err(PathError::EmptySegment));
        assert_eq!(
            StreamPath::parse("/a/../b"),
            Err(PathError::ReservedSegment("..".into()))
        );
        assert_eq!(StreamPath::parse("/."), Err(PathError::ReservedSegment(".".into())));
        assert_eq!(StreamPath::parse("/a/-"), Err(PathError::ReservedSegment("-".into())));
        assert_eq!(StreamPath::parse("/a b"), Err(PathError::BadCharacter));
        assert_eq!(StreamPath::parse("/a%2Fb"), Err(PathError::BadCharacter));
        assert_eq!(StreamPath::parse("/é"), Err(PathError::BadCharacter));
        assert_eq!(StreamPath::parse(&"/s".repeat(17)), Err(PathError::TooDeep(17)));
        let too_long = format!("/{}", "a".repeat(512));
        assert_eq!(StreamPath::parse(&too_long), Err(PathError::TooLong(513)));
    }
}
