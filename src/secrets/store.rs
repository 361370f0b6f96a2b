//! Project secrets in the project object (docs/design.md §9, §14): `PUT
//! /v1/secrets/{name}` `{value}`, `GET /v1/secrets` (names, versions and
//! when each was written — never a value), `DELETE /v1/secrets/{name}`,
//! and the internal resolution a stream makes at send time. A changed value
//! bumps `version` (an identical PUT changes nothing, so retries are safe);
//! versions survive DELETE, so a name written again never reuses a version
//! a stream's cache holds.

use super::resolve::{Resolution, ResolveAnswer, ResolveRequest};
use super::{check_name, NameError};
use crate::api::ApiResponse;
use crate::error::{details, ApiError, ApiFailure, ErrorCode};
use crate::limits::{MAX_RESOLVED_SECRETS, MAX_SECRETS_PER_PROJECT, MAX_SECRET_VALUE_BYTES};
use crate::records::secret_row::{self, SecretRow, SecretSummary};
use crate::schema::{migrate_with, PROJECT_MIGRATIONS};
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error(transparent)]
    Name(#[from] NameError),
    #[error("body is not valid JSON: {0}")]
    Malformed(String),
    #[error("'{field}' {problem}")]
    Invalid { field: &'static str, problem: String },
    #[error("no secret named '{0}'")]
    NotFound(String),
    #[error(
        "a project may hold at most {MAX_SECRETS_PER_PROJECT} secrets; delete one (DELETE /v1/secrets/{{name}}) first"
    )]
    TooMany,
    #[error("resolution request is malformed: {0}")]
    Request(String),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ApiFailure for SecretError {
    fn error_code(&self) -> ErrorCode {
        match self {
            SecretError::Name(error) => error.error_code(),
            SecretError::Malformed(_) => ErrorCode::MalformedJson,
            SecretError::Invalid { .. } => ErrorCode::InvalidSecret,
            SecretError::NotFound(_) => ErrorCode::SecretNotFound,
            SecretError::TooMany => ErrorCode::TooManySecrets,
            SecretError::Request(_) => ErrorCode::InvalidRequest,
            SecretError::Storage(_) => ErrorCode::Internal,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            SecretError::Invalid { field, .. } => details([("field", json!(field))]),
            SecretError::NotFound(name) => details([("name", json!(name))]),
            SecretError::TooMany => details([("limit", json!(MAX_SECRETS_PER_PROJECT))]),
            _ => Map::new(),
        }
    }
}

const SELECT_ONE: &str = "SELECT name, version, value, updated_at_ms FROM secrets WHERE name = ?";
const SELECT_SUMMARIES: &str = "SELECT name, version, updated_at_ms FROM secrets ORDER BY name LIMIT +?";
const SELECT_LAST_VERSION: &str = "SELECT last_version FROM secret_versions WHERE name = ?";
const COUNT: &str = "SELECT COUNT(*) FROM secrets";

/// The value of a `PUT` body `{"value": "..."}`: 1 to
/// [`MAX_SECRET_VALUE_BYTES`] bytes of one line of text (a URL or a header
/// value; no control characters).
fn parse_value(body: &[u8]) -> Result<String, SecretError> {
    let value: Value = serde_json::from_slice(body).map_err(|error| SecretError::Malformed(error.to_string()))?;
    let fields = value.as_object().ok_or(SecretError::Invalid {
        field: "value",
        problem: "is required: the body is {\"value\": \"...\"}".to_owned(),
    })?;
    if let Some(unknown) = fields.keys().find(|name| name.as_str() != "value") {
        return Err(SecretError::Invalid {
            field: "value",
            problem: format!("is the only field of the body; '{unknown}' is not known here"),
        });
    }
    let invalid = |problem: String| SecretError::Invalid {
        field: "value",
        problem,
    };
    let text = fields
        .get("value")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("is required and must be a string".to_owned()))?;
    if text.is_empty() || text.len() > MAX_SECRET_VALUE_BYTES {
        return Err(invalid(format!("must be 1-{MAX_SECRET_VALUE_BYTES} bytes")));
    }
    if text.chars().any(char::is_control) {
        return Err(invalid(
            "must be one line of text without control characters (it is sent as a URL or a header value)".to_owned(),
        ));
    }
    Ok(text.to_owned())
}

pub struct SecretStore<S: Storage> {
    storage: S,
}

impl<S: Storage> SecretStore<S> {
    pub fn open(storage: S) -> Result<Self, StorageError> {
        migrate_with(&storage, PROJECT_MIGRATIONS)?;
        Ok(SecretStore { storage })
    }

    fn row(&self, name: &str) -> Result<Option<SecretRow>, StorageError> {
        query_optional(&self.storage, SELECT_ONE, &[name.into()])?
            .map(|row| SecretRow::decode(SELECT_ONE, &row))
            .transpose()
    }

