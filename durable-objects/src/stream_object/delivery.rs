//! The alarm's delivery loop (docs/design.md §6): ask the engine what is due,
//! send it, hand back each outcome as soon as it arrives. The engine decides
//! everything; this file only performs the sends. No borrow of the stream is
//! held across an await.
//!
//! Subscriptions are independent (§6 rules 9, 10): each has at most one send
//! in flight, and the moment one completes its next batch is planned, so a
//! slow or hung receiver (bounded by its own deadline) never holds back
//! another subscription. Requests arrive between plan and completion; the
//! engine treats a completion from an older run as stale.

use super::inherited::Fetched;
use super::StreamObject;
use crate::internal::object_call::{self, CallBody, ObjectCall};
use crate::platform;
use crate::platform::sql_driver::DoSql;
use crate::platform::timers::within;
use crate::senders::{at_once, send, Sender};
use futures_util::stream::{FuturesUnordered, StreamExt};
use futures_util::FutureExt;
use std::future::Future;
use std::pin::Pin;
use tributary::delivery::{replay_answer, Completion, DeliveryPlan, Outcome, Replay, ReplayNext, Turn};
use tributary::limits::{MAX_INHERITED_FETCHES_PER_TURN, MAX_RETRY_ATTEMPTS, MAX_TURN_ROUNDS};
use tributary::project_metrics::ReportDecision;
use tributary::route::internal::{Host, CATALOG_CHANGE_ROUTE, METRICS_REPORT_ROUTE, PROJECT_HEADER};
use tributary::stream::Stream;
use tributary::subscription::Receiver;
use worker::Result;

fn storage_error(error: impl std::fmt::Display) -> worker::Error {
    worker::Error::RustError(error.to_string())
}

type Sending<'a> = Pin<Box<dyn Future<Output = (DeliveryPlan, Outcome)> + 'a>>;

