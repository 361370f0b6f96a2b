//! The source Durable Object (docs/design.md §15, §15.1): one per `(project,
//! source name)`, holding the engine's source of either kind (`AnySource`:
//! the chain source or the mempool source) over its own SQLite. Its alarm
//! drives the engine's effects — JSON-RPC calls with `fetch` under a
//! deadline, appends to the target stream through the stream object — and
//! always re-arms; it never fails. The project's directory of sources
//! (`GET /v1/sources`) is the instance of this class named by the project
//! alone (no source name is empty).
//!
//! Routes (from the router, which sets the project header):
//! `PUT|GET|DELETE /v1/sources/{name}`, `GET /v1/sources`, forwarded to
//! the internal routes of `tributary::route::internal`.

use crate::internal::bindings::{source_stub, stream_stub};
use crate::internal::object_call::{self, CallBody, Object, ObjectCall};
use crate::internal::responses;
use crate::platform;
use crate::platform::sql_driver::{DoSql, ObjectSql};
use crate::platform::timers::within;
use futures_util::StreamExt;
use std::cell::{Cell, RefCell};
use tributary::api::ApiResponse;
use tributary::error::{ApiError, ErrorCode};
use tributary::limits::{ALARM_RETRY_MS, MAX_SOURCE_EFFECTS_PER_RUN, MAX_SOURCE_RPC_RESPONSE_BYTES, SEND_TIMEOUT_MS};
use tributary::project_metrics::sources::{SourceReport, SourceSnapshot};
use tributary::project_metrics::{ReportClock, ReportDecision};
use tributary::route::internal::PROJECT_HEADER;
use tributary::route::internal::{
    self, append_url, Host, SourceObjectRoute, DIRECTORY_ROUTE, SOURCE_METRICS_ROUTE, SOURCE_NAME_HEADER, SOURCE_ROUTE,
};
use tributary::route::public::SourceMethod;
use tributary::route::BodyLimit;
use tributary::source::kinds::AnySource;
use tributary::source::{self, AppendAnswer, AppendCall, Directory, DirectoryChange, Effect, RpcAnswer, RpcCall};
use worker::{durable_object, DurableObject, Env, Headers, Method, Request, RequestInit, Response, Result, State};

fn stub(env: &Env, project: &str, name: &str) -> Result<Object> {
    Ok(source_stub(env, project, name)?.into())
}

async fn internal(
    object: &Object,
    project: &str,
    method: Method,
    path_and_query: &str,
    name: Option<&str>,
    body: Option<Vec<u8>>,
) -> Result<Response> {
    let mut headers = vec![(PROJECT_HEADER, project)];
    if let Some(name) = name {
        headers.push((SOURCE_NAME_HEADER, name));
    }
    let call = ObjectCall {
        method,
        headers: &headers,
        body: body.as_deref().map(CallBody::Bytes),
    };
    object_call::fetch(object, &Host::Source.url(path_and_query), call).await
}

/// `GET /v1/sources` (§15), from the router: the project's directory instance.
pub async fn route_directory(env: &Env, project: &str, query: Option<&str>) -> Result<Response> {
    let query = query.map(|query| format!("?{query}")).unwrap_or_default();
    let directory = stub(env, project, "")?;
    internal(
        &directory,
        project,
        Method::Get,
        &format!("{DIRECTORY_ROUTE}{query}"),
        None,
        None,
    )
    .await
}

/// `PUT|GET|DELETE /v1/sources/{name}` (§15), from the router (the route
/// table checked the name and the method).
pub async fn route_source(
    mut request: Request,
    env: &Env,
    project: &str,
    name: &str,
    method: SourceMethod,
) -> Result<Response> {
    let (method, body) = match method {
        // §12: a streaming cap, chunked or not.
        SourceMethod::Put => {
            match crate::internal::request_body::read_or_refuse(&mut request, BodyLimit::SOURCE_CONFIG).await? {
                Ok(body) => (Method::Put, Some(body)),
                Err(refused) => return Ok(refused),
            }
        }
        SourceMethod::Get => (Method::Get, None),
        SourceMethod::Delete => (Method::Delete, None),
    };
    let source = stub(env, project, name)?;
    internal(&source, project, method, SOURCE_ROUTE, Some(name), body).await
}

