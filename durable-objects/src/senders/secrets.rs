//! Asking the project object for secrets (docs/design.md §9): the router's
//! configure-time check and a webhook's send-time resolution both post a
//! `ResolveRequest` to `/internal/secrets/resolve`. Values travel only in
//! this answer; nothing here logs or keeps one.

use crate::internal::bindings::project_stub;
use tributary::route::internal::{Host, PROJECT_HEADER, SECRETS_RESOLVE_ROUTE};
use tributary::secrets::{ResolveAnswer, ResolveRequest};
use worker::{Env, Headers, Method, Request, RequestInit};

/// The project's answer to `request`, or why there is none (a status, a
/// failed call, an answer that does not parse: never a value).
pub async fn ask(env: &Env, project: &str, request: &ResolveRequest) -> Result<ResolveAnswer, String> {
    let body = serde_json::to_string(request).map_err(|error| error.to_string())?;
    let headers = Headers::new();
    headers
        .set(PROJECT_HEADER, project)
        .map_err(|error| error.to_string())?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(body.into()));
    let outgoing =
        Request::new_with_init(&Host::Project.url(SECRETS_RESOLVE_ROUTE), &init).map_err(|error| error.to_string())?;
    let stub = project_stub(env, project).map_err(|error| error.to_string())?;
    let mut response = stub
        .fetch_with_request(outgoing)
        .await
        .map_err(|error| error.to_string())?;
    let status = response.status_code();
    if status != 200 {
        return Err(format!("project object answered {status}"));
    }
    let text = response.text().await.map_err(|error| error.to_string())?;
    serde_json::from_str(&text).map_err(|_| "project object's answer does not parse".to_owned())
}
