//! The EVM source as a state machine (DESIGN.md §1, §15). One alarm run is
//! a conversation: [`Source::begin_run`] answers the first [`Effect`] (an RPC
//! call to make, a batch to append, or when to wake next); the shell
//! performs it and feeds the outcome back through [`Source::on_rpc`] or
//! [`Source::on_append`], which answer the next effect, until a `Sleep` or
//! `Stop`. The engine never waits, reads a clock or draws randomness.
//!
//! Per block above finality: read the header by number; if its parentHash
//! is not the stored hash below it, search back for the common ancestor
//! (galloping, then bisecting, over the window by number), invalidate the
//! dead fork's offsets and rewind; otherwise read its logs by block hash
//! (every returned hash checked), append the matches, then checkpoint. A
//! fork deeper than the window invalidates the whole window and rewinds to
//! the floor, counted and logged. Finalized blocks are read by range.
//!
//! Appends happen before the checkpoint moves. An unfinalized block's
//! batches, and an invalidation's, are written ahead (`source_pending`), so
//! a restart finishes exactly that work — re-appending under the same
//! idempotency keys, which collapse — even if the chain moved meanwhile;
//! otherwise a block appended but not checkpointed could reorg away with
//! its events never invalidated.

use super::abi::{self, CompiledFilter, Log};
use super::config::SourceConfig;
use super::rpc::{self, Header, LogScope, RpcAnswer, RpcCall, RpcFailure};
use super::store::{self, Batch, SourceRow, Status, Transition, WindowBlock};
use crate::limits::{
    MAX_EVENT_BYTES, MAX_INVALIDATED_OFFSETS, MAX_SOURCE_APPEND_BYTES, MAX_SOURCE_APPEND_EVENTS,
    MAX_SOURCE_LOGS_PER_CALL, MAX_SOURCE_LOGS_PER_RUN, MAX_SOURCE_LOG_RANGE_BLOCKS, MAX_SOURCE_RPC_CALLS_PER_RUN,
    SOURCE_BACKOFF_INITIAL_MS, SOURCE_BACKOFF_MAX_MS, SOURCE_LOG_RANGE_BLOCKS,
};
use crate::schema::{migrate_with, SOURCE_MIGRATIONS};
use crate::storage::{Storage, StorageError};
use crate::subscription::Retry;
use crate::time::rfc3339_millis;
use crate::Inputs;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The event type of a matching log (§15).
pub const EVM_LOG_TYPE: &str = "evm.log";
pub const INVALIDATED_TYPE: &str = crate::event::ControlType::EventsInvalidated.as_str();
/// Calls an ancestor search may need over the largest window (gallop, then
/// bisect, then the floor): a search starts only with this many left.
const SEARCH_CALLS: u32 = 24;
/// Steps one engine call may take without producing an effect (applying
/// transitions): a bound, never reached in practice.
const MAX_STEPS: usize = 64;

/// What the shell does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// POST this JSON-RPC request, then call [`Source::on_rpc`].
    Call(RpcCall),
    /// Append this batch to the target stream, then call [`Source::on_append`].
    Append(AppendCall),
    /// The run is over: arm the alarm for `at_ms`.
    Sleep { at_ms: i64 },
    /// The source does not run (failed, or not configured): no alarm.
    Stop,
    /// The run was superseded (a PUT or DELETE meanwhile): leave the alarm.
    Abandoned,
}

/// `POST /v1/streams{stream}/-/events` with `body` (`{"events": [...]}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppendCall {
    pub stream: String,
    pub body: String,
    pub events: usize,
    /// Append only into this lifetime of the target (sent as
    /// [`super::lifetime::IF_STREAM_ID_HEADER`]); `None` before the first
    /// append and after a new lifetime was found (§15).
    pub expect_stream_id: Option<String>,
}

/// What became of an [`AppendCall`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppendAnswer {
    Response {
        status: u16,
        body: Vec<u8>,
        /// The lifetime the append committed to (the answer's
        /// [`super::lifetime::STREAM_ID_HEADER`]), when it says.
        stream_id: Option<String>,
    },
    /// The request never got an answer (network, timeout).
    Failed(String),
}

/// How a run ends.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Finish {
    /// Nothing more to read until the next poll.
    CaughtUp,
    /// Out of calls or logs for this run; more is due now.
    Budget,
    Transient {
        reason: String,
        retry_after_ms: Option<u64>,
    },
    Permanent(String),
}

/// An ancestor search over the window (by number; the window is contiguous
/// from the floor up).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Search {
    /// The lowest block known dead (its stored hash is not canonical).
    lowest_dead: u64,
    /// The highest block known common, if any yet.
    highest_common: Option<u64>,
    /// The next gallop step below `lowest_dead`.
    gap: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum SearchEnd {
    Ancestor(u64),
    Deep,
}

#[derive(Debug, Clone)]
enum Awaiting {
    Nothing,
    Tip,
    Header {
        number: u64,
    },
    /// Re-reading the window's top when caught up (a same-height reorg).
    TopCheck {
        number: u64,
    },
    BlockLogs {
        header: Header,
    },
    Probe {
        number: u64,
        search: Search,
    },
    RangeLogs {
        from: u64,
        to: u64,
    },
    RangeAnchor {
        to: u64,
        logs: Vec<Log>,
    },
    Append {
        batch: usize,
    },
}

#[derive(Debug, Clone)]
struct Pending {
    transition: Transition,
    batches: Vec<Batch>,
    /// Written ahead in `source_pending` (unfinalized work).
    durable: bool,
}

#[derive(Debug, Clone)]
struct Run {
    id: u64,
    now_ms: i64,
    entropy: [u8; 16],
    calls_left: u32,
    logs_left: u64,
    tip: Option<u64>,
    next_request_id: u64,
    in_flight: Option<RpcCall>,
    awaiting: Awaiting,
    pending: Option<Pending>,
    /// Invalidation counts of dead block hashes (keys of revived blocks).
    deaths: BTreeMap<String, u64>,
}

