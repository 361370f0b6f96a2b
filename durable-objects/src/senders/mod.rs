//! Performing one planned send (DESIGN.md §7, §9, §15.1): a copy to another
//! stream, a signed webhook POST, an itx call, a processor wake or log
//! lines. Every send runs under the plan's deadline, which covers the whole
//! exchange — for a webhook, the headers *and* a body read capped at 64 KiB
//! (§6 rule 10, §12) — so a hung or trickling receiver ends as a transient
//! failure, never as a stuck alarm.

pub mod analytics;
pub mod itx;
pub mod processor;

use crate::internal::bindings::{object_name, STREAM_BINDING};
use crate::platform::{self, timers::within};
use js_sys::Reflect;
use tributary::copy::CopyBatch;
use tributary::delivery::{classify_copy_status, DeliveryPlan, Outcome};
use tributary::limits::MAX_WEBHOOK_RESPONSE_BYTES;
use tributary::route::internal::{Host, COPY_ROUTE, PATH_HEADER, PROJECT_HEADER};
use tributary::subscription::Receiver;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
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
        Receiver::Log { .. } => write_log_lines(plan),
    }
}

/// The outcome of `plan` when it needs no I/O, performed now: a prepared
/// failure is its own; a log batch (§15.1) is written at once, within the
/// log budget its turn charged it to (§12), before anything else logs.
pub fn at_once(plan: &DeliveryPlan) -> Option<Outcome> {
    match (&plan.prepared_failure, &plan.receiver) {
        (Some(failure), _) => Some(failure.clone()),
        (None, Receiver::Log { .. }) => Some(write_log_lines(plan)),
        (None, _) => None,
    }
}

/// The log receiver (§15.1): one JSON line per event; written is delivered.
fn write_log_lines(plan: &DeliveryPlan) -> Outcome {
    for line in tributary::delivery::log_lines::lines(plan) {
        worker::console_log!("{line}");
    }
    Outcome::Delivered
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
        let response = fetch_raw(&outgoing, &signal)
            .await
            .map_err(|error| format!("network error: {error}"))?;
        let status = response.status();
        let retry_after = response.headers().get("retry-after").ok().flatten();
        let (body, finished) = read_capped(response, MAX_WEBHOOK_RESPONSE_BYTES).await;
        Ok((status, retry_after, body, finished))
    };
    match within(request.timeout_ms, exchange).await {
        Some(Ok((status, retry_after, body, finished))) => {
            // A body left unread past the cap still holds the connection.
            if !finished {
                controller.abort();
            }
            Ok((status, retry_after, body))
        }
        Some(Err(error)) => Err(error),
        None => {
            // The deadline passed mid-exchange: end the connection.
            controller.abort();
            Err(format!("timed out after {} ms (headers and body)", request.timeout_ms))
        }
    }
}

/// `fetch` keeping the platform's own response object, so the body is read
/// with the platform's reader directly.
async fn fetch_raw(request: &Request, signal: &worker::AbortSignal) -> std::result::Result<web_sys::Response, String> {
    let init = web_sys::RequestInit::new();
    init.set_signal(Some(signal));
    let global: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let answer = JsFuture::from(global.fetch_with_request_and_init(request.inner(), &init))
        .await
        .map_err(|error| js_text(&error))?;
    answer.dyn_into().map_err(|error| js_text(&error))
}

fn js_text(value: &JsValue) -> String {
    value
        .as_string()
        .or_else(|| {
            Reflect::get(value, &"message".into())
                .ok()
                .and_then(|message| message.as_string())
        })
        .unwrap_or_else(|| format!("{value:?}"))
}

/// At most `cap` bytes of the body, as text (lossy), and whether the body
/// was read to its end; past the cap the rest is never read.
async fn read_capped(response: web_sys::Response, cap: usize) -> (String, bool) {
    let Some(stream) = response.body() else {
        return (String::new(), true);
    };
    let Ok(reader) = web_sys::ReadableStreamDefaultReader::new(&stream) else {
        return (String::new(), false);
    };
    let mut body = Vec::new();
    let mut finished = false;
    // Each chunk is at least one byte, so at most `cap` iterations.
    for _chunk in 0..cap {
        let Ok(chunk) = JsFuture::from(reader.read()).await else {
            break;
        };
        if Reflect::get(&chunk, &"done".into()).map_or(true, |done| done.is_truthy()) {
            finished = true;
            break;
        }
        let Ok(value) = Reflect::get(&chunk, &"value".into()) else {
            break;
        };
        let bytes = js_sys::Uint8Array::new(&value).to_vec();
        let room = cap.saturating_sub(body.len());
        body.extend(bytes.into_iter().take(room));
        if body.len() >= cap {
            break;
        }
    }
    (tributary::text::excerpt(&String::from_utf8_lossy(&body)), finished)
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
