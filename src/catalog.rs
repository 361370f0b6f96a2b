//! The stream catalog (docs/design.md §14): a project's streams, listed in path
//! order. Each stream registers its lifetime when created and unregisters
//! it when destroyed, at least once: the stream compares what the catalog
//! acknowledged (`catalog_registration`, which survives deletion) with what
//! it is, and its alarm retries until they agree — so a crash between an
//! append and the registration cannot leave a stream unlisted.
//!
//! A soft-deleted stream (§18: deleted while forks still read it) registers
//! again, naming its soft delete (acknowledged in its `fork_soft_delete`
//! row): the catalog lists it apart — left out of `GET /v1/streams` unless
//! asked for with `softDeleted=include|only`, its metrics series dropped and
//! counted by `tributary_metrics_streams_soft_deleted` instead — until the purge
//! unregisters it like any destroy.

use crate::api::ApiResponse;
use crate::error::{details, ApiError, ApiFailure, ErrorCode};
use crate::limits::{DEFAULT_CATALOG_PAGE, MAX_CATALOG_PAGE, MAX_PATH_BYTES};
use crate::schema::{migrate_with, PROJECT_MIGRATIONS};
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};
use crate::stream::read::parse_offset;
use crate::stream::Stream;
use crate::time::rfc3339_millis;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// What a stream tells its project's catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum CatalogChange {
    #[serde(rename_all = "camelCase")]
    Register {
        path: String,
        stream_id: String,
        stream_created_at_ms: i64,
        /// When the lifetime was soft-deleted (§18); absent while it is live.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        soft_deleted_at_ms: Option<i64>,
    },
    #[serde(rename_all = "camelCase")]
    Unregister {
        path: String,
        stream_id: String,
        /// No lifetime of this stream created at or before this time lives
        /// (its last lifetime's creation time): the catalog forgets any such
        /// lifetime at the path, not only `stream_id` — one whose registration
        /// reached the catalog with its answer lost, then was replaced and
        /// destroyed before the next registration went out, included.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        through_created_at_ms: Option<i64>,
    },
}

const SELECT_ACK: &str = "SELECT stream_id FROM catalog_registration WHERE id = 1";

impl<S: Storage> Stream<S> {
    /// The registration the catalog still needs from this stream, if any.
    pub fn catalog_due(&self) -> Result<Option<CatalogChange>, StorageError> {
        let cached = self.catalog_acknowledged.borrow().clone();
        let acknowledged = match cached {
            Some(acknowledged) => acknowledged,
            None => {
                let acknowledged = if table_exists(&self.storage, "catalog_registration")? {
                    match query_optional(&self.storage, SELECT_ACK, &[])? {
                        Some(row) => Columns {
                            query: SELECT_ACK,
                            row: &row,
                        }
                        .opt_text(0)?,
                        None => None,
                    }
                } else {
                    None
                };
                *self.catalog_acknowledged.borrow_mut() = Some(acknowledged.clone());
                acknowledged
            }
        };
        // A live stream reads nothing more (the soft delete is kept in memory).
        let soft_delete = if self.is_soft_deleted()? {
            crate::fork::store::soft_delete_row(&self.storage)?
        } else {
            None
        };
        let soft_delete_owed = soft_delete.is_some_and(|row| !row.catalog_acknowledged);
        Ok(match (&self.lifetime, acknowledged) {
            (Some(meta), acknowledged)
                if acknowledged.as_deref() != Some(meta.stream_id.as_str()) || soft_delete_owed =>
            {
                Some(CatalogChange::Register {
                    path: meta.path.clone(),
                    stream_id: meta.stream_id.clone(),
                    stream_created_at_ms: meta.created_at_ms,
                    soft_deleted_at_ms: soft_delete.map(|row| row.deleted_at_ms),
                })
            }
            (None, Some(stream_id)) => Some(CatalogChange::Unregister {
                path: self.path.as_str().to_owned(),
                stream_id,
                through_created_at_ms: last_created_at_ms(&self.storage)?,
            }),
            _ => None,
        })
    }

