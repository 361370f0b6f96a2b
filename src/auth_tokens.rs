//! Bearer tokens (docs/design.md §2), without HTTP: `API_TOKENS` parsed into a
//! token → [`Grant`] table, the token a request presents, and a
//! constant-time lookup. The shell reads the secret and the headers; every
//! decision is here, natively tested. What each route needs of a grant is
//! `route::scope`.
//!
//! - A missing or malformed `API_TOKENS` is an error the shell logs loudly
//!   and answers every request with 500 `misconfigured` — never a silent
//!   empty table that makes everyone 401.
//! - An empty token never matches: not an empty `Authorization: Bearer `,
//!   not a bare `bearer.` WebSocket subprotocol, not an empty key in the
//!   table.
//! - A value is a project id (every scope, anywhere in the project) or a
//!   scoped grant `{"project", "scopes", "prefix"?}` (§2 Scopes). A scoped
//!   value with an unknown field, an unknown scope or a prefix that is not a
//!   path prefix is malformed, so a token meant to be narrow is never granted
//!   more than it says.

use crate::error::{ApiError, ErrorCode};
use crate::limits::{MAX_API_TOKENS, MAX_PATH_BYTES};
use serde_json::{json, Map, Value};

#[derive(Debug, Clone, thiserror::Error, PartialEq)]
pub enum TokensError {
    #[error("API_TOKENS is not set")]
    Missing,
    #[error("API_TOKENS is not valid JSON: {0}")]
    NotJson(String),
    #[error("API_TOKENS must be a JSON object of token → projectId or {{\"project\", \"scopes\", \"prefix\"?}}")]
    NotAnObject,
    #[error("API_TOKENS has more than {MAX_API_TOKENS} tokens")]
    TooMany,
    #[error("API_TOKENS entry {index}: the project id must be a non-empty string")]
    BadProject { index: usize },
    #[error("API_TOKENS entry {index}: {problem}")]
    BadGrant { index: usize, problem: String },
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

/// What a token may do (§2 Scopes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Reads, stream info, live tails and long-poll, the catalog, debug
    /// cards, metrics, processor state, source status, dead-letter lists.
    Read,
    /// Data events (any type outside `events.iterate.com/stream/`).
    Append,
    /// Control events, subscribe-from, DELETE, dead-letter replay and
    /// discard, signing secrets, processor and source definitions.
    Manage,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Read, Scope::Append, Scope::Manage];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Append => "append",
            Scope::Manage => "manage",
        }
    }

    pub fn parse(name: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|scope| scope.as_str() == name)
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one configured token grants: its project, its scopes, and the path
/// prefix its stream routes are limited to (`None`: the whole project).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    project: String,
    scopes: Vec<Scope>,
    prefix: Option<String>,
}

impl Grant {
    /// A project-id value: every scope, the whole project.
    pub fn full(project: impl Into<String>) -> Grant {
        Grant {
            project: project.into(),
            scopes: Scope::ALL.to_vec(),
            prefix: None,
        }
    }

    /// A scoped grant, as a checked `API_TOKENS` value would make it.
    pub fn scoped(project: &str, scopes: &[Scope], prefix: Option<&str>) -> Result<Grant, String> {
        let mut scopes = scopes.to_vec();
        scopes.sort();
        scopes.dedup();
        if scopes.is_empty() {
            return Err("'scopes' must name at least one of read, append, manage".to_owned());
        }
        let prefix = prefix.map(check_prefix).transpose()?.flatten();
        Ok(Grant {
            project: project.to_owned(),
            scopes,
            prefix,
        })
    }

    pub fn project(&self) -> &str {
        &self.project
    }

    pub fn has(&self, scope: Scope) -> bool {
        self.scopes.contains(&scope)
    }

    pub fn scopes(&self) -> &[Scope] {
        &self.scopes
    }

    /// The path prefix (always starting and ending with `/`), if any.
    pub fn prefix(&self) -> Option<&str> {
        self.prefix.as_deref()
    }

    /// Whether a stream path lies under the prefix. A prefix ends with `/`,
    /// so it matches on segment boundaries: `/app/` covers `/app/orders`,
    /// not `/apple` nor `/app` itself.
    pub fn covers(&self, path: &str) -> bool {
        covers(self.prefix(), path)
    }

    /// `GET /v1/token`: what the console may show.
    pub fn to_json(&self) -> Value {
        let scopes: Vec<&str> = self.scopes.iter().map(|scope| scope.as_str()).collect();
        json!({"project": self.project, "scopes": scopes, "prefix": self.prefix})
    }
}

/// Whether `prefix` (a grant's, `None`: the whole project) covers the
/// stream `path`: on segment boundaries, as [`Grant::covers`] says.
pub fn covers(prefix: Option<&str>, path: &str) -> bool {
    prefix.is_none_or(|prefix| path.starts_with(prefix))
}

