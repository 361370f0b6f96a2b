//! Fan-out at commit time (docs/design.md §10): what every caught-up connection
//! gets of the events just committed. Everything but the transport's send
//! happens once per commit, not once per reader: each distinct frame is
//! serialized once and shared, and the connection's bookkeeping (cursor,
//! counters, unacknowledged frames, whether its record is due to be saved)
//! is done in the same pass over the connections, so the shell only sends.

use super::registry::{LiveCounters, Open};
use super::{frames, CloseReason, Connection, Registry, Transport};
use crate::event::CommittedEvent;
use crate::limits::MAX_LIVE_BACKLOG_BYTES;
use std::collections::BTreeMap;
use std::rc::Rc;

/// What one connection gets for events just committed.
#[derive(Debug, Clone, PartialEq)]
pub enum Fanout {
    /// Nothing for it (filtered out, or still catching up from the log).
    Nothing,
    /// Send `text`, already recorded as sent; for a WebSocket whose record
    /// is due to be saved (every [`crate::limits::LIVE_PERSIST_EVERY_SENDS`]
    /// sends), `save` is that record: serialize it into the socket's
    /// attachment.
    Send {
        /// Shared by every connection getting the same events.
        text: Rc<str>,
        save: Option<Box<Connection>>,
    },
    /// Close it: sending would pass its backlog limit.
    Close(CloseReason),
}

/// The frames of one commit, each serialized once: all its events, per
/// transport (what an unfiltered reader gets), and any filtered subset.
struct SharedFrames<'a> {
    events: &'a [CommittedEvent],
    head: u64,
    all: BTreeMap<Transport, Rc<str>>,
    subsets: BTreeMap<(Transport, Vec<u64>), Rc<str>>,
}

impl SharedFrames<'_> {
    fn serialize(transport: Transport, events: &[CommittedEvent], head: u64, counters: &mut LiveCounters) -> Rc<str> {
        counters.frames_serialized += 1;
        Rc::from(match transport {
            Transport::Sse => frames::sse_event_frames(events),
            Transport::WebSocket => frames::websocket_frame(events, head),
        })
    }

    /// The frame of every event of the commit.
    fn all(&mut self, transport: Transport, counters: &mut LiveCounters) -> Rc<str> {
        let (events, head) = (self.events, self.head);
        Rc::clone(
            self.all
                .entry(transport)
                .or_insert_with(|| Self::serialize(transport, events, head, counters)),
        )
    }

    /// The frame of the events `record` admits, if any, and its last offset.
    fn admitted(&mut self, record: &Connection, counters: &mut LiveCounters) -> Option<(Rc<str>, u64, u64)> {
        if self.events.iter().all(|event| record.admits(event)) {
            let last = self.events.last()?.offset;
            return Some((self.all(record.transport, counters), last, self.events.len() as u64));
        }
        let admitted: Vec<CommittedEvent> = self.events.iter().filter(|e| record.admits(e)).cloned().collect();
        let last = admitted.last()?.offset;
        let offsets = admitted.iter().map(|event| event.offset).collect();
        let head = self.head;
        let text = self
            .subsets
            .entry((record.transport, offsets))
            .or_insert_with(|| Self::serialize(record.transport, &admitted, head, counters));
        Some((Rc::clone(text), last, admitted.len() as u64))
    }
}

impl Registry {
    /// What every caught-up connection gets of `events` just committed
    /// (§10), in key order; connections getting nothing are left out.
    /// `unsent_bytes` says what the shell still holds for an SSE stream; a
    /// WebSocket's backlog is what its client has not acknowledged (§12).
    pub fn on_commit(
        &mut self,
        events: &[CommittedEvent],
        head: u64,
        unsent_bytes: &dyn Fn(&str) -> usize,
    ) -> Vec<(String, Fanout)> {
        let Some(through) = events.iter().map(|event| event.offset).max() else {
            return Vec::new();
        };
        let mut frames = SharedFrames {
            events,
            head,
            all: BTreeMap::new(),
            subsets: BTreeMap::new(),
        };
        let mut decisions = Vec::new();
        for (key, open) in &mut self.connections {
            if !open.record.caught_up {
                continue;
            }
            let backlog = match open.record.transport {
                Transport::Sse => unsent_bytes(key),
                Transport::WebSocket => open.record.backlog(),
            };
            let fanout = fan_out_to(open, &mut frames, &mut self.counters, through, backlog);
            if fanout != Fanout::Nothing {
                decisions.push((key.clone(), fanout));
            }
        }
        decisions
    }
}

/// One caught-up connection's part of a commit through `through`.
fn fan_out_to(
    open: &mut Open,
    frames: &mut SharedFrames<'_>,
    counters: &mut LiveCounters,
    through: u64,
    backlog: usize,
) -> Fanout {
    let Some((text, last_sent, events)) = frames.admitted(&open.record, counters) else {
        let record = &mut open.record;
        record.delivered_through_offset = record.delivered_through_offset.max(through);
        return Fanout::Nothing;
    };
    if backlog.saturating_add(text.len()) > MAX_LIVE_BACKLOG_BYTES {
        counters.slow_consumer_closes += 1;
        return Fanout::Close(CloseReason::SlowConsumer);
    }
    open.record_frame(counters, through, last_sent, events, text.len());
    let save = (open.record.transport == Transport::WebSocket && open.flow.send_counted()).then(|| {
        counters.attachment_writes += 1;
        open.flow.saved(open.record.bytes_acknowledged);
        Box::new(open.record.clone())
    });
    Fanout::Send { text, save }
}
