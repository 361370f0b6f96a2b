//! Bearer-token authentication (DESIGN.md §2). `API_TOKENS` is a JSON object
//! token → projectId; the project a request may touch is derived from its
//! token alone, so no token can name another project's streams.

use std::collections::BTreeMap;
use worker::{Env, Request};

/// Byte-wise comparison whose time depends only on the lengths.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn configured_tokens(env: &Env) -> BTreeMap<String, String> {
    let raw = env
        .secret("API_TOKENS")
        .map(|secret| secret.to_string())
        .or_else(|_| env.var("API_TOKENS").map(|var| var.to_string()))
        .unwrap_or_default();
    serde_json::from_str(&raw).unwrap_or_default()
}

/// The token a request presents: `Authorization: Bearer <token>`, or — for
/// a WebSocket, since browsers cannot set headers there — the subprotocol
/// `bearer.<token>` (§10).
fn presented_token(request: &Request) -> Option<String> {
    if let Some(header) = request.headers().get("authorization").ok().flatten() {
        return header.strip_prefix("Bearer ").map(|token| token.trim().to_owned());
    }
    let protocols = request.headers().get("sec-websocket-protocol").ok().flatten()?;
    let token = protocols
        .split(',')
        .find_map(|protocol| protocol.trim().strip_prefix("bearer.").map(str::to_owned));
    token
}

/// The project of the request's bearer token, or `None` (→ 401).
pub fn project_for(request: &Request, env: &Env) -> Option<String> {
    let presented = presented_token(request)?;
    let presented = presented.as_str();
    let mut found = None;
    // Every configured token is compared, whether or not one matched already.
    for (token, project) in configured_tokens(env) {
        if constant_time_eq(token.as_bytes(), presented.as_bytes()) {
            found = Some(project);
        }
    }
    found.filter(|project| !project.is_empty())
}

/// The §10 hash of the request's bearer token (what a live connection's
/// record keeps instead of the token), or `None` without a token.
pub fn presented_token_hash(request: &Request) -> Option<String> {
    presented_token(request)
        .filter(|token| !token.is_empty())
        .map(|token| tributary::live::token_hash(&token))
}

/// Each configured token's §10 hash → its project (re-authenticating live
/// connections, which keep only the hash). An empty token never matches.
pub fn projects_by_token_hash(env: &Env) -> BTreeMap<String, String> {
    configured_tokens(env)
        .into_iter()
        .filter(|(token, project)| !token.is_empty() && !project.is_empty())
        .map(|(token, project)| (tributary::live::token_hash(&token), project))
        .collect()
}
