//! A mempool source's rows (docs/design.md §15.1), as documented types over the
//! storage trait: the source itself, the queue of announced hashes, and the
//! hashes already handled. The DDL is `migrations/source/0003_mempool.sql`.

use super::config::MempoolConfig;
use crate::limits::{MAX_MEMPOOL_SEEN, MEMPOOL_SEEN_RETENTION_MS};
use crate::source::pacing::{Health, Status};
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};

/// Row of `mempool_state` (id = 1).
#[derive(Debug, Clone, PartialEq)]
pub struct MempoolRow {
    pub project_id: String,
    pub name: String,
    pub config: MempoolConfig,
    /// Bumped by every PUT that changes what is watched.
    pub generation: u64,
    pub status: Status,
    pub last_error: Option<String>,
    /// Failed runs in a row (the backoff exponent).
    pub attempt: u64,
    pub next_run_at_ms: i64,
    pub url_index: u64,
    /// The node's pending-transaction filter, and the URL that made it.
    pub filter_id: Option<String>,
    pub filter_url_index: Option<u64>,
    /// When the current filter was made: what was pending before is not replayed.
    pub watching_since_ms: Option<i64>,
    pub last_poll_at_ms: Option<i64>,
    pub events_appended: u64,
    /// Hashes queued (announced and not seen before).
    pub txs_seen: u64,
    /// Hashes dropped because the queue was full.
    pub txs_dropped: u64,
    /// Hashes the node no longer had when fetched (dropped or replaced).
    pub txs_vanished: u64,
    /// Filters the node forgot (and the source made again).
    pub filter_resets: u64,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

impl MempoolRow {
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

    /// Whether the filter in hand was made by the URL now in use.
    pub fn filter_usable(&self) -> Option<&str> {
        self.filter_id
            .as_deref()
            .filter(|_| self.filter_url_index == Some(self.url_index))
    }
}

/// A row of `mempool_queue`: an announced hash, and its event once fetched and matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    pub hash: String,
    pub seen_at_ms: i64,
    pub event: Option<String>,
}

const SELECT_STATE: &str = "SELECT project_id, name, config, generation, status, last_error, attempt, \
     next_run_at_ms, url_index, filter_id, filter_url_index, watching_since_ms, last_poll_at_ms, events_appended, \
     txs_seen, txs_dropped, txs_vanished, filter_resets, created_at_ms, updated_at_ms FROM mempool_state WHERE id = 1";

pub fn load_state<S: Storage + ?Sized>(storage: &S) -> Result<Option<MempoolRow>, StorageError> {
    let Some(row) = query_optional(storage, SELECT_STATE, &[])? else {
        return Ok(None);
    };
    let c = Columns {
        query: SELECT_STATE,
        row: &row,
    };
    Ok(Some(MempoolRow {
        project_id: c.text(0)?,
        name: c.text(1)?,
        config: c.json(2)?,
        generation: c.unsigned(3)?,
        status: Status::parse(&c.text(4)?),
        last_error: c.opt_text(5)?,
        attempt: c.unsigned(6)?,
        next_run_at_ms: c.int(7)?,
        url_index: c.unsigned(8)?,
        filter_id: c.opt_text(9)?,
        filter_url_index: c.opt_unsigned(10)?,
        watching_since_ms: c.opt_int(11)?,
        last_poll_at_ms: c.opt_int(12)?,
        events_appended: c.unsigned(13)?,
        txs_seen: c.unsigned(14)?,
        txs_dropped: c.unsigned(15)?,
        txs_vanished: c.unsigned(16)?,
        filter_resets: c.unsigned(17)?,
        created_at_ms: c.int(18)?,
        updated_at_ms: c.int(19)?,
    }))
}

pub fn save_state<S: Storage + ?Sized>(storage: &S, row: &MempoolRow) -> Result<(), StorageError> {
    let config = serde_json::to_string(&row.config).map_err(|error| StorageError::Sql(error.to_string()))?;
    storage.execute(
        "INSERT OR REPLACE INTO mempool_state (id, project_id, name, config, generation, status, last_error, attempt, \
         next_run_at_ms, url_index, filter_id, filter_url_index, watching_since_ms, last_poll_at_ms, events_appended, \
         txs_seen, txs_dropped, txs_vanished, filter_resets, created_at_ms, updated_at_ms) \
         VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        &[
            row.project_id.as_str().into(),
            row.name.as_str().into(),
            config.into(),
            row.generation.into(),
            row.status.as_str().into(),
            row.last_error.clone().into(),
            row.attempt.into(),
            row.next_run_at_ms.into(),
            row.url_index.into(),
            row.filter_id.clone().into(),
            row.filter_url_index.into(),
            row.watching_since_ms.into(),
            row.last_poll_at_ms.into(),
            row.events_appended.into(),
            row.txs_seen.into(),
            row.txs_dropped.into(),
            row.txs_vanished.into(),
            row.filter_resets.into(),
            row.created_at_ms.into(),
            row.updated_at_ms.into(),
        ],
    )
}

fn count<S: Storage + ?Sized>(storage: &S, sql: &str) -> Result<u64, StorageError> {
    match query_optional(storage, sql, &[])? {
        Some(row) => Columns { query: sql, row: &row }.unsigned(0),
        None => Ok(0),
    }
}

