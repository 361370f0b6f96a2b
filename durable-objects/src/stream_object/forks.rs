//! Forks in the stream object (docs/design.md §18): what a fork asks its source
//! — a grant (which records the edge), pages of its prefix, a release — and
//! how the source answers. A page below a source's own fork point goes one
//! hop further, at most `MAX_FORK_HOPS` deep; a release the source did not
//! acknowledge stays in the outbox and is sent again from the alarm.

use super::fork_calls::{self, call, parsed, serve_page, to_json, PageKind, ReadAsk};
use super::inherited::{EventPages, JsonPages};
use super::StreamObject;
use crate::internal::object_call::Answer;
use crate::internal::responses;
use crate::platform::sql_driver::DoSql;
use serde::{Deserialize, Serialize};
use tributary::durable_streams::face::{Inherited, ProtocolAnswer};
use tributary::error::{ApiError, ErrorCode};
use tributary::fork::segment::Segment;
use tributary::fork::source::{ForkAsk, ForkGrant, GrantError};
use tributary::fork::store::{self as fork_store, ReleaseRow};
use tributary::limits::{ALARM_RETRY_MS, MAX_FORK_READ_SEGMENTS, MAX_FORK_RELEASES_PER_TURN, MAX_READ_BYTES};
use tributary::path::StreamPath;
use tributary::route::internal::{ForkCall, FORK_ANY_HEADER, FORK_NEXT_HEADER, PATH_HEADER};
use tributary::route::BodyLimit;
use tributary::storage::StorageError;
use tributary::stream::Stream;
use worker::{Env, Headers, Request, Response, Result};

/// A fork's release of its source's lifetime.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReleaseAsk {
    fork_path: String,
    /// `None`: an acquire whose creation never committed.
    stream_id: Option<String>,
}

/// A source's refusal, answered to the fork's client as it is.
fn passed_on(answer: Answer) -> ProtocolAnswer {
    ProtocolAnswer::new(
        answer.status,
        vec![("Content-Type", "application/json".to_owned())],
        answer.body,
    )
}

fn internal(message: String) -> ProtocolAnswer {
    ProtocolAnswer::refusal(ApiError::new(ErrorCode::Internal, message), Vec::new())
}

/// Asks `source` to grant a fork (PROTOCOL §4.2): the grant, or the
/// source's refusal as the fork's answer.
pub async fn acquire(
    env: &Env,
    project: &str,
    source: &StreamPath,
    ask: &ForkAsk,
) -> Result<std::result::Result<ForkGrant, ProtocolAnswer>> {
    let answer = fork_calls::ask(env, project, source.as_str(), "acquire", to_json(ask)?).await?;
    if answer.status != 200 {
        return Ok(Err(passed_on(answer)));
    }
    Ok(serde_json::from_slice::<ForkGrant>(&answer.body).map_err(|error| internal(format!("fork grant: {error}"))))
}

async fn read_page(
    env: &Env,
    project: &str,
    source: &StreamPath,
    ask: &ReadAsk,
) -> Result<std::result::Result<Inherited, ProtocolAnswer>> {
    let answer = fork_calls::ask(env, project, source.as_str(), "read", to_json(ask)?).await?;
    if answer.status != 200 {
        return Ok(Err(passed_on(answer)));
    }
    let next = answer
        .headers
        .get(FORK_NEXT_HEADER)?
        .and_then(|value| value.parse::<u64>().ok())
        .unwrap_or(ask.after);
    let any = answer.headers.get(FORK_ANY_HEADER)?.as_deref() == Some("1");
    Ok(Ok(Inherited {
        body: answer.body,
        next,
        any,
    }))
}

