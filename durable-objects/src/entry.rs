//! The Worker entry (DESIGN.md §2, §3): authenticate, route, and forward to
//! the stream's Durable Object. The DO name is derived from the project and
//! the path together, so two projects never share a stream.

use crate::{auth, responses};
use tributary::error::ApiError;
use tributary::limits::MAX_BATCH_BYTES;
use tributary::route;
use worker::{event, Context, Env, Headers, Request, RequestInit, Response, Result};

/// Set by the router on every request it forwards; the DO trusts it because
/// only this Worker can reach the DO.
pub const PROJECT_HEADER: &str = "x-tributary-project";
const STREAM_BINDING: &str = "STREAM";

/// A request body larger than any valid append is refused before it is read.
const MAX_BODY_BYTES: usize = MAX_BATCH_BYTES + 1024;

fn object_name(project: &str, path: &str) -> String {
    serde_json::to_string(&[project, path]).unwrap_or_default()
}

#[event(fetch)]
async fn fetch(request: Request, env: Env, _ctx: Context) -> Result<Response> {
    match serve(request, env).await {
        Ok(response) => Ok(response),
        Err(error) => responses::error(500, "internal", &error.to_string()),
    }
}

async fn serve(mut request: Request, env: Env) -> Result<Response> {
    let url = request.url()?;
    if url.path().starts_with("/bench/") {
        return crate::bench_baseline::route(request, &env).await;
    }
    let Some(project) = auth::project_for(&request, &env) else {
        let response = responses::error(401, "unauthorized", "missing or unknown bearer token")?;
        let headers = response.headers().clone();
        headers.set("www-authenticate", "Bearer")?;
        return Ok(response.with_headers(headers));
    };
    let method = request.method();
    if url.path() == "/v1/jsonata/evaluate" && method == worker::Method::Post {
        let body = request.bytes().await?;
        return responses::from_api(tributary::jsonata_playground::handle(&body));
    }
    let route = match route::parse(method.as_ref(), url.path()) {
        Ok(route) => route,
        Err(error) => return responses::from_api(ApiError::from(error).into()),
    };
    let declared_length = request
        .headers()
        .get("content-length")?
        .and_then(|len| len.parse::<usize>().ok());
    if declared_length.is_some_and(|len| len > MAX_BODY_BYTES) {
        return responses::error(
            413,
            "batch_too_large",
            "request body exceeds the batch limit",
        );
    }
    let body = request.bytes().await?;
    if body.len() > MAX_BODY_BYTES {
        return responses::error(
            413,
            "batch_too_large",
            "request body exceeds the batch limit",
        );
    }
    let headers = Headers::new();
    headers.set(PROJECT_HEADER, &project)?;
    let mut init = RequestInit::new();
    init.with_method(method.clone()).with_headers(headers);
    if !body.is_empty() {
        init.with_body(Some(js_sys::Uint8Array::from(body.as_slice()).into()));
    }
    let forwarded_url = format!(
        "https://stream.internal{}{}",
        url.path(),
        url.query().map(|q| format!("?{q}")).unwrap_or_default()
    );
    let forwarded = Request::new_with_init(&forwarded_url, &init)?;
    let stub = env
        .durable_object(STREAM_BINDING)?
        .get_by_name(&object_name(&project, route.path.as_str()))?;
    stub.fetch_with_request(forwarded).await
}
