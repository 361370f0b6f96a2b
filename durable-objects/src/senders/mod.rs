//! Performing one planned send (docs/design.md §7, §9, §15.1): a copy to another
//! stream, a signed webhook POST (`webhook`, its secrets resolved through
//! `secrets`), an itx call, a processor wake or log lines. Every send runs under the plan's deadline, which covers the whole
//! exchange — for a webhook, the headers *and* a body read capped at 64 KiB
//! (§6 rule 10, §12) — so a hung or trickling receiver ends as a transient
//! failure, never as a stuck alarm.

pub mod analytics;
pub mod itx;
pub mod processor;
pub mod secrets;
pub mod webhook;

use crate::internal::bindings::stream_stub;
use crate::internal::object_call::{self, CallBody, ObjectCall};
use crate::platform::timers::within;
use std::cell::RefCell;
use tributary::copy::copy_batch_json;
use tributary::delivery::{classify_copy_status, DeliveryPlan, Outcome};
use tributary::route::internal::{Host, COPY_ROUTE, PATH_HEADER, PROJECT_HEADER};
use tributary::secrets::SecretCache;
use tributary::subscription::Receiver;
use worker::{Env, Method, Result};

/// What a send needs from the sending stream object.
pub struct Sender<'a> {
    pub env: &'a Env,
    pub project: &'a str,
    /// The subscription's webhook signing secret (§9), read by the stream
    /// before the send; `None` when the deployment has no signing key.
    pub signing_secret: Option<String>,
    /// The stream object's cache of its project's secrets (§9), by version.
    pub secrets: &'a RefCell<SecretCache>,
    /// `ALLOW_INSECURE_WEBHOOKS`: the URL rules a resolved URL is checked by.
    pub allow_insecure_webhooks: bool,
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
        Receiver::WebhookPost { .. } => webhook::send(sender, plan).await,
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

async fn send_copy(env: &Env, project: &str, receiving: &str, plan: &DeliveryPlan) -> Result<Outcome> {
    let body = copy_batch_json(&plan.stamp, plan.events.iter().map(|event| &event.body))
        .map_err(|error| worker::Error::RustError(error.to_string()))?;
    let stub = stream_stub(env, project, receiving)?;
    let call = ObjectCall {
        method: Method::Post,
        headers: &[(PROJECT_HEADER, project), (PATH_HEADER, receiving)],
        body: Some(CallBody::Text(&body)),
    };
    let answer = object_call::ask(stub, &Host::Stream.url(COPY_ROUTE), call).await?;
    Ok(classify_copy_status(answer.status, &answer.lossy_text()))
}