/// The fork's prefix after `after` through `through`: pages of its source
/// stitched, at most [`MAX_FORK_READ_SEGMENTS`] and about [`MAX_READ_BYTES`].
pub async fn read_prefix(
    env: &Env,
    project: &str,
    source: &StreamPath,
    after: u64,
    through: u64,
    json: bool,
) -> Result<std::result::Result<Inherited, ProtocolAnswer>> {
    let mut gathered = Inherited {
        body: if json { b"[]".to_vec() } else { Vec::new() },
        next: after,
        any: false,
    };
    for _segment in 0..MAX_FORK_READ_SEGMENTS {
        if gathered.next >= through || gathered.body.len() >= MAX_READ_BYTES {
            break;
        }
        let ask = ReadAsk {
            after: gathered.next,
            through,
            hops: 1,
            max_bytes: MAX_READ_BYTES.saturating_sub(gathered.body.len()),
            limit: None,
        };
        let page = match read_page(env, project, source, &ask).await? {
            Ok(page) => page,
            Err(refused) => return Ok(Err(refused)),
        };
        let advanced = page.next > gathered.next;
        gathered = gathered.then(page, json);
        if !advanced {
            break;
        }
    }
    Ok(Ok(gathered))
}

/// Serves what a fork asks this stream (its source).
pub async fn serve(
    object: &StreamObject,
    request: &mut Request,
    project: &str,
    fork_call: ForkCall,
) -> Result<Response> {
    let raw_path = request.headers().get(PATH_HEADER)?.unwrap_or_default();
    let Ok(path) = StreamPath::parse(&raw_path) else {
        return responses::error(ErrorCode::InvalidPath, "fork route needs a valid stream path");
    };
    let body = match crate::internal::request_body::read_or_refuse(request, BodyLimit::INTERNAL).await? {
        Ok(body) => body,
        Err(refused) => return Ok(refused),
    };
    if let Err(error) = object.open_stream(project, &path) {
        return responses::error(ErrorCode::Internal, &error);
    }
    match fork_call {
        ForkCall::Acquire => serve_acquire(object, &body),
        ForkCall::Read => serve_page::<MessagePages>(object, project, &body).await,
        ForkCall::Events => serve_page::<EventPages>(object, project, &body).await,
        ForkCall::Page => serve_page::<JsonPages>(object, project, &body).await,
        ForkCall::Release => serve_release(object, &body).await,
    }
}

fn serve_acquire(object: &StreamObject, body: &[u8]) -> Result<Response> {
    let ask: ForkAsk = match parsed(body) {
        Ok(ask) => ask,
        Err(response) => return response,
    };
    let granted = {
        let mut slot = object.stream_slot().borrow_mut();
        match slot.as_mut() {
            Some(stream) => stream.grant_fork(&ask),
            None => return responses::error(ErrorCode::Internal, "stream not open"),
        }
    };
    match granted {
        Ok(grant) => {
            let json = to_json(&grant)?;
            let headers = Headers::new();
            headers.set("content-type", "application/json")?;
            Ok(Response::ok(json)?.with_headers(headers))
        }
        Err(GrantError::Refused(refusal)) => responses::api_error(ApiError::from(refusal)),
        Err(GrantError::Storage(error)) => responses::error(ErrorCode::Internal, &error.to_string()),
    }
}

/// Protocol messages (`/internal/fork/read`): one page body of the fork's
/// content type, stitched by [`read_prefix`]; where it ends and whether it
/// holds any message travel as headers.
struct MessagePages;

impl PageKind for MessagePages {
    type Page = Inherited;
    const CALL: &'static str = "read";

    fn segment(stream: &Stream<DoSql>, ask: &ReadAsk) -> std::result::Result<Segment<Inherited>, StorageError> {
        stream.inherited_segment(ask.after, ask.through, ask.max_bytes)
    }

    fn response(page: Inherited) -> Result<Response> {
        let headers = Headers::new();
        headers.set(FORK_NEXT_HEADER, &page.next.to_string())?;
        headers.set(FORK_ANY_HEADER, if page.any { "1" } else { "0" })?;
        Ok(Response::from_bytes(page.body)?.with_headers(headers))
    }
}

