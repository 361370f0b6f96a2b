//! The project object's side of the metrics (§11): it stores each stream
//! lifetime's latest snapshot (`stream_metrics`, only for a lifetime its
//! catalog lists, so a destroyed stream's late report is refused) and answers
//! `GET /v1/metrics?prefix=` from that table alone, bounded by
//! [`MAX_METRICS_SCRAPE_STREAMS`] and [`MAX_METRICS_SCRAPE_SUBSCRIPTIONS`]
//! in path order: what lies past them is counted, not rendered. A
//! soft-deleted stream (§18) is no live stream: its series are dropped (its
//! reports accepted and not kept) and `tributary_metrics_streams_soft_deleted`
//! counts it. It also keeps each source's latest progress (`source_metrics`).

use super::render::Scrape;
use super::snapshot::StreamSnapshot;
use super::sources::{SourceReport, SourceSnapshot};
use crate::api::ApiResponse;
use crate::catalog::Catalog;
use crate::error::{details, ApiError, ApiFailure, ErrorCode};
use crate::limits::{
    MAX_METRICS_SCRAPE_STREAMS, MAX_METRICS_SCRAPE_SUBSCRIPTIONS, MAX_METRICS_SNAPSHOT_VALUES, MAX_PATH_BYTES,
    MAX_SOURCES_PER_PROJECT, MAX_STREAM_SUBSCRIPTIONS, MAX_SUBSCRIPTION_KEY_BYTES,
};
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};
use serde_json::{json, Map, Value};

/// Row of `stream_metrics` (migrations/project/0003_metrics.sql).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamMetricsRow {
    pub path: String,
    pub stream_id: String,
    pub reported_at_ms: i64,
    /// How many subscriptions the snapshot holds (bounds a scrape without
    /// parsing it).
    pub subscription_count: u64,
    /// The [`StreamSnapshot`] as JSON.
    pub snapshot: String,
}

/// Row of `source_metrics` (migrations/project/0003_metrics.sql).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceMetricsRow {
    pub name: String,
    pub reported_at_ms: i64,
    /// The [`SourceSnapshot`] as JSON.
    pub snapshot: String,
}

