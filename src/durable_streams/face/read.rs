//! Reads through the protocol face (docs/design.md §17, PROTOCOL §5.5–5.8):
//! `HEAD`, catch-up, long-poll and SSE frames. A page holds the messages
//! after a position — control and ephemeral events are skipped but still
//! move the position, so a reader at the tail is up to date — within the
//! read budgets of §12.

use super::write::Face;
use super::{not_found, Continued, ProtocolAnswer, ProtocolRequest, Then};
use crate::durable_streams::offset::ReadStart;
use crate::durable_streams::query::{LiveMode, ReadQuery};
use crate::durable_streams::response::{self, ReadResult};
use crate::durable_streams::sse::{self, Control, DataEncoding};
use crate::durable_streams::{cursor, json_mode, names, HeaderLookup};
use crate::event::{CommittedEvent, ControlType, TypeKind};
use crate::limits::{MAX_READ_BYTES, PROTOCOL_READ_PAGE_EVENTS};
use crate::storage::{Columns, SqlValue, Storage, StorageError};
use crate::stream::rows::{self, Window, NO_EPHEMERAL};
use crate::stream::Stream;
use crate::Inputs;

/// The messages after a position, and where the next read resumes.
pub(crate) struct MessagePage {
    /// JSON streams: each message's JSON text; byte streams: one entry per
    /// event's bytes.
    pub messages: Vec<Vec<u8>>,
    /// The last offset scanned (past skipped events); `after` if none.
    pub next: u64,
}

/// What one SSE step sends, and where the response stands after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseStep {
    /// `event: data` / `event: control` frames (may be empty).
    pub frames: String,
    pub next: u64,
    /// Everything committed so far was sent.
    pub caught_up: bool,
    /// The stream is closed and its end was sent: the response ends.
    pub ended: bool,
}

