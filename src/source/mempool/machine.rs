//! The mempool source as a state machine (docs/design.md §1, §15.1), on the run
//! skeleton every kind shares (`source::run`): `begin_run` answers the
//! first [`Effect`], the shell performs it and feeds the outcome back
//! through `on_rpc` or `on_append`, until a `Sleep` or `Stop`. This module
//! holds what is the mempool's own: what a call awaits, the run's state,
//! and its steps; `kind.rs` wires them into the skeleton. The engine never
//! waits, reads a clock or draws randomness.
//!
//! One run: poll the node's pending-transaction filter
//! (`eth_getFilterChanges`; `eth_newPendingTransactionFilter` first, and
//! again whenever the node forgot it or the run uses another URL), queue
//! the new hashes (`mempool_queue`, with when they were first seen), fetch
//! queued hashes one by one (`eth_getTransactionByHash`), keep each match's
//! event with its hash, and append the matches in batches. Every answer is
//! written before the next effect, so a crash repeats only what is still
//! queued, and the idempotency keys (§15.1) collapse what it repeats. The
//! run's calls are the sources' budget (§12); failures back off and rotate
//! URLs as the chain source's do (`source::pacing`).

use super::answers;
use super::calldata;
use super::payload;
use super::store::{self, Queued};
use crate::limits::{MAX_MEMPOOL_QUEUE, MAX_SOURCE_APPEND_BYTES, MEMPOOL_APPEND_EVENTS};
use crate::source::effect::{AppendAnswer, AppendCall, Effect, Finish};
use crate::source::rpc::{RpcCall, RpcFailure};
use crate::source::run::Machine;
use crate::source::{answers as append_answers, batching};
use crate::storage::{Storage, StorageError};
use serde_json::value::RawValue;
use serde_json::{json, Value};

/// The mempool source (`kind: "evm-mempool"`) as a kind of the run
/// skeleton; its [`crate::source::run::Kind`] is in `kind.rs`.
#[derive(Debug, Clone, Copy)]
pub struct Watch;

/// One mempool source over its own storage.
pub type Mempool<S> = Machine<Watch, S>;

/// What the run's call in flight (or append) was for.
#[derive(Debug, Clone, Default)]
pub enum Awaiting {
    #[default]
    Nothing,
    NewFilter,
    Changes,
    Transaction(Queued),
    /// An append of the events of these queued hashes, under these keys.
    Append {
        hashes: Vec<String>,
        keys: Vec<String>,
    },
}

/// The mempool kind's part of one alarm run.
#[derive(Debug, Clone, Default)]
pub struct WatchRun {
    /// The filter was polled (or made) in this run.
    pub polled: bool,
}

impl<S: Storage> Mempool<S> {
    /// A failed call: a node that forgot the filter gets a new one; anything
    /// else ends the run.
    pub(super) fn on_watch_failure(
        &mut self,
        failure: RpcFailure,
        awaiting: &Awaiting,
    ) -> Result<Effect, StorageError> {
        if matches!(awaiting, Awaiting::Changes) && answers::forgot_filter(&failure) {
            return self.filter_forgotten(&failure);
        }
        self.failed(failure)
    }

    /// A call's `result`, parsed as what it was awaited for and handed on.
    pub(super) fn on_watch_result(
        &mut self,
        call: &RpcCall,
        raw: &RawValue,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        let handled = match awaiting {
            Awaiting::NewFilter => answers::filter_id(call, raw).map(|id| self.watching(id)),
            Awaiting::Changes => answers::hashes(call, raw).map(|hashes| self.queue(&hashes)),
            Awaiting::Transaction(queued) => {
                answers::transaction(call, raw, &queued.hash).map(|tx| self.fetched(&queued, tx))
            }
            Awaiting::Nothing | Awaiting::Append { .. } => return Ok(Effect::Abandoned),
        };
        match handled {
            Ok(written) => {
                written?;
                self.advance()
            }
            Err(failure) => self.failed(failure),
        }
    }