#[derive(Debug, thiserror::Error)]
pub enum MetricsError {
    #[error("metrics report is not a snapshot: {0}")]
    Malformed(String),
    #[error("metrics report {0}")]
    OutOfBounds(&'static str),
    #[error("the catalog does not list stream {path} lifetime {stream_id}")]
    NotListed { path: String, stream_id: String },
    #[error("query parameter '{name}' {problem}")]
    InvalidParameter { name: &'static str, problem: &'static str },
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ApiFailure for MetricsError {
    fn error_code(&self) -> ErrorCode {
        match self {
            MetricsError::Malformed(_) | MetricsError::OutOfBounds(_) => ErrorCode::InvalidRequest,
            MetricsError::NotListed { .. } => ErrorCode::StreamNotFound,
            MetricsError::InvalidParameter { .. } => ErrorCode::InvalidParameter,
            MetricsError::Storage(_) => ErrorCode::Internal,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            MetricsError::InvalidParameter { name, .. } => details([("parameter", json!(name))]),
            _ => Map::new(),
        }
    }
}

/// A report within the bounds a scrape relies on.
fn checked(body: &[u8]) -> Result<StreamSnapshot, MetricsError> {
    let snapshot = StreamSnapshot::decode(body).map_err(|error| MetricsError::Malformed(error.to_string()))?;
    let too_many_values = snapshot.values.len() > MAX_METRICS_SNAPSHOT_VALUES
        || snapshot
            .subscriptions
            .iter()
            .any(|subscription| subscription.values.len() > MAX_METRICS_SNAPSHOT_VALUES);
    if too_many_values {
        return Err(MetricsError::OutOfBounds("holds too many values"));
    }
    if snapshot.subscriptions.len() > MAX_STREAM_SUBSCRIPTIONS {
        return Err(MetricsError::OutOfBounds("holds too many subscriptions"));
    }
    let long_key = snapshot
        .subscriptions
        .iter()
        .any(|subscription| subscription.key.len() > MAX_SUBSCRIPTION_KEY_BYTES);
    if snapshot.path.len() > MAX_PATH_BYTES || long_key {
        return Err(MetricsError::OutOfBounds("names a path or key past its limit"));
    }
    Ok(snapshot)
}

/// A source's report within the bounds of its name and values.
fn checked_source(body: &[u8]) -> Result<SourceReport, MetricsError> {
    let report: SourceReport =
        serde_json::from_slice(body).map_err(|error| MetricsError::Malformed(error.to_string()))?;
    let (name, values) = match &report {
        SourceReport::Progress { snapshot } => (&snapshot.name, snapshot.values.len()),
        SourceReport::Gone { name } => (name, 0),
    };
    if crate::source::config::check_name(name).is_err() {
        return Err(MetricsError::OutOfBounds("names no valid source"));
    }
    if values > MAX_METRICS_SNAPSHOT_VALUES {
        return Err(MetricsError::OutOfBounds("holds too many values"));
    }
    Ok(report)
}

/// `?prefix=` of `GET /v1/metrics`.
pub fn parse_prefix(query: &str) -> Result<String, MetricsError> {
    let mut prefix = String::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        match name {
            "prefix" => {
                prefix = crate::route::decode_segment(&value.replace('+', " "))
                    .or_else(|| value.is_empty().then(String::new))
                    .filter(|text| text.len() <= MAX_PATH_BYTES)
                    .ok_or(MetricsError::InvalidParameter {
                        name: "prefix",
                        problem: "must be a path prefix of at most 512 bytes",
                    })?
            }
            _ => {
                return Err(MetricsError::InvalidParameter {
                    name: "query",
                    problem: "has an unknown parameter",
                })
            }
        }
    }
    Ok(prefix)
}

const PREFIXED: &str = "substr(path, 1, length(?)) = ?";

impl<S: Storage> Catalog<S> {
    /// Stores a stream's report, replacing its lifetime's last one; a
    /// soft-deleted lifetime's report is accepted and not kept.
    pub fn apply_report(&self, body: &[u8], now_ms: i64) -> Result<(), MetricsError> {
        let snapshot = checked(body)?;
        let listed = "SELECT soft_deleted_at_ms FROM streams WHERE path = ? AND stream_id = ?";
        let coordinates = [snapshot.path.as_str().into(), snapshot.stream_id.as_str().into()];
        let Some(row) = query_optional(self.storage(), listed, &coordinates)? else {
            return Err(MetricsError::NotListed {
                path: snapshot.path,
                stream_id: snapshot.stream_id,
            });
        };
        if (Columns {
            query: listed,
            row: &row,
        })
        .opt_int(0)?
        .is_some()
        {
            return Ok(());
        }
        self.storage().execute(
            "INSERT INTO stream_metrics (path, stream_id, reported_at_ms, subscription_count, snapshot) \
             VALUES (?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET stream_id = excluded.stream_id, \
             reported_at_ms = excluded.reported_at_ms, subscription_count = excluded.subscription_count, \
             snapshot = excluded.snapshot",
            &[
                snapshot.path.as_str().into(),
                snapshot.stream_id.as_str().into(),
                SqlValue::Integer(now_ms),
                (snapshot.subscriptions.len() as u64).into(),
                snapshot.encode().into(),
            ],
        )?;
        Ok(())
    }

    /// Stores a source's progress, or forgets a deleted source's. A new name
    /// past [`MAX_SOURCES_PER_PROJECT`] is refused.
    pub fn apply_source_report(&self, body: &[u8], now_ms: i64) -> Result<(), MetricsError> {
        match checked_source(body)? {
            SourceReport::Gone { name } => {
                self.storage()
                    .execute("DELETE FROM source_metrics WHERE name = ?", &[name.as_str().into()])?;
            }
            SourceReport::Progress { snapshot } => {
                let known = "SELECT 1 FROM source_metrics WHERE name = ?";
                let count = "SELECT COUNT(*) FROM source_metrics";
                let is_new = query_optional(self.storage(), known, &[snapshot.name.as_str().into()])?.is_none();
                let held = match query_optional(self.storage(), count, &[])? {
                    Some(row) => Columns {
                        query: count,
                        row: &row,
                    }
                    .int(0)?
                    .max(0) as usize,
                    None => 0,
                };
                if is_new && held >= MAX_SOURCES_PER_PROJECT {
                    return Err(MetricsError::OutOfBounds("names more sources than a project may have"));
                }
                let text = serde_json::to_string(&snapshot).unwrap_or_default();
                self.storage().execute(
                    "INSERT INTO source_metrics (name, reported_at_ms, snapshot) VALUES (?, ?, ?) \
                     ON CONFLICT (name) DO UPDATE SET reported_at_ms = excluded.reported_at_ms, \
                     snapshot = excluded.snapshot",
                    &[snapshot.name.as_str().into(), SqlValue::Integer(now_ms), text.into()],
                )?;
            }
        }
        Ok(())
    }

    /// Every source's latest progress, in name order (at most
    /// [`MAX_SOURCES_PER_PROJECT`] rows).
    fn source_snapshots(&self) -> Result<Vec<SourceSnapshot>, MetricsError> {
        let sql = "SELECT snapshot FROM source_metrics ORDER BY name LIMIT +?";
        let rows = self.storage().query(sql, &[(MAX_SOURCES_PER_PROJECT as u64).into()])?;
        let mut snapshots = Vec::new();
        for row in &rows {
            let text = Columns { query: sql, row }.text(0)?;
            if let Ok(snapshot) = serde_json::from_str(&text) {
                snapshots.push(snapshot);
            }
        }
        Ok(snapshots)
    }