#[durable_object]
pub struct SourceObject {
    state: State,
    /// Its storage, which the source's and the directory's drivers share.
    sql: ObjectSql,
    env: Env,
    source: RefCell<Option<AnySource<DoSql>>>,
    directory: RefCell<Option<Directory<DoSql>>>,
    /// When the source's progress is next reported to the project (§11).
    metrics_report: Cell<ReportClock>,
}

fn internal_error(error: impl std::fmt::Display) -> Result<Response> {
    responses::error(ErrorCode::Internal, &error.to_string())
}

impl SourceObject {
    /// Runs `body` on the source, opening it first.
    fn with_source<T>(&self, body: impl FnOnce(&mut AnySource<DoSql>) -> T) -> std::result::Result<T, String> {
        let mut slot = self.source.borrow_mut();
        if slot.is_none() {
            *slot = Some(AnySource::open(self.sql.driver()).map_err(|error| error.to_string())?);
        }
        let Some(source) = slot.as_mut() else {
            return Err("source not open".to_owned());
        };
        Ok(body(source))
    }

    fn with_directory<T>(&self, body: impl FnOnce(&Directory<DoSql>) -> T) -> std::result::Result<T, String> {
        let mut slot = self.directory.borrow_mut();
        if slot.is_none() {
            *slot = Some(Directory::open(self.sql.driver()).map_err(|error| error.to_string())?);
        }
        let Some(directory) = slot.as_ref() else {
            return Err("directory not open".to_owned());
        };
        Ok(body(directory))
    }

    async fn arm(&self, at_ms: Option<i64>) -> Result<()> {
        let storage = self.state.storage();
        match at_ms {
            Some(at) => {
                let at = at.max(platform::now_ms());
                storage
                    .set_alarm(worker::ScheduledTime::new(js_sys::Date::new(&(at as f64).into())))
                    .await
            }
            None => storage.delete_alarm().await,
        }
    }

    /// Tells the project's directory about this source; `None` when it agreed.
    async fn tell_directory(&self, project: &str, change: &DirectoryChange) -> Result<Option<Response>> {
        let body = serde_json::to_vec(change).map_err(|error| worker::Error::RustError(error.to_string()))?;
        let directory = stub(&self.env, project, "")?;
        let answer = within(
            SEND_TIMEOUT_MS,
            internal(&directory, project, Method::Post, DIRECTORY_ROUTE, None, Some(body)),
        )
        .await;
        match answer {
            Some(Ok(response)) if response.status_code() == 204 => Ok(None),
            Some(Ok(response)) => Ok(Some(response)),
            Some(Err(error)) => responses::error(
                ErrorCode::DirectoryUnavailable,
                &format!("the source directory failed: {error}"),
            )
            .map(Some),
            None => responses::error(ErrorCode::DirectoryUnavailable, "the source directory did not answer").map(Some),
        }
    }

    /// `PUT /v1/sources/{name}`: validate, check every endpoint's chain id,
    /// register with the directory, then commit and run now.
    async fn put(&self, project: &str, name: &str, body: &[u8]) -> Result<Response> {
        let allow_insecure = crate::internal::deployment_env::from_env(&self.env).allow_insecure_webhooks;
        let config = match source::kinds::parse(name, body, allow_insecure) {
            Ok(config) => config,
            Err(error) => return responses::from_api(ApiError::from(error).into()),
        };
        let checks = config.rpc_urls().iter().enumerate().map(|(index, url)| async move {
            let call = source::rpc::chain_id_call(url, index);
            let answer = perform_rpc(&call).await;
            source::rpc::parse_chain_id(&call, &answer)
        });
        let answers = futures_util::future::join_all(checks).await;
        if let Err(error) = config.check_chain_ids(&answers) {
            return responses::from_api(ApiError::from(error).into());
        }
        let listed = config.listed();
        let change = DirectoryChange::Register {
            name: name.to_owned(),
            config: listed,
        };
        if let Some(refused) = self.tell_directory(project, &change).await? {
            return Ok(refused);
        }
        let now = platform::now_ms();
        let committed = self.with_source(|source| {
            source
                .configure(project, name, config, now)
                .map(|created| (created, source.status()))
        });
        let (created, status) = match committed {
            Ok(Ok((created, Ok(status)))) => (created, status),
            Ok(Ok((_, Err(error)))) | Ok(Err(error)) => return internal_error(error),
            Err(error) => return internal_error(error),
        };
        self.arm(Some(now)).await?;
        responses::from_api(ApiResponse::json(if created { 201 } else { 200 }, &status))
    }

