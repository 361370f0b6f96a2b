//! The Worker entry (docs/design.md §2, §3): authenticate, route, and forward to
//! the stream's Durable Object. The DO name is derived from the project and
//! the path together, so two projects never share a stream. Every URL is
//! parsed once by the engine's route table (`tributary::route::public`);
//! this matches on the typed route.

use crate::internal::answers::Answer;
use crate::internal::incoming::Incoming;
use crate::internal::object_call::{self, CallBody, ObjectCall};
use crate::internal::{auth, browsers, request_body, responses};
use tributary::auth_tokens::{Grant, Scope};
use tributary::error::{ApiError, ErrorCode};
use tributary::path::StreamPath;
use tributary::route::append_heads::AppendReading;
use tributary::route::internal::{Host, CATALOG_ROUTE};
use tributary::route::public::{self, ApiRoute, PublicRoute};
use tributary::route::scope::{self, CatalogView};
use tributary::route::Target;
use tributary::route::{Action, BodyLimit, Route, RouteError};
use worker::{event, Context, Env, Method, Response, Result};

use crate::internal::bindings::stream_stub;
use tributary::route::internal::PROJECT_HEADER;
use tributary::route::SECRETS_PREFIX;

/// At worker start: a panic that slips through (docs/design.md §1 forbids them)
/// at least logs where it happened before the instance aborts.
#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[event(fetch)]
async fn fetch(request: web_sys::Request, env: Env, _ctx: Context) -> Result<web_sys::Response> {
    let mut request = Incoming::new(request);
    let origin = request.headers().get("origin").ok().flatten();
    // Parsed once for the whole request (a URL parse is a visible share of a
    // single append's CPU in wasm).
    let url = request.target();
    let api = url.as_ref().is_ok_and(|url| url.path().starts_with("/v1/"));
    if !api {
        return answer(request, &env, url).await.map(Answer::into_raw);
    }
    // §17 Browsers: every API answer carries the deployment's CORS headers,
    // so a malformed setting refuses the request before it runs.
    let settings = crate::internal::settings::of(&env);
    let allowed = match &settings.cors {
        Ok(allowed) => allowed,
        Err(malformed) => {
            request_body::drain(&mut request, BodyLimit::UNUSED).await;
            return browsers::misconfigured(malformed).map(web_sys::Response::from);
        }
    };
    let response = answer(request, &env, url).await?;
    browsers::decorate(response, allowed, origin.as_deref())
}

/// [`serve`], an error answered as §2's 500 `internal`.
async fn answer(request: Incoming, env: &Env, url: Result<Target>) -> Result<Answer> {
    match serve(request, env, url).await {
        Ok(response) => Ok(response),
        Err(error) => responses::error(ErrorCode::Internal, &error.to_string()).map(Answer::from),
    }
}

/// Routes, then authenticates all but the bench baseline (§2; the console
/// page needs no token, but a misconfigured deployment refuses it too).
async fn serve(mut request: Incoming, env: &Env, url: Result<Target>) -> Result<Answer> {
    let env = env.clone();
    let url = url?;
    match public::parse(request.method().as_ref(), url.path()) {
        PublicRoute::Preflight => match &crate::internal::settings::of(&env).cors {
            Ok(allowed) => browsers::preflight(&request.headers(), allowed).map(Answer::from),
            Err(malformed) => browsers::misconfigured(malformed).map(Answer::from),
        },
        PublicRoute::Bench { name } => crate::bench_baseline::route(request, &env, &name)
            .await
            .map(Answer::from),
        PublicRoute::OpenApi => crate::openapi::serve().map(Answer::from),
        PublicRoute::Console => match authenticate(&mut request, &env).await? {
            Ok(_) => crate::console::serve(&request.into_request(), &env)
                .await
                .map(Answer::from),
            Err(refused) => Ok(refused.into()),
        },
        PublicRoute::Api(route) => {
            let grant = match authenticate(&mut request, &env).await? {
                Ok(Some(grant)) => grant,
                Ok(None) => match anonymous(&request, &env, &route)? {
                    Ok(Some(grant)) => grant,
                    Ok(None) => return unauthorized(&mut request).await.map(Answer::from),
                    Err(refused) => return Ok(refused.into()),
                },
                Err(refused) => return Ok(refused.into()),
            };
            match route {
                Ok(route) => match scope::authorize(&grant, &scope::need(request.method().as_ref(), &route)) {
                    Ok(()) => api(request, &env, &grant, &url, route).await,
                    Err(forbidden) => refuse(&mut request, forbidden).await.map(Answer::from),
                },
                Err(error) => refuse_route(&mut request, error).await.map(Answer::from),
            }
        }
    }
}

