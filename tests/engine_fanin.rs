//! Copy fan-in (issue 20, docs/design.md §7 rule 2, §5 inbound, §11, §12): the
//! inbound fence records are rows of their own table, so one receiving stream
//! takes copies from 10,000 sources with none refused, at a per-copy cost that
//! does not grow with the number of sources; stream info counts the records
//! and the debug card pages them; the table is bounded by a row count.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{call, fence_rows, inputs, memory_stream, FileStream};
use serde_json::{json, Value};
use tributary::copy::{copy_idempotency_key, CopyBatch, Stamp};
use tributary::error::ApiFailure;
use tributary::event::Authority;
use tributary::limits::{DEFAULT_INBOUND_FENCE_PAGE, MAX_INBOUND_FENCE_RECORDS};
use tributary::route::Action;
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::storage::Storage;
use tributary::stream::Stream;
use tributary::time::rfc3339_millis;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

fn source_path(source: u64) -> String {
    format!("/users/{source:05}")
}

/// A batch of one copy of `offset` from source `source`'s run `generation`.
fn batch(source: u64, generation: u64, offset: u64) -> CopyBatch {
    let stamp = Stamp {
        source_project_id: common::PROJECT.to_owned(),
        source_path: source_path(source),
        subscription_key: "aggregate".to_owned(),
        stream_id: format!("stream-{source}"),
        stream_created_at: rfc3339_millis(1_000),
        cursor_changed_at_source_offset: generation,
    };
    let event = json!({"type": "x", "payload": {"source": source, "offset": offset},
        "idempotencyKey": copy_idempotency_key(&stamp, offset),
        "source": {"copiedFrom": [{"projectId": common::PROJECT, "path": stamp.source_path, "streamId": stamp.stream_id,
            "streamCreatedAt": stamp.stream_created_at, "offset": offset, "type": "x",
            "createdAt": "2026-01-01T00:00:00.000Z", "subscriptionKey": stamp.subscription_key,
            "cursorChangedAtSourceOffset": generation}]}});
    CopyBatch {
        stamp,
        events: vec![event],
    }
}

/// New copies the batch appended, or the refusal's status and code.
fn accept(receiver: &mut Stream<RusqliteStorage>, batch: CopyBatch, now_ms: i64) -> Result<usize, (u16, String)> {
    receiver
        .accept_copies(batch, &inputs(now_ms, 1))
        .map(|accepted| accepted.appended.len() - accepted.deduplicated)
        .map_err(|error| (error.status(), error.code().to_owned()))
}

/// SQLite rows one accepted copy batch writes.
fn rows_written_by(receiver: &mut Stream<RusqliteStorage>, batch: CopyBatch, now_ms: i64) -> u64 {
    let before = receiver.storage().rows_written();
    assert_eq!(accept(receiver, batch, now_ms), Ok(1));
    receiver.storage().rows_written() - before
}

fn card(receiver: &mut Stream<RusqliteStorage>, query: &str) -> (u16, Value) {
    call(receiver, Action::Subscriptions, query, "", &inputs(0, 0))
}

