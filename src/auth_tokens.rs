//! Bearer tokens (DESIGN.md §2), without HTTP: `API_TOKENS` parsed into a
//! token → project table, the token a request presents, and a constant-time
//! lookup. The shell reads the secret and the headers; every decision is
//! here, natively tested.
//!
//! - A missing or malformed `API_TOKENS` is an error the shell logs loudly
//!   and answers every request with 500 `misconfigured` — never a silent
//!   empty table that makes everyone 401.
//! - An empty token never matches: not an empty `Authorization: Bearer `,
//!   not a bare `bearer.` WebSocket subprotocol, not an empty key in the
//!   table.
//! - Values are project ids (strings). Scoped values (`{"project", "scopes",
//!   "prefix"?}`, §2 Scopes) are not understood yet and are refused as
//!   malformed, so a token meant to be narrow is never granted every scope.

use crate::error::{ApiError, ErrorCode};
use crate::limits::MAX_API_TOKENS;
use serde_json::Value;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TokensError {
    #[error("API_TOKENS is not set")]
    Missing,
    #[error("API_TOKENS is not valid JSON: {0}")]
    NotJson(String),
    #[error("API_TOKENS must be a JSON object of token → projectId")]
    NotAnObject,
    #[error("API_TOKENS has more than {MAX_API_TOKENS} tokens")]
    TooMany,
    #[error("API_TOKENS entry {index}: the project id must be a non-empty string (scoped token objects are not supported yet)")]
    BadProject { index: usize },
}

impl TokensError {
    /// The 500 every request gets while the table is malformed (§2). It
    /// names the problem, never a token.
    pub fn to_api_error(&self) -> ApiError {
        ApiError::new(
            ErrorCode::Misconfigured,
            format!("{self}; every request is refused until the deployment fixes it"),
        )
    }
}

/// The configured token → project table.
#[derive(Debug, Clone, PartialEq)]
pub struct Tokens {
    entries: Vec<(String, String)>,
}

/// Parses the `API_TOKENS` secret (`None` when it is not set).
pub fn parse(raw: Option<&str>) -> Result<Tokens, TokensError> {
    let raw = raw.ok_or(TokensError::Missing)?;
    let value: Value = serde_json::from_str(raw).map_err(|error| TokensError::NotJson(error.to_string()))?;
    let Value::Object(table) = value else {
        return Err(TokensError::NotAnObject);
    };
    if table.len() > MAX_API_TOKENS {
        return Err(TokensError::TooMany);
    }
    let mut entries = Vec::with_capacity(table.len());
    for (index, (token, project)) in table.into_iter().enumerate() {
        match project {
            Value::String(project) if !project.is_empty() => entries.push((token, project)),
            _ => return Err(TokensError::BadProject { index }),
        }
    }
    Ok(Tokens { entries })
}

/// Byte-wise comparison whose time depends only on the lengths.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Tokens {
    /// The project of a presented token. Every configured token is compared,
    /// whether or not one matched already; an empty token never matches.
    pub fn project_for(&self, presented: &str) -> Option<&str> {
        if presented.is_empty() {
            return None;
        }
        let mut found = None;
        for (token, project) in &self.entries {
            if !token.is_empty() && constant_time_eq(token.as_bytes(), presented.as_bytes()) {
                found = Some(project.as_str());
            }
        }
        found
    }

    /// Each configured token's §10 hash → its project: what re-authenticates
    /// a live connection, whose record keeps only the hash. Empty tokens are
    /// left out (they never match).
    pub fn projects_by_hash(&self) -> std::collections::BTreeMap<String, String> {
        self.entries
            .iter()
            .filter(|(token, _)| !token.is_empty())
            .map(|(token, project)| (crate::live::token_hash(token), project.clone()))
            .collect()
    }
}

/// The token a request presents: `Authorization: Bearer <token>`, or — for a
/// WebSocket, since browsers cannot set headers there — the first
/// `bearer.<token>` subprotocol (§10). An `Authorization` header that is not
/// a bearer, or an empty token in either place, presents nothing.
pub fn presented_token(authorization: Option<&str>, protocols: Option<&str>) -> Option<String> {
    if let Some(header) = authorization {
        let header = header.trim();
        let (scheme, token) = header.split_once(' ').unwrap_or((header, ""));
        if !scheme.eq_ignore_ascii_case("bearer") {
            return None;
        }
        let token = token.trim();
        return (!token.is_empty()).then(|| token.to_owned());
    }
    let token = protocols?
        .split(',')
        .find_map(|protocol| protocol.trim().strip_prefix("bearer."))?;
    (!token.is_empty()).then(|| token.to_owned())
}
