//! Performing one planned send (DESIGN.md §7, §9): a copy to another
//! stream, a signed webhook POST, an itx call or a processor wake. Every send runs under the
//! plan's deadline, which covers the whole exchange — for a webhook, the
//! headers *and* a body read capped at 64 KiB (§6 rule 10, §12) — so a hung
//! or trickling receiver ends as a transient failure, never as a stuck alarm.

pub mod itx;
pub mod processor;

use crate::internal::bindings::{object_name, STREAM_BINDING};
use crate::platform::{self, timers::within};
use futures_util::StreamExt;
use tributary::copy::CopyBatch;
use tributary::delivery::{classify_copy_status, DeliveryPlan, Outcome};
use tributary::limits::MAX_WEBHOOK_RESPONSE_BYTES;
use tributary::route::internal::{Host, COPY_ROUTE, PATH_HEADER, PROJECT_HEADER};
use tributary::subscription::Receiver;
use worker::{Env, Headers, Method, Request, RequestInit, Result};

/// What a send needs from the sending stream object.
pub struct Sender<'a> {
    pub env: &'a Env,
    pub project: &'a str,
    /// The subscription's webhook signing secret (§9), read by the stream
    /// before the send; `None` when the deployment has no signing key.
    pub signing_secret: Option<String>,
}

/// Sends `plan` to its receiver, within the plan's deadline.
pub async fn send(sender: &Sender<'_>, plan: &DeliveryPlan) -> Outcome {
    let (env, project) = (sender.env, sender.project);
    let timeout_ms = plan.timeout_ms;
    let timed_out = || Outcome::transient(format!("timed out after {timeout_ms} ms"));
    match &plan.receiver {
        Receiver::CopyToStream {
            receiving_stream_path, ..
        } => match within(timeout_ms, send_copy(env, project, receiving_stream_path, plan)).await {
            Some(Ok(outcome)) => outcome,
            Some(Err(error)) => Outcome::transient(format!("copy request failed: {error}")),
            None => timed_out(),
        },
        Receiver::WebhookPost { url, .. } => send_webhook(sender.signing_secret.as_deref(), plan, url).await,
        Receiver::ItxCall { expression, .. } => within(timeout_ms, itx::call(env, expression, plan))
            .await
            .unwrap_or_else(timed_out),
        Receiver::ProcessorWake { expression } => {
            within(timeout_ms, processor::deliver(env, project, expression, plan))
                .await
                .unwrap_or_else(timed_out)
        }
    }
}

/// One signed POST (§9): no redirects followed; headers and body within the
/// plan's deadline.
async fn send_webhook(secret: Option<&str>, plan: &DeliveryPlan, url: &str) -> Outcome {
    let Some(secret) = secret else {
        return Outcome::transient("webhook signing is not configured (WEBHOOK_SIGNING_KEY)");
    };
    let request = tributary::webhook::request(plan, url, secret, Some(plan.timeout_ms), platform::now_ms());
    match post(&request).await {
        Ok((status, retry_after, body)) => {
            tributary::webhook::classify(status, retry_after.as_deref(), &body, platform::now_ms())
        }
        Err(error) => Outcome::transient(error),
    }
}

type Answer = (u16, Option<String>, String);

async fn post(request: &tributary::webhook::WebhookRequest) -> std::result::Result<Answer, String> {
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
    let controller = worker::AbortController::default();
    let signal = controller.signal();
    let exchange = async {
        let mut response = worker::Fetch::Request(outgoing)
            .send_with_signal(&signal)
            .await
            .map_err(|error| format!("network error: {error}"))?;
        let status = response.status_code();
        let retry_after = response.headers().get("retry-after").ok().flatten();
        let body = read_capped(&mut response, MAX_WEBHOOK_RESPONSE_BYTES).await;
        Ok((status, retry_after, body))
    };
    let answer = within(request.timeout_ms, exchange).await;
    // Ends the connection whatever happened: a timed-out exchange, or a body
    // left unread past the cap.
    controller.abort();
    answer.unwrap_or_else(|| Err(format!("timed out after {} ms (headers and body)", request.timeout_ms)))
}

/// At most `cap` bytes of the body, as text (lossy); the rest is never read.
async fn read_capped(response: &mut worker::Response, cap: usize) -> String {
    let Ok(mut stream) = response.stream() else {
        return String::new();
    };
    let mut body = Vec::new();
    // Each chunk is at least one byte, so at most `cap` iterations.
    for _chunk in 0..cap {
        match stream.next().await {
            Some(Ok(chunk)) => {
                let room = cap.saturating_sub(body.len());
                body.extend(chunk.into_iter().take(room));
                if body.len() >= cap {
                    break;
                }
            }
            Some(Err(_)) | None => break,
        }
    }
    tributary::text::excerpt(&String::from_utf8_lossy(&body))
}

async fn send_copy(env: &Env, project: &str, receiving: &str, plan: &DeliveryPlan) -> Result<Outcome> {
    let batch = CopyBatch {
        stamp: plan.stamp.clone(),
        events: plan.events.iter().map(|event| event.body.clone()).collect(),
    };
    let body = serde_json::to_string(&batch).map_err(|error| worker::Error::RustError(error.to_string()))?;
    let headers = Headers::new();
    headers.set(PROJECT_HEADER, project)?;
    headers.set(PATH_HEADER, receiving)?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(body.into()));
    let request = Request::new_with_init(&Host::Stream.url(COPY_ROUTE), &init)?;
    let stub = env
        .durable_object(STREAM_BINDING)?
        .get_by_name(&object_name(project, receiving))?;
    let mut response = stub.fetch_with_request(request).await?;
    let status = response.status_code();
    let text = response.text().await.unwrap_or_default();
    Ok(classify_copy_status(status, &text))
}
