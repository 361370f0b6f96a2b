//! One bounded scan of a subscription's log (docs/design.md §6 rules 2, 10; §12;
//! §13): pages of durable events after the cursor, each prepared for the
//! receiver, judged by the gate and collected until the batch is full, the
//! budget is spent or a retraction barrier is met. [`Scan::run`] says how it
//! ended; [`super::decide::next`] decides what the planner does with it.

use super::log_lines::{self, Head, PENDING_DELIVERY_ID};
use super::prepare::{local_invalidation, Prepared};
use super::shape::Shape;
use super::{Outcome, PlannedEvent};
use crate::copy::{CopyKeys, Stamp};
use crate::delivery::gate::{Held, ThresholdStep};
use crate::delivery::journal::{GateHit, Journaled};
use crate::event::StoredEvent;
use crate::invalidation::Invalidation;
use crate::json_field::JsonField;
use crate::jsonata::StepBudget;
use crate::limits::{MAX_DELIVERY_BATCH_BYTES, MAX_READ_BYTES, MAX_SCAN_ROWS, SCAN_PAGE_ROWS};
use crate::schema::RuntimeRow;
use crate::storage::{Storage, StorageError};
use crate::stream::Stream;
use crate::subscription::{Configuration, Gate};

/// What one plan works on, unchanged while it runs.
pub(super) struct Scope<'a> {
    pub key: &'a str,
    pub configuration: &'a Configuration,
    pub stamp: &'a Stamp,
    pub shape: &'a Shape,
    pub now_ms: i64,
    pub entropy: [u8; 16],
    pub journal_pruned_through: u64,
    /// A concurrent window (§8 `concurrency`) has work still open before
    /// the scan's start: an invalidation is a barrier even with nothing
    /// collected, for what is open may yet be journaled and retracted (§13).
    pub open_work_before: bool,
    /// Rows the first page reads; each further page reads twice as many, up
    /// to [`SCAN_PAGE_ROWS`] (a concurrent window wants one event, §8).
    pub first_page_rows: u64,
    /// A log receiver's batch (§15.1) and what its lines may take of the
    /// invocation's log; `None` for every other receiver.
    pub log: Option<LogRoom>,
}

/// What a log batch may write (§12 "log receiver"): the bytes the
/// invocation may still log, and the attempt its lines name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LogRoom {
    pub left: usize,
    pub attempt: u64,
}

/// An invalidation the scan stopped at whose journaled deliveries need a
/// retraction first (§13).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Retract {
    pub invalidation: Invalidation,
    pub pending: Vec<Journaled>,
    /// The invalidation's event time.
    pub created_at_ms: i64,
}

/// How a scan ended.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ScanEnd {
    /// It met this stream's own invalidation with deliveries to retract.
    Retract(Retract),
    /// The first event it would send failed to prepare: planned alone, failed.
    Failed(Outcome),
    /// The next event would take the batch past its byte limit.
    Full,
    /// The next log line does not fit in what the invocation may still log
    /// (§12 "log receiver"): what is collected goes; it waits for the next
    /// invocation.
    LogBudgetSpent,
    /// It met an invalidation with events collected (or, in a concurrent
    /// window, with work open before it): what is collected goes now.
    Barrier,
    /// A threshold gate minted a digest (or one is re-read for its retry).
    Minted,
    /// The JSONata step budget ran out (§12 "JSONata per engine call").
    OutOfSteps,
    /// The batch has what it wants: enough events, a copy batch ending at an
    /// invalidation (§13), or a failing event behind the collected ones.
    Wanted,
    /// It saw everything up to the window's end, or ran out of pages.
    Exhausted,
    /// It reached a fork's inherited events (§18) that no held page covers:
    /// what is collected goes; the rest waits for the shell to fetch a page.
    AwaitsInherited,
}

impl ScanEnd {
    /// Whether the scan stopped before seeing what the log holds up to its
    /// window's end, so an aggregate cannot wait for more.
    pub(super) fn stopped_early(&self) -> bool {
        matches!(
            self,
            ScanEnd::Full
                | ScanEnd::LogBudgetSpent
                | ScanEnd::Barrier
                | ScanEnd::Minted
                | ScanEnd::OutOfSteps
                | ScanEnd::AwaitsInherited
        )
    }
}

