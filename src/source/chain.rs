//! The chain source (`kind: "evm"`, docs/design.md §15) as the run skeleton sees
//! it: where its row is stored, what a run starts with (the work a crashed
//! run wrote ahead), and which of its steps answers what. The steps
//! themselves are in `machine.rs` and the parts beside it.

use super::abi::CompiledFilter;
use super::config::SourceConfig;
use super::config_error::ConfigError;
use super::effect::{AppendAnswer, Effect};
use super::machine::{Awaiting, Chain, ChainRun};
use super::pacing::{Health, Status};
use super::rpc::{RpcCall, RpcFailure};
use super::run::{Fresh, Kind, Machine};
use super::status;
use super::store::{self, SourceRow};
use crate::storage::{Storage, StorageError};
use crate::Inputs;
use serde_json::value::RawValue;

impl Kind for Chain {
    type Row = SourceRow;
    type Config = SourceConfig;
    type Filter = CompiledFilter;
    type Awaiting = Awaiting;
    type RunState = ChainRun;

    fn load_row<S: Storage + ?Sized>(storage: &S) -> Result<Option<SourceRow>, StorageError> {
        store::load_state(storage)
    }

    fn save_row<S: Storage + ?Sized>(storage: &S, row: &SourceRow) -> Result<(), StorageError> {
        store::save_state(storage, row)
    }

    fn health(row: &mut SourceRow) -> Health<'_> {
        row.health()
    }

    fn schedule(row: &SourceRow) -> (Status, i64) {
        (row.status, row.next_run_at_ms)
    }

    fn compile(row: &SourceRow) -> Result<Vec<CompiledFilter>, ConfigError> {
        row.config.compile()
    }

    fn new_run<S: Storage + ?Sized>(storage: &S) -> Result<ChainRun, StorageError> {
        ChainRun::load(storage)
    }

    fn start<S: Storage>(machine: &mut Machine<Self, S>, _inputs: &Inputs) -> Result<(), StorageError> {
        machine.resume_pending()
    }

    fn advance<S: Storage>(machine: &mut Machine<Self, S>) -> Result<Effect, StorageError> {
        machine.next_chain_effect()
    }

    fn reads_range(awaiting: &Awaiting) -> bool {
        matches!(awaiting, Awaiting::RangeLogs { .. })
    }

    fn on_result<S: Storage>(
        machine: &mut Machine<Self, S>,
        call: &RpcCall,
        raw: &RawValue,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        machine.on_chain_result(call, raw, awaiting)
    }

    fn on_failure<S: Storage>(
        machine: &mut Machine<Self, S>,
        failure: RpcFailure,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        machine.on_chain_failure(failure, &awaiting)
    }

    fn on_append<S: Storage>(
        machine: &mut Machine<Self, S>,
        answer: &AppendAnswer,
        awaiting: Awaiting,
    ) -> Result<Effect, StorageError> {
        machine.on_chain_append(answer, awaiting)
    }

    fn same_ingestion(row: &SourceRow, config: &SourceConfig) -> bool {
        row.config.same_ingestion(config)
    }

    fn fresh_row(fresh: Fresh<'_, SourceConfig>) -> SourceRow {
        status::fresh_row(fresh)
    }

    fn reconfigured_row(
        old: &SourceRow,
        project_id: &str,
        name: &str,
        config: &SourceConfig,
        now_ms: i64,
    ) -> SourceRow {
        status::reconfigured_row(old, project_id, name, config, now_ms)
    }

    fn lineage(row: &SourceRow) -> (u64, i64) {
        (row.generation, row.created_at_ms)
    }

    fn reset_progress<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
        store::reset_progress(storage)
    }

    fn delete_all<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
        store::delete_all(storage)
    }
}
