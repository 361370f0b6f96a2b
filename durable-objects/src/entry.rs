//! The Worker entry (DESIGN.md §2, §3): authenticate, route, and forward to
//! the stream's Durable Object. The DO name is derived from the project and
//! the path together, so two projects never share a stream.

use crate::project_object::{CATALOG_ROUTE, PROCESSORS_PREFIX};
use crate::{auth, request_body, responses};
use tributary::error::{ApiError, ErrorCode};
use tributary::path::StreamPath;
use tributary::route::{self, BodyLimit};
use worker::{event, Context, Env, Headers, Method, Request, RequestInit, Response, Result};

/// Set by the router on every request it forwards; the DO trusts it because
/// only this Worker can reach the DO.
pub const PROJECT_HEADER: &str = "x-tributary-project";
/// Names the receiving stream on the internal copy route.
pub const PATH_HEADER: &str = "x-tributary-path";
pub const STREAM_BINDING: &str = "STREAM";

pub fn object_name(project: &str, path: &str) -> String {
    serde_json::to_string(&[project, path]).unwrap_or_default()
}

/// At worker start: a panic that slips through (DESIGN.md §1 forbids them)
/// at least logs where it happened before the instance aborts.
#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[event(fetch)]
async fn fetch(request: Request, env: Env, _ctx: Context) -> Result<Response> {
    match serve(request, env).await {
        Ok(response) => Ok(response),
        Err(error) => responses::error(ErrorCode::Internal, &error.to_string()),
    }
}

async fn serve(mut request: Request, env: Env) -> Result<Response> {
    let url = request.url()?;
    if url.path().starts_with("/bench/") {
        return crate::bench_baseline::route(request, &env).await;
    }
    // §2: a missing or malformed API_TOKENS is loud, on every request.
    let project = match auth::authenticate(&request, &env) {
        Ok(project) => project,
        Err(misconfigured) => {
            worker::console_error!(
                "{}",
                serde_json::json!({"event": "api_tokens_misconfigured", "error": misconfigured.to_string()})
            );
            request_body::drain(&mut request, BodyLimit::UNUSED).await;
            return responses::from_api(misconfigured.to_api_error().into());
        }
    };
    if crate::console::is_console_path(url.path()) {
        return crate::console::serve(&request, &env, &url).await;
    }
    let Some(project) = project else {
        request_body::drain(&mut request, BodyLimit::UNUSED).await;
        let response = responses::error(ErrorCode::Unauthorized, "missing or unknown bearer token")?;
        let headers = response.headers().clone();
        headers.set("www-authenticate", "Bearer")?;
        return Ok(response.with_headers(headers));
    };
    let method = request.method();
    if url.path() == "/v1/jsonata/evaluate" && method == worker::Method::Post {
        let body = match request_body::read_or_refuse(&mut request, BodyLimit::JSONATA_EVALUATE).await? {
            Ok(body) => body,
            Err(refused) => return Ok(refused),
        };
        return responses::from_api(tributary::jsonata::playground::handle(&body));
    }
    if url.path() == CATALOG_ROUTE || url.path() == "/v1/streams/" {
        if method != Method::Get {
            request_body::drain(&mut request, BodyLimit::UNUSED).await;
            return responses::error(ErrorCode::MethodNotAllowed, "this route accepts GET");
        }
        return processors(request, &env, &project, &url).await;
    }
    if url.path() == PROCESSORS_PREFIX || url.path().starts_with(&format!("{PROCESSORS_PREFIX}/")) {
        return processors(request, &env, &project, &url).await;
    }
    if url.path() == crate::source_object::SOURCES_PREFIX || url.path().starts_with("/v1/sources/") {
        return crate::source_object::route(request, &env, &project, &url).await;
    }
    let route = match route::parse(method.as_ref(), url.path()) {
        Ok(route) => route,
        Err(error) => {
            // Read a (bounded) body before answering, so a keep-alive client
            // can send its next request on the same connection.
            request_body::drain(&mut request, BodyLimit::APPEND).await;
            return responses::from_api(ApiError::from(error).into());
        }
    };
    // §12: the route's cap, Content-Length first, chunked bodies counted.
    let mut body = match request_body::read_or_refuse(&mut request, BodyLimit::of(&route.action)).await? {
        Ok(body) => body,
        Err(refused) => return Ok(refused),
    };
    if !matches!(route.action, route::Action::Append | route::Action::SubscribeFrom) {
        // Read (so the connection stays usable) and dropped: the route takes
        // none, and a GET forwarded with a body would be a TypeError.
        body.clear();
    }
    if route.action == route::Action::SubscribeFrom {
        return subscribe_from(&env, &project, &route.path, &body).await;
    }
    if route.action == route::Action::Append {
        // §3 rule 4: the engine's own key namespace is not the public's.
        if let Err(reserved) = tributary::reserved_keys::check_public_append(&body) {
            return responses::from_api(ApiError::from(reserved).into());
        }
        if let Some(refused) = unknown_processors(&env, &project, &body).await? {
            return Ok(refused);
        }
    }
    let path_and_query = format!(
        "{}{}",
        url.path(),
        url.query().map(|q| format!("?{q}")).unwrap_or_default()
    );
    let passed = if route.action == route::Action::Live {
        // What a live connection needs from the client's request (§10).
        let headers = request.headers();
        let mut passed = Vec::new();
        for name in ["upgrade", "sec-websocket-protocol", "accept", "last-event-id"] {
            if let Some(value) = headers.get(name)? {
                passed.push((name, value));
            }
        }
        if let Some(hash) = auth::presented_token_hash(&request) {
            passed.push((crate::live_shell::TOKEN_HASH_HEADER, hash));
        }
        passed
    } else {
        Vec::new()
    };
    forward(
        &env,
        &project,
        route.path.as_str(),
        method,
        &path_and_query,
        body,
        &passed,
    )
    .await
}