/// One source over its own storage.
pub struct Source<S: Storage> {
    storage: S,
    row: Option<SourceRow>,
    /// The compiled filters of `row.config`.
    filters: Option<Vec<CompiledFilter>>,
    run: Option<Run>,
    runs_started: u64,
    /// Structured log lines for the shell to print (§11).
    logs: Vec<Value>,
}

fn error_text(text: &str) -> String {
    text.chars().take(crate::limits::MAX_ERROR_CHARS).collect()
}

/// The backoff after `attempt` failed runs: 1 s doubling to 5 min, ±20%.
pub fn backoff_ms(attempt: u64, entropy: [u8; 16]) -> i64 {
    let retry = Retry {
        max_attempts: u64::MAX,
        initial_backoff_ms: SOURCE_BACKOFF_INITIAL_MS,
        max_backoff_ms: SOURCE_BACKOFF_MAX_MS,
    };
    crate::delivery::backoff_ms(&retry, attempt, entropy)
}

impl<S: Storage> Source<S> {
    pub fn open(storage: S) -> Result<Self, StorageError> {
        migrate_with(&storage, SOURCE_MIGRATIONS)?;
        let row = store::load_state(&storage)?;
        Ok(Source {
            storage,
            row,
            filters: None,
            run: None,
            runs_started: 0,
            logs: Vec::new(),
        })
    }

    pub fn row(&self) -> Option<&SourceRow> {
        self.row.as_ref()
    }

    pub fn storage(&self) -> &S {
        &self.storage
    }

