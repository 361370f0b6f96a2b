//! The HTTP edge's decisions, natively (docs/design.md §2, §3 rule 4, §12): the
//! `API_TOKENS` table and presented tokens, and the engine's reserved
//! idempotency-key namespace.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::{Network, World};
use serde_json::{json, Value};
use tributary::auth_tokens::{self, TokensError};
use tributary::delivery::Outcome;
use tributary::error::ApiError;
use tributary::reserved_keys::{check_public_append, is_reserved, RESERVED_KEY_PREFIXES};

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

// ---------------------------------------------------------------------------
// §2: API_TOKENS
// ---------------------------------------------------------------------------

#[test]
fn s2_a_malformed_api_tokens_is_an_error_never_an_empty_table() {
    let cases: [(Option<&str>, TokensError); 8] = [
        (None, TokensError::Missing),
        (Some(""), TokensError::NotJson(String::new())),
        (Some("{"), TokensError::NotJson(String::new())),
        (Some("tok=project"), TokensError::NotJson(String::new())),
        (Some(r#"["tok", "project"]"#), TokensError::NotAnObject),
        (Some(r#""tok""#), TokensError::NotAnObject),
        (Some(r#"{"a": "p", "b": 7}"#), TokensError::BadProject { index: 1 }),
        (Some(r#"{"a": ""}"#), TokensError::BadProject { index: 0 }),
    ];
    for (raw, expected) in cases {
        let error = auth_tokens::parse(raw).expect_err(&format!("{raw:?} parsed"));
        match (&error, &expected) {
            (TokensError::NotJson(_), TokensError::NotJson(_)) => {}
            _ => assert_eq!(error, expected, "{raw:?}"),
        }
        let api: ApiError = error.to_api_error();
        assert_eq!((api.status, api.code()), (500, "misconfigured"), "{raw:?}");
    }
    // A value neither a project id nor an object is malformed.
    let array = auth_tokens::parse(Some(r#"{"t": ["p"]}"#));
    assert_eq!(array, Err(TokensError::BadProject { index: 0 }));
    // More tokens than the budget is malformed too.
    let many: serde_json::Map<String, Value> = (0..=tributary::limits::MAX_API_TOKENS)
        .map(|i| (format!("t{i}"), json!("p")))
        .collect();
    assert_eq!(
        auth_tokens::parse(Some(&Value::Object(many).to_string())),
        Err(TokensError::TooMany)
    );
}

#[test]
fn s2_the_message_of_a_malformed_table_names_no_token() {
    let error = auth_tokens::parse(Some(r#"{"secret-token-123": 5}"#)).unwrap_err();
    let body = error.to_api_error().to_json();
    assert!(!body.contains("secret-token-123"), "{body}");
}

#[test]
fn s2_tokens_match_their_project_and_an_empty_token_never_matches() {
    let tokens = auth_tokens::parse(Some(
        r#"{"tok-a": "project-a", "tok-b": "project-b", "": "project-empty"}"#,
    ))
    .unwrap();
    assert_eq!(tokens.project_for("tok-a"), Some("project-a"));
    assert_eq!(tokens.project_for("tok-b"), Some("project-b"));
    assert_eq!(tokens.project_for("tok-"), None);
    assert_eq!(tokens.project_for("tok-a "), None);
    assert_eq!(tokens.project_for(""), None, "the empty configured token never matches");
    let empty = auth_tokens::parse(Some("{}")).unwrap();
    assert_eq!(empty.project_for("tok-a"), None);
}

#[test]
fn s2_s10_the_presented_token_is_never_empty() {
    let cases: [(Option<&str>, Option<&str>, Option<&str>); 13] = [
        (Some("Bearer tok"), None, Some("tok")),
        (Some("bearer tok"), None, Some("tok")),
        (Some("  Bearer   tok  "), None, Some("tok")),
        (Some("Bearer "), None, None),
        (Some("Bearer"), None, None),
        (Some("Basic dG9rOg=="), None, None),
        (Some(""), None, None),
        // An Authorization header is the credential, even if a subprotocol follows.
        (Some("Bearer "), Some("bearer.tok"), None),
        (None, Some("bearer.tok"), Some("tok")),
        (None, Some("tributary.v1, bearer.tok"), Some("tok")),
        (None, Some("bearer."), None),
        (None, Some("tributary.v1, bearer. "), None),
        (None, Some("tributary.v1"), None),
    ];
    for (authorization, protocols, expected) in cases {
        assert_eq!(
            auth_tokens::presented_token(authorization, protocols).as_deref(),
            expected,
            "{authorization:?} / {protocols:?}"
        );
    }
    // `bearer.` with nothing after it is an empty token: it matches nothing.
    let tokens = auth_tokens::parse(Some(r#"{"": "p"}"#)).unwrap();
    let presented = auth_tokens::presented_token(None, Some("bearer."));
    assert_eq!(presented.and_then(|t| tokens.project_for(&t).map(str::to_owned)), None);
}

// ---------------------------------------------------------------------------
// §3 rule 4: the engine's idempotency-key namespace
// ---------------------------------------------------------------------------

#[test]
fn s3_every_reserved_prefix_is_refused_single_and_in_a_batch() {
    for prefix in RESERVED_KEY_PREFIXES {
        let key = format!("{prefix}anything");
        let single = json!({"type": "a", "idempotencyKey": key}).to_string();
        let error = check_public_append(single.as_bytes()).unwrap_err();
        assert_eq!(error.prefix, prefix);
        assert_eq!(error.index, None);
        let api = ApiError::from(error);
        assert_eq!((api.status, api.code()), (403, "reserved_idempotency_key"));
        assert_eq!(api.body.error.details["prefix"], json!(prefix));
        let batch = json!({"events": [{"type": "a", "idempotencyKey": "mine"}, {"type": "b", "idempotencyKey": key}]});
        let error = check_public_append(batch.to_string().as_bytes()).unwrap_err();
        assert_eq!((error.index, error.prefix), (Some(1), prefix));
    }
}

#[test]
fn s3_other_keys_and_bodies_pass_the_reserved_check() {
    for body in [
        json!({"type": "a"}).to_string(),
        json!({"type": "a", "idempotencyKey": "order-17"}).to_string(),
        json!({"type": "a", "idempotencyKey": "my-copy:1"}).to_string(),
        json!({"type": "a", "idempotencyKey": "Copy:1"}).to_string(),
        json!({"type": "a", "idempotencyKey": "evm"}).to_string(),
        json!({"events": [{"type": "a", "idempotencyKey": "x"}]}).to_string(),
        "not json".to_owned(),
    ] {
        assert_eq!(check_public_append(body.as_bytes()), Ok(()), "{body}");
    }
}

#[test]
fn s3_a_repeated_key_field_is_read_as_the_stream_reads_it() {
    // serde_json keeps the last of a repeated field, in the stream as here.
    let body = r#"{"type": "a", "idempotencyKey": "fine", "idempotencyKey": "copy:x"}"#;
    assert!(check_public_append(body.as_bytes()).is_err());
    let batch = r#"{"events": [{"type": "a", "idempotencyKey": "fine", "idempotencyKey": "skipped:1:2"}]}"#;
    assert!(check_public_append(batch.as_bytes()).is_err());
}

fn keys_of(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| event["idempotencyKey"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn s3_s7_s8_every_key_the_engine_derives_is_reserved() {
    let mut world = World::new(18);
    world.allow_insecure_webhooks("/a");
    // A copy /a → /b, and a webhook on /a that skips its failing events.
    world.append("/a", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "copy", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/b", "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}}));
    world.append("/a", json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h",
            "delivery": {"start": "beginning", "onFailingEvent": "skip", "retry": {"maxAttempts": 1, "initialBackoffMs": 10, "maxBackoffMs": 10}}}}}));
    world.append(
        "/a",
        json!({"events": [{"type": "data", "payload": 1}, {"type": "data", "payload": 2}]}),
    );
    world.run(&["/a"], 50, &mut |plan: &tributary::delivery::DeliveryPlan| {
        if plan.subscription_key == "hook" {
            Network::Fail(Outcome::permanent("HTTP 410"))
        } else {
            Network::Deliver
        }
    });
    let copies = keys_of(&world.events("/b"));
    let audits = keys_of(&world.events("/a"));
    assert_eq!(copies.len(), 2, "both data events were copied: {copies:?}");
    assert!(audits.iter().any(|key| key.starts_with("skipped:")), "{audits:?}");
    for key in copies.iter().chain(&audits) {
        assert!(
            is_reserved(key).is_some(),
            "the engine derived '{key}', which a public append could take"
        );
    }
    // subscribe-from derives its source event's key (§5).
    let plan = tributary::subscribe_from::plan(
        &common::path("/r"),
        json!({"sourcePath": "/s", "idempotencyKey": "k"})
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    let key = plan.event.idempotency_key.unwrap();
    assert_eq!(is_reserved(&key), Some("subscribe-from:"));
}

// ---------------------------------------------------------------------------
// §9, §15: an EVM source's RPC URLs are re-checked before each call
// ---------------------------------------------------------------------------

fn source_config(rpc_urls: Value) -> Value {
    json!({
        "kind": "evm",
        "rpcUrls": rpc_urls,
        "chainId": 31337,
        "targetStream": "/chain/transfers",
        "filters": [{"address": ["0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], "event": "Transfer(address indexed from, address indexed to, uint256 value)"}],
        "finalityDepth": 64,
        "confirmations": 0,
        "pollMs": 1000,
        "startBlock": 0,
    })
}

#[test]
fn s15_a_call_to_a_url_the_deployment_no_longer_allows_is_not_sent_and_named_in_the_status() {
    use tributary::source::{config, rpc, Effect, RpcAnswer, Source};
    use tributary::storage::rusqlite_driver::RusqliteStorage;
    // Accepted while ALLOW_INSECURE_WEBHOOKS was on.
    let body = source_config(json!(["http://127.0.0.1:8545/", "https://rpc.example.com/v1"]));
    let parsed = config::parse("local", body.to_string().as_bytes(), true).unwrap();
    assert!(config::parse("local", body.to_string().as_bytes(), false).is_err());
    let mut source = Source::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    let now = 1_000_000;
    source.configure("project", "local", parsed, now).unwrap();
    let Effect::Call(call) = source.begin_run(&common::inputs(now, 1)).unwrap() else {
        panic!("the run starts with a call");
    };
    assert_eq!(call.url_index, 0);
    assert_eq!(rpc::screen(&call, true), None, "allowed while the deployment allows it");
    // The deployment turned ALLOW_INSECURE_WEBHOOKS off: the call is refused.
    let refused = rpc::screen(&call, false).expect("refused");
    assert!(
        matches!(&refused, RpcAnswer::Refused(rule) if rule.contains("https")),
        "{refused:?}"
    );
    let run_id = source.run_id().unwrap();
    let effect = source.on_rpc(run_id, &refused, now).unwrap();
    assert!(
        matches!(effect, Effect::Sleep { .. }),
        "{effect:?}: retried later, never sent"
    );
    let status = source.status().unwrap();
    assert_eq!(status["status"], "retrying");
    let error = status["lastError"].as_str().unwrap();
    assert!(
        error.contains("rpcUrls[0]") && error.contains("refused by this deployment"),
        "{error}"
    );
    assert!(
        !error.contains("127.0.0.1:8545"),
        "URLs may carry keys: never in errors ({error})"
    );
    // The next run rotates to the next URL, which the rules allow.
    let Effect::Call(next) = source.begin_run(&common::inputs(now + 600_000, 2)).unwrap() else {
        panic!("the retry starts with a call");
    };
    assert_eq!(next.url_index, 1);
    assert_eq!(rpc::screen(&next, false), None);
}
