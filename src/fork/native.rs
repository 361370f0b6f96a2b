//! The native face of a fork (docs/design.md §18): `POST /v1/streams/{path}/-/fork`
//! with `{"from": "/source", "at"?: N}` creates what a protocol `PUT` with
//! `Stream-Forked-From` (and `Stream-Fork-Offset`) creates; the stream
//! object runs it through the same protocol machinery.

use crate::error::{ApiError, ErrorCode};
use crate::path::StreamPath;
use serde_json::Value;

/// A native fork request, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeFork {
    pub from: StreamPath,
    /// The source offset to fork at; `None`: its head.
    pub at: Option<u64>,
}

impl NativeFork {
    /// `{"from": "/path", "at"?: N}`; anything else is 400.
    pub fn parse(body: &[u8]) -> Result<NativeFork, Box<ApiError>> {
        let invalid = |message: String| Box::new(ApiError::new(ErrorCode::InvalidRequest, message));
        let value: Value = serde_json::from_slice(body).map_err(|error| invalid(format!("fork body: {error}")))?;
        let Value::Object(fields) = value else {
            return Err(invalid("fork body: an object {\"from\", \"at\"?}".to_owned()));
        };
        if let Some(unknown) = fields.keys().find(|key| !matches!(key.as_str(), "from" | "at")) {
            return Err(invalid(format!(
                "fork body: unknown field '{}'",
                crate::text::excerpt(unknown)
            )));
        }
        let from = fields
            .get("from")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("fork body: 'from' (a stream path) is required".to_owned()))?;
        let from = StreamPath::parse(from)
            .map_err(|error| Box::new(ApiError::new(ErrorCode::InvalidPath, format!("from: {error}"))))?;
        let at = match fields.get("at") {
            None | Some(Value::Null) => None,
            Some(at) => Some(
                at.as_u64()
                    .filter(|at| *at <= crate::limits::MAX_SAFE_INTEGER)
                    .ok_or_else(|| invalid("fork body: 'at' is an offset (a non-negative integer)".to_owned()))?,
            ),
        };
        Ok(NativeFork { from, at })
    }

    /// The protocol headers that ask the same (§18).
    pub fn protocol_headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![(
            "stream-forked-from".to_owned(),
            format!("{}{}", crate::route::PROTOCOL_PREFIX, self.from),
        )];
        if let Some(at) = self.at {
            headers.push((
                "stream-fork-offset".to_owned(),
                crate::durable_streams::offset::encode(at),
            ));
        }
        headers
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn s18_a_native_fork_body_is_from_and_an_optional_offset() {
        let fork = NativeFork::parse(br#"{"from": "/a/b", "at": 3}"#).unwrap();
        assert_eq!(fork.at, Some(3));
        assert_eq!(
            fork.protocol_headers(),
            vec![
                ("stream-forked-from".to_owned(), "/v1/stream/a/b".to_owned()),
                (
                    "stream-fork-offset".to_owned(),
                    crate::durable_streams::offset::encode(3)
                ),
            ]
        );
        assert_eq!(NativeFork::parse(br#"{"from": "/a"}"#).unwrap().at, None);
        for bad in [
            &br#"[]"#[..],
            br#"{"at": 1}"#,
            br#"{"from": "/a", "at": -1}"#,
            br#"{"from": "/a", "at": 1.5}"#,
            br#"{"from": "/a", "at": 9007199254740992}"#,
            br#"{"from": "no-slash"}"#,
            br#"{"from": "/a", "extra": true}"#,
            b"not json",
        ] {
            assert!(NativeFork::parse(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }
}
