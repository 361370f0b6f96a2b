//! A fork's inherited events for its subscriptions (docs/design.md §18): the
//! source answers a page of its data events (one hop further below its own
//! fork point, at most `MAX_FORK_HOPS` deep); the fork's alarm fetches the
//! page its delivery scans asked for and hands it to the engine, which
//! holds it in memory. A failed fetch is logged and retried after
//! `ALARM_RETRY_MS` (the engine holds the subscriptions back until then).

use super::fork_calls::{call, parsed, to_json, ReadAsk};
use super::StreamObject;
use crate::internal::responses;
use crate::platform::sql_driver::DoSql;
use tributary::error::ErrorCode;
use tributary::fork::inherited::{InheritedPage, InheritedWant};
use tributary::fork::read::InheritedJson;
use tributary::fork::segment::Segment;
use tributary::limits::{ALARM_RETRY_MS, MAX_FORK_HOPS, MAX_READ_BYTES};
use tributary::path::StreamPath;
use tributary::route::internal::{FORK_COUNT_HEADER, FORK_NEXT_HEADER};
use tributary::stream::read::ReadError;
use tributary::stream::Stream;
use worker::{Env, Headers, Response, Result};

/// Serves a fork's ask for a page of this stream's data events.
pub async fn serve(object: &StreamObject, project: &str, body: &[u8]) -> Result<Response> {
    let ask: ReadAsk = match parsed(body) {
        Ok(ask) => ask,
        Err(response) => return response,
    };
    let segment = {
        let slot = object.stream_slot().borrow();
        match slot.as_ref() {
            Some(stream) => stream.inherited_events(ask.after, ask.through),
            None => return responses::error(ErrorCode::Internal, "stream not open"),
        }
    };
    match segment {
        Err(error) => responses::error(ErrorCode::Internal, &error.to_string()),
        Ok(Segment::Local(page)) => {
            let headers = Headers::new();
            headers.set("content-type", "application/json")?;
            Ok(Response::ok(to_json(&page)?)?.with_headers(headers))
        }
        Ok(Segment::Deeper(_)) if ask.hops >= MAX_FORK_HOPS => {
            responses::error(ErrorCode::Internal, "a fork chain deeper than a read may cross (§12)")
        }
        Ok(Segment::Deeper(range)) => {
            let deeper = ReadAsk {
                after: range.after,
                through: range.through,
                hops: ask.hops + 1,
                max_bytes: ask.max_bytes,
                limit: ask.limit,
            };
            // The deeper source's answer goes back as it is.
            call(
                object.env(),
                project,
                range.source.as_str(),
                "events",
                to_json(&deeper)?,
            )
            .await
        }
    }
}

/// Serves a fork's native read: a JSON page of this stream's data events.
pub async fn serve_json(object: &StreamObject, project: &str, body: &[u8]) -> Result<Response> {
    let ask: ReadAsk = match parsed(body) {
        Ok(ask) => ask,
        Err(response) => return response,
    };
    let limit = ask.limit.unwrap_or(tributary::limits::SCAN_PAGE_ROWS);
    let segment = {
        let slot = object.stream_slot().borrow();
        match slot.as_ref() {
            Some(stream) => stream.inherited_events_json(ask.after, ask.through, limit),
            None => return responses::error(ErrorCode::Internal, "stream not open"),
        }
    };
    match segment {
        Err(error) => responses::error(ErrorCode::Internal, &error.to_string()),
        Ok(Segment::Local(page)) => {
            let headers = Headers::new();
            headers.set("content-type", "application/json")?;
            headers.set(FORK_NEXT_HEADER, &page.next.to_string())?;
            headers.set(FORK_COUNT_HEADER, &page.count.to_string())?;
            Ok(Response::ok(page.events_json)?.with_headers(headers))
        }
        Ok(Segment::Deeper(_)) if ask.hops >= MAX_FORK_HOPS => {
            responses::error(ErrorCode::Internal, "a fork chain deeper than a read may cross (§12)")
        }
        Ok(Segment::Deeper(range)) => {
            let deeper = ReadAsk {
                after: range.after,
                through: range.through,
                hops: ask.hops + 1,
                max_bytes: ask.max_bytes,
                limit: ask.limit,
            };
            call(object.env(), project, range.source.as_str(), "page", to_json(&deeper)?).await
        }
    }
}