    /// A new filter: the source watches from now (§15.1).
    fn watching(&mut self, filter_id: String) -> Result<(), StorageError> {
        let (Some(row), Some(run)) = (self.row.as_mut(), self.run.as_mut()) else {
            return Ok(());
        };
        run.kind.polled = true;
        row.filter_id = Some(filter_id);
        row.filter_url_index = Some(row.url_index);
        row.watching_since_ms = Some(run.now_ms);
        row.last_poll_at_ms = Some(run.now_ms);
        self.logs.push(json!({
            "event": "mempool_watching",
            "source": row.name,
            "urlIndex": row.url_index,
        }));
        store::save_state(&self.storage, row)
    }

    /// The node forgot the filter: the next call makes a new one, and the
    /// source watches from then (what was pending meanwhile is not replayed).
    fn filter_forgotten(&mut self, failure: &RpcFailure) -> Result<Effect, StorageError> {
        if let Some(row) = self.row.as_mut() {
            row.filter_id = None;
            row.filter_url_index = None;
            row.filter_resets += 1;
            self.logs.push(json!({
                "event": "mempool_filter_reset",
                "source": row.name,
                "error": append_answers::error_text(&failure.to_string()),
            }));
            store::save_state(&self.storage, row)?;
        }
        self.advance()
    }

    /// Queues the hashes a poll announced, first seen now, in one write; past
    /// the queue's bound they are dropped, counted and logged.
    fn queue(&mut self, hashes: &[String]) -> Result<(), StorageError> {
        let (Some(row), Some(run)) = (self.row.as_mut(), self.run.as_mut()) else {
            return Ok(());
        };
        run.kind.polled = true;
        let now = run.now_ms;
        let storage = &self.storage;
        let mut room = MAX_MEMPOOL_QUEUE.saturating_sub(store::queue_len(storage)?);
        let (mut queued, mut dropped) = (0u64, 0u64);
        storage.atomically(&mut || -> Result<(), StorageError> {
            (queued, dropped) = (0, 0);
            for (position, hash) in hashes.iter().enumerate() {
                if room == 0 {
                    dropped = u64::try_from(hashes.len() - position).unwrap_or(u64::MAX);
                    break;
                }
                if store::enqueue(storage, hash, now)? {
                    queued += 1;
                    room -= 1;
                }
            }
            row.txs_seen += queued;
            row.txs_dropped += dropped;
            row.last_poll_at_ms = Some(now);
            store::save_state(storage, row)
        })?;
        if dropped > 0 {
            self.logs.push(json!({
                "event": "mempool_queue_full",
                "source": row.name,
                "dropped": dropped,
                "limit": MAX_MEMPOOL_QUEUE,
            }));
        }
        Ok(())
    }

    /// A fetched transaction: a match keeps its event with its hash; one
    /// that does not match, or that the node no longer has, is handled.
    fn fetched(&mut self, queued: &Queued, tx: Option<calldata::PendingTx>) -> Result<(), StorageError> {
        let (Some(row), Some(filters)) = (self.row.as_mut(), self.filters.as_ref()) else {
            return Ok(());
        };
        let storage = &self.storage;
        let Some(tx) = tx else {
            row.txs_vanished += 1;
            return storage.atomically(&mut || -> Result<(), StorageError> {
                store::settle(storage, &queued.hash)?;
                store::save_state(storage, row)
            });
        };
        match calldata::match_tx(filters, &tx) {
            Some(call) => {
                let (_, event) =
                    payload::pending_tx_event(&row.name, row.config.chain_id, &tx, call, queued.seen_at_ms);
                store::set_event(storage, &queued.hash, &event)
            }
            None => store::settle(storage, &queued.hash),
        }
    }
}

/// The key an append was refused for because an event of different content
/// already holds it (409 `idempotency_key_reused`, §3 rule 4), when it is one
/// of `keys`: the transaction was appended before, first seen at another
/// time by a source that had since forgotten its hash.
fn reused_key<'a>(answer: &AppendAnswer, keys: &'a [String]) -> Option<&'a String> {
    let AppendAnswer::Response { status: 409, body, .. } = answer else {
        return None;
    };
    let error: Value = serde_json::from_slice(body).ok()?;
    if error.pointer("/error/code").and_then(Value::as_str) != Some("idempotency_key_reused") {
        return None;
    }
    let key = error.pointer("/error/details/idempotencyKey").and_then(Value::as_str)?;
    keys.iter().find(|candidate| candidate.as_str() == key)
}

