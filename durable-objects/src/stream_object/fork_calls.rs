//! The calls between a fork's object and its source's (docs/design.md §18):
//! one internal `POST /internal/fork/{call}` to the source's object, the
//! ask a page read carries, and the pages of a prefix — served by a source
//! ([`serve_page`], one hop further down a chain, at most `MAX_FORK_HOPS`)
//! and fetched by a fork ([`fetch_page`]), one [`PageKind`] a call. Shared
//! by `forks.rs` (grants, protocol pages, releases) and `inherited.rs`
//! (event and JSON pages).

use super::StreamObject;
use crate::internal::bindings::stream_stub;
use crate::internal::object_call::{self, Answer, CallBody, Object, ObjectCall};
use crate::internal::responses;
use crate::platform::sql_driver::DoSql;
use serde::{Deserialize, Serialize};
use tributary::error::ErrorCode;
use tributary::fork::segment::Segment;
use tributary::limits::{MAX_FORK_HOPS, MAX_READ_BYTES};
use tributary::path::StreamPath;
use tributary::route::internal::{Host, FORK_ROUTE, PATH_HEADER, PROJECT_HEADER};
use tributary::storage::StorageError;
use tributary::stream::Stream;
use worker::{Env, Headers, Method, Response, Result};

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

/// Where a fork call goes: `source`'s object, the call's URL and headers.
struct ForkCallTo<'a> {
    object: Object,
    url: String,
    headers: [(&'a str, &'a str); 3],
}

impl<'a> ForkCallTo<'a> {
    fn new(env: &Env, project: &'a str, source: &'a str, call: &str) -> Result<Self> {
        let object = stream_stub(env, project, source)?.into();
        Ok(ForkCallTo {
            object,
            url: Host::Stream.url(&format!("{FORK_ROUTE}{call}")),
            headers: [
                (PROJECT_HEADER, project),
                (PATH_HEADER, source),
                ("content-type", "application/json"),
            ],
        })
    }

    fn with_body<'b>(&'b self, body: &'b str) -> ObjectCall<'b> {
        ObjectCall {
            method: Method::Post,
            headers: &self.headers,
            body: Some(CallBody::Text(body)),
        }
    }
}

/// `POST /internal/fork/{call}` to `source`'s object; its answer streamed on
/// as it is (a source passing a deeper source's page on).
pub(crate) async fn call(env: &Env, project: &str, source: &str, call: &str, body: String) -> Result<Response> {
    let to = ForkCallTo::new(env, project, source, call)?;
    object_call::fetch(&to.object, &to.url, to.with_body(&body)).await
}

/// [`call`], its whole answer read in one call.
pub(crate) async fn ask(env: &Env, project: &str, source: &str, call: &str, body: String) -> Result<Answer> {
    let to = ForkCallTo::new(env, project, source, call)?;
    object_call::ask(&to.object, &to.url, to.with_body(&body)).await
}

pub(crate) fn to_json<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|error| worker::Error::RustError(error.to_string()))
}

pub(crate) fn parsed<T: for<'de> Deserialize<'de>>(body: &[u8]) -> std::result::Result<T, Result<Response>> {
    serde_json::from_slice(body).map_err(|error| responses::error(ErrorCode::InvalidRequest, &error.to_string()))
}

/// One kind of page of a prefix a source serves a fork (§18): typed data
/// events, a JSON page SQLite built, or protocol messages.
pub(crate) trait PageKind {
    /// The page as the engine builds it.
    type Page;
    /// The call that asks for it: `/internal/fork/{CALL}`.
    const CALL: &'static str;
    /// The source's answer to `ask`: its own page, or the range one hop down.
    fn segment(stream: &Stream<DoSql>, ask: &ReadAsk) -> std::result::Result<Segment<Self::Page>, StorageError>;
    /// The source's own page as its answer.
    fn response(page: Self::Page) -> Result<Response>;
}

/// A page kind the fork reads back itself (its subscriptions' and native
/// reads' pages).
pub(crate) trait FetchedPage: PageKind {
    /// The page from a source's 200 answer.
    fn decoded(headers: &Headers, text: String) -> std::result::Result<Self::Page, String>;
}

/// Serves a fork's ask for a page of kind `K` of this stream (its source):
/// its own page, or the page one source further down, answered as that
/// source answered it.
pub(crate) async fn serve_page<K: PageKind>(object: &StreamObject, project: &str, body: &[u8]) -> Result<Response> {
    let ask: ReadAsk = match parsed(body) {
        Ok(ask) => ask,
        Err(response) => return response,
    };
    let segment = {
        let slot = object.stream_slot().borrow();
        match slot.as_ref() {
            Some(stream) => K::segment(stream, &ask),
            None => return responses::error(ErrorCode::Internal, "stream not open"),
        }
    };
    match segment {
        Err(error) => responses::error(ErrorCode::Internal, &error.to_string()),
        Ok(Segment::Local(page)) => K::response(page),
        Ok(Segment::Deeper(_)) if ask.hops >= MAX_FORK_HOPS => {
            responses::error(ErrorCode::Internal, "a fork chain deeper than a read may cross (§12)")
        }
        Ok(Segment::Deeper(range)) => {
            let deeper = ReadAsk {
                after: range.after,
                through: range.through,
                hops: ask.hops + 1,
                ..ask
            };
            call(object.env(), project, range.source.as_str(), K::CALL, to_json(&deeper)?).await
        }
    }
}

/// Fetches a page of kind `K` from `source`; what went wrong as a line.
pub(crate) async fn fetch_page<K: FetchedPage>(
    env: &Env,
    project: &str,
    source: &StreamPath,
    ask: &ReadAsk,
) -> std::result::Result<K::Page, String> {
    let body = to_json(ask).map_err(|error| error.to_string())?;
    let answer = self::ask(env, project, source.as_str(), K::CALL, body)
        .await
        .map_err(|error| error.to_string())?;
    if answer.status != 200 {
        return Err(format!(
            "source answered {}: {}",
            answer.status,
            tributary::text::excerpt(&answer.lossy_text())
        ));
    }
    let Answer { headers, body, .. } = answer;
    let text = String::from_utf8(body).map_err(|error| format!("the source's page: {error}"))?;
    K::decoded(&headers, text)
}