/// An authenticated API route the token's scopes allow (§2 Scopes).
async fn api(mut request: Incoming, env: &Env, grant: &Grant, url: &Target, route: ApiRoute) -> Result<Answer> {
    let project = grant.project();
    let built = match route {
        ApiRoute::Stream(route) => return stream(request, env, grant, url, route).await,
        ApiRoute::Protocol { path, method } => return protocol(request, env, grant, url, &path, method).await,
        ApiRoute::Processors { .. } => return to_project(request, env, project, url.path(), url.query()).await,
        ApiRoute::SecretList => return to_project(request, env, project, SECRETS_PREFIX, None).await,
        ApiRoute::Secret { name, .. } => {
            return to_project(request, env, project, &format!("{SECRETS_PREFIX}/{name}"), None).await
        }
        ApiRoute::Catalog => match scope::catalog_view(grant, url.query().unwrap_or_default()) {
            CatalogView::Query(query) => return to_project(request, env, project, CATALOG_ROUTE, Some(&query)).await,
            CatalogView::Empty => {
                responses::from_api(tributary::api::ApiResponse::json(200, &scope::empty_catalog_page()))
            }
        },
        ApiRoute::Metrics => match scope::metrics_view(grant, url.query().unwrap_or_default()) {
            CatalogView::Query(query) => {
                return to_project(request, env, project, tributary::route::METRICS_ROUTE, Some(&query)).await
            }
            CatalogView::Empty => responses::from_api(tributary::api::ApiResponse {
                status: 200,
                content_type: tributary::api::PROMETHEUS_CONTENT_TYPE,
                body: String::new(),
            }),
        },
        ApiRoute::JsonataEvaluate => jsonata_evaluate(&mut request).await,
        ApiRoute::Token => responses::from_api(tributary::api::ApiResponse::json(200, &grant.to_json())),
        ApiRoute::SourceDirectory => crate::source_object::route_directory(env, project, url.query()).await,
        ApiRoute::Source { name, method } => {
            crate::source_object::route_source(request.into_request(), env, project, &name, method).await
        }
    };
    // The routes the entry answers itself (or a source object's, read back).
    built.map(Answer::from)
}

/// `DS_ANONYMOUS_GRANT` (§17 "Auth"): what a protocol request without
/// `Authorization` is granted, for a local conformance run only. Unset:
/// none (401). Malformed: 500 `misconfigured`.
fn anonymous(
    request: &Incoming,
    env: &Env,
    route: &std::result::Result<ApiRoute, RouteError>,
) -> Result<std::result::Result<Option<Grant>, Response>> {
    if !matches!(route, Ok(ApiRoute::Protocol { .. })) || request.headers().get("authorization")?.is_some() {
        return Ok(Ok(None));
    }
    let Ok(setting) = env.var("DS_ANONYMOUS_GRANT").map(|value| value.to_string()) else {
        return Ok(Ok(None));
    };
    match tributary::auth_tokens::anonymous_grant(&setting) {
        Ok(grant) => Ok(Ok(Some(grant))),
        Err(error) => {
            let misconfigured = ApiError::new(ErrorCode::Misconfigured, format!("DS_ANONYMOUS_GRANT: {error}"));
            responses::api_error(misconfigured).map(Err)
        }
    }
}

/// Request headers the protocol face reads, passed to the stream object.
const PROTOCOL_HEADERS: [&str; 13] = [
    "content-type",
    "if-none-match",
    "stream-ttl",
    "stream-expires-at",
    "stream-seq",
    "stream-closed",
    "stream-forked-from",
    "stream-fork-offset",
    "stream-fork-sub-offset",
    "producer-id",
    "producer-epoch",
    "producer-seq",
    "tributary-message-type",
];

