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
//!
//! This module holds the machine itself: its [`Effect`]s, the run and what
//! it awaits, and the conversation's entry points. The parts live beside it
//! (all §15): `reading` (what to read next, the logs read), `ancestor`
//! (reorg detection and the ancestor search), `payload` (the events
//! appended), `answers` (checking append and RPC answers), `batching`
//! (pending work and the checkpoint) and `status` (configure, delete, the
//! status view).

use super::abi::CompiledFilter;
use super::ancestor::Search;
use super::answers;
use super::batching::Pending;
use super::pacing;
use super::rpc::{self, Header, RpcAnswer, RpcCall, RpcFailure};
use super::store::{self, SourceRow};
use crate::limits::{
    MAX_SOURCE_LOGS_PER_CALL, MAX_SOURCE_LOGS_PER_RUN, MAX_SOURCE_RPC_CALLS_PER_RUN, MAX_SOURCE_STEPS_PER_CALL,
};
use crate::schema::{migrate_with, SOURCE_MIGRATIONS};
use crate::storage::{Storage, StorageError};
use crate::Inputs;
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub use super::pacing::backoff_ms;
pub use super::payload::{EVM_LOG_TYPE, INVALIDATED_TYPE};

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
pub(super) enum Finish {
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

/// What the run's call in flight (or append) was for.
#[derive(Debug, Clone)]
pub(super) enum Awaiting {
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
        logs: Vec<super::abi::Log>,
    },
    Append {
        batch: usize,
    },
}

/// One alarm run: its budgets (§12) and where the conversation stands.
#[derive(Debug, Clone)]
pub(super) struct Run {
    pub id: u64,
    pub now_ms: i64,
    pub entropy: [u8; 16],
    pub calls_left: u32,
    pub logs_left: u64,
    pub tip: Option<u64>,
    pub next_request_id: u64,
    pub in_flight: Option<RpcCall>,
    pub awaiting: Awaiting,
    pub pending: Option<Pending>,
    /// Invalidation counts of dead block hashes (keys of revived blocks).
    pub deaths: BTreeMap<String, u64>,
}

/// One source over its own storage.
pub struct Source<S: Storage> {
    pub(super) storage: S,
    pub(super) row: Option<SourceRow>,
    /// The compiled filters of `row.config`.
    pub(super) filters: Option<Vec<CompiledFilter>>,
    pub(super) run: Option<Run>,
    runs_started: u64,
    /// Structured log lines for the shell to print (§11).
    pub(super) logs: Vec<Value>,
}

