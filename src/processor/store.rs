//! Processor definitions in the project object (docs/design.md §9, §14):
//! `PUT|GET|DELETE /v1/processors/{name}` and `GET /v1/processors`.
//! A changed definition bumps `version` (an identical PUT changes nothing,
//! so retries are safe); versions survive DELETE, so a name defined again
//! continues from the next version and every instance refolds.

use super::definition::{check_name, Definition, DefinitionBody, DefinitionError};
use crate::api::ApiResponse;
use crate::error::{details, ApiError, ApiFailure, ErrorCode};
use crate::limits::{DEFAULT_PROCESSOR_PAGE, MAX_PROCESSORS_PER_PROJECT, MAX_PROCESSOR_NAME_BYTES, MAX_PROCESSOR_PAGE};
use crate::schema::{migrate_with, PROJECT_MIGRATIONS};
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};
use crate::time::rfc3339_millis;
use serde_json::{json, Map, Value};

#[derive(Debug, thiserror::Error)]
pub enum ProcessorError {
    #[error(transparent)]
    Definition(#[from] DefinitionError),
    #[error("no processor named '{0}'")]
    NotFound(String),
    #[error("a project may define at most {MAX_PROCESSORS_PER_PROJECT} processors; delete one (DELETE /v1/processors/{{name}}) first")]
    TooMany,
    #[error("query parameter '{name}' {problem}")]
    InvalidParameter { name: &'static str, problem: String },
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ApiFailure for ProcessorError {
    fn error_code(&self) -> ErrorCode {
        match self {
            ProcessorError::Definition(error) => error.error_code(),
            ProcessorError::NotFound(_) => ErrorCode::ProcessorNotFound,
            ProcessorError::TooMany => ErrorCode::TooManyProcessors,
            ProcessorError::InvalidParameter { .. } => ErrorCode::InvalidParameter,
            ProcessorError::Storage(_) => ErrorCode::Internal,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            ProcessorError::Definition(error) => error.details(),
            ProcessorError::NotFound(name) => details([("name", json!(name))]),
            ProcessorError::TooMany => details([("limit", json!(MAX_PROCESSORS_PER_PROJECT))]),
            ProcessorError::InvalidParameter { name, .. } => details([("parameter", json!(name))]),
            _ => Map::new(),
        }
    }
}

/// Row of `processors`: one definition, as JSON (`Definition`).
const SELECT_ONE: &str = "SELECT definition FROM processors WHERE name = ?";
/// One page of summaries, in name order: SQLite reads the two summary
/// fields out of each definition, so no body (up to ~272 KiB each) is
/// decoded in the object or crosses into it.
const SELECT_PAGE: &str = "SELECT name, version, json_extract(definition, '$.kind'), \
     json_extract(definition, '$.description'), defined_at_ms FROM processors WHERE name > ? ORDER BY name LIMIT +?";

/// `?after=&limit=` of `GET /v1/processors` (§9), like `GET /v1/streams`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessorQuery {
    pub after: String,
    pub limit: u64,
}

impl ProcessorQuery {
    pub fn parse(query: &str) -> Result<Self, ProcessorError> {
        let mut parsed = ProcessorQuery {
            after: String::new(),
            limit: DEFAULT_PROCESSOR_PAGE,
        };
        let invalid = |name: &'static str, problem: &str| ProcessorError::InvalidParameter {
            name,
            problem: problem.to_owned(),
        };
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            match name {
                "after" => {
                    parsed.after = crate::route::decode_segment(value)
                        .or_else(|| value.is_empty().then(String::new))
                        .filter(|after| after.len() <= MAX_PROCESSOR_NAME_BYTES)
                        .ok_or_else(|| invalid("after", "must be a processor name"))?
                }
                "limit" => {
                    parsed.limit = value
                        .parse::<u64>()
                        .ok()
                        .filter(|limit| (1..=MAX_PROCESSOR_PAGE).contains(limit))
                        .ok_or_else(|| invalid("limit", &format!("must be between 1 and {MAX_PROCESSOR_PAGE}")))?
                }
                _ => return Err(invalid("query", "has an unknown parameter")),
            }
        }
        Ok(parsed)
    }
}

pub struct ProcessorStore<S: Storage> {
    storage: S,
}

fn decode(sql: &str, row: &[SqlValue]) -> Result<Definition, StorageError> {
    let text = Columns { query: sql, row }.text(0)?;
    serde_json::from_str(&text).map_err(|_| StorageError::Decode {
        query: sql.to_owned(),
        column: 0,
    })
}

impl<S: Storage> ProcessorStore<S> {
    pub fn open(storage: S) -> Result<Self, StorageError> {
        migrate_with(&storage, PROJECT_MIGRATIONS)?;
        Ok(ProcessorStore { storage })
    }

    pub fn get(&self, name: &str) -> Result<Definition, ProcessorError> {
        check_name(name)?;
        let row = query_optional(&self.storage, SELECT_ONE, &[name.into()])?;
        match row {
            Some(row) => Ok(decode(SELECT_ONE, &row)?),
            None => Err(ProcessorError::NotFound(name.to_owned())),
        }
    }

