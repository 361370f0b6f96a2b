//! Native engine tests of docs/design.md §3 against real SQLite (rusqlite), running
//! the same migrations and queries as the Durable Object.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::*;
use serde_json::json;
use tributary::route::Action;
use tributary::storage::Storage;

#[test]
fn s3_append_assigns_contiguous_offsets_from_one() {
    let mut stream = memory_stream("/a");
    let (status, body) = append(&mut stream, json!({"type": "t", "payload": {"n": 1}}), 1_000);
    assert_eq!(status, 201);
    assert_eq!(body["event"]["offset"], 1);
    assert_eq!(body["event"]["metadata"], json!({}));
    assert_eq!(body["event"]["createdAt"], "1970-01-01T00:00:01.000Z");
    assert_eq!(body["deduplicated"], false);
    let (status, body) = append(&mut stream, json!({"events": [{"type": "t"}, {"type": "u"}]}), 2_000);
    assert_eq!(status, 201);
    assert_eq!(body["events"][0]["offset"], 2);
    assert_eq!(body["events"][1]["offset"], 3);
    assert_eq!(body["deduplicated"], json!([false, false]));
    let (_, read) = read(&mut stream, "after=1&limit=10");
    assert_eq!(read["head"], 3);
    assert_eq!(read["events"].as_array().unwrap().len(), 2);
    assert_eq!(read["nextAfter"], 3);
    assert_eq!(read["path"], "/a");
}

#[test]
fn s3_rule3_batch_is_all_or_nothing() {
    let mut stream = memory_stream("/a");
    append(&mut stream, json!({"type": "first"}), 1);
    let (status, body) = append(
        &mut stream,
        json!({"events": [{"type": "ok"}, {"type": "ok"}, {"type": ""}]}),
        2,
    );
    assert_eq!(status, 400);
    assert_eq!(body["error"]["details"]["index"], 2);
    let (status, body) = append(
        &mut stream,
        json!({"events": [{"type": "x", "idempotencyKey": "k"}, {"type": "y", "idempotencyKey": "k"}]}),
        3,
    );
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("idempotency_key_reused"))
    );
    assert_eq!(
        stream.lifetime().unwrap().head,
        1,
        "nothing of the failed batches committed"
    );
    let (_, read) = read(&mut stream, "");
    assert_eq!(read["events"].as_array().unwrap().len(), 1);
}

#[test]
fn s3_rule4_idempotent_retry_returns_the_original() {
    let mut stream = memory_stream("/a");
    let event = json!({"type": "t", "payload": {"a": [1, 2]}, "idempotencyKey": "k1"});
    let (_, first) = append(&mut stream, event.clone(), 10);
    let (status, again) = append(&mut stream, event, 20);
    assert_eq!(status, 200);
    assert_eq!(again["deduplicated"], true);
    assert_eq!(again["event"], first["event"]);
    let (status, _) = append(
        &mut stream,
        json!({"type": "t", "payload": {"a": [2]}, "idempotencyKey": "k1"}),
        30,
    );
    assert_eq!(status, 409);
    let (status, batch) = append(
        &mut stream,
        json!({"events": [{"type": "t", "payload": {"a": [1, 2]}, "idempotencyKey": "k1"}, {"type": "n"}]}),
        40,
    );
    assert_eq!(status, 201);
    assert_eq!(batch["deduplicated"], json!([true, false]));
    assert_eq!(batch["events"][1]["offset"], 2);
    assert_eq!(stream.lifetime().unwrap().head, 2);
}

