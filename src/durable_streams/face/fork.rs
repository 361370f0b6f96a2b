//! A fork on the protocol face (docs/design.md §18, PROTOCOL §4.2): its creation
//! (after its source granted the prefix) and its reads below the fork point
//! (the source's messages, brought by the shell, stitched with its own).

use super::store::{self as face_store, FaceRow};
use super::write::{creation_events, Face};
use super::{Continued, ProtocolAnswer, ProtocolRequest, Then};
use crate::durable_streams::expiry::{Expiry, StoredExpiry};
use crate::durable_streams::headers::{CreateHeaders, ForkHeaders};
use crate::durable_streams::media_type::MediaType;
use crate::durable_streams::response;
use crate::fork::segment::Segment;
use crate::fork::store::{self as fork_store, OriginRow, ReleaseRow};
use crate::fork::{ForkAsk, ForkGrant, ForkRefusal};
use crate::limits::FORK_ACQUIRE_GRACE_MS;
use crate::path::StreamPath;
use crate::storage::{Storage, StorageError};
use crate::stream::Stream;
use crate::Inputs;

/// Messages of a fork's source, as one page body of the fork's content
/// type, and where they end.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Inherited {
    /// A JSON array (JSON streams) or the bytes in order.
    pub body: Vec<u8>,
    /// The last source offset the page covered.
    pub next: u64,
    /// Whether the page holds any message.
    pub any: bool,
}

impl Inherited {
    /// `self` followed by `later` (a later page of the same read).
    pub fn then(self, later: Inherited, json: bool) -> Inherited {
        let any = self.any || later.any;
        let body = match (self.any, later.any) {
            (_, false) => self.body,
            (false, true) => later.body,
            (true, true) => join_bodies(self.body, &later.body, json),
        };
        Inherited {
            body: if any || !json { body } else { b"[]".to_vec() },
            next: later.next.max(self.next),
            any,
        }
    }
}

/// Two page bodies as one: JSON arrays merged, bytes concatenated.
pub(super) fn join_bodies(mut first: Vec<u8>, second: &[u8], json: bool) -> Vec<u8> {
    if !json {
        first.extend_from_slice(second);
        return first;
    }
    let inner = |body: &[u8]| -> Vec<u8> {
        let text = body.strip_prefix(b"[").and_then(|rest| rest.strip_suffix(b"]"));
        text.unwrap_or_default().to_vec()
    };
    let (a, b) = (inner(&first), inner(second));
    let mut joined = Vec::with_capacity(a.len() + b.len() + 3);
    joined.push(b'[');
    joined.extend_from_slice(&a);
    if !a.is_empty() && !b.is_empty() {
        joined.push(b',');
    }
    joined.extend_from_slice(&b);
    joined.push(b']');
    joined
}

/// `Stream-Forked-From` as a stream path: the protocol face's URL path
/// (`/v1/stream/{path}`) or the stream path itself.
fn source_path(from: &str) -> Result<StreamPath, Box<crate::error::ApiError>> {
    let raw = crate::route::protocol_path(from).unwrap_or(from);
    StreamPath::parse(raw).map_err(|error| {
        Box::new(crate::error::ApiError::new(
            crate::error::ErrorCode::InvalidPath,
            format!("Stream-Forked-From: {error}"),
        ))
    })
}

impl<S: Storage> Stream<S> {
    /// Where this fork's prefix lives: the source and the fork point.
    pub fn fork_source(&self) -> Result<Option<(StreamPath, u64)>, StorageError> {
        if self.lifetime.is_none() {
            return Ok(None);
        }
        Ok(fork_store::origin(&self.storage)?.and_then(|origin| {
            StreamPath::parse(&origin.source_path)
                .ok()
                .map(|path| (path, origin.fork_point))
        }))
    }

    /// The configuration a repeated `PUT` compares (§18: what it forked).
    pub(super) fn fork_origin(&self) -> Result<Option<OriginRow>, StorageError> {
        fork_store::origin(&self.storage)
    }