/// The lifetime an append answer says it committed to, if it says.
fn landed_stream_id(answer: &AppendAnswer) -> Option<String> {
    match answer {
        AppendAnswer::Response {
            stream_id: Some(stream_id),
            ..
        } => Some(stream_id.clone()),
        _ => None,
    }
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

    /// Starts an alarm run.
    pub fn begin_run(&mut self, inputs: &Inputs) -> Result<Effect, StorageError> {
        self.run = None;
        let Some(row) = &self.row else {
            return Ok(Effect::Stop);
        };
        if let Some(effect) = pacing::not_due(row.status, row.next_run_at_ms, inputs.now_ms) {
            return Ok(effect);
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
        self.resume_pending(generation)?;
        self.advance()
    }

    /// Picks up the work a crashed run wrote ahead, if it is of this
    /// generation (else it is stale and dropped).
    fn resume_pending(&mut self, generation: u64) -> Result<(), StorageError> {
        match store::load_pending(&self.storage)? {
            Some((transition, batches)) if transition.generation() == generation => {
                if let Some(run) = self.run.as_mut() {
                    run.pending = Some(Pending {
                        transition,
                        batches,
                        durable: true,
                    });
                }
                Ok(())
            }
            Some(_) => store::clear_pending(&self.storage),
            None => Ok(()),
        }
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
        match rpc::result(&call, answer, range) {
            Ok(raw) => self.on_result(&call, raw, awaiting),
            Err(failure) => self.failed(failure, &awaiting),
        }
    }

    /// A call's `result`, parsed as what it was awaited for and handed on;
    /// an answer that does not parse ends the run as its failure says.
    fn on_result(
        &mut self,
        call: &RpcCall,
        raw: &serde_json::value::RawValue,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        let failure = match awaiting {
            Awaiting::Tip => match rpc::parse_number(call, raw) {
                Ok(tip) => {
                    if let Some(run) = self.run.as_mut() {
                        run.tip = Some(tip);
                    }
                    return self.advance();
                }
                Err(failure) => failure,
            },
            Awaiting::Header { number } => match rpc::parse_header(call, raw) {
                Ok(header) => return self.on_header(number, header),
                Err(failure) => failure,
            },
            Awaiting::TopCheck { number } => match rpc::parse_header(call, raw) {
                Ok(header) => return self.on_top_check(number, header),
                Err(failure) => failure,
            },
            Awaiting::BlockLogs { header } => match rpc::parse_logs(call, raw, MAX_SOURCE_LOGS_PER_CALL) {
                Ok(logs) => return self.on_block_logs(&header, logs),
                Err(failure) => failure,
            },
            Awaiting::Probe { number, search } => match rpc::parse_header(call, raw) {
                Ok(header) => return self.on_probe(number, header, search),
                Err(failure) => failure,
            },
            Awaiting::RangeLogs { from, to } => match rpc::parse_logs(call, raw, MAX_SOURCE_LOGS_PER_CALL) {
                Ok(logs) => return self.on_range_logs(from, to, logs),
                Err(failure) => return self.failed(failure, &Awaiting::RangeLogs { from, to }),
            },
            Awaiting::RangeAnchor { to, logs } => match rpc::parse_header(call, raw) {
                Ok(header) => return self.on_range_anchor(to, header, logs),
                Err(failure) => failure,
            },
            Awaiting::Nothing | Awaiting::Append { .. } => return Ok(Effect::Abandoned),
        };
        self.failed(failure, &Awaiting::Nothing)
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
        let stream = self.target_stream();
        if let AppendAnswer::Response { status, body, .. } = answer {
            if super::lifetime::is_lifetime_changed(*status, body) {
                return self.target_recreated(&stream, None);
            }
        }
        let offsets = match answers::append_offsets(&stream, answer, &keys) {
            Ok(offsets) => offsets,
            Err(finish) => return self.finish(finish),
        };
        let known = self.row.as_ref().and_then(|row| row.target_stream_id.clone());
        let landed = landed_stream_id(answer);
        if !self.record_landed(batch, offsets, landed.clone().filter(|_| known.is_none()))? {
            return Ok(Effect::Abandoned);
        }
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

    /// Records the offsets batch `batch` landed at, and the lifetime it
    /// landed in when it is the first one `learned` (§15), in one write.
    /// False when no work is pending (the run moved on).
    fn record_landed(
        &mut self,
        batch: usize,
        offsets: Vec<u64>,
        learned: Option<String>,
    ) -> Result<bool, StorageError> {
        let Some(pending) = self.run.as_mut().and_then(|run| run.pending.as_mut()) else {
            return Ok(false);
        };
        let durable = pending.durable;
        if let Some(sent) = pending.batches.get_mut(batch) {
            sent.offsets = Some(offsets.clone());
        }
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
        Ok(true)
    }

    /// The configured target stream's path.
    fn target_stream(&self) -> String {
        self.row
            .as_ref()
            .map(|row| row.config.target_stream.clone())
            .unwrap_or_default()
    }

    /// Decides the next effect from what is known; applies finished
    /// transitions on the way.
    pub(super) fn advance(&mut self) -> Result<Effect, StorageError> {
        for _step in 0..MAX_SOURCE_STEPS_PER_CALL {
            let stream = self.target_stream();
            let expect_stream_id = self.row.as_ref().and_then(|row| row.target_stream_id.clone());
            let Some(run) = self.run.as_mut() else {
                return Ok(Effect::Abandoned);
            };
            if let Some(pending) = &run.pending {
                if let Some(index) = pending.batches.iter().position(|batch| batch.offsets.is_none()) {
                    let Some(batch) = pending.batches.get(index) else {
                        return Ok(Effect::Abandoned);
                    };
                    let call = AppendCall {
                        stream,
                        body: batch.body.clone(),
                        events: batch.keys.len(),
                        expect_stream_id,
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

    /// Spends one call of the run's budget, or ends the run (more is due now).
    pub(super) fn call(
        &mut self,
        awaiting: Awaiting,
        method: &'static str,
        params: Value,
    ) -> Result<Effect, StorageError> {
        let (Some(row), Some(run)) = (self.row.as_ref(), self.run.as_mut()) else {
            return Ok(Effect::Abandoned);
        };
        if run.calls_left == 0 {
            return self.finish(Finish::Budget);
        }
        run.calls_left -= 1;
        let (index, url) = pacing::current_url(&row.config.rpc_urls, row.url_index);
        let id = run.next_request_id;
        run.next_request_id += 1;
        let call = rpc::call(&url, index, id, method, params);
        run.in_flight = Some(call.clone());
        run.awaiting = awaiting;
        Ok(Effect::Call(call))
    }

    /// A failed call: a refused range halves and goes on; anything else ends the run.
    pub(super) fn failed(&mut self, failure: RpcFailure, awaiting: &Awaiting) -> Result<Effect, StorageError> {
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
    pub(super) fn finish(&mut self, finish: Finish) -> Result<Effect, StorageError> {
        let Some(run) = self.run.take() else {
            return Ok(Effect::Abandoned);
        };
        let Some(mut row) = self.row.clone() else {
            return Ok(Effect::Stop);
        };
        let now = run.now_ms;
        let (effect, log) = match finish {
            Finish::CaughtUp => (pacing::finish_ok(row.health(), now, true), None),
            Finish::Budget => (pacing::finish_ok(row.health(), now, false), None),
            Finish::Transient { reason, retry_after_ms } => {
                pacing::finish_transient(row.health(), now, run.entropy, &reason, retry_after_ms)
            }
            Finish::Permanent(reason) => pacing::finish_permanent(row.health(), &reason),
        };
        self.logs.extend(log);
        row.updated_at_ms = now;
        store::save_state(&self.storage, &row)?;
        self.row = Some(row);
        Ok(effect)
    }
}
