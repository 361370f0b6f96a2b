//! The operator console (docs/design.md §14): static assets from the `console/`
//! folder, served through the `ASSETS` binding (Workers static assets with
//! `run_worker_first`), under `/console/` (`/` redirects there). The page itself is public; it
//! calls the API with the token the operator types in. Every response gets
//! a strict Content-Security-Policy: the console's own scripts and styles
//! only, no inline script, no third-party origin, no framing.

use crate::internal::responses;
use tributary::error::ErrorCode;
use worker::{Env, Headers, Method, Request, RequestInit, Response, Result};

pub const ASSETS_BINDING: &str = "ASSETS";
const PREFIX: &str = "/console";

pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; \
object-src 'none'";

/// Request headers worth passing to the asset server (revalidation).
const PASSED_HEADERS: [&str; 3] = ["if-none-match", "if-modified-since", "accept-encoding"];

/// Whether `path` is the console's (`/console` or `/console/...`).
pub use tributary::route::public::is_console_path;

/// Serves `GET|HEAD /console[/...]`.
pub async fn serve(request: &Request, env: &Env) -> Result<Response> {
    let method = request.method();
    if method != Method::Get && method != Method::Head {
        let response = responses::error(ErrorCode::MethodNotAllowed, "the console accepts GET and HEAD")?;
        return secured(response, "GET, HEAD");
    }
    let url = request.url()?;
    let path = url.path();
    // `/` and `/console` both lead to the console's index (§14).
    if path == PREFIX || path == tributary::route::public::ROOT_PATH {
        let mut target = url.clone();
        target.set_path("/console/");
        return secured(Response::redirect_with_status(target, 308)?, "");
    }
    let asset_path = path.strip_prefix(PREFIX).unwrap_or("/");
    let headers = Headers::new();
    for name in PASSED_HEADERS {
        if let Some(value) = request.headers().get(name)? {
            headers.set(name, &value)?;
        }
    }
    let mut init = RequestInit::new();
    init.with_method(method).with_headers(headers);
    let asset_request = Request::new_with_init(&format!("https://assets.internal{asset_path}"), &init)?;
    let response = env.assets(ASSETS_BINDING)?.fetch_request(asset_request).await?;
    if response.status_code() == 404 {
        return secured(responses::error(ErrorCode::NotFound, "no such console page")?, "");
    }
    secured(response, "")
}

/// Adds the console's security headers; the asset server's own redirects
/// (e.g. `/index.html` → `/`) are put back under `/console`.
fn secured(response: Response, allow: &str) -> Result<Response> {
    let headers = response.headers().clone();
    headers.set("content-security-policy", CONTENT_SECURITY_POLICY)?;
    headers.set("x-content-type-options", "nosniff")?;
    headers.set("referrer-policy", "no-referrer")?;
    headers.set("x-frame-options", "DENY")?;
    if !allow.is_empty() {
        headers.set("allow", allow)?;
    }
    if let Some(location) = headers.get("location")? {
        if location.starts_with('/') && !location.starts_with("//") && !is_console_path(&location) {
            headers.set("location", &format!("{PREFIX}{location}"))?;
        } else if let Some(rest) = location.strip_prefix("https://assets.internal/") {
            headers.set("location", &format!("{PREFIX}/{rest}"))?;
        }
    }
    Ok(response.with_headers(headers))
}