    /// Records that the catalog acknowledged `change`.
    pub fn catalog_acknowledged(&self, change: &CatalogChange) -> Result<(), StorageError> {
        let stream_id = match change {
            CatalogChange::Register {
                stream_id,
                soft_deleted_at_ms,
                ..
            } => {
                if soft_deleted_at_ms.is_some() {
                    crate::fork::store::soft_delete_acknowledged(&self.storage)?;
                }
                Some(stream_id.clone())
            }
            CatalogChange::Unregister { .. } => None,
        };
        self.storage.execute(
            "INSERT INTO catalog_registration (id, project_id, path, stream_id) VALUES (1, ?, ?, ?) \
             ON CONFLICT (id) DO UPDATE SET stream_id = excluded.stream_id",
            &[
                self.project_id.as_str().into(),
                self.path.as_str().into(),
                stream_id.clone().into(),
            ],
        )?;
        *self.catalog_acknowledged.borrow_mut() = Some(stream_id);
        Ok(())
    }
}

/// A lifetime being destroyed counts as listed (§14): its registration may
/// have reached the catalog with the answer lost (a crash, a timeout), so
/// its unregistration is owed either way — one that finds nothing listed
/// removes nothing. Written in the destroy's transaction.
pub(crate) fn may_be_listed<S: Storage + ?Sized>(
    storage: &S,
    project_id: &str,
    path: &str,
    stream_id: &str,
) -> Result<(), StorageError> {
    storage.execute(
        "INSERT INTO catalog_registration (id, project_id, path, stream_id) VALUES (1, ?, ?, ?) \
         ON CONFLICT (id) DO UPDATE SET stream_id = excluded.stream_id",
        &[project_id.into(), path.into(), stream_id.into()],
    )
}

/// Opens the stream whose storage this is for its catalog bookkeeping
/// alone: also after it was destroyed (no `stream_meta` left), from the
/// coordinates its registration kept. `None` when nothing is registered.
pub fn open_registered<S: Storage>(storage: S) -> Result<Option<Stream<S>>, StorageError> {
    if !table_exists(&storage, "catalog_registration")? {
        return Ok(None);
    }
    let sql = "SELECT project_id, path FROM catalog_registration WHERE id = 1 AND stream_id IS NOT NULL";
    let Some(row) = query_optional(&storage, sql, &[])? else {
        return Ok(None);
    };
    let columns = Columns { query: sql, row: &row };
    let (project, raw_path) = (columns.text(0)?, columns.text(1)?);
    let path = crate::path::StreamPath::parse(&raw_path).map_err(|error| StorageError::Sql(error.to_string()))?;
    Stream::open(storage, &project, path).map(Some)
}

/// The creation time of this stream's latest lifetime (`stream_lifetimes`
/// survives deletion).
fn last_created_at_ms<S: Storage + ?Sized>(storage: &S) -> Result<Option<i64>, StorageError> {
    if !table_exists(storage, "stream_lifetimes")? {
        return Ok(None);
    }
    let sql = "SELECT last_created_at_ms FROM stream_lifetimes WHERE id = 1";
    match query_optional(storage, sql, &[])? {
        Some(row) => Ok(Some(Columns { query: sql, row: &row }.int(0)?)),
        None => Ok(None),
    }
}

fn table_exists<S: Storage + ?Sized>(storage: &S, name: &str) -> Result<bool, StorageError> {
    let sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?";
    Ok(query_optional(storage, sql, &[name.into()])?.is_some())
}

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("query parameter '{name}' {problem}")]
    InvalidParameter { name: &'static str, problem: String },
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ApiFailure for CatalogError {
    fn error_code(&self) -> ErrorCode {
        match self {
            CatalogError::InvalidParameter { .. } => ErrorCode::InvalidParameter,
            CatalogError::Storage(_) => ErrorCode::Internal,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            CatalogError::InvalidParameter { name, .. } => details([("parameter", json!(name))]),
            CatalogError::Storage(_) => Map::new(),
        }
    }
}

/// `?prefix=&after=&limit=&softDeleted=` of `GET /v1/streams`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogQuery {
    pub prefix: String,
    pub after: String,
    pub limit: u64,
    pub soft_deleted: SoftDeletedFilter,
}

