//! The fork rows (migration `0011_forks.sql`, docs/design.md §18): the fork's
//! `fork_origin`, the source's `fork_edges` and `fork_soft_delete`, and the
//! `fork_release_outbox` a destroyed fork keeps until its source released.

use crate::records::columns::Named;
use crate::storage::{query_optional, SqlValue, Storage, StorageError};

/// Row of `fork_origin` (one per fork lifetime): where its prefix lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginRow {
    pub source_path: String,
    /// The source's lifetime the fork was taken from.
    pub source_stream_id: String,
    /// Source offsets `1..=fork_point` are the fork's prefix.
    pub fork_point: u64,
    /// `Stream-Forked-From` as the creating request sent it.
    pub asked_from: String,
    /// The source offset the request forked at (its tail when it named none).
    pub asked_offset: u64,
    pub sub_offset: u64,
}

/// Row of `fork_edges` (one per fork of this lifetime).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeRow {
    pub fork_path: String,
    pub fork_point: u64,
    pub acquired_at_ms: i64,
}

/// Row of `fork_release_outbox`: a release a fork owes its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseRow {
    pub project_id: String,
    pub source_path: String,
    pub fork_path: String,
    /// The source lifetime granted; `None` while an acquire is in flight.
    pub source_stream_id: Option<String>,
    /// When the shell may send it.
    pub due_at_ms: i64,
}

const ORIGIN_COLUMNS: [&str; 6] = [
    "source_path",
    "source_stream_id",
    "fork_point",
    "asked_from",
    "asked_offset",
    "sub_offset",
];
const RELEASE_COLUMNS: [&str; 5] = [
    "project_id",
    "source_path",
    "fork_path",
    "source_stream_id",
    "due_at_ms",
];

fn table_exists<S: Storage + ?Sized>(storage: &S, name: &str) -> Result<bool, StorageError> {
    let sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?";
    Ok(query_optional(storage, sql, &[name.into()])?.is_some())
}

fn count(value: u64) -> SqlValue {
    SqlValue::Integer(i64::try_from(value).unwrap_or(i64::MAX))
}

/// The fork's origin; `None` for a stream that is not a fork.
pub fn origin<S: Storage + ?Sized>(storage: &S) -> Result<Option<OriginRow>, StorageError> {
    if !table_exists(storage, "fork_origin")? {
        return Ok(None);
    }
    let sql = "SELECT source_path, source_stream_id, fork_point, asked_from, asked_offset, sub_offset \
               FROM fork_origin WHERE id = 1";
    let Some(row) = query_optional(storage, sql, &[])? else {
        return Ok(None);
    };
    let named = Named::new(sql, &row, &ORIGIN_COLUMNS);
    Ok(Some(OriginRow {
        source_path: named.text("source_path")?,
        source_stream_id: named.text("source_stream_id")?,
        fork_point: named.count("fork_point")?,
        asked_from: named.text("asked_from")?,
        asked_offset: named.count("asked_offset")?,
        sub_offset: named.count("sub_offset")?,
    }))
}

pub fn save_origin<S: Storage + ?Sized>(storage: &S, origin: &OriginRow) -> Result<(), StorageError> {
    storage.execute(
        "INSERT INTO fork_origin (id, source_path, source_stream_id, fork_point, asked_from, asked_offset, sub_offset) \
         VALUES (1, ?, ?, ?, ?, ?, ?)",
        &[
            origin.source_path.clone().into(),
            origin.source_stream_id.clone().into(),
            count(origin.fork_point),
            origin.asked_from.clone().into(),
            count(origin.asked_offset),
            count(origin.sub_offset),
        ],
    )
}

/// Records (or refreshes) the edge of the fork at `fork_path`: idempotent,
/// so a retried acquire never counts one fork twice.
pub fn acquire_edge<S: Storage + ?Sized>(storage: &S, edge: &EdgeRow) -> Result<(), StorageError> {
    storage.execute(
        "INSERT INTO fork_edges (fork_path, fork_point, acquired_at_ms) VALUES (?, ?, ?) \
         ON CONFLICT (fork_path) DO UPDATE SET fork_point = excluded.fork_point, acquired_at_ms = excluded.acquired_at_ms",
        &[
            edge.fork_path.clone().into(),
            count(edge.fork_point),
            SqlValue::Integer(edge.acquired_at_ms),
        ],
    )
}

pub fn release_edge<S: Storage + ?Sized>(storage: &S, fork_path: &str) -> Result<(), StorageError> {
    storage.execute("DELETE FROM fork_edges WHERE fork_path = ?", &[fork_path.into()])
}

/// How many forks read this lifetime, and the lowest fork point among them.
pub fn edges<S: Storage + ?Sized>(storage: &S) -> Result<(u64, Option<u64>), StorageError> {
    if !table_exists(storage, "fork_edges")? {
        return Ok((0, None));
    }
    edges_of(query_optional(storage, EDGES, &[])?)
}

/// [`edges`] read again where reads are checked (natively, in the tests):
/// `None` in a Durable Object.
pub fn checked_edges<S: Storage + ?Sized>(storage: &S) -> Option<Result<(u64, Option<u64>), StorageError>> {
    let rows = storage.check_read(EDGES, &[])?;
    Some(rows.and_then(|rows| edges_of(rows.into_iter().next())))
}

const EDGES: &str = "SELECT COUNT(*), MIN(fork_point) FROM fork_edges";

fn edges_of(row: Option<crate::storage::Row>) -> Result<(u64, Option<u64>), StorageError> {
    let Some(row) = row else {
        return Ok((0, None));
    };
    let named = Named::new(EDGES, &row, &["count", "lowest"]);
    let lowest = named.optional_int("lowest")?.map(|point| point.max(0) as u64);
    Ok((named.count("count")?, lowest))
}

