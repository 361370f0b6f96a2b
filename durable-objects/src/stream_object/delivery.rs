//! The alarm's delivery loop (DESIGN.md §6): ask the engine what is due,
//! send it, hand back each outcome as soon as it arrives. The engine decides
//! everything; this file only performs the sends. No borrow of the stream is
//! held across an await.
//!
//! Subscriptions are independent (§6 rules 9, 10): each has at most one send
//! in flight, and the moment one completes its next batch is planned, so a
//! slow or hung receiver (bounded by its own deadline) never holds back
//! another subscription. Requests arrive between plan and completion; the
//! engine treats a completion from an older run as stale.

use crate::platform;
use crate::senders::{send, within};
use crate::sql_driver::DoSql;
use crate::stream_object::StreamObject;
use futures_util::stream::{FuturesUnordered, StreamExt};
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use tributary::delivery::{Completion, DeliveryPlan, Outcome};
use tributary::limits::{
    ALARM_TURN_MS, ALARM_YIELD_EVERY_MS, MAX_ALARM_COMPLETIONS, MAX_ALARM_SUBREQUESTS, PROCESSOR_DELIVERY_SUBREQUESTS,
    REPLAY_BUDGET_MS, REPLAY_MAX_WAIT_MS, REPLAY_MIN_ATTEMPT_TIMEOUT_MS, SEND_SUBREQUESTS,
};
use tributary::stream::Stream;
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
    let opened = match Stream::open_existing(DoSql::new(object.state())).map_err(storage_error)? {
        Some(stream) => Some(stream),
        // Destroyed, but the catalog may still list it (§14).
        None => tributary::catalog::open_registered(DoSql::new(object.state())).map_err(storage_error)?,
    };
    match opened {
        Some(mut stream) => {
            stream.set_deployment(crate::deployment_env::from_env(object.env()));
            *slot = Some(stream);
            Ok(true)
        }
        None => Ok(false),
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
    let headers = worker::Headers::new();
    headers.set(tributary::route::internal::PROJECT_HEADER, &project)?;
    let mut init = worker::RequestInit::new();
    init.with_method(worker::Method::Post)
        .with_headers(headers)
        .with_body(Some(serde_json::to_string(&change).map_err(storage_error)?.into()));
    let request = worker::Request::new_with_init(
        &format!(
            "https://project.internal{}",
            crate::project_object::CATALOG_CHANGE_ROUTE
        ),
        &init,
    )?;
    let stub = crate::processor_delivery::project_stub(object.env(), &project)?;
    let answer = within(tributary::limits::SEND_TIMEOUT_MS, stub.fetch_with_request(request)).await;
    match answer {
        Some(Ok(response)) if response.status_code() < 300 => {
            let slot = object.stream_slot().borrow();
            if let Some(stream) = slot.as_ref() {
                stream.catalog_acknowledged(&change).map_err(storage_error)?;
            }
            object.catalog_retry_at().set(None);
            Ok(())
        }
        other => {
            object
                .catalog_retry_at()
                .set(Some(platform::now_ms() + tributary::limits::ALARM_RETRY_MS));
            let reason = match other {
                Some(Ok(response)) => format!("project object answered {}", response.status_code()),
                Some(Err(error)) => error.to_string(),
                None => "timed out".to_owned(),
            };
            worker::console_log!(
                "{}",
                serde_json::json!({"event": "catalog_sync_failed", "project": project, "error": reason})
            );
            Ok(())
        }
    }
}

/// Subrequests one send to `receiver` makes.
fn send_cost(receiver: &tributary::subscription::Receiver) -> u32 {
    match receiver {
        tributary::subscription::Receiver::ProcessorWake { .. } => PROCESSOR_DELIVERY_SUBREQUESTS,
        _ => SEND_SUBREQUESTS,
    }
}