/// Which streams a listing shows (`softDeleted=`): soft-deleted streams
/// (§18) are deleted to their users, so a listing leaves them out unless
/// asked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SoftDeletedFilter {
    /// Live streams only (the default).
    #[default]
    Exclude,
    /// Live and soft-deleted streams, in one path order.
    Include,
    /// Soft-deleted streams only.
    Only,
}

impl SoftDeletedFilter {
    /// The value of `softDeleted=` that asks for this filter.
    pub fn as_str(self) -> &'static str {
        match self {
            SoftDeletedFilter::Exclude => "exclude",
            SoftDeletedFilter::Include => "include",
            SoftDeletedFilter::Only => "only",
        }
    }

    /// The condition on `streams.soft_deleted_at_ms`.
    fn condition(self) -> &'static str {
        match self {
            SoftDeletedFilter::Exclude => "soft_deleted_at_ms IS NULL",
            SoftDeletedFilter::Include => "1 = 1",
            SoftDeletedFilter::Only => "soft_deleted_at_ms IS NOT NULL",
        }
    }
}

impl CatalogQuery {
    pub fn parse(query: &str) -> Result<Self, CatalogError> {
        let mut parsed = CatalogQuery {
            prefix: String::new(),
            after: String::new(),
            limit: DEFAULT_CATALOG_PAGE,
            soft_deleted: SoftDeletedFilter::Exclude,
        };
        let invalid = |name: &'static str, problem: &str| CatalogError::InvalidParameter {
            name,
            problem: problem.to_owned(),
        };
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decoded = || {
                crate::route::decode_segment(&value.replace('+', " "))
                    .or_else(|| value.is_empty().then(String::new))
                    .filter(|text| text.len() <= MAX_PATH_BYTES)
            };
            match name {
                "prefix" => {
                    parsed.prefix =
                        decoded().ok_or_else(|| invalid("prefix", "must be a path prefix of at most 512 bytes"))?
                }
                "after" => parsed.after = decoded().ok_or_else(|| invalid("after", "must be a stream path"))?,
                "limit" => {
                    let out_of_range = || invalid("limit", &format!("must be between 1 and {MAX_CATALOG_PAGE}"));
                    let limit = parse_offset("limit", value).map_err(|_| out_of_range())?;
                    if !(1..=MAX_CATALOG_PAGE).contains(&limit) {
                        return Err(out_of_range());
                    }
                    parsed.limit = limit;
                }
                "softDeleted" => {
                    parsed.soft_deleted = match value {
                        "exclude" => SoftDeletedFilter::Exclude,
                        "include" => SoftDeletedFilter::Include,
                        "only" => SoftDeletedFilter::Only,
                        _ => return Err(invalid("softDeleted", "must be exclude, include or only")),
                    }
                }
                _ => return Err(invalid("query", "has an unknown parameter")),
            }
        }
        Ok(parsed)
    }
}

/// The project object's catalog.
pub struct Catalog<S: Storage> {
    storage: S,
}

impl<S: Storage> Catalog<S> {
    pub fn open(storage: S) -> Result<Self, StorageError> {
        migrate_with(&storage, PROJECT_MIGRATIONS)?;
        Ok(Catalog { storage })
    }

    pub(crate) fn storage(&self) -> &S {
        &self.storage
    }

    /// Applies a stream's change. Lifetimes are ordered by creation time: an
    /// older registration never replaces a newer one, and an unregistration
    /// removes only the lifetime it names. A soft delete stays once
    /// registered (a late registration of the live lifetime does not undo
    /// it). Idempotent. A lifetime the catalog no longer lists as live loses
    /// its metrics (§11).
    pub fn apply(&self, change: &CatalogChange) -> Result<(), StorageError> {
        self.apply_to_streams(change)?;
        let (CatalogChange::Register { path, .. } | CatalogChange::Unregister { path, .. }) = change;
        self.forget_unlisted_metrics(path)
    }

