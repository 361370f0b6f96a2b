//! The calls between a fork's object and its source's (docs/design.md §18):
//! one internal `POST /internal/fork/{call}` to the source's object, and
//! the ask a page read carries. Shared by `forks.rs` (grants, protocol
//! pages, releases) and `inherited.rs` (event and JSON pages).

use crate::internal::bindings::{object_name, STREAM_BINDING};
use crate::internal::responses;
use serde::{Deserialize, Serialize};
use tributary::error::ErrorCode;
use tributary::limits::MAX_READ_BYTES;
use tributary::route::internal::{Host, FORK_ROUTE, PATH_HEADER, PROJECT_HEADER};
use worker::{Env, Headers, Method, Request, RequestInit, Response, Result};

/// A page of a prefix, asked of a source.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct ReadAsk {
    pub after: u64,
    pub through: u64,
    /// Sources crossed so far.
    pub hops: u64,
    /// What the fork's read has left of its byte budget (§12).
    #[serde(default = "full_page")]
    pub max_bytes: usize,
    /// Events a JSON page holds at most (a native read's `limit`).
    #[serde(default)]
    pub limit: Option<u64>,
}

fn full_page() -> usize {
    MAX_READ_BYTES
}

pub(crate) async fn call(env: &Env, project: &str, source: &str, call: &str, body: String) -> Result<Response> {
    let headers = Headers::new();
    headers.set(PROJECT_HEADER, project)?;
    headers.set(PATH_HEADER, source)?;
    headers.set("content-type", "application/json")?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(body.into()));
    let request = Request::new_with_init(&Host::Stream.url(&format!("{FORK_ROUTE}{call}")), &init)?;
    let stub = env
        .durable_object(STREAM_BINDING)?
        .get_by_name(&object_name(project, source))?;
    stub.fetch_with_request(request).await
}

pub(crate) fn to_json<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|error| worker::Error::RustError(error.to_string()))
}

pub(crate) fn parsed<T: for<'de> Deserialize<'de>>(body: &[u8]) -> std::result::Result<T, Result<Response>> {
    serde_json::from_slice(body).map_err(|error| responses::error(ErrorCode::InvalidRequest, &error.to_string()))
}