    /// Log lines produced since the last call.
    pub fn take_logs(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.logs)
    }

    /// The current run's id (answers carry it back), if one is going.
    pub fn run_id(&self) -> Option<u64> {
        self.run.as_ref().map(|run| run.id)
    }

    /// Creates or replaces the configuration (already validated, chain id
    /// checked). Changing what is read (chain, stream, filters, start)
    /// restarts ingestion; the rest applies to the running source. A failed
    /// source runs again. Returns whether the source is new.
    pub fn configure(
        &mut self,
        project_id: &str,
        name: &str,
        config: SourceConfig,
        now_ms: i64,
    ) -> Result<bool, StorageError> {
        let created = self.row.is_none();
        let fresh = |generation: u64, created_at_ms: i64| SourceRow {
            project_id: project_id.to_owned(),
            name: name.to_owned(),
            generation,
            next_block: config.start_block,
            finalized_block: config.start_block.and_then(|start| start.checked_sub(1)),
            anchor_hash: None,
            status: Status::Running,
            last_error: None,
            attempt: 0,
            next_run_at_ms: now_ms,
            url_index: 0,
            range_blocks: SOURCE_LOG_RANGE_BLOCKS,
            events_appended: 0,
            invalidations: 0,
            reorgs: 0,
            deep_reorgs: 0,
            created_at_ms,
            updated_at_ms: now_ms,
            config: config.clone(),
            target_stream_id: None,
        };
        let (row, reset) = match &self.row {
            None => (fresh(1, now_ms), true),
            Some(old) if old.config.same_ingestion(&config) => {
                let mut row = old.clone();
                row.project_id = project_id.to_owned();
                row.name = name.to_owned();
                row.config = config.clone();
                row.status = Status::Running;
                row.attempt = 0;
                row.last_error = None;
                row.next_run_at_ms = now_ms;
                row.url_index = 0;
                row.updated_at_ms = now_ms;
                (row, false)
            }
            Some(old) => (fresh(old.generation + 1, old.created_at_ms), true),
        };
        let storage = &self.storage;
        storage.atomically(&mut || -> Result<(), StorageError> {
            if reset {
                store::reset_progress(storage)?;
            }
            store::save_state(storage, &row)
        })?;
        self.row = Some(row);
        self.filters = None;
        self.run = None;
        Ok(created)
    }

    /// Forgets the source (its events stay in the stream). Whether it existed.
    pub fn delete(&mut self) -> Result<bool, StorageError> {
        let existed = self.row.is_some();
        let storage = &self.storage;
        storage.atomically(&mut || store::delete_all(storage))?;
        self.row = None;
        self.filters = None;
        self.run = None;
        Ok(existed)
    }

    /// `GET /v1/sources/{name}` (§15).
    pub fn status(&self) -> Option<Value> {
        let row = self.row.as_ref()?;
        let status = match (row.status, row.attempt) {
            (Status::Failed, _) => "failed",
            (Status::Running, 0) => "running",
            (Status::Running, _) => "retrying",
        };
        Some(json!({
            "name": row.name,
            "config": row.config,
            "status": status,
            "nextBlock": row.next_block,
            "finalizedBlock": row.finalized_block,
            "lastError": row.last_error,
            "eventsAppended": row.events_appended,
            "invalidations": row.invalidations,
            "reorgs": row.reorgs,
            "deepReorgs": row.deep_reorgs,
            "attempt": row.attempt,
            "nextRunAt": (row.status == Status::Running).then(|| rfc3339_millis(row.next_run_at_ms)),
            "createdAt": rfc3339_millis(row.created_at_ms),
            "updatedAt": rfc3339_millis(row.updated_at_ms),
        }))
    }

    /// When the alarm should next fire (`None`: no alarm).
    pub fn due_at(&self) -> Option<i64> {
        self.row
            .as_ref()
            .filter(|row| row.status == Status::Running)
            .map(|row| row.next_run_at_ms)
    }

    /// Starts an alarm run.
    pub fn begin_run(&mut self, inputs: &Inputs) -> Result<Effect, StorageError> {
        self.run = None;
        let Some(row) = &self.row else {
            return Ok(Effect::Stop);
        };
        if row.status == Status::Failed {
            return Ok(Effect::Stop);
        }
        if inputs.now_ms < row.next_run_at_ms {
            return Ok(Effect::Sleep {
                at_ms: row.next_run_at_ms,
            });
        }
        let generation = row.generation;
        self.runs_started += 1;
        self.run = Some(Run {
            id: self.runs_started,
            now_ms: inputs.now_ms,
            entropy: inputs.entropy,
            calls_left: MAX_SOURCE_RPC_CALLS_PER_RUN,
            logs_left: MAX_SOURCE_LOGS_PER_RUN,
            tip: None,
            next_request_id: 1,
            in_flight: None,
            awaiting: Awaiting::Nothing,
            pending: None,
            deaths: store::load_deaths(&self.storage)?,
        });
        if self.filters.is_none() {
            match self.row.as_ref().map(|row| row.config.compile()) {
                Some(Ok(filters)) => self.filters = Some(filters),
                Some(Err(error)) => {
                    return self.finish(Finish::Permanent(format!(
                        "the stored configuration no longer validates: {error}"
                    )))
                }
                None => return Ok(Effect::Stop),
            }
        }
        match store::load_pending(&self.storage)? {
            Some((transition, batches)) if transition.generation() == generation => {
                if let Some(run) = self.run.as_mut() {
                    run.pending = Some(Pending {
                        transition,
                        batches,
                        durable: true,
                    });
                }
            }
            Some(_) => store::clear_pending(&self.storage)?,
            None => {}
        }
        self.advance()
    }

    /// The answer to the run's RPC call.
    pub fn on_rpc(&mut self, run_id: u64, answer: &RpcAnswer, now_ms: i64) -> Result<Effect, StorageError> {
        let Some(run) = self.run.as_mut().filter(|run| run.id == run_id) else {
            return Ok(Effect::Abandoned);
        };
        run.now_ms = now_ms;
        let Some(call) = run.in_flight.take() else {
            return Ok(Effect::Abandoned);
        };
        let awaiting = std::mem::replace(&mut run.awaiting, Awaiting::Nothing);
        let range = matches!(awaiting, Awaiting::RangeLogs { .. });
        let raw = match rpc::result(&call, answer, range) {
            Ok(value) => value,
            Err(failure) => return self.failed(failure, &awaiting),
        };
        let outcome = match awaiting {
            Awaiting::Tip => match rpc::parse_number(&call, raw) {
                Ok(tip) => {
                    if let Some(run) = self.run.as_mut() {
                        run.tip = Some(tip);
                    }
                    return self.advance();
                }
                Err(failure) => Err(failure),
            },
            Awaiting::Header { number } => match rpc::parse_header(&call, raw) {
                Ok(header) => return self.on_header(number, header),
                Err(failure) => Err(failure),
            },
            Awaiting::TopCheck { number } => match rpc::parse_header(&call, raw) {
                Ok(header) => return self.on_top_check(number, header),
                Err(failure) => Err(failure),
            },
            Awaiting::BlockLogs { header } => match rpc::parse_logs(&call, raw, MAX_SOURCE_LOGS_PER_CALL) {
                Ok(logs) => return self.on_block_logs(&header, logs),
                Err(failure) => Err(failure),
            },
            Awaiting::Probe { number, search } => match rpc::parse_header(&call, raw) {
                Ok(header) => return self.on_probe(number, header, search),
                Err(failure) => Err(failure),
            },
            Awaiting::RangeLogs { from, to } => match rpc::parse_logs(&call, raw, MAX_SOURCE_LOGS_PER_CALL) {
                Ok(logs) => return self.on_range_logs(from, to, logs),
                Err(failure) => return self.failed(failure, &Awaiting::RangeLogs { from, to }),
            },
            Awaiting::RangeAnchor { to, logs } => match rpc::parse_header(&call, raw) {
                Ok(header) => return self.on_range_anchor(to, header, logs),
                Err(failure) => Err(failure),
            },
            Awaiting::Nothing | Awaiting::Append { .. } => return Ok(Effect::Abandoned),
        };
        match outcome {
            Err(failure) => self.failed(failure, &Awaiting::Nothing),
            Ok(()) => self.advance(),
        }
    }

    /// The answer to the run's append.
    pub fn on_append(&mut self, run_id: u64, answer: &AppendAnswer, now_ms: i64) -> Result<Effect, StorageError> {
        let Some(run) = self.run.as_mut().filter(|run| run.id == run_id) else {
            return Ok(Effect::Abandoned);
        };
        run.now_ms = now_ms;
        let Awaiting::Append { batch } = std::mem::replace(&mut run.awaiting, Awaiting::Nothing) else {
            return Ok(Effect::Abandoned);
        };
        let Some(keys) = run
            .pending
            .as_ref()
            .and_then(|pending| pending.batches.get(batch))
            .map(|sent| sent.keys.clone())
        else {
            return Ok(Effect::Abandoned);
        };
        let stream = self
            .row
            .as_ref()
            .map(|row| row.config.target_stream.clone())
            .unwrap_or_default();
        if let AppendAnswer::Response { status, body, .. } = answer {
            if super::lifetime::is_lifetime_changed(*status, body) {
                return self.target_recreated(&stream, None);
            }
        }
        let offsets = match append_offsets(&stream, answer, &keys) {
            Ok(offsets) => offsets,
            Err(finish) => return self.finish(finish),
        };
        // The lifetime the batch landed in (§15): the first one learned is
        // recorded with its offsets, in one write.
        let known = self.row.as_ref().and_then(|row| row.target_stream_id.clone());
        let landed = match answer {
            AppendAnswer::Response {
                stream_id: Some(stream_id),
                ..
            } => Some(stream_id.clone()),
            _ => None,
        };
        let learned = landed.clone().filter(|_| known.is_none());
        let Some(pending) = self.run.as_mut().and_then(|run| run.pending.as_mut()) else {
            return Ok(Effect::Abandoned);
        };
        if let Some(sent) = pending.batches.get_mut(batch) {
            sent.offsets = Some(offsets.clone());
        }
        let durable = pending.durable;
        if let (Some(row), Some(stream_id)) = (self.row.as_mut(), &learned) {
            row.target_stream_id = Some(stream_id.clone());
        }
        let storage = &self.storage;
        let row = self.row.as_ref().filter(|_| learned.is_some());
        storage.atomically(&mut || -> Result<(), StorageError> {
            if durable {
                store::save_batch_offsets(storage, batch, &offsets)?;
            }
            match row {
                Some(row) => store::save_state(storage, row),
                None => Ok(()),
            }
        })?;
        if let (Some(known), Some(landed)) = (known, landed) {
            if known != landed {
                // The append landed in another lifetime than the window's
                // (a shell that does not send the expectation): the batch
                // is in the new one; everything recorded before is not.
                return self.target_recreated(&stream, Some((batch, landed)));
            }
        }
        self.advance()
    }

    /// Decides the next effect from what is known; applies finished
    /// transitions on the way.
    fn advance(&mut self) -> Result<Effect, StorageError> {
        for _step in 0..MAX_STEPS {
            let Some(run) = self.run.as_mut() else {
                return Ok(Effect::Abandoned);
            };
            if let Some(pending) = &run.pending {
                if let Some(index) = pending.batches.iter().position(|batch| batch.offsets.is_none()) {
                    let Some(batch) = pending.batches.get(index) else {
                        return Ok(Effect::Abandoned);
                    };
                    let call = AppendCall {
                        stream: self
                            .row
                            .as_ref()
                            .map(|row| row.config.target_stream.clone())
                            .unwrap_or_default(),
                        body: batch.body.clone(),
                        events: batch.keys.len(),
                        expect_stream_id: self.row.as_ref().and_then(|row| row.target_stream_id.clone()),
                    };
                    run.awaiting = Awaiting::Append { batch: index };
                    return Ok(Effect::Append(call));
                }
                let pending = run.pending.take();
                if let Some(pending) = pending {
                    self.apply(pending)?;
                }
                continue;
            }
            let Some(tip) = run.tip else {
                return self.call(Awaiting::Tip, "eth_blockNumber", json!([]));
            };
            return self.decide(tip);
        }
        self.finish(Finish::Budget)
    }

    fn decide(&mut self, tip: u64) -> Result<Effect, StorageError> {
        let (Some(row), Some(run)) = (self.row.as_mut(), self.run.as_ref()) else {
            return Ok(Effect::Abandoned);
        };
        let confirmations = row.config.confirmations;
        let finality_depth = row.config.finality_depth;
        let range = row.range_blocks.clamp(1, MAX_SOURCE_LOG_RANGE_BLOCKS);
        let logs_left = run.logs_left;
        let next = match row.next_block {
            Some(next) => next,
            None => {
                // No startBlock: begin after the current confirmed head.
                let next = tip.saturating_sub(confirmations) + 1;
                row.next_block = Some(next);
                row.finalized_block = Some(next - 1);
                store::save_state(&self.storage, row)?;
                next
            }
        };
        let Some(target) = tip.checked_sub(confirmations) else {
            return self.finish(Finish::CaughtUp);
        };
        if next > target {
            // Caught up: re-read the window's top (or, when the node's head is
            // below it, the window block at the head), so a reorg at the same
            // height, or to a shorter chain, is seen before the next block.
            let top = match next.checked_sub(1) {
                Some(top) => store::window_block_at(&self.storage, top.min(target))?.map(|block| block.number),
                None => None,
            };
            return match top {
                Some(top) => self.call(
                    Awaiting::TopCheck { number: top },
                    "eth_getBlockByNumber",
                    json!([rpc::quantity(top), false]),
                ),
                None => self.finish(Finish::CaughtUp),
            };
        }
        if logs_left == 0 {
            return self.finish(Finish::Budget);
        }
        match tip.checked_sub(finality_depth) {
            Some(final_tip) if next <= final_tip && store::window_len(&self.storage)? == 0 => {
                let to = final_tip.min(target).min(next.saturating_add(range - 1));
                let params = self.logs_params(LogScope::Range { from: next, to });
                self.call(Awaiting::RangeLogs { from: next, to }, "eth_getLogs", params)
            }
            _ => self.call(
                Awaiting::Header { number: next },
                "eth_getBlockByNumber",
                json!([rpc::quantity(next), false]),
            ),
        }
    }

    fn logs_params(&self, scope: LogScope) -> Value {
        let filter = abi::request_filter(self.filters.as_deref().unwrap_or_default());
        rpc::logs_params(&filter, scope)
    }

    /// Spends one call of the run's budget, or ends the run (more is due now).
    fn call(&mut self, awaiting: Awaiting, method: &'static str, params: Value) -> Result<Effect, StorageError> {
        let (Some(row), Some(run)) = (self.row.as_ref(), self.run.as_mut()) else {
            return Ok(Effect::Abandoned);
        };
        if run.calls_left == 0 {
            return self.finish(Finish::Budget);
        }
        run.calls_left -= 1;
        let urls = &row.config.rpc_urls;
        let index = usize::try_from(row.url_index).unwrap_or(0) % urls.len().max(1);
        let url = urls.get(index).cloned().unwrap_or_default();
        let id = run.next_request_id;
        run.next_request_id += 1;
        let call = rpc::call(&url, index, id, method, params);
        run.in_flight = Some(call.clone());
        run.awaiting = awaiting;
        Ok(Effect::Call(call))
    }

    fn expected_parent(&self, number: u64) -> Result<(Option<String>, bool), StorageError> {
        let Some(below) = number.checked_sub(1) else {
            return Ok((None, false));
        };
        if let Some(block) = store::window_block_at(&self.storage, below)? {
            return Ok((Some(block.hash), true));
        }
        let row = self.row.as_ref();
        if row.and_then(|row| row.finalized_block) == Some(below) {
            return Ok((row.and_then(|row| row.anchor_hash.clone()), false));
        }
        Ok((None, false))
    }

    fn on_header(&mut self, number: u64, header: Option<Header>) -> Result<Effect, StorageError> {
        let Some(header) = header else {
            // The node does not have it yet (a lagging node behind a balancer).
            return self.finish(Finish::CaughtUp);
        };
        if header.number != number {
            return self.failed(
                RpcFailure::inconsistent(format!("asked for block {number}, got block {}", header.number)),
                &Awaiting::Nothing,
            );
        }
        let (expected, in_window) = self.expected_parent(number)?;
        match expected {
            Some(expected) if expected != abi::word_hex(&header.parent_hash) => {
                if in_window {
                    let lowest_dead = number - 1;
                    self.start_search(lowest_dead)
                } else {
                    // The floor itself was reorganised: a fork deeper than
                    // the (empty) window. Nothing to invalidate; counted.
                    self.conclude(SearchEnd::Deep)
                }
            }
            _ => {
                let params = self.logs_params(LogScope::Block(header.hash));
                self.call(Awaiting::BlockLogs { header }, "eth_getLogs", params)
            }
        }
    }

    fn on_top_check(&mut self, number: u64, header: Option<Header>) -> Result<Effect, StorageError> {
        let stored = store::window_block_at(&self.storage, number)?;
        match (header, stored) {
            (Some(header), Some(stored)) if header.number == number && abi::word_hex(&header.hash) != stored.hash => {
                self.start_search(number)
            }
            _ => self.finish(Finish::CaughtUp),
        }
    }

    fn start_search(&mut self, lowest_dead: u64) -> Result<Effect, StorageError> {
        if self.run.as_ref().is_some_and(|run| run.calls_left < SEARCH_CALLS) {
            return self.finish(Finish::Budget);
        }
        self.next_probe(Search {
            lowest_dead,
            highest_common: None,
            gap: 1,
        })
    }

    fn next_probe(&mut self, mut search: Search) -> Result<Effect, StorageError> {
        let (floor, anchor) = match &self.row {
            Some(row) => (row.finalized_block, row.anchor_hash.clone()),
            None => return Ok(Effect::Abandoned),
        };
        let lowest = floor.map_or(0, |floor| floor + 1);
        let probe = match search.highest_common {
            Some(common) if search.lowest_dead <= common + 1 => return self.conclude(SearchEnd::Ancestor(common)),
            Some(common) => common + (search.lowest_dead - common) / 2,
            None if search.lowest_dead <= lowest => match (floor, anchor) {
                (Some(floor), Some(_)) => floor,
                _ => return self.conclude(SearchEnd::Deep),
            },
            None => {
                let probe = search.lowest_dead.saturating_sub(search.gap).max(lowest);
                search.gap = search.gap.saturating_mul(2);
                probe
            }
        };
        self.call(
            Awaiting::Probe { number: probe, search },
            "eth_getBlockByNumber",
            json!([rpc::quantity(probe), false]),
        )
    }

    fn on_probe(&mut self, number: u64, header: Option<Header>, mut search: Search) -> Result<Effect, StorageError> {
        if let Some(header) = &header {
            if header.number != number {
                return self.failed(
                    RpcFailure::inconsistent(format!("asked for block {number}, got block {}", header.number)),
                    &Awaiting::Nothing,
                );
            }
        }
        let canonical = header.map(|header| abi::word_hex(&header.hash));
        let (floor, anchor) = match &self.row {
            Some(row) => (row.finalized_block, row.anchor_hash.clone()),
            None => return Ok(Effect::Abandoned),
        };
        if floor == Some(number) {
            return if canonical.is_some() && canonical == anchor {
                self.conclude(SearchEnd::Ancestor(number))
            } else {
                self.conclude(SearchEnd::Deep)
            };
        }
        let stored = store::window_block_at(&self.storage, number)?.map(|block| block.hash);
        if canonical.is_some() && canonical == stored {
            search.highest_common = Some(number);
        } else {
            search.lowest_dead = number;
        }
        self.next_probe(search)
    }

    /// The search ended: invalidate what died, then read on from the ancestor.
    fn conclude(&mut self, end: SearchEnd) -> Result<Effect, StorageError> {
        let Some(row) = self.row.clone() else {
            return Ok(Effect::Abandoned);
        };
        let (ancestor, deep) = match end {
            SearchEnd::Ancestor(number) => (Some(number), false),
            SearchEnd::Deep => (row.finalized_block, true),
        };
        let dead_blocks = store::window_above(&self.storage, ancestor)?;
        let mut offsets: Vec<u64> = dead_blocks
            .iter()
            .flat_map(|block| block.offsets.iter().copied())
            .collect();
        offsets.sort_unstable();
        offsets.dedup();
        let ancestor_hash = match ancestor {
            Some(number) if row.finalized_block == Some(number) => row.anchor_hash.clone(),
            Some(number) => store::window_block_at(&self.storage, number)?.map(|block| block.hash),
            None => None,
        };
        let dead_tip = dead_blocks.last().cloned();
        let deaths = match (&dead_tip, &self.run) {
            (Some(tip), Some(run)) => run.deaths.get(&tip.hash).copied().unwrap_or(0),
            _ => 0,
        };
        let ancestor_label = match (&ancestor_hash, ancestor) {
            (Some(hash), _) if !deep => hash.clone(),
            (_, Some(number)) => format!("deep-{number}"),
            (_, None) => "deep-genesis".to_owned(),
        };
        let tip_label = dead_tip
            .as_ref()
            .map_or_else(|| "none".to_owned(), |tip| tip.hash.clone());
        let metadata = json!({
            "source": row.name,
            "chainId": row.config.chain_id,
            "ancestor": ancestor.map(|number| json!({"number": number, "hash": ancestor_hash})),
            "deadTip": dead_tip.as_ref().map(|tip| json!({"number": tip.number, "hash": tip.hash})),
            "deep": deep,
        });
        let mut events = Vec::new();
        for (chunk_index, chunk) in offsets.chunks(MAX_INVALIDATED_OFFSETS).enumerate() {
            let key = format!(
                "evm:{}:{}:reorg:{ancestor_label}:{tip_label}:{deaths}:{chunk_index}",
                row.name, row.config.chain_id
            );
            let event = json!({
                "type": INVALIDATED_TYPE,
                "payload": {"offsets": chunk, "reason": "reorg"},
                "metadata": metadata,
                "idempotencyKey": key,
            })
            .to_string();
            events.push((key, event));
        }
        self.logs.push(json!({
            "event": if deep { "source_deep_reorg" } else { "source_reorg" },
            "source": row.name,
            "chainId": row.config.chain_id,
            "ancestor": ancestor,
            "deadTip": dead_tip.as_ref().map(|tip| tip.number),
            "deadBlocks": dead_blocks.len(),
            "invalidatedOffsets": offsets.len(),
        }));
        let transition = Transition::Invalidate {
            generation: row.generation,
            ancestor,
            deep,
            dead: dead_blocks
                .iter()
                .map(|block: &WindowBlock| (block.number, block.hash.clone()))
                .collect(),
            events: u64::try_from(events.len()).unwrap_or(u64::MAX),
        };
        self.stage(transition, events, true)?;
        self.advance()
    }

    fn on_block_logs(&mut self, header: &Header, logs: Vec<Log>) -> Result<Effect, StorageError> {
        if let Some(log) = logs
            .iter()
            .find(|log| log.block_hash != header.hash || log.block_number != header.number)
        {
            return self.failed(
                RpcFailure::inconsistent(format!(
                    "logs of block {} ({}) include one of block {} ({})",
                    header.number,
                    abi::word_hex(&header.hash),
                    log.block_number,
                    abi::word_hex(&log.block_hash)
                )),
                &Awaiting::Nothing,
            );
        }
        let Some(row) = &self.row else {
            return Ok(Effect::Abandoned);
        };
        let final_tip = self
            .run
            .as_ref()
            .and_then(|run| run.tip)
            .and_then(|tip| tip.checked_sub(row.config.finality_depth));
        let transition = Transition::Block {
            generation: row.generation,
            number: header.number,
            hash: abi::word_hex(&header.hash),
            parent_hash: abi::word_hex(&header.parent_hash),
            final_tip,
        };
        let events = self.log_events(&logs);
        self.stage(transition, events, true)?;
        self.advance()
    }

    fn on_range_logs(&mut self, from: u64, to: u64, logs: Vec<Log>) -> Result<Effect, StorageError> {
        let mut hashes: BTreeMap<u64, alloy_primitives::B256> = BTreeMap::new();
        for log in &logs {
            if log.block_number < from || log.block_number > to {
                return self.failed(
                    RpcFailure::inconsistent(format!(
                        "logs of blocks {from}..={to} include one of block {}",
                        log.block_number
                    )),
                    &Awaiting::Nothing,
                );
            }
            if *hashes.entry(log.block_number).or_insert(log.block_hash) != log.block_hash {
                return self.failed(
                    RpcFailure::inconsistent(format!("two hashes for block {} in one answer", log.block_number)),
                    &Awaiting::Nothing,
                );
            }
        }
        let grow = logs.len() < MAX_SOURCE_LOGS_PER_CALL / 4;
        if let Some(row) = self.row.as_mut() {
            let span = to - from + 1;
            if grow && span >= row.range_blocks && row.range_blocks < MAX_SOURCE_LOG_RANGE_BLOCKS {
                row.range_blocks = (row.range_blocks * 2).min(MAX_SOURCE_LOG_RANGE_BLOCKS);
            }
        }
        self.call(
            Awaiting::RangeAnchor { to, logs },
            "eth_getBlockByNumber",
            json!([rpc::quantity(to), false]),
        )
    }

    fn on_range_anchor(&mut self, to: u64, header: Option<Header>, logs: Vec<Log>) -> Result<Effect, StorageError> {
        let Some(header) = header.filter(|header| header.number == to) else {
            return self.failed(
                RpcFailure::inconsistent(format!("finalized block {to} is missing")),
                &Awaiting::Nothing,
            );
        };
        if logs
            .iter()
            .any(|log| log.block_number == to && log.block_hash != header.hash)
        {
            return self.failed(
                RpcFailure::inconsistent(format!("logs of block {to} carry another hash than the block")),
                &Awaiting::Nothing,
            );
        }
        let Some(row) = &self.row else {
            return Ok(Effect::Abandoned);
        };
        let from = row.next_block.unwrap_or(to);
        let transition = Transition::Range {
            generation: row.generation,
            from,
            to,
            to_hash: abi::word_hex(&header.hash),
        };
        let events = self.log_events(&logs);
        self.stage(transition, events, false)?;
        self.advance()
    }

    /// The `evm.log` events of the logs that match a filter, with their keys.
    fn log_events(&self, logs: &[Log]) -> Vec<(String, String)> {
        let (Some(row), Some(filters)) = (&self.row, &self.filters) else {
            return Vec::new();
        };
        let deaths = self.run.as_ref().map(|run| &run.deaths);
        let mut events = Vec::new();
        for log in logs {
            let Some((index, args)) = abi::decode(filters, log) else {
                continue;
            };
            let Some(filter) = filters.get(index) else {
                continue;
            };
            let block_hash = abi::word_hex(&log.block_hash);
            let mut key = format!(
                "evm:{}:{}:{block_hash}:{}",
                row.name, row.config.chain_id, log.log_index
            );
            // A block that died and came back: its first events are invalidated.
            if let Some(deaths) = deaths
                .and_then(|deaths| deaths.get(&block_hash))
                .filter(|deaths| **deaths > 0)
            {
                key.push_str(&format!(":{deaths}"));
            }
            let mut payload = json!({
                "chainId": row.config.chain_id,
                "address": log.address.to_checksum(None),
                "event": filter.event.name,
                "args": args,
                "topics": log.topics.iter().map(abi::word_hex).collect::<Vec<_>>(),
                "data": alloy_primitives::hex::encode_prefixed(&log.data),
                "blockNumber": log.block_number,
                "blockHash": block_hash,
                "transactionHash": abi::word_hex(&log.transaction_hash),
                "transactionIndex": log.transaction_index,
                "logIndex": log.log_index,
            });
            // An event stays under the event limit (§3): drop the decoded
            // args, then the raw data, rather than fail the source.
            for (field, flag) in [("args", "argsOmitted"), ("data", "dataOmitted")] {
                if payload.to_string().len() + 1024 <= MAX_EVENT_BYTES {
                    break;
                }
                if let Some(fields) = payload.as_object_mut() {
                    fields.insert(field.to_owned(), Value::Null);
                    fields.insert(flag.to_owned(), Value::Bool(true));
                }
            }
            // Serialized at once: a range's events never sit in memory as JSON trees.
            let event = json!({"type": EVM_LOG_TYPE, "payload": payload, "idempotencyKey": key}).to_string();
            events.push((key, event));
        }
        events
    }

    /// Sets up a transition and its appends (written ahead when `durable`
    /// and there is anything to append); with nothing to append it applies
    /// at once.
    fn stage(
        &mut self,
        transition: Transition,
        events: Vec<(String, String)>,
        durable: bool,
    ) -> Result<(), StorageError> {
        let appended = u64::try_from(events.len()).unwrap_or(u64::MAX);
        let batches = batches(events);
        let durable = durable && !batches.is_empty();
        if durable {
            let storage = &self.storage;
            storage.atomically(&mut || store::save_pending(storage, &transition, &batches))?;
        }
        let Some(run) = self.run.as_mut() else {
            return Ok(());
        };
        if matches!(transition, Transition::Block { .. } | Transition::Range { .. }) {
            run.logs_left = run.logs_left.saturating_sub(appended);
        }
        run.pending = Some(Pending {
            transition,
            batches,
            durable,
        });
        Ok(())
    }

    /// Moves the checkpoint past a transition whose appends all landed.
    fn apply(&mut self, pending: Pending) -> Result<(), StorageError> {
        let Some(mut row) = self.row.clone() else {
            return Ok(());
        };
        if pending.transition.generation() != row.generation {
            return store::clear_pending(&self.storage);
        }
        let offsets: Vec<u64> = pending
            .batches
            .iter()
            .flat_map(|batch| batch.offsets.iter().flatten().copied())
            .collect();
        let count = u64::try_from(offsets.len()).unwrap_or(u64::MAX);
        let storage = &self.storage;
        let mut died: Vec<String> = Vec::new();
        match &pending.transition {
            Transition::Block {
                number,
                hash,
                parent_hash,
                final_tip,
                ..
            } => {
                row.next_block = Some(number + 1);
                row.events_appended += count;
                let floor = final_tip.map(|final_tip| final_tip.min(*number));
                let raise = floor.filter(|floor| row.finalized_block.is_none_or(|current| *floor > current));
                if let Some(floor) = raise {
                    row.anchor_hash = if floor == *number {
                        Some(hash.clone())
                    } else {
                        store::window_block_at(storage, floor)?.map(|block| block.hash)
                    };
                    row.finalized_block = Some(floor);
                }
                storage.atomically(&mut || -> Result<(), StorageError> {
                    store::insert_block(
                        storage,
                        &WindowBlock {
                            number: *number,
                            hash: hash.clone(),
                            parent_hash: parent_hash.clone(),
                            offsets: offsets.clone(),
                        },
                    )?;
                    if let Some(floor) = raise {
                        store::prune_through(storage, floor)?;
                    }
                    store::clear_pending(storage)?;
                    store::save_state(storage, &row)
                })?;
            }
            Transition::Range { to, to_hash, .. } => {
                row.next_block = Some(to + 1);
                row.finalized_block = Some(*to);
                row.anchor_hash = Some(to_hash.clone());
                row.events_appended += count;
                storage.atomically(&mut || -> Result<(), StorageError> {
                    store::prune_through(storage, *to)?;
                    store::save_state(storage, &row)
                })?;
            }
            Transition::Invalidate {
                ancestor,
                deep,
                dead,
                events,
                ..
            } => {
                row.next_block = Some(ancestor.map_or(0, |number| number + 1));
                if *deep {
                    row.anchor_hash = None;
                    row.deep_reorgs += 1;
                }
                row.reorgs += 1;
                row.invalidations += events;
                storage.atomically(&mut || -> Result<(), StorageError> {
                    store::delete_window_above(storage, *ancestor)?;
                    for (number, hash) in dead {
                        store::record_death(storage, *number, hash)?;
                    }
                    store::clear_pending(storage)?;
                    store::save_state(storage, &row)
                })?;
                died = dead.iter().map(|(_, hash)| hash.clone()).collect();
            }
        }
        if let Some(run) = self.run.as_mut() {
            for hash in died {
                *run.deaths.entry(hash).or_insert(0) += 1;
            }
        }
        self.row = Some(row);
        Ok(())
    }

    /// The target has a new lifetime (§15, §3 rule 6): the offsets the
    /// window and the pending batches recorded name events that are gone.
    /// They are forgotten (the blocks stay, so reorgs are still seen); a
    /// pending invalidation is dropped (its offsets are of the old
    /// lifetime: nothing of the new one is invalidated); pending logs go
    /// again, into the new lifetime. `landed` is a batch that already
    /// landed in the new lifetime `(index, streamId)`, if one did; without
    /// it the next append learns the lifetime.
    fn target_recreated(&mut self, stream: &str, landed: Option<(usize, String)>) -> Result<Effect, StorageError> {
        let Some(mut row) = self.row.clone() else {
            return Ok(Effect::Abandoned);
        };
        row.target_stream_id = landed.as_ref().map(|(_, stream_id)| stream_id.clone());
        let pending = self.run.as_mut().and_then(|run| run.pending.as_mut());
        let mut dropped_invalidation = false;
        let mut durable = false;
        if let Some(pending) = pending {
            durable = pending.durable;
            dropped_invalidation = matches!(pending.transition, Transition::Invalidate { .. }) && landed.is_none();
            if let Transition::Invalidate { events, .. } = &mut pending.transition {
                if dropped_invalidation {
                    *events = 0;
                }
            }
            for (index, batch) in pending.batches.iter_mut().enumerate() {
                if landed.as_ref().is_some_and(|(landed, _)| *landed == index) {
                    continue;
                }
                batch.offsets = if dropped_invalidation { Some(Vec::new()) } else { None };
            }
        }
        let offsets_now: Vec<(usize, Vec<u64>)> = self
            .run
            .as_ref()
            .and_then(|run| run.pending.as_ref())
            .map(|pending| {
                pending
                    .batches
                    .iter()
                    .enumerate()
                    .filter_map(|(index, batch)| batch.offsets.clone().map(|offsets| (index, offsets)))
                    .collect()
            })
            .unwrap_or_default();
        let storage = &self.storage;
        storage.atomically(&mut || -> Result<(), StorageError> {
            store::clear_window_offsets(storage)?;
            if durable {
                store::clear_batch_offsets(storage)?;
                for (index, offsets) in &offsets_now {
                    store::save_batch_offsets(storage, *index, offsets)?;
                }
            }
            store::save_state(storage, &row)
        })?;
        self.logs.push(json!({
            "event": "source_target_recreated",
            "source": row.name,
            "targetStream": stream,
            "streamId": row.target_stream_id,
            "droppedInvalidation": dropped_invalidation,
        }));
        self.row = Some(row);
        self.advance()
    }

    /// A failed call: a refused range halves and goes on; anything else ends the run.
    fn failed(&mut self, failure: RpcFailure, awaiting: &Awaiting) -> Result<Effect, StorageError> {
        match failure {
            RpcFailure::RangeRefused(reason) => {
                if let (Awaiting::RangeLogs { from, to }, Some(row)) = (awaiting, self.row.as_mut()) {
                    if to > from {
                        row.range_blocks = (to - from).div_ceil(2).max(1);
                        return self.advance();
                    }
                }
                self.finish(Finish::Transient {
                    reason,
                    retry_after_ms: None,
                })
            }
            RpcFailure::Transient { reason, retry_after_ms } => {
                self.finish(Finish::Transient { reason, retry_after_ms })
            }
            RpcFailure::Permanent(reason) => self.finish(Finish::Permanent(reason)),
        }
    }

    /// Ends the run and says when the next one is due.
    fn finish(&mut self, finish: Finish) -> Result<Effect, StorageError> {
        let Some(run) = self.run.take() else {
            return Ok(Effect::Abandoned);
        };
        let Some(mut row) = self.row.clone() else {
            return Ok(Effect::Stop);
        };
        let now = run.now_ms;
        let effect = match finish {
            Finish::CaughtUp | Finish::Budget => {
                row.attempt = 0;
                row.last_error = None;
                let delay = if finish == Finish::CaughtUp {
                    i64::try_from(row.config.poll_ms).unwrap_or(i64::MAX)
                } else {
                    0
                };
                row.next_run_at_ms = now.saturating_add(delay);
                Effect::Sleep {
                    at_ms: row.next_run_at_ms,
                }
            }
            Finish::Transient { reason, retry_after_ms } => {
                row.attempt += 1;
                let retry_after = retry_after_ms
                    .map(|ms| i64::try_from(ms.min(SOURCE_BACKOFF_MAX_MS)).unwrap_or(0))
                    .unwrap_or(0);
                let delay = backoff_ms(row.attempt, run.entropy).max(retry_after);
                let urls = u64::try_from(row.config.rpc_urls.len()).unwrap_or(1).max(1);
                row.url_index = (row.url_index + 1) % urls;
                row.last_error = Some(error_text(&reason));
                row.next_run_at_ms = now.saturating_add(delay);
                self.logs.push(json!({
                    "event": "source_retry",
                    "source": row.name,
                    "attempt": row.attempt,
                    "delayMs": delay,
                    "error": row.last_error,
                }));
                Effect::Sleep {
                    at_ms: row.next_run_at_ms,
                }
            }
            Finish::Permanent(reason) => {
                row.status = Status::Failed;
                row.last_error = Some(error_text(&reason));
                self.logs.push(json!({
                    "event": "source_failed",
                    "source": row.name,
                    "error": row.last_error,
                }));
                Effect::Stop
            }
        };
        row.updated_at_ms = now;
        store::save_state(&self.storage, &row)?;
        self.row = Some(row);
        Ok(effect)
    }
}

