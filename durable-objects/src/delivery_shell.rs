//! The alarm's delivery loop (DESIGN.md §6): ask the engine what is due,
//! send it, hand back the outcome. The engine decides everything; this file
//! only performs the sends. No borrow of the stream is held across an await.

use crate::entry::{object_name, PATH_HEADER, PROJECT_HEADER, STREAM_BINDING};
use crate::platform;
use crate::sql_driver::DoSql;
use crate::stream_object::{StreamObject, COPY_ROUTE};
use tributary::copy::CopyBatch;
use tributary::delivery::{classify_copy_status, Completion, DeliveryPlan, Outcome};
use tributary::stream::Stream;
use tributary::subscription::Receiver;
use worker::{Headers, Method, Request, RequestInit, Result};

/// One alarm delivers for at most this long, then re-arms itself.
const ALARM_BUDGET_MS: i64 = 20_000;

fn storage_error(error: impl std::fmt::Display) -> worker::Error {
    worker::Error::RustError(error.to_string())
}

pub async fn run(object: &StreamObject) -> Result<()> {
    {
        let mut slot = object.stream_slot().borrow_mut();
        if slot.is_none() {
            match Stream::open_existing(DoSql::new(object.state())).map_err(storage_error)? {
                Some(mut stream) => {
                    stream.set_deployment(crate::deployment_env::from_env(object.env()));
                    *slot = Some(stream)
                }
                None => return Ok(()),
            }
        }
    }
    let stop_at = platform::now_ms() + ALARM_BUDGET_MS;
    loop {
        let now = platform::now_ms();
        if now > stop_at {
            return Ok(());
        }
        let entropy = platform::entropy().map_err(|error| storage_error(format!("{error:?}")))?;
        let (plans, project) = {
            let mut slot = object.stream_slot().borrow_mut();
            let Some(stream) = slot.as_mut() else {
                return Ok(());
            };
            let mut plans = Vec::new();
            for key in stream.due_subscriptions(now).map_err(storage_error)? {
                if let Some(plan) = stream.plan_delivery(&key, now, entropy).map_err(storage_error)? {
                    plans.push(plan);
                }
            }
            (plans, stream.project_id().to_owned())
        };
        if plans.is_empty() {
            return Ok(());
        }
        // Subscriptions are independent (one batch in flight each, §6 rule 9):
        // their sends run concurrently; results are applied in plan order.
        let sends = plans.iter().map(|plan| async {
            match plan.prepared_failure.clone() {
                Some(failure) => failure,
                None => send(object, &project, plan).await,
            }
        });
        let outcomes = futures_util::future::join_all(sends).await;
        for (plan, outcome) in plans.iter().zip(outcomes) {
            let completion = {
                let mut slot = object.stream_slot().borrow_mut();
                let Some(stream) = slot.as_mut() else {
                    return Ok(());
                };
                stream
                    .complete_delivery(plan, outcome.clone(), platform::now_ms(), entropy)
                    .map_err(storage_error)?
            };
            log(plan, &outcome, &completion);
        }
    }
}

/// Structured logs for every failure and halt (§11).
fn log(plan: &DeliveryPlan, outcome: &Outcome, completion: &Completion) {
    if let Outcome::Failed { kind, message, .. } = outcome {
        let event = match completion {
            Completion::Halted { .. } => "delivery_halted",
            Completion::Skipped { .. } => "delivery_dead_lettered",
            _ => "delivery_failed",
        };
        worker::console_log!(
            "{}",
            serde_json::json!({
                "event": event, "path": plan.stamp.source_path, "subscriptionKey": plan.subscription_key,
                "afterOffset": plan.after_offset, "throughOffset": plan.through_offset, "deliveryId": plan.delivery_id,
                "attempt": plan.attempt, "kind": kind, "error": message,
            })
        );
    }
}

pub(crate) async fn send(object: &StreamObject, project: &str, plan: &DeliveryPlan) -> Outcome {
    match &plan.receiver {
        Receiver::CopyToStream {
            receiving_stream_path, ..
        } => match send_copy(object, project, receiving_stream_path, plan).await {
            Ok(outcome) => outcome,
            Err(error) => Outcome::transient(format!("copy request failed: {error}")),
        },
        Receiver::WebhookPost { url, delivery, .. } => send_webhook(object, plan, url, delivery.timeout_ms).await,
        Receiver::ItxCall { expression, .. } => crate::itx::call(object.env(), expression, plan).await,
        Receiver::ProcessorWake { .. } => Outcome::permanent("processor-wake is not delivered by the spine"),
    }
}

/// One signed POST (§9): no redirects followed, aborted after the timeout.
async fn send_webhook(object: &StreamObject, plan: &DeliveryPlan, url: &str, timeout_ms: Option<u64>) -> Outcome {
    let secret = {
        let slot = object.stream_slot().borrow();
        slot.as_ref()
            .and_then(|stream| stream.signing_secret(&plan.subscription_key).ok())
    };
    let Some(secret) = secret else {
        return Outcome::transient("webhook signing is not configured (WEBHOOK_SIGNING_KEY)");
    };
    let request = tributary::webhook::request(plan, url, &secret, timeout_ms, platform::now_ms());
    match post(&request).await {
        Ok((status, retry_after, body)) => {
            tributary::webhook::classify(status, retry_after.as_deref(), &body, platform::now_ms())
        }
        Err(error) => Outcome::transient(error),
    }
}

