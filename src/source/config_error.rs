//! Why a source configuration is refused (docs/design.md §15, §15.1): the one
//! error every kind's validation answers with, and its §2 code. The lowest
//! file of a source's configuration: the ABI compiler, the kinds' parsers
//! and the run all speak it.

use crate::error::{details, ApiFailure, ErrorCode};
use crate::limits::{MAX_SOURCE_CONFIG_BYTES, MAX_SOURCE_NAME_BYTES};
use serde_json::{json, Map, Value};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("source name must be 1-{MAX_SOURCE_NAME_BYTES} characters of [A-Za-z0-9._-]")]
    Name,
    #[error("body is not valid JSON: {0}")]
    Malformed(String),
    #[error("the configuration is {0} bytes; the limit is {MAX_SOURCE_CONFIG_BYTES}")]
    TooLarge(usize),
    #[error("'{field}' {problem}")]
    Invalid { field: String, problem: String },
}

impl ApiFailure for ConfigError {
    fn error_code(&self) -> ErrorCode {
        match self {
            ConfigError::Name => ErrorCode::InvalidSourceName,
            ConfigError::Malformed(_) => ErrorCode::MalformedJson,
            ConfigError::TooLarge(_) => ErrorCode::SourceTooLarge,
            ConfigError::Invalid { .. } => ErrorCode::InvalidSource,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            ConfigError::Invalid { field, .. } => details([("field", json!(field))]),
            _ => Map::new(),
        }
    }
}

/// A 422 naming `field` and what is wrong with it.
pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        field: field.into(),
        problem: problem.into(),
    }
}