#[test]
fn s7_rule_2_ten_thousand_sources_copy_into_one_stream_none_refused_at_a_flat_cost() {
    let mut receiver = memory_stream("/aggregate");
    assert_eq!(accept(&mut receiver, batch(0, 1, 1), 1_000), Ok(1));
    let state_before = receiver.state().to_json();
    let first_pair_copy = rows_written_by(&mut receiver, batch(0, 1, 2), 1_001);
    let first_new_pair = rows_written_by(&mut receiver, batch(1, 1, 1), 1_002);
    for source in 2..10_000 {
        assert_eq!(
            accept(&mut receiver, batch(source, 1, 1), 2_000),
            Ok(1),
            "source {source}"
        );
    }
    assert_eq!(receiver.inbound_fence_count().unwrap(), 10_000);
    // The cost of a copy does not grow with the sources (no document rewrite):
    // the same rows written with 1 or 10,000 records.
    assert_eq!(
        rows_written_by(&mut receiver, batch(5_000, 1, 2), 3_000),
        first_pair_copy
    );
    assert_eq!(
        rows_written_by(&mut receiver, batch(10_000, 1, 1), 3_001),
        first_new_pair
    );
    assert_eq!(
        receiver.state().to_json(),
        state_before,
        "the document holds no fence record"
    );
    // The fence still refuses an older run of any one pair: one point lookup.
    assert_eq!(accept(&mut receiver, batch(7_777, 2, 2), 4_000), Ok(1));
    assert_eq!(
        accept(&mut receiver, batch(7_777, 1, 3), 4_001),
        Err((409, "stale_stamp".to_owned()))
    );
    let info = serde_json::to_value(receiver.info().unwrap()).unwrap();
    assert_eq!(info["inboundFenceCount"], 10_001);
    let shown: usize = info["state"]["subscriptions"]["inbound"]["bySourcePath"]
        .as_object()
        .unwrap()
        .values()
        .map(|by_key| by_key.as_object().unwrap().len())
        .sum();
    assert_eq!(
        shown as u64, DEFAULT_INBOUND_FENCE_PAGE,
        "stream info shows the first page"
    );
    let record = &info["state"]["subscriptions"]["inbound"]["bySourcePath"]["/users/00000"]["aggregate"];
    assert_eq!(record["numEventsReceived"], 2);
    let rows = fence_rows(&receiver);
    assert_eq!(rows.len(), 10_001);
    assert_eq!(rows[7_777].2["cursorChangedAtSourceOffset"], 2);
    assert_eq!(rows[7_777].2["numEventsReceived"], 2);
}

#[test]
fn s11_the_debug_card_pages_the_inbound_records_in_order() {
    let mut receiver = memory_stream("/aggregate");
    for source in 0..25 {
        assert_eq!(accept(&mut receiver, batch(source, 1, 1), 1_000 + source as i64), Ok(1));
    }
    let mut seen = Vec::new();
    let mut query = "inboundLimit=10".to_owned();
    for _page in 0..5 {
        let (status, card) = card(&mut receiver, &query);
        assert_eq!(status, 200, "{card}");
        assert_eq!(card["inboundFenceCount"], 25);
        for (path, by_key) in card["inbound"]["bySourcePath"].as_object().unwrap() {
            assert_eq!(by_key["aggregate"]["numEventsReceived"], 1);
            seen.push(path.clone());
        }
        match card["nextInboundAfter"].as_str() {
            Some(next) => {
                query = format!(
                    "inboundLimit=10&inboundAfter={}",
                    next.replace('/', "%2F").replace(':', "%3A")
                )
            }
            None => break,
        }
    }
    let expected: Vec<String> = (0..25).map(source_path).collect();
    assert_eq!(seen, expected, "every record once, in path order, over three pages");
    let (_, first) = card(&mut receiver, "");
    assert_eq!(
        first["nextInboundAfter"],
        Value::Null,
        "25 records fit the default page"
    );
    assert_eq!(first["subscriptions"], json!([]));
    assert_eq!(first["connections"], json!([]));
}

#[test]
fn s11_a_malformed_card_paging_parameter_is_400_and_changes_nothing() {
    let mut receiver = memory_stream("/aggregate");
    assert_eq!(accept(&mut receiver, batch(1, 1, 1), 1_000), Ok(1));
    let (_, before) = card(&mut receiver, "");
    let head = receiver.lifetime().unwrap().head;
    for (query, parameter) in [
        ("inboundLimit=0", "inboundLimit"),
        ("inboundLimit=100000", "inboundLimit"),
        ("inboundLimit=1e3", "inboundLimit"),
        ("inboundAfter=%2Fusers%2F00001", "inboundAfter"),
        ("inboundAfter=users%3Aaggregate", "inboundAfter"),
        ("inboundAfter=%ZZ", "inboundAfter"),
        ("inboundAfters=1", "query"),
    ] {
        let (status, body) = card(&mut receiver, query);
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["error"]["code"], "invalid_parameter", "{query}");
        assert_eq!(body["error"]["details"]["parameter"], parameter, "{query}");
    }
    assert_eq!(card(&mut receiver, "").1, before, "nothing changed");
    assert_eq!(receiver.lifetime().unwrap().head, head);
}

