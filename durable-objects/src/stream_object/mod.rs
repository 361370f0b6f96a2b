//! The stream Durable Object (docs/design.md §3, §6, §7): one per `(projectId,
//! path)`, holding the engine's `Stream` over its own SQLite storage. Its one
//! alarm drives delivery; its internal copy route receives copies.
//!
//! Its parts: [`delivery`] (the alarm performing the engine's delivery
//! turn, dead-letter replays), [`live`] (SSE, WebSocket and long-poll
//! transports), [`processors`] (the processor state view).

pub mod delivery;
mod export;
mod fork_calls;
pub mod forks;
pub mod inherited;
pub mod live;
pub mod processors;
pub mod protocol;

use crate::internal::answers::Answer;
use crate::internal::incoming::Incoming;
use crate::internal::responses;
use crate::platform::sql_driver::{DoSql, ObjectSql};
use std::cell::{Cell, RefCell};
use tributary::api::{ApiRequest, ApiResponse};
use tributary::error::{ApiError, ErrorCode};
use tributary::path::StreamPath;
use tributary::route::internal::{self, StreamObjectRoute, PATH_HEADER, PROJECT_HEADER, TOKEN_PREFIX_HEADER};
use tributary::route::{Action, BodyLimit, Route};
use tributary::stream::Stream;
use wasm_bindgen::prelude::wasm_bindgen;
use worker::{Env, Request, Response, Result, State};

/// The class the platform instantiates; its methods as the platform calls
/// them are in [`export`].
#[wasm_bindgen]
pub struct StreamObject {
    state: State,
    /// Its storage, which every driver it opens shares.
    sql: ObjectSql,
    env: Env,
    stream: RefCell<Option<Stream<DoSql>>>,
    /// The alarm time this object last set (avoids rewriting the same alarm).
    scheduled_alarm: Cell<Option<i64>>,
    /// Whether this instance has checked for due work since it started: an
    /// object restarted after a crash re-arms its alarm on its first request.
    alarm_checked: Cell<bool>,
    /// Live connections' transports (§10).
    live: live::LiveShell,
    /// Open Durable Streams SSE responses (§17).
    protocol_sse: protocol::ProtocolSse,
    /// When a failed catalog registration is retried (§14); `None` when due
    /// now (or nothing is due).
    catalog_retry_at: Cell<Option<i64>>,
    /// When the metrics snapshot is next reported to the project (§11).
    metrics_report: Cell<tributary::project_metrics::ReportClock>,
    /// The `METRICS` Analytics Engine dataset, when the deployment binds one (§11).
    analytics: Option<worker::AnalyticsEngineDataset>,
    /// The project's secrets this object's webhooks resolved, by version
    /// (§9): in memory only, never in the stream's SQLite.
    secrets: RefCell<tributary::secrets::SecretCache>,
}

impl StreamObject {
    /// Runs `body` on the stream, opening it first (creating nothing).
    fn with_stream<T>(
        &self,
        project: &str,
        path: &StreamPath,
        body: impl FnOnce(&mut Stream<DoSql>) -> T,
    ) -> std::result::Result<T, String> {
        self.open_stream(project, path)?;
        let mut slot = self.stream.borrow_mut();
        let Some(stream) = slot.as_mut() else {
            return Err("stream not open".to_owned());
        };
        Ok(body(stream))
    }

    /// Opens the stream if this instance has not yet, and takes back the
    /// WebSockets a previous instance accepted (§10 hibernation).
    pub(crate) fn open_stream(&self, project: &str, path: &StreamPath) -> std::result::Result<(), String> {
        self.open_stream_slot(project, path)?;
        self.live.restore(self);
        // An expired stream is deleted at its next request (§17 "Expiry").
        let expired = {
            let mut slot = self.stream.borrow_mut();
            slot.as_mut()
                .map(|stream| stream.expire_if_due(crate::platform::now_ms()))
                .transpose()
                .map_err(|error| error.to_string())?
                .unwrap_or(false)
        };
        if expired {
            self.live.close_all(self);
            self.protocol_sse.end_all();
        }
        Ok(())
    }

