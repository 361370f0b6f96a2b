//! The source's side of a fork (docs/design.md §18): granting a fork its prefix
//! (an idempotent acquire of the edge, with every check of PROTOCOL §4.2's
//! table), releasing it, and deleting a stream that forks still read.

use super::store::{self, EdgeRow};
use crate::durable_streams::expiry::Expiry;
use crate::durable_streams::media_type::MediaType;
use crate::error::{details, ApiFailure, ErrorCode};
use crate::event::{ControlType, TypeKind};
use crate::limits::MAX_FORK_SUB_OFFSET_ROWS;
use crate::records::columns::Named;
use crate::state::lifecycle;
use crate::storage::{SqlValue, Storage, StorageError};
use crate::stream::Stream;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// A fork's request to its source (the shell carries it between objects).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ForkAsk {
    pub fork_path: String,
    /// The source offset to fork at; `None`: the tail.
    pub offset: Option<u64>,
    /// Messages (JSON) or bytes past `offset` (PROTOCOL §4.2).
    pub sub_offset: u64,
    /// The fork's `Content-Type`, canonical, when the request named one.
    pub content_type: Option<String>,
    pub now_ms: i64,
}

/// What the source grants: its lifetime, type, expiry and the fork point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ForkGrant {
    pub source_stream_id: String,
    /// The source's content type, canonical; `None`: first written natively.
    pub content_type: Option<String>,
    pub message_type: String,
    /// The source's `expiry-configured` payload (`{}` never).
    pub expiry: Value,
    /// The offset forked at (the tail when the request named none).
    pub asked_offset: u64,
    /// Source offsets `1..=fork_point` are the fork's prefix.
    pub fork_point: u64,
    /// The first bytes of the message after `fork_point` a byte sub-offset
    /// cut: the fork's own first event.
    pub materialized: Option<Vec<u8>>,
}

