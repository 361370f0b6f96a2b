//! A signed webhook POST (docs/design.md §9): the receiver's secrets resolved
//! at the project object first (cached by version, so a rotation takes
//! effect on the next send), the Standard Webhooks headers, no redirects
//! followed, headers and body within the plan's deadline (the exchange runs
//! on the platform's side, `webhook_exchange.js`). Every failure
//! passes through the resolution's redaction before the engine sees it.

use super::{secrets, Sender};
use crate::platform::{self, timers::within};
use js_sys::Reflect;
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::limits::MAX_WEBHOOK_RESPONSE_BYTES;
use tributary::secrets::resolve::{self, ResolvedWebhook};
use tributary::subscription::Receiver;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The receiver's URL and headers, its secrets (`names`) resolved (§9); a
/// failure is the send's outcome (`secret_missing`, a value its use
/// refuses, the project unreachable). Asks the project only when the
/// receiver names a secret.
async fn resolved(
    sender: &Sender<'_>,
    receiver: &Receiver,
    names: &[String],
    timeout_ms: u64,
) -> Result<ResolvedWebhook, Outcome> {
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
    // The platform's clock moves only across I/O: read again only after
    // the resolution asked the project.
    let started = platform::now_ms();
    let names = resolve::names(&plan.receiver);
    let webhook = match resolved(sender, &plan.receiver, &names, plan.timeout_ms).await {
        Ok(webhook) => webhook,
        Err(outcome) => return outcome,
    };
    let now = if names.is_empty() { started } else { platform::now_ms() };
    // The resolution spent part of the deadline; the POST gets the rest.
    let spent = u64::try_from(now.saturating_sub(started)).unwrap_or(0);
    let timeout_ms = plan.timeout_ms.saturating_sub(spent).max(1);
    let request = tributary::webhook::request(plan, &webhook.url, &webhook.headers, signing, Some(timeout_ms), now);
    let outcome = match post(&request).await {
        Ok(Answer::Accepted) => Outcome::Delivered,
        Ok(Answer::Refused {
            status,
            retry_after,
            text,
        }) => tributary::webhook::classify(status, retry_after.as_deref(), &text, platform::now_ms()),
        Err(error) => Outcome::transient(error),
    };
    webhook.redaction.outcome(outcome)
}

/// The receiver's answer: a 2xx status (its body read to its end, or past
/// the cap, and not kept: nothing reads it, §9), or any other status with
/// its `Retry-After` and the excerpt of its body a failure reports.
enum Answer {
    Accepted,
    Refused {
        status: u16,
        retry_after: Option<String>,
        text: String,
    },
}

#[wasm_bindgen(module = "/src/senders/webhook_exchange.js")]
extern "C" {
    /// The POST, its whole-exchange deadline and the capped answer, on the
    /// platform's side in one call (`webhook_exchange.js`).
    #[wasm_bindgen(catch, js_name = webhookExchange)]
    fn webhook_exchange(
        url: &str,
        headers_json: &str,
        body: &str,
        timeout_ms: f64,
        cap: f64,
    ) -> std::result::Result<js_sys::Promise, JsValue>;

    /// What [`webhook_exchange`] resolves to when the status is not 2xx:
    /// `error`, or the answer. A 2xx status resolves to the status alone.
    type Exchanged;
    #[wasm_bindgen(method, getter)]
    fn error(this: &Exchanged) -> Option<String>;
    #[wasm_bindgen(method, getter)]
    fn status(this: &Exchanged) -> u16;
    #[wasm_bindgen(method, getter, js_name = retryAfter)]
    fn retry_after(this: &Exchanged) -> Option<String>;
    #[wasm_bindgen(method, getter)]
    fn body(this: &Exchanged) -> Option<js_sys::Uint8Array>;
}

/// One exchange with the receiver: the answer's status, `Retry-After` and
/// text (at most [`MAX_WEBHOOK_RESPONSE_BYTES`], lossy), or why there is none
/// (an invalid request, a network error, the deadline).
async fn post(request: &tributary::webhook::WebhookRequest) -> std::result::Result<Answer, String> {
    let headers = tributary::header_init::object_json(&request.headers);
    let exchange = webhook_exchange(
        &request.url,
        &headers,
        &request.body,
        request.timeout_ms as f64,
        MAX_WEBHOOK_RESPONSE_BYTES as f64,
    )
    .map_err(|error| format!("network error: {}", js_text(&error)))?;
    let exchanged = JsFuture::from(exchange)
        .await
        .map_err(|error| format!("network error: {}", js_text(&error)))?;
    if exchanged.as_f64().is_some() {
        return Ok(Answer::Accepted);
    }
    let exchanged: Exchanged = exchanged.unchecked_into();
    if let Some(error) = exchanged.error() {
        return Err(error);
    }
    let mut body = exchanged.body().map(|bytes| bytes.to_vec()).unwrap_or_default();
    body.truncate(MAX_WEBHOOK_RESPONSE_BYTES);
    Ok(Answer::Refused {
        status: exchanged.status(),
        retry_after: exchanged.retry_after(),
        text: tributary::text::excerpt(&String::from_utf8_lossy(&body)),
    })
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
