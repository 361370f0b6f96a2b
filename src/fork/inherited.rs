//! A fork's inherited events for its subscriptions (docs/design.md §18): a
//! subscription on a fork that starts below the fork point delivers the
//! source's data events up to it, in order, then the fork's own. The
//! source answers pages of its data events ([`Stream::inherited_events`],
//! one hop further down a chain below its own fork point); the fork holds
//! a few pages in memory ([`Held`]) that its delivery scans read, and says
//! which page it wants next ([`Stream::take_inherited_want`]). The shell
//! carries pages between the objects; nothing is copied into the fork's log.
//!
//! Inherited control events configure nothing on the fork and are not
//! delivered; ephemeral events are not inherited.

use super::segment::Segment;
use super::store;
use crate::event::{BodyEncoding, ControlType, StoredEvent, TypeKind};
use crate::limits::{ALARM_RETRY_MS, INHERITED_PAGE_ROWS, MAX_INHERITED_PAGES_HELD, MAX_INHERITED_PAGE_BYTES};
use crate::path::StreamPath;
use crate::storage::{Storage, StorageError};
use crate::stream::rows::{self, Window, NO_EPHEMERAL};
use crate::stream::Stream;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// One inherited data event as it travels between objects.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireEvent {
    pub offset: u64,
    #[serde(rename = "type")]
    pub event_type: String,
    pub payload: Box<RawValue>,
    pub metadata: Box<RawValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
    pub created_at_ms: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Box<RawValue>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<BodyEncoding>,
}

impl From<StoredEvent> for WireEvent {
    fn from(event: StoredEvent) -> WireEvent {
        WireEvent {
            offset: event.offset,
            event_type: event.event_type,
            payload: event.payload,
            metadata: event.metadata,
            idempotency_key: event.idempotency_key,
            created_at_ms: event.created_at_ms,
            source: event.source,
            encoding: event.encoding,
        }
    }
}

impl From<WireEvent> for StoredEvent {
    fn from(event: WireEvent) -> StoredEvent {
        StoredEvent {
            offset: event.offset,
            event_type: event.event_type,
            payload: event.payload,
            metadata: event.metadata,
            idempotency_key: event.idempotency_key,
            ephemeral: false,
            created_at_ms: event.created_at_ms,
            source: event.source,
            encoding: event.encoding,
            body: None,
        }
    }
}

/// The source's data events after `after`, through `next`: everything the
/// source holds in that range that a fork inherits.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InheritedPage {
    pub after: u64,
    pub next: u64,
    pub events: Vec<WireEvent>,
}

/// A range of a fork's source: its events after `after` through `through`
/// (never past the fork point). The page a fork's read or subscriptions
/// want next, or the one a source passes one hop down a chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InheritedWant {
    pub source: StreamPath,
    pub after: u64,
    pub through: u64,
}

/// What a fork keeps in memory of its prefix (reset with the lifetime).
#[derive(Debug, Default)]
pub(crate) struct Held {
    /// The fork point, read once a lifetime exists (0: not a fork).
    fork_point: std::cell::OnceCell<u64>,
    /// Pages fetched, oldest first, at most [`MAX_INHERITED_PAGES_HELD`].
    pages: Vec<(u64, u64, Vec<StoredEvent>)>,
    /// The lowest offset a scan wanted and no held page covered.
    wanted_after: Option<u64>,
    /// The last fetch failed: subscriptions below the fork point wait until then.
    retry_at_ms: Option<i64>,
}

/// A scan's view of held inherited events: those after its cursor, and how
/// far they cover.
pub(crate) struct Slice {
    pub events: Vec<StoredEvent>,
    pub covered_through: u64,
}

impl<S: Storage> Stream<S> {
    /// The source's side: its data events after `after` through `through`
    /// (one page), or its own source's when below its own fork point.
    /// Served while soft-deleted (§18).
    pub fn inherited_events(&self, after: u64, through: u64) -> Result<Segment<InheritedPage>, StorageError> {
        self.segment(after, through, || self.own_events_page(after, through))
    }

