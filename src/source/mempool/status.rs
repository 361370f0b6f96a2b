//! A mempool source's row from the API's side (docs/design.md §15.1, the
//! `/v1/sources` routes): the row a `PUT` writes, and the status `GET`
//! shows — since when it has watched the mempool, since what was pending
//! while it was stopped (or before its filter was made) is not replayed.
//! Configuring, deleting and scheduling are the run skeleton's.

use super::config::MempoolConfig;
use super::machine::Mempool;
use super::store::{self, MempoolRow};
use crate::source::pacing::{self, Status};
use crate::source::run::Fresh;
use crate::storage::{Storage, StorageError};
use crate::time::rfc3339_millis;
use serde_json::{json, Value};

/// The row of a source that starts watching afresh (a new generation).
pub(super) fn fresh_row(fresh: Fresh<'_, MempoolConfig>) -> MempoolRow {
    let Fresh {
        project_id,
        name,
        config,
        generation,
        created_at_ms,
        now_ms,
    } = fresh;
    MempoolRow {
        project_id: project_id.to_owned(),
        name: name.to_owned(),
        config: config.clone(),
        generation,
        status: Status::Running,
        last_error: None,
        attempt: 0,
        next_run_at_ms: now_ms,
        url_index: 0,
        filter_id: None,
        filter_url_index: None,
        watching_since_ms: None,
        last_poll_at_ms: None,
        events_appended: 0,
        txs_seen: 0,
        txs_dropped: 0,
        txs_vanished: 0,
        filter_resets: 0,
        created_at_ms,
        updated_at_ms: now_ms,
    }
}

/// A configuration watching the same: progress and counters kept, running
/// again now. New URLs need a new filter (a filter is one node's).
pub(super) fn reconfigured_row(
    old: &MempoolRow,
    project_id: &str,
    name: &str,
    config: &MempoolConfig,
    now_ms: i64,
) -> MempoolRow {
    let mut row = old.clone();
    if row.config.rpc_urls != config.rpc_urls {
        row.filter_id = None;
        row.filter_url_index = None;
    }
    row.project_id = project_id.to_owned();
    row.name = name.to_owned();
    row.config = config.clone();
    row.updated_at_ms = now_ms;
    pacing::restart(row.health(), now_ms);
    row
}

/// `GET /v1/sources/{name}` of a mempool source (§15.1).
pub fn status_view(row: &MempoolRow, queued: u64) -> Value {
    json!({
        "name": row.name,
        "config": row.config,
        "status": pacing::status_name(row.status, row.attempt),
        "watchingSince": row.watching_since_ms.map(rfc3339_millis),
        "lastPollAt": row.last_poll_at_ms.map(rfc3339_millis),
        "lastError": row.last_error,
        "eventsAppended": row.events_appended,
        "txsSeen": row.txs_seen,
        "txsQueued": queued,
        "txsDropped": row.txs_dropped,
        "txsVanished": row.txs_vanished,
        "filterResets": row.filter_resets,
        "attempt": row.attempt,
        "nextRunAt": pacing::due_at(row.status, row.next_run_at_ms).map(rfc3339_millis),
        "createdAt": rfc3339_millis(row.created_at_ms),
        "updatedAt": rfc3339_millis(row.updated_at_ms),
    })
}

impl<S: Storage> Mempool<S> {
    /// `GET /v1/sources/{name}` (§15.1).
    pub fn status(&self) -> Result<Option<Value>, StorageError> {
        match &self.row {
            Some(row) => Ok(Some(status_view(row, store::queue_len(&self.storage)?))),
            None => Ok(None),
        }
    }
}
