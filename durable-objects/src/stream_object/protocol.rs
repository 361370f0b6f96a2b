//! The Durable Streams face in the stream object (docs/design.md §17): a
//! forwarded protocol request becomes the engine's `ProtocolRequest`; what
//! the engine cannot do — wait — is done here: a long-poll at the tail waits
//! for an append (up to `DS_LONG_POLL_TIMEOUT_MS`), and an SSE response is a
//! channel the stream's fan-out feeds (`push_sse`), ended after 60 s at
//! most. No borrow of the stream is held across an await.

use super::StreamObject;
use crate::internal::answers::{self, Answer};
use crate::internal::incoming::{Incoming, ReadBody};
use crate::internal::responses;
use crate::platform::timers::within;
use futures_channel::mpsc::{unbounded, UnboundedSender};
use futures_util::StreamExt;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use tributary::durable_streams::face::{Continued, Inherited, Method, ProtocolAnswer, ProtocolRequest, Resumed, Then};
use tributary::error::ErrorCode;
use tributary::fork::ForkGrant;
use tributary::limits::{
    MAX_LONG_POLL_WAKES, PROTOCOL_LONG_POLL_DEFAULT_MS, PROTOCOL_LONG_POLL_MIN_MS, PROTOCOL_SSE_KEEPALIVE_MS,
    PROTOCOL_SSE_MAX_LIFETIME_MS,
};
use tributary::path::StreamPath;
use worker::{Headers, Response, Result};

/// The header the router passes the client's URL of the stream in (the
/// `Location` of a create).
pub const LOCATION_HEADER: &str = "x-tributary-protocol-url";

/// Request headers handed to the engine at most (the platform bounds their
/// bytes; this bounds the count).
const MAX_REQUEST_HEADERS: usize = 64;

/// SSE frames of a catch-up sent at the opening at most (pages); the rest
/// follows the client's reconnect from the last offset.
const SSE_OPENING_PAGES: usize = 8;

/// One open protocol SSE response.
struct SseSink {
    sender: UnboundedSender<Vec<u8>>,
    after: Cell<u64>,
    cursor: Option<u64>,
}

/// The stream object's open protocol SSE responses.
#[derive(Default)]
pub struct ProtocolSse {
    sinks: RefCell<BTreeMap<u64, SseSink>>,
    next_id: Cell<u64>,
}

/// The deployment's long-poll timeout (§17), clamped.
fn long_poll_timeout_ms(object: &StreamObject) -> u64 {
    object
        .env()
        .var("DS_LONG_POLL_TIMEOUT_MS")
        .ok()
        .and_then(|value| value.to_string().trim().parse::<u64>().ok())
        .unwrap_or(PROTOCOL_LONG_POLL_DEFAULT_MS)
        .clamp(PROTOCOL_LONG_POLL_MIN_MS, PROTOCOL_LONG_POLL_DEFAULT_MS)
}

/// Serves one forwarded protocol request.
pub async fn serve(
    object: &StreamObject,
    request: &mut Incoming,
    project: &str,
    path: &StreamPath,
    method: Method,
    query: &str,
) -> Result<Answer> {
    let body = match method {
        Method::Put | Method::Post => request.bytes().await.unwrap_or_default(),
        _ => Vec::new(),
    };
    let headers = request.header_pairs(MAX_REQUEST_HEADERS)?;
    let location = request.headers().get(LOCATION_HEADER)?.unwrap_or_default();
    serve_parts(object, project, path, method, query, &headers, &body, &location).await
}