/// Sends a request to the stream object of `(project, path)`.
async fn forward(
    env: &Env,
    project: &str,
    path: &str,
    method: Method,
    path_and_query: &str,
    body: Vec<u8>,
    passed: &[(&str, String)],
) -> Result<Response> {
    let headers = Headers::new();
    headers.set(PROJECT_HEADER, project)?;
    for (name, value) in passed {
        headers.set(name, value)?;
    }
    let mut init = RequestInit::new();
    init.with_method(method).with_headers(headers);
    if !body.is_empty() {
        init.with_body(Some(js_sys::Uint8Array::from(body.as_slice()).into()));
    }
    let forwarded = Request::new_with_init(&format!("https://stream.internal{path_and_query}"), &init)?;
    let stub = env
        .durable_object(STREAM_BINDING)?
        .get_by_name(&object_name(project, path))?;
    stub.fetch_with_request(forwarded).await
}

/// `/v1/processors[/{name}]` (§9) and `GET /v1/streams` (§14): served by
/// the project object.
async fn processors(mut request: Request, env: &Env, project: &str, url: &worker::Url) -> Result<Response> {
    let method = request.method();
    // §12: a definition's cap on PUT; every other method takes no body.
    let limit = if method == Method::Put {
        BodyLimit::PROCESSOR_DEFINITION
    } else {
        BodyLimit::UNUSED
    };
    let mut body = match request_body::read_or_refuse(&mut request, limit).await? {
        Ok(body) => body,
        Err(refused) => return Ok(refused),
    };
    if method != Method::Put {
        body.clear();
    }
    let headers = Headers::new();
    headers.set(PROJECT_HEADER, project)?;
    let mut init = RequestInit::new();
    init.with_method(method).with_headers(headers);
    if !body.is_empty() {
        init.with_body(Some(js_sys::Uint8Array::from(body.as_slice()).into()));
    }
    let route = if url.path().starts_with(CATALOG_ROUTE) {
        CATALOG_ROUTE
    } else {
        url.path()
    };
    let query = url.query().map(|query| format!("?{query}")).unwrap_or_default();
    let forwarded = Request::new_with_init(&format!("https://project.internal{route}{query}"), &init)?;
    crate::processor_delivery::project_stub(env, project)?
        .fetch_with_request(forwarded)
        .await
}

/// A `subscription-configured` naming a processor the project does not
/// define is refused before the append (§9: 422), so nothing is committed.
async fn unknown_processors(env: &Env, project: &str, body: &[u8]) -> Result<Option<Response>> {
    for name in tributary::processor::referenced_in_append(body) {
        match crate::processor_delivery::definition(env, project, &name).await {
            Ok(Some(_)) => {}
            Ok(None) => {
                let mut error = ApiError::new(
                    ErrorCode::UnknownProcessor,
                    format!("'receiver.expression' names processor '{name}', which this project does not define"),
                );
                error
                    .body
                    .error
                    .details
                    .insert("field".to_owned(), serde_json::json!("receiver.expression"));
                error
                    .body
                    .error
                    .details
                    .insert("processor".to_owned(), serde_json::json!(name));
                return responses::from_api(error.into()).map(Some);
            }
            Err(error) => return responses::error(ErrorCode::ProcessorUnreachable, &error).map(Some),
        }
    }
    Ok(None)
}

/// §5 subscribeToEventsFrom: append the source's `subscription-configured`.
async fn subscribe_from(env: &Env, project: &str, receiving: &StreamPath, body: &[u8]) -> Result<Response> {
    let plan = match tributary::subscribe_from::plan(receiving, body) {
        Ok(plan) => plan,
        Err(error) => return responses::from_api(ApiError::from(error).into()),
    };
    let event_body = plan.event.to_json().to_string().into_bytes();
    let append_url = format!("/v1/streams{}/-/events", plan.source_path);
    let mut appended = forward(
        env,
        project,
        plan.source_path.as_str(),
        Method::Post,
        &append_url,
        event_body,
        &[],
    )
    .await?;
    let status = appended.status_code();
    let answer: serde_json::Value = appended.json().await?;
    let offset = answer.pointer("/event/offset").and_then(serde_json::Value::as_u64);
    match (status, offset) {
        (200 | 201, Some(offset)) => {
            let key = tributary::subscribe_from::established_key(plan.subscription_key.as_deref(), offset);
            let body = serde_json::json!({
                "subscriptionKey": key,
                "subscriptionConfiguredEvent": answer.get("event"),
            });
            responses::from_api(tributary::api::ApiResponse::json(status, &body))
        }
        _ => responses::from_api(tributary::api::ApiResponse {
            status,
            content_type: "application/json",
            body: answer.to_string(),
        }),
    }
}