pub fn queue_len<S: Storage + ?Sized>(storage: &S) -> Result<u64, StorageError> {
    count(storage, "SELECT COUNT(*) FROM mempool_queue")
}

/// Queues `hash`, first seen at `seen_at_ms`, unless it is queued or was
/// handled already. Whether it was queued.
pub fn enqueue<S: Storage + ?Sized>(storage: &S, hash: &str, seen_at_ms: i64) -> Result<bool, StorageError> {
    let known = query_optional(
        storage,
        "SELECT 1 FROM mempool_queue WHERE hash = ? UNION ALL SELECT 1 FROM mempool_seen WHERE hash = ?",
        &[hash.into(), hash.into()],
    )?
    .is_some();
    if known {
        return Ok(false);
    }
    storage.execute(
        "INSERT INTO mempool_queue (hash, seen_at_ms, event) VALUES (?, ?, NULL)",
        &[hash.into(), seen_at_ms.into()],
    )?;
    Ok(true)
}

fn queued(query: &str, row: &[SqlValue]) -> Result<Queued, StorageError> {
    let c = Columns { query, row };
    Ok(Queued {
        hash: c.text(0)?,
        seen_at_ms: c.int(1)?,
        event: c.opt_text(2)?,
    })
}

/// The oldest queued hash not fetched yet.
pub fn next_unfetched<S: Storage + ?Sized>(storage: &S) -> Result<Option<Queued>, StorageError> {
    let sql = "SELECT hash, seen_at_ms, event FROM mempool_queue WHERE event IS NULL ORDER BY seq LIMIT 1";
    query_optional(storage, sql, &[])?
        .map(|row| queued(sql, &row))
        .transpose()
}

/// How many fetched matches wait to be appended.
pub fn ready_len<S: Storage + ?Sized>(storage: &S) -> Result<u64, StorageError> {
    count(storage, "SELECT COUNT(*) FROM mempool_queue WHERE event IS NOT NULL")
}

/// The oldest fetched matches, in order: at most `events` of them, and no
/// more once `bytes` are reached (the first always), so reading them is bounded.
pub fn ready_batch<S: Storage + ?Sized>(storage: &S, events: usize, bytes: usize) -> Result<Vec<Queued>, StorageError> {
    let sql = "SELECT hash, seen_at_ms, event FROM (SELECT hash, seen_at_ms, event, seq, \
               SUM(length(event)) OVER (ORDER BY seq) - length(event) AS before \
               FROM mempool_queue WHERE event IS NOT NULL ORDER BY seq LIMIT +?) WHERE before < ? ORDER BY seq";
    let limit = u64::try_from(events).unwrap_or(u64::MAX);
    let cap = u64::try_from(bytes).unwrap_or(u64::MAX);
    storage
        .query(sql, &[limit.into(), cap.into()])?
        .iter()
        .map(|row| queued(sql, row))
        .collect()
}

/// Keeps the event of a fetched, matching transaction with its hash.
pub fn set_event<S: Storage + ?Sized>(storage: &S, hash: &str, event: &str) -> Result<(), StorageError> {
    storage.execute(
        "UPDATE mempool_queue SET event = ? WHERE hash = ?",
        &[event.into(), hash.into()],
    )
}

/// A queued hash is handled (appended, not matching, or gone): it moves to
/// the hashes seen, remembered from its first sighting.
pub fn settle<S: Storage + ?Sized>(storage: &S, hash: &str) -> Result<(), StorageError> {
    storage.execute(
        "INSERT INTO mempool_seen (hash, seen_at_ms) SELECT hash, seen_at_ms FROM mempool_queue WHERE hash = ? \
         ON CONFLICT (hash) DO NOTHING",
        &[hash.into()],
    )?;
    storage.execute("DELETE FROM mempool_queue WHERE hash = ?", &[hash.into()])
}

/// Forgets handled hashes older than the retention, and the oldest beyond
/// the bound (§15.1, [`MAX_MEMPOOL_SEEN`]).
pub fn prune_seen<S: Storage + ?Sized>(storage: &S, now_ms: i64) -> Result<(), StorageError> {
    let cutoff = now_ms.saturating_sub(MEMPOOL_SEEN_RETENTION_MS);
    storage.execute("DELETE FROM mempool_seen WHERE seen_at_ms < ?", &[cutoff.into()])?;
    let seen = count(storage, "SELECT COUNT(*) FROM mempool_seen")?;
    if seen > MAX_MEMPOOL_SEEN {
        storage.execute(
            "DELETE FROM mempool_seen WHERE hash IN (SELECT hash FROM mempool_seen ORDER BY seen_at_ms LIMIT +?)",
            &[(seen - MAX_MEMPOOL_SEEN).into()],
        )?;
    }
    Ok(())
}

/// Forgets the queue and the hashes seen (a PUT watching afresh, or a DELETE).
pub fn reset_progress<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    storage.execute("DELETE FROM mempool_queue", &[])?;
    storage.execute("DELETE FROM mempool_seen", &[])
}

/// Forgets the whole mempool source: its own tables only.
pub fn delete_all<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    reset_progress(storage)?;
    storage.execute("DELETE FROM mempool_state", &[])
}

/// Whether this object holds a mempool source.
pub fn exists<S: Storage + ?Sized>(storage: &S) -> Result<bool, StorageError> {
    Ok(query_optional(storage, "SELECT 1 FROM mempool_state WHERE id = 1", &[])?.is_some())
}
