//! Delivering a planned batch to a hosted processor (docs/design.md §9): the
//! definition from the project object → wake → fold, each answer handed to
//! the engine's wake protocol (`tributary::processor::wake`), which decides
//! the next step and the outcome.

use crate::internal::bindings::{instance_stub, project_stub};
use serde_json::Value;
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::processor::wake::{self, WakeStep};
use tributary::processor::Definition;
use tributary::route::internal::{Host, INSTANCE_ROUTE, PROJECT_HEADER};
use tributary::route::PROCESSORS_PREFIX;
use worker::{Env, Headers, Method, Request, RequestInit, Stub};

/// One internal call: `(status, body text)`.
pub async fn call(
    stub: &Stub,
    project: &str,
    method: Method,
    path: &str,
    body: Option<String>,
) -> worker::Result<(u16, String)> {
    let headers = Headers::new();
    headers.set(PROJECT_HEADER, project)?;
    let mut init = RequestInit::new();
    init.with_method(method).with_headers(headers);
    if let Some(body) = body {
        init.with_body(Some(body.into()));
    }
    let request = Request::new_with_init(&Host::Processor.url(path), &init)?;
    let mut response = stub.fetch_with_request(request).await?;
    let status = response.status_code();
    Ok((status, response.text().await.unwrap_or_default()))
}

/// [`call`] as the wake protocol's answer.
async fn answer(stub: &Stub, project: &str, method: Method, path: &str, body: Option<String>) -> wake::Answer {
    call(stub, project, method, path, body)
        .await
        .map_err(|error| error.to_string())
}

/// The definition of `name`, `Ok(None)` when the project has none (or the
/// name is not a valid processor name, so no definition can have it).
pub async fn definition(env: &Env, project: &str, name: &str) -> Result<Option<Definition>, String> {
    if tributary::processor::check_name(name).is_err() {
        return Ok(None);
    }
    let stub = project_stub(env, project).map_err(|error| error.to_string())?;
    let path = format!("{PROCESSORS_PREFIX}/{name}");
    wake::definition_answer(answer(&stub, project, Method::Get, &path, None).await)
}

/// Delivers `plan` to the processor `expression` names (§9): performs the
/// steps [`wake`] decides.
pub async fn deliver(env: &Env, project: &str, expression: &Value, plan: &DeliveryPlan) -> Outcome {
    let Some(name) = tributary::processor::name_of(expression) else {
        return Outcome::permanent("processor-wake expression must be [\"processors\", NAME, \"wake\"]");
    };
    let request = match wake::start(name, plan, definition(env, project, name).await) {
        WakeStep::Post(request) => request,
        WakeStep::Done(outcome) => return outcome,
    };
    let stub = match instance_stub(env, project, name, &plan.stamp.source_path) {
        Ok(stub) => stub,
        Err(error) => return Outcome::transient(format!("processor instance unreachable: {error}")),
    };
    let version = request.definition.version;
    let wake_path = format!("{INSTANCE_ROUTE}wake");
    let woke = answer(
        &stub,
        project,
        Method::Post,
        &wake_path,
        serde_json::to_string(&request).ok(),
    )
    .await;
    let fold = match wake::after_wake(plan, version, woke) {
        WakeStep::Post(fold) => fold,
        WakeStep::Done(outcome) => return outcome,
    };
    let fold_path = format!("{INSTANCE_ROUTE}fold");
    let folded = answer(
        &stub,
        project,
        Method::Post,
        &fold_path,
        serde_json::to_string(&fold).ok(),
    )
    .await;
    wake::after_fold(name, folded)
}