    fn open_stream_slot(&self, project: &str, path: &StreamPath) -> std::result::Result<(), String> {
        let mut slot = self.stream.borrow_mut();
        if slot.is_none() {
            let mut stream =
                Stream::open(self.sql.driver(), project, path.clone()).map_err(|error| error.to_string())?;
            stream.set_deployment(crate::internal::deployment_env::from_env(&self.env));
            *slot = Some(stream);
        }
        Ok(())
    }

    /// `GET /-/events?waitMs=W` (§10 long-poll): answers as soon as an event
    /// after `after` exists, else an empty page when the wait ends. `None`
    /// when the request has no `waitMs` (an ordinary range read).
    async fn long_poll(&self, project: &str, path: &StreamPath, query: &str) -> Result<Option<Response>> {
        let (rest, wait_ms) = match tributary::live::split_wait(query) {
            Ok((_, None)) => return Ok(None),
            Ok((rest, Some(wait_ms))) => (rest, wait_ms),
            Err(error) => return responses::from_api(ApiError::from(error).into()).map(Some),
        };
        let range = match tributary::stream::RangeQuery::parse(&rest) {
            Ok(range) => range,
            Err(error) => return responses::from_api(ApiError::from(error).into()).map(Some),
        };
        if let Err(error) = self.open_stream(project, path) {
            return responses::error(ErrorCode::Internal, &error).map(Some);
        }
        let deadline = crate::platform::now_ms() + i64::try_from(wait_ms).unwrap_or(0);
        // Each wait ends at a commit or the deadline; a commit that brings
        // nothing this read shows (an ephemeral event) waits again.
        for _wake in 0..tributary::limits::MAX_LONG_POLL_WAKES {
            let read = {
                let slot = self.stream.borrow();
                slot.as_ref().map(|stream| stream.read_range_json(&range))
            };
            let page = match read {
                Some(Ok(page)) => page,
                Some(Err(error)) => return responses::from_api(ApiError::from(error).into()).map(Some),
                None => return responses::error(ErrorCode::Internal, "stream not open").map(Some),
            };
            let remaining = deadline - crate::platform::now_ms();
            if page.count > 0 || remaining <= 0 {
                return responses::from_api(tributary::api::ApiResponse::json_text(200, page.body)).map(Some);
            }
            if let Err(error) = self
                .live
                .wait_for_commit(self, u64::try_from(remaining).unwrap_or(0))
                .await
            {
                return responses::from_api(ApiError::from(error).into()).map(Some);
            }
        }
        responses::error(ErrorCode::Internal, "long-poll woke too often").map(Some)
    }

    /// Sets the one alarm to the earliest due delivery (§6 rule 1). A
    /// storage error computing it is an error, never "nothing due".
    pub(crate) async fn schedule_alarm(&self) -> Result<()> {
        self.alarm_checked.set(true);
        let due = {
            let slot = self.stream.borrow();
            match slot.as_ref() {
                Some(stream) => {
                    let delivery = stream
                        .next_due_at()
                        .map_err(|error| worker::Error::RustError(error.to_string()))?;
                    let catalog = stream
                        .catalog_due()
                        .map_err(|error| worker::Error::RustError(error.to_string()))?
                        .map(|_| self.catalog_retry_at.get().unwrap_or(i64::MIN));
                    // A live catch-up waiting for a turn is due now (§10).
                    let live = self.live.wants_turn().then_some(i64::MIN);
                    // A report of a lifetime's changed metrics (§11).
                    let metrics = stream.lifetime().and_then(|_| self.metrics_report.get().due_at());
                    // An expiring stream is deleted by its alarm (§17).
                    let expiry = stream
                        .expiry_due_at()
                        .map_err(|error| worker::Error::RustError(error.to_string()))?;
                    delivery
                        .into_iter()
                        .chain(catalog)
                        .chain(live)
                        .chain(metrics)
                        .chain(expiry)
                        .min()
                }
                None => None,
            }
        };
        let now = crate::platform::now_ms();
        match due {
            Some(due) => {
                let at = due.max(now);
                if self
                    .scheduled_alarm
                    .get()
                    .is_none_or(|scheduled| at < scheduled || scheduled < now)
                {
                    self.state
                        .storage()
                        .set_alarm(worker::ScheduledTime::new(js_sys::Date::new(&(at as f64).into())))
                        .await?;
                    self.scheduled_alarm.set(Some(at));
                }
            }
            None => self.scheduled_alarm.set(None),
        }
        Ok(())
    }
}