/// A `prefix`: `/`, then path segments each followed by `/` (§2 path
/// rules), at most [`MAX_PATH_BYTES`]. `/` alone is the whole project.
fn check_prefix(prefix: &str) -> Result<Option<String>, String> {
    if prefix.len() > MAX_PATH_BYTES {
        return Err(format!(
            "'prefix' is {} bytes; the limit is {MAX_PATH_BYTES}",
            prefix.len()
        ));
    }
    if prefix == "/" {
        return Ok(None);
    }
    let Some(path) = prefix.strip_suffix('/').filter(|_| prefix.starts_with('/')) else {
        return Err("'prefix' must start and end with '/', like \"/app/\"".to_owned());
    };
    crate::path::StreamPath::parse(path).map_err(|error| format!("'prefix' is not a path prefix: {error}"))?;
    Ok(Some(prefix.to_owned()))
}

/// A scoped value `{"project", "scopes", "prefix"?}`; any other field is
/// malformed (a misspelt `prefix` must not grant the whole project).
fn parse_grant(value: &Map<String, Value>) -> Result<Grant, String> {
    if let Some(unknown) = value
        .keys()
        .find(|key| !matches!(key.as_str(), "project" | "scopes" | "prefix"))
    {
        return Err(format!(
            "unknown field '{}' (expected project, scopes, prefix)",
            crate::text::name_excerpt(unknown)
        ));
    }
    let project = match value.get("project") {
        Some(Value::String(project)) if !project.is_empty() => project,
        _ => return Err("'project' must be a non-empty string".to_owned()),
    };
    let Some(Value::Array(names)) = value.get("scopes") else {
        return Err("'scopes' must be an array of read, append, manage".to_owned());
    };
    let mut scopes = Vec::with_capacity(Scope::ALL.len());
    for name in names {
        let scope = name.as_str().and_then(Scope::parse);
        match scope {
            Some(scope) => scopes.push(scope),
            None => return Err("'scopes' may hold only \"read\", \"append\" and \"manage\"".to_owned()),
        }
    }
    let prefix = match value.get("prefix") {
        None => None,
        Some(Value::String(prefix)) => Some(prefix.as_str()),
        Some(_) => return Err("'prefix' must be a string".to_owned()),
    };
    Grant::scoped(project, &scopes, prefix)
}

/// The configured token → grant table.
#[derive(Debug, Clone, PartialEq)]
pub struct Tokens {
    entries: Vec<(String, Grant)>,
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
    for (index, (token, value)) in table.into_iter().enumerate() {
        let grant = match value {
            Value::String(project) if !project.is_empty() => Grant::full(project),
            Value::Object(scoped) => {
                parse_grant(&scoped).map_err(|problem| TokensError::BadGrant { index, problem })?
            }
            _ => return Err(TokensError::BadProject { index }),
        };
        entries.push((token, grant));
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
    /// The grant of a presented token. Every configured token is compared,
    /// whether or not one matched already; an empty token never matches.
    pub fn grant_for(&self, presented: &str) -> Option<&Grant> {
        if presented.is_empty() {
            return None;
        }
        let mut found = None;
        for (token, grant) in &self.entries {
            if !token.is_empty() && constant_time_eq(token.as_bytes(), presented.as_bytes()) {
                found = Some(grant);
            }
        }
        found
    }

    /// The project of a presented token (see [`Tokens::grant_for`]).
    pub fn project_for(&self, presented: &str) -> Option<&str> {
        self.grant_for(presented).map(Grant::project)
    }

    /// Each configured token's §10 hash → its grant: what re-authenticates
    /// a live connection, whose record keeps only the hash. Empty tokens are
    /// left out (they never match).
    pub fn grants_by_hash(&self) -> std::collections::BTreeMap<String, Grant> {
        self.entries
            .iter()
            .filter(|(token, _)| !token.is_empty())
            .map(|(token, grant)| (token_hash(token), grant.clone()))
            .collect()
    }
}

/// What a live connection's record keeps of its bearer token (§10): the
/// first 16 bytes of its BLAKE3 hash, in hex (32 characters of the
/// attachment's 2 KiB). Re-authentication compares hashes, never tokens.
pub fn token_hash(token: &str) -> String {
    let digest = blake3::hash(token.as_bytes());
    digest
        .as_bytes()
        .iter()
        .take(16)
        .map(|byte| format!("{byte:02x}"))
        .collect()
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

/// The grant of `DS_ANONYMOUS_GRANT` (§17 "Auth"): one value in the
/// `API_TOKENS` syntax — a project id (bare or as a JSON string) or a
/// scoped grant object — for protocol requests without `Authorization`.
pub fn anonymous_grant(setting: &str) -> Result<Grant, TokensError> {
    let trimmed = setting.trim();
    let value: Value = serde_json::from_str(trimmed).unwrap_or_else(|_| Value::String(trimmed.to_owned()));
    let table = serde_json::json!({ "anonymous": value }).to_string();
    let tokens = parse(Some(&table))?;
    tokens.grant_for("anonymous").cloned().ok_or(TokensError::NotAnObject)
}
