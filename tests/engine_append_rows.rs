//! How a batch append writes its rows (docs/design.md §3 rule 3, §12; issue
//! 33): a few rows to a statement, within the platform's bound parameters,
//! and still all or nothing — a batch refused at its 23rd event (past two
//! full statements' worth of rows) commits none of the 22 before it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{append, memory_stream, read};
use serde_json::{json, Value};

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

/// `n` plain events, payload `{n}`, from `first`.
fn plain(first: usize, n: usize) -> Vec<Value> {
    (first..first + n)
        .map(|n| json!({"type": "data", "payload": {"n": n}}))
        .collect()
}

#[test]
fn s12_a_batch_of_1000_events_runs_about_one_statement_per_eleven_events() {
    let mut stream = memory_stream("/bulk");
    append(&mut stream, json!({"type": "first"}), 1);
    stream.storage().take_statement_counts();
    let (status, body) = append(&mut stream, json!({ "events": plain(0, 1000) }), 2);
    assert_eq!(status, 201, "{body}");
    let counts = stream.storage().take_statement_counts();
    let statements: u64 = counts.values().sum();
    let per_event = statements as f64 / 1000.0;
    println!("statements per appended event: {per_event:.3} ({counts:#?})");
    // 91 inserts (1000 = 90 × 11 + 10) and the append's few others; one
    // insert per event was 1.0.
    assert!(per_event <= 0.1, "{per_event:.3} statements per event: {counts:#?}");
    let (_, page) = read(&mut stream, "after=1&limit=1000");
    let events = page["events"].as_array().unwrap();
    assert_eq!(events.len(), 1000);
    for (n, event) in events.iter().enumerate() {
        assert_eq!(
            (&event["offset"], &event["payload"]["n"]),
            (&json!(n + 2), &json!(n)),
            "every row in its place"
        );
    }
}

/// Appends `events` after one committed event; checks the refusal's status
/// and code, and that the stream still holds only the first event.
fn refused_commits_nothing(events: Vec<Value>, status: u16, code: &str) -> Value {
    let mut stream = memory_stream("/refused");
    append(&mut stream, json!({"type": "first", "idempotencyKey": "first"}), 1);
    let (_, before) = read(&mut stream, "after=0&limit=1000");
    let (got, body) = append(&mut stream, json!({ "events": events }), 2);
    assert_eq!((got, &body["error"]["code"]), (status, &json!(code)), "{body}");
    let (_, after) = read(&mut stream, "after=0&limit=1000");
    assert_eq!(after, before, "nothing committed");
    assert_eq!(after["head"], 1);
    // The stream still takes the next batch at the next offset.
    let (ok, next) = append(&mut stream, json!({ "events": plain(0, 12) }), 3);
    assert_eq!(ok, 201, "{next}");
    assert_eq!(next["events"][0]["offset"], 2);
    body["error"]["details"].clone()
}

#[test]
fn s3_rule_3_a_batch_refused_by_its_23rd_events_fold_commits_none_of_the_22_before_it() {
    let mut events = plain(0, 22);
    // No receiver: the fold refuses the configuration.
    events.push(json!({"type": CONFIGURED, "payload": {"subscriptionKey": "k"}}));
    events.extend(plain(22, 5));
    let details = refused_commits_nothing(events, 422, "invalid_subscription");
    assert_eq!(details["index"], 22, "{details}");
}

#[test]
fn s3_rule_3_a_batch_closed_at_its_22nd_event_refuses_the_23rd_and_commits_nothing() {
    let mut events = plain(0, 21);
    events.push(json!({"type": "events.iterate.com/stream/stream-closed"}));
    events.extend(plain(21, 5));
    let details = refused_commits_nothing(events, 409, "stream_closed");
    assert_eq!(details["index"], 22, "{details}");
    assert_eq!(details["closedAt"], 23, "{details}");
}

#[test]
fn s3_rule_4_a_batch_reusing_a_key_at_its_23rd_event_commits_nothing() {
    let mut events = plain(0, 22);
    events.push(json!({"type": "other", "idempotencyKey": "first"}));
    let details = refused_commits_nothing(events, 409, "idempotency_key_reused");
    assert_eq!(details["offset"], 1, "{details}");
}
