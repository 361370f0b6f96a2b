//! Browsers on both faces (docs/design.md §17 "Browsers"): CORS from
//! `CORS_ALLOWED_ORIGINS` and the protocol's security headers on every API
//! response, errors included; `OPTIONS` preflights answered without a token.

use tributary::durable_streams::cors::AllowedOrigins;
use tributary::durable_streams::response::SECURITY_HEADERS;
use tributary::error::{ApiError, ErrorCode};
use worker::{Env, Response, Result};

/// The deployment's allowed origins; a malformed setting is an error.
fn allowed(env: &Env) -> std::result::Result<AllowedOrigins, ApiError> {
    let setting = env.var("CORS_ALLOWED_ORIGINS").ok().map(|value| value.to_string());
    AllowedOrigins::parse(setting.as_deref())
        .map_err(|error| ApiError::new(ErrorCode::Misconfigured, format!("CORS_ALLOWED_ORIGINS: {error}")))
}

/// Adds CORS and the security headers to an API response.
pub fn decorate(response: Response, env: &Env, origin: Option<&str>) -> Result<Response> {
    let cors = match allowed(env) {
        Ok(allowed) => allowed.response_headers(origin),
        Err(misconfigured) => return crate::internal::responses::api_error(misconfigured),
    };
    let headers = response.headers().clone();
    for (name, value) in cors {
        headers.set(name, &value)?;
    }
    for (name, value) in SECURITY_HEADERS {
        if !headers.has(name)? {
            headers.set(name, value)?;
        }
    }
    Ok(response.with_headers(headers))
}

/// `OPTIONS` (a CORS preflight): 204 with the permissions when the origin
/// is allowed, without them otherwise (the browser then refuses the call).
pub fn preflight(headers: &worker::Headers, env: &Env) -> Result<Response> {
    let origin = headers.get("origin")?;
    let permissions = match allowed(env) {
        Ok(allowed) => allowed.preflight_headers(origin.as_deref()),
        Err(misconfigured) => return crate::internal::responses::api_error(misconfigured),
    };
    let headers = worker::Headers::new();
    for (name, value) in permissions {
        headers.set(name, &value)?;
    }
    Ok(Response::empty()?.with_status(204).with_headers(headers))
}
