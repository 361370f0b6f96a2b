//! A source's rows (docs/design.md §15), as documented types over the storage
//! trait: the source itself, the unfinalized window, the blocks reorgs
//! killed, and the transition written ahead of its appends. The DDL is
//! `migrations/source/0001_source.sql`.

use super::config::SourceConfig;
use super::pacing::Health;
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};
use serde::{Deserialize, Serialize};

pub use super::pacing::Status;

/// Row of `source_state` (id = 1).
#[derive(Debug, Clone, PartialEq)]
pub struct SourceRow {
    /// The project (the alarm has no request to name it).
    pub project_id: String,
    pub name: String,
    pub config: SourceConfig,
    /// Bumped by every PUT: a run or a pending transition of an older
    /// generation is dropped.
    pub generation: u64,
    /// The next block to read; `None` until the first run learns the head.
    pub next_block: Option<u64>,
    /// The floor: nothing at or below it is read again (final, or before
    /// the start); `None` below block 0.
    pub finalized_block: Option<u64>,
    /// The floor block's hash, when known.
    pub anchor_hash: Option<String>,
    pub status: Status,
    pub last_error: Option<String>,
    /// Failed runs in a row (the backoff exponent).
    pub attempt: u64,
    pub next_run_at_ms: i64,
    pub url_index: u64,
    /// The current block range of `eth_getLogs` over finalized blocks.
    pub range_blocks: u64,
    pub events_appended: u64,
    /// `events-invalidated` events appended.
    pub invalidations: u64,
    pub reorgs: u64,
    /// Forks deeper than the window (§15): counted and logged.
    pub deep_reorgs: u64,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
    /// The target stream's lifetime (`streamId`) the window's offsets and
    /// the pending batches' offsets belong to (§15, §3 rule 6); `None`
    /// until an append answer names it, and after a new lifetime was found.
    pub target_stream_id: Option<String>,
}

impl SourceRow {
    /// The fields pacing moves (§15 "Failures").
    pub(super) fn health(&mut self) -> Health<'_> {
        Health {
            name: &self.name,
            poll_ms: self.config.poll_ms,
            rpc_urls: &self.config.rpc_urls,
            status: &mut self.status,
            last_error: &mut self.last_error,
            attempt: &mut self.attempt,
            next_run_at_ms: &mut self.next_run_at_ms,
            url_index: &mut self.url_index,
            updated_at_ms: &mut self.updated_at_ms,
        }
    }
}

/// Row of `source_blocks`: one unfinalized block and the offsets of the
/// `evm.log` events appended for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowBlock {
    pub number: u64,
    pub hash: String,
    pub parent_hash: String,
    pub offsets: Vec<u64>,
}

/// The transition a pending set of appends leads to (row of
/// `source_pending`, as JSON). Applied in one write once every batch is
/// acknowledged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Transition {
    /// An unfinalized block read: it joins the window, with its offsets.
    #[serde(rename_all = "camelCase")]
    Block {
        generation: u64,
        number: u64,
        hash: String,
        parent_hash: String,
        /// The chain's final block when it was read (tip - finalityDepth).
        final_tip: Option<u64>,
    },
    /// Finalized blocks `from..=to` read by range (never written ahead:
    /// final blocks read the same after a crash).
    #[serde(rename_all = "camelCase")]
    Range {
        generation: u64,
        from: u64,
        to: u64,
        to_hash: String,
    },
    /// A reorg: the window above `ancestor` (the whole window when `deep`)
    /// was invalidated.
    #[serde(rename_all = "camelCase")]
    Invalidate {
        generation: u64,
        /// The common ancestor's number; for a deep reorg, the floor.
        ancestor: Option<u64>,
        deep: bool,
        /// `(number, hash)` of every dead block.
        dead: Vec<(u64, String)>,
        /// `events-invalidated` events appended.
        events: u64,
    },
}

impl Transition {
    pub fn generation(&self) -> u64 {
        match self {
            Transition::Block { generation, .. }
            | Transition::Range { generation, .. }
            | Transition::Invalidate { generation, .. } => *generation,
        }
    }
}