async fn fetch_json(
    env: &Env,
    project: &str,
    source: &StreamPath,
    ask: &ReadAsk,
) -> std::result::Result<InheritedJson, String> {
    let body = to_json(ask).map_err(|error| error.to_string())?;
    let mut response = call(env, project, source.as_str(), "page", body)
        .await
        .map_err(|error| error.to_string())?;
    let status = response.status_code();
    let header = |name: &str| -> std::result::Result<u64, String> {
        response
            .headers()
            .get(name)
            .map_err(|error| error.to_string())?
            .and_then(|value| value.parse::<u64>().ok())
            .ok_or_else(|| format!("the source's page has no {name}"))
    };
    let (next, count) = if status == 200 {
        (header(FORK_NEXT_HEADER)?, header(FORK_COUNT_HEADER)?)
    } else {
        (0, 0)
    };
    let text = response.text().await.map_err(|error| error.to_string())?;
    if status != 200 {
        return Err(format!("source answered {status}: {}", tributary::text::excerpt(&text)));
    }
    Ok(InheritedJson {
        events_json: text,
        count,
        next,
    })
}

async fn fetch(
    env: &Env,
    project: &str,
    source: &StreamPath,
    ask: &ReadAsk,
) -> std::result::Result<InheritedPage, String> {
    let body = to_json(ask).map_err(|error| error.to_string())?;
    let mut response = call(env, project, source.as_str(), "events", body)
        .await
        .map_err(|error| error.to_string())?;
    let status = response.status_code();
    let text = response.text().await.map_err(|error| error.to_string())?;
    if status != 200 {
        return Err(format!("source answered {status}: {}", tributary::text::excerpt(&text)));
    }
    serde_json::from_str::<InheritedPage>(&text).map_err(|error| format!("inherited page: {error}"))
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
    let fetched = fetch(object.env(), &project, &source, &ask).await;
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
/// answer at once.
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
    if json {
        return read_range_json(object, project, &range).await;
    }
    answer_below_fork_point(
        object,
        project,
        path,
        |stream| stream.range_read_want(&range),
        |stream, page| stream.read_range_inherited(&range, page),
    )
    .await
}

/// [`read_range`] of a fork of JSON events: the source's page spliced as
/// SQLite built it, never parsed.
async fn read_range_json(
    object: &StreamObject,
    project: &str,
    range: &tributary::stream::RangeQuery,
) -> Result<Option<Response>> {
    let want = {
        let slot = object.stream_slot().borrow();
        match slot.as_ref().map(|stream| stream.range_read_want(range)) {
            Some(Ok(Some(want))) => want,
            _ => return Ok(None),
        }
    };
    let ask = ReadAsk {
        after: want.after,
        through: want.through,
        hops: 1,
        max_bytes: MAX_READ_BYTES,
        limit: Some(range.limit),
    };
    let page = match fetch_json(object.env(), project, &want.source, &ask).await {
        Ok(page) => page,
        Err(error) => {
            return responses::error(ErrorCode::Internal, &format!("reading the fork's source: {error}")).map(Some);
        }
    };
    let read = {
        let slot = object.stream_slot().borrow();
        match slot.as_ref() {
            Some(stream) => stream.read_range_inherited_json(range, page),
            None => return responses::error(ErrorCode::Internal, "stream not open").map(Some),
        }
    };
    let answered = match read {
        Ok(read) => tributary::api::ApiResponse::json_text(200, read.body),
        Err(error) => tributary::error::ApiError::from(error).into(),
    };
    responses::from_api(answered).map(Some)
}

/// A point read of an offset in a fork's prefix (§18): the source's event
/// there. `None` when the offset is the fork's own (the ordinary read).
pub async fn read_one(
    object: &StreamObject,
    project: &str,
    path: &StreamPath,
    offset: u64,
) -> Result<Option<Response>> {
    answer_below_fork_point(
        object,
        project,
        path,
        |stream| stream.point_read_want(offset),
        |stream, page| stream.read_one_inherited(offset, page),
    )
    .await
}

/// What both reads share: the engine names the source page it needs (or
/// none: an ordinary read, or an error the ordinary read answers), the page
/// is fetched, and the engine answers with it.
async fn answer_below_fork_point<T: serde::Serialize>(
    object: &StreamObject,
    project: &str,
    path: &StreamPath,
    want: impl FnOnce(&Stream<DoSql>) -> std::result::Result<Option<InheritedWant>, ReadError>,
    answer: impl FnOnce(&Stream<DoSql>, InheritedPage) -> std::result::Result<T, ReadError>,
) -> Result<Option<Response>> {
    if object.open_stream(project, path).is_err() {
        return Ok(None);
    }
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
        limit: None,
    };
    let page = match fetch(object.env(), project, &want.source, &ask).await {
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
    let answered = match read {
        Ok(read) => tributary::api::ApiResponse::json(200, &read),
        Err(error) => tributary::error::ApiError::from(error).into(),
    };
    responses::from_api(answered).map(Some)
}
