//! What every route needs of a token (docs/design.md §2 Scopes): the one table
//! from a typed [`ApiRoute`] to the scope and path it needs ([`need`], an
//! exhaustive match), and the check of a [`Grant`] against it. Outside its
//! scope or prefix a request gets 403 `forbidden_scope` naming what was
//! missing, before anything is committed.
//!
//! Decisions beyond §2's list:
//! - Listing dead letters is `read` (it shows events and errors a reader
//!   already sees on the debug card); replaying and discarding are `manage`.
//! - Processors and sources are project-wide: a processor is referenced by
//!   streams anywhere, a source may write to any stream. Every route of
//!   theirs (`/v1/processors…`, `/v1/sources…`) needs a token without a
//!   prefix (`read` for GET, `manage` otherwise).
//! - Secrets (§9) are project-wide too, and every route of theirs needs
//!   `manage`, listing included: their names and versions describe the
//!   project's receivers, not a stream a reader reads. A prefix token may
//!   not configure a receiver that names a secret either: it could send a
//!   project-wide value to a URL of its choosing. A stream's processor
//!   state (`/v1/streams/{path}/-/processors/{name}`) is a stream route.
//! - The JSONata playground and `GET /v1/token` compute nothing about the
//!   project's data: any valid token.
//! - An append needs `append` for data events and `manage` for control
//!   events (`events.iterate.com/stream/…`); a batch with both needs both.
//!   A prefix token's `subscription-configured` may copy only into streams
//!   under its prefix (as `subscribe-from` needs `manage` on both ends).
//! - Nor may it set writing again a copy an unrestricted token configured
//!   into a stream outside its prefix ([`authorize_restarts`], decided by
//!   the stream, which knows its subscriptions): not by a
//!   `subscription-cursor-set` (a new run copies again from the cursor,
//!   under new copy keys), a `subscription-delivery-resumed`, or a
//!   dead-letter replay. What only stops a copy is allowed:
//!   `subscription-removed`, discarding dead letters, and a
//!   `subscription-configured` replacing the copy's key with a receiver
//!   under the prefix (the old run ends; the new one writes inside).
//!   Appending data or `events-invalidated` to the source is allowed too:
//!   the copy carries the source's new events as it was configured to, and
//!   writes nothing it would not have.

use super::append_heads::{AppendReading, EventHead};
use super::public::{ApiRoute, SourceMethod};
use super::stream::Action;
use crate::auth_tokens::{Grant, Scope};
use crate::error::{details, ApiFailure, ErrorCode};
use crate::event::{ControlType, InputEvent};
use crate::path::StreamPath;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// What a route needs of a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need<'a> {
    /// Any valid token.
    AnyToken,
    /// `scope` on the stream at `path` (the prefix must cover it).
    Stream { scope: Scope, path: &'a StreamPath },
    /// An append to `path`: `append` and/or `manage` as its events are
    /// data or control ([`append_needs`], once the body is read).
    Append { path: &'a StreamPath },
    /// `subscribe-from`: `manage` on the receiving stream here, and on the
    /// source stream once the body names it.
    SubscribeFrom { receiving: &'a StreamPath },
    /// The catalog: `read`; the listing is narrowed to the prefix.
    Catalog,
    /// A project-wide resource (processors, sources): `scope`, no prefix.
    ProjectWide(Scope),
}

/// The one table: what each route needs (method matters only for
/// `/v1/processors…`, whose route takes every method).
pub fn need<'a>(method: &str, route: &'a ApiRoute) -> Need<'a> {
    let read_or_manage = |read: bool| if read { Scope::Read } else { Scope::Manage };
    match route {
        ApiRoute::JsonataEvaluate | ApiRoute::Token => Need::AnyToken,
        // Both list what the token's prefix allows (`catalog_view`, `metrics_view`).
        ApiRoute::Catalog | ApiRoute::Metrics => Need::Catalog,
        ApiRoute::Processors { .. } => Need::ProjectWide(read_or_manage(method == "GET")),
        ApiRoute::SourceDirectory => Need::ProjectWide(Scope::Read),
        ApiRoute::SecretList | ApiRoute::Secret { .. } => Need::ProjectWide(Scope::Manage),
        ApiRoute::Source { method, .. } => Need::ProjectWide(read_or_manage(*method == SourceMethod::Get)),
        ApiRoute::Stream(route) => stream_need(&route.action, &route.path),
        // §17 "Auth": reads need read, writes (a create is a first write)
        // append, a delete manage.
        ApiRoute::Protocol { path, method } => {
            use crate::durable_streams::face::Method;
            let scope = match method {
                Method::Get | Method::Head => Scope::Read,
                Method::Put | Method::Post => Scope::Append,
                Method::Delete => Scope::Manage,
            };
            Need::Stream { scope, path }
        }
    }
}