/// The scan's running state.
#[derive(Debug)]
pub(super) struct Scan {
    /// The last offset scanned: the cursor moves here on success.
    pub scanned: u64,
    pub events: Vec<PlannedEvent>,
    /// Where the cursor stood before the first collected event.
    pub first_match_after: Option<u64>,
    bytes: usize,
    /// What the collected events' log lines take (§12 "log receiver").
    pub log_bytes: usize,
    /// A maxOnce gate judges against the anchor of the last delivery that
    /// succeeded (§13); what it discards is counted once the cursor passes it.
    gate_anchor: Option<i64>,
    pub discarded: Vec<u64>,
    /// The invalidation a [`ScanEnd::Barrier`] stopped at.
    pub barrier_at: Option<u64>,
    held: Option<Held>,
    /// The JSONata steps this scan may spend (§12 "JSONata per engine
    /// call"); past them it stops like at the row budget.
    steps: StepBudget,
    /// The run's copy keys, made at the scan's first event (one run per scan).
    copy_keys: Option<CopyKeys>,
}

impl Scan {
    pub(super) fn new(row: &RuntimeRow) -> Scan {
        Scan {
            scanned: row.acknowledged_offset,
            events: Vec::new(),
            first_match_after: None,
            bytes: 0,
            log_bytes: 0,
            gate_anchor: row.gate_anchor_ms,
            discarded: Vec::new(),
            barrier_at: None,
            held: None,
            steps: StepBudget::per_call(),
            copy_keys: None,
        }
    }

    /// Runs the scan to its end.
    pub(super) fn run<S: Storage>(
        &mut self,
        stream: &mut Stream<S>,
        scope: &Scope<'_>,
    ) -> Result<ScanEnd, StorageError> {
        let end = match (scope.shape.threshold_gate(), scope.shape.retry_through) {
            (true, Some(through)) => {
                // The minted digest, re-read as it was: the scan window is empty.
                self.events = stream.gate_digest(scope.key, through)?;
                self.scanned = through;
                ScanEnd::Minted
            }
            _ => self.pages(stream, scope)?,
        };
        if end == ScanEnd::Minted && self.events.is_empty() {
            self.events = stream.gate_digest(scope.key, self.scanned)?;
        }
        Ok(end)
    }

    fn pages<S: Storage>(&mut self, stream: &mut Stream<S>, scope: &Scope<'_>) -> Result<ScanEnd, StorageError> {
        let window_end = scope.shape.window_end;
        // The first page reads only what the batch wants (the planner sets
        // it: a webhook one event), each page after it twice the last, up to
        // SCAN_PAGE_ROWS: a matching log costs one small read per delivery, a
        // sparse filter still reaches full pages quickly.
        let mut page_rows = scope.first_page_rows.clamp(1, SCAN_PAGE_ROWS);
        // Each page moves `scanned` forward or ends the scan, and the window
        // holds at most MAX_SCAN_ROWS offsets: at most that many pages.
        for _page in 0..MAX_SCAN_ROWS {
            if self.scanned >= window_end {
                return Ok(ScanEnd::Exhausted);
            }
            let fork_point = stream.fork_point()?;
            if self.scanned < fork_point {
                // Below a fork's fork point the events are its source's (§18):
                // read from the pages the shell fetched, or wait for one.
                let Some(slice) = stream.inherited_slice(self.scanned, window_end.min(fork_point), page_rows) else {
                    return Ok(ScanEnd::AwaitsInherited);
                };
                for event in slice.events {
                    if let Some(end) = self.step(stream, scope, &event)? {
                        return Ok(end);
                    }
                }
                self.scanned = self.scanned.max(slice.covered_through);
                page_rows = page_rows.saturating_mul(2).min(SCAN_PAGE_ROWS);
                continue;
            }
            let page = stream.scan_window(crate::stream::rows::Window {
                after: self.scanned,
                through: window_end,
                ephemeral_after: crate::stream::rows::NO_EPHEMERAL,
                max_rows: page_rows,
                max_bytes: MAX_READ_BYTES,
            })?;
            for event in &page.events {
                if let Some(end) = self.step(stream, scope, event)? {
                    return Ok(end);
                }
            }
            if page.exhausted {
                // Everything up to the window's end was seen (ephemeral rows
                // included: durable cursors pass over them, §3 rule 5).
                self.scanned = window_end;
                return Ok(ScanEnd::Exhausted);
            }
            page_rows = page_rows.saturating_mul(2).min(SCAN_PAGE_ROWS);
        }
        Ok(ScanEnd::Exhausted)
    }