async fn post(
    request: &tributary::webhook::WebhookRequest,
) -> std::result::Result<(u16, Option<String>, String), String> {
    let headers = Headers::new();
    for (name, value) in &request.headers {
        headers.set(name, value).map_err(|error| error.to_string())?;
    }
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(request.body.clone().into()))
        .with_redirect(worker::RequestRedirect::Manual);
    let outgoing = Request::new_with_init(&request.url, &init).map_err(|error| format!("invalid request: {error}"))?;
    // The timeout is a cancellable timer raced against the fetch (not
    // `AbortSignal.timeout`, whose timers stay active after the fetch ends and
    // exhaust the isolate's timer quota under load).
    let controller = worker::AbortController::default();
    let signal = controller.signal();
    let fetch = worker::Fetch::Request(outgoing);
    let sending = fetch.send_with_signal(&signal);
    let timer = worker::Delay::from(std::time::Duration::from_millis(request.timeout_ms));
    futures_util::pin_mut!(sending);
    futures_util::pin_mut!(timer);
    let mut response = match futures_util::future::select(sending, timer).await {
        futures_util::future::Either::Left((sent, _timer)) => {
            sent.map_err(|error| format!("network error: {error}"))?
        }
        futures_util::future::Either::Right(((), _sending)) => {
            controller.abort();
            return Err(format!("timed out after {} ms", request.timeout_ms));
        }
    };
    let status = response.status_code();
    let retry_after = response.headers().get("retry-after").ok().flatten();
    let body = response.text().await.unwrap_or_default();
    Ok((status, retry_after, body.chars().take(200).collect()))
}

async fn send_copy(object: &StreamObject, project: &str, receiving: &str, plan: &DeliveryPlan) -> Result<Outcome> {
    let batch = CopyBatch {
        stamp: plan.stamp.clone(),
        events: plan.events.iter().map(|event| event.body.clone()).collect(),
    };
    let body = serde_json::to_string(&batch).map_err(storage_error)?;
    let headers = Headers::new();
    headers.set(PROJECT_HEADER, project)?;
    headers.set(PATH_HEADER, receiving)?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(body.into()));
    let request = Request::new_with_init(&format!("https://stream.internal{COPY_ROUTE}"), &init)?;
    let stub = object
        .env()
        .durable_object(STREAM_BINDING)?
        .get_by_name(&object_name(project, receiving))?;
    let mut response = stub.fetch_with_request(request).await?;
    let status = response.status_code();
    let text = response.text().await.unwrap_or_default();
    Ok(classify_copy_status(status, &text))
}

/// `POST .../dead-letters/{id}/replay` (§8): resends one dead letter through
/// the subscription's current receiver and retry policy (attempts spaced by
/// its backoff, capped at 1 s each and 10 s in all, so the request returns).
/// Success deletes the letter (204); exhaustion updates attempts and reason.
pub async fn replay(object: &StreamObject, id: u64) -> Result<tributary::api::ApiResponse> {
    use tributary::api::ApiResponse;
    use tributary::error::ApiError;
    let now = platform::now_ms();
    let planned = {
        let slot = object.stream_slot().borrow();
        let Some(stream) = slot.as_ref() else {
            return Ok(ApiError::new(404, "stream_not_found", "stream does not exist").into());
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
    let stop_at = now + 10_000;
    let mut attempts = plan.attempt.saturating_sub(1);
    let mut tries = 0;
    let outcome = loop {
        attempts += 1;
        tries += 1;
        plan.attempt = attempts;
        // Each attempt's timeout fits in what is left of the replay's budget.
        let remaining = u64::try_from(stop_at - platform::now_ms()).unwrap_or(0).max(1_000);
        if let tributary::subscription::Receiver::WebhookPost { delivery, .. } = &mut plan.receiver {
            let configured = delivery
                .timeout_ms
                .unwrap_or(tributary::limits::DEFAULT_WEBHOOK_TIMEOUT_MS);
            delivery.timeout_ms = Some(configured.min(remaining));
        }
        let outcome = send(object, &project, &plan).await;
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
        let wait = tributary::delivery::backoff_ms(&retry, tries, entropy).min(1_000);
        worker::Delay::from(std::time::Duration::from_millis(wait.max(0) as u64)).await;
    };
    let delivered = {
        let mut slot = object.stream_slot().borrow_mut();
        let Some(stream) = slot.as_mut() else {
            return Ok(ApiError::new(404, "stream_not_found", "stream does not exist").into());
        };
        stream.complete_replay(id, attempts, &outcome)
    };
    Ok(match (delivered, outcome) {
        (Ok(true), _) => ApiResponse::no_content(),
        (Ok(false), Outcome::Failed { message, .. }) => {
            let mut error = ApiError::new(502, "replay_failed", format!("replay did not deliver: {message}"));
            error
                .body
                .error
                .details
                .insert("attempts".to_owned(), serde_json::json!(attempts));
            error.into()
        }
        (Ok(false), Outcome::Delivered) => ApiError::new(500, "internal", "replay outcome inconsistent").into(),
        (Err(error), _) => ApiError::from(error).into(),
    })
}