    async fn delete(&self, project: &str, name: &str) -> Result<Response> {
        let existed = match self.with_source(AnySource::delete) {
            Ok(Ok(existed)) => existed,
            Ok(Err(error)) => return internal_error(error),
            Err(error) => return internal_error(error),
        };
        self.arm(None).await?;
        let change = DirectoryChange::Unregister { name: name.to_owned() };
        if let Some(refused) = self.tell_directory(project, &change).await? {
            return Ok(refused);
        }
        // Its series leave the project's scrape (§11); a retried DELETE repairs.
        let gone = SourceReport::Gone { name: name.to_owned() };
        if !self.tell_project(project, &gone).await {
            return responses::error(
                ErrorCode::DirectoryUnavailable,
                "the project object did not take the deletion",
            );
        }
        if existed {
            responses::from_api(ApiResponse::no_content())
        } else {
            not_found(name)
        }
    }

    /// `GET|POST /internal/sources`: the project's directory (§15).
    async fn serve_directory(&self, request: &mut Request, query: &str) -> Result<Response> {
        let method = request.method();
        let body = if method == Method::Post {
            match crate::internal::request_body::read_or_refuse(request, BodyLimit::INTERNAL).await? {
                Ok(body) => body,
                Err(refused) => return Ok(refused),
            }
        } else {
            Vec::new()
        };
        let now = platform::now_ms();
        let answer = self.with_directory(|directory| match method {
            Method::Get => directory.list(query),
            Method::Post => match serde_json::from_slice::<DirectoryChange>(&body) {
                Ok(change) => directory.apply(&change, now),
                Err(error) => Ok(ApiError::new(ErrorCode::InvalidRequest, error.to_string()).into()),
            },
            _ => Ok(ApiError::new(ErrorCode::MethodNotAllowed, "GET or POST").into()),
        });
        match answer {
            Ok(Ok(api)) => responses::from_api(api),
            Ok(Err(error)) => internal_error(error),
            Err(error) => internal_error(error),
        }
    }

    /// `PUT|GET|DELETE /internal/source`: this source (§15).
    async fn serve_source(&self, request: &mut Request, project: &str) -> Result<Response> {
        let name = request.headers().get(SOURCE_NAME_HEADER)?.unwrap_or_default();
        match request.method() {
            Method::Put => {
                match crate::internal::request_body::read_or_refuse(request, BodyLimit::SOURCE_CONFIG).await? {
                    Ok(body) => self.put(project, &name, &body).await,
                    Err(refused) => Ok(refused),
                }
            }
            Method::Delete => self.delete(project, &name).await,
            _ => match self.with_source(|source| source.status()) {
                Ok(Ok(Some(status))) => responses::from_api(ApiResponse::json(200, &status)),
                Ok(Ok(None)) => not_found(&name),
                Ok(Err(error)) => internal_error(error),
                Err(error) => internal_error(error),
            },
        }
    }

    /// One alarm run: performs the engine's effects until it says when to
    /// wake. Storage errors re-arm a retry; nothing here fails the alarm.
    async fn run(&self) -> std::result::Result<(), String> {
        let inputs = platform::inputs().map_err(|error| error.to_string())?;
        let started = self.with_source(|source| {
            let effect = source.begin_run(&inputs);
            (effect, source.run_id(), source.project_id())
        })?;
        let (mut effect, run_id, project) = started;
        let (Some(run_id), Some(project)) = (run_id, project) else {
            return self.settle(effect.map_err(|error| error.to_string())?).await;
        };
        // §12: the engine bounds its calls and appends; this guards the loop.
        for _effect in 0..MAX_SOURCE_EFFECTS_PER_RUN {
            self.print_logs();
            let next = match effect.map_err(|error| error.to_string())? {
                Effect::Call(call) => {
                    // §15: the URL rules are re-checked before every call.
                    let allow_insecure = crate::internal::deployment_env::from_env(&self.env).allow_insecure_webhooks;
                    let answer = match source::rpc::screen(&call, allow_insecure) {
                        Some(refused) => refused,
                        None => perform_rpc(&call).await,
                    };
                    self.with_source(|source| source.on_rpc(run_id, &answer, platform::now_ms()))?
                }
                Effect::Append(append) => {
                    let answer = self.perform_append(&project, &append).await;
                    self.with_source(|source| source.on_append(run_id, &answer, platform::now_ms()))?
                }
                done => return self.settle(done).await,
            };
            effect = next;
        }
        self.print_logs();
        Err("an alarm run performed too many effects".to_owned())
    }