/// [`serve`] once the request is read (the native fork route comes here too).
#[allow(clippy::too_many_arguments)]
pub async fn serve_parts(
    object: &StreamObject,
    project: &str,
    path: &StreamPath,
    method: Method,
    query: &str,
    headers: &[(String, String)],
    body: &[u8],
    location: &str,
) -> Result<Answer> {
    if let Err(error) = object.open_stream(project, path) {
        return responses::error(ErrorCode::Internal, &error).map(Answer::from);
    }
    let deadline = crate::platform::now_ms() + i64::try_from(long_poll_timeout_ms(object)).unwrap_or(0);
    let mut resumed: Option<Resumed> = None;
    // What a fork's source answered (§18): asked once per request each.
    let mut grant: Option<ForkGrant> = None;
    let mut inherited: Option<Inherited> = None;
    for _wake in 0..MAX_LONG_POLL_WAKES {
        let inputs = crate::platform::inputs()?;
        let continued = match (&grant, &inherited) {
            (Some(grant), _) => Some(Continued::Granted(grant)),
            (None, Some(inherited)) => Some(Continued::Inherited(inherited)),
            (None, None) => None,
        };
        let protocol_request = ProtocolRequest {
            method,
            query,
            headers,
            body,
            location,
            resumed,
            continued,
        };
        let answer = {
            let mut slot = object.stream_slot().borrow_mut();
            match slot.as_mut() {
                Some(stream) => stream.protocol(&protocol_request, &inputs),
                None => return responses::error(ErrorCode::Internal, "stream not open").map(Answer::from),
            }
        };
        match answer.then.clone() {
            Then::Respond => return respond(object, method, answer).await,
            Then::Sse { after, cursor } => return open_sse(object, project, answer, after, cursor).await,
            Then::AcquireFork { source, ask } => {
                if grant.is_some() {
                    return responses::error(ErrorCode::Internal, "a fork was granted twice").map(Answer::from);
                }
                // The pending release the engine wrote gets its alarm first.
                super::forks::arm_for_releases(object, false).await?;
                match super::forks::acquire(object.env(), project, &source, &ask).await? {
                    Ok(granted) => grant = Some(granted),
                    Err(refused) => return to_answer(refused.with_security_headers(), false),
                }
            }
            Then::ReadInherited { source, after, through } => {
                if inherited.is_some() {
                    return responses::error(ErrorCode::Internal, "a fork's prefix was read twice").map(Answer::from);
                }
                let json = json_face(object)?;
                match super::forks::read_prefix(object.env(), project, &source, after, through, json).await? {
                    Ok(page) => inherited = Some(page),
                    Err(refused) => return to_answer(refused.with_security_headers(), false),
                }
            }
            Then::WaitForAppend { after } => {
                let remaining = deadline - crate::platform::now_ms();
                if remaining <= 0 {
                    resumed = Some(Resumed {
                        after,
                        waited_out: true,
                    });
                    continue;
                }
                if let Err(error) = object
                    .live()
                    .wait_for_commit(object, u64::try_from(remaining).unwrap_or(0))
                    .await
                {
                    return responses::api_error(error).map(Answer::from);
                }
                resumed = Some(Resumed {
                    after,
                    waited_out: crate::platform::now_ms() >= deadline,
                });
            }
        }
    }
    responses::error(ErrorCode::Internal, "long-poll woke too often").map(Answer::from)
}

/// Whether the stream's messages read as JSON arrays.
fn json_face(object: &StreamObject) -> Result<bool> {
    object
        .stream_slot()
        .borrow()
        .as_ref()
        .map(|stream| stream.protocol_is_json())
        .transpose()
        .map_err(|error| worker::Error::RustError(error.to_string()))
        .map(|json| json.unwrap_or(true))
}

/// Sends an answer, after what a write needs: live readers, the alarm.
async fn respond(object: &StreamObject, method: Method, answer: ProtocolAnswer) -> Result<Answer> {
    let wrote = answer.status < 300 && matches!(method, Method::Put | Method::Post);
    let deleted = answer.status < 300 && method == Method::Delete;
    object.live().fan_out(object);
    if deleted {
        object.live().close_all(object);
        object.protocol_sse().end_all();
    }
    if wrote || deleted {
        object.touch_metrics();
        object.schedule_alarm().await?;
    }
    to_answer(answer, method == Method::Head)
}

fn to_answer(answer: ProtocolAnswer, head: bool) -> Result<Answer> {
    let with_body = !(answer.body.is_empty() || head || answer.status == 204 || answer.status == 304);
    answers::respond_with(answer.status, &answer.headers, &answer.body, with_body).map(Answer::Object)
}

/// Opens an SSE response after `after`: the first frames now, the rest as
/// the stream commits (`push_sse`), ended after 60 s (PROTOCOL §10.2).
async fn open_sse(
    object: &StreamObject,
    project: &str,
    answer: ProtocolAnswer,
    after: u64,
    cursor: Option<u64>,
) -> Result<Answer> {
    let (sender, receiver) = unbounded::<Vec<u8>>();
    let sink = SseSink {
        sender,
        after: Cell::new(after),
        cursor,
    };
    let mut ended = false;
    let mut announce = true;
    // A fork's SSE below its fork point opens with its source's pages (§18).
    let fork = object
        .stream_slot()
        .borrow()
        .as_ref()
        .map(|stream| stream.fork_source())
        .transpose()
        .map_err(|error| worker::Error::RustError(error.to_string()))?
        .flatten();
    if let Some((source, point)) = fork.filter(|(_, point)| after < *point) {
        let json = json_face(object)?;
        let page = match super::forks::read_prefix(object.env(), project, &source, after, point, json).await? {
            Ok(page) => page,
            Err(refused) => return to_answer(refused.with_security_headers(), false),
        };
        let inputs = crate::platform::inputs()?;
        let frames = object
            .stream_slot()
            .borrow()
            .as_ref()
            .map(|stream| stream.protocol_sse_inherited(&page, cursor, &inputs))
            .transpose()
            .map_err(|error| worker::Error::RustError(error.to_string()))?
            .unwrap_or_default();
        let _ = sink.sender.unbounded_send(frames.into_bytes());
        sink.after.set(page.next);
        announce = false;
        // A prefix longer than one read: the client reconnects from its end.
        ended = page.next < point;
    }
    if !ended {
        let slot = object.stream_slot().borrow();
        if let Some(stream) = slot.as_ref() {
            for page in 0..SSE_OPENING_PAGES {
                let inputs = crate::platform::inputs()?;
                match stream.protocol_sse_step(sink.after.get(), cursor, announce && page == 0, &inputs) {
                    Ok(step) => {
                        // An empty chunk ends the response: send only frames.
                        if !step.frames.is_empty() {
                            let _ = sink.sender.unbounded_send(step.frames.into_bytes());
                        }
                        sink.after.set(step.next);
                        ended = step.ended;
                        if step.caught_up || step.ended {
                            break;
                        }
                    }
                    Err(_) => {
                        ended = true;
                        break;
                    }
                }
                if page + 1 == SSE_OPENING_PAGES {
                    // A long catch-up: the client reconnects from its last offset.
                    ended = true;
                }
            }
        }
    }
    if ended {
        let _ = sink.sender.unbounded_send(Vec::new());
    } else {
        let sse = object.protocol_sse();
        let id = sse.next_id.get();
        sse.next_id.set(id.wrapping_add(1));
        sse.sinks.borrow_mut().insert(id, sink);
    }
    let lifetime = u64::try_from(PROTOCOL_SSE_MAX_LIFETIME_MS).unwrap_or(60_000);
    let body = futures_util::stream::unfold(receiver, |mut receiver| async move {
        match within(PROTOCOL_SSE_KEEPALIVE_MS, receiver.next()).await {
            Some(Some(chunk)) if chunk.is_empty() => None,
            Some(Some(chunk)) => Some((Ok::<Vec<u8>, worker::Error>(chunk), receiver)),
            Some(None) => None,
            // A comment line keeps intermediaries from closing a quiet response.
            None => Some((Ok(b": keep-alive\n\n".to_vec()), receiver)),
        }
    })
    .take_until(crate::platform::timers::sleep(lifetime));
    let headers = Headers::new();
    for (name, value) in &answer.headers {
        headers.append(name, value)?;
    }
    Ok(Response::from_stream(body)?.with_headers(headers).into())
}