#[test]
fn s12_the_fence_table_is_bounded_by_a_row_count_and_the_refusal_commits_nothing() {
    let file = FileStream::new("/aggregate");
    {
        let mut receiver = file.open();
        assert_eq!(accept(&mut receiver, batch(0, 1, 1), 1_000), Ok(1));
    }
    // Fill the table to its bound directly (a real fill is 100,000 copies).
    let connection = rusqlite::Connection::open(file.db()).unwrap();
    connection
        .execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1) \
             INSERT INTO inbound_fences SELECT printf('/seeded/%06d', i), 'k', 's', '1970-01-01T00:00:01.000Z', 1, 1, 0 FROM n",
            [MAX_INBOUND_FENCE_RECORDS - 1],
        )
        .unwrap();
    connection
        .execute(
            "UPDATE inbound_fence_count SET records = ?1",
            [MAX_INBOUND_FENCE_RECORDS],
        )
        .unwrap();
    drop(connection);
    let mut receiver = file.open();
    let head = receiver.lifetime().unwrap().head;
    let refused = receiver.accept_copies(batch(1, 1, 1), &inputs(2_000, 1)).unwrap_err();
    assert_eq!((refused.status(), refused.code()), (422, "inbound_fence_full"));
    assert!(refused.to_string().contains("100000"), "{refused}");
    assert_eq!(receiver.lifetime().unwrap().head, head, "nothing committed");
    assert_eq!(receiver.inbound_fence_count().unwrap(), MAX_INBOUND_FENCE_RECORDS);
    // A pair the stream already fences is not a new record: still accepted.
    assert_eq!(accept(&mut receiver, batch(0, 1, 2), 3_000), Ok(1));
    // And the stream's own subscriptions never compete with the records.
    let configure = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "own",
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/elsewhere", "delivery": {"start": "now", "onFailingEvent": "halt"}}}});
    receiver
        .append_body(configure.to_string().as_bytes(), Authority::Public, &inputs(4_000, 2))
        .expect("the stream's own subscriptions still fit");
}

#[test]
fn s5_a_version_4_stream_moves_its_records_from_the_document_into_the_table_on_open() {
    let file = FileStream::new("/aggregate");
    let live = {
        let mut receiver = file.open();
        for source in 0..3 {
            assert_eq!(accept(&mut receiver, batch(source, 1, 1), 1_000), Ok(1));
        }
        assert_eq!(accept(&mut receiver, batch(1, 4, 2), 2_000), Ok(1));
        fence_rows(&receiver)
    };
    // As an engine before issue 20 left it: the records inside the version-4
    // document, no table rows.
    let connection = rusqlite::Connection::open(file.db()).unwrap();
    let mut by_source_path = serde_json::Map::new();
    for (path, key, record) in &live {
        by_source_path.insert(path.clone(), json!({ key.clone(): record }));
    }
    let old_document =
        json!({"subscriptions": {"inbound": {"bySourcePath": by_source_path}, "outbound": {"byKey": {}}}});
    connection
        .execute(
            "UPDATE reduced_state SET version = 4, state = ?1",
            [old_document.to_string()],
        )
        .unwrap();
    connection.execute("DELETE FROM inbound_fences", []).unwrap();
    connection.execute("DELETE FROM inbound_fence_count", []).unwrap();
    drop(connection);
    let reopened = file.open();
    assert_eq!(fence_rows(&reopened), live, "rebuilt from the committed copies");
    assert_eq!(reopened.inbound_fence_count().unwrap(), 3);
    assert_eq!(
        reopened.state().to_json(),
        r#"{"subscriptions":{"outbound":{"byKey":{}}}}"#
    );
    let version: i64 = rusqlite::Connection::open(file.db())
        .unwrap()
        .query_row("SELECT version FROM reduced_state", [], |row| row.get(0))
        .unwrap();
    assert_eq!(version, tributary::state::STATE_VERSION);
}

#[test]
fn s3_rule_6_a_destroyed_stream_forgets_its_records() {
    let mut receiver = memory_stream("/aggregate");
    assert_eq!(accept(&mut receiver, batch(1, 1, 1), 1_000), Ok(1));
    receiver.destroy().unwrap();
    assert_eq!(receiver.inbound_fence_count().unwrap(), 0);
    // The old run is not fenced in the new lifetime.
    assert_eq!(accept(&mut receiver, batch(1, 1, 1), 2_000), Ok(1));
    assert_eq!(receiver.inbound_fence_count().unwrap(), 1);
    assert_eq!(fence_rows(&receiver)[0].2["numEventsReceived"], 1);
}
