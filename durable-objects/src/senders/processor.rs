//! Delivering a planned batch to a hosted processor (docs/design.md §9): the
//! definition from the project object → wake → fold, each answer handed to
//! the engine's wake protocol (`tributary::processor::wake`), which decides
//! the next step and the outcome.

use crate::internal::bindings::{instance_stub, project_stub};
use crate::internal::object_call::{self, CallBody, Object, ObjectCall};
use serde_json::Value;
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::processor::wake::{self, WakeStep};
use tributary::processor::Definition;
use tributary::route::internal::{Host, INSTANCE_ROUTE, PROJECT_HEADER};
use tributary::route::PROCESSORS_PREFIX;
use worker::{Env, Method};

/// One internal call: `(status, body text)`.
pub async fn call(
    object: &Object,
    project: &str,
    method: Method,
    path: &str,
    body: Option<String>,
) -> worker::Result<(u16, String)> {
    let call = ObjectCall {
        method,
        headers: &[(PROJECT_HEADER, project)],
        body: body.as_deref().map(CallBody::Text),
    };
    let answer = object_call::ask(object, &Host::Processor.url(path), call).await?;
    Ok((answer.status, answer.lossy_text()))
}

/// [`call`] as the wake protocol's answer.
async fn answer(object: &Object, project: &str, method: Method, path: &str, body: Option<String>) -> wake::Answer {
    call(object, project, method, path, body)
        .await
        .map_err(|error| error.to_string())
}

/// The definition of `name`, `Ok(None)` when the project has none (or the
/// name is not a valid processor name, so no definition can have it).
pub async fn definition(env: &Env, project: &str, name: &str) -> Result<Option<Definition>, String> {
    if tributary::processor::check_name(name).is_err() {
        return Ok(None);
    }
    let project_object = Object::from(project_stub(env, project).map_err(|error| error.to_string())?);
    let path = format!("{PROCESSORS_PREFIX}/{name}");
    wake::definition_answer(answer(&project_object, project, Method::Get, &path, None).await)
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
    let instance = match instance_stub(env, project, name, &plan.stamp.source_path) {
        Ok(stub) => Object::from(stub),
        Err(error) => return Outcome::transient(format!("processor instance unreachable: {error}")),
    };
    let version = request.definition.version;
    let wake_path = format!("{INSTANCE_ROUTE}wake");
    let woke = answer(
        &instance,
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
        &instance,
        project,
        Method::Post,
        &fold_path,
        serde_json::to_string(&fold).ok(),
    )
    .await;
    wake::after_fold(name, folded)
}
