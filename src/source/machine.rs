//! The EVM source as a state machine (docs/design.md §1, §15). One alarm run is
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
//! The run itself is the skeleton every kind shares (`run.rs`); this module
//! holds the chain kind's part of it: what a call in flight awaits, the
//! run's own state, and the steps that dispatch answers. The parts live
//! beside it (all §15) and extend [`Source`]: `reading` (what to read next,
//! the logs read), `ancestor` (reorg detection and the search, `search`),
//! `payload` (the events appended), `answers` (checking append and RPC
//! answers), `batching` (pending work and the checkpoint), `status` (the
//! rows a PUT writes, the status view) and `chain` (the kind as the
//! skeleton sees it).

use super::abi::Log;
use super::answers;
use super::effect::{landed_stream_id, AppendAnswer, AppendCall, Effect, Finish};
use super::rpc::{self, Header, RpcCall, RpcFailure};
use super::run::Machine;
use super::search::Search;
use super::store::{self, Pending};
use crate::limits::{MAX_SOURCE_LOGS_PER_CALL, MAX_SOURCE_LOGS_PER_RUN, MAX_SOURCE_STEPS_PER_CALL};
use crate::storage::{Storage, StorageError};
use serde_json::json;
use serde_json::value::RawValue;
use std::collections::BTreeMap;

pub use super::pacing::backoff_ms;
pub use super::payload::{EVM_LOG_TYPE, INVALIDATED_TYPE};

/// The chain source (`kind: "evm"`) as a kind of the run skeleton; its
/// [`super::run::Kind`] is in `chain.rs`.
#[derive(Debug, Clone, Copy)]
pub struct Chain;

/// The chain source over its own storage.
pub type Source<S> = Machine<Chain, S>;

/// What the run's call in flight (or append) was for.
#[derive(Debug, Clone, Default)]
pub enum Awaiting {
    #[default]
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

/// The chain kind's part of one alarm run (§12): its log budget, the tip
/// it learned, the work staged, and the blocks reorgs killed.
#[derive(Debug, Clone)]
pub struct ChainRun {
    pub logs_left: u64,
    pub tip: Option<u64>,
    pub pending: Option<Pending>,
    /// Invalidation counts of dead block hashes (keys of revived blocks).
    pub deaths: BTreeMap<String, u64>,
}

impl ChainRun {
    /// A run's start: the whole log budget, the deaths recorded so far.
    pub(super) fn load<S: Storage + ?Sized>(storage: &S) -> Result<Self, StorageError> {
        Ok(ChainRun {
            logs_left: MAX_SOURCE_LOGS_PER_RUN,
            tip: None,
            pending: None,
            deaths: store::load_deaths(storage)?,
        })
    }
}

impl<S: Storage> Source<S> {
    /// Picks up the work a crashed run wrote ahead, if it is of this
    /// generation (else it is stale and dropped).
    pub(super) fn resume_pending(&mut self) -> Result<(), StorageError> {
        let Some(generation) = self.row.as_ref().map(|row| row.generation) else {
            return Ok(());
        };
        match store::load_pending(&self.storage)? {
            Some((transition, batches)) if transition.generation() == generation => {
                if let Some(run) = self.run.as_mut() {
                    run.kind.pending = Some(Pending {
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

    /// A call's `result`, parsed as what it was awaited for and handed on;
    /// an answer that does not parse ends the run as its failure says.
    pub(super) fn on_chain_result(
        &mut self,
        call: &RpcCall,
        raw: &RawValue,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        let failure = match awaiting {
            Awaiting::Tip => match rpc::parse_number(call, raw) {
                Ok(tip) => {
                    if let Some(run) = self.run.as_mut() {
                        run.kind.tip = Some(tip);
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
                Err(failure) => return self.on_chain_failure(failure, &Awaiting::RangeLogs { from, to }),
            },
            Awaiting::RangeAnchor { to, logs } => match rpc::parse_header(call, raw) {
                Ok(header) => return self.on_range_anchor(to, header, logs),
                Err(failure) => failure,
            },
            Awaiting::Nothing | Awaiting::Append { .. } => return Ok(Effect::Abandoned),
        };
        self.failed(failure)
    }

    /// A failed call: a refused range halves and goes on; anything else
    /// ends the run.
    pub(super) fn on_chain_failure(
        &mut self,
        failure: RpcFailure,
        awaiting: &Awaiting,
    ) -> Result<Effect, StorageError> {
        if let (RpcFailure::RangeRefused(_), Awaiting::RangeLogs { from, to }, Some(row)) =
            (&failure, awaiting, self.row.as_mut())
        {
            if to > from {
                row.range_blocks = (to - from).div_ceil(2).max(1);
                return self.advance();
            }
        }
        self.failed(failure)
    }

    /// The answer to the run's append of batch `batch`.
    pub(super) fn on_chain_append(
        &mut self,
        answer: &AppendAnswer,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        let Awaiting::Append { batch } = awaiting else {
            return Ok(Effect::Abandoned);
        };
        let Some(keys) = self
            .run
            .as_ref()
            .and_then(|run| run.kind.pending.as_ref())
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
        let Some(pending) = self.run.as_mut().and_then(|run| run.kind.pending.as_mut()) else {
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
    pub(super) fn next_chain_effect(&mut self) -> Result<Effect, StorageError> {
        for _step in 0..MAX_SOURCE_STEPS_PER_CALL {
            let stream = self.target_stream();
            let expect_stream_id = self.row.as_ref().and_then(|row| row.target_stream_id.clone());
            let Some(run) = self.run.as_mut() else {
                return Ok(Effect::Abandoned);
            };
            if let Some(pending) = &run.kind.pending {
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
                let pending = run.kind.pending.take();
                if let Some(pending) = pending {
                    self.apply(pending)?;
                }
                continue;
            }
            let Some(tip) = run.kind.tip else {
                return self.call(Awaiting::Tip, "eth_blockNumber", json!([]));
            };
            return self.decide(tip);
        }
        self.finish(Finish::Budget)
    }
}
