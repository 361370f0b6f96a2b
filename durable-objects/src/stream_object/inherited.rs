//! A fork's inherited events (docs/design.md §18): the source answers a
//! page of its data events (one hop further below its own fork point, at
//! most `MAX_FORK_HOPS` deep) as typed events ([`EventPages`]) or as a JSON
//! page SQLite built ([`JsonPages`]). The fork's alarm fetches the page its
//! delivery scans asked for and hands it to the engine, which holds it in
//! memory; a failed fetch is logged and retried after `ALARM_RETRY_MS` (the
//! engine holds the subscriptions back until then). A native read below the
//! fork point fetches one page and answers with it.

use super::fork_calls::{fetch_page, to_json, FetchedPage, PageKind, ReadAsk};
use super::StreamObject;
use crate::internal::responses;
use crate::platform::sql_driver::DoSql;
use tributary::api::ApiResponse;
use tributary::error::{ApiError, ErrorCode};
use tributary::fork::inherited::{InheritedPage, InheritedWant};
use tributary::fork::read::InheritedJson;
use tributary::fork::segment::Segment;
use tributary::limits::{ALARM_RETRY_MS, MAX_READ_BYTES, SCAN_PAGE_ROWS};
use tributary::path::StreamPath;
use tributary::route::internal::{FORK_COUNT_HEADER, FORK_NEXT_HEADER};
use tributary::storage::StorageError;
use tributary::stream::read::ReadError;
use tributary::stream::Stream;
use worker::{Headers, Response, Result};

/// Typed data events (`/internal/fork/events`): the pages a fork's
/// subscriptions hold, and those its point reads and the range reads of a
/// stream of byte messages answer with.
pub(crate) struct EventPages;

impl PageKind for EventPages {
    type Page = InheritedPage;
    const CALL: &'static str = "events";

    fn segment(stream: &Stream<DoSql>, ask: &ReadAsk) -> std::result::Result<Segment<InheritedPage>, StorageError> {
        stream.inherited_events(ask.after, ask.through)
    }

    fn response(page: InheritedPage) -> Result<Response> {
        let headers = Headers::new();
        headers.set("content-type", "application/json")?;
        Ok(Response::ok(to_json(&page)?)?.with_headers(headers))
    }
}

impl FetchedPage for EventPages {
    fn decoded(_headers: &Headers, text: String) -> std::result::Result<InheritedPage, String> {
        serde_json::from_str::<InheritedPage>(&text).map_err(|error| format!("inherited page: {error}"))
    }
}

/// A JSON page SQLite built (`/internal/fork/page`): a native range read of
/// a fork of JSON events splices it, never parsed; where it ends and how
/// many events it holds travel as headers.
pub(crate) struct JsonPages;

impl PageKind for JsonPages {
    type Page = InheritedJson;
    const CALL: &'static str = "page";

    fn segment(stream: &Stream<DoSql>, ask: &ReadAsk) -> std::result::Result<Segment<InheritedJson>, StorageError> {
        let limit = ask.limit.unwrap_or(SCAN_PAGE_ROWS);
        stream.inherited_events_json(ask.after, ask.through, limit)
    }

    fn response(page: InheritedJson) -> Result<Response> {
        let headers = Headers::new();
        headers.set("content-type", "application/json")?;
        headers.set(FORK_NEXT_HEADER, &page.next.to_string())?;
        headers.set(FORK_COUNT_HEADER, &page.count.to_string())?;
        Ok(Response::ok(page.events_json)?.with_headers(headers))
    }
}

impl FetchedPage for JsonPages {
    fn decoded(headers: &Headers, text: String) -> std::result::Result<InheritedJson, String> {
        let header = |name: &str| -> std::result::Result<u64, String> {
            headers
                .get(name)
                .map_err(|error| error.to_string())?
                .and_then(|value| value.parse::<u64>().ok())
                .ok_or_else(|| format!("the source's page has no {name}"))
        };
        let next = header(FORK_NEXT_HEADER)?;
        let count = header(FORK_COUNT_HEADER)?;
        Ok(InheritedJson {
            events_json: text,
            count,
            next,
        })
    }
}

/// What [`fetch_wanted`] did.
pub enum Fetched {
    /// The engine wanted no page.
    Nothing,
    /// The page is held: plan again.
    Held,
    /// The source could not be read; the line logged.
    Failed(String),
}

