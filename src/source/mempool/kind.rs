//! The mempool source (`kind: "evm-mempool"`, docs/design.md §15.1) as the run
//! skeleton sees it: where its row is stored, what a run starts with (the
//! hashes seen long ago pruned), and which of its steps answers what. The
//! steps themselves are in `machine.rs`.

use super::calldata::CompiledCall;
use super::config::MempoolConfig;
use super::machine::{Awaiting, Watch, WatchRun};
use super::status;
use super::store::{self, MempoolRow};
use crate::source::config_error::ConfigError;
use crate::source::effect::{AppendAnswer, Effect};
use crate::source::pacing::{Health, Status};
use crate::source::rpc::{RpcCall, RpcFailure};
use crate::source::run::{Fresh, Kind, Machine};
use crate::storage::{Storage, StorageError};
use crate::Inputs;
use serde_json::value::RawValue;

impl Kind for Watch {
    type Row = MempoolRow;
    type Config = MempoolConfig;
    type Filter = CompiledCall;
    type Awaiting = Awaiting;
    type RunState = WatchRun;

    fn load_row<S: Storage + ?Sized>(storage: &S) -> Result<Option<MempoolRow>, StorageError> {
        store::load_state(storage)
    }

    fn save_row<S: Storage + ?Sized>(storage: &S, row: &MempoolRow) -> Result<(), StorageError> {
        store::save_state(storage, row)
    }

    fn health(row: &mut MempoolRow) -> Health<'_> {
        row.health()
    }

    fn schedule(row: &MempoolRow) -> (Status, i64) {
        (row.status, row.next_run_at_ms)
    }

    fn compile(row: &MempoolRow) -> Result<Vec<CompiledCall>, ConfigError> {
        row.config.compile()
    }

    fn new_run<S: Storage + ?Sized>(_storage: &S) -> Result<WatchRun, StorageError> {
        Ok(WatchRun::default())
    }

    fn start<S: Storage>(machine: &mut Machine<Self, S>, inputs: &Inputs) -> Result<(), StorageError> {
        store::prune_seen(machine.storage(), inputs.now_ms)
    }

    fn advance<S: Storage>(machine: &mut Machine<Self, S>) -> Result<Effect, StorageError> {
        machine.next_watch_effect()
    }

    fn reads_range(_awaiting: &Awaiting) -> bool {
        false
    }

    fn on_result<S: Storage>(
        machine: &mut Machine<Self, S>,
        call: &RpcCall,
        raw: &RawValue,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        machine.on_watch_result(call, raw, awaiting)
    }

    fn on_failure<S: Storage>(
        machine: &mut Machine<Self, S>,
        failure: RpcFailure,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        machine.on_watch_failure(failure, &awaiting)
    }

    fn on_append<S: Storage>(
        machine: &mut Machine<Self, S>,
        answer: &AppendAnswer,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        machine.on_watch_append(answer, awaiting)
    }

    fn same_ingestion(row: &MempoolRow, config: &MempoolConfig) -> bool {
        row.config.same_ingestion(config)
    }

    fn fresh_row(fresh: Fresh<'_, MempoolConfig>) -> MempoolRow {
        status::fresh_row(fresh)
    }

    fn reconfigured_row(
        old: &MempoolRow,
        project_id: &str,
        name: &str,
        config: &MempoolConfig,
        now_ms: i64,
    ) -> MempoolRow {
        status::reconfigured_row(old, project_id, name, config, now_ms)
    }

    fn lineage(row: &MempoolRow) -> (u64, i64) {
        (row.generation, row.created_at_ms)
    }

    fn reset_progress<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
        store::reset_progress(storage)
    }

    fn delete_all<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
        store::delete_all(storage)
    }
}
