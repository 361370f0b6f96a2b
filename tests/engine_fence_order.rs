//! The stamp fence orders numerically (docs/design.md §7 rule 2, issue 19 "Typed
//! records"): a newer source lifetime wins as a time, not as text, and a
//! newer config generation wins as an integer. The inbound record keeps its
//! §5 shape in stream info's reduced state.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use serde_json::json;
use tributary::copy::{copy_idempotency_key, CopyBatch, Stamp};
use tributary::error::ApiFailure;
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;
use tributary::time::rfc3339_millis;

/// 9999-12-31T23:59:59.000Z and 10000-01-01T00:00:00.000Z.
const LAST_SECOND_OF_9999_MS: i64 = 253_402_300_799_000;
const FIRST_MS_OF_10000: i64 = 253_402_300_800_000;

/// A batch of one copy of source offset `offset`, from the lifetime started
/// at `created_ms`, in generation `generation`.
fn batch(created_ms: i64, generation: u64, offset: u64) -> CopyBatch {
    let stamp = Stamp {
        source_project_id: common::PROJECT.to_owned(),
        source_path: "/source".to_owned(),
        subscription_key: "copy".to_owned(),
        stream_id: format!("stream-{created_ms}"),
        stream_created_at: rfc3339_millis(created_ms),
        cursor_changed_at_source_offset: generation,
    };
    let event = json!({"type": "x", "idempotencyKey": copy_idempotency_key(&stamp, offset),
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
        .accept_copies(batch, &common::inputs(now_ms, 1))
        .map(|accepted| accepted.appended.len() - accepted.deduplicated)
        .map_err(|error| (error.status(), error.code().to_owned()))
}

#[test]
fn s7_rule_2_a_later_lifetime_is_newer_as_a_time_past_year_9999() {
    // As text "10000-01-01…" sorts before "9999-12-31…": the old string
    // comparison refused the recreated source's copies as stale.
    let mut receiver = common::memory_stream("/sink");
    assert_eq!(accept(&mut receiver, batch(LAST_SECOND_OF_9999_MS, 5, 1), 1_000), Ok(1));
    assert_eq!(accept(&mut receiver, batch(FIRST_MS_OF_10000, 1, 1), 2_000), Ok(1));
    assert_eq!(
        accept(&mut receiver, batch(LAST_SECOND_OF_9999_MS, 5, 2), 3_000),
        Err((409, "stale_stamp".to_owned())),
        "the older lifetime is now fenced off"
    );
}

#[test]
fn s7_rule_2_generations_order_as_integers() {
    let mut receiver = common::memory_stream("/sink");
    assert_eq!(accept(&mut receiver, batch(0, 10, 1), 1_000), Ok(1));
    assert_eq!(
        accept(&mut receiver, batch(0, 9, 2), 2_000),
        Err((409, "stale_stamp".to_owned()))
    );
    assert_eq!(
        accept(&mut receiver, batch(0, 10, 1), 3_000),
        Ok(0),
        "equal: redelivery"
    );
    assert_eq!(accept(&mut receiver, batch(0, 100, 2), 4_000), Ok(1));
}

#[test]
fn s5_inbound_record_keeps_its_reduced_state_shape() {
    let mut receiver = common::memory_stream("/sink");
    assert_eq!(accept(&mut receiver, batch(0, 3, 1), 1_000), Ok(1));
    assert_eq!(accept(&mut receiver, batch(0, 3, 2), 2_000), Ok(1));
    // Stored as a row of `inbound_fences` (issue 20), shown as §5 shapes it.
    let info = receiver.info().unwrap();
    let inbound = serde_json::to_string(&info.state.subscriptions.inbound).unwrap();
    assert_eq!(
        inbound,
        r#"{"bySourcePath":{"/source":{"copy":{"streamId":"stream-0","streamCreatedAt":"1970-01-01T00:00:00.000Z","cursorChangedAtSourceOffset":3,"numEventsReceived":2,"lastEventReceivedAt":"1970-01-01T00:00:02.000Z"}}}}"#
    );
}

/// `batch`'s copy with its `source.copiedFrom` removed: a malformed copy.
fn without_provenance(mut batch: CopyBatch) -> CopyBatch {
    for event in &mut batch.events {
        event.as_object_mut().unwrap().remove("source");
    }
    batch
}

/// The receiver's head, its fence record of `/source`, and how many
/// refusals it counted.
fn observed(receiver: &Stream<RusqliteStorage>) -> (u64, Vec<(String, String, serde_json::Value)>, bool) {
    let head = receiver.info().unwrap().head;
    let fenced_once = receiver.metrics_text().contains("tributary_fence_rejections_total 1\n");
    (head, common::fence_rows(receiver), fenced_once)
}

#[test]
fn s7_rule_2_a_stale_and_malformed_batch_is_refused_as_stale_and_changes_nothing() {
    let mut receiver = common::memory_stream("/sink");
    assert_eq!(accept(&mut receiver, batch(0, 10, 1), 1_000), Ok(1));
    let before = observed(&receiver);
    assert_eq!(
        accept(&mut receiver, without_provenance(batch(0, 9, 2)), 2_000),
        Err((409, "stale_stamp".to_owned())),
        "the fence answers before the batch's shape"
    );
    let after = observed(&receiver);
    assert_eq!((after.0, &after.1), (before.0, &before.1), "nothing written");
    assert!(after.2, "the refusal is counted once");
    // Not stale, the same malformed copy is refused as malformed.
    assert_eq!(
        accept(&mut receiver, without_provenance(batch(0, 10, 2)), 3_000),
        Err((400, "invalid_copy_batch".to_owned()))
    );
    assert_eq!(observed(&receiver), after, "nothing written, no fence refusal counted");
}

#[test]
fn s7_rule_2_a_stale_empty_batch_is_refused_as_stale() {
    let mut receiver = common::memory_stream("/sink");
    assert_eq!(accept(&mut receiver, batch(0, 10, 1), 1_000), Ok(1));
    let mut empty = batch(0, 9, 2);
    empty.events.clear();
    assert_eq!(
        accept(&mut receiver, empty, 2_000),
        Err((409, "stale_stamp".to_owned()))
    );
    let mut empty = batch(0, 10, 2);
    empty.events.clear();
    assert_eq!(accept(&mut receiver, empty, 3_000), Ok(0));
}

#[test]
fn s7_rule_2_a_stale_batch_whose_copies_all_drop_is_refused_as_stale_and_audits_nothing() {
    // A copy naming the receiver in its chain is a cycle: dropped and
    // audited, the audit committed in the append's transaction, where the
    // fence now runs first.
    let cycle = |generation: u64, offset: u64| {
        let mut cycled = batch(0, generation, offset);
        let hops = cycled.events[0]["source"]["copiedFrom"].as_array_mut().unwrap();
        let mut receiver_hop = hops[0].clone();
        receiver_hop["path"] = json!("/sink");
        hops.insert(0, receiver_hop);
        cycled
    };
    let mut receiver = common::memory_stream("/sink");
    assert_eq!(accept(&mut receiver, batch(0, 10, 1), 1_000), Ok(1));
    let before = observed(&receiver);
    assert_eq!(
        accept(&mut receiver, cycle(9, 2), 2_000),
        Err((409, "stale_stamp".to_owned()))
    );
    let after = observed(&receiver);
    assert_eq!((after.0, &after.1), (before.0, &before.1), "no audit written");
    assert!(after.2);
    // Current, the same cycle commits its audit.
    assert_eq!(accept(&mut receiver, cycle(10, 3), 3_000), Ok(1));
    assert_eq!(receiver.info().unwrap().head, before.0 + 1);
}

#[test]
fn s7_rule_2_a_stale_batch_to_a_full_stream_is_refused_as_stale() {
    let mut receiver = common::memory_stream("/sink");
    assert_eq!(accept(&mut receiver, batch(0, 10, 1), 1_000), Ok(1));
    receiver.set_deployment(tributary::deployment::Deployment {
        storage_budget_bytes: Some(1),
        ..Default::default()
    });
    assert_eq!(
        accept(&mut receiver, batch(0, 9, 2), 2_000),
        Err((409, "stale_stamp".to_owned())),
        "the fence answers before the budget"
    );
    assert_eq!(
        accept(&mut receiver, batch(0, 10, 2), 3_000),
        Err((507, "stream_full".to_owned())),
        "a current batch meets the budget"
    );
}
