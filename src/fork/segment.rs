//! Where a read of a stream's log falls (docs/design.md §18): a fork's
//! offsets up to its fork point are its source's, the rest its own. One
//! rule for both sides of a read below a fork point: a source answering a
//! fork's page goes one hop further when the page lies below its own fork
//! point ([`Segment::Deeper`]), and a fork names the source page its read
//! needs first ([`Stream::source_range`]).

use super::inherited::InheritedWant;
use super::store;
use crate::path::StreamPath;
use crate::storage::{Storage, StorageError};
use crate::stream::Stream;

/// What a source answers a fork's ask for a page of its prefix: `T` is the
/// page's kind (typed events, a JSON page, protocol messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment<T> {
    /// Its own rows.
    Local(T),
    /// Below its own fork point: this range of its source's (one hop further).
    Deeper(InheritedWant),
}

impl<S: Storage> Stream<S> {
    /// The part of a read after `after` through `through` that is this
    /// stream's source's: `Some` (ending at the fork point at the latest)
    /// when `after` lies below its fork point, `None` when the rows are its
    /// own (or it is not a fork).
    pub(crate) fn source_range(&self, after: u64, through: u64) -> Result<Option<InheritedWant>, StorageError> {
        let Some(origin) = store::origin(&self.storage)? else {
            return Ok(None);
        };
        if after >= origin.fork_point {
            return Ok(None);
        }
        let Ok(source) = StreamPath::parse(&origin.source_path) else {
            return Ok(None);
        };
        Ok(Some(InheritedWant {
            source,
            after,
            through: through.min(origin.fork_point),
        }))
    }

    /// A source's answer to a fork's ask for its events after `after`
    /// through `through`: its own source's range when that lies below its
    /// fork point, else the page `own` reads from its rows.
    pub(crate) fn segment<T>(
        &self,
        after: u64,
        through: u64,
        own: impl FnOnce() -> Result<T, StorageError>,
    ) -> Result<Segment<T>, StorageError> {
        match self.source_range(after, through)? {
            Some(range) => Ok(Segment::Deeper(range)),
            None => own().map(Segment::Local),
        }
    }
}
