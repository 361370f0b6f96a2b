//! One run skeleton for every kind of source (docs/design.md §1, §15, §15.1).
//! A source is a [`Machine`] over its own storage; what differs between the
//! chain source and the mempool source is data: a [`Kind`] says how its row
//! is stored, what a run of it starts with, how it decides the next effect
//! and how it reads an answer. Everything else is here, once: opening the
//! storage, when a run may start and its budget of RPC calls (§12), spending
//! a call on the next URL, ending a run through pacing (backoff, rotation,
//! `failed`), matching answers to the run they belong to, and configuring,
//! deleting and scheduling the source.

use super::config_error::ConfigError;
use super::effect::{AppendAnswer, Effect, Finish};
use super::pacing::{self, Health, Status};
use super::rpc::{self, RpcAnswer, RpcCall, RpcFailure};
use crate::limits::MAX_SOURCE_RPC_CALLS_PER_RUN;
use crate::schema::{migrate_with, SOURCE_MIGRATIONS};
use crate::storage::{Storage, StorageError};
use crate::Inputs;
use serde_json::value::RawValue;
use serde_json::Value;

/// What one kind of source lends the skeleton: its row, its filters, what
/// a call in flight waits for, its own part of a run, and the steps only it
/// knows. Each step takes the whole machine, so a kind keeps its logic in
/// `impl Machine<ItsKind, S>` blocks beside it.
pub trait Kind: Sized {
    /// The kind's row of its `*_state` table.
    type Row: Clone;
    /// A validated configuration of this kind.
    type Config;
    /// A configured filter, compiled.
    type Filter;
    /// What the run's call in flight (or append) was for; the default is nothing.
    type Awaiting: Default;
    /// The kind's own part of a run (beside the skeleton's budget).
    type RunState;

    fn load_row<S: Storage + ?Sized>(storage: &S) -> Result<Option<Self::Row>, StorageError>;
    fn save_row<S: Storage + ?Sized>(storage: &S, row: &Self::Row) -> Result<(), StorageError>;
    /// The fields pacing reads and moves (§15 "Failures").
    fn health(row: &mut Self::Row) -> Health<'_>;
    /// Whether the source runs, and when its next run is due.
    fn schedule(row: &Self::Row) -> (Status, i64);
    /// The stored configuration's filters, compiled again (a configuration
    /// that no longer validates refuses to run rather than running half-valid).
    fn compile(row: &Self::Row) -> Result<Vec<Self::Filter>, ConfigError>;

    /// A new run's own part, read from storage when it must be.
    fn new_run<S: Storage + ?Sized>(storage: &S) -> Result<Self::RunState, StorageError>;
    /// What a run does before its first effect (pick up work written
    /// ahead, prune what aged out).
    fn start<S: Storage>(machine: &mut Machine<Self, S>, inputs: &Inputs) -> Result<(), StorageError>;
    /// The next effect from what is known.
    fn advance<S: Storage>(machine: &mut Machine<Self, S>) -> Result<Effect, StorageError>;
    /// Whether the call awaited is a range read (a refusal there halves the range).
    fn reads_range(awaiting: &Self::Awaiting) -> bool;
    /// A call's `result`, handed on as what it was awaited for.
    fn on_result<S: Storage>(
        machine: &mut Machine<Self, S>,
        call: &RpcCall,
        raw: &RawValue,
        awaiting: Self::Awaiting,
    ) -> Result<Effect, StorageError>;
    /// A call that failed.
    fn on_failure<S: Storage>(
        machine: &mut Machine<Self, S>,
        failure: RpcFailure,
        awaiting: Self::Awaiting,
    ) -> Result<Effect, StorageError>;
    /// The answer to the run's append.
    fn on_append<S: Storage>(
        machine: &mut Machine<Self, S>,
        answer: &AppendAnswer,
        awaiting: Self::Awaiting,
    ) -> Result<Effect, StorageError>;