/// Row of `source_pending_batches`: one append request body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    pub body: String,
    /// The idempotency keys in the body, in order (to check the answer).
    pub keys: Vec<String>,
    /// Filled in once the stream acknowledged the batch.
    pub offsets: Option<Vec<u64>>,
}

/// A staged transition and its appends (§15 "Checkpoint and window").
#[derive(Debug, Clone)]
pub struct Pending {
    pub transition: Transition,
    pub batches: Vec<Batch>,
    /// Written ahead in `source_pending` (unfinalized work).
    pub durable: bool,
}

fn to_json<T: Serialize>(value: &T) -> Result<String, StorageError> {
    serde_json::to_string(value).map_err(|error| StorageError::Sql(error.to_string()))
}

const SELECT_STATE: &str =
    "SELECT project_id, name, config, generation, next_block, finalized_block, anchor_hash, status, \
     last_error, attempt, next_run_at_ms, url_index, range_blocks, events_appended, invalidations, reorgs, \
     deep_reorgs, created_at_ms, updated_at_ms, target_stream_id FROM source_state WHERE id = 1";

pub fn load_state<S: Storage + ?Sized>(storage: &S) -> Result<Option<SourceRow>, StorageError> {
    let Some(row) = query_optional(storage, SELECT_STATE, &[])? else {
        return Ok(None);
    };
    let columns = Columns {
        query: SELECT_STATE,
        row: &row,
    };
    Ok(Some(SourceRow {
        project_id: columns.text(0)?,
        name: columns.text(1)?,
        config: columns.json(2)?,
        generation: columns.unsigned(3)?,
        next_block: columns.opt_unsigned(4)?,
        finalized_block: columns.opt_unsigned(5)?,
        anchor_hash: columns.opt_text(6)?,
        status: Status::parse(&columns.text(7)?),
        last_error: columns.opt_text(8)?,
        attempt: columns.unsigned(9)?,
        next_run_at_ms: columns.int(10)?,
        url_index: columns.unsigned(11)?,
        range_blocks: columns.unsigned(12)?,
        events_appended: columns.unsigned(13)?,
        invalidations: columns.unsigned(14)?,
        reorgs: columns.unsigned(15)?,
        deep_reorgs: columns.unsigned(16)?,
        created_at_ms: columns.int(17)?,
        updated_at_ms: columns.int(18)?,
        target_stream_id: columns.opt_text(19)?,
    }))
}

pub fn save_state<S: Storage + ?Sized>(storage: &S, row: &SourceRow) -> Result<(), StorageError> {
    storage.execute(
        "INSERT INTO source_state (id, project_id, name, config, generation, next_block, finalized_block, anchor_hash, \
         status, last_error, attempt, next_run_at_ms, url_index, range_blocks, events_appended, invalidations, \
         reorgs, deep_reorgs, created_at_ms, updated_at_ms, target_stream_id) \
         VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) \
         ON CONFLICT (id) DO UPDATE SET project_id = excluded.project_id, name = excluded.name, config = excluded.config, \
         generation = excluded.generation, next_block = excluded.next_block, \
         finalized_block = excluded.finalized_block, anchor_hash = excluded.anchor_hash, \
         status = excluded.status, last_error = excluded.last_error, attempt = excluded.attempt, \
         next_run_at_ms = excluded.next_run_at_ms, url_index = excluded.url_index, \
         range_blocks = excluded.range_blocks, events_appended = excluded.events_appended, \
         invalidations = excluded.invalidations, reorgs = excluded.reorgs, deep_reorgs = excluded.deep_reorgs, \
         created_at_ms = excluded.created_at_ms, updated_at_ms = excluded.updated_at_ms, \
         target_stream_id = excluded.target_stream_id",
        &[
            row.project_id.as_str().into(),
            row.name.as_str().into(),
            SqlValue::Text(to_json(&row.config)?),
            row.generation.into(),
            row.next_block.into(),
            row.finalized_block.into(),
            row.anchor_hash.clone().into(),
            row.status.as_str().into(),
            row.last_error.clone().into(),
            row.attempt.into(),
            row.next_run_at_ms.into(),
            row.url_index.into(),
            row.range_blocks.into(),
            row.events_appended.into(),
            row.invalidations.into(),
            row.reorgs.into(),
            row.deep_reorgs.into(),
            row.created_at_ms.into(),
            row.updated_at_ms.into(),
            row.target_stream_id.clone().into(),
        ],
    )
}

