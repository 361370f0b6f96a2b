//! Performing one planned send (DESIGN.md §7, §9): a copy to another
//! stream, a signed webhook POST, or an itx call. Every send runs under the
//! plan's deadline, which covers the whole exchange — for a webhook, the
//! headers *and* a body read capped at 64 KiB (§6 rule 10, §12) — so a hung
//! or trickling receiver ends as a transient failure, never as a stuck alarm.

use crate::bindings::{object_name, STREAM_BINDING};
use crate::platform;
use crate::stream_object::{StreamObject, COPY_ROUTE};
use futures_util::StreamExt;
use std::cell::Cell;
use std::future::Future;
use std::rc::Rc;
use tributary::copy::CopyBatch;
use tributary::delivery::{classify_copy_status, DeliveryPlan, Outcome};
use tributary::limits::MAX_WEBHOOK_RESPONSE_BYTES;
use tributary::route::internal::{PATH_HEADER, PROJECT_HEADER};
use tributary::subscription::Receiver;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use worker::{Headers, Method, Request, RequestInit, Result};

/// Runs `work` for at most `timeout_ms`; `None` when the time ran out. The
/// timer is a cancellable `setTimeout` (dropped with the race), not
/// `AbortSignal.timeout`, whose timers outlive the fetch and exhausted the
/// isolate's timer quota under load.
pub async fn within<T>(timeout_ms: u64, work: impl Future<Output = T>) -> Option<T> {
    let timer = Timer::new(timeout_ms);
    futures_util::pin_mut!(work);
    futures_util::pin_mut!(timer);
    match futures_util::future::select(work, timer).await {
        futures_util::future::Either::Left((done, _timer)) => Some(done),
        futures_util::future::Either::Right(((), _work)) => None,
    }
}

/// Resolves after `ms` (the same catching timer as [`within`]).
pub fn sleep(ms: u64) -> impl Future<Output = ()> {
    Timer::new(ms)
}

/// A `setTimeout` future whose every JS call catches. `worker::Delay` calls
/// `clearTimeout` without catching: a timer dropped while another request's
/// I/O context runs (a long-poll or an SSE stream woken by an append) makes
/// workerd throw there, and the glue turns that into a critical error that
/// resets the whole wasm instance. Here a failed clear is ignored, and the
/// callback is then kept alive so a late firing stays harmless.
struct Timer {
    ms: u64,
    fired: Rc<Cell<bool>>,
    armed: Option<(Closure<dyn FnMut()>, JsValue)>,
}

impl Timer {
    fn new(ms: u64) -> Self {
        Timer {
            ms,
            fired: Rc::new(Cell::new(false)),
            armed: None,
        }
    }
}

fn global_call(name: &str, args: &[&JsValue]) -> std::result::Result<JsValue, JsValue> {
    let global = js_sys::global();
    let function: js_sys::Function = js_sys::Reflect::get(&global, &JsValue::from_str(name))?.dyn_into()?;
    let arguments = js_sys::Array::new();
    for argument in args {
        arguments.push(argument);
    }
    js_sys::Reflect::apply(&function, &global, &arguments)
}

impl Future for Timer {
    type Output = ();

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.fired.get() {
            return std::task::Poll::Ready(());
        }
        if self.armed.is_none() {
            let fired = Rc::clone(&self.fired);
            let waker = cx.waker().clone();
            let callback = Closure::wrap(Box::new(move || {
                fired.set(true);
                waker.wake_by_ref();
            }) as Box<dyn FnMut()>);
            let delay = JsValue::from_f64(self.ms as f64);
            match global_call("setTimeout", &[callback.as_ref(), &delay]) {
                Ok(id) => self.armed = Some((callback, id)),
                // No timer can be set here: end the wait rather than hang.
                Err(_) => return std::task::Poll::Ready(()),
            }
        }
        std::task::Poll::Pending
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        let Some((callback, id)) = self.armed.take() else {
            return;
        };
        if self.fired.get() {
            return;
        }
        if global_call("clearTimeout", &[&id]).is_err() {
            // The timer may still fire: its callback must outlive us.
            callback.forget();
        }
    }
}

/// Sends `plan` to its receiver, within the plan's deadline.
pub async fn send(object: &StreamObject, project: &str, plan: &DeliveryPlan) -> Outcome {
    let timeout_ms = plan.timeout_ms;
    let timed_out = || Outcome::transient(format!("timed out after {timeout_ms} ms"));
    match &plan.receiver {
        Receiver::CopyToStream {
            receiving_stream_path, ..
        } => match within(timeout_ms, send_copy(object, project, receiving_stream_path, plan)).await {
            Some(Ok(outcome)) => outcome,
            Some(Err(error)) => Outcome::transient(format!("copy request failed: {error}")),
            None => timed_out(),
        },
        Receiver::WebhookPost { url, .. } => send_webhook(object, plan, url).await,
        Receiver::ItxCall { expression, .. } => within(timeout_ms, crate::itx::call(object.env(), expression, plan))
            .await
            .unwrap_or_else(timed_out),
        Receiver::ProcessorWake { expression } => within(
            timeout_ms,
            crate::processor_delivery::deliver(object, project, expression, plan),
        )
        .await
        .unwrap_or_else(timed_out),
    }
}

/// One signed POST (§9): no redirects followed; headers and body within the
/// plan's deadline.
async fn send_webhook(object: &StreamObject, plan: &DeliveryPlan, url: &str) -> Outcome {
    let secret = {
        let slot = object.stream_slot().borrow();
        slot.as_ref()
            .and_then(|stream| stream.signing_secret(&plan.subscription_key).ok())
    };
    let Some(secret) = secret else {
        return Outcome::transient("webhook signing is not configured (WEBHOOK_SIGNING_KEY)");
    };
    let request = tributary::webhook::request(plan, url, &secret, Some(plan.timeout_ms), platform::now_ms());
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

async fn send_copy(object: &StreamObject, project: &str, receiving: &str, plan: &DeliveryPlan) -> Result<Outcome> {
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
