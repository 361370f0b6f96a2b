//! The JSON error body of docs/design.md §2, the one table of its codes
//! ([`ErrorCode`], each with its HTTP status), and the trait every
//! operation's error enum implements to produce it. Each operation has its
//! own `thiserror` enum (next to the operation) and maps each of its
//! variants onto one [`ErrorCode`] once; this module knows the statuses and
//! how to render.

use serde::Serialize;
use serde_json::{Map, Value};

macro_rules! error_codes {
    ($($(#[$doc:meta])* $variant:ident = ($wire:literal, $status:literal),)*) => {
        /// Every §2 error code the API answers with, and its HTTP status:
        /// the only status table (issue 19 "one error-code enum").
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $($(#[$doc])* $variant,)*
        }

        impl ErrorCode {
            /// Every code, in table order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The stable snake_case wire code (§2 `error.code`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $wire,)*
                }
            }

            /// The HTTP status this code is answered with.
            pub fn status(self) -> u16 {
                match self {
                    $(ErrorCode::$variant => $status,)*
                }
            }
        }
    };
}

error_codes! {
    // 400: the request itself is malformed.
    InvalidPath = ("invalid_path", 400),
    InvalidRequest = ("invalid_request", 400),
    InvalidQuery = ("invalid_query", 400),
    InvalidParameter = ("invalid_parameter", 400),
    MalformedJson = ("malformed_json", 400),
    InvalidBatch = ("invalid_batch", 400),
    InvalidEvent = ("invalid_event", 400),
    InvalidCopyBatch = ("invalid_copy_batch", 400),
    InvalidSourceName = ("invalid_source_name", 400),
    InvalidProcessorName = ("invalid_processor_name", 400),
    InvalidSecretName = ("invalid_secret_name", 400),
    IdempotencyKeyRequired = ("idempotency_key_required", 400),
    /// §17: a new producer epoch must start at `Producer-Seq` 0 (PROTOCOL §5.2.1).
    InvalidProducerSequence = ("invalid_producer_sequence", 400),
    /// §18: `Stream-Fork-Offset` past the source's tail (PROTOCOL §4.2).
    ForkOffsetBeyondTail = ("fork_offset_beyond_tail", 400),
    /// §18: `Stream-Fork-Sub-Offset` past the next data boundary.
    InvalidForkSubOffset = ("invalid_fork_sub_offset", 400),
    // 401, 403 (§2 tokens, §3 rule 4 reserved keys and trusted types).
    Unauthorized = ("unauthorized", 401),
    Forbidden = ("forbidden", 403),
    ReservedIdempotencyKey = ("reserved_idempotency_key", 403),
    SourceForbidden = ("source_forbidden", 403),
    TrustedOnlyType = ("trusted_only_type", 403),
    /// §2 Scopes: the token lacks the scope or the prefix a route needs.
    ForbiddenScope = ("forbidden_scope", 403),
    /// §17: a producer's epoch older than the stream's (zombie fencing).
    StaleProducerEpoch = ("stale_producer_epoch", 403),
    // 404, 405: the URL names nothing.
    RouteNotFound = ("route_not_found", 404),
    /// The console's unknown page (§13).
    NotFound = ("not_found", 404),
    StreamNotFound = ("stream_not_found", 404),
    EventNotFound = ("event_not_found", 404),
    SubscriptionNotFound = ("subscription_not_found", 404),
    DeadLetterNotFound = ("dead_letter_not_found", 404),
    ProcessorNotFound = ("processor_not_found", 404),
    SourceNotFound = ("source_not_found", 404),
    SecretNotFound = ("secret_not_found", 404),
    MethodNotAllowed = ("method_not_allowed", 405),
    // 409: conflicts with the stream's state.
    IdempotencyKeyReused = ("idempotency_key_reused", 409),
    SubscriptionKeyConflict = ("subscription_key_conflict", 409),
    ConnectionKeyConflict = ("connection_key_conflict", 409),
    StaleStamp = ("stale_stamp", 409),
    SubscriptionNotHalted = ("subscription_not_halted", 409),
    ProcessorAlreadySubscribed = ("processor_already_subscribed", 409),
    ProcessorNotWoken = ("processor_not_woken", 409),
    NoReplayRetracted = ("no_replay_retracted", 409),
    NoReplayInvalidated = ("no_replay_invalidated", 409),
    ReplayCheckTooLong = ("replay_check_too_long", 409),
    StreamLifetimeEnded = ("stream_lifetime_ended", 409),
    /// §17 closure: data appends to a closed stream, on either face.
    StreamClosed = ("stream_closed", 409),
    /// §17: a protocol append's `Content-Type` is not the stream's.
    ContentTypeMismatch = ("content_type_mismatch", 409),
    /// §17: a repeated protocol `PUT` whose configuration differs.
    StreamConfigMismatch = ("stream_config_mismatch", 409),
    /// §18: the path is a soft-deleted stream its forks still read.
    StreamSoftDeleted = ("stream_soft_deleted", 409),
    /// §17: `Stream-Seq` not above the last one (PROTOCOL §5.2).
    StreamSeqConflict = ("stream_seq_conflict", 409),
    /// §17: a producer's `Producer-Seq` skips ahead (PROTOCOL §5.2.1).
    ProducerSequenceGap = ("producer_sequence_gap", 409),
    /// A dead letter's replay whose subscription is gone (§8): the same
    /// wire code as [`ErrorCode::SubscriptionNotFound`], answered 409
    /// because the letter exists and the stream's state refuses it.
    ReplayReceiverGone = ("subscription_not_found", 409),
    // 410 (§16): what was asked for was trimmed by retention.
    Trimmed = ("trimmed", 410),
    /// §18: the stream was deleted; its forks still read its data.
    StreamGone = ("stream_gone", 410),
    // 412 (§15 a source's expected target lifetime).
    StreamLifetimeChanged = ("stream_lifetime_changed", 412),
    // 413 (§3 rule 2, §12 request bodies).
    /// An append body past its limit, or too many events in one batch.
    BatchTooLarge = ("batch_too_large", 413),
    BodyTooLarge = ("body_too_large", 413),
    SourceTooLarge = ("source_too_large", 413),
    EventTooLarge = ("event_too_large", 413),
    EventTooDeep = ("event_too_deep", 413),
    // 422: well-formed, but refused by the rules.
    UnknownControlType = ("unknown_control_type", 422),
    InvalidControlEvent = ("invalid_control_event", 422),
    UnknownSubscription = ("unknown_subscription", 422),
    CursorBeyondHead = ("cursor_beyond_head", 422),
    TooManySubscriptions = ("too_many_subscriptions", 422),
    TooManyStreamSubscriptions = ("too_many_stream_subscriptions", 422),
    ReducedStateTooLarge = ("reduced_state_too_large", 422),
    InboundFenceFull = ("inbound_fence_full", 422),
    InvalidSubscription = ("invalid_subscription", 422),
    InvalidJsonata = ("invalid_jsonata", 422),
    InvalidProcessor = ("invalid_processor", 422),
    InvalidSource = ("invalid_source", 422),
    TooManyProcessors = ("too_many_processors", 422),
    TooManySources = ("too_many_sources", 422),
    UnknownProcessor = ("unknown_processor", 422),
    /// §9: a secret value that is empty, too large or not one line of text.
    InvalidSecret = ("invalid_secret", 422),
    TooManySecrets = ("too_many_secrets", 422),
    /// §9: a configuration names a secret the project does not hold.
    UnknownSecret = ("unknown_secret", 422),
    ReducerFailed = ("reducer_failed", 422),
    ProcessorStateTooLarge = ("processor_state_too_large", 422),
    JsonataTooLong = ("jsonata_too_long", 422),
    JsonataSyntaxError = ("jsonata_syntax_error", 422),
    JsonataEvaluationError = ("jsonata_evaluation_error", 422),
    // 429: a per-stream count is spent (§12).
    TooManyConnections = ("too_many_connections", 429),
    TooManyWaiters = ("too_many_waiters", 429),
    /// §17, §12: the stream remembers its most producers, all recently active.
    TooManyProducers = ("too_many_producers", 429),
    // 5xx.
    Internal = ("internal", 500),
    /// A missing or malformed `API_TOKENS` (§2).
    Misconfigured = ("misconfigured", 500),
    ProcessorUnreachable = ("processor_unreachable", 502),
    SecretsUnreachable = ("secrets_unreachable", 502),
    ReplayFailed = ("replay_failed", 502),
    SigningNotConfigured = ("signing_not_configured", 503),
    DirectoryUnavailable = ("directory_unavailable", 503),
    /// The stream reached its storage budget (§16): appends of data refused.
    StreamFull = ("stream_full", 507),
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Optional details of one failure, and the one [`ErrorCode`] it maps to;
/// its status and wire code follow from that code.
pub trait ApiFailure: std::fmt::Display {
    fn error_code(&self) -> ErrorCode;
    fn status(&self) -> u16 {
        self.error_code().status()
    }
    fn code(&self) -> &'static str {
        self.error_code().as_str()
    }
    fn details(&self) -> Map<String, Value> {
        Map::new()
    }
}

/// `{"error": {"code", "message", "details"}}` (§2).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ErrorBody {
    pub error: ErrorFields,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ErrorFields {
    pub code: String,
    pub message: String,
    pub details: Map<String, Value>,
}

/// A rendered failure: what the shell sends back.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    pub body: ErrorBody,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError {
            status: code.status(),
            body: ErrorBody {
                error: ErrorFields {
                    code: code.as_str().to_owned(),
                    message: message.into(),
                    details: Map::new(),
                },
            },
        }
    }

    pub fn code(&self) -> &str {
        &self.body.error.code
    }

    /// Adds one `details` entry.
    pub fn with_detail(mut self, name: &str, value: Value) -> Self {
        self.body.error.details.insert(name.to_owned(), value);
        self
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.body).unwrap_or_else(|_| {
            r#"{"error":{"code":"internal","message":"error rendering failed","details":{}}}"#.to_owned()
        })
    }
}

