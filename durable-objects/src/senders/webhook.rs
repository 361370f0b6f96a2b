//! A signed webhook POST (docs/design.md §9): the receiver's secrets resolved
//! at the project object first (cached by version, so a rotation takes
//! effect on the next send), the Standard Webhooks headers, no redirects
//! followed, headers and body within the plan's deadline. Every failure
//! passes through the resolution's redaction before the engine sees it.

use super::{secrets, Sender};
use crate::platform::{self, timers::within};
use js_sys::Reflect;
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::limits::MAX_WEBHOOK_RESPONSE_BYTES;
use tributary::secrets::resolve::{self, ResolvedWebhook};
use tributary::subscription::Receiver;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The receiver's URL and headers, its secrets resolved (§9); a failure is
/// the send's outcome (`secret_missing`, a value its use refuses, the
/// project unreachable).
async fn resolved(sender: &Sender<'_>, receiver: &Receiver, timeout_ms: u64) -> Result<ResolvedWebhook, Outcome> {
    let names = resolve::names(receiver);
    let values = if names.is_empty() {
        Default::default()
    } else {
        let request = sender.secrets.borrow().request(names.iter().map(String::as_str));
        let answer = match within(timeout_ms, secrets::ask(sender.env, sender.project, &request)).await {
            Some(Ok(answer)) => answer,
            Some(Err(error)) => return Err(Outcome::transient(format!("resolving secrets failed: {error}"))),
            None => {
                return Err(Outcome::transient(format!(
                    "resolving secrets timed out after {timeout_ms} ms"
                )))
            }
        };
        sender.secrets.borrow_mut().absorb(answer).map_err(Outcome::transient)?
    };
    resolve::resolve_webhook(receiver, &values, sender.allow_insecure_webhooks)
}

/// One signed POST of `plan` to its webhook receiver (§9).
pub async fn send(sender: &Sender<'_>, plan: &DeliveryPlan) -> Outcome {
    let Some(signing) = sender.signing_secret.as_deref() else {
        return Outcome::transient("webhook signing is not configured (WEBHOOK_SIGNING_KEY)");
    };
    let started = platform::now_ms();
    let webhook = match resolved(sender, &plan.receiver, plan.timeout_ms).await {
        Ok(webhook) => webhook,
        Err(outcome) => return outcome,
    };
    // The resolution spent part of the deadline; the POST gets the rest.
    let spent = u64::try_from(platform::now_ms().saturating_sub(started)).unwrap_or(0);
    let timeout_ms = plan.timeout_ms.saturating_sub(spent).max(1);
    let request = tributary::webhook::request(
        plan,
        &webhook.url,
        &webhook.headers,
        signing,
        Some(timeout_ms),
        platform::now_ms(),
    );
    let outcome = match post(&request).await {
        Ok((status, retry_after, body)) => {
            tributary::webhook::classify(status, retry_after.as_deref(), &body, platform::now_ms())
        }
        Err(error) => Outcome::transient(error),
    };
    webhook.redaction.outcome(outcome)
}

type Answer = (u16, Option<String>, String);

async fn post(request: &tributary::webhook::WebhookRequest) -> std::result::Result<Answer, String> {
    let controller = worker::AbortController::default();
    let signal = controller.signal();
    let outgoing = outgoing(request, &signal).map_err(|error| format!("invalid request: {}", js_text(&error)))?;
    let exchange = async {
        let response = fetch_raw(&outgoing)
            .await
            .map_err(|error| format!("network error: {error}"))?;
        let status = response.status();
        let headers = response.headers();
        let retry_after = headers.get("retry-after").ok().flatten();
        let declared = headers.get("content-length").ok().flatten();
        let (body, finished) = read_capped(response, declared.as_deref(), MAX_WEBHOOK_RESPONSE_BYTES).await;
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

/// The POST as the platform's own request, built once: no redirects
/// followed (§9), aborted by `signal`.
fn outgoing(
    request: &tributary::webhook::WebhookRequest,
    signal: &worker::AbortSignal,
) -> std::result::Result<web_sys::Request, JsValue> {
    let headers = web_sys::Headers::new()?;
    for (name, value) in &request.headers {
        headers.set(name, value)?;
    }
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(&request.body));
    init.set_redirect(web_sys::RequestRedirect::Manual);
    init.set_signal(Some(signal));
    web_sys::Request::new_with_str_and_init(&request.url, &init)
}

/// `fetch` keeping the platform's own response object, so the body is read
/// with the platform's reader directly.
async fn fetch_raw(request: &web_sys::Request) -> std::result::Result<web_sys::Response, String> {
    let global: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let answer = JsFuture::from(global.fetch_with_request(request))
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
/// was read to its end; past the cap the rest is never read. A body whose
/// declared `Content-Length` is within the cap (most answers: a few bytes)
/// is read in one call; HTTP framing delivers exactly that length.
async fn read_capped(response: web_sys::Response, declared: Option<&str>, cap: usize) -> (String, bool) {
    let Some(stream) = response.body() else {
        return (String::new(), true);
    };
    let within_cap = declared
        .and_then(|length| length.trim().parse::<usize>().ok())
        .is_some_and(|length| length <= cap);
    if within_cap {
        let Ok(read) = response.array_buffer() else {
            return (String::new(), false);
        };
        return match JsFuture::from(read).await {
            Ok(buffer) => {
                let mut body = js_sys::Uint8Array::new(&buffer).to_vec();
                body.truncate(cap);
                (tributary::text::excerpt(&String::from_utf8_lossy(&body)), true)
            }
            Err(_) => (String::new(), false),
        };
    }
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
