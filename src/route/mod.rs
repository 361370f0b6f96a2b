//! The route table (issue 19 "one route table"): every URL the Worker and
//! its Durable Objects answer is parsed here, once, into a typed route, and
//! the shell matches on it.
//!
//! - [`public`]: what the Worker entry serves (docs/design.md §2, §3, §9, §13,
//!   §14, §15): the bench baseline, the console, the JSONata playground, the
//!   catalog, processors, sources, secrets and every stream route.
//! - [`stream`]: `/v1/streams/{path}[/-/{action}]` (§3), the stream routes.
//! - [`internal`]: object-to-object URLs and header names, and what each
//!   Durable Object's `fetch` serves.
//! - [`BodyLimit`]: the request-body cap of each route (§12).
//! - [`scope`]: the scope and prefix each route needs of a token (§2 Scopes).
//! - [`Target`]: a request's path and query, read once from its URL.

pub mod append_heads;
mod body_limit;
pub mod internal;
pub mod public;
pub mod scope;
pub mod stream;
pub mod target;

pub use body_limit::BodyLimit;
pub use stream::{parse, Action, Route};
pub use target::Target;

use crate::error::{ApiFailure, ErrorCode};
use crate::path::PathError;
use crate::source::ConfigError;
use crate::stream::ReadError;

/// Where stream routes start (§3); `GET /v1/streams` itself is the catalog (§14).
pub const STREAMS_PREFIX: &str = "/v1/streams";
/// The Durable Streams face of the same streams (§17): `/v1/stream/{path}`.
pub const PROTOCOL_PREFIX: &str = "/v1/stream";

/// The stream path of a `/v1/stream/{path}` URL path (with its leading `/`).
pub fn protocol_path(url_path: &str) -> Option<&str> {
    url_path
        .strip_prefix(PROTOCOL_PREFIX)
        .filter(|rest| rest.starts_with('/'))
}
/// `/v1/processors` and `/v1/processors/{name}` (§9).
pub const PROCESSORS_PREFIX: &str = "/v1/processors";
/// `/v1/sources` and `/v1/sources/{name}` (§15).
pub const SOURCES_PREFIX: &str = "/v1/sources";
/// `GET /v1/secrets` and `PUT|DELETE /v1/secrets/{name}` (§9).
pub const SECRETS_PREFIX: &str = "/v1/secrets";
/// `GET /v1/token`: what the presented token grants (§2 Scopes).
pub const TOKEN_ROUTE: &str = "/v1/token";
/// `POST /v1/jsonata/evaluate`, the JSONata playground.
pub const JSONATA_EVALUATE_ROUTE: &str = "/v1/jsonata/evaluate";
/// `GET /v1/metrics`, the project's Prometheus scrape (§11).
pub const METRICS_ROUTE: &str = "/v1/metrics";
/// The operator console (§13): `/console` and `/console/...`.
pub const CONSOLE_PREFIX: &str = "/console";
/// The bench-only baseline object (`/bench/baseline/{name}`).
pub const BENCH_PREFIX: &str = "/bench/";

/// Why a URL has no route (§2 error shape).
#[derive(Debug, thiserror::Error)]
pub enum RouteError {
    #[error("no route for this URL")]
    NotFound,
    #[error("method not allowed; this route accepts {0}")]
    MethodNotAllowed(&'static str),
    /// A 405 whose message says what the route is for.
    #[error("{0}")]
    MethodRefused(&'static str),
    #[error(transparent)]
    Path(#[from] PathError),
    #[error(transparent)]
    Offset(ReadError),
    /// `/v1/sources/{name}` with a name §15 does not allow.
    #[error(transparent)]
    SourceName(ConfigError),
    /// `/v1/secrets/{name}` with a name §9 does not allow.
    #[error(transparent)]
    SecretName(crate::secrets::NameError),
}

// No `details`: a route error answers with an empty `details` object.
impl ApiFailure for RouteError {
    fn error_code(&self) -> ErrorCode {
        match self {
            RouteError::NotFound => ErrorCode::RouteNotFound,
            RouteError::MethodNotAllowed(_) | RouteError::MethodRefused(_) => ErrorCode::MethodNotAllowed,
            RouteError::Path(error) => error.error_code(),
            RouteError::Offset(error) => error.error_code(),
            RouteError::SourceName(error) => error.error_code(),
            RouteError::SecretName(error) => error.error_code(),
        }
    }
}

/// Decodes one URL path segment for the shell (same rules as the router).
pub fn decode_segment(segment: &str) -> Option<String> {
    percent_decode(segment)
}

/// Decodes `%XX` escapes of one URL segment or query value; `None` for bad
/// escapes, bad UTF-8 or an empty result.
pub(crate) fn percent_decode(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if byte == b'%' {
            let hex = std::str::from_utf8(bytes.get(index + 1..index + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(byte);
            index += 1;
        }
    }
    String::from_utf8(out).ok().filter(|key| !key.is_empty())
}