impl ForkGrant {
    pub fn expiry(&self) -> Expiry {
        lifecycle::parse_expiry(&self.expiry).unwrap_or_default()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ForkRefusal {
    #[error("no stream to fork at '{0}'")]
    SourceNotFound(String),
    #[error("the stream at '{0}' was deleted; only its existing forks read it")]
    SourceDeleted(String),
    #[error("fork offset {asked} is past the source's tail {tail}")]
    OffsetBeyondTail { asked: u64, tail: u64 },
    #[error("Stream-Fork-Sub-Offset {sub_offset}: {reason}")]
    SubOffset { sub_offset: u64, reason: &'static str },
    #[error("Content-Type '{asked}' differs from the source's '{source_type}'")]
    ContentType { asked: String, source_type: String },
    #[error("a stream cannot fork itself")]
    ItSelf,
}

impl ApiFailure for ForkRefusal {
    fn error_code(&self) -> ErrorCode {
        match self {
            ForkRefusal::SourceNotFound(_) => ErrorCode::StreamNotFound,
            ForkRefusal::SourceDeleted(_) => ErrorCode::StreamSoftDeleted,
            ForkRefusal::OffsetBeyondTail { .. } => ErrorCode::ForkOffsetBeyondTail,
            ForkRefusal::SubOffset { .. } => ErrorCode::InvalidForkSubOffset,
            ForkRefusal::ContentType { .. } => ErrorCode::ContentTypeMismatch,
            ForkRefusal::ItSelf => ErrorCode::InvalidRequest,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            ForkRefusal::OffsetBeyondTail { tail, .. } => details([("tail", json!(tail))]),
            _ => Map::new(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum GrantError {
    #[error(transparent)]
    Refused(#[from] ForkRefusal),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// 410 for any request to a soft-deleted stream but its forks' (§18).
pub fn gone(path: &str) -> crate::error::ApiError {
    crate::error::ApiError::new(
        ErrorCode::StreamGone,
        format!("the stream at '{path}' was deleted; its forks still read its data"),
    )
}

/// The data event after the anchor a sub-offset reaches into.
struct Anchor {
    offset: u64,
    body: Option<Vec<u8>>,
}

impl<S: Storage> Stream<S> {
    /// Grants `ask` its prefix and records the edge in the same step
    /// (idempotent per fork path): checked in PROTOCOL §4.2's order.
    pub fn grant_fork(&mut self, ask: &ForkAsk) -> Result<ForkGrant, GrantError> {
        let Some(meta) = self.lifetime.clone() else {
            return Err(ForkRefusal::SourceNotFound(self.path.to_string()).into());
        };
        if self.is_soft_deleted()? {
            return Err(ForkRefusal::SourceDeleted(self.path.to_string()).into());
        }
        let face = self.face()?;
        if let Some(asked) = ask.content_type.as_deref().and_then(|text| MediaType::parse(text).ok()) {
            if !asked.matches(&face.content_type) {
                return Err(ForkRefusal::ContentType {
                    asked: asked.canonical(),
                    source_type: face.content_type.canonical(),
                }
                .into());
            }
        }
        let asked_offset = ask.offset.unwrap_or(meta.head);
        if asked_offset > meta.head {
            return Err(ForkRefusal::OffsetBeyondTail {
                asked: asked_offset,
                tail: meta.head,
            }
            .into());
        }
        let (fork_point, materialized) =
            self.resolve_sub_offset(asked_offset, ask.sub_offset, face.content_type.is_json())?;
        self.memory.fork_edges.set(None);
        store::acquire_edge(
            &self.storage,
            &EdgeRow {
                fork_path: ask.fork_path.clone(),
                fork_point,
                acquired_at_ms: ask.now_ms,
            },
        )?;
        Ok(ForkGrant {
            source_stream_id: meta.stream_id,
            content_type: face.row.content_type.clone(),
            message_type: face.row.message_type.clone(),
            expiry: lifecycle::expiry_payload(self.state.expiry),
            asked_offset,
            fork_point,
            materialized,
        })
    }

    /// Where a sub-offset puts the fork point (PROTOCOL §4.2): JSON counts
    /// whole messages (each one event here); bytes cut the next data
    /// message, whose first bytes become the fork's own first event.
    fn resolve_sub_offset(
        &self,
        anchor: u64,
        sub_offset: u64,
        json: bool,
    ) -> Result<(u64, Option<Vec<u8>>), GrantError> {
        if sub_offset == 0 {
            return Ok((anchor, None));
        }
        let inherited_below = store::origin(&self.storage)?.map_or(0, |origin| origin.fork_point);
        if anchor < inherited_below {
            return Err(ForkRefusal::SubOffset {
                sub_offset,
                reason: "its anchor is inherited data: fork the stream it came from",
            }
            .into());
        }
        let wanted = if json { sub_offset } else { 1 };
        let anchors = self.data_events_after(anchor, wanted)?;
        let overshoot = ForkRefusal::SubOffset {
            sub_offset,
            reason: "past the next data boundary",
        };
        if json {
            return match anchors.last() {
                Some(last) if anchors.len() as u64 == sub_offset => Ok((last.offset, None)),
                _ => Err(overshoot.into()),
            };
        }
        let Some(Anchor { offset, body }) = anchors.into_iter().next() else {
            return Err(overshoot.into());
        };
        let body = body.unwrap_or_default();
        let cut = usize::try_from(sub_offset).unwrap_or(usize::MAX);
        match cut.cmp(&body.len()) {
            std::cmp::Ordering::Greater => Err(overshoot.into()),
            std::cmp::Ordering::Equal => Ok((offset, None)),
            std::cmp::Ordering::Less => Ok((offset - 1, Some(body.get(..cut).unwrap_or_default().to_vec()))),
        }
    }

    /// The first `wanted` data events after `anchor` (control and ephemeral
    /// events skipped), scanning at most [`MAX_FORK_SUB_OFFSET_ROWS`] rows.
    fn data_events_after(&self, anchor: u64, wanted: u64) -> Result<Vec<Anchor>, GrantError> {
        let sql = "SELECT event_offset, type, ephemeral, body FROM events WHERE event_offset > ? \
                   ORDER BY event_offset LIMIT +?";
        let rows = self.storage.query(
            sql,
            &[
                SqlValue::Integer(i64::try_from(anchor).unwrap_or(i64::MAX)),
                SqlValue::Integer(i64::try_from(MAX_FORK_SUB_OFFSET_ROWS).unwrap_or(i64::MAX)),
            ],
        )?;
        let mut found = Vec::new();
        for row in &rows {
            if found.len() as u64 >= wanted {
                break;
            }
            let named = Named::new(sql, row, &["event_offset", "type", "ephemeral", "body"]);
            let data =
                named.int("ephemeral")? == 0 && ControlType::classify(&named.text("type")?) == TypeKind::Ordinary;
            if data {
                found.push(Anchor {
                    offset: named.count("event_offset")?,
                    body: named.optional_blob("body")?.map(<[u8]>::to_vec),
                });
            }
        }
        Ok(found)
    }

    /// Deletes the stream (both faces' `DELETE`, and expiry): a stream forks
    /// still read is soft-deleted — 410 from now on, its data kept — and
    /// purged when the last fork releases it (§18). `Ok(false)`: no stream.
    pub fn delete_or_soft_delete(&mut self, now_ms: i64) -> Result<bool, StorageError> {
        if self.lifetime.is_none() || self.is_soft_deleted()? {
            return Ok(false);
        }
        if self.fork_edges()?.0 > 0 {
            store::soft_delete(&self.storage, now_ms)?;
            self.memory.soft_deleted.set(Some(true));
            return Ok(true);
        }
        self.destroy()
    }

    /// Whether the stream was deleted while forks read it (§18).
    /// Read once per instance and lifetime (every request asks), then kept
    /// in memory; the soft delete itself sets it.
    pub fn is_soft_deleted(&self) -> Result<bool, StorageError> {
        if self.lifetime.is_none() {
            return Ok(false);
        }
        if let Some(known) = self.memory.soft_deleted.get() {
            return Ok(known);
        }
        let known = store::soft_deleted(&self.storage)?;
        self.memory.soft_deleted.set(Some(known));
        Ok(known)
    }

    /// A fork at `fork_path` no longer reads this lifetime (`stream_id`):
    /// its edge goes; a soft-deleted stream without edges is purged (and, a
    /// fork itself, owes its own source a release: the cascade).
    /// `stream_id` is `None` for an acquire whose creation never committed.
    pub fn release_fork(&mut self, fork_path: &str, stream_id: Option<&str>) -> Result<(), StorageError> {
        let Some(meta) = &self.lifetime else {
            return Ok(());
        };
        if stream_id.is_some_and(|stream_id| stream_id != meta.stream_id) {
            return Ok(());
        }
        self.memory.fork_edges.set(None);
        store::release_edge(&self.storage, fork_path)?;
        if self.is_soft_deleted()? && self.fork_edges()?.0 == 0 {
            self.destroy()?;
        }
        Ok(())
    }

    /// Whether a release was recorded since the shell last sent them; clears it.
    pub fn take_owed_release(&self) -> bool {
        self.owes_release.replace(false)
    }

    /// The lowest fork point of a live edge: retention keeps every offset
    /// at or below it (§18, §16).
    pub fn lowest_fork_point(&self) -> Result<Option<u64>, StorageError> {
        if self.lifetime.is_none() {
            return Ok(None);
        }
        Ok(self.fork_edges()?.1)
    }

    /// How many forks read this lifetime and the lowest fork point among
    /// them (§18): read once, then kept in memory until this object grants
    /// or releases an edge (every retention check asks, §16). Where reads
    /// are checked (natively) the kept answer is checked against storage.
    pub(crate) fn fork_edges(&self) -> Result<(u64, Option<u64>), StorageError> {
        if let Some(known) = self.memory.fork_edges.get() {
            if let Some(stored) = store::checked_edges(&self.storage) {
                let stored = stored?;
                if stored != known {
                    return Err(StorageError::Sql(format!(
                        "fork edges kept in memory diverged from storage: kept {known:?}, stored {stored:?}"
                    )));
                }
            }
            return Ok(known);
        }
        let edges = store::edges(&self.storage)?;
        self.memory.fork_edges.set(Some(edges));
        Ok(edges)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::store::{self, EdgeRow};
    use crate::event::Authority;
    use crate::path::StreamPath;
    use crate::storage::rusqlite_driver::RusqliteStorage;
    use crate::stream::Stream;
    use crate::Inputs;

    #[test]
    fn s18_fork_edges_kept_in_memory_that_storage_does_not_hold_are_an_error_where_reads_are_checked() {
        let storage = RusqliteStorage::in_memory().unwrap();
        let mut stream = Stream::open(storage, "p", StreamPath::parse("/source").unwrap()).unwrap();
        let inputs = Inputs {
            now_ms: 1_000,
            entropy: [7; 16],
        };
        stream
            .append_body(br#"{"type": "x"}"#, Authority::Public, &inputs)
            .unwrap();
        assert_eq!(stream.fork_edges().unwrap(), (0, None));
        assert_eq!(stream.memory.fork_edges.get(), Some((0, None)), "kept");
        // An edge written behind the engine's back: the kept answer is wrong.
        let edge = EdgeRow {
            fork_path: "/fork".to_owned(),
            fork_point: 1,
            acquired_at_ms: 1_000,
        };
        store::acquire_edge(&stream.storage, &edge).unwrap();
        let error = stream.fork_edges().unwrap_err().to_string();
        assert!(error.contains("diverged"), "{error}");
        // Written as the engine writes one (a release), it is read again.
        stream.release_fork("/fork", None).unwrap();
        assert_eq!(stream.fork_edges().unwrap(), (0, None));
        assert_eq!(stream.lowest_fork_point().unwrap(), None);
    }
}
