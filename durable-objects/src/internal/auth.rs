//! Bearer-token authentication (docs/design.md §2). `API_TOKENS` is a JSON object
//! token → projectId or scoped grant; the project a request may touch is
//! derived from its token alone, so no token can name another project's streams. Parsing and
//! matching are the engine's (`tributary::auth_tokens`); this reads the
//! secret and the headers.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use tributary::auth_tokens::{self, Grant, Tokens, TokensError};
use worker::{Env, Headers};

thread_local! {
    /// The last `API_TOKENS` text and what it parsed to: every request
    /// presents a token, and the secret changes only with a deploy.
    static PARSED: RefCell<Option<(String, Rc<Tokens>)>> = const { RefCell::new(None) };
}

fn configured_tokens(env: &Env) -> Result<Rc<Tokens>, TokensError> {
    let raw = env
        .secret("API_TOKENS")
        .map(|secret| secret.to_string())
        .or_else(|_| env.var("API_TOKENS").map(|var| var.to_string()))
        .ok();
    let Some(raw) = raw else {
        return auth_tokens::parse(None).map(Rc::new);
    };
    let cached = PARSED.with(|parsed| {
        parsed
            .borrow()
            .as_ref()
            .filter(|(text, _)| *text == raw)
            .map(|(_, tokens)| Rc::clone(tokens))
    });
    if let Some(tokens) = cached {
        return Ok(tokens);
    }
    let tokens = Rc::new(auth_tokens::parse(Some(&raw))?);
    PARSED.with(|parsed| *parsed.borrow_mut() = Some((raw, Rc::clone(&tokens))));
    Ok(tokens)
}

/// The token a request presents (`Authorization: Bearer`, or the
/// `bearer.<token>` WebSocket subprotocol, §10); never an empty one.
fn presented_token(headers: &Headers) -> Option<String> {
    let authorization = headers.get("authorization").ok().flatten();
    let protocols = headers.get("sec-websocket-protocol").ok().flatten();
    auth_tokens::presented_token(authorization.as_deref(), protocols.as_deref())
}

/// The grant of the request's bearer token: `Ok(None)` → 401; `Err` when
/// `API_TOKENS` is missing or malformed (→ 500 `misconfigured`, logged).
pub fn authenticate(headers: &Headers, env: &Env) -> Result<Option<Grant>, TokensError> {
    let tokens = configured_tokens(env)?;
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
    configured_tokens(env)
        .map(|tokens| tokens.grants_by_hash())
        .unwrap_or_default()
}