impl<S: Storage> Mempool<S> {
    /// Decides the next effect: poll once a run, then append what is ready
    /// when a batch is full, nothing is left to fetch or no call is left;
    /// else fetch the next queued hash.
    pub(super) fn next_watch_effect(&mut self) -> Result<Effect, StorageError> {
        let (Some(row), Some(run)) = (self.row.as_ref(), self.run.as_ref()) else {
            return Ok(Effect::Abandoned);
        };
        if !run.kind.polled {
            return match row.filter_usable().map(str::to_owned) {
                Some(id) => self.call(Awaiting::Changes, "eth_getFilterChanges", json!([id])),
                None => self.call(Awaiting::NewFilter, "eth_newPendingTransactionFilter", json!([])),
            };
        }
        let calls_left = run.calls_left;
        let unfetched = store::next_unfetched(&self.storage)?;
        let ready = store::ready_len(&self.storage)?;
        let full = ready >= u64::try_from(MEMPOOL_APPEND_EVENTS).unwrap_or(u64::MAX);
        if ready > 0 && (unfetched.is_none() || full || calls_left == 0) {
            return self.append();
        }
        match unfetched {
            Some(queued) => {
                let hash = queued.hash.clone();
                self.call(Awaiting::Transaction(queued), "eth_getTransactionByHash", json!([hash]))
            }
            None => self.finish(Finish::CaughtUp),
        }
    }

    /// Appends the oldest ready matches, one batch (§15.1).
    fn append(&mut self) -> Result<Effect, StorageError> {
        let Some(row) = self.row.as_ref() else {
            return Ok(Effect::Abandoned);
        };
        let ready = store::ready_batch(&self.storage, MEMPOOL_APPEND_EVENTS, MAX_SOURCE_APPEND_BYTES)?;
        let events: Vec<(String, String)> = ready
            .iter()
            .filter_map(|queued| {
                let key = payload::idempotency_key(&row.name, row.config.chain_id, &queued.hash);
                queued.event.clone().map(|event| (key, event))
            })
            .collect();
        let Some(batch) = batching::batches(events).into_iter().next() else {
            return self.finish(Finish::CaughtUp);
        };
        let hashes: Vec<String> = ready
            .iter()
            .take(batch.keys.len())
            .map(|queued| queued.hash.clone())
            .collect();
        let call = AppendCall {
            stream: row.config.target_stream.clone(),
            body: batch.body,
            events: batch.keys.len(),
            expect_stream_id: None,
        };
        if let Some(run) = self.run.as_mut() {
            run.awaiting = Awaiting::Append {
                hashes,
                keys: batch.keys,
            };
        }
        Ok(Effect::Append(call))
    }

    /// The answer to the run's append: the batch's hashes are handled.
    pub(super) fn on_watch_append(
        &mut self,
        answer: &AppendAnswer,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        let Awaiting::Append { hashes, keys } = awaiting else {
            return Ok(Effect::Abandoned);
        };
        if let Some(position) = reused_key(answer, &keys).and_then(|key| keys.iter().position(|k| k == key)) {
            if let Some(hash) = hashes.get(position) {
                store::settle(&self.storage, hash)?;
            }
            return self.advance();
        }
        let stream = self
            .row
            .as_ref()
            .map(|row| row.config.target_stream.clone())
            .unwrap_or_default();
        let offsets = match append_answers::append_offsets(&stream, answer, &keys) {
            Ok(offsets) => offsets,
            Err(finish) => return self.finish(finish),
        };
        let Some(row) = self.row.as_mut() else {
            return Ok(Effect::Abandoned);
        };
        row.events_appended += u64::try_from(offsets.len()).unwrap_or(u64::MAX);
        let storage = &self.storage;
        storage.atomically(&mut || -> Result<(), StorageError> {
            for hash in &hashes {
                store::settle(storage, hash)?;
            }
            store::save_state(storage, row)
        })?;
        self.advance()
    }
}