    /// Whether `config` reads what `row` reads into the same stream: a PUT
    /// that changes any of it restarts ingestion under a new generation.
    fn same_ingestion(row: &Self::Row, config: &Self::Config) -> bool;
    /// The row of a source that starts reading afresh.
    fn fresh_row(fresh: Fresh<'_, Self::Config>) -> Self::Row;
    /// The row of a running source given a configuration that reads the
    /// same: its progress kept, running again now.
    fn reconfigured_row(old: &Self::Row, project_id: &str, name: &str, config: &Self::Config, now_ms: i64)
        -> Self::Row;
    /// `(generation, created_at_ms)` of a row.
    fn lineage(row: &Self::Row) -> (u64, i64);
    /// Drops what a new generation must not inherit (the kind's progress rows).
    fn reset_progress<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError>;
    /// Drops every row of the kind.
    fn delete_all<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError>;
}

/// What a fresh row is made of.
pub struct Fresh<'a, C> {
    pub project_id: &'a str,
    pub name: &'a str,
    pub config: &'a C,
    pub generation: u64,
    pub created_at_ms: i64,
    pub now_ms: i64,
}

/// One alarm run: the skeleton's budget (§12), where the conversation
/// stands, and the kind's own part.
#[derive(Debug, Clone)]
pub struct Run<K: Kind> {
    pub id: u64,
    pub now_ms: i64,
    pub entropy: [u8; 16],
    pub calls_left: u32,
    pub next_request_id: u64,
    pub in_flight: Option<RpcCall>,
    pub awaiting: K::Awaiting,
    pub kind: K::RunState,
}

/// One source of kind `K` over its own storage.
pub struct Machine<K: Kind, S: Storage> {
    pub(super) storage: S,
    pub(super) row: Option<K::Row>,
    /// The compiled filters of the row's configuration.
    pub(super) filters: Option<Vec<K::Filter>>,
    pub(super) run: Option<Run<K>>,
    runs_started: u64,
    /// Structured log lines for the shell to print (§11).
    pub(super) logs: Vec<Value>,
}

impl<K: Kind, S: Storage> Machine<K, S> {
    pub fn open(storage: S) -> Result<Self, StorageError> {
        migrate_with(&storage, SOURCE_MIGRATIONS)?;
        let row = K::load_row(&storage)?;
        Ok(Machine {
            storage,
            row,
            filters: None,
            run: None,
            runs_started: 0,
            logs: Vec::new(),
        })
    }

    pub fn row(&self) -> Option<&K::Row> {
        self.row.as_ref()
    }

    pub fn storage(&self) -> &S {
        &self.storage
    }

    /// The storage back, to open another kind of source over it (§15.1).
    pub fn into_storage(self) -> S {
        self.storage
    }

