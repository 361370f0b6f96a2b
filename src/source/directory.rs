//! A project's source directory (docs/design.md §15): `GET /v1/sources` lists
//! the project's sources in name order. It lives in the project's directory
//! instance of the source class (the one named by the project alone) and is
//! kept by the sources themselves: a PUT registers before it commits (so
//! the per-project bound is enforced first), a DELETE unregisters after it
//! forgets. A retried PUT or DELETE repairs an entry a crash left behind.

use crate::api::ApiResponse;
use crate::error::{ApiError, ErrorCode};
use crate::limits::{DEFAULT_READ_LIMIT, MAX_READ_LIMIT, MAX_SOURCES_PER_PROJECT};
use crate::schema::{migrate_with, SOURCE_MIGRATIONS};
use crate::storage::{query_optional, Columns, Storage, StorageError};
use crate::time::rfc3339_millis;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What a source tells its project's directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum DirectoryChange {
    Register { name: String, config: Value },
    Unregister { name: String },
}

pub struct Directory<S: Storage> {
    storage: S,
}

impl<S: Storage> Directory<S> {
    pub fn open(storage: S) -> Result<Self, StorageError> {
        migrate_with(&storage, SOURCE_MIGRATIONS)?;
        Ok(Directory { storage })
    }

    fn count(&self) -> Result<usize, StorageError> {
        let sql = "SELECT COUNT(*) FROM source_directory";
        let count = match query_optional(&self.storage, sql, &[])? {
            Some(row) => Columns { query: sql, row: &row }.int(0)?,
            None => 0,
        };
        Ok(usize::try_from(count).unwrap_or(usize::MAX))
    }

    /// Applies a change; a new name beyond the per-project bound is 422.
    pub fn apply(&self, change: &DirectoryChange, now_ms: i64) -> Result<ApiResponse, StorageError> {
        match change {
            DirectoryChange::Register { name, config } => {
                let known = query_optional(
                    &self.storage,
                    "SELECT 1 FROM source_directory WHERE name = ?",
                    &[name.as_str().into()],
                )?
                .is_some();
                if !known && self.count()? >= MAX_SOURCES_PER_PROJECT {
                    let mut error = ApiError::new(
                        ErrorCode::TooManySources,
                        format!(
                            "a project may define at most {MAX_SOURCES_PER_PROJECT} sources; \
                             delete one (DELETE /v1/sources/{{name}}) first"
                        ),
                    );
                    error.body.error.details.insert("field".to_owned(), json!("name"));
                    error
                        .body
                        .error
                        .details
                        .insert("limit".to_owned(), json!(MAX_SOURCES_PER_PROJECT));
                    return Ok(error.into());
                }
                self.storage.execute(
                    "INSERT INTO source_directory (name, config, updated_at_ms) VALUES (?, ?, ?) \
                     ON CONFLICT (name) DO UPDATE SET config = excluded.config, updated_at_ms = excluded.updated_at_ms",
                    &[name.as_str().into(), config.to_string().into(), now_ms.into()],
                )?;
            }
            DirectoryChange::Unregister { name } => {
                self.storage
                    .execute("DELETE FROM source_directory WHERE name = ?", &[name.as_str().into()])?;
            }
        }
        Ok(ApiResponse::no_content())
    }

    /// `GET /v1/sources?after=&limit=` → `{sources: [{name, config, updatedAt}], nextAfter}`.
    pub fn list(&self, query: &str) -> Result<ApiResponse, StorageError> {
        let mut after = String::new();
        let mut limit = DEFAULT_READ_LIMIT;
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key {
                "after" => after = crate::route::decode_segment(value).unwrap_or_default(),
                "limit" => match value.parse::<u64>() {
                    Ok(n) if (1..=MAX_READ_LIMIT).contains(&n) => limit = n,
                    _ => {
                        return Ok(ApiError::new(
                            ErrorCode::InvalidQuery,
                            format!("limit must be 1 to {MAX_READ_LIMIT}"),
                        )
                        .into());
                    }
                },
                _ => {}
            }
        }
        let sql = "SELECT name, config, updated_at_ms FROM source_directory WHERE name > ? ORDER BY name LIMIT +?";
        let rows = self.storage.query(sql, &[after.into(), (limit + 1).into()])?;
        let mut sources = Vec::new();
        for row in &rows {
            let columns = Columns { query: sql, row };
            let config: Value = serde_json::from_str(&columns.text(1)?).unwrap_or(Value::Null);
            sources.push(json!({
                "name": columns.text(0)?,
                "config": config,
                "updatedAt": rfc3339_millis(columns.int(2)?),
            }));
        }
        let more = sources.len() > usize::try_from(limit).unwrap_or(usize::MAX);
        sources.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        let next_after = if more {
            sources.last().and_then(|last| last.get("name").cloned())
        } else {
            None
        };
        Ok(ApiResponse::json(
            200,
            &json!({"sources": sources, "nextAfter": next_after}),
        ))
    }
}