    /// `GET /v1/processors` (§9): one page of summaries `{name, version,
    /// kind, description, definedAt}` in name order, and `nextAfter` (the
    /// last name of a full page, else `null`).
    pub fn list(&self, query: &ProcessorQuery) -> Result<Value, ProcessorError> {
        let rows = self
            .storage
            .query(SELECT_PAGE, &[query.after.as_str().into(), query.limit.into()])?;
        let mut summaries = Vec::new();
        for row in &rows {
            let columns = Columns {
                query: SELECT_PAGE,
                row,
            };
            summaries.push(json!({
                "name": columns.text(0)?,
                "version": columns.int(1)?.max(0),
                "kind": columns.opt_text(2)?,
                "description": columns.opt_text(3)?,
                "definedAt": rfc3339_millis(columns.int(4)?),
            }));
        }
        let next_after = (rows.len() as u64 == query.limit)
            .then(|| summaries.last().and_then(|last| last.get("name").cloned()))
            .flatten();
        Ok(json!({ "processors": summaries, "nextAfter": next_after }))
    }

    /// How many definitions the project holds (counted in SQL, §12).
    pub fn count(&self) -> Result<u64, ProcessorError> {
        let sql = "SELECT COUNT(*) FROM processors";
        Ok(match query_optional(&self.storage, sql, &[])? {
            Some(row) => Columns { query: sql, row: &row }.int(0)?.max(0) as u64,
            None => 0,
        })
    }

    /// Defines or redefines `name`. Returns the definition and whether it
    /// changed (a new version).
    pub fn put(&self, name: &str, body: &[u8], now_ms: i64) -> Result<(Definition, bool), ProcessorError> {
        check_name(name)?;
        let body = DefinitionBody::parse(body)?;
        let existing = match self.get(name) {
            Ok(existing) => Some(existing),
            Err(ProcessorError::NotFound(_)) => None,
            Err(error) => return Err(error),
        };
        if let Some(existing) = existing.as_ref().filter(|existing| existing.body == body) {
            return Ok((existing.clone(), false));
        }
        if existing.is_none() && self.count()? >= MAX_PROCESSORS_PER_PROJECT as u64 {
            return Err(ProcessorError::TooMany);
        }
        let last = "SELECT last_version FROM processor_versions WHERE name = ?";
        let last_version = match query_optional(&self.storage, last, &[name.into()])? {
            Some(row) => Columns { query: last, row: &row }.int(0)?.max(0) as u64,
            None => 0,
        };
        let definition = Definition {
            name: name.to_owned(),
            version: last_version + 1,
            body,
            defined_at: rfc3339_millis(now_ms),
        };
        let json = serde_json::to_string(&definition).map_err(|error| StorageError::Sql(error.to_string()))?;
        self.storage.atomically(&mut || {
            self.storage.execute(
                "INSERT INTO processors (name, version, definition, defined_at_ms) VALUES (?, ?, ?, ?) \
                 ON CONFLICT (name) DO UPDATE SET version = excluded.version, definition = excluded.definition, \
                 defined_at_ms = excluded.defined_at_ms",
                &[
                    name.into(),
                    definition.version.into(),
                    json.as_str().into(),
                    SqlValue::Integer(now_ms),
                ],
            )?;
            self.storage.execute(
                "INSERT INTO processor_versions (name, last_version) VALUES (?, ?) \
                 ON CONFLICT (name) DO UPDATE SET last_version = excluded.last_version",
                &[name.into(), definition.version.into()],
            )
        })?;
        Ok((definition, true))
    }

    pub fn delete(&self, name: &str) -> Result<(), ProcessorError> {
        self.get(name)?;
        self.storage
            .execute("DELETE FROM processors WHERE name = ?", &[name.into()])?;
        Ok(())
    }

    /// The public routes (§9), without HTTP: `name` is `None` for the list
    /// (paged by `query`).
    pub fn handle(&self, method: &str, name: Option<&str>, query: &str, body: &[u8], now_ms: i64) -> ApiResponse {
        let result = match (method, name) {
            ("GET", None) => ProcessorQuery::parse(query)
                .and_then(|query| self.list(&query))
                .map(|page| ApiResponse::json(200, &page)),
            ("GET", Some(name)) => self.get(name).map(|definition| ApiResponse::json(200, &definition)),
            ("PUT", Some(name)) => self
                .put(name, body, now_ms)
                .map(|(definition, _)| ApiResponse::json(200, &definition)),
            ("DELETE", Some(name)) => self.delete(name).map(|()| ApiResponse::no_content()),
            (_, None) => return ApiError::new(ErrorCode::MethodNotAllowed, "this route accepts GET").into(),
            (_, Some(_)) => {
                return ApiError::new(ErrorCode::MethodNotAllowed, "this route accepts GET, PUT, DELETE").into()
            }
        };
        result.unwrap_or_else(|error| ApiError::from(error).into())
    }
}