/// The offsets an append answer gives the batch's events (checked against
/// the keys sent, in order), or how the run ends: 429 and 5xx are
/// transient, other refusals permanent (an `idempotency_key_reused` means
/// the stream holds other events under the source's keys).
fn append_offsets(stream: &str, answer: &AppendAnswer, keys: &[String]) -> Result<Vec<u64>, Finish> {
    let (status, body) = match answer {
        AppendAnswer::Failed(error) => {
            return Err(Finish::Transient {
                reason: error_text(&format!("append to {stream} failed: {error}")),
                retry_after_ms: None,
            })
        }
        AppendAnswer::Response { status, body, .. } => (*status, body),
    };
    if !(200..300).contains(&status) {
        let message = serde_json::from_slice::<Value>(body)
            .ok()
            .and_then(|error| {
                let code = error.pointer("/error/code")?.as_str()?.to_owned();
                let message = error.pointer("/error/message")?.as_str()?.to_owned();
                Some(format!("{code}: {message}"))
            })
            .unwrap_or_else(|| crate::text::excerpt(&String::from_utf8_lossy(body)));
        let reason = error_text(&format!("append to {stream} answered {status}: {message}"));
        return Err(if status == 429 || status >= 500 {
            Finish::Transient {
                reason,
                retry_after_ms: None,
            }
        } else {
            Finish::Permanent(reason)
        });
    }
    let events = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|answer| answer.get("events").and_then(Value::as_array).cloned())
        .unwrap_or_default();
    let matches = events.len() == keys.len()
        && events
            .iter()
            .zip(keys)
            .all(|(event, key)| event.get("idempotencyKey").and_then(Value::as_str) == Some(key.as_str()));
    let offsets: Option<Vec<u64>> = events
        .iter()
        .map(|event| event.get("offset").and_then(Value::as_u64))
        .collect();
    match (matches, offsets) {
        (true, Some(offsets)) => Ok(offsets),
        _ => Err(Finish::Transient {
            reason: format!("append to {stream}: the answer does not list the batch's events"),
            retry_after_ms: None,
        }),
    }
}

/// Append bodies of at most [`MAX_SOURCE_APPEND_EVENTS`] events and
/// [`MAX_SOURCE_APPEND_BYTES`] each, in order.
fn batches(events: Vec<(String, String)>) -> Vec<Batch> {
    let mut batches = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    let mut bytes = 0usize;
    let flush = |current: &mut Vec<String>, keys: &mut Vec<String>, batches: &mut Vec<Batch>| {
        if !current.is_empty() {
            batches.push(Batch {
                body: format!("{{\"events\":[{}]}}", current.join(",")),
                keys: std::mem::take(keys),
                offsets: None,
            });
            current.clear();
        }
    };
    for (key, text) in events {
        if current.len() >= MAX_SOURCE_APPEND_EVENTS || bytes + text.len() + 16 > MAX_SOURCE_APPEND_BYTES {
            flush(&mut current, &mut keys, &mut batches);
            bytes = 0;
        }
        bytes += text.len() + 1;
        current.push(text);
        keys.push(key);
    }
    flush(&mut current, &mut keys, &mut batches);
    batches
}