    /// Log lines produced since the last call.
    pub fn take_logs(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.logs)
    }

    /// The current run's id (answers carry it back), if one is going.
    pub fn run_id(&self) -> Option<u64> {
        self.run.as_ref().map(|run| run.id)
    }

    /// When the alarm should next fire (`None`: no alarm).
    pub fn due_at(&self) -> Option<i64> {
        let (status, next_run_at_ms) = K::schedule(self.row.as_ref()?);
        pacing::due_at(status, next_run_at_ms)
    }

    /// Starts an alarm run.
    pub fn begin_run(&mut self, inputs: &Inputs) -> Result<Effect, StorageError> {
        self.run = None;
        let Some(row) = &self.row else {
            return Ok(Effect::Stop);
        };
        let (status, next_run_at_ms) = K::schedule(row);
        if let Some(effect) = pacing::not_due(status, next_run_at_ms, inputs.now_ms) {
            return Ok(effect);
        }
        self.runs_started += 1;
        self.run = Some(Run {
            id: self.runs_started,
            now_ms: inputs.now_ms,
            entropy: inputs.entropy,
            calls_left: MAX_SOURCE_RPC_CALLS_PER_RUN,
            next_request_id: 1,
            in_flight: None,
            awaiting: K::Awaiting::default(),
            kind: K::new_run(&self.storage)?,
        });
        if self.filters.is_none() {
            match self.row.as_ref().map(K::compile) {
                Some(Ok(filters)) => self.filters = Some(filters),
                Some(Err(error)) => {
                    return self.finish(Finish::Permanent(format!(
                        "the stored configuration no longer validates: {error}"
                    )))
                }
                None => return Ok(Effect::Stop),
            }
        }
        K::start(self, inputs)?;
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
        let awaiting = std::mem::take(&mut run.awaiting);
        match rpc::result(&call, answer, K::reads_range(&awaiting)) {
            Ok(raw) => K::on_result(self, &call, raw, awaiting),
            Err(failure) => K::on_failure(self, failure, awaiting),
        }
    }

    /// The answer to the run's append.
    pub fn on_append(&mut self, run_id: u64, answer: &AppendAnswer, now_ms: i64) -> Result<Effect, StorageError> {
        let Some(run) = self.run.as_mut().filter(|run| run.id == run_id) else {
            return Ok(Effect::Abandoned);
        };
        run.now_ms = now_ms;
        let awaiting = std::mem::take(&mut run.awaiting);
        K::on_append(self, answer, awaiting)
    }

    /// Decides the next effect (the kind's step).
    pub(super) fn advance(&mut self) -> Result<Effect, StorageError> {
        K::advance(self)
    }

    /// Spends one call of the run's budget on the current URL, or ends the
    /// run (more is due now).
    pub(super) fn call(
        &mut self,
        awaiting: K::Awaiting,
        method: &'static str,
        params: Value,
    ) -> Result<Effect, StorageError> {
        let (Some(row), Some(run)) = (self.row.as_mut(), self.run.as_mut()) else {
            return Ok(Effect::Abandoned);
        };
        if run.calls_left == 0 {
            return self.finish(Finish::Budget);
        }
        run.calls_left -= 1;
        let health = K::health(row);
        let (index, url) = pacing::current_url(health.rpc_urls, *health.url_index);
        let id = run.next_request_id;
        run.next_request_id += 1;
        let call = rpc::call(&url, index, id, method, params);
        run.in_flight = Some(call.clone());
        run.awaiting = awaiting;
        Ok(Effect::Call(call))
    }

    /// A failed call ends the run as its failure says (a refused range is
    /// transient here; a kind that reads ranges halves it first).
    pub(super) fn failed(&mut self, failure: RpcFailure) -> Result<Effect, StorageError> {
        match failure {
            RpcFailure::Permanent(reason) => self.finish(Finish::Permanent(reason)),
            RpcFailure::Transient { reason, retry_after_ms } => {
                self.finish(Finish::Transient { reason, retry_after_ms })
            }
            RpcFailure::RangeRefused(reason) => self.finish(Finish::Transient {
                reason,
                retry_after_ms: None,
            }),
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
        let health = K::health(&mut row);
        let (effect, log) = match finish {
            Finish::CaughtUp => (pacing::finish_ok(health, now, true), None),
            Finish::Budget => (pacing::finish_ok(health, now, false), None),
            Finish::Transient { reason, retry_after_ms } => {
                pacing::finish_transient(health, now, run.entropy, &reason, retry_after_ms)
            }
            Finish::Permanent(reason) => pacing::finish_permanent(health, &reason),
        };
        self.logs.extend(log);
        *K::health(&mut row).updated_at_ms = now;
        K::save_row(&self.storage, &row)?;
        self.row = Some(row);
        Ok(effect)
    }

    /// Creates or replaces the configuration (already validated, chain id
    /// checked). Changing what is read restarts ingestion under a new
    /// generation; the rest applies to the running source. A failed source
    /// runs again. Returns whether the source is new.
    pub fn configure(
        &mut self,
        project_id: &str,
        name: &str,
        config: K::Config,
        now_ms: i64,
    ) -> Result<bool, StorageError> {
        let created = self.row.is_none();
        let fresh = |generation, created_at_ms| Fresh {
            project_id,
            name,
            config: &config,
            generation,
            created_at_ms,
            now_ms,
        };
        let (row, reset) = match &self.row {
            None => (K::fresh_row(fresh(1, now_ms)), true),
            Some(old) if K::same_ingestion(old, &config) => {
                (K::reconfigured_row(old, project_id, name, &config, now_ms), false)
            }
            Some(old) => {
                let (generation, created_at_ms) = K::lineage(old);
                (K::fresh_row(fresh(generation + 1, created_at_ms)), true)
            }
        };
        let storage = &self.storage;
        storage.atomically(&mut || -> Result<(), StorageError> {
            if reset {
                K::reset_progress(storage)?;
            }
            K::save_row(storage, &row)
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
        storage.atomically(&mut || K::delete_all(storage))?;
        self.row = None;
        self.filters = None;
        self.run = None;
        Ok(existed)
    }
}