/// `/v1/stream/{path}` (§17): the body under its cap (413 unread past it),
/// then the stream object of the same path the native face uses.
async fn protocol(
    mut request: Incoming,
    env: &Env,
    grant: &Grant,
    url: &Target,
    path: &StreamPath,
    method: tributary::durable_streams::face::Method,
) -> Result<Answer> {
    use tributary::durable_streams::face::Method as ProtocolMethod;
    let limit = match method {
        ProtocolMethod::Put | ProtocolMethod::Post => BodyLimit::PROTOCOL,
        _ => BodyLimit::UNUSED,
    };
    let mut body = match request_body::read_or_refuse(&mut request, limit).await? {
        Ok(body) => body,
        Err(refused) => return Ok(refused.into()),
    };
    if limit.bytes == BodyLimit::UNUSED.bytes {
        body.clear();
    }
    if method == ProtocolMethod::Put {
        if let Some(forked_from) = request.headers().get("stream-forked-from")? {
            if let Err(forbidden) = scope::authorize_fork(grant, path, &forked_from) {
                return refuse(&mut request, forbidden).await.map(Answer::from);
            }
        }
    }
    let mut passed: Vec<(&str, String)> = Vec::new();
    for name in PROTOCOL_HEADERS {
        if let Some(value) = request.headers().get(name)? {
            passed.push((name, value));
        }
    }
    passed.push((
        crate::stream_object::protocol::LOCATION_HEADER,
        url.without_query().to_owned(),
    ));
    let path_and_query = format!(
        "{}{}",
        url.path(),
        url.query().map(|q| format!("?{q}")).unwrap_or_default()
    );
    forward(
        env,
        grant.project(),
        path.as_str(),
        request.method(),
        &path_and_query,
        body,
        &passed,
    )
    .await
}

/// 403 `forbidden_scope` (§2 Scopes), the body read first so a keep-alive
/// client can send its next request on the same connection.
async fn refuse(request: &mut Incoming, forbidden: scope::ScopeError) -> Result<Response> {
    request_body::drain(request, BodyLimit::APPEND).await;
    responses::api_error(forbidden)
}

/// The request's grant (`Ok(None)` without a known token); `Err` is the
/// answer of a missing or malformed `API_TOKENS`, loud on every request (§2).
async fn authenticate(request: &mut Incoming, env: &Env) -> Result<std::result::Result<Option<Grant>, Response>> {
    match auth::authenticate(&request.headers(), env) {
        Ok(grant) => Ok(Ok(grant)),
        Err(misconfigured) => {
            worker::console_error!(
                "{}",
                serde_json::json!({"event": "api_tokens_misconfigured", "error": misconfigured.to_string()})
            );
            request_body::drain(request, BodyLimit::UNUSED).await;
            responses::from_api(misconfigured.to_api_error().into()).map(Err)
        }
    }
}

/// 401 with `WWW-Authenticate: Bearer` (§2).
async fn unauthorized(request: &mut Incoming) -> Result<Response> {
    request_body::drain(request, BodyLimit::UNUSED).await;
    let response = responses::error(ErrorCode::Unauthorized, "missing or unknown bearer token")?;
    let headers = response.headers().clone();
    headers.set("www-authenticate", "Bearer")?;
    Ok(response.with_headers(headers))
}

/// A URL with no route: read a (bounded) body before answering, so a
/// keep-alive client can send its next request on the same connection.
async fn refuse_route(request: &mut Incoming, error: RouteError) -> Result<Response> {
    let drained = match error {
        RouteError::MethodRefused(_) => BodyLimit::UNUSED,
        _ => BodyLimit::APPEND,
    };
    request_body::drain(request, drained).await;
    responses::api_error(error)
}

/// `POST /v1/jsonata/evaluate`.
async fn jsonata_evaluate(request: &mut Incoming) -> Result<Response> {
    match request_body::read_or_refuse(request, BodyLimit::JSONATA_EVALUATE).await? {
        Ok(body) => responses::from_api(tributary::jsonata::playground::handle(&body)),
        Err(refused) => Ok(refused),
    }
}