/// Opens the stream for an alarm (which arrives without a request). `false`
/// when no stream exists here.
fn open(object: &StreamObject) -> Result<bool> {
    let mut slot = object.stream_slot().borrow_mut();
    if slot.is_some() {
        return Ok(true);
    }
    let opened = match Stream::open_existing(object.sql().driver()).map_err(storage_error)? {
        Some(stream) => Some(stream),
        // Destroyed, but the catalog may still list it (§14).
        None => tributary::catalog::open_registered(object.sql().driver()).map_err(storage_error)?,
    };
    match opened {
        Some(mut stream) => {
            stream.set_deployment(crate::internal::deployment_env::from_env(object.env()));
            *slot = Some(stream);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// Posts `body` to the project object's `route` under the send deadline;
/// `None` when it timed out.
async fn post_to_project(
    object: &StreamObject,
    project: &str,
    route: &str,
    body: String,
) -> Option<Result<worker::Response>> {
    let stub = match crate::internal::bindings::project_stub(object.env(), project) {
        Ok(stub) => stub,
        Err(error) => return Some(Err(error)),
    };
    let call = ObjectCall {
        method: worker::Method::Post,
        headers: &[(PROJECT_HEADER, project)],
        body: Some(CallBody::Text(&body)),
    };
    within(
        tributary::limits::SEND_TIMEOUT_MS,
        object_call::fetch(stub, &Host::Project.url(route), call),
    )
    .await
}

/// Why a post to the project failed, for the log; `None` when it succeeded.
fn project_failure(answer: &Option<Result<worker::Response>>) -> Option<String> {
    match answer {
        Some(Ok(response)) if response.status_code() < 300 => None,
        Some(Ok(response)) => Some(format!("project object answered {}", response.status_code())),
        Some(Err(error)) => Some(error.to_string()),
        None => Some("timed out".to_owned()),
    }
}

/// Tells the project's catalog about this stream's lifetime until it
/// acknowledges (§14, at least once). A failure is retried by the alarm.
pub async fn sync_catalog(object: &StreamObject) -> Result<()> {
    let (change, project) = {
        let slot = object.stream_slot().borrow();
        let Some(stream) = slot.as_ref() else {
            return Ok(());
        };
        match stream.catalog_due().map_err(storage_error)? {
            Some(change) => (change, stream.project_id().to_owned()),
            None => return Ok(()),
        }
    };
    let body = serde_json::to_string(&change).map_err(storage_error)?;
    let answer = post_to_project(object, &project, CATALOG_CHANGE_ROUTE, body).await;
    match project_failure(&answer) {
        None => {
            let slot = object.stream_slot().borrow();
            if let Some(stream) = slot.as_ref() {
                stream.catalog_acknowledged(&change).map_err(storage_error)?;
            }
            object.catalog_retry_at().set(None);
        }
        Some(reason) => {
            object
                .catalog_retry_at()
                .set(Some(platform::now_ms() + tributary::limits::ALARM_RETRY_MS));
            worker::console_log!(
                "{}",
                serde_json::json!({"event": "catalog_sync_failed", "project": project, "error": reason})
            );
        }
    }
    Ok(())
}

/// Sends the stream's metrics snapshot to its project when the report
/// clock says it is due and the values changed (§11); after the catalog
/// registration, which the project checks it against. A failure is retried.
pub async fn report_metrics(object: &StreamObject) -> Result<()> {
    let now = platform::now_ms();
    // Most alarms have no report to make: ask the clock before reading a snapshot.
    if !object.metrics_report().get().is_due(now) {
        return Ok(());
    }
    let (snapshot, project) = {
        let slot = object.stream_slot().borrow();
        let Some(stream) = slot.as_ref() else {
            return Ok(());
        };
        if stream.catalog_due().map_err(storage_error)?.is_some() {
            return Ok(());
        }
        match stream.metrics_snapshot().map_err(storage_error)? {
            Some(snapshot) => (snapshot, stream.project_id().to_owned()),
            None => return Ok(()),
        }
    };
    let fingerprint = snapshot.fingerprint();
    let mut clock = object.metrics_report().get();
    let decision = clock.decide(fingerprint, now);
    object.metrics_report().set(clock);
    if decision != ReportDecision::Send {
        return Ok(());
    }
    let answer = post_to_project(object, &project, METRICS_REPORT_ROUTE, snapshot.encode()).await;
    let failure = project_failure(&answer);
    let mut clock = object.metrics_report().get();
    match &failure {
        None => clock.acknowledged(fingerprint),
        Some(_) => clock.failed(platform::now_ms()),
    }
    object.metrics_report().set(clock);
    if let Some(reason) = failure {
        worker::console_log!(
            "{}",
            serde_json::json!({"event": "metrics_report_failed", "project": project, "error": reason})
        );
    }
    Ok(())
}

/// One planned send with what the sender needs from the stream.
struct Planned {
    plan: DeliveryPlan,
    signing_secret: Option<String>,
}

/// A webhook's signing secret (§9), read while the stream is borrowed.
fn signing_secret(stream: &Stream<DoSql>, plan: &DeliveryPlan) -> Option<String> {
    match plan.receiver {
        Receiver::WebhookPost { .. } => stream.signing_secret(&plan.subscription_key).ok(),
        _ => None,
    }
}

/// What every send of a turn shares: the project, and whether the
/// deployment relaxes the URL rules (for a URL resolved from a secret, §9).
#[derive(Clone, Default)]
struct SendContext {
    project: String,
    allow_insecure_webhooks: bool,
}

impl SendContext {
    fn of(stream: &Stream<DoSql>) -> SendContext {
        SendContext {
            project: stream.project_id().to_owned(),
            allow_insecure_webhooks: stream.deployment().allow_insecure_webhooks,
        }
    }

    fn sender<'a>(&'a self, object: &'a StreamObject, signing_secret: Option<String>) -> Sender<'a> {
        Sender {
            env: object.env(),
            project: &self.project,
            signing_secret,
            secrets: object.secrets(),
            allow_insecure_webhooks: self.allow_insecure_webhooks,
        }
    }
}

/// Plans, under the turn's rules, every due subscription that has nothing
/// in flight. Returns the plans with what their sends share.
fn plan_due(object: &StreamObject, turn: &mut Turn, now: i64) -> Result<(Vec<Planned>, SendContext)> {
    let entropy = platform::entropy().map_err(|error| storage_error(format!("{error:?}")))?;
    let mut slot = object.stream_slot().borrow_mut();
    let Some(stream) = slot.as_mut() else {
        return Ok((Vec::new(), SendContext::default()));
    };
    // Retention first (once a turn): its lines are logged, and charged to
    // the log budget, before any log batch is planned against it (§12).
    if turn.may_plan(now) {
        turn.trim(stream, now, entropy).map_err(storage_error)?;
    }
    if log_trim_steps(stream.path().as_str(), turn) {
        object.touch_metrics();
    }
    let plans = turn.plan_due(stream, now, entropy).map_err(storage_error)?;
    let planned = plans
        .into_iter()
        .map(|plan| Planned {
            signing_secret: signing_secret(stream, &plan),
            plan,
        })
        .collect();
    Ok((planned, SendContext::of(stream)))
}

/// The alarm's delivery loop: performs what the engine's [`Turn`] plans and
/// hands every outcome back as it arrives, until nothing is in flight.
pub async fn run(object: &StreamObject) -> Result<()> {
    if !open(object)? {
        return Ok(());
    }
    sync_catalog(object).await?;
    report_metrics(object).await?;
    // The platform's clock stands still while code runs and moves only
    // across I/O, so it is read once after each await and handed on.
    let mut now = platform::now_ms();
    let mut turn = Turn::begin(now);
    let mut sending: FuturesUnordered<Sending<'_>> = FuturesUnordered::new();
    let mut inherited_fetches = 0;
    // Each round takes one completion or fetches one inherited page (§12
    // budget: MAX_TURN_ROUNDS).
    for _round in 0..MAX_TURN_ROUNDS {
        let (plans, shared) = plan_due(object, &mut turn, now)?;
        for Planned { plan, signing_secret } in plans {
            let shared = shared.clone();
            // Log lines are written here, right after the turn charged them.
            let done = at_once(&plan);
            sending.push(Box::pin(async move {
                let outcome = match done {
                    Some(outcome) => outcome,
                    None => send(&shared.sender(object, signing_secret), &plan).await,
                };
                (plan, outcome)
            }));
        }
        // A fork's subscriptions below its fork point read its source's
        // pages (§18): fetch the one they wait for, then plan again.
        if inherited_fetches < MAX_INHERITED_FETCHES_PER_TURN && turn.has_subrequest() {
            match super::inherited::fetch_wanted(object).await? {
                // Most often no fetch was wanted, and nothing awaited.
                Fetched::Nothing => {}
                Fetched::Held => {
                    now = platform::now_ms();
                    inherited_fetches += 1;
                    turn.charge_subrequest();
                    continue;
                }
                Fetched::Failed(line) => {
                    inherited_fetches += 1;
                    turn.charge_subrequest();
                    turn.logged(&line);
                }
            }
        }
        let Some((plan, outcome)) = sending.next().await else {
            return Ok(());
        };
        now = platform::now_ms();
        // A macrotask boundary: requests waiting for this object run first
        // (after a count of completions: most need no I/O, §12).
        if turn.should_yield(now) {
            within(0, futures_util::future::pending::<()>()).await;
            now = platform::now_ms();
            turn.yielded(now);
        }
        complete(object, &mut turn, &plan, outcome, now)?;
        // Every other send that has already answered completes before the
        // next plan, so one planning pass serves them together (their scans
        // at the same cursor share a page, §12); at most what is in flight,
        // and never past a due yield.
        for _ready in 0..sending.len() {
            if turn.should_yield(now) {
                break;
            }
            let Some(Some((plan, outcome))) = sending.next().now_or_never() else {
                break;
            };
            complete(object, &mut turn, &plan, outcome, now)?;
        }
    }
    // Unreachable by the budget's arithmetic; were it reached, the sends
    // still out are dropped and their in-flight deadlines retry them (§6 rule 6).
    Ok(())
}

/// Retention's trim steps of this turn (§16), logged once each and charged
/// to the log budget; whether there were any.
fn log_trim_steps(path: &str, turn: &mut Turn) -> bool {
    let steps = turn.take_trim_steps();
    let trimmed = !steps.is_empty();
    for step in steps {
        let line = serde_json::json!({
            "event": if step.error.is_some() { "retention_failed" } else { "retention_trimmed" }, "path": path,
            "trimmed": step.trimmed, "throughOffset": step.through, "expired": step.expired,
            "passed": step.passed.iter().map(|pass| &pass.subscription_key).collect::<Vec<_>>(),
            "error": step.error,
        })
        .to_string();
        worker::console_log!("{line}");
        turn.logged(&line);
    }
    trimmed
}

fn complete(object: &StreamObject, turn: &mut Turn, plan: &DeliveryPlan, outcome: Outcome, now: i64) -> Result<()> {
    let entropy = platform::entropy().map_err(|error| storage_error(format!("{error:?}")))?;
    let mut slot = object.stream_slot().borrow_mut();
    let Some(stream) = slot.as_mut() else {
        return Ok(());
    };
    let completion = turn
        .complete(stream, plan, outcome.clone(), now, entropy)
        .map_err(storage_error)?;
    drop(slot);
    object.touch_metrics();
    // Every line this turn writes takes its share of the log budget (§12).
    for line in object.write_analytics(plan, &completion, now) {
        turn.logged(&line);
    }
    if let Some(line) = log(plan, &outcome, &completion) {
        turn.logged(&line);
    }
    // A halt or a dead letter appended a fact: live readers see it (§10).
    object.live().fan_out(object);
    Ok(())
}

/// Structured logs for every failure, halt, dead letter and stale result
/// (§11); returns the line written.
fn log(plan: &DeliveryPlan, outcome: &Outcome, completion: &Completion) -> Option<String> {
    let event = match (outcome, completion) {
        (_, Completion::Halted { .. }) => "delivery_halted",
        (_, Completion::Skipped { .. }) => "delivery_dead_lettered",
        (_, Completion::Stale) => "delivery_result_stale",
        (Outcome::Failed { .. }, _) => "delivery_failed",
        (Outcome::Delivered | Outcome::Checkpointed { .. }, _) => return None,
    };
    let (kind, message) = match outcome {
        Outcome::Failed { kind, message, .. } => (serde_json::json!(kind), message.as_str()),
        Outcome::Delivered | Outcome::Checkpointed { .. } => (serde_json::Value::Null, ""),
    };
    let line = serde_json::json!({
        "event": event, "path": plan.stamp.source_path, "subscriptionKey": plan.subscription_key,
        "streamId": plan.stamp.stream_id, "run": plan.stamp.cursor_changed_at_source_offset,
        "afterOffset": plan.after_offset, "throughOffset": plan.through_offset, "deliveryId": plan.delivery_id,
        "attempt": plan.attempt, "kind": kind, "error": message,
    })
    .to_string();
    worker::console_log!("{line}");
    Some(line)
}

/// `POST .../dead-letters/{id}/replay` (§8): resends one dead letter through
/// the subscription's current receiver and retry policy (attempts spaced by
/// its backoff, capped at 1 s each and 10 s in all, so the request returns).
/// Success deletes the letter (204); exhaustion updates attempts and reason.
/// A token limited to `prefix` (§2) may not replay into a copy outside it.
pub async fn replay(object: &StreamObject, id: u64, prefix: Option<&str>) -> Result<tributary::api::ApiResponse> {
    use tributary::error::{ApiError, ErrorCode};
    let now = platform::now_ms();
    let planned = {
        let slot = object.stream_slot().borrow();
        let Some(stream) = slot.as_ref() else {
            return Ok(ApiError::new(ErrorCode::StreamNotFound, "stream does not exist").into());
        };
        stream.plan_replay_within(id, now, prefix).map(|plan| {
            let secret = signing_secret(stream, &plan);
            (plan, SendContext::of(stream), secret)
        })
    };
    let (plan, shared, signing_secret) = match planned {
        Ok(planned) => planned,
        Err(error) => return Ok(ApiError::from(error).into()),
    };
    let sender = shared.sender(object, signing_secret);
    let mut replay = Replay::begin(plan, now);
    let mut last = None;
    // Replay::after ends the replay within its policy's attempts (≤ MAX_RETRY_ATTEMPTS).
    for _attempt in 0..MAX_RETRY_ATTEMPTS {
        let plan = replay.next_send(platform::now_ms());
        let outcome = match plan.prepared_failure.clone() {
            Some(failure) => failure,
            None => send(&sender, plan).await,
        };
        let entropy = platform::entropy().map_err(|error| storage_error(format!("{error:?}")))?;
        let next = replay.after(&outcome, platform::now_ms(), entropy);
        last = Some(outcome);
        match next {
            ReplayNext::Done => break,
            ReplayNext::Wait { ms } => within(ms, futures_util::future::pending::<()>()).await,
        };
    }
    let Some(outcome) = last else {
        return Ok(ApiError::new(ErrorCode::Internal, "replay made no attempt").into());
    };
    let delivered = {
        let mut slot = object.stream_slot().borrow_mut();
        let Some(stream) = slot.as_mut() else {
            return Ok(ApiError::new(ErrorCode::StreamNotFound, "stream does not exist").into());
        };
        // Fenced by the lifetime the replay was planned in (§8): a stream
        // deleted and created again meanwhile keeps its own letter `id`.
        stream.complete_replay(id, replay.plan(), replay.attempts(), &outcome)
    };
    Ok(replay_answer(delivered, &outcome, replay.attempts()))
}
