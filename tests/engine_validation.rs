//! Bad input never commits (docs/design.md §2, §3 rules 1, 2, 7): each case gets its
//! status and code, and the stream is left exactly as it was.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::*;
use serde_json::json;
use tributary::route::Action;

fn nested(depth: usize) -> String {
    // `depth` levels of objects: {"a":{"a":...{}...}}
    format!("{}{{}}{}", "{\"a\":".repeat(depth - 1), "}".repeat(depth - 1))
}

#[test]
fn every_bad_append_is_refused_and_commits_nothing() {
    let big = "x".repeat(270_000);
    let cases: Vec<(String, u16, &str)> = vec![
        ("{".into(), 400, "malformed_json"),
        ("[]".into(), 400, "invalid_event"),
        ("\"t\"".into(), 400, "invalid_event"),
        (r#"{"type": 5}"#.into(), 400, "invalid_event"),
        (r#"{"payload": {}}"#.into(), 400, "invalid_event"),
        (r#"{"type": "t", "metadata": []}"#.into(), 400, "invalid_event"),
        (r#"{"type": "t", "ephemeral": "yes"}"#.into(), 400, "invalid_event"),
        (r#"{"type": "t", "idempotencyKey": 5}"#.into(), 400, "invalid_event"),
        (r#"{"type": "t", "idempotencyKey": ""}"#.into(), 400, "invalid_event"),
        (
            json!({"type": "t", "idempotencyKey": "k".repeat(257)}).to_string(),
            400,
            "invalid_event",
        ),
        (r#"{"type": "t", "extra": 1}"#.into(), 400, "invalid_event"),
        (r#"{"type": ""}"#.into(), 400, "invalid_event"),
        (r#"{"type": "a b"}"#.into(), 400, "invalid_event"),
        (r#"{"type": "a\tb"}"#.into(), 400, "invalid_event"),
        (r#"{"type": "a\u0000b"}"#.into(), 400, "invalid_event"),
        (json!({"type": "t".repeat(257)}).to_string(), 400, "invalid_event"),
        (json!({"type": "t", "payload": big}).to_string(), 413, "event_too_large"),
        (
            format!(r#"{{"type": "t", "payload": {}}}"#, nested(64)),
            413,
            "event_too_deep",
        ),
        ("[".repeat(100_000), 413, "event_too_deep"),
        (r#"{"events": []}"#.into(), 400, "invalid_batch"),
        (r#"{"events": 5}"#.into(), 400, "invalid_batch"),
        (r#"{"events": [], "more": 1}"#.into(), 400, "invalid_batch"),
        (
            json!({"events": vec![json!({"type": "t"}); 1001]}).to_string(),
            413,
            "batch_too_large",
        ),
        (
            json!({"events": vec![json!({"type": "t", "payload": "y".repeat(250_000)}); 9]}).to_string(),
            413,
            "batch_too_large",
        ),
        (r#"{"type": "t", "source": {}}"#.into(), 403, "source_forbidden"),
        (
            r#"{"type": "events.iterate.com/stream/error-occurred"}"#.into(),
            403,
            "trusted_only_type",
        ),
        (
            r#"{"type": "events.iterate.com/stream/subscription-delivery-halted"}"#.into(),
            403,
            "trusted_only_type",
        ),
        (
            r#"{"type": "events.iterate.com/stream/nope"}"#.into(),
            422,
            "unknown_control_type",
        ),
    ];
    let mut stream = memory_stream("/bad");
    append(&mut stream, json!({"type": "seed"}), 1);
    for (body, status, code) in cases {
        let (got_status, got) = call(&mut stream, Action::Append, "", &body, &inputs(2, 2));
        let label: String = body.chars().take(60).collect();
        assert_eq!(got_status, status, "{label}: {got}");
        assert_eq!(got["error"]["code"], code, "{label}");
        assert!(got["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
        assert_eq!(stream.lifetime().unwrap().head, 1, "{label} committed something");
    }
}

#[test]
fn limits_are_inclusive() {
    let mut stream = memory_stream("/edges");
    let cases = vec![
        json!({"type": "t".repeat(256)}),
        json!({"type": "t", "idempotencyKey": "k".repeat(256)}),
        serde_json::from_str(&format!(r#"{{"type": "t", "payload": {}}}"#, nested(63))).unwrap(),
        json!({"events": vec![json!({"type": "t"}); 1000]}),
    ];
    for body in cases {
        let (status, got) = append(&mut stream, body, 1);
        assert_eq!(status, 201, "{got}");
    }
}

#[test]
fn bad_read_parameters_are_400() {
    let mut stream = memory_stream("/reads");
    append(&mut stream, json!({"type": "t"}), 1);
    for query in [
        "limit=0",
        "limit=1001",
        "limit=abc",
        "after=-1",
        "after=1.5",
        "after=abc",
        "after=99999999999999999",
        "includeEphemeral=maybe",
        "bogus=1",
    ] {
        let (status, body) = read(&mut stream, query);
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("invalid_parameter")),
            "{query}"
        );
    }
    let (status, _) = read(&mut stream, "after=0&limit=1000&includeEphemeral=false");
    assert_eq!(status, 200);
}