/// What the platform's calls do ([`export`] hands each on).
impl StreamObject {
    fn create(state: State, env: Env) -> Self {
        StreamObject {
            sql: ObjectSql::of(&state),
            state,
            stream: RefCell::new(None),
            scheduled_alarm: Cell::new(None),
            alarm_checked: Cell::new(false),
            live: live::LiveShell::default(),
            protocol_sse: protocol::ProtocolSse::default(),
            catalog_retry_at: Cell::new(None),
            metrics_report: Cell::new(tributary::project_metrics::ReportClock::default()),
            // Looked up once: a deployment's bindings do not change under a running object.
            analytics: env.analytics_engine(crate::senders::analytics::METRICS_BINDING).ok(),
            secrets: RefCell::new(tributary::secrets::SecretCache::default()),
            env,
        }
    }

    async fn answer(&self, mut request: Incoming) -> Result<Answer> {
        let Some(project) = request.headers().get(PROJECT_HEADER)? else {
            return responses::error(ErrorCode::Forbidden, "requests must come through the Tributary router")
                .map(Answer::from);
        };
        let url = request.target()?;
        match internal::stream_object(request.method().as_ref(), url.path()) {
            Ok(StreamObjectRoute::Copy) => self.receive_copy(&mut request, &project).await,
            Ok(StreamObjectRoute::Public(route)) => {
                let answer = self.serve(request, &project, &url, route).await;
                forks::after_request(self).await?;
                answer
            }
            Ok(StreamObjectRoute::Protocol { path, method }) => {
                let query = url.query().unwrap_or("").to_owned();
                let answer = protocol::serve(self, &mut request, &project, &path, method, &query).await;
                forks::after_request(self).await?;
                answer
            }
            Ok(StreamObjectRoute::Fork(call)) => forks::serve(self, &mut request.into_request(), &project, call)
                .await
                .map(Answer::from),
            Err(error) => responses::api_error(error).map(Answer::from),
        }
    }

    async fn on_socket_message(&self, ws: worker::WebSocket, text: String) -> Result<()> {
        if self.open_for_socket(&ws) {
            self.live.on_message(self, &ws, &text);
            if self.live.wants_turn() {
                self.schedule_alarm().await?;
            }
        }
        Ok(())
    }

    async fn on_socket_close(&self, ws: worker::WebSocket, code: usize) -> Result<()> {
        if self.open_for_socket(&ws) {
            self.live.on_closed(self, &ws);
            self.touch_metrics();
        }
        // Completes the closing handshake; the socket may already be closed.
        let code = u16::try_from(code)
            .ok()
            .filter(|code| (1000..5000).contains(code) && *code != 1005 && *code != 1006);
        let _ = ws.close(code.or(Some(1000)), Some("closed"));
        Ok(())
    }

    async fn on_socket_error(&self, ws: worker::WebSocket) -> Result<()> {
        if self.open_for_socket(&ws) {
            self.live.on_closed(self, &ws);
        }
        Ok(())
    }

