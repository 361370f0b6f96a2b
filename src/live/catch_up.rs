//! A stream's side of live connections (docs/design.md §10): opening one,
//! feeding it from the log until it has seen the head (catch-up), and
//! handing the shell what commits to fan out.

use super::{frames, Connection, LiveError, LiveQuery, Opening, Transport};
use crate::event::CommittedEvent;
use crate::limits::{
    LIVE_CATCH_UP_PAGES, LIVE_PAGE_EVENTS, MAX_LIVE_BACKLOG_BYTES, MAX_LIVE_SSE_PINNED_BYTES, MAX_READ_BYTES,
};
use crate::storage::Storage;
use crate::stream::rows::{read_window, Window};
use crate::stream::Stream;

/// One catch-up step for a connection: frames to send, in order.
#[derive(Debug, Default, PartialEq)]
pub struct CatchUp {
    pub frames: Vec<String>,
    /// The connection has seen the head: commits feed it from now on.
    pub caught_up: bool,
    /// Not caught up, and not held back by its byte budget: the shell
    /// continues it on its next turn without waiting for the client (§10: a
    /// filtered catch-up that scanned its page budget without a match has no
    /// frame for a WebSocket client to acknowledge).
    pub next_turn: bool,
}

/// The bytes an SSE catch-up may queue (§10, §12): at most a connection's
/// backlog limit, and at most what is left of the stream's budget for all
/// SSE responses' unsent bytes (`pinned` is what they hold now). With
/// nothing left the catch-up sends only its position and ends; the client
/// retries after `retry:`.
pub fn sse_catch_up_budget(pinned: usize) -> usize {
    MAX_LIVE_BACKLOG_BYTES.min(MAX_LIVE_SSE_PINNED_BYTES.saturating_sub(pinned))
}

impl<S: Storage> Stream<S> {
    /// Opens a live connection on this stream (which need not exist yet:
    /// a tail may start before the first write). Returns it, and the
    /// connection it replaced, if any.
    pub fn open_live(
        &mut self,
        query: &LiveQuery,
        transport: Transport,
        now_ms: i64,
        entropy: [u8; 16],
    ) -> Result<(Connection, Option<Connection>), LiveError> {
        self.open_live_for(query, transport, now_ms, entropy, None)
    }

    /// [`Stream::open_live`] for a caller whose token hash (§10
    /// re-authentication) the connection's record keeps.
    pub fn open_live_for(
        &mut self,
        query: &LiveQuery,
        transport: Transport,
        now_ms: i64,
        entropy: [u8; 16],
        token_hash: Option<String>,
    ) -> Result<(Connection, Option<Connection>), LiveError> {
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let start = self
            .read_start(query.after, query.from_earliest)
            .map_err(|error| match error {
                crate::stream::ReadError::Trimmed { asked, first_offset } => LiveError::Trimmed { asked, first_offset },
                other => LiveError::Storage(other.to_string()),
            })?;
        let query = &LiveQuery {
            after: start,
            ..query.clone()
        };
        let by_key = &self.state.subscriptions.outbound.by_key;
        let is_subscription_key = |key: &str| by_key.contains_key(key);
        let opening = Opening {
            transport,
            project_id: &self.project_id,
            path: self.path.as_str(),
            head,
            now_ms,
            entropy,
            is_subscription_key: &is_subscription_key,
            token_hash,
        };
        self.live.admit(query, &opening)
    }

    /// Feeds `key` from the log: frames holding at most `budget_bytes`
    /// (at least one event), in offset order, after what it was sent. The
    /// connection is caught up once a read reaches the head; each call reads
    /// at most [`LIVE_CATCH_UP_PAGES`] bounded pages (§12). Progress is never
    /// lost (§10): the connection's position moves past what its filter
    /// passed over, and an SSE catch-up that is not caught up ends with a
    /// `progress` message whose `id:` is that position, so the client's
    /// reconnect (`Last-Event-ID`) resumes there instead of rescanning.
    pub fn live_catch_up(&mut self, key: &str, budget_bytes: usize) -> Result<CatchUp, LiveError> {
        let mut catch_up = self.live_catch_up_pages(key, budget_bytes)?;
        if catch_up.caught_up {
            return Ok(catch_up);
        }
        if let Some(connection) = self.live.get(key) {
            if connection.transport == Transport::Sse && connection.delivered_through_offset > 0 {
                catch_up
                    .frames
                    .push(frames::sse_progress(connection.delivered_through_offset));
            }
        }
        Ok(catch_up)
    }

    fn live_catch_up_pages(&mut self, key: &str, budget_bytes: usize) -> Result<CatchUp, LiveError> {
        let mut catch_up = CatchUp::default();
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let mut spent = 0usize;
        // Each page moves the connection forward or ends the catch-up.
        for _page in 0..LIVE_CATCH_UP_PAGES {
            let Some(connection) = self.live.get(key).cloned() else {
                return Ok(catch_up);
            };
            let first_offset = self.retention.first_offset();
            if connection.delivered_through_offset.saturating_add(1) < first_offset {
                // Retention trimmed what it had not been sent (§16): never
                // silently — a `trimmed` frame, then on from the first event.
                catch_up.frames.push(frames::trimmed(
                    connection.transport,
                    connection.delivered_through_offset,
                    first_offset,
                ));
                self.live.passed(key, first_offset - 1);
                continue;
            }
            if connection.delivered_through_offset >= head {
                self.live.caught_up(key, head);
                catch_up.caught_up = true;
                return Ok(catch_up);
            }
            let remaining = budget_bytes.saturating_sub(spent);
            if remaining == 0 {
                return Ok(catch_up);
            }
            let page = read_window(
                &self.storage,
                Window {
                    after: connection.delivered_through_offset,
                    through: head,
                    ephemeral_after: connection.opened_at_head,
                    max_rows: LIVE_PAGE_EVENTS,
                    max_bytes: remaining.min(MAX_READ_BYTES),
                },
            )
            .map_err(|error| LiveError::Storage(error.to_string()))?;
            let scanned_through = if page.exhausted {
                head
            } else {
                page.events.last().map_or(head, |event| event.offset)
            };
            let admitted: Vec<CommittedEvent> = page
                .events
                .into_iter()
                .map(CommittedEvent::from)
                .filter(|event| connection.admits(event))
                .collect();
            if admitted.is_empty() {
                self.live.passed(key, scanned_through);
                continue;
            }
            let text = match connection.transport {
                Transport::Sse => frames::sse_event_frames(&admitted),
                Transport::WebSocket => frames::websocket_frame(&admitted, head),
            };
            self.live.counters.frames_serialized += 1;
            spent = spent.saturating_add(text.len());
            let last_sent = admitted.last().map_or(scanned_through, |event| event.offset);
            self.live
                .record_sent(key, scanned_through, last_sent, admitted.len() as u64, text.len());
            catch_up.frames.push(text);
        }
        // The page budget ran out before the byte budget: nothing for the
        // client to answer may be what holds the rest back.
        catch_up.next_turn = self.live.contains(key);
        Ok(catch_up)
    }

    /// Events committed since the last call, for fan-out (§10).
    pub fn take_committed(&mut self) -> Vec<CommittedEvent> {
        std::mem::take(&mut self.committed)
    }

    pub fn head(&self) -> u64 {
        self.lifetime.as_ref().map_or(0, |meta| meta.head)
    }
}