    /// `PUT` with `Stream-Forked-From` on a path with no stream: first the
    /// source's grant ([`Then::AcquireFork`]), then the fork's lifetime —
    /// starting at the fork point — with its first events: expiry, the
    /// sub-offset's bytes, the body, closure.
    pub(super) fn protocol_create_fork(
        &mut self,
        request: &ProtocolRequest<'_>,
        asked: &CreateHeaders,
        fork: &ForkHeaders,
        inputs: &Inputs,
    ) -> ProtocolAnswer {
        let source = match source_path(&fork.from) {
            Ok(source) => source,
            Err(error) => return ProtocolAnswer::refusal(*error, Vec::new()),
        };
        if source == self.path {
            return ProtocolAnswer::refusal(ForkRefusal::ItSelf, Vec::new());
        }
        let Some(Continued::Granted(grant)) = request.continued else {
            let ask = ForkAsk {
                fork_path: self.path.to_string(),
                offset: fork.offset,
                sub_offset: fork.sub_offset,
                content_type: asked.content_type.as_ref().map(MediaType::canonical),
                now_ms: inputs.now_ms,
            };
            // Owed before it is asked: an acquire whose creation never
            // commits (a crash between the two) is released after the grace.
            let pending = ReleaseRow {
                project_id: self.project_id.clone(),
                source_path: source.to_string(),
                fork_path: self.path.to_string(),
                source_stream_id: None,
                due_at_ms: inputs.now_ms.saturating_add(FORK_ACQUIRE_GRACE_MS),
            };
            let owed =
                crate::schema::migrate(&self.storage).and_then(|()| fork_store::owe_release(&self.storage, &pending));
            if let Err(error) = owed {
                return ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new());
            }
            let mut answer = ProtocolAnswer::new(202, Vec::new(), Vec::new());
            answer.then = Then::AcquireFork { source, ask };
            return answer;
        };
        let answer = self.create_granted(request, asked, fork, &source, grant, inputs);
        if answer.status >= 300 {
            // The edge was acquired: a fork that was not created releases it now.
            let release = ReleaseRow {
                project_id: self.project_id.clone(),
                source_path: source.to_string(),
                fork_path: self.path.to_string(),
                source_stream_id: Some(grant.source_stream_id.clone()),
                due_at_ms: inputs.now_ms,
            };
            if let Err(error) = fork_store::owe_release(&self.storage, &release) {
                return ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new());
            }
            self.owes_release.set(true);
        }
        answer
    }

    fn create_granted(
        &mut self,
        request: &ProtocolRequest<'_>,
        asked: &CreateHeaders,
        fork: &ForkHeaders,
        source: &StreamPath,
        grant: &ForkGrant,
        inputs: &Inputs,
    ) -> ProtocolAnswer {
        let content_type = grant
            .content_type
            .as_deref()
            .and_then(|text| MediaType::parse(text).ok())
            .unwrap_or_else(MediaType::json);
        // PROTOCOL §4.2's table: a fork asking no expiry inherits the source's.
        let expiry = match asked.expiry {
            Expiry::Never => grant.expiry(),
            own => own,
        };
        let face = FaceRow {
            content_type: grant.content_type.clone(),
            message_type: asked.message_type.clone().unwrap_or_else(|| grant.message_type.clone()),
            last_stream_seq: None,
            expiry_deadline_ms: StoredExpiry::create(expiry, inputs.now_ms).deadline_ms,
        };
        let face_view = Face {
            row: face.clone(),
            content_type: content_type.clone(),
        };
        let cut = grant.materialized.as_deref();
        let events = match creation_events(&face_view, expiry, cut, request.body, asked.closed) {
            Ok(events) => events,
            Err(error) => return ProtocolAnswer::refusal(*error, Vec::new()),
        };
        if let Err(error) = self.check_storage_budget(&events, request.body.len()) {
            return ProtocolAnswer::refusal(error, Vec::new());
        }
        let origin = OriginRow {
            source_path: source.to_string(),
            source_stream_id: grant.source_stream_id.clone(),
            fork_point: grant.fork_point,
            asked_from: fork.from.clone(),
            asked_offset: grant.asked_offset,
            sub_offset: fork.sub_offset,
        };
        self.lifetime_start_head.set(grant.fork_point);
        let fork_path = self.path.to_string();
        let written = self.append_within(events, inputs, &|storage| {
            face_store::save_face(storage, &face)?;
            fork_store::save_origin(storage, &origin)?;
            // Created: the pending release of its acquire is no longer owed.
            fork_store::released(storage, &origin.source_path, &fork_path)
        });
        self.lifetime_start_head.set(0);
        match written {
            Ok(_) => {
                self.last_access = crate::durable_streams::expiry::LastAccess(Some(inputs.now_ms));
                let answer = response::created(
                    Some(request.location),
                    &content_type.canonical(),
                    self.head(),
                    asked.closed,
                );
                ProtocolAnswer::new(answer.status, answer.headers, Vec::new())
            }
            Err(error) => ProtocolAnswer::refusal(error, Vec::new()),
        }
    }

    /// A fork's source answering a read of its prefix: its messages after
    /// `after` through `through` (one page), or its own source's when that
    /// is below its own fork point. Served while soft-deleted (§18).
    /// `max_bytes` is what the fork's read has left of its budget (§12).
    pub fn inherited_segment(
        &self,
        after: u64,
        through: u64,
        max_bytes: usize,
    ) -> Result<Segment<Inherited>, StorageError> {
        self.segment(after, through, || {
            let face = self.face()?;
            let page = self.message_page_through(&face, after, through.min(self.head()), max_bytes)?;
            let any = !page.messages.is_empty();
            Ok(Inherited {
                body: super::read::page_body(&face, page.messages),
                next: page.next,
                any,
            })
        })
    }

    /// Whether this stream's content type reads as JSON arrays.
    pub fn protocol_is_json(&self) -> Result<bool, StorageError> {
        Ok(self.face()?.content_type.is_json())
    }
}
