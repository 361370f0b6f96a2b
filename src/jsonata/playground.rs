//! `POST /v1/jsonata/evaluate` — try a filter or transform before configuring
//! it (and the route through which the JSONata conformance sample runs inside
//! workerd). Body `{expression, input?, bindings?}`; answers `{result}` (no
//! `result` key when JSONata's answer is undefined) or a 422 naming the
//! JSONata error code. Evaluation has the same bounds as a filter's (a
//! runaway expression answers `U1001`), but `$now()`, `$millis()`,
//! `$random()` and `$shuffle()`, refused in filters and transforms, are
//! allowed here.

use super::{compile, JsonataError};
use crate::api::ApiResponse;
use crate::error::{details, ApiError, ApiFailure, ErrorCode};
use serde_json::{json, Map, Value};

#[derive(Debug, thiserror::Error)]
pub enum PlaygroundError {
    #[error("body must be {{\"expression\": string, \"input\"?: any, \"bindings\"?: object}}: {0}")]
    BadRequest(String),
    #[error(transparent)]
    Jsonata(#[from] JsonataError),
}

impl ApiFailure for PlaygroundError {
    fn error_code(&self) -> ErrorCode {
        match self {
            PlaygroundError::BadRequest(_) => ErrorCode::InvalidRequest,
            PlaygroundError::Jsonata(JsonataError::TooLong(_)) => ErrorCode::JsonataTooLong,
            PlaygroundError::Jsonata(JsonataError::Syntax { .. }) => ErrorCode::JsonataSyntaxError,
            PlaygroundError::Jsonata(JsonataError::Evaluation { .. } | JsonataError::CallBudgetSpent) => {
                ErrorCode::JsonataEvaluationError
            }
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            PlaygroundError::Jsonata(error) => details([("jsonataCode", json!(error.code()))]),
            PlaygroundError::BadRequest(_) => Map::new(),
        }
    }
}

fn evaluate(body: &[u8]) -> Result<Value, PlaygroundError> {
    if body.len() > crate::limits::MAX_EVENT_BYTES {
        return Err(PlaygroundError::BadRequest("body over 256 KiB".to_owned()));
    }
    let request: Value = serde_json::from_slice(body).map_err(|e| PlaygroundError::BadRequest(e.to_string()))?;
    let expression = request
        .get("expression")
        .and_then(Value::as_str)
        .ok_or_else(|| PlaygroundError::BadRequest("'expression' must be a string".to_owned()))?;
    let bindings = match request.get("bindings") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(bindings)) => bindings.clone(),
        Some(_) => return Err(PlaygroundError::BadRequest("'bindings' must be an object".to_owned())),
    };
    let compiled = compile(expression)?;
    let result = compiled.evaluate_with_bindings(request.get("input"), &bindings)?;
    Ok(match result {
        Some(value) => json!({ "result": value }),
        None => json!({}),
    })
}

pub fn handle(body: &[u8]) -> ApiResponse {
    match evaluate(body) {
        Ok(value) => ApiResponse::json(200, &value),
        Err(error) => ApiError::from(error).into(),
    }
}
