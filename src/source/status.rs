//! A chain source's row from the API's side (docs/design.md §15, the
//! `/v1/sources` routes): the row a `PUT` writes — afresh under a new
//! generation when what is read changed, else the running row with its
//! progress kept — and the status view `GET` shows. Configuring, deleting
//! and scheduling are the run skeleton's (`run.rs`), the same for every kind.

use super::config::SourceConfig;
use super::machine::Source;
use super::pacing::{self, Status};
use super::run::Fresh;
use super::store::SourceRow;
use crate::limits::SOURCE_LOG_RANGE_BLOCKS;
use crate::storage::Storage;
use crate::time::rfc3339_millis;
use serde_json::{json, Value};

/// The row of a source that starts reading afresh (a new generation).
pub(super) fn fresh_row(fresh: Fresh<'_, SourceConfig>) -> SourceRow {
    let Fresh {
        project_id,
        name,
        config,
        generation,
        created_at_ms,
        now_ms,
    } = fresh;
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
pub(super) fn reconfigured_row(
    old: &SourceRow,
    project_id: &str,
    name: &str,
    config: &SourceConfig,
    now_ms: i64,
) -> SourceRow {
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
    /// `GET /v1/sources/{name}` (§15).
    pub fn status(&self) -> Option<Value> {
        self.row.as_ref().map(status_view)
    }
}