impl<S: Storage> Stream<S> {
    /// `HEAD` (PROTOCOL §5.5); never renews expiry.
    pub(super) fn protocol_head(&mut self, _inputs: &Inputs) -> ProtocolAnswer {
        let Some(head) = self.lifetime.as_ref().map(|meta| meta.head) else {
            return not_found(self.path.as_str());
        };
        match self.face() {
            Ok(face) => {
                let closed = self.state.closed.is_some();
                let answer = response::head(&face.content_type.canonical(), head, closed, self.state.expiry);
                ProtocolAnswer::new(answer.status, answer.headers, Vec::new())
            }
            Err(error) => ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new()),
        }
    }

    /// `GET` (PROTOCOL §5.6–5.8).
    pub(super) fn protocol_read(&mut self, request: &ProtocolRequest<'_>, inputs: &Inputs) -> ProtocolAnswer {
        let Some(meta) = self.lifetime.clone() else {
            return not_found(self.path.as_str());
        };
        let query = match ReadQuery::parse(request.query) {
            Ok(query) => query,
            Err(error) => return ProtocolAnswer::refusal(error, Vec::new()),
        };
        let start = match query.offset.read_start(meta.head) {
            Ok(start) => start,
            Err(error) => return ProtocolAnswer::refusal(error, Vec::new()),
        };
        let after = match self.read_start(start.after, start.from_earliest) {
            Ok(after) => after,
            Err(error) => return ProtocolAnswer::refusal(error, Vec::new()),
        };
        let (start, after) = match request.resumed {
            Some(resumed) => (ReadStart { now: false, ..start }, resumed.after),
            None => (start, after),
        };
        let _ = self.renew_expiry(inputs.now_ms);
        let face = match self.face() {
            Ok(face) => face,
            Err(error) => return ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new()),
        };
        let random = random_of(inputs);
        let live_cursor =
            (query.live != LiveMode::CatchUp).then(|| cursor::response_cursor(inputs.now_ms, query.cursor, random));
        // A fork's read below its fork point starts at its source (§18).
        let fork = match self.fork_source() {
            Ok(fork) => fork.filter(|(_, point)| after < *point && !start.now),
            Err(error) => return ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new()),
        };
        let inherited = match (fork, request.continued) {
            (Some((_, point)), Some(Continued::Inherited(inherited))) => Some((inherited, point)),
            (Some((source, point)), _) if query.live != LiveMode::Sse => {
                let mut answer = ProtocolAnswer::new(202, Vec::new(), Vec::new());
                answer.then = Then::ReadInherited {
                    source,
                    after,
                    through: point,
                };
                return answer;
            }
            _ => None,
        };
        if query.live == LiveMode::Sse {
            let headers = sse::response_headers(DataEncoding::of(&face.content_type));
            let mut answer = ProtocolAnswer::new(200, headers, Vec::new());
            answer.then = Then::Sse {
                after,
                cursor: query.cursor,
            };
            return answer;
        }
        let page = if start.now {
            MessagePage {
                messages: Vec::new(),
                next: meta.head,
            }
        } else if let Some((inherited, _)) =
            inherited.filter(|(inherited, point)| inherited.next < *point || inherited.body.len() >= MAX_READ_BYTES)
        {
            // The source's pages ended before the fork point, or took the
            // read's whole byte budget (§12): no own events in this response.
            MessagePage {
                messages: Vec::new(),
                next: inherited.next,
            }
        } else {
            // The fork's own page gets what the inherited part left (§18).
            let room = MAX_READ_BYTES.saturating_sub(inherited.map_or(0, |(inherited, _)| inherited.body.len()));
            match self.message_page_through(&face, after, self.head(), room) {
                Ok(page) => page,
                Err(error) => return ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new()),
            }
        };
        let closed = self.state.closed.is_some();
        let inherited_any = inherited.is_some_and(|(inherited, _)| inherited.any);
        if query.live == LiveMode::LongPoll && page.messages.is_empty() && !inherited_any {
            let cursor = live_cursor.unwrap_or_default();
            if !closed && !request.resumed.is_some_and(|resumed| resumed.waited_out) {
                return ProtocolAnswer {
                    status: 204,
                    headers: Vec::new(),
                    body: Vec::new(),
                    then: Then::WaitForAppend { after: page.next },
                };
            }
            let answer = response::long_poll_timeout(page.next.max(meta.head), closed, cursor);
            return ProtocolAnswer::new(answer.status, answer.headers, Vec::new());
        }
        let canonical = face.content_type.canonical();
        let expires_in = self
            .stored_expiry(Some(&face.row))
            .seconds_left(self.last_access, inputs.now_ms);
        let result = ReadResult {
            stream_id: &meta.stream_id,
            content_type: &canonical,
            start: ReadStart { after, ..start },
            next: page.next,
            tail: meta.head,
            closed,
            cursor: live_cursor,
            expires_in,
        };
        let answer = response::read(&result, request.headers.header(names::IF_NONE_MATCH));
        let body = match answer.status {
            304 => Vec::new(),
            _ => match inherited.filter(|(inherited, _)| inherited.any) {
                Some((inherited, _)) => super::fork::join_bodies(
                    inherited.body.clone(),
                    &page_body(&face, page.messages),
                    face.content_type.is_json(),
                ),
                None => page_body(&face, page.messages),
            },
        };
        ProtocolAnswer::new(answer.status, answer.headers, body)
    }

    /// The SSE frames after `after` (PROTOCOL §5.8): one `data` event per
    /// page, each followed by its `control`; a `control` alone when there is
    /// nothing new (`announce`: the first step of a response).
    pub fn protocol_sse_step(
        &self,
        after: u64,
        client_cursor: Option<u64>,
        announce: bool,
        inputs: &Inputs,
    ) -> Result<SseStep, StorageError> {
        let head = self.head();
        let face = self.face()?;
        let page = self.message_page(&face, after)?;
        let closed = self.state.closed.is_some();
        let caught_up = page.next >= head;
        let ended = closed && caught_up;
        let mut frames = String::new();
        if !page.messages.is_empty() {
            let encoding = DataEncoding::of(&face.content_type);
            frames.push_str(&sse::data_event(&page_body(&face, page.messages), encoding));
        }
        if !frames.is_empty() || announce || ended || page.next > after {
            let random = random_of(inputs);
            frames.push_str(&sse::control_event(&Control {
                next_offset: page.next,
                cursor: Some(cursor::response_cursor(inputs.now_ms, client_cursor, random)),
                up_to_date: caught_up,
                closed: ended,
            }));
        }
        Ok(SseStep {
            frames,
            next: page.next,
            caught_up,
            ended,
        })
    }

    /// The SSE frames of a fork's inherited page (§18): its `data` event,
    /// then a `control` at the page's end.
    pub fn protocol_sse_inherited(
        &self,
        inherited: &super::Inherited,
        client_cursor: Option<u64>,
        inputs: &Inputs,
    ) -> Result<String, StorageError> {
        let face = self.face()?;
        let mut frames = String::new();
        if inherited.any {
            frames.push_str(&sse::data_event(&inherited.body, DataEncoding::of(&face.content_type)));
        }
        frames.push_str(&sse::control_event(&Control {
            next_offset: inherited.next,
            cursor: Some(cursor::response_cursor(inputs.now_ms, client_cursor, random_of(inputs))),
            up_to_date: inherited.next >= self.head(),
            closed: false,
        }));
        Ok(frames)
    }

    /// The messages after `after`: at most [`PROTOCOL_READ_PAGE_EVENTS`]
    /// rows and [`MAX_READ_BYTES`] (always at least one row).
    pub(crate) fn message_page(&self, face: &Face, after: u64) -> Result<MessagePage, StorageError> {
        self.message_page_through(face, after, self.head(), MAX_READ_BYTES)
    }

    /// [`Self::message_page`] up to `head` (a fork point) instead of the
    /// head, within `max_bytes` (what a stitched read has left, §18; always
    /// at least one message).
    pub(crate) fn message_page_through(
        &self,
        face: &Face,
        after: u64,
        head: u64,
        max_bytes: usize,
    ) -> Result<MessagePage, StorageError> {
        if after >= head {
            return Ok(MessagePage {
                messages: Vec::new(),
                next: after,
            });
        }
        if !face.content_type.is_json() {
            return byte_page(&self.storage, after, head, max_bytes);
        }
        let page = rows::read_window(
            &self.storage,
            Window {
                after,
                through: head,
                ephemeral_after: NO_EPHEMERAL,
                max_rows: PROTOCOL_READ_PAGE_EVENTS,
                max_bytes,
            },
        )?;
        let next = match (page.exhausted, page.events.last()) {
            (true, _) | (false, None) => head,
            (false, Some(last)) => last.offset,
        };
        let native = face.is_native();
        let messages = page
            .events
            .into_iter()
            .filter(|event| event.source.is_some() || ControlType::classify(&event.event_type) == TypeKind::Ordinary)
            .map(|event| match native {
                true => serde_json::to_vec(&CommittedEvent::from(event)).unwrap_or_default(),
                false => event.payload.get().as_bytes().to_vec(),
            })
            .collect();
        Ok(MessagePage { messages, next })
    }
}

