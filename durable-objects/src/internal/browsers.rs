//! Browsers on both faces (docs/design.md §17 "Browsers"): CORS from
//! `CORS_ALLOWED_ORIGINS` and the protocol's security headers on every API
//! response, errors included; `OPTIONS` preflights answered without a token.

use crate::internal::answers::{self, Answer};
use tributary::durable_streams::cors::{AllowedOrigins, CorsError};
use tributary::error::{ApiError, ErrorCode};
use worker::{Response, Result};

/// The 500 every request that needs the setting gets while
/// `CORS_ALLOWED_ORIGINS` is malformed (§17), logged loudly each time.
pub fn misconfigured(error: &CorsError) -> Result<Response> {
    worker::console_error!(
        "{}",
        serde_json::json!({"event": "cors_misconfigured", "error": error.to_string()})
    );
    crate::internal::responses::api_error(ApiError::new(
        ErrorCode::Misconfigured,
        format!("{error}; every API request is refused until the deployment fixes it"),
    ))
}

/// Adds CORS and the security headers to an API answer, and takes off
/// the one answer header only Tributary's own callers read (a stream's
/// lifetime, which its append answers a source with, §15): in one call,
/// the answer itself when it needs none of that (`answers.js`).
pub fn decorate(answer: Answer, allowed: &AllowedOrigins, origin: Option<&str>) -> Result<web_sys::Response> {
    answers::decorate(answer, &allowed.response_headers(origin))
}

/// `OPTIONS` (a CORS preflight): 204 with the permissions when the origin
/// is allowed, without them otherwise (the browser then refuses the call).
pub fn preflight(request_headers: &worker::Headers, allowed: &AllowedOrigins) -> Result<Response> {
    let origin = request_headers.get("origin")?;
    let headers = worker::Headers::new();
    for (name, value) in allowed.preflight_headers(origin.as_deref()) {
        headers.set(name, &value)?;
    }
    Ok(Response::empty()?.with_status(204).with_headers(headers))
}