    async fn on_alarm(&self) {
        self.scheduled_alarm.set(None);
        // Releases a deleted fork still owes its source (§18), retried here.
        if let Err(error) = forks::send_releases(self).await {
            worker::console_error!(
                "{}",
                serde_json::json!({"event": "fork_release_failed", "error": error.to_string()})
            );
        }
        self.expire_on_alarm();
        self.live.on_alarm(self);
        let ran = delivery::run(self).await;
        // A fresh instance opened the stream in the run.
        self.expire_on_alarm();
        // What the turn committed without a completion (planning) reaches
        // live readers too (§10).
        self.live.fan_out(self);
        if let Err(error) = &ran {
            worker::console_error!(
                "{}",
                serde_json::json!({"event": "alarm_failed", "error": error.to_string()})
            );
        }
        // Whatever happened, the next due work gets an alarm: never lose one
        // (§6 rule 1). A failed turn (storage error, failed open) or a failed
        // computation of the next due time re-arms a retry. The handler
        // itself never fails: a Durable Object alarm is retried only a few times.
        let rearmed = match ran {
            Ok(()) => self.schedule_alarm().await,
            Err(error) => Err(error),
        };
        if let Err(error) = rearmed {
            let retry_at = crate::platform::now_ms() + tributary::limits::ALARM_RETRY_MS;
            let set = self
                .state
                .storage()
                .set_alarm(worker::ScheduledTime::new(js_sys::Date::new(&(retry_at as f64).into())))
                .await;
            if set.is_ok() {
                self.scheduled_alarm.set(Some(retry_at));
            }
            worker::console_error!(
                "{}",
                serde_json::json!({"event": "alarm_retry_armed", "error": error.to_string(), "retryAt": retry_at, "armed": set.is_ok()})
            );
        }
    }
}

/// The request handlers `fetch` dispatches to (one per typed route).
impl StreamObject {
    /// A forwarded stream route (§3): the shell's own routes here, the rest
    /// through the engine.
    async fn serve(
        &self,
        mut request: Incoming,
        project: &str,
        url: &tributary::route::Target,
        route: Route,
    ) -> Result<Answer> {
        let query = url.query().unwrap_or("");
        let shell = match &route.action {
            Action::ReplayDeadLetter(id) => {
                let prefix = request.headers().get(TOKEN_PREFIX_HEADER)?;
                self.replay(project, &route.path, *id, prefix.as_deref()).await
            }
            Action::Live => {
                self.open_live(&request.into_request(), project, &route.path, query)
                    .await
            }
            Action::ProcessorState(name) => self.processor_state(project, &route.path, name).await,
            Action::Fork => return protocol::native_fork(self, &mut request, project, &route.path).await,
            Action::ReadOne(offset) => match inherited::read_one(self, project, &route.path, *offset).await? {
                Some(response) => Ok(response),
                None => return self.serve_engine(&mut request, project, query, route).await,
            },
            Action::ReadRange => {
                if let Some(response) = inherited::read_range(self, project, &route.path, query).await? {
                    return Ok(response.into());
                }
                match self.long_poll(project, &route.path, query).await? {
                    Some(response) => Ok(response),
                    None => return self.serve_engine(&mut request, project, query, route).await,
                }
            }
            _ => return self.serve_engine(&mut request, project, query, route).await,
        };
        shell.map(Answer::from)
    }

    /// `POST /internal/copy` (§7): the receiving side of a copy.
    async fn receive_copy(&self, request: &mut Incoming, project: &str) -> Result<Answer> {
        let inputs = crate::platform::inputs()?;
        let raw_path = request.headers().get(PATH_HEADER)?.unwrap_or_default();
        let Ok(path) = StreamPath::parse(&raw_path) else {
            return responses::error(ErrorCode::InvalidPath, "copy route needs a valid stream path").map(Answer::from);
        };
        let body = match crate::internal::request_body::read_or_refuse(request, BodyLimit::INTERNAL).await? {
            Ok(body) => body,
            Err(refused) => return Ok(refused.into()),
        };
        let answer = self.with_stream(project, &path, |stream| match stream.accept_copy_body(&body, &inputs) {
            Ok(accepted) => {
                if accepted.dropped > 0 {
                    worker::console_log!(
                        "{}",
                        serde_json::json!({"event": "copies_dropped", "path": path.as_str(), "count": accepted.dropped})
                    );
                }
                ApiResponse::json(200, &accepted.answer())
            }
            Err(error) => {
                let error = ApiError::from(error);
                if error.code() == ErrorCode::StaleStamp.as_str() {
                    worker::console_log!(
                        "{}",
                        serde_json::json!({"event": "fence_rejected", "path": path.as_str(), "error": error.body.error.message})
                    );
                }
                error.into()
            }
        });
        let api = answer.unwrap_or_else(|error| ApiError::new(ErrorCode::Internal, error).into());
        self.live.fan_out(self);
        self.touch_metrics();
        self.schedule_alarm().await?;
        responses::answer(api, None)
    }

