//! The request-body cap of each route (docs/design.md §12).

use super::Action;
use crate::error::{ApiError, ErrorCode};
use crate::limits::{
    MAX_APPEND_BODY_BYTES, MAX_INTERNAL_BODY_BYTES, MAX_JSONATA_EVALUATE_BODY_BYTES,
    MAX_PROCESSOR_DEFINITION_BODY_BYTES, MAX_SECRET_BODY_BYTES, MAX_SOURCE_CONFIG_BYTES, MAX_SUBSCRIBE_FROM_BODY_BYTES,
    MAX_UNUSED_BODY_BYTES,
};

/// The most a route's request body may weigh, and the §2 code of the 413
/// past it (§12 "request body": read with a streaming cap at the route's
/// limit, chunked or not; 413 past it without buffering the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyLimit {
    pub bytes: usize,
    pub code: ErrorCode,
}

impl BodyLimit {
    /// `POST .../-/events` (§3 rule 2).
    pub const APPEND: BodyLimit = BodyLimit {
        bytes: MAX_APPEND_BODY_BYTES,
        code: ErrorCode::BatchTooLarge,
    };
    /// `POST .../-/subscribe-from` (§5).
    pub const SUBSCRIBE_FROM: BodyLimit = BodyLimit {
        bytes: MAX_SUBSCRIBE_FROM_BODY_BYTES,
        code: ErrorCode::BodyTooLarge,
    };
    /// A protocol `PUT`/`POST` body (§17, §12).
    pub const PROTOCOL: BodyLimit = BodyLimit {
        bytes: crate::limits::MAX_PROTOCOL_BODY_BYTES,
        code: ErrorCode::BodyTooLarge,
    };
    /// `POST /v1/jsonata/evaluate`.
    pub const JSONATA_EVALUATE: BodyLimit = BodyLimit {
        bytes: MAX_JSONATA_EVALUATE_BODY_BYTES,
        code: ErrorCode::BodyTooLarge,
    };
    /// `PUT /v1/processors/{name}` (§9).
    pub const PROCESSOR_DEFINITION: BodyLimit = BodyLimit {
        bytes: MAX_PROCESSOR_DEFINITION_BODY_BYTES,
        code: ErrorCode::BodyTooLarge,
    };
    /// `PUT /v1/sources/{name}` (§15).
    pub const SOURCE_CONFIG: BodyLimit = BodyLimit {
        bytes: MAX_SOURCE_CONFIG_BYTES,
        code: ErrorCode::SourceTooLarge,
    };
    /// `PUT /v1/secrets/{name}` (§9).
    pub const SECRET: BodyLimit = BodyLimit {
        bytes: MAX_SECRET_BODY_BYTES,
        code: ErrorCode::BodyTooLarge,
    };
    /// Every route that takes no body.
    pub const UNUSED: BodyLimit = BodyLimit {
        bytes: MAX_UNUSED_BODY_BYTES,
        code: ErrorCode::BodyTooLarge,
    };
    /// Object-to-object routes.
    pub const INTERNAL: BodyLimit = BodyLimit {
        bytes: MAX_INTERNAL_BODY_BYTES,
        code: ErrorCode::BodyTooLarge,
    };

    /// The limit of a public stream route.
    pub fn of(action: &Action) -> BodyLimit {
        match action {
            Action::Append => BodyLimit::APPEND,
            Action::SubscribeFrom | Action::Fork => BodyLimit::SUBSCRIBE_FROM,
            _ => BodyLimit::UNUSED,
        }
    }

    /// Whether a declared `Content-Length` is already past the limit (a
    /// length too long for a `u64` is past every limit).
    pub fn refuses_declared(&self, content_length: Option<&str>) -> bool {
        let Some(length) = content_length.map(str::trim) else {
            return false;
        };
        if length.is_empty() || !length.bytes().all(|byte| byte.is_ascii_digit()) {
            return false;
        }
        length.parse::<u64>().map_or(true, |length| length > self.bytes as u64)
    }

    /// The 413 of a body past the limit (§2 error shape).
    pub fn too_large(&self) -> ApiError {
        let mut error = ApiError::new(
            self.code,
            format!("request body is over this route's limit of {} bytes", self.bytes),
        );
        error
            .body
            .error
            .details
            .insert("limitBytes".to_owned(), serde_json::json!(self.bytes));
        error
    }
}