    fn count_of(&self, sql: &str, params: &[SqlValue]) -> Result<u64, StorageError> {
        Ok(match query_optional(&self.storage, sql, params)? {
            Some(row) => Columns { query: sql, row: &row }.int(0)?.max(0) as u64,
            None => 0,
        })
    }

    /// `GET /v1/secrets` (§9): every secret's name, version and `updatedAt`,
    /// in name order (at most [`MAX_SECRETS_PER_PROJECT`]: one page).
    pub fn list(&self) -> Result<Vec<SecretSummary>, SecretError> {
        let rows = self
            .storage
            .query(SELECT_SUMMARIES, &[(MAX_SECRETS_PER_PROJECT as u64).into()])?;
        Ok(rows
            .iter()
            .map(|row| SecretSummary::decode(SELECT_SUMMARIES, row))
            .collect::<Result<_, _>>()?)
    }

    /// Writes `name`: a changed value is a new version.
    pub fn put(&self, name: &str, body: &[u8], now_ms: i64) -> Result<SecretSummary, SecretError> {
        check_name(name)?;
        let value = parse_value(body)?;
        let existing = self.row(name)?;
        if let Some(existing) = existing.as_ref().filter(|existing| existing.value == value) {
            return Ok(existing.summary());
        }
        if existing.is_none() && self.count_of(COUNT, &[])? >= MAX_SECRETS_PER_PROJECT as u64 {
            return Err(SecretError::TooMany);
        }
        let row = SecretRow {
            name: name.to_owned(),
            version: self.count_of(SELECT_LAST_VERSION, &[name.into()])? + 1,
            value,
            updated_at_ms: now_ms,
        };
        self.storage.atomically(&mut || {
            self.storage.execute(secret_row::UPSERT, &row.encode())?;
            self.storage.execute(
                "INSERT INTO secret_versions (name, last_version) VALUES (?, ?) \
                 ON CONFLICT (name) DO UPDATE SET last_version = excluded.last_version",
                &[name.into(), row.version.into()],
            )
        })?;
        Ok(row.summary())
    }

    pub fn delete(&self, name: &str) -> Result<(), SecretError> {
        check_name(name)?;
        if self.row(name)?.is_none() {
            return Err(SecretError::NotFound(name.to_owned()));
        }
        self.storage
            .execute("DELETE FROM secrets WHERE name = ?", &[name.into()])?;
        Ok(())
    }

    /// The internal resolution (§9): each asked name's current version, and
    /// its value when the asker holds another version; `null` for a name
    /// the project does not hold.
    pub fn resolve(&self, request: &ResolveRequest) -> Result<ResolveAnswer, SecretError> {
        if request.names.len() > MAX_RESOLVED_SECRETS {
            return Err(SecretError::Request(format!("at most {MAX_RESOLVED_SECRETS} names")));
        }
        let mut secrets = BTreeMap::new();
        for (name, held) in &request.names {
            let resolution = match check_name(name) {
                Ok(()) => self.row(name)?.map(|row| Resolution {
                    version: row.version,
                    value: (*held != Some(row.version)).then_some(row.value),
                }),
                Err(_) => None,
            };
            secrets.insert(name.clone(), resolution);
        }
        Ok(ResolveAnswer { secrets })
    }

    /// The public routes (§9), without HTTP: `name` is `None` for the list.
    pub fn handle(&self, method: &str, name: Option<&str>, body: &[u8], now_ms: i64) -> ApiResponse {
        let result = match (method, name) {
            ("GET", None) => self.list().map(|secrets| {
                let secrets: Vec<Value> = secrets.iter().map(SecretSummary::to_json).collect();
                ApiResponse::json(200, &json!({ "secrets": secrets }))
            }),
            ("PUT", Some(name)) => self
                .put(name, body, now_ms)
                .map(|summary| ApiResponse::json(200, &summary.to_json())),
            ("DELETE", Some(name)) => self.delete(name).map(|()| ApiResponse::no_content()),
            (_, None) => {
                return ApiError::new(
                    ErrorCode::MethodNotAllowed,
                    "GET /v1/secrets lists the project's secrets",
                )
                .into()
            }
            (_, Some(_)) => {
                return ApiError::new(
                    ErrorCode::MethodNotAllowed,
                    "a secret is write-only: PUT writes it, DELETE removes it; GET /v1/secrets lists names",
                )
                .into()
            }
        };
        result.unwrap_or_else(|error| ApiError::from(error).into())
    }

    /// `POST /internal/secrets/resolve`, without HTTP.
    pub fn handle_resolve(&self, body: &[u8]) -> ApiResponse {
        let answer = serde_json::from_slice::<ResolveRequest>(body)
            .map_err(|error| SecretError::Request(error.to_string()))
            .and_then(|request| self.resolve(&request));
        match answer {
            Ok(answer) => ApiResponse::json(200, &answer),
            Err(error) => ApiError::from(error).into(),
        }
    }
}