    /// `POST .../-/dead-letters/{id}/replay` (§8).
    async fn replay(&self, project: &str, path: &StreamPath, id: u64, prefix: Option<&str>) -> Result<Response> {
        if let Err(error) = self.open_stream(project, path) {
            return responses::error(ErrorCode::Internal, &error);
        }
        let api = delivery::replay(self, id, prefix).await?;
        self.touch_metrics();
        self.schedule_alarm().await?;
        responses::from_api(api)
    }

    /// `GET .../-/live` (§10): SSE or a WebSocket.
    async fn open_live(&self, request: &Request, project: &str, path: &StreamPath, query: &str) -> Result<Response> {
        if let Err(error) = self.open_stream(project, path) {
            return responses::error(ErrorCode::Internal, &error);
        }
        let response = self.live.open(self, request, query).await?;
        self.touch_metrics();
        self.schedule_alarm().await?;
        Ok(response)
    }

    /// `GET .../-/processors/{name}` (§9).
    async fn processor_state(&self, project: &str, path: &StreamPath, name: &str) -> Result<Response> {
        if let Err(error) = self.open_stream(project, path) {
            return responses::error(ErrorCode::Internal, &error);
        }
        let api = processors::state(self, project, name).await?;
        responses::from_api(api)
    }

    /// The routes the engine answers (`Stream::handle`), then what follows
    /// them here: live fan-out, the alarm, a source's lifetime header (§15).
    async fn serve_engine(&self, request: &mut Incoming, project: &str, query: &str, route: Route) -> Result<Answer> {
        let inputs = crate::platform::inputs()?;
        let body = if route.action == Action::Append {
            match crate::internal::request_body::read_or_refuse(request, BodyLimit::APPEND).await? {
                Ok(body) => body,
                Err(refused) => return Ok(refused.into()),
            }
        } else {
            Vec::new()
        };
        if route.action == Action::Subscriptions || route.action == Action::Metrics {
            self.live.prune(self);
        }
        // A source's append names the target lifetime it expects, and hears
        // which one it committed to (§15): checked in the same turn as the append.
        let expected = match route.action {
            Action::Append => request
                .headers()
                .get(tributary::source::lifetime::IF_STREAM_ID_HEADER)?,
            _ => None,
        };
        let token_prefix = request.headers().get(TOKEN_PREFIX_HEADER)?;
        let answer = self.with_stream(project, &route.path, |stream| {
            let current = || stream.lifetime().map(|meta| meta.stream_id.clone());
            if let Some(refusal) = tributary::source::lifetime::refusal(expected.as_deref(), current().as_deref()) {
                return (ApiResponse::from(refusal), None);
            }
            let request = ApiRequest {
                action: &route.action,
                query,
                body: &body,
                token_prefix: token_prefix.as_deref(),
            };
            let response = stream.handle(&request, &inputs);
            // Only a caller that named a lifetime hears it (a source, §15).
            let appended_to = (expected.is_some() && response.status < 300)
                .then(|| stream.lifetime().map(|meta| meta.stream_id.clone()))
                .flatten();
            (response, appended_to)
        });
        let (api, appended_to) =
            answer.unwrap_or_else(|error| (ApiError::new(ErrorCode::Internal, error).into(), None));
        self.live.fan_out(self);
        self.after_engine(&route.action, api.status).await?;
        let lifetime = appended_to
            .as_deref()
            .map(|stream_id| (tributary::source::lifetime::STREAM_ID_HEADER, stream_id));
        responses::answer(api, lifetime)
    }