#[test]
fn s3_rule5_ephemeral_rows_are_skipped_by_range_reads_unless_asked() {
    let mut stream = memory_stream("/a");
    append(
        &mut stream,
        json!({"events": [{"type": "a"}, {"type": "b", "ephemeral": true}, {"type": "c"}]}),
        1,
    );
    let (_, plain) = read(&mut stream, "");
    let offsets: Vec<_> = plain["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["offset"].clone())
        .collect();
    assert_eq!(offsets, vec![json!(1), json!(3)]);
    let (_, all) = read(&mut stream, "includeEphemeral=true");
    assert_eq!(all["events"].as_array().unwrap().len(), 3);
    assert_eq!(all["events"][1]["ephemeral"], true);
    let (status, point) = call(&mut stream, Action::ReadOne(2), "", "", &inputs(0, 0));
    assert_eq!((status, point["event"]["type"].as_str()), (200, Some("b")));
    let (_, tail) = read(&mut stream, "after=1&limit=1");
    assert_eq!(tail["nextAfter"], 3, "the ephemeral row is passed over");
}

#[test]
fn s3_rule6_reads_of_a_never_written_stream_create_nothing() {
    let file = FileStream::new("/never");
    let mut stream = file.open();
    let (status, body) = read(&mut stream, "");
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("stream_not_found"))
    );
    let (status, _) = call(&mut stream, Action::Info, "", "", &inputs(0, 0));
    assert_eq!(status, 404);
    assert!(
        table_names(&file.db()).is_empty(),
        "a read wrote tables: {:?}",
        table_names(&file.db())
    );
}

#[test]
fn s3_rule6_delete_starts_a_new_lifetime_with_a_later_creation_time() {
    let mut stream = memory_stream("/a");
    append(&mut stream, json!({"type": "t"}), 5_000);
    let first = stream.lifetime().unwrap().clone();
    let (status, _) = call(&mut stream, Action::Destroy, "", "", &inputs(5_000, 0));
    assert_eq!(status, 204);
    assert_eq!(call(&mut stream, Action::Info, "", "", &inputs(0, 0)).0, 404);
    // Same clock reading, different entropy: still a strictly later lifetime.
    let (_, body) = call(&mut stream, Action::Append, "", r#"{"type":"t"}"#, &inputs(5_000, 9));
    assert_eq!(body["event"]["offset"], 1);
    let second = stream.lifetime().unwrap().clone();
    assert_ne!(first.stream_id, second.stream_id);
    assert!(second.created_at_ms > first.created_at_ms);
}

#[test]
fn s3_committed_events_survive_a_restart() {
    let file = FileStream::new("/persist");
    {
        let mut stream = file.open();
        append(
            &mut stream,
            json!({"events": [{"type": "a"}, {"type": "b", "idempotencyKey": "k"}]}),
            1,
        );
    }
    let mut reopened = file.open();
    let (_, read) = read(&mut reopened, "");
    assert_eq!(read["head"], 2);
    let (status, dup) = append(&mut reopened, json!({"type": "b", "idempotencyKey": "k"}), 2);
    assert_eq!((status, dup["event"]["offset"].as_u64()), (200, Some(2)));
    let (_, next) = append(&mut reopened, json!({"type": "c"}), 3);
    assert_eq!(next["event"]["offset"], 3);
}

#[test]
fn s5_state_cache_rebuilds_identically_when_missing_or_version_skewed() {
    let file = FileStream::new("/state");
    {
        let mut stream = file.open();
        append(&mut stream, json!({"events": [{"type": "a"}, {"type": "b"}]}), 1);
    }
    let incremental = file.open().state().clone();
    let connection = rusqlite::Connection::open(file.db()).unwrap();
    connection
        .execute("UPDATE reduced_state SET version = version + 100, state = '{}'", [])
        .unwrap();
    let rebuilt = file.open();
    assert_eq!(rebuilt.state(), &incremental);
    assert_eq!(rebuilt.rebuild_state().unwrap(), incremental);
    connection.execute("DELETE FROM reduced_state", []).unwrap();
    assert_eq!(file.open().state(), &incremental);
}

#[test]
fn s3_single_append_writes_one_row_and_the_head_survives_a_restart() {
    let file = FileStream::new("/rows");
    let mut stream = file.open();
    append(&mut stream, json!({"type": "warm"}), 1);
    let before = stream.storage().rows_written();
    append(&mut stream, json!({"type": "t"}), 2);
    append(&mut stream, json!({"type": "e", "ephemeral": true}), 3);
    assert_eq!(
        stream.storage().rows_written() - before,
        2,
        "one event row per append, nothing else"
    );
    drop(stream);
    let reopened = file.open();
    let meta = reopened.lifetime().unwrap();
    assert_eq!((meta.head, meta.event_count), (3, 3), "derived from the log");
}
