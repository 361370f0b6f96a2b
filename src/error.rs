//! The JSON error body of DESIGN.md §2, and the trait every operation's error
//! enum implements to produce it. Each operation has its own `thiserror` enum
//! (next to the operation); this module only knows how to render them.

use serde::Serialize;
use serde_json::{Map, Value};

/// HTTP status, stable snake_case code, and optional details of one failure.
pub trait ApiFailure: std::fmt::Display {
    fn status(&self) -> u16;
    fn code(&self) -> &'static str;
    fn details(&self) -> Map<String, Value> {
        Map::new()
    }
}

/// `{"error": {"code", "message", "details"}}` (§2).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ErrorBody {
    pub error: ErrorFields,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ErrorFields {
    pub code: String,
    pub message: String,
    pub details: Map<String, Value>,
}

/// A rendered failure: what the shell sends back.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    pub body: ErrorBody,
}

impl ApiError {
    pub fn new(status: u16, code: &str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            body: ErrorBody {
                error: ErrorFields {
                    code: code.to_owned(),
                    message: message.into(),
                    details: Map::new(),
                },
            },
        }
    }

    pub fn code(&self) -> &str {
        &self.body.error.code
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.body).unwrap_or_else(|_| {
            r#"{"error":{"code":"internal","message":"error rendering failed","details":{}}}"#.to_owned()
        })
    }
}

impl<F: ApiFailure> From<F> for ApiError {
    fn from(failure: F) -> Self {
        ApiError {
            status: failure.status(),
            body: ErrorBody {
                error: ErrorFields {
                    code: failure.code().to_owned(),
                    message: failure.to_string(),
                    details: failure.details(),
                },
            },
        }
    }
}

/// Builds a details map from `(name, value)` pairs.
pub fn details<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}