impl<F: ApiFailure> From<F> for ApiError {
    fn from(failure: F) -> Self {
        ApiError {
            status: failure.status(),
            body: ErrorBody {
                error: ErrorFields {
                    code: failure.code().to_owned(),
                    message: failure.to_string(),
                    details: failure.details(),
                },
            },
        }
    }
}

/// Builds a details map from `(name, value)` pairs.
pub fn details<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_wire_code_has_one_status_but_the_replay_receiver_section_2() {
        let mut seen = std::collections::BTreeMap::new();
        for code in ErrorCode::ALL {
            let wire = code.as_str();
            assert!(wire.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{wire}");
            assert!((400..600).contains(&code.status()), "{wire}");
            if let Some(previous) = seen.insert(wire, *code) {
                assert_eq!(
                    (previous, *code),
                    (ErrorCode::SubscriptionNotFound, ErrorCode::ReplayReceiverGone)
                );
            }
        }
    }

    #[test]
    fn a_rendered_error_takes_its_status_from_the_code_section_2() {
        let error = ApiError::new(ErrorCode::BatchTooLarge, "too big").with_detail("limitBytes", Value::from(1));
        assert_eq!((error.status, error.code()), (413, "batch_too_large"));
        assert_eq!(
            error.to_json(),
            r#"{"error":{"code":"batch_too_large","message":"too big","details":{"limitBytes":1}}}"#
        );
        assert_eq!(ErrorCode::ReplayReceiverGone.status(), 409);
        assert_eq!(ErrorCode::SubscriptionNotFound.status(), 404);
    }
}