/// Plans every due subscription that has nothing in flight in this turn,
/// while the turn's subrequest budget lasts.
fn plan_due(object: &StreamObject, busy: &BTreeSet<String>, budget: &mut u32) -> Result<(Vec<DeliveryPlan>, String)> {
    let now = platform::now_ms();
    let entropy = platform::entropy().map_err(|error| storage_error(format!("{error:?}")))?;
    let mut slot = object.stream_slot().borrow_mut();
    let Some(stream) = slot.as_mut() else {
        return Ok((Vec::new(), String::new()));
    };
    let mut plans = Vec::new();
    for key in stream.due_subscriptions(now).map_err(storage_error)? {
        if busy.contains(&key) {
            continue;
        }
        let cost = stream
            .state()
            .subscriptions
            .outbound
            .by_key
            .get(&key)
            .and_then(|subscription| subscription.configuration.valid())
            .map_or(1, |configuration| send_cost(&configuration.receiver));
        if cost > *budget {
            break;
        }
        if let Some(plan) = stream.plan_delivery(&key, now, entropy).map_err(storage_error)? {
            if plan.prepared_failure.is_none() {
                *budget -= cost;
            }
            plans.push(plan);
        }
    }
    Ok((plans, stream.project_id().to_owned()))
}

pub async fn run(object: &StreamObject) -> Result<()> {
    if !open(object)? {
        return Ok(());
    }
    sync_catalog(object).await?;
    let turn_ends_at = platform::now_ms() + ALARM_TURN_MS;
    let mut sending: FuturesUnordered<Sending<'_>> = FuturesUnordered::new();
    let mut busy = BTreeSet::new();
    // Sends planned before the turn's end that are still running: the turn
    // waits for them anyway, so healthy subscriptions keep being planned
    // meanwhile instead of stalling behind a slow receiver.
    let mut started_in_turn: BTreeSet<String> = BTreeSet::new();
    let mut subrequests = MAX_ALARM_SUBREQUESTS;
    let mut last_yield = platform::now_ms();
    // Each round completes one send; a turn completes at most
    // MAX_ALARM_COMPLETIONS before the alarm re-arms for the rest.
    for _round in 0..MAX_ALARM_COMPLETIONS {
        let in_turn = platform::now_ms() < turn_ends_at;
        if in_turn || !started_in_turn.is_empty() {
            let (plans, project) = plan_due(object, &busy, &mut subrequests)?;
            for plan in plans {
                busy.insert(plan.subscription_key.clone());
                if in_turn {
                    started_in_turn.insert(plan.subscription_key.clone());
                }
                let project = project.clone();
                sending.push(Box::pin(async move {
                    let outcome = match plan.prepared_failure.clone() {
                        Some(failure) => failure,
                        None => send(object, &project, &plan).await,
                    };
                    (plan, outcome)
                }));
            }
        }
        let Some((plan, outcome)) = sending.next().await else {
            return Ok(());
        };
        // A macrotask boundary every ALARM_YIELD_EVERY_MS: requests waiting for
        // this object (appends, reads, live tails) run before the next batch,
        // so a long catch-up never starves them.
        if platform::now_ms() - last_yield >= ALARM_YIELD_EVERY_MS {
            within(0, futures_util::future::pending::<()>()).await;
            last_yield = platform::now_ms();
        }
        busy.remove(&plan.subscription_key);
        started_in_turn.remove(&plan.subscription_key);
        complete(object, &plan, outcome)?;
    }
    // The completion budget ran out: finish what is in flight, then re-arm.
    while let Some((plan, outcome)) = sending.next().await {
        complete(object, &plan, outcome)?;
    }
    Ok(())
}

fn complete(object: &StreamObject, plan: &DeliveryPlan, outcome: Outcome) -> Result<()> {
    let entropy = platform::entropy().map_err(|error| storage_error(format!("{error:?}")))?;
    let mut slot = object.stream_slot().borrow_mut();
    let Some(stream) = slot.as_mut() else {
        return Ok(());
    };
    let completion = stream
        .complete_delivery(plan, outcome.clone(), platform::now_ms(), entropy)
        .map_err(storage_error)?;
    drop(slot);
    log(plan, &outcome, &completion);
    // A halt or a dead letter appended a fact: live readers see it (§10).
    object.live().fan_out(object);
    Ok(())
}

/// Structured logs for every failure, halt, dead letter and stale result (§11).
fn log(plan: &DeliveryPlan, outcome: &Outcome, completion: &Completion) {
    let event = match (outcome, completion) {
        (_, Completion::Halted { .. }) => "delivery_halted",
        (_, Completion::Skipped { .. }) => "delivery_dead_lettered",
        (_, Completion::Stale) => "delivery_result_stale",
        (Outcome::Failed { .. }, _) => "delivery_failed",
        (Outcome::Delivered | Outcome::Checkpointed { .. }, _) => return,
    };
    let (kind, message) = match outcome {
        Outcome::Failed { kind, message, .. } => (serde_json::json!(kind), message.as_str()),
        Outcome::Delivered | Outcome::Checkpointed { .. } => (serde_json::Value::Null, ""),
    };
    worker::console_log!(
        "{}",
        serde_json::json!({
            "event": event, "path": plan.stamp.source_path, "subscriptionKey": plan.subscription_key,
            "streamId": plan.stamp.stream_id, "run": plan.stamp.cursor_changed_at_source_offset,
            "afterOffset": plan.after_offset, "throughOffset": plan.through_offset, "deliveryId": plan.delivery_id,
            "attempt": plan.attempt, "kind": kind, "error": message,
        })
    );
}

