//! A source's row from the API's side (DESIGN.md §15, the `/v1/sources`
//! routes): `PUT` creates or replaces the configuration, `DELETE` forgets the
//! source, `GET` shows its status view, and the alarm asks when it is next
//! due. Changing what is read restarts ingestion under a new generation;
//! anything else applies to the running source.

use super::config::SourceConfig;
use super::machine::Source;
use super::pacing;
use super::store::{self, SourceRow, Status};
use crate::limits::SOURCE_LOG_RANGE_BLOCKS;
use crate::storage::{Storage, StorageError};
use crate::time::rfc3339_millis;
use serde_json::{json, Value};

/// The row of a source that starts reading afresh (a new generation).
fn fresh_row(
    project_id: &str,
    name: &str,
    config: &SourceConfig,
    generation: u64,
    created_at_ms: i64,
    now_ms: i64,
) -> SourceRow {
    SourceRow {
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
    }
}

/// The row of a running source given a configuration that reads the same:
/// its progress kept, running again now.
fn reconfigured_row(old: &SourceRow, project_id: &str, name: &str, config: &SourceConfig, now_ms: i64) -> SourceRow {
    let mut row = old.clone();
    row.project_id = project_id.to_owned();
    row.name = name.to_owned();
    row.config = config.clone();
    row.updated_at_ms = now_ms;
    pacing::restart(row.health(), now_ms);
    row
}

/// `GET /v1/sources/{name}` (§15): the status view of a row.
pub fn status_view(row: &SourceRow) -> Value {
    json!({
        "name": row.name,
        "config": row.config,
        "status": pacing::status_name(row.status, row.attempt),
        "nextBlock": row.next_block,
        "finalizedBlock": row.finalized_block,
        "lastError": row.last_error,
        "eventsAppended": row.events_appended,
        "invalidations": row.invalidations,
        "reorgs": row.reorgs,
        "deepReorgs": row.deep_reorgs,
        "attempt": row.attempt,
        "nextRunAt": pacing::due_at(row.status, row.next_run_at_ms).map(rfc3339_millis),
        "createdAt": rfc3339_millis(row.created_at_ms),
        "updatedAt": rfc3339_millis(row.updated_at_ms),
    })
}

impl<S: Storage> Source<S> {
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
        let (row, reset) = match &self.row {
            None => (fresh_row(project_id, name, &config, 1, now_ms, now_ms), true),
            Some(old) if old.config.same_ingestion(&config) => {
                (reconfigured_row(old, project_id, name, &config, now_ms), false)
            }
            Some(old) => (
                fresh_row(project_id, name, &config, old.generation + 1, old.created_at_ms, now_ms),
                true,
            ),
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

    /// The storage back, to open another kind of source over it (§15.1).
    pub fn into_storage(self) -> S {
        self.storage
    }

    /// `GET /v1/sources/{name}` (§15).
    pub fn status(&self) -> Option<Value> {
        self.row.as_ref().map(status_view)
    }

    /// When the alarm should next fire (`None`: no alarm).
    pub fn due_at(&self) -> Option<i64> {
        self.row
            .as_ref()
            .and_then(|row| pacing::due_at(row.status, row.next_run_at_ms))
    }
}