    async fn settle(&self, effect: Effect) -> std::result::Result<(), String> {
        self.print_logs();
        // A report still due (spaced, or retried) keeps the alarm set.
        let report_due = self.report_progress().await;
        let armed = match effect {
            Effect::Sleep { at_ms } => self.arm(Some(report_due.map_or(at_ms, |due| due.min(at_ms)))).await,
            Effect::Stop => self.arm(report_due).await,
            // Superseded by a PUT or DELETE, which armed (or cleared) the alarm itself.
            Effect::Abandoned | Effect::Call(_) | Effect::Append(_) => Ok(()),
        };
        armed.map_err(|error| error.to_string())
    }

    /// Tells the project a source's progress or deletion (§11); whether it
    /// took it.
    async fn tell_project(&self, project: &str, report: &SourceReport) -> bool {
        let sent = async {
            let body = serde_json::to_string(report).unwrap_or_default();
            let call = ObjectCall {
                method: Method::Post,
                headers: &[(PROJECT_HEADER, project)],
                body: Some(CallBody::Text(&body)),
            };
            let stub = crate::internal::bindings::project_stub(&self.env, project)?;
            object_call::ask(stub, &Host::Project.url(SOURCE_METRICS_ROUTE), call).await
        };
        matches!(within(SEND_TIMEOUT_MS, sent).await, Some(Ok(answer)) if answer.status < 300)
    }

    /// After a run: the source's progress to its project when it changed,
    /// at most once per interval (§11). Returns when a report is next due.
    async fn report_progress(&self) -> Option<i64> {
        let (status, project) = self.with_source(|source| (source.status(), source.project_id())).ok()?;
        let (Ok(Some(status)), Some(project)) = (status, project) else {
            return None;
        };
        let snapshot = SourceSnapshot::of_status(&status)?;
        let fingerprint = snapshot.fingerprint();
        let mut clock = self.metrics_report.get();
        clock.touched();
        let decision = clock.decide(fingerprint, platform::now_ms());
        self.metrics_report.set(clock);
        if decision == ReportDecision::Send {
            let took = self.tell_project(&project, &SourceReport::Progress { snapshot }).await;
            let mut clock = self.metrics_report.get();
            if took {
                clock.acknowledged(fingerprint);
            } else {
                clock.failed(platform::now_ms());
            }
            self.metrics_report.set(clock);
        }
        self.metrics_report.get().due_at()
    }

    fn print_logs(&self) {
        let lines = self.with_source(AnySource::take_logs).unwrap_or_default();
        for line in lines {
            worker::console_log!("{line}");
        }
    }

    async fn perform_append(&self, project: &str, append: &AppendCall) -> AppendAnswer {
        let exchange = async {
            // Append only into the lifetime the window's offsets belong to,
            // and hear which one the append committed to (§15).
            let expected = source::lifetime::if_stream_id(append.expect_stream_id.as_deref());
            let headers = [
                (PROJECT_HEADER, project),
                ("content-type", "application/json"),
                (source::lifetime::IF_STREAM_ID_HEADER, expected),
            ];
            let call = ObjectCall {
                method: Method::Post,
                headers: &headers,
                body: Some(CallBody::Text(&append.body)),
            };
            let stream = stream_stub(&self.env, project, &append.stream)?;
            let answer = object_call::ask(stream, &Host::Stream.url(&append_url(&append.stream)), call).await?;
            let stream_id = answer.headers.get(source::lifetime::STREAM_ID_HEADER)?;
            Ok::<_, worker::Error>(AppendAnswer::Response {
                status: answer.status,
                body: answer.body,
                stream_id,
            })
        };
        match within(SEND_TIMEOUT_MS, exchange).await {
            Some(Ok(answer)) => answer,
            Some(Err(error)) => AppendAnswer::Failed(error.to_string()),
            None => AppendAnswer::Failed(format!("timed out after {SEND_TIMEOUT_MS} ms")),
        }
    }
}

