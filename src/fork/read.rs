//! A native range read of a fork below its fork point (docs/design.md §18):
//! the source's data events (one page the shell fetched through
//! `/internal/fork/events`), then, when that page reaches the fork point
//! and the limit allows, the fork's own — the same log the protocol face
//! reads. A read at or past the fork point is an ordinary read.

use super::inherited::{InheritedPage, InheritedWant};
use super::segment::Segment;
use crate::event::{CommittedEvent, StoredEvent};
use crate::limits::MAX_READ_BYTES;
use crate::storage::Storage;
use crate::storage::StorageError;
use crate::stream::page_json;
use crate::stream::read::{PointRead, RangeJson, RangeQuery, RangeRead, ReadError};
use crate::stream::rows;
use crate::stream::Stream;
use crate::time::rfc3339_millis;

impl<S: Storage> Stream<S> {
    /// The source page a native read needs first, when it starts below this
    /// fork's fork point. `None` for a soft-deleted fork too: the ordinary
    /// read answers its 410.
    pub fn range_read_want(&self, query: &RangeQuery) -> Result<Option<InheritedWant>, ReadError> {
        if self.lifetime.is_none() || self.is_soft_deleted()? || self.fork_point()? == 0 {
            return Ok(None);
        }
        let after = self.read_start(query.after, query.from_earliest)?;
        Ok(self.source_range(after, u64::MAX)?)
    }

    /// The read [`Stream::range_read_want`] asked for, with the page fetched.
    pub fn read_range_inherited(&self, query: &RangeQuery, page: InheritedPage) -> Result<RangeRead, ReadError> {
        let meta = self.existing()?;
        let after = self.read_start(query.after, query.from_earliest)?;
        let fork_point = self.fork_point()?;
        let limit = usize::try_from(query.limit).unwrap_or(usize::MAX);
        let mut events: Vec<CommittedEvent> = page
            .events
            .into_iter()
            .filter(|event| event.offset > after && event.offset <= fork_point)
            .take(limit)
            .map(|event| CommittedEvent::from(StoredEvent::from(event)))
            .collect();
        let page_reaches_point = page.next >= fork_point;
        let next_after = if events.len() == limit {
            events.last().map_or(after, |event| event.offset)
        } else if !page_reaches_point {
            // More inherited events lie past this page: the next read asks from there.
            page.next.max(after)
        } else {
            let left = (limit - events.len()) as u64;
            let own = rows::range(&self.storage, after.max(fork_point), left, query.include_ephemeral)?;
            events.extend(own.into_iter().map(CommittedEvent::from));
            events.last().map_or(after.max(meta.head), |event| event.offset)
        };
        Ok(RangeRead {
            stream_id: meta.stream_id.clone(),
            stream_created_at: rfc3339_millis(meta.created_at_ms),
            path: meta.path.clone(),
            head: meta.head,
            closed: self.state.closed.is_some(),
            events,
            next_after,
        })
    }

    /// The source page a point read needs, when `offset` lies in this
    /// fork's prefix.
    pub fn point_read_want(&self, offset: u64) -> Result<Option<InheritedWant>, ReadError> {
        if self.lifetime.is_none() || offset == 0 || self.is_soft_deleted()? {
            return Ok(None);
        }
        Ok(self.source_range(offset - 1, offset)?)
    }

    /// The point read [`Stream::point_read_want`] asked for: the inherited
    /// data event at `offset`, or 404 (a control or ephemeral event of the
    /// source is not the fork's).
    pub fn read_one_inherited(&self, offset: u64, page: InheritedPage) -> Result<PointRead, ReadError> {
        let meta = self.existing()?;
        let event = page
            .events
            .into_iter()
            .find(|event| event.offset == offset)
            .ok_or(ReadError::EventNotFound(offset))?;
        Ok(PointRead {
            stream_id: meta.stream_id.clone(),
            stream_created_at: rfc3339_millis(meta.created_at_ms),
            path: meta.path.clone(),
            event: CommittedEvent::from(StoredEvent::from(event)),
        })
    }
}

/// A source's data events as committed-event JSON (a JSON array's text)
/// after `after` through `next`, for a native read of a fork (§18): built by
/// SQLite like any page and spliced by the fork, never parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InheritedJson {
    pub events_json: String,
    pub count: u64,
    pub next: u64,
}

impl<S: Storage> Stream<S> {
    /// Whether native reads of this fork splice its source's JSON pages (a
    /// stream of byte messages builds its events in Rust, §17).
    pub fn reads_inherited_json(&self) -> Result<bool, StorageError> {
        Ok(!self.holds_bytes()?)
    }

    /// The source's side: at most `limit` data events after `after` through
    /// `through` as JSON, within one read's byte budget.
    pub fn inherited_events_json(
        &self,
        after: u64,
        through: u64,
        limit: u64,
    ) -> Result<Segment<InheritedJson>, StorageError> {
        self.segment(after, through, || self.own_json_page(after, through, limit))
    }

    /// One JSON page of this stream's own data events after `after` through `through`.
    fn own_json_page(&self, after: u64, through: u64, limit: u64) -> Result<InheritedJson, StorageError> {
        let end = through.min(self.head());
        if after >= end {
            return Ok(InheritedJson {
                events_json: "[]".to_owned(),
                count: 0,
                next: after,
            });
        }
        let rows = page_json::Rows {
            after,
            through: end,
            include_ephemeral: false,
            data_only: true,
        };
        let (page, exhausted) = page_json::rows_json(&self.storage, rows, limit.max(1), MAX_READ_BYTES)?;
        let next = match (exhausted, page.last_offset) {
            (false, Some(last)) => last,
            _ => end,
        };
        Ok(InheritedJson {
            events_json: page.events_json,
            count: page.count,
            next,
        })
    }

    /// A native read of this fork below its fork point from the source's
    /// JSON page ([`Stream::range_read_want`] named it), then its own events
    /// when the page reaches the point and the limit allows; the same body
    /// [`Stream::read_range_inherited`] serializes.
    pub fn read_range_inherited_json(&self, query: &RangeQuery, page: InheritedJson) -> Result<RangeJson, ReadError> {
        let meta = self.existing()?;
        let after = self.read_start(query.after, query.from_earliest)?;
        let fork_point = self.fork_point()?;
        let InheritedJson {
            mut events_json,
            mut count,
            next,
        } = page;
        let next_after = if count >= query.limit || next < fork_point {
            next.max(after)
        } else {
            let room = MAX_READ_BYTES.saturating_sub(events_json.len()).max(1);
            let own = page_json::range_json(
                &self.storage,
                after.max(fork_point),
                query.limit - count,
                query.include_ephemeral,
                room,
            )?;
            if own.count > 0 {
                splice_arrays(&mut events_json, &own.events_json);
                count += own.count;
            }
            own.last_offset.unwrap_or(next.max(after).max(meta.head))
        };
        Ok(RangeJson {
            body: self.range_body(&events_json, next_after)?,
            count,
        })
    }
}

/// `first` (a JSON array's text) with `second`'s elements appended.
fn splice_arrays(first: &mut String, second: &str) {
    let inner = second
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .unwrap_or_default();
    if inner.is_empty() {
        return;
    }
    if first.ends_with(']') {
        first.pop();
    }
    if first.len() > 1 {
        first.push(',');
    }
    first.push_str(inner);
    first.push(']');
}
