//! Bearer-token authentication (docs/design.md §2). `API_TOKENS` is a JSON object
//! token → projectId or scoped grant; the project a request may touch is
//! derived from its token alone, so no token can name another project's streams. Parsing and
//! matching are the engine's (`tributary::auth_tokens`); the table is read
//! once per isolate (`internal::settings`), the headers on every request.

use std::collections::BTreeMap;
use tributary::auth_tokens::{self, Grant, TokensError};
use worker::{Env, Headers};

/// The token a request presents (`Authorization: Bearer`, or the
/// `bearer.<token>` WebSocket subprotocol, §10); never an empty one.
fn presented_token(headers: &Headers) -> Option<String> {
    let authorization = headers.get("authorization").ok().flatten();
    // `Authorization` wins when present: the subprotocols are read only without it.
    let protocols = match authorization {
        Some(_) => None,
        None => headers.get("sec-websocket-protocol").ok().flatten(),
    };
    auth_tokens::presented_token(authorization.as_deref(), protocols.as_deref())
}

/// The grant of the request's bearer token: `Ok(None)` → 401; `Err` when
/// `API_TOKENS` is missing or malformed (→ 500 `misconfigured`, logged).
pub fn authenticate(headers: &Headers, env: &Env) -> Result<Option<Grant>, TokensError> {
    let settings = crate::internal::settings::of(env);
    let tokens = settings.tokens.as_ref().map_err(Clone::clone)?;
    let presented = presented_token(headers);
    Ok(presented.and_then(|token| tokens.grant_for(&token).cloned()))
}

/// The §10 hash of the request's bearer token (what a live connection's
/// record keeps instead of the token), or `None` without a token.
pub fn presented_token_hash(headers: &Headers) -> Option<String> {
    presented_token(headers)
        .filter(|token| !token.is_empty())
        .map(|token| tributary::live::token_hash(&token))
}

/// Each configured token's §10 hash → its grant (re-authenticating live
/// connections, which keep only the hash). A malformed `API_TOKENS` maps
/// nothing, so every socket fails re-authentication (fails closed).
pub fn grants_by_token_hash(env: &Env) -> BTreeMap<String, Grant> {
    crate::internal::settings::of(env)
        .tokens
        .as_ref()
        .map(|tokens| tokens.grants_by_hash())
        .unwrap_or_default()
}