    /// One event: `Some` when the scan ends at it.
    fn step<S: Storage>(
        &mut self,
        stream: &mut Stream<S>,
        scope: &Scope<'_>,
        event: &StoredEvent,
    ) -> Result<Option<ScanEnd>, StorageError> {
        if let Some(invalidation) = local_invalidation(event).filter(|_| scope.shape.journaled) {
            if let Some(end) = self.invalidated(stream, scope, event, invalidation)? {
                return Ok(Some(end));
            }
        }
        let keys = match &mut self.copy_keys {
            Some(keys) => keys,
            unmade @ None => {
                let form = stream.copy_key_form(scope.configuration, scope.stamp)?;
                unmade.insert(CopyKeys::new(form, scope.stamp))
            }
        };
        match stream.prepare(scope.configuration, scope.stamp, keys, event, &mut self.steps) {
            Prepared::Skip => {
                self.scanned = event.offset;
                Ok(None)
            }
            Prepared::OutOfSteps => Ok(Some(ScanEnd::OutOfSteps)),
            Prepared::Fail { message, body } => Ok(Some(self.failing(event, message, body.into()))),
            Prepared::Send(body) => self.admit(stream, scope, event, body),
        }
    }

    /// An event that can never be sent: planned alone, failed (§6 rule 11);
    /// behind collected events it ends the batch and goes next.
    fn failing(&mut self, event: &StoredEvent, message: String, body: JsonField) -> ScanEnd {
        if !self.events.is_empty() {
            return ScanEnd::Wanted;
        }
        self.first_match_after = Some(self.scanned);
        self.scanned = event.offset;
        self.events.push(PlannedEvent {
            offset: event.offset,
            created_at_ms: event.created_at_ms,
            body,
        });
        ScanEnd::Failed(Outcome::permanent(message))
    }

    /// Prices `event`'s log line against what the invocation may still log
    /// (§12, §15.1): `Some` when the scan ends at it — a line no invocation
    /// may write fails, one that does not fit now waits.
    fn price_line(
        &mut self,
        room: LogRoom,
        scope: &Scope<'_>,
        event: &StoredEvent,
        body: &JsonField,
    ) -> Option<ScanEnd> {
        let head = Head {
            delivery_id: PENDING_DELIVERY_ID,
            attempt: room.attempt,
            stamp: scope.stamp,
            subscription_key: scope.key,
        };
        let cost = log_lines::cost(&log_lines::line(&head, event.offset, &body.tree()));
        if let Some(message) = log_lines::too_large(cost) {
            return Some(self.failing(event, message, body.clone()));
        }
        if self.log_bytes.saturating_add(cost) > room.left {
            return Some(ScanEnd::LogBudgetSpent);
        }
        // A log batch never reaches the batch byte limit (the log budget is
        // smaller), so the event is collected.
        self.log_bytes += cost;
        None
    }

    /// This stream's own invalidation (§13): a barrier behind collected
    /// events, else its retractions go first; a gap in the journal is recorded.
    fn invalidated<S: Storage>(
        &mut self,
        stream: &mut Stream<S>,
        scope: &Scope<'_>,
        event: &StoredEvent,
        invalidation: Invalidation,
    ) -> Result<Option<ScanEnd>, StorageError> {
        if !self.events.is_empty() || scope.open_work_before {
            self.barrier_at = Some(event.offset);
            return Ok(Some(ScanEnd::Barrier));
        }
        if scope.shape.threshold_gate() {
            stream.gate_drop_invalidated(scope.key, &mut self.held, &invalidation)?;
        }
        let pending = stream.journal_to_retract(scope.key, &invalidation, scope.shape.retracting)?;
        if !pending.is_empty() {
            // Nothing after the invalidation goes before its retractions.
            self.scanned = self.scanned.max(event.offset.saturating_sub(1));
            return Ok(Some(ScanEnd::Retract(Retract {
                invalidation,
                pending,
                created_at_ms: event.created_at_ms,
            })));
        }
        if scope.journal_pruned_through >= invalidation.lowest() {
            stream.record_journal_gap(
                scope.key,
                scope.stamp,
                &invalidation,
                scope.journal_pruned_through,
                scope.now_ms,
                scope.entropy,
            )?;
        }
        Ok(None)
    }