    /// One page of this stream's own data events after `after` through `through`.
    fn own_events_page(&self, after: u64, through: u64) -> Result<InheritedPage, StorageError> {
        let end = through.min(self.head());
        if after >= end {
            return Ok(InheritedPage {
                after,
                next: after,
                events: Vec::new(),
            });
        }
        let page = rows::read_window(
            &self.storage,
            Window {
                after,
                through: end,
                ephemeral_after: NO_EPHEMERAL,
                max_rows: INHERITED_PAGE_ROWS,
                max_bytes: MAX_INHERITED_PAGE_BYTES,
            },
        )?;
        let next = match (page.exhausted, page.events.last()) {
            (false, Some(last)) => last.offset,
            _ => end,
        };
        let events = page
            .events
            .into_iter()
            .filter(|event| ControlType::classify(&event.event_type) == TypeKind::Ordinary)
            .map(WireEvent::from)
            .collect();
        Ok(InheritedPage { after, next, events })
    }

    /// Source offsets `1..=fork_point` are this fork's prefix; 0 when it is
    /// not a fork.
    pub(crate) fn fork_point(&self) -> Result<u64, StorageError> {
        if self.lifetime.is_none() {
            return Ok(0);
        }
        if let Some(point) = self.memory.inherited.fork_point.get() {
            return Ok(*point);
        }
        let point = store::origin(&self.storage)?.map_or(0, |origin| origin.fork_point);
        Ok(*self.memory.inherited.fork_point.get_or_init(|| point))
    }

    /// Held inherited events after `after` through `through`, at most
    /// `max_rows`; `None` (and the want recorded) when no held page covers
    /// `after`.
    pub(crate) fn inherited_slice(&mut self, after: u64, through: u64, max_rows: u64) -> Option<Slice> {
        let held = &mut self.memory.inherited;
        let Some((_, next, events)) = held
            .pages
            .iter()
            .find(|(from, next, _)| *from <= after && after < *next)
        else {
            held.wanted_after = Some(held.wanted_after.map_or(after, |wanted| wanted.min(after)));
            return None;
        };
        let limit = usize::try_from(max_rows).unwrap_or(usize::MAX).max(1);
        let picked: Vec<StoredEvent> = events
            .iter()
            .filter(|event| event.offset > after && event.offset <= through)
            .take(limit)
            .cloned()
            .collect();
        let covered_through = match picked.last() {
            Some(last) if picked.len() == limit => last.offset,
            _ => (*next).min(through),
        };
        Some(Slice {
            events: picked,
            covered_through,
        })
    }

    /// The page a subscription below the fork point waits for, once: the
    /// shell fetches it and hands it to [`Stream::hold_inherited`].
    pub fn take_inherited_want(&mut self) -> Result<Option<InheritedWant>, StorageError> {
        let Some(after) = self.memory.inherited.wanted_after.take() else {
            return Ok(None);
        };
        self.source_range(after, u64::MAX)
    }

    /// Keeps a fetched page for the scans (the oldest one goes past
    /// [`MAX_INHERITED_PAGES_HELD`]). A page that covers nothing (a source
    /// that no longer holds the prefix) counts as a failed fetch: asked
    /// again after [`ALARM_RETRY_MS`], never in a loop.
    pub fn hold_inherited(&mut self, page: InheritedPage, now_ms: i64) {
        let held = &mut self.memory.inherited;
        if page.next <= page.after {
            held.retry_at_ms = Some(now_ms.saturating_add(ALARM_RETRY_MS));
            return;
        }
        held.retry_at_ms = None;
        held.pages
            .retain(|(from, next, _)| !(*from == page.after && *next == page.next));
        if held.pages.len() >= MAX_INHERITED_PAGES_HELD {
            held.pages.remove(0);
        }
        let events = page.events.into_iter().map(StoredEvent::from).collect();
        held.pages.push((page.after, page.next, events));
    }

    /// The source could not be read: subscriptions below the fork point are
    /// due again at `retry_at_ms`.
    pub fn inherited_unavailable(&mut self, retry_at_ms: i64) {
        self.memory.inherited.retry_at_ms = Some(retry_at_ms);
    }

    /// When a subscription whose cursor stands at `cursor` may next read
    /// inherited events (`i64::MIN`: now).
    pub(crate) fn inherited_due_at(&self, cursor: u64) -> i64 {
        match self.memory.inherited.retry_at_ms {
            Some(at) if self.fork_point().is_ok_and(|point| cursor < point) => at,
            _ => i64::MIN,
        }
    }
}