fn stream_need<'a>(action: &Action, path: &'a StreamPath) -> Need<'a> {
    let scope = match action {
        Action::Append => return Need::Append { path },
        Action::SubscribeFrom => return Need::SubscribeFrom { receiving: path },
        Action::Info
        | Action::ReadRange
        | Action::ReadOne(_)
        | Action::Metrics
        | Action::Subscriptions
        | Action::Live
        | Action::ProcessorState(_)
        | Action::ListDeadLetters => Scope::Read,
        Action::Destroy
        | Action::SigningSecret(_)
        | Action::DiscardDeadLetters
        | Action::DiscardDeadLetter(_)
        | Action::ReplayDeadLetter(_)
        | Action::Fork => Scope::Manage,
    };
    Need::Stream { scope, path }
}

/// Why a token may not do what it asked (§2: 403 `forbidden_scope`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScopeError {
    #[error("this token lacks the '{scope}' scope this request needs")]
    MissingScope { scope: Scope },
    #[error("this token is limited to streams under '{prefix}'; '{path}' is outside it")]
    OutsidePrefix { prefix: String, path: String },
    #[error("processors, sources and secrets are project-wide: they need a token without a prefix (this one is limited to '{prefix}')")]
    ProjectWide { prefix: String },
}

impl ApiFailure for ScopeError {
    fn error_code(&self) -> ErrorCode {
        ErrorCode::ForbiddenScope
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            ScopeError::MissingScope { scope } => details([("scope", json!(scope.as_str()))]),
            ScopeError::OutsidePrefix { prefix, path } => details([("prefix", json!(prefix)), ("path", json!(path))]),
            ScopeError::ProjectWide { prefix } => details([("prefix", json!(prefix)), ("resource", json!("project"))]),
        }
    }
}

fn require(grant: &Grant, scope: Scope) -> Result<(), ScopeError> {
    match grant.has(scope) {
        true => Ok(()),
        false => Err(ScopeError::MissingScope { scope }),
    }
}

/// `scope` on the stream at `path`.
pub fn on_stream(grant: &Grant, scope: Scope, path: &StreamPath) -> Result<(), ScopeError> {
    require(grant, scope)?;
    within_prefix(grant, path)
}

fn within_prefix(grant: &Grant, path: &StreamPath) -> Result<(), ScopeError> {
    match grant.prefix() {
        Some(prefix) if !grant.covers(path.as_str()) => Err(ScopeError::OutsidePrefix {
            prefix: prefix.to_owned(),
            path: path.as_str().to_owned(),
        }),
        _ => Ok(()),
    }
}

/// A copy into `target`, configured or set going by a token limited to
/// `prefix` (`None`: the whole project): only under the prefix (§2). The
/// target, perhaps from a body, is quoted as an excerpt.
pub fn copy_within(prefix: Option<&str>, path: &str) -> Result<(), ScopeError> {
    match prefix {
        Some(prefix) if !crate::auth_tokens::covers(Some(prefix), path) => Err(ScopeError::OutsidePrefix {
            prefix: prefix.to_owned(),
            path: crate::text::excerpt(path),
        }),
        _ => Ok(()),
    }
}

/// A fork (§18): `manage` on the fork and on its source, so a prefix token
/// forks only within its prefix. `forked_from` as the request sent it; one
/// that does not parse is the stream's 400 to answer.
pub fn authorize_fork(grant: &Grant, fork: &StreamPath, forked_from: &str) -> Result<(), ScopeError> {
    on_stream(grant, Scope::Manage, fork)?;
    let raw = crate::route::protocol_path(forked_from).unwrap_or(forked_from);
    match StreamPath::parse(raw) {
        Ok(source) => on_stream(grant, Scope::Manage, &source),
        Err(_) => Ok(()),
    }
}