/// Forgets the offsets of every window block (§15): they name events of a
/// target lifetime that is gone. The blocks stay, so reorgs are still seen.
pub fn clear_window_offsets<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    storage.execute("UPDATE source_blocks SET offsets = '[]'", &[])
}

const SELECT_BLOCK: &str = "SELECT number, hash, parent_hash, offsets FROM source_blocks WHERE number = ?";
const SELECT_WINDOW: &str =
    "SELECT number, hash, parent_hash, offsets FROM source_blocks WHERE number > ? ORDER BY number";

fn window_block(query: &str, row: &[SqlValue]) -> Result<WindowBlock, StorageError> {
    let columns = Columns { query, row };
    Ok(WindowBlock {
        number: columns.unsigned(0)?,
        hash: columns.text(1)?,
        parent_hash: columns.text(2)?,
        offsets: columns.json(3)?,
    })
}

pub fn window_block_at<S: Storage + ?Sized>(storage: &S, number: u64) -> Result<Option<WindowBlock>, StorageError> {
    query_optional(storage, SELECT_BLOCK, &[number.into()])?
        .map(|row| window_block(SELECT_BLOCK, &row))
        .transpose()
}

/// Window blocks above `above` (all of them for `None`), in order.
pub fn window_above<S: Storage + ?Sized>(storage: &S, above: Option<u64>) -> Result<Vec<WindowBlock>, StorageError> {
    let floor = above.map_or(-1, |number| i64::try_from(number).unwrap_or(i64::MAX));
    storage
        .query(SELECT_WINDOW, &[floor.into()])?
        .iter()
        .map(|row| window_block(SELECT_WINDOW, row))
        .collect()
}

pub fn window_len<S: Storage + ?Sized>(storage: &S) -> Result<u64, StorageError> {
    let sql = "SELECT COUNT(*) FROM source_blocks";
    match query_optional(storage, sql, &[])? {
        Some(row) => Columns { query: sql, row: &row }.unsigned(0),
        None => Ok(0),
    }
}

pub fn insert_block<S: Storage + ?Sized>(storage: &S, block: &WindowBlock) -> Result<(), StorageError> {
    storage.execute(
        "INSERT INTO source_blocks (number, hash, parent_hash, offsets) VALUES (?, ?, ?, ?) \
         ON CONFLICT (number) DO UPDATE SET hash = excluded.hash, parent_hash = excluded.parent_hash, \
         offsets = excluded.offsets",
        &[
            block.number.into(),
            block.hash.as_str().into(),
            block.parent_hash.as_str().into(),
            SqlValue::Text(to_json(&block.offsets)?),
        ],
    )
}

/// Drops window rows above `above` (all for `None`).
pub fn delete_window_above<S: Storage + ?Sized>(storage: &S, above: Option<u64>) -> Result<(), StorageError> {
    let floor = above.map_or(-1, |number| i64::try_from(number).unwrap_or(i64::MAX));
    storage.execute("DELETE FROM source_blocks WHERE number > ?", &[floor.into()])
}

/// Prunes window and dead-block rows at or below the floor.
pub fn prune_through<S: Storage + ?Sized>(storage: &S, floor: u64) -> Result<(), StorageError> {
    storage.execute("DELETE FROM source_blocks WHERE number <= ?", &[floor.into()])?;
    storage.execute("DELETE FROM source_dead_blocks WHERE number <= ?", &[floor.into()])
}