/// A stream route (§3): read its body under its cap (§12), then serve
/// subscribe-from here or forward to the stream object.
async fn stream(mut request: Incoming, env: &Env, grant: &Grant, url: &Target, route: Route) -> Result<Answer> {
    let project = grant.project();
    // §12: the route's cap, Content-Length first, chunked bodies counted.
    let mut body = match request_body::read_or_refuse(&mut request, BodyLimit::of(&route.action)).await? {
        Ok(body) => body,
        Err(refused) => return Ok(refused.into()),
    };
    let mut passed = match route.action {
        Action::SubscribeFrom => return subscribe_from(env, grant, &route.path, &body).await.map(Answer::from),
        Action::Append => {
            // Read once for the scopes and the key namespace (§2, §3 rule 4).
            let reading = AppendReading::read(&body);
            if let Err(forbidden) = scope::authorize_reading(grant, reading.as_ref()) {
                return responses::api_error(forbidden).map(Answer::from);
            }
            if let Err(reserved) = tributary::reserved_keys::check_reading(reading.as_ref()) {
                return responses::api_error(reserved).map(Answer::from);
            }
            if let Some(refused) = check_append(env, project, &body).await? {
                return Ok(refused.into());
            }
            Vec::new()
        }
        Action::Live => live_headers(&request)?,
        // §18: manage on the source too (a prefix token forks only within it).
        Action::Fork => {
            let from = serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|value| value.get("from").and_then(serde_json::Value::as_str).map(str::to_owned));
            if let Some(from) = from {
                if let Err(forbidden) = scope::authorize_fork(grant, &route.path, &from) {
                    return responses::api_error(forbidden).map(Answer::from);
                }
            }
            Vec::new()
        }
        // Read (so the connection stays usable) and dropped: the route takes
        // none, and a GET forwarded with a body would be a TypeError.
        _ => {
            body.clear();
            Vec::new()
        }
    };
    // What the stream decides against the token's prefix (§2): the copies
    // its subscriptions make.
    if let Some(prefix) = grant.prefix() {
        passed.push((tributary::route::internal::TOKEN_PREFIX_HEADER, prefix.to_owned()));
    }
    let path_and_query = format!(
        "{}{}",
        url.path(),
        url.query().map(|q| format!("?{q}")).unwrap_or_default()
    );
    forward(
        env,
        project,
        route.path.as_str(),
        request.method(),
        &path_and_query,
        body,
        &passed,
    )
    .await
}

/// An append is refused before it reaches the stream when it names an
/// unknown processor or a secret the project does not hold or cannot use
/// (§9).
async fn check_append(env: &Env, project: &str, body: &[u8]) -> Result<Option<Response>> {
    if let Some(refused) = unknown_processors(env, project, body).await? {
        return Ok(Some(refused));
    }
    unusable_secrets(env, project, body).await
}

/// A `subscription-configured` naming a secret the project does not hold
/// (422 `unknown_secret`), or whose value its use refuses (a URL the URL
/// rules refuse: 422 naming the field), is refused before the append (§9).
async fn unusable_secrets(env: &Env, project: &str, body: &[u8]) -> Result<Option<Response>> {
    let references = tributary::secrets::referenced_in_append(body);
    if references.is_empty() {
        return Ok(None);
    }
    let request =
        tributary::secrets::SecretCache::default().request(references.iter().map(|reference| reference.name.as_str()));
    let answer = match crate::senders::secrets::ask(env, project, &request).await {
        Ok(answer) => answer,
        Err(error) => return responses::error(ErrorCode::SecretsUnreachable, &error).map(Some),
    };
    let allow_insecure = crate::internal::deployment_env::from_env(env).allow_insecure_webhooks;
    match tributary::secrets::check_references(&references, &request, answer, allow_insecure) {
        Ok(()) => Ok(None),
        Err(refused) => responses::api_error(refused).map(Some),
    }
}

/// What a live connection needs from the client's request (§10).
fn live_headers(request: &Incoming) -> Result<Vec<(&'static str, String)>> {
    let headers = request.headers();
    let mut passed = Vec::new();
    for name in ["upgrade", "sec-websocket-protocol", "accept", "last-event-id"] {
        if let Some(value) = headers.get(name)? {
            passed.push((name, value));
        }
    }
    if let Some(hash) = auth::presented_token_hash(&headers) {
        passed.push((tributary::route::internal::TOKEN_HASH_HEADER, hash));
    }
    Ok(passed)
}