    /// An event the filter accepted, through the gate (§13) into the batch.
    fn admit<S: Storage>(
        &mut self,
        stream: &mut Stream<S>,
        scope: &Scope<'_>,
        event: &StoredEvent,
        body: JsonField,
    ) -> Result<Option<ScanEnd>, StorageError> {
        match scope.shape.gate {
            Some(Gate::MaxOnce { window_ms }) => {
                let window = i64::try_from(window_ms).unwrap_or(i64::MAX);
                if self
                    .gate_anchor
                    .is_some_and(|anchor| event.created_at_ms < anchor.saturating_add(window))
                {
                    // Quietly discarded (§13): never tried, no dead letter.
                    self.discarded.push(event.offset);
                    self.scanned = event.offset;
                    return Ok(None);
                }
                self.gate_anchor = Some(event.created_at_ms);
            }
            Some(Gate::Threshold { count, window_ms }) => {
                let hit = GateHit::new(event.offset, event.created_at_ms, &body.tree());
                return Ok(
                    match stream.threshold_admit(scope.key, &mut self.held, hit, count, window_ms)? {
                        // Held hits do not hold the cursor (§13).
                        ThresholdStep::Held => {
                            self.scanned = event.offset;
                            None
                        }
                        ThresholdStep::Mint => {
                            self.scanned = event.offset;
                            Some(ScanEnd::Minted)
                        }
                        ThresholdStep::MintBefore => Some(ScanEnd::Minted),
                    },
                );
            }
            None => {}
        }
        if let Some(room) = scope.log {
            if let Some(end) = self.price_line(room, scope, event, &body) {
                return Ok(Some(end));
            }
        }
        // A copy batch ends at an invalidation (§13).
        let ends_batch = crate::copy::ends_batch(&scope.configuration.receiver, event);
        let planned = PlannedEvent {
            offset: event.offset,
            created_at_ms: event.created_at_ms,
            body,
        };
        Ok(self.collect(planned, scope.shape.wanted, ends_batch))
    }

    /// Adds one event to the batch unless it would take the batch past its
    /// byte limit: `Some` when the batch is done.
    fn collect(&mut self, event: PlannedEvent, wanted: usize, ends_batch: bool) -> Option<ScanEnd> {
        let size = event.body.json_len();
        if !self.events.is_empty() && self.bytes + size > MAX_DELIVERY_BATCH_BYTES {
            return Some(ScanEnd::Full);
        }
        self.bytes += size;
        if self.events.is_empty() {
            self.first_match_after = Some(self.scanned);
        }
        self.scanned = event.offset;
        self.events.push(event);
        (self.events.len() >= wanted || ends_batch).then_some(ScanEnd::Wanted)
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row() -> RuntimeRow {
        RuntimeRow::fixture()
    }

    fn event(offset: u64, body: serde_json::Value) -> PlannedEvent {
        PlannedEvent {
            offset,
            created_at_ms: 1000,
            body: body.into(),
        }
    }

    #[test]
    fn collecting_remembers_where_the_cursor_stood_before_the_first_event() {
        let mut scan = Scan::new(&row());
        for offset in [12, 14] {
            assert_eq!(scan.collect(event(offset, json!({})), 100, false), None);
        }
        assert_eq!(scan.first_match_after, Some(10));
        assert_eq!(scan.scanned, 14);
        assert_eq!(scan.events.len(), 2);
    }

    #[test]
    fn a_batch_ends_when_it_has_what_it_wants_or_at_a_copied_invalidation() {
        let mut scan = Scan::new(&row());
        assert_eq!(scan.collect(event(11, json!(1)), 2, false), None);
        assert_eq!(scan.collect(event(12, json!(2)), 2, false), Some(ScanEnd::Wanted));
        let mut copy = Scan::new(&row());
        assert_eq!(copy.collect(event(11, json!(1)), 100, true), Some(ScanEnd::Wanted));
    }

    #[test]
    fn a_batch_is_full_before_the_event_that_would_pass_its_byte_limit() {
        let mut scan = Scan::new(&row());
        let big = json!("x".repeat(MAX_DELIVERY_BATCH_BYTES));
        // The first event always goes, whatever its size.
        assert_eq!(scan.collect(event(11, big.clone()), 100, false), None);
        assert_eq!(scan.collect(event(12, big), 100, false), Some(ScanEnd::Full));
        assert_eq!((scan.events.len(), scan.scanned), (1, 11));
    }
}
