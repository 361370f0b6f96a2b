//! A source's target stream lifetime (docs/design.md §15, §3 rule 6). The
//! offsets a source keeps for its unfinalized window name events of one
//! lifetime of the target (`streamId`); after a DELETE (and a new lifetime,
//! created by anyone) the same offsets name unrelated events, which a reorg
//! must never invalidate.
//!
//! So every append a source makes names the lifetime it expects
//! ([`IF_STREAM_ID_HEADER`]; [`ANY_LIFETIME`] before it knows one), and
//! its answer carries the lifetime it committed to (the
//! [`STREAM_ID_HEADER`] response header, on appends that name one only,
//! so a public caller never sees it); the source records it with the
//! offsets. The stream refuses an append naming a lifetime (412
//! [`LIFETIME_CHANGED`]) before appending anything when another lifetime —
//! or none — is current. The source then resets: the window's offsets are
//! forgotten, a pending invalidation (old offsets) is dropped, pending logs
//! are appended again, now into the new lifetime, whose id the next answer
//! carries.

use crate::error::{details, ApiError, ErrorCode};
use serde_json::{json, Value};

/// The append's lifetime headers, kept with the other internal headers.
pub use crate::route::internal::{IF_STREAM_ID_HEADER, STREAM_ID_HEADER};
/// The [`IF_STREAM_ID_HEADER`] of an append that expects no lifetime in
/// particular (a source's first, or its first after a reset): never
/// refused, and answered with the lifetime it committed to.
pub const ANY_LIFETIME: &str = "*";

/// The [`IF_STREAM_ID_HEADER`] a source sends: the lifetime it expects,
/// else [`ANY_LIFETIME`].
pub fn if_stream_id(expected: Option<&str>) -> &str {
    expected.unwrap_or(ANY_LIFETIME)
}

/// The code of an append refused because its expected lifetime is not current.
pub const LIFETIME_CHANGED: &str = "stream_lifetime_changed";

/// The stream's side: an append naming the lifetime it expects
/// (`expected`) is refused unless that lifetime is `current`; the refusal.
pub fn refusal(expected: Option<&str>, current: Option<&str>) -> Option<ApiError> {
    match expected {
        Some(expected) if expected != ANY_LIFETIME && current != Some(expected) => {
            let mut error = ApiError::new(
                ErrorCode::StreamLifetimeChanged,
                format!(
                    "the append expected stream lifetime {expected}; {}; nothing was appended",
                    current.map_or_else(
                        || "the stream does not exist".to_owned(),
                        |current| format!("the current lifetime is {current}")
                    )
                ),
            );
            error.body.error.details = details([("streamId", json!(current))]);
            Some(error)
        }
        _ => None,
    }
}

/// Whether an append answer is a [`refusal`].
pub fn is_lifetime_changed(status: u16, body: &[u8]) -> bool {
    status == 412
        && serde_json::from_slice::<Value>(body)
            .ok()
            .and_then(|error| {
                error
                    .pointer("/error/code")
                    .and_then(Value::as_str)
                    .map(|code| code == LIFETIME_CHANGED)
            })
            .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s15_an_append_expecting_another_lifetime_is_refused_with_the_current_one() {
        assert!(refusal(None, None).is_none());
        assert!(refusal(None, Some("a")).is_none());
        assert!(refusal(Some(ANY_LIFETIME), None).is_none());
        assert!(refusal(Some(if_stream_id(None)), Some("a")).is_none());
        assert_eq!(if_stream_id(Some("a")), "a");
        assert!(refusal(Some("a"), Some("a")).is_none());
        let error = refusal(Some("a"), Some("b"));
        assert_eq!(
            error.as_ref().map(|e| (e.status, e.code())),
            Some((412, LIFETIME_CHANGED))
        );
        assert_eq!(
            error.map(|e| e.body.error.details.get("streamId").cloned()),
            Some(Some(json!("b")))
        );
        let gone = refusal(Some("a"), None);
        let body = gone.as_ref().map(|e| e.to_json()).unwrap_or_default();
        assert!(body.contains(r#""streamId":null"#), "{body}");
        assert!(is_lifetime_changed(412, body.as_bytes()));
        assert!(!is_lifetime_changed(409, body.as_bytes()));
    }
}
