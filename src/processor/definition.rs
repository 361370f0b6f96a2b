//! A processor definition (docs/design.md §9): `PUT /v1/processors/{name}` with
//! `{kind: "jsonata-reducer", initialState, reducer, description?}`,
//! validated and compiled when written (422 naming the field).

use crate::error::{details, ApiFailure, ErrorCode};
use crate::jsonata::{self, JsonataError};
use crate::limits::{
    MAX_PROCESSOR_DEFINITION_BODY_BYTES, MAX_PROCESSOR_DESCRIPTION_BYTES, MAX_PROCESSOR_NAME_BYTES,
    MAX_PROCESSOR_STATE_BYTES,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DefinitionError {
    #[error("processor name must be 1-{MAX_PROCESSOR_NAME_BYTES} characters of [A-Za-z0-9._-], not '.' or '..'")]
    Name,
    #[error("body is not valid JSON: {0}")]
    Malformed(String),
    #[error("'{field}' {problem}")]
    Invalid { field: &'static str, problem: String },
    #[error("'reducer' is not valid JSONata: {0}")]
    Jsonata(JsonataError),
}

impl ApiFailure for DefinitionError {
    fn error_code(&self) -> ErrorCode {
        match self {
            DefinitionError::Name => ErrorCode::InvalidProcessorName,
            DefinitionError::Malformed(_) => ErrorCode::MalformedJson,
            DefinitionError::Invalid { .. } => ErrorCode::InvalidProcessor,
            DefinitionError::Jsonata(_) => ErrorCode::InvalidJsonata,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            DefinitionError::Invalid { field, .. } => details([("field", json!(field))]),
            DefinitionError::Jsonata(error) => {
                details([("field", json!("reducer")), ("jsonataCode", json!(error.code()))])
            }
            _ => Map::new(),
        }
    }
}

/// What a definition says, as validated (the stored and returned shape
/// adds `name`, `version` and `definedAt`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DefinitionBody {
    pub kind: String,
    pub initial_state: Value,
    pub reducer: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A stored definition (§9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Definition {
    pub name: String,
    pub version: u64,
    #[serde(flatten)]
    pub body: DefinitionBody,
    pub defined_at: String,
}

/// The processor a `processor-wake` expression names: `["processors", NAME, "wake"]`.
pub fn name_of(expression: &Value) -> Option<&str> {
    match expression.as_array().map(Vec::as_slice) {
        Some([first, name, last]) if first == "processors" && last == "wake" => name.as_str(),
        _ => None,
    }
}

/// A processor name: what `["processors", NAME, "wake"]` names.
pub fn check_name(name: &str) -> Result<(), DefinitionError> {
    let valid = name != "." && name != ".." && crate::text::is_plain_name(name, MAX_PROCESSOR_NAME_BYTES);
    if valid {
        Ok(())
    } else {
        Err(DefinitionError::Name)
    }
}

fn invalid(field: &'static str, problem: impl Into<String>) -> DefinitionError {
    DefinitionError::Invalid {
        field,
        problem: problem.into(),
    }
}

impl DefinitionBody {
    /// Parses and validates a PUT body: the reducer compiles, is
    /// deterministic, and the initial state fits the state budget.
    pub fn parse(body: &[u8]) -> Result<DefinitionBody, DefinitionError> {
        if body.len() > MAX_PROCESSOR_DEFINITION_BODY_BYTES {
            return Err(invalid(
                "initialState",
                format!("must be at most {MAX_PROCESSOR_STATE_BYTES} bytes"),
            ));
        }
        if crate::json_limits::raw_depth(body) > crate::limits::MAX_EVENT_DEPTH + 1 {
            return Err(invalid("initialState", "nests too deeply"));
        }
        let value: Value =
            serde_json::from_slice(body).map_err(|error| DefinitionError::Malformed(error.to_string()))?;
        let fields = value.as_object().ok_or_else(|| invalid("body", "must be an object"))?;
        if let Some(unknown) = fields
            .keys()
            .find(|name| !["kind", "initialState", "reducer", "description"].contains(&name.as_str()))
        {
            return Err(DefinitionError::Invalid {
                field: "body",
                problem: format!("has unknown field '{}'", crate::text::name_excerpt(unknown)),
            });
        }
        match fields.get("kind").and_then(Value::as_str) {
            Some("jsonata-reducer") => {}
            _ => return Err(invalid("kind", "must be \"jsonata-reducer\"")),
        }
        let initial_state = fields
            .get("initialState")
            .cloned()
            .ok_or_else(|| invalid("initialState", "is required (any JSON value)"))?;
        let state_bytes = serde_json::to_vec(&initial_state).map_or(usize::MAX, |bytes| bytes.len());
        if state_bytes > MAX_PROCESSOR_STATE_BYTES {
            return Err(invalid(
                "initialState",
                format!("must be at most {MAX_PROCESSOR_STATE_BYTES} bytes"),
            ));
        }
        let reducer = fields
            .get("reducer")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("reducer", "is required and must be a string"))?
            .to_owned();
        let compiled = jsonata::compile(&reducer).map_err(DefinitionError::Jsonata)?;
        if let Some(function) = compiled.calls_nondeterministic() {
            return Err(invalid(
                "reducer",
                format!("calls {function}(), which differs between runs; a reducer must be deterministic"),
            ));
        }
        let description = match fields.get("description") {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) if text.len() <= MAX_PROCESSOR_DESCRIPTION_BYTES => Some(text.clone()),
            Some(_) => {
                return Err(invalid(
                    "description",
                    format!("must be a string of at most {MAX_PROCESSOR_DESCRIPTION_BYTES} bytes"),
                ))
            }
        };
        Ok(DefinitionBody {
            kind: "jsonata-reducer".to_owned(),
            initial_state,
            reducer,
            description,
        })
    }
}