    /// The alarm after an engine route: an append has work to deliver; a
    /// destroy closes live connections and leaves only the catalog's notice.
    async fn after_engine(&self, action: &Action, status: u16) -> Result<()> {
        // What a report shows changed (§11): the alarm reports it.
        if status < 300 && matches!(action, Action::DiscardDeadLetter(_) | Action::DiscardDeadLetters) {
            self.touch_metrics();
            return self.schedule_alarm().await;
        }
        if status < 300 && *action == Action::Append {
            self.touch_metrics();
        }
        match action {
            Action::Append if status < 300 => self.schedule_alarm().await,
            Action::Destroy if status < 300 => {
                self.live.close_all(self);
                // Nothing is left to deliver; the catalog still hears of it.
                self.scheduled_alarm.set(None);
                self.schedule_alarm().await
            }
            _ if !self.alarm_checked.get() => self.schedule_alarm().await,
            _ => Ok(()),
        }
    }
}

impl StreamObject {
    pub(crate) fn state(&self) -> &State {
        &self.state
    }
    pub(crate) fn sql(&self) -> &ObjectSql {
        &self.sql
    }
    pub(crate) fn env(&self) -> &Env {
        &self.env
    }
    pub(crate) fn stream_slot(&self) -> &RefCell<Option<Stream<DoSql>>> {
        &self.stream
    }
    pub(crate) fn protocol_sse(&self) -> &protocol::ProtocolSse {
        &self.protocol_sse
    }

    /// Deletes an expired stream (§17), as `DELETE` would; the catalog
    /// hears of it through the ordinary alarm work that follows.
    fn expire_on_alarm(&self) {
        let deleted = {
            let mut slot = self.stream.borrow_mut();
            let now = crate::platform::now_ms();
            matches!(
                slot.as_mut().map(|stream| stream.expiry_on_alarm(now)),
                Some(Ok(tributary::durable_streams::expiry::ExpiryAlarm::Delete))
            )
        };
        if deleted {
            self.live.close_all(self);
            self.protocol_sse.end_all();
        }
    }

    pub(crate) fn live(&self) -> &live::LiveShell {
        &self.live
    }
    pub(crate) fn catalog_retry_at(&self) -> &Cell<Option<i64>> {
        &self.catalog_retry_at
    }
    pub(crate) fn metrics_report(&self) -> &Cell<tributary::project_metrics::ReportClock> {
        &self.metrics_report
    }
    pub(crate) fn secrets(&self) -> &RefCell<tributary::secrets::SecretCache> {
        &self.secrets
    }

    /// Something the metrics report shows may have changed (§11).
    pub(crate) fn touch_metrics(&self) {
        let mut clock = self.metrics_report.get();
        clock.touched();
        self.metrics_report.set(clock);
    }

    /// A completion's data point to the `METRICS` Analytics Engine dataset,
    /// when the deployment binds one (§11).
    /// Returns the lines it logged (a failed write), for the alarm's log
    /// budget (§12).
    pub(crate) fn write_analytics(
        &self,
        plan: &tributary::delivery::DeliveryPlan,
        completion: &tributary::delivery::Completion,
        now_ms: i64,
    ) -> Vec<String> {
        let Some(dataset) = &self.analytics else {
            return Vec::new();
        };
        let project = match self.stream.borrow().as_ref() {
            Some(stream) => stream.project_id().to_owned(),
            None => return Vec::new(),
        };
        let mut sink = crate::senders::analytics::Dataset {
            dataset,
            logged: Vec::new(),
        };
        tributary::project_metrics::analytics::record_delivery(&mut sink, &project, plan, completion, now_ms);
        sink.logged
    }

    /// Opens the stream a WebSocket belongs to (the object may have been
    /// woken by the socket itself, with no request to name the stream).
    pub(crate) fn open_for_socket(&self, socket: &worker::WebSocket) -> bool {
        if self.stream.borrow().is_some() && self.live.is_restored() {
            return true;
        }
        let Ok(Some(connection)) = socket.deserialize_attachment::<tributary::live::Connection>() else {
            return false;
        };
        let Ok(path) = StreamPath::parse(&connection.path) else {
            return false;
        };
        self.open_stream(&connection.project_id, &path).is_ok()
    }
}
