//! Processor definitions in the project object (DESIGN.md §9, §14):
//! `PUT|GET|DELETE /v1/processors/{name}` and `GET /v1/processors`.
//! A changed definition bumps `version` (an identical PUT changes nothing,
//! so retries are safe); versions survive DELETE, so a name defined again
//! continues from the next version and every instance refolds.

use super::definition::{check_name, Definition, DefinitionBody, DefinitionError};
use crate::api::ApiResponse;
use crate::error::{details, ApiError, ApiFailure};
use crate::limits::MAX_PROCESSORS_PER_PROJECT;
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
    #[error("a project may define at most {MAX_PROCESSORS_PER_PROJECT} processors")]
    TooMany,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ApiFailure for ProcessorError {
    fn status(&self) -> u16 {
        match self {
            ProcessorError::Definition(error) => error.status(),
            ProcessorError::NotFound(_) => 404,
            ProcessorError::TooMany => 422,
            ProcessorError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            ProcessorError::Definition(error) => error.code(),
            ProcessorError::NotFound(_) => "processor_not_found",
            ProcessorError::TooMany => "too_many_processors",
            ProcessorError::Storage(_) => "internal",
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            ProcessorError::Definition(error) => error.details(),
            ProcessorError::NotFound(name) => details([("name", json!(name))]),
            _ => Map::new(),
        }
    }
}

/// Row of `processors`: one definition, as JSON (`Definition`).
const SELECT_ONE: &str = "SELECT definition FROM processors WHERE name = ?";
const SELECT_ALL: &str = "SELECT definition FROM processors ORDER BY name LIMIT ?";

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

    pub fn list(&self) -> Result<Vec<Definition>, ProcessorError> {
        let rows = self
            .storage
            .query(SELECT_ALL, &[(MAX_PROCESSORS_PER_PROJECT as u64).into()])?;
        Ok(rows
            .iter()
            .map(|row| decode(SELECT_ALL, row))
            .collect::<Result<Vec<_>, _>>()?)
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
        if existing.is_none() && self.list()?.len() >= MAX_PROCESSORS_PER_PROJECT {
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

    /// The public routes (§9), without HTTP: `name` is `None` for the list.
    pub fn handle(&self, method: &str, name: Option<&str>, body: &[u8], now_ms: i64) -> ApiResponse {
        let result = match (method, name) {
            ("GET", None) => self.list().map(|all| {
                let summaries: Vec<Value> = all
                    .iter()
                    .map(|definition| {
                        json!({"name": definition.name, "version": definition.version, "kind": definition.body.kind,
                            "description": definition.body.description, "definedAt": definition.defined_at})
                    })
                    .collect();
                ApiResponse::json(200, &json!({ "processors": summaries }))
            }),
            ("GET", Some(name)) => self.get(name).map(|definition| ApiResponse::json(200, &definition)),
            ("PUT", Some(name)) => self
                .put(name, body, now_ms)
                .map(|(definition, _)| ApiResponse::json(200, &definition)),
            ("DELETE", Some(name)) => self.delete(name).map(|()| ApiResponse::no_content()),
            (_, None) => return ApiError::new(405, "method_not_allowed", "this route accepts GET").into(),
            (_, Some(_)) => {
                return ApiError::new(405, "method_not_allowed", "this route accepts GET, PUT, DELETE").into()
            }
        };
        result.unwrap_or_else(|error| ApiError::from(error).into())
    }
}
