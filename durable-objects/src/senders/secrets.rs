//! Asking the project object for secrets (docs/design.md §9): the router's
//! configure-time check and a webhook's send-time resolution both post a
//! `ResolveRequest` to `/internal/secrets/resolve`. Values travel only in
//! this answer; nothing here logs or keeps one.

use crate::internal::bindings::project_stub;
use crate::internal::object_call::{self, CallBody, ObjectCall};
use tributary::route::internal::{Host, PROJECT_HEADER, SECRETS_RESOLVE_ROUTE};
use tributary::secrets::{ResolveAnswer, ResolveRequest};
use worker::{Env, Method};

/// The project's answer to `request`, or why there is none (a status, a
/// failed call, an answer that does not parse: never a value).
pub async fn ask(env: &Env, project: &str, request: &ResolveRequest) -> Result<ResolveAnswer, String> {
    let body = serde_json::to_string(request).map_err(|error| error.to_string())?;
    let call = ObjectCall {
        method: Method::Post,
        headers: &[(PROJECT_HEADER, project)],
        body: Some(CallBody::Text(&body)),
    };
    let stub = project_stub(env, project).map_err(|error| error.to_string())?;
    let answer = object_call::ask(stub, &Host::Project.url(SECRETS_RESOLVE_ROUTE), call)
        .await
        .map_err(|error| error.to_string())?;
    if answer.status != 200 {
        return Err(format!("project object answered {}", answer.status));
    }
    serde_json::from_slice(&answer.body).map_err(|_| "project object's answer does not parse".to_owned())
}