/// A page's body: a JSON array of the messages, or their bytes in order.
pub(super) fn page_body(face: &Face, messages: Vec<Vec<u8>>) -> Vec<u8> {
    if face.content_type.is_json() {
        let texts: Vec<&str> = messages
            .iter()
            .map(|message| std::str::from_utf8(message).unwrap_or("null"))
            .collect();
        return json_mode::array(texts).into_bytes();
    }
    messages.concat()
}

/// A byte stream's page: the bodies of its data events, sizes summed by
/// SQLite before any body is read (§12).
fn byte_page<S: Storage + ?Sized>(
    storage: &S,
    after: u64,
    head: u64,
    max_bytes: usize,
) -> Result<MessagePage, StorageError> {
    let sql = "WITH page AS (SELECT event_offset, ROW_NUMBER() OVER w AS n, SUM(size) OVER w AS running \
                 FROM (SELECT event_offset, COALESCE(octet_length(body), 0) AS size FROM events \
                       WHERE event_offset > ? AND event_offset <= ? ORDER BY event_offset LIMIT +?) \
                 WINDOW w AS (ORDER BY event_offset ROWS UNBOUNDED PRECEDING)) \
               SELECT e.event_offset, e.body, e.ephemeral, e.type, (SELECT COUNT(*) FROM page) \
               FROM page JOIN events e ON e.event_offset = page.event_offset \
               WHERE page.n = 1 OR page.running <= ? ORDER BY e.event_offset";
    let limit = PROTOCOL_READ_PAGE_EVENTS;
    let rows = storage.query(
        sql,
        &[
            after.into(),
            head.into(),
            limit.into(),
            SqlValue::Integer(i64::try_from(max_bytes).unwrap_or(i64::MAX)),
        ],
    )?;
    let mut messages = Vec::with_capacity(rows.len());
    let mut last = after;
    let mut scanned = 0u64;
    let kept = rows.len() as u64;
    for mut row in rows {
        let columns = Columns { query: sql, row: &row };
        last = columns.int(0)?.max(0) as u64;
        scanned = columns.int(4)?.max(0) as u64;
        let ephemeral = columns.int(2)? != 0;
        let ordinary = ControlType::classify(&columns.text(3)?) == TypeKind::Ordinary;
        let body = row.get_mut(1).map(|value| std::mem::replace(value, SqlValue::Null));
        if let (Some(SqlValue::Blob(bytes)), false, true) = (body, ephemeral, ordinary) {
            messages.push(bytes);
        }
    }
    // Every row of the window was read and fitted: the page reached the head.
    let next = if kept == scanned && scanned < limit { head } else { last };
    Ok(MessagePage { messages, next })
}

/// A random number for the cursor's jitter, from the shell's entropy.
fn random_of(inputs: &Inputs) -> u64 {
    inputs
        .entropy
        .first_chunk::<8>()
        .map_or(0, |bytes| u64::from_le_bytes(*bytes))
}
