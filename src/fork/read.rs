//! A native range read of a fork below its fork point (docs/design.md §18):
//! the source's data events (one page the shell fetched through
//! `/internal/fork/events`), then, when that page reaches the fork point
//! and the limit allows, the fork's own — the same log the protocol face
//! reads. A read at or past the fork point is an ordinary read.

use super::inherited::{InheritedPage, InheritedWant};
use super::store;
use crate::event::{CommittedEvent, StoredEvent};
use crate::path::StreamPath;
use crate::storage::Storage;
use crate::stream::read::{PointRead, RangeQuery, RangeRead, ReadError};
use crate::stream::rows;
use crate::stream::Stream;
use crate::time::rfc3339_millis;

impl<S: Storage> Stream<S> {
    /// The source page a native read needs first, when it starts below this
    /// fork's fork point. `None` for a soft-deleted fork too: the ordinary
    /// read answers its 410.
    pub fn range_read_want(&self, query: &RangeQuery) -> Result<Option<InheritedWant>, ReadError> {
        if self.lifetime.is_none() || self.is_soft_deleted()? {
            return Ok(None);
        }
        let Some(origin) = store::origin(&self.storage)? else {
            return Ok(None);
        };
        let after = self.read_start(query.after, query.from_earliest)?;
        let Ok(source) = StreamPath::parse(&origin.source_path) else {
            return Ok(None);
        };
        Ok((after < origin.fork_point).then_some(InheritedWant {
            source,
            after,
            through: origin.fork_point,
        }))
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
        let Some(origin) = store::origin(&self.storage)? else {
            return Ok(None);
        };
        let Ok(source) = StreamPath::parse(&origin.source_path) else {
            return Ok(None);
        };
        Ok((offset <= origin.fork_point).then_some(InheritedWant {
            source,
            after: offset - 1,
            through: offset,
        }))
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