/// `POST .../dead-letters/{id}/replay` (§8): resends one dead letter through
/// the subscription's current receiver and retry policy (attempts spaced by
/// its backoff, capped at 1 s each and 10 s in all, so the request returns).
/// Success deletes the letter (204); exhaustion updates attempts and reason.
pub async fn replay(object: &StreamObject, id: u64) -> Result<tributary::api::ApiResponse> {
    use tributary::api::ApiResponse;
    use tributary::error::{ApiError, ErrorCode};
    let now = platform::now_ms();
    let planned = {
        let slot = object.stream_slot().borrow();
        let Some(stream) = slot.as_ref() else {
            return Ok(ApiError::new(ErrorCode::StreamNotFound, "stream does not exist").into());
        };
        stream
            .plan_replay(id, now)
            .map(|plan| (plan, stream.project_id().to_owned()))
    };
    let (mut plan, project) = match planned {
        Ok(planned) => planned,
        Err(error) => return Ok(ApiError::from(error).into()),
    };
    let retry = plan
        .receiver
        .delivery()
        .and_then(|delivery| delivery.retry)
        .unwrap_or_default();
    let stop_at = now + REPLAY_BUDGET_MS;
    let mut attempts = plan.attempt.saturating_sub(1);
    let mut tries = 0;
    let outcome = loop {
        attempts += 1;
        tries += 1;
        plan.attempt = attempts;
        // Each attempt's deadline fits in what is left of the replay's budget.
        let remaining = u64::try_from(stop_at - platform::now_ms())
            .unwrap_or(0)
            .max(REPLAY_MIN_ATTEMPT_TIMEOUT_MS);
        let configured = match &plan.receiver {
            tributary::subscription::Receiver::WebhookPost { delivery, .. } => delivery
                .timeout_ms
                .unwrap_or(tributary::limits::DEFAULT_WEBHOOK_TIMEOUT_MS),
            _ => tributary::limits::SEND_TIMEOUT_MS,
        };
        plan.timeout_ms = configured.min(remaining);
        let outcome = match plan.prepared_failure.clone() {
            Some(failure) => failure,
            None => send(object, &project, &plan).await,
        };
        let permanent = matches!(
            outcome,
            Outcome::Failed {
                kind: tributary::delivery::FailureKind::Permanent,
                ..
            }
        );
        if outcome == Outcome::Delivered || permanent || tries >= retry.max_attempts || platform::now_ms() >= stop_at {
            break outcome;
        }
        let entropy = platform::entropy().map_err(|error| storage_error(format!("{error:?}")))?;
        let wait = tributary::delivery::backoff_ms(&retry, tries, entropy).min(REPLAY_MAX_WAIT_MS);
        within(wait.max(0) as u64, futures_util::future::pending::<()>()).await;
    };
    let delivered = {
        let mut slot = object.stream_slot().borrow_mut();
        let Some(stream) = slot.as_mut() else {
            return Ok(ApiError::new(ErrorCode::StreamNotFound, "stream does not exist").into());
        };
        // Fenced by the lifetime the replay was planned in (§8): a stream
        // deleted and created again meanwhile keeps its own letter `id`.
        stream.complete_replay(id, &plan, attempts, &outcome)
    };
    Ok(match (delivered, outcome) {
        (Ok(true), _) => ApiResponse::no_content(),
        (Ok(false), Outcome::Failed { message, .. }) => {
            let mut error = ApiError::new(ErrorCode::ReplayFailed, format!("replay did not deliver: {message}"));
            error
                .body
                .error
                .details
                .insert("attempts".to_owned(), serde_json::json!(attempts));
            error.into()
        }
        (Ok(false), Outcome::Delivered | Outcome::Checkpointed { .. }) => {
            ApiError::new(ErrorCode::Internal, "replay outcome inconsistent").into()
        }
        (Err(error), _) => ApiError::from(error).into(),
    })
}