pub fn soft_deleted<S: Storage + ?Sized>(storage: &S) -> Result<bool, StorageError> {
    if !table_exists(storage, "fork_soft_delete")? {
        return Ok(false);
    }
    Ok(query_optional(storage, "SELECT 1 FROM fork_soft_delete WHERE id = 1", &[])?.is_some())
}

/// Row of `fork_soft_delete` (one while the lifetime is soft-deleted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SoftDeleteRow {
    pub deleted_at_ms: i64,
    /// The project's catalog lists the lifetime apart (§14).
    pub catalog_acknowledged: bool,
}

/// The soft delete of this lifetime, if it was soft-deleted.
pub fn soft_delete_row<S: Storage + ?Sized>(storage: &S) -> Result<Option<SoftDeleteRow>, StorageError> {
    if !table_exists(storage, "fork_soft_delete")? {
        return Ok(None);
    }
    let sql = "SELECT deleted_at_ms, catalog_acknowledged FROM fork_soft_delete WHERE id = 1";
    let Some(row) = query_optional(storage, sql, &[])? else {
        return Ok(None);
    };
    let named = Named::new(sql, &row, &["deleted_at_ms", "catalog_acknowledged"]);
    Ok(Some(SoftDeleteRow {
        deleted_at_ms: named.int("deleted_at_ms")?,
        catalog_acknowledged: named.int("catalog_acknowledged")? != 0,
    }))
}

/// The catalog listed the soft delete apart.
/// (A purge while the catalog was asked leaves no row to mark.)
pub fn soft_delete_acknowledged<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    if !table_exists(storage, "fork_soft_delete")? {
        return Ok(());
    }
    storage.execute("UPDATE fork_soft_delete SET catalog_acknowledged = 1 WHERE id = 1", &[])
}

pub fn soft_delete<S: Storage + ?Sized>(storage: &S, now_ms: i64) -> Result<(), StorageError> {
    storage.execute(
        "INSERT INTO fork_soft_delete (id, deleted_at_ms) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
        &[SqlValue::Integer(now_ms)],
    )
}

/// Records a release owed (a later one for the same edge replaces it).
pub fn owe_release<S: Storage + ?Sized>(storage: &S, release: &ReleaseRow) -> Result<(), StorageError> {
    storage.execute(
        "INSERT INTO fork_release_outbox (project_id, source_path, fork_path, source_stream_id, due_at_ms) \
         VALUES (?, ?, ?, ?, ?) ON CONFLICT (source_path, fork_path) DO UPDATE SET \
         source_stream_id = excluded.source_stream_id, due_at_ms = excluded.due_at_ms",
        &[
            release.project_id.clone().into(),
            release.source_path.clone().into(),
            release.fork_path.clone().into(),
            release.source_stream_id.clone().map_or(SqlValue::Null, SqlValue::from),
            SqlValue::Integer(release.due_at_ms),
        ],
    )
}

/// What a turn of the release outbox reads (§18): the releases due, and
/// when none is, the time the next one falls due.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseTurn {
    /// Due at the turn's time, soonest first, at most the turn's limit.
    pub owed: Vec<ReleaseRow>,
    /// When the soonest release falls due, if none is due yet; `None` when
    /// some are due (the sender arms after sending) or none is owed.
    pub next_due: Option<i64>,
}

/// The release outbox at `now_ms`, at most `limit` rows (§12), in one read:
/// the alarm asks on every turn, and almost every turn owes nothing.
/// `None` when the storage has no outbox (no migration reached it).
pub fn release_turn<S: Storage + ?Sized>(
    storage: &S,
    now_ms: i64,
    limit: u64,
) -> Result<Option<ReleaseTurn>, StorageError> {
    if !table_exists(storage, "fork_release_outbox")? {
        return Ok(None);
    }
    let sql = "SELECT project_id, source_path, fork_path, source_stream_id, due_at_ms FROM fork_release_outbox \
               ORDER BY due_at_ms LIMIT +?";
    let rows = storage
        .query(sql, &[count(limit)])?
        .iter()
        .map(|row| {
            let named = Named::new(sql, row, &RELEASE_COLUMNS);
            Ok(ReleaseRow {
                project_id: named.text("project_id")?,
                source_path: named.text("source_path")?,
                fork_path: named.text("fork_path")?,
                source_stream_id: named.optional_text("source_stream_id")?,
                due_at_ms: named.int("due_at_ms")?,
            })
        })
        .collect::<Result<Vec<_>, StorageError>>()?;
    let next_due = rows
        .first()
        .map(|soonest| soonest.due_at_ms)
        .filter(|due| *due > now_ms);
    let owed = rows.into_iter().take_while(|row| row.due_at_ms <= now_ms).collect();
    Ok(Some(ReleaseTurn { owed, next_due }))
}

/// When the next owed release is due (`None`: none owed).
pub fn next_release_due<S: Storage + ?Sized>(storage: &S) -> Result<Option<i64>, StorageError> {
    if !table_exists(storage, "fork_release_outbox")? {
        return Ok(None);
    }
    let sql = "SELECT MIN(due_at_ms) FROM fork_release_outbox";
    let Some(row) = query_optional(storage, sql, &[])? else {
        return Ok(None);
    };
    Named::new(sql, &row, &["due"]).optional_int("due")
}

/// The release was acknowledged, or the fork's creation committed.
pub fn released<S: Storage + ?Sized>(storage: &S, source_path: &str, fork_path: &str) -> Result<(), StorageError> {
    storage.execute(
        "DELETE FROM fork_release_outbox WHERE source_path = ? AND fork_path = ?",
        &[source_path.into(), fork_path.into()],
    )
}