/// Sends a request to the stream object of `(project, path)`; its answer
/// is handed on as the platform's own.
async fn forward(
    env: &Env,
    project: &str,
    path: &str,
    method: Method,
    path_and_query: &str,
    body: Vec<u8>,
    passed: &[(&str, String)],
) -> Result<Answer> {
    let mut headers: Vec<(&str, &str)> = Vec::with_capacity(passed.len() + 1);
    headers.push((PROJECT_HEADER, project));
    headers.extend(passed.iter().map(|(name, value)| (*name, value.as_str())));
    let stub = stream_stub(env, project, path)?;
    let call = ObjectCall {
        method,
        headers: &headers,
        body: Some(CallBody::Bytes(&body)),
    };
    object_call::send(stub.into(), &Host::Stream.url(path_and_query), call)
        .await
        .map(Answer::Object)
}

/// `/v1/processors[/{name}]`, `/v1/secrets[/{name}]` (§9), `GET
/// /v1/streams` (§14) and `GET /v1/metrics` (§11): served by the project
/// object.
async fn to_project(
    mut request: Incoming,
    env: &Env,
    project: &str,
    path: &str,
    query: Option<&str>,
) -> Result<Answer> {
    let method = request.method();
    // §12: a definition's or a secret's cap on PUT; every other method takes no body.
    let limit = match method {
        Method::Put if path.starts_with(SECRETS_PREFIX) => BodyLimit::SECRET,
        Method::Put => BodyLimit::PROCESSOR_DEFINITION,
        _ => BodyLimit::UNUSED,
    };
    let mut body = match request_body::read_or_refuse(&mut request, limit).await? {
        Ok(body) => body,
        Err(refused) => return Ok(refused.into()),
    };
    if method != Method::Put {
        body.clear();
    }
    let query = query.map(|query| format!("?{query}")).unwrap_or_default();
    let call = ObjectCall {
        method,
        headers: &[(PROJECT_HEADER, project)],
        body: Some(CallBody::Bytes(&body)),
    };
    let stub = crate::internal::bindings::project_stub(env, project)?;
    object_call::send(stub.into(), &Host::Project.url(&format!("{path}{query}")), call)
        .await
        .map(Answer::Object)
}

/// A `subscription-configured` naming a processor the project does not
/// define is refused before the append (§9: 422), so nothing is committed.
async fn unknown_processors(env: &Env, project: &str, body: &[u8]) -> Result<Option<Response>> {
    for name in tributary::processor::referenced_in_append(body) {
        match crate::senders::processor::definition(env, project, &name).await {
            Ok(Some(_)) => {}
            Ok(None) => {
                let error = ApiError::new(
                    ErrorCode::UnknownProcessor,
                    format!("'receiver.expression' names processor '{name}', which this project does not define"),
                )
                .with_detail("field", serde_json::json!("receiver.expression"))
                .with_detail("processor", serde_json::json!(name));
                return responses::api_error(error).map(Some);
            }
            Err(error) => return responses::error(ErrorCode::ProcessorUnreachable, &error).map(Some),
        }
    }
    Ok(None)
}

/// §5 subscribeToEventsFrom: append the source's `subscription-configured`.
/// It needs `manage` on the source stream too (§2 Scopes).
async fn subscribe_from(env: &Env, grant: &Grant, receiving: &StreamPath, body: &[u8]) -> Result<Response> {
    let project = grant.project();
    let plan = match tributary::subscribe_from::plan(receiving, body) {
        Ok(plan) => plan,
        Err(error) => return responses::api_error(error),
    };
    if let Err(forbidden) = scope::on_stream(grant, Scope::Manage, &plan.source_path) {
        return responses::api_error(forbidden);
    }
    let event_body = plan.event.to_json().to_string().into_bytes();
    let append_url = tributary::route::internal::append_url(plan.source_path.as_str());
    let mut appended = forward(
        env,
        project,
        plan.source_path.as_str(),
        Method::Post,
        &append_url,
        event_body,
        &[],
    )
    .await?
    .into_response();
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