    /// Forgets the series of every lifetime at `path` the catalog no longer
    /// lists as live (destroyed, replaced by a newer lifetime, or soft-deleted).
    pub(crate) fn forget_unlisted_metrics(&self, path: &str) -> Result<(), StorageError> {
        self.storage().execute(
            "DELETE FROM stream_metrics WHERE path = ? AND stream_id NOT IN \
             (SELECT stream_id FROM streams WHERE path = ? AND soft_deleted_at_ms IS NULL)",
            &[path.into(), path.into()],
        )
    }

    /// What `GET /v1/metrics?prefix=` shows: snapshots in path order while
    /// both bounds hold, and how many matching streams are left out.
    pub fn scrape(&self, prefix: &str) -> Result<Scrape, MetricsError> {
        let prefixed = [prefix.into(), prefix.into()];
        let count_sql = format!("SELECT COUNT(*) FROM stream_metrics WHERE {PREFIXED}");
        let matching = match query_optional(self.storage(), &count_sql, &prefixed)? {
            Some(row) => Columns {
                query: &count_sql,
                row: &row,
            }
            .int(0)?
            .max(0) as u64,
            None => 0,
        };
        let sizes_sql =
            format!("SELECT path, subscription_count FROM stream_metrics WHERE {PREFIXED} ORDER BY path LIMIT +?");
        let sizes = self.storage().query(
            &sizes_sql,
            &[prefix.into(), prefix.into(), MAX_METRICS_SCRAPE_STREAMS.into()],
        )?;
        let mut last = None;
        let mut subscriptions = 0u64;
        for row in &sizes {
            let columns = Columns { query: &sizes_sql, row };
            subscriptions += columns.int(1)?.max(0) as u64;
            if subscriptions > MAX_METRICS_SCRAPE_SUBSCRIPTIONS {
                break;
            }
            last = Some(columns.text(0)?);
        }
        let mut scrape = Scrape::default();
        if let Some(last) = last {
            let sql = format!("SELECT snapshot FROM stream_metrics WHERE {PREFIXED} AND path <= ? ORDER BY path");
            for row in &self
                .storage()
                .query(&sql, &[prefix.into(), prefix.into(), last.into()])?
            {
                let text = Columns { query: &sql, row }.text(0)?;
                // A row that no longer decodes is left out (and counted).
                if let Ok(snapshot) = StreamSnapshot::decode(text.as_bytes()) {
                    scrape.snapshots.push(snapshot);
                }
            }
        }
        scrape.omitted_streams = matching.saturating_sub(scrape.snapshots.len() as u64);
        let soft_deleted_sql =
            format!("SELECT COUNT(*) FROM streams WHERE {PREFIXED} AND soft_deleted_at_ms IS NOT NULL");
        scrape.soft_deleted_streams = match query_optional(self.storage(), &soft_deleted_sql, &prefixed)? {
            Some(row) => Columns {
                query: &soft_deleted_sql,
                row: &row,
            }
            .int(0)?
            .max(0) as u64,
            None => 0,
        };
        // Sources have names, not paths: a scrape by prefix leaves them out.
        if prefix.is_empty() {
            scrape.sources = self.source_snapshots()?;
        }
        Ok(scrape)
    }

    /// The metrics routes, without HTTP: `report` (a stream's snapshot) and
    /// `scrape` (`GET /v1/metrics`, Prometheus text).
    pub fn handle_metrics(&self, method: &str, route: &str, query: &str, body: &[u8], now_ms: i64) -> ApiResponse {
        match (method, route) {
            ("POST", "report") => match self.apply_report(body, now_ms) {
                Ok(()) => ApiResponse::no_content(),
                Err(error) => ApiError::from(error).into(),
            },
            ("POST", "source") => match self.apply_source_report(body, now_ms) {
                Ok(()) => ApiResponse::no_content(),
                Err(error) => ApiError::from(error).into(),
            },
            ("GET", "scrape") => match parse_prefix(query).and_then(|prefix| self.scrape(&prefix)) {
                Ok(scrape) => ApiResponse {
                    status: 200,
                    content_type: crate::api::PROMETHEUS_CONTENT_TYPE,
                    body: scrape.render(),
                },
                Err(error) => ApiError::from(error).into(),
            },
            _ => ApiError::new(ErrorCode::MethodNotAllowed, "GET /v1/metrics answers the scrape").into(),
        }
    }
}