/// Checks what can be checked before the body is read. An append checks
/// its prefix here, then [`authorize_append`] its scopes once its events
/// are known; subscribe-from then needs [`on_stream`] `manage` on its source.
pub fn authorize(grant: &Grant, need: &Need) -> Result<(), ScopeError> {
    match *need {
        Need::AnyToken => Ok(()),
        Need::Catalog => require(grant, Scope::Read),
        Need::Stream { scope, path } => on_stream(grant, scope, path),
        Need::SubscribeFrom { receiving } => on_stream(grant, Scope::Manage, receiving),
        Need::Append { path } => within_prefix(grant, path),
        Need::ProjectWide(scope) => {
            require(grant, scope)?;
            match grant.prefix() {
                Some(prefix) => Err(ScopeError::ProjectWide {
                    prefix: prefix.to_owned(),
                }),
                None => Ok(()),
            }
        }
    }
}

/// The scopes an append body needs: `append` for data events, `manage` for
/// control events, in that order. A body that does not parse needs
/// `append` (the stream then answers its 400).
pub fn append_needs(body: &[u8]) -> Vec<Scope> {
    needs_of(AppendReading::read(body).as_ref().map_or(&[], AppendReading::events))
}

fn needs_of(events: &[EventHead]) -> Vec<Scope> {
    let mut needs = Vec::with_capacity(2);
    if events.is_empty() || events.iter().any(|event| !event.control) {
        needs.push(Scope::Append);
    }
    if events.iter().any(|event| event.control) {
        needs.push(Scope::Manage);
    }
    needs
}

/// The stream a receiver, as configured (JSON), copies into: a
/// `copy-to-stream`'s `receivingStreamPath`. The one receiver that writes
/// into another stream of the project: itx-call calls an allowlisted
/// service, webhook-post a URL, processor-wake this stream's own instance,
/// log a log line.
pub fn copy_target(receiver: &Value) -> Option<&str> {
    match receiver.get("action").and_then(Value::as_str) {
        Some("copy-to-stream") => receiver.get("receivingStreamPath").and_then(Value::as_str),
        _ => None,
    }
}

/// The streams a `subscription-configured` in the body would copy into:
/// a prefix token may not write outside its prefix through a copy.
fn copy_targets<'a>(events: &'a [EventHead<'_>]) -> impl Iterator<Item = &'a str> {
    events
        .iter()
        .filter_map(|event| event.configured.as_ref()?.get("receiver"))
        .filter_map(copy_target)
}

/// Whether a `subscription-configured` in the body names a project secret (§9).
fn names_a_secret(events: &[EventHead]) -> bool {
    events
        .iter()
        .filter_map(|event| event.configured.as_ref())
        .filter_map(|payload| crate::subscription::Configuration::parse(payload).ok())
        .any(|configuration| !crate::secrets::references(&configuration.receiver).is_empty())
}

/// An append's body against the grant: every scope its events need, and
/// every stream a configured copy would write under the prefix; a prefix
/// token names no project secret.
pub fn authorize_append(grant: &Grant, body: &[u8]) -> Result<(), ScopeError> {
    authorize_reading(grant, AppendReading::read(body).as_ref())
}

/// [`authorize_append`] of a body the entry has read (`None`: not JSON).
pub fn authorize_reading(grant: &Grant, reading: Option<&AppendReading>) -> Result<(), ScopeError> {
    let events = reading.map_or(&[][..], AppendReading::events);
    needs_of(events)
        .into_iter()
        .try_for_each(|scope| require(grant, scope))?;
    if let Some(prefix) = grant.prefix().filter(|_| names_a_secret(events)) {
        return Err(ScopeError::ProjectWide {
            prefix: prefix.to_owned(),
        });
    }
    let within = copy_targets(events).try_for_each(|target| copy_within(grant.prefix(), target));
    within
}

/// The subscription a control event sets writing again from a point of
/// its own (§2): a `subscription-cursor-set` moves its cursor (a new run
/// copies everything after it again), a `subscription-delivery-resumed`
/// clears its halt.
fn restarted(event: &InputEvent) -> Option<&str> {
    match event.control_type() {
        Some(ControlType::SubscriptionCursorSet | ControlType::SubscriptionDeliveryResumed) => {
            event.payload.as_tree()?.get("subscriptionKey").and_then(Value::as_str)
        }
        _ => None,
    }
}

/// An append's events against a token limited to `prefix` (§2): none may
/// move or resume a copy into a stream outside it. `copy_target_of(key)` is
/// where the subscription `key` copies before this append; the append's
/// own `subscription-configured` and `subscription-removed` events change
/// that for the events after them (a batch is folded in order). Decided by
/// the stream, which knows its subscriptions, before anything is committed.
pub fn authorize_restarts<'s>(
    prefix: Option<&str>,
    events: &[InputEvent],
    copy_target_of: impl Fn(&str) -> Option<&'s str>,
) -> Result<(), ScopeError> {
    if prefix.is_none() {
        return Ok(());
    }
    // Keys this append configures or removes → where they copy after it
    // (at most one entry per event of the bounded batch).
    let mut changed: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    for event in events {
        let payload = event.payload.as_tree();
        let key = payload
            .and_then(|payload| payload.get("subscriptionKey"))
            .and_then(Value::as_str);
        match (event.control_type(), key) {
            (Some(ControlType::SubscriptionConfigured), Some(key)) => {
                changed.insert(
                    key,
                    payload
                        .and_then(|payload| payload.get("receiver"))
                        .and_then(copy_target),
                );
            }
            (Some(ControlType::SubscriptionRemoved), Some(key)) => {
                changed.insert(key, None);
            }
            _ => {}
        }
        let Some(key) = restarted(event) else {
            continue;
        };
        let target = match changed.get(key) {
            Some(target) => *target,
            None => copy_target_of(key),
        };
        if let Some(target) = target {
            copy_within(prefix, target)?;
        }
    }
    Ok(())
}

