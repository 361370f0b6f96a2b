//! Live connections natively, the rest of issue 18's live items (docs/design.md
//! §10, §12): a connection's record keeps a hash of its token (never the
//! token) and passes re-authentication only while the configured tokens
//! still map that hash to its own project; long-poll waiters are bounded
//! per stream and leave the gauge when they end.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::memory_stream;
use std::collections::BTreeMap;
use tributary::auth_tokens::{Grant, Scope};
use tributary::error::ApiFailure;
use tributary::limits::MAX_LONG_POLL_WAITERS;
use tributary::live::{token_hash, CloseReason, LiveQuery, Transport};

/// What the tokens of `config` (token → full-access project) grant `hash`,
/// as the shell asks.
fn lookup<'a>(config: &'a BTreeMap<&'a str, &'a str>) -> impl Fn(&str) -> Option<Grant> + 'a {
    move |hash: &str| {
        config
            .iter()
            .find(|(token, _)| token_hash(token) == hash)
            .map(|(_, project)| Grant::full(*project))
    }
}

/// A single token whose hash maps to `grant`.
fn granting(grant: Grant) -> impl Fn(&str) -> Option<Grant> {
    move |hash: &str| (hash == token_hash("secret-token")).then(|| grant.clone())
}

#[test]
fn s10_a_connection_keeps_only_a_hash_of_its_token_and_fails_re_authentication_once_the_token_is_gone() {
    let mut stream = memory_stream("/reauth");
    let query = LiveQuery::parse("", None).unwrap();
    let (connection, _) = stream
        .open_live_for(
            &query,
            Transport::WebSocket,
            1_000,
            [3; 16],
            Some(token_hash("secret-token")),
        )
        .unwrap();
    let record = serde_json::to_string(&connection).unwrap();
    assert!(
        !record.contains("secret-token"),
        "the token itself is never kept: {record}"
    );
    assert!(record.len() < 2048, "fits the attachment: {} bytes", record.len());
    let project = connection.project_id.clone();

    let same = BTreeMap::from([("secret-token", project.as_str()), ("other", "project-b")]);
    assert!(connection.still_authorized(&lookup(&same)));
    let removed = BTreeMap::from([("other", "project-b")]);
    assert!(
        !connection.still_authorized(&lookup(&removed)),
        "token no longer in API_TOKENS"
    );
    let moved = BTreeMap::from([("secret-token", "project-b")]);
    assert!(
        !connection.still_authorized(&lookup(&moved)),
        "token now names another project"
    );
    // §2 Scopes: the token must still allow `read` on the connection's path.
    let reader = Grant::scoped(&project, &[Scope::Read], Some("/")).unwrap();
    assert!(connection.still_authorized(&granting(reader)));
    let under = Grant::scoped(&project, &[Scope::Read], Some("/reauth/")).unwrap();
    assert!(
        !connection.still_authorized(&granting(under)),
        "/reauth/ does not cover /reauth"
    );
    let writer = Grant::scoped(&project, &[Scope::Append, Scope::Manage], None).unwrap();
    assert!(!connection.still_authorized(&granting(writer)), "a token without read");
    // A record without a hash (kept before hashes were) never passes.
    let (legacy, _) = stream
        .open_live(
            &LiveQuery::parse("connectionKey=legacy", None).unwrap(),
            Transport::WebSocket,
            1_000,
            [4; 16],
        )
        .unwrap();
    assert!(!legacy.still_authorized(&lookup(&same)));
    assert_eq!(CloseReason::Unauthorized.websocket_code(), 4401);
    assert_eq!(CloseReason::Unauthorized.code(), "unauthorized");
}

#[test]
fn s12_long_poll_waiters_are_bounded_per_stream_and_leave_the_gauge() {
    let mut stream = memory_stream("/waiters");
    for _ in 0..MAX_LONG_POLL_WAITERS {
        stream.live.admit_waiter().unwrap();
    }
    let refused = stream.live.admit_waiter().unwrap_err();
    assert_eq!(refused.status(), 429);
    assert_eq!(refused.code(), "too_many_waiters");
    assert_eq!(stream.live.counters.long_poll_waiters, MAX_LONG_POLL_WAITERS as u64);
    stream.live.waiter_done();
    stream.live.admit_waiter().unwrap();
    for _ in 0..MAX_LONG_POLL_WAITERS {
        stream.live.waiter_done();
    }
    assert_eq!(stream.live.counters.long_poll_waiters, 0);
    let metrics = stream.metrics_text();
    assert!(metrics.contains("\ntributary_live_long_poll_waiters 0\n"), "{metrics}");
}