/// Fetches the page the engine wants next, if it wants one, and hands it
/// over (one subrequest when it fetched).
pub async fn fetch_wanted(object: &StreamObject) -> Result<Fetched> {
    let (want, project) = {
        let mut slot = object.stream_slot().borrow_mut();
        let Some(stream) = slot.as_mut() else {
            return Ok(Fetched::Nothing);
        };
        match stream.take_inherited_want() {
            Ok(Some(want)) => (want, stream.project_id().to_owned()),
            Ok(None) => return Ok(Fetched::Nothing),
            Err(error) => return Err(worker::Error::RustError(error.to_string())),
        }
    };
    let InheritedWant { source, after, through } = want;
    let ask = ReadAsk {
        after,
        through,
        hops: 1,
        max_bytes: MAX_READ_BYTES,
        limit: None,
    };
    let fetched = fetch_page::<EventPages>(object.env(), &project, &source, &ask).await;
    let mut slot = object.stream_slot().borrow_mut();
    let Some(stream) = slot.as_mut() else {
        return Ok(Fetched::Nothing);
    };
    Ok(match fetched {
        Ok(page) => {
            stream.hold_inherited(page, crate::platform::now_ms());
            Fetched::Held
        }
        Err(error) => {
            stream.inherited_unavailable(crate::platform::now_ms() + ALARM_RETRY_MS);
            let line = serde_json::json!({"event": "fork_inherited_read_failed", "path": stream.path().as_str(),
                "source": source.as_str(), "afterOffset": after, "error": error})
            .to_string();
            worker::console_log!("{line}");
            Fetched::Failed(line)
        }
    })
}

/// A native range read of a fork that starts below its fork point (§18):
/// one source page, then the fork's own when the page reaches the point.
/// `None` when the read is an ordinary one (the caller serves it, waiting
/// as a long-poll asks); a read below the point always has something to
/// answer at once. A fork of JSON events splices the source's JSON page.
pub async fn read_range(
    object: &StreamObject,
    project: &str,
    path: &StreamPath,
    query: &str,
) -> Result<Option<Response>> {
    let Ok((rest, _wait)) = tributary::live::split_wait(query) else {
        return Ok(None);
    };
    let Ok(range) = tributary::stream::RangeQuery::parse(&rest) else {
        return Ok(None);
    };
    if object.open_stream(project, path).is_err() {
        return Ok(None);
    }
    let json = {
        let slot = object.stream_slot().borrow();
        slot.as_ref()
            .is_some_and(|stream| stream.reads_inherited_json().unwrap_or(false))
    };
    let want = |stream: &Stream<DoSql>| stream.range_read_want(&range);
    if json {
        return answer_below_fork_point::<JsonPages>(object, project, Some(range.limit), want, |stream, page| {
            let read = stream.read_range_inherited_json(&range, page)?;
            Ok(ApiResponse::json_text(200, read.body))
        })
        .await;
    }
    answer_below_fork_point::<EventPages>(object, project, None, want, |stream, page| {
        Ok(ApiResponse::json(200, &stream.read_range_inherited(&range, page)?))
    })
    .await
}

/// A point read of an offset in a fork's prefix (§18): the source's event
/// there. `None` when the offset is the fork's own (the ordinary read).
pub async fn read_one(
    object: &StreamObject,
    project: &str,
    path: &StreamPath,
    offset: u64,
) -> Result<Option<Response>> {
    if object.open_stream(project, path).is_err() {
        return Ok(None);
    }
    answer_below_fork_point::<EventPages>(
        object,
        project,
        None,
        |stream| stream.point_read_want(offset),
        |stream, page| Ok(ApiResponse::json(200, &stream.read_one_inherited(offset, page)?)),
    )
    .await
}

/// What the reads share: the engine names the source page it needs (or
/// none: an ordinary read, or an error the ordinary read answers), the page
/// (of kind `K`, at most `limit` events) is fetched, and the engine answers
/// with it.
async fn answer_below_fork_point<K: FetchedPage>(
    object: &StreamObject,
    project: &str,
    limit: Option<u64>,
    want: impl FnOnce(&Stream<DoSql>) -> std::result::Result<Option<InheritedWant>, ReadError>,
    answer: impl FnOnce(&Stream<DoSql>, K::Page) -> std::result::Result<ApiResponse, ReadError>,
) -> Result<Option<Response>> {
    let want = {
        let slot = object.stream_slot().borrow();
        match slot.as_ref().map(want) {
            Some(Ok(Some(want))) => want,
            _ => return Ok(None),
        }
    };
    let ask = ReadAsk {
        after: want.after,
        through: want.through,
        hops: 1,
        max_bytes: MAX_READ_BYTES,
        limit,
    };
    let page = match fetch_page::<K>(object.env(), project, &want.source, &ask).await {
        Ok(page) => page,
        Err(error) => {
            return responses::error(ErrorCode::Internal, &format!("reading the fork's source: {error}")).map(Some);
        }
    };
    let read = {
        let slot = object.stream_slot().borrow();
        match slot.as_ref() {
            Some(stream) => answer(stream, page),
            None => return responses::error(ErrorCode::Internal, "stream not open").map(Some),
        }
    };
    let answered = read.unwrap_or_else(|error| ApiError::from(error).into());
    responses::from_api(answered).map(Some)
}