fn not_found(name: &str) -> Result<Response> {
    let mut error = ApiError::new(ErrorCode::SourceNotFound, format!("no source named '{name}'"));
    error
        .body
        .error
        .details
        .insert("name".to_owned(), serde_json::json!(name));
    responses::from_api(error.into())
}

/// One JSON-RPC exchange, headers and body within the call's deadline; a
/// body past the cap (§12) is not read.
async fn perform_rpc(call: &RpcCall) -> RpcAnswer {
    let mut init = RequestInit::new();
    let headers = Headers::new();
    if headers.set("content-type", "application/json").is_err() {
        return RpcAnswer::Network("could not build headers".to_owned());
    }
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(call.body.clone().into()))
        .with_redirect(worker::RequestRedirect::Manual);
    let request = match Request::new_with_init(&call.url, &init) {
        Ok(request) => request,
        Err(error) => return RpcAnswer::Network(format!("invalid request: {error}")),
    };
    let controller = worker::AbortController::default();
    let signal = controller.signal();
    let exchange = async {
        let mut response = match worker::Fetch::Request(request).send_with_signal(&signal).await {
            Ok(response) => response,
            Err(error) => return RpcAnswer::Network(error.to_string()),
        };
        let status = response.status_code();
        let retry_after = response.headers().get("retry-after").ok().flatten();
        match read_capped(&mut response, MAX_SOURCE_RPC_RESPONSE_BYTES).await {
            Some(body) => RpcAnswer::Response {
                status,
                retry_after,
                body,
            },
            None => RpcAnswer::TooLarge,
        }
    };
    let answer = within(call.timeout_ms, exchange).await;
    controller.abort();
    answer.unwrap_or(RpcAnswer::Timeout)
}

/// The whole body if it fits in `cap` bytes, else `None` (the rest unread).
async fn read_capped(response: &mut Response, cap: usize) -> Option<Vec<u8>> {
    let Ok(mut stream) = response.stream() else {
        return Some(Vec::new());
    };
    let mut body = Vec::new();
    // Each chunk is at least one byte, so at most `cap + 1` iterations.
    for _chunk in 0..=cap {
        match stream.next().await {
            Some(Ok(chunk)) => {
                if body.len() + chunk.len() > cap {
                    return None;
                }
                body.extend_from_slice(&chunk);
            }
            Some(Err(_)) | None => break,
        }
    }
    Some(body)
}

impl DurableObject for SourceObject {
    fn new(state: State, env: Env) -> Self {
        SourceObject {
            sql: ObjectSql::of(&state),
            state,
            env,
            source: RefCell::new(None),
            directory: RefCell::new(None),
            metrics_report: Cell::new(ReportClock::default()),
        }
    }

    async fn fetch(&self, mut request: Request) -> Result<Response> {
        let Some(project) = request.headers().get(PROJECT_HEADER)? else {
            return responses::error(ErrorCode::Forbidden, "requests must come through the Tributary router");
        };
        let url = crate::internal::incoming::target_of(&request)?;
        match internal::source_object(url.path()) {
            Ok(SourceObjectRoute::Directory) => self.serve_directory(&mut request, url.query().unwrap_or("")).await,
            Ok(SourceObjectRoute::Source) => self.serve_source(&mut request, &project).await,
            Err(error) => responses::api_error(error),
        }
    }

    async fn alarm(&self) -> Result<Response> {
        if let Err(error) = self.run().await {
            let retry_at = platform::now_ms() + ALARM_RETRY_MS;
            let armed = self.arm(Some(retry_at)).await.is_ok();
            worker::console_error!(
                "{}",
                serde_json::json!({"event": "source_alarm_failed", "error": error, "retryAt": retry_at, "armed": armed})
            );
        }
        Response::ok("")
    }
}