    fn apply_to_streams(&self, change: &CatalogChange) -> Result<(), StorageError> {
        match change {
            CatalogChange::Register {
                path,
                stream_id,
                stream_created_at_ms,
                soft_deleted_at_ms,
            } => self.storage.execute(
                "INSERT INTO streams (path, stream_id, stream_created_at_ms, soft_deleted_at_ms) \
                 VALUES (?, ?, ?, ?) \
                 ON CONFLICT (path) DO UPDATE SET stream_id = excluded.stream_id, \
                 stream_created_at_ms = excluded.stream_created_at_ms, \
                 soft_deleted_at_ms = CASE WHEN streams.stream_id = excluded.stream_id \
                 THEN COALESCE(streams.soft_deleted_at_ms, excluded.soft_deleted_at_ms) \
                 ELSE excluded.soft_deleted_at_ms END \
                 WHERE excluded.stream_created_at_ms >= streams.stream_created_at_ms",
                &[
                    path.as_str().into(),
                    stream_id.as_str().into(),
                    SqlValue::Integer(*stream_created_at_ms),
                    soft_deleted_at_ms.map_or(SqlValue::Null, SqlValue::Integer),
                ],
            ),
            CatalogChange::Unregister {
                path,
                stream_id,
                through_created_at_ms,
            } => self.storage.execute(
                "DELETE FROM streams WHERE path = ? AND (stream_id = ? OR stream_created_at_ms <= ?)",
                &[
                    path.as_str().into(),
                    stream_id.as_str().into(),
                    through_created_at_ms.map_or(SqlValue::Null, SqlValue::Integer),
                ],
            ),
        }
    }

    /// `GET /v1/streams` (§14): path order, paged by path; soft-deleted
    /// streams (§18) only when asked, each marked `softDeleted`.
    pub fn list(&self, query: &CatalogQuery) -> Result<Value, CatalogError> {
        let sql = format!(
            "SELECT path, stream_id, stream_created_at_ms, soft_deleted_at_ms FROM streams \
             WHERE path > ? AND substr(path, 1, length(?)) = ? AND {} ORDER BY path LIMIT +?",
            query.soft_deleted.condition()
        );
        let sql = sql.as_str();
        let rows = self.storage.query(
            sql,
            &[
                query.after.as_str().into(),
                query.prefix.as_str().into(),
                query.prefix.as_str().into(),
                query.limit.into(),
            ],
        )?;
        let mut streams = Vec::new();
        for row in &rows {
            let columns = Columns { query: sql, row };
            let mut stream = Map::new();
            stream.insert("path".into(), json!(columns.text(0)?));
            stream.insert("streamId".into(), json!(columns.text(1)?));
            stream.insert("streamCreatedAt".into(), json!(rfc3339_millis(columns.int(2)?)));
            let soft_deleted_at = columns.opt_int(3)?;
            stream.insert("softDeleted".into(), json!(soft_deleted_at.is_some()));
            if let Some(at) = soft_deleted_at {
                stream.insert("softDeletedAt".into(), json!(rfc3339_millis(at)));
            }
            streams.push(Value::Object(stream));
        }
        let next_after = (rows.len() as u64 == query.limit)
            .then(|| streams.last().and_then(|last| last.get("path").cloned()))
            .flatten();
        Ok(json!({ "streams": streams, "nextAfter": next_after }))
    }

    /// The routes, without HTTP: the public list and the streams' changes.
    pub fn handle(&self, method: &str, route: &str, query: &str, body: &[u8]) -> ApiResponse {
        match (method, route) {
            ("GET", "list") => match CatalogQuery::parse(query).and_then(|query| self.list(&query)) {
                Ok(listed) => ApiResponse::json(200, &listed),
                Err(error) => ApiError::from(error).into(),
            },
            ("POST", "change") => match serde_json::from_slice::<CatalogChange>(body) {
                Ok(change) => match self.apply(&change) {
                    Ok(()) => ApiResponse::no_content(),
                    Err(error) => ApiError::new(ErrorCode::Internal, error.to_string()).into(),
                },
                Err(error) => ApiError::new(ErrorCode::InvalidRequest, error.to_string()).into(),
            },
            _ => ApiError::new(ErrorCode::MethodNotAllowed, "GET /v1/streams lists the catalog").into(),
        }
    }
}