/// How often each block hash was invalidated (pruned with finality, so small).
pub fn load_deaths<S: Storage + ?Sized>(storage: &S) -> Result<std::collections::BTreeMap<String, u64>, StorageError> {
    let sql = "SELECT hash, deaths FROM source_dead_blocks";
    storage
        .query(sql, &[])?
        .iter()
        .map(|row| {
            let columns = Columns { query: sql, row };
            Ok((columns.text(0)?, columns.unsigned(1)?))
        })
        .collect()
}

pub fn record_death<S: Storage + ?Sized>(storage: &S, number: u64, hash: &str) -> Result<(), StorageError> {
    storage.execute(
        "INSERT INTO source_dead_blocks (hash, number, deaths) VALUES (?, ?, 1) \
         ON CONFLICT (hash) DO UPDATE SET deaths = deaths + 1",
        &[hash.into(), number.into()],
    )
}

/// Writes a transition and its batches ahead of the appends.
pub fn save_pending<S: Storage + ?Sized>(
    storage: &S,
    transition: &Transition,
    batches: &[Batch],
) -> Result<(), StorageError> {
    clear_pending(storage)?;
    storage.execute(
        "INSERT INTO source_pending (id, transition) VALUES (1, ?)",
        &[SqlValue::Text(to_json(transition)?)],
    )?;
    for (seq, batch) in batches.iter().enumerate() {
        let record = serde_json::json!({"body": batch.body, "keys": batch.keys});
        storage.execute(
            "INSERT INTO source_pending_batches (seq, body, offsets) VALUES (?, ?, NULL)",
            &[
                u64::try_from(seq).unwrap_or(u64::MAX).into(),
                SqlValue::Text(record.to_string()),
            ],
        )?;
    }
    Ok(())
}

pub fn save_batch_offsets<S: Storage + ?Sized>(storage: &S, seq: usize, offsets: &[u64]) -> Result<(), StorageError> {
    storage.execute(
        "UPDATE source_pending_batches SET offsets = ? WHERE seq = ?",
        &[
            SqlValue::Text(to_json(&offsets)?),
            u64::try_from(seq).unwrap_or(u64::MAX).into(),
        ],
    )
}

/// Marks every pending batch as not yet appended (they go again, into a new
/// target lifetime).
pub fn clear_batch_offsets<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    storage.execute("UPDATE source_pending_batches SET offsets = NULL", &[])
}

pub fn load_pending<S: Storage + ?Sized>(storage: &S) -> Result<Option<(Transition, Vec<Batch>)>, StorageError> {
    let sql = "SELECT transition FROM source_pending WHERE id = 1";
    let Some(row) = query_optional(storage, sql, &[])? else {
        return Ok(None);
    };
    let transition: Transition = Columns { query: sql, row: &row }.json(0)?;
    let sql = "SELECT body, offsets FROM source_pending_batches ORDER BY seq";
    let mut batches = Vec::new();
    for row in storage.query(sql, &[])? {
        let columns = Columns { query: sql, row: &row };
        #[derive(Deserialize)]
        struct Record {
            body: String,
            keys: Vec<String>,
        }
        let record: Record = columns.json(0)?;
        let offsets = columns.opt_json(1)?;
        batches.push(Batch {
            body: record.body,
            keys: record.keys,
            offsets,
        });
    }
    Ok(Some((transition, batches)))
}

pub fn clear_pending<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    storage.execute("DELETE FROM source_pending", &[])?;
    storage.execute("DELETE FROM source_pending_batches", &[])
}

/// Forgets the whole source (DELETE): its own tables only.
pub fn delete_all<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    for table in [
        "source_state",
        "source_blocks",
        "source_dead_blocks",
        "source_pending",
        "source_pending_batches",
    ] {
        storage.execute(&format!("DELETE FROM {table}"), &[])?;
    }
    Ok(())
}

/// A reset ingestion (a PUT changing what is read): window, deaths and
/// pending work go; the events already appended stay in the stream.
pub fn reset_progress<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    for table in [
        "source_blocks",
        "source_dead_blocks",
        "source_pending",
        "source_pending_batches",
    ] {
        storage.execute(&format!("DELETE FROM {table}"), &[])?;
    }
    Ok(())
}