async fn serve_release(object: &StreamObject, body: &[u8]) -> Result<Response> {
    let ask: ReleaseAsk = match parsed(body) {
        Ok(ask) => ask,
        Err(response) => return response,
    };
    let released = {
        let mut slot = object.stream_slot().borrow_mut();
        match slot.as_mut() {
            Some(stream) => {
                let had = stream.lifetime().is_some();
                stream
                    .release_fork(&ask.fork_path, ask.stream_id.as_deref())
                    .map(|()| had && stream.lifetime().is_none())
            }
            None => return responses::error(ErrorCode::Internal, "stream not open"),
        }
    };
    match released {
        Ok(purged) => {
            if purged {
                object.live().close_all(object);
                object.protocol_sse().end_all();
                object.touch_metrics();
                object.schedule_alarm().await?;
            }
            // A purged fork releases its own source: the cascade (§18).
            send_releases(object).await?;
            Response::ok("")
        }
        Err(error) => responses::error(ErrorCode::Internal, &error.to_string()),
    }
}

/// Sends the releases this stream owes that are due, at most
/// [`MAX_FORK_RELEASES_PER_TURN`]; what is left is retried from the alarm.
pub async fn send_releases(object: &StreamObject) -> Result<()> {
    let storage = object.sql().driver();
    let now = crate::platform::now_ms();
    let Some(turn) = fork_store::release_turn(&storage, now, MAX_FORK_RELEASES_PER_TURN).map_err(storage_error)? else {
        return Ok(());
    };
    if turn.owed.is_empty() {
        return arm_at(object, turn.next_due, false).await;
    }
    let mut failed = false;
    for release in turn.owed {
        if release_one(object.env(), &release).await.unwrap_or(false) {
            fork_store::released(&storage, &release.source_path, &release.fork_path).map_err(storage_error)?;
        } else {
            failed = true;
        }
    }
    arm_for_releases(object, failed).await
}

/// Sets the alarm no later than the next owed release (a failed send is
/// retried after [`ALARM_RETRY_MS`]); never later than an alarm already set.
pub async fn arm_for_releases(object: &StreamObject, failed: bool) -> Result<()> {
    let storage = object.sql().driver();
    let due = fork_store::next_release_due(&storage).map_err(storage_error)?;
    arm_at(object, due, failed).await
}

/// [`arm_for_releases`] for a release due at `due` (`None`: none owed).
async fn arm_at(object: &StreamObject, due: Option<i64>, failed: bool) -> Result<()> {
    let Some(due) = due else {
        return Ok(());
    };
    let now = crate::platform::now_ms();
    let at = if failed { now + ALARM_RETRY_MS } else { due.max(now) };
    let alarms = object.state().storage();
    if alarms.get_alarm().await?.is_none_or(|set| set > at) {
        alarms
            .set_alarm(worker::ScheduledTime::new(js_sys::Date::new(&(at as f64).into())))
            .await?;
    }
    Ok(())
}

fn storage_error(error: tributary::storage::StorageError) -> worker::Error {
    worker::Error::RustError(error.to_string())
}

/// Whether the source acknowledged (a source that no longer exists did).
async fn release_one(env: &Env, release: &ReleaseRow) -> Result<bool> {
    let ask = ReleaseAsk {
        fork_path: release.fork_path.clone(),
        stream_id: release.source_stream_id.clone(),
    };
    let response = call(
        env,
        &release.project_id,
        &release.source_path,
        "release",
        to_json(&ask)?,
    )
    .await?;
    Ok(response.status_code() < 300)
}

/// After a request: sends what a deletion made owed, if anything.
pub async fn after_request(object: &StreamObject) -> Result<()> {
    let owed = object
        .stream_slot()
        .borrow()
        .as_ref()
        .is_some_and(|stream| stream.take_owed_release());
    if owed {
        send_releases(object).await?;
    }
    Ok(())
}