impl ProtocolSse {
    /// Sends every open response what the stream committed since (called
    /// by the fan-out when the head moved); ends those that reached the end
    /// of a closed stream or whose client left.
    pub fn push(&self, stream: &tributary::stream::Stream<crate::platform::sql_driver::DoSql>) {
        let Ok(inputs) = crate::platform::inputs() else {
            return;
        };
        self.sinks.borrow_mut().retain(|_, sink| {
            if sink.sender.is_closed() {
                return false;
            }
            match stream.protocol_sse_step(sink.after.get(), sink.cursor, false, &inputs) {
                Ok(step) => {
                    sink.after.set(step.next);
                    let sent = step.frames.is_empty() || sink.sender.unbounded_send(step.frames.into_bytes()).is_ok();
                    let keep = sent && !step.ended && step.caught_up;
                    if !keep {
                        let _ = sink.sender.unbounded_send(Vec::new());
                    }
                    keep
                }
                Err(_) => {
                    let _ = sink.sender.unbounded_send(Vec::new());
                    false
                }
            }
        });
    }

    /// Ends every open response (the stream was deleted).
    pub fn end_all(&self) {
        for (_, sink) in std::mem::take(&mut *self.sinks.borrow_mut()) {
            let _ = sink.sender.unbounded_send(Vec::new());
        }
    }
}

/// `POST /v1/streams/{path}/-/fork` `{"from", "at"?}` (§18): the same
/// creation as the protocol's `PUT`; answers the fork's stream info (201, or
/// 200 when it exists as asked) or the refusal.
pub async fn native_fork(
    object: &StreamObject,
    request: &mut Incoming,
    project: &str,
    path: &StreamPath,
) -> Result<Answer> {
    let body = match crate::internal::request_body::read_or_refuse(
        request,
        tributary::route::BodyLimit::of(&tributary::route::Action::Fork),
    )
    .await?
    {
        Ok(body) => body,
        Err(refused) => return Ok(refused.into()),
    };
    let fork = match tributary::fork::native::NativeFork::parse(&body) {
        Ok(fork) => fork,
        Err(error) => return responses::api_error(*error).map(Answer::from),
    };
    let location = format!("{}{}", tributary::route::PROTOCOL_PREFIX, path);
    let headers = fork.protocol_headers();
    let answer = serve_parts(
        object,
        project,
        path,
        tributary::durable_streams::face::Method::Put,
        "",
        &headers,
        &[],
        &location,
    )
    .await?;
    let status = answer.status();
    if status >= 300 {
        return Ok(answer);
    }
    let info = {
        let slot = object.stream_slot().borrow();
        match slot
            .as_ref()
            .map(|stream| stream.info().map(|info| serde_json::to_string(&info)))
        {
            Some(Ok(Ok(json))) => json,
            Some(Ok(Err(error))) => return responses::error(ErrorCode::Internal, &error.to_string()).map(Answer::from),
            Some(Err(error)) => return responses::api_error(error).map(Answer::from),
            None => return responses::error(ErrorCode::Internal, "stream not open").map(Answer::from),
        }
    };
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    Ok(Response::ok(info)?.with_status(status).with_headers(headers).into())
}