/// The catalog a prefixed token sees (§2: only what the prefix allows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogView {
    /// Forward this query (narrowed to the prefix, or unchanged).
    Query(String),
    /// The query's prefix and the token's are disjoint: an empty page.
    Empty,
}

/// Intersects the catalog query's `prefix` with the token's. A query that
/// does not parse is forwarded unchanged, for the catalog's own 400.
pub fn catalog_view(grant: &Grant, query: &str) -> CatalogView {
    let Some(token_prefix) = grant.prefix() else {
        return CatalogView::Query(query.to_owned());
    };
    let Ok(mut parsed) = crate::catalog::CatalogQuery::parse(query) else {
        return CatalogView::Query(query.to_owned());
    };
    if token_prefix.starts_with(parsed.prefix.as_str()) {
        parsed.prefix = token_prefix.to_owned();
    } else if !parsed.prefix.starts_with(token_prefix) {
        return CatalogView::Empty;
    }
    CatalogView::Query(format!(
        "prefix={}&after={}&limit={}&softDeleted={}",
        percent_encode(&parsed.prefix),
        percent_encode(&parsed.after),
        parsed.limit,
        parsed.soft_deleted.as_str()
    ))
}

/// The scrape a token may see (§11, §2): a prefix token's `GET /v1/metrics`
/// is narrowed to its prefix like the catalog (so it never shows sources,
/// which are project-wide); a disjoint `?prefix=` is an empty scrape.
pub fn metrics_view(grant: &Grant, query: &str) -> CatalogView {
    let Some(token_prefix) = grant.prefix() else {
        return CatalogView::Query(query.to_owned());
    };
    let Ok(asked) = crate::project_metrics::store::parse_prefix(query) else {
        return CatalogView::Query(query.to_owned());
    };
    let narrowed = if token_prefix.starts_with(asked.as_str()) {
        token_prefix.to_owned()
    } else if asked.starts_with(token_prefix) {
        asked
    } else {
        return CatalogView::Empty;
    };
    CatalogView::Query(format!("prefix={}", percent_encode(&narrowed)))
}

/// The empty catalog page of a disjoint prefix (§14 shape).
pub fn empty_catalog_page() -> Value {
    json!({"streams": [], "nextAfter": null})
}

/// `%XX` for every byte outside `[A-Za-z0-9._~/-]` (a query value).
fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'~' | b'-' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}
