//! A copy batch folds as its copies one by one (docs/design.md §4 copies, §5
//! inbound, §7 rule 2, §3 rule 4; issue 33): an append reads its batch's
//! idempotency keys in one query and each `(sourcePath, subscriptionKey)`
//! fence record once, then writes each record once (a batch whose copies
//! all name one pair and run folds the last hop its reader read, without
//! reading each copy's provenance again). Whatever the batching,
//! a receiver ends with the same events, the same duplicates, the same fence
//! rows (and a rebuild, which folds copy by copy, agrees), and the same
//! refusals.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{fence_rows, inputs, memory_stream, read, FileStream};
use serde_json::{json, Value};
use tributary::copy::{copy_idempotency_key, CopyBatch, Stamp};
use tributary::error::ApiFailure;
use tributary::limits::MAX_INBOUND_FENCE_RECORDS;
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::storage::Storage;
use tributary::stream::Stream;
use tributary::time::rfc3339_millis;

/// The stamp of source `source`'s run `generation` (one lifetime).
fn stamp(source: u64, generation: u64) -> Stamp {
    Stamp {
        source_project_id: common::PROJECT.to_owned(),
        source_path: format!("/source/{source}"),
        subscription_key: "copy".to_owned(),
        stream_id: format!("stream-{source}"),
        stream_created_at: rfc3339_millis(1_000),
        cursor_changed_at_source_offset: generation,
    }
}

/// The copy of `offset` under `stamp`, with `payload`.
fn copy(stamp: &Stamp, offset: u64, payload: Value) -> Value {
    json!({"type": "x", "payload": payload, "idempotencyKey": copy_idempotency_key(stamp, offset),
        "source": {"copiedFrom": [{"projectId": common::PROJECT, "path": stamp.source_path, "streamId": stamp.stream_id,
            "streamCreatedAt": stamp.stream_created_at, "offset": offset, "type": "x",
            "createdAt": "2026-01-01T00:00:00.000Z", "subscriptionKey": stamp.subscription_key,
            "cursorChangedAtSourceOffset": stamp.cursor_changed_at_source_offset}]}})
}

/// A batch under `stamp` of the copies `(stamp, offset)`, payload `{offset}`.
fn batch(stamp: &Stamp, copies: &[(&Stamp, u64)]) -> CopyBatch {
    CopyBatch {
        stamp: stamp.clone(),
        events: copies
            .iter()
            .map(|(of, offset)| copy(of, *offset, json!({ "offset": offset })))
            .collect(),
    }
}

/// `(new, deduplicated)` the batch committed, or the refusal's status, code
/// and details.
type Outcome = Result<(usize, usize), (u16, String, Value)>;

fn accept(receiver: &mut Stream<RusqliteStorage>, batch: CopyBatch, now_ms: i64) -> Outcome {
    receiver
        .accept_copies(batch, &inputs(now_ms, 1))
        .map(|accepted| (accepted.appended.len() - accepted.deduplicated, accepted.deduplicated))
        .map_err(|error| (error.status(), error.code().to_owned(), Value::Object(error.details())))
}

/// The same batch, one copy per batch (the per-event path): the summed
/// outcome, or the first refusal.
fn accept_one_by_one(receiver: &mut Stream<RusqliteStorage>, whole: CopyBatch, now_ms: i64) -> Outcome {
    let (mut new, mut deduplicated) = (0, 0);
    for event in whole.events {
        let (n, d) = accept(
            receiver,
            CopyBatch {
                stamp: whole.stamp.clone(),
                events: vec![event],
            },
            now_ms,
        )?;
        new += n;
        deduplicated += d;
    }
    Ok((new, deduplicated))
}

/// Every event of the stream as read back, and its fence rows.
fn contents(receiver: &mut Stream<RusqliteStorage>) -> (Value, Vec<(String, String, Value)>) {
    let (status, body) = read(receiver, "after=0&limit=1000");
    assert_eq!(status, 200, "{body}");
    (body["events"].clone(), fence_rows(receiver))
}

/// Runs `batches` on one receiver as batches and on another copy by copy,
/// and checks they agree at every step, and with a rebuild at the end.
fn agree(batches: Vec<CopyBatch>) -> Vec<Outcome> {
    let mut batched = memory_stream("/sink");
    let mut one_by_one = memory_stream("/sink");
    let mut outcomes = Vec::new();
    for (step, whole) in batches.into_iter().enumerate() {
        let now_ms = 10_000 + step as i64;
        let outcome = accept(&mut batched, whole.clone(), now_ms);
        let single = accept_one_by_one(&mut one_by_one, whole, now_ms);
        match (&outcome, &single) {
            // The refusals used here come at a batch's first copy, so copy by
            // copy commits nothing either; the details (an index) may differ.
            (Err((status, code, _)), Err((s, c, _))) => assert_eq!((status, code), (s, c), "step {step}"),
            _ => assert_eq!(single, outcome, "step {step}"),
        }
        assert_eq!(contents(&mut batched), contents(&mut one_by_one), "step {step}");
        outcomes.push(outcome);
    }
    let live = fence_rows(&batched);
    batched.rebuild_state().unwrap();
    assert_eq!(
        fence_rows(&batched),
        live,
        "a rebuild folds copy by copy to the same rows"
    );
    outcomes
}

#[test]
fn s4_a_batch_with_a_duplicate_inside_it_folds_each_copy_once() {
    let run = stamp(1, 1);
    let outcomes = agree(vec![batch(
        &run,
        &[(&run, 1), (&run, 2), (&run, 2), (&run, 3), (&run, 1)],
    )]);
    assert_eq!(outcomes, vec![Ok((3, 2))]);
}

#[test]
fn s4_a_batch_partly_seen_before_counts_only_its_new_copies() {
    let run = stamp(1, 1);
    let outcomes = agree(vec![
        batch(&run, &[(&run, 1), (&run, 2)]),
        batch(&run, &[(&run, 1), (&run, 2), (&run, 3), (&run, 4)]),
        batch(&run, &[(&run, 3), (&run, 4)]),
    ]);
    assert_eq!(outcomes, vec![Ok((2, 0)), Ok((2, 2)), Ok((0, 2))]);
    let mut receiver = memory_stream("/sink");
    for whole in [
        batch(&run, &[(&run, 1), (&run, 2)]),
        batch(&run, &[(&run, 1), (&run, 2), (&run, 3), (&run, 4)]),
    ] {
        accept(&mut receiver, whole, 1_000).unwrap();
    }
    let rows = fence_rows(&receiver);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].2["numEventsReceived"], 4, "{rows:?}");
}

#[test]
fn s7_rule_2_a_fence_move_mid_stream_and_inside_a_batch_lands_on_the_last_stamp() {
    let (old, new, newer) = (stamp(1, 1), stamp(1, 2), stamp(1, 3));
    let outcomes = agree(vec![
        batch(&old, &[(&old, 1), (&old, 2)]),
        // The source's cursor moved: the copies of the new run.
        batch(&new, &[(&new, 3), (&new, 4)]),
        // Copies of two runs of one pair in one batch: the fence lands on the
        // last copy's stamp, as it would copy by copy.
        batch(&newer, &[(&new, 5), (&newer, 6), (&newer, 7)]),
        batch(&old, &[(&old, 8)]),
    ]);
    assert_eq!(outcomes[..3], [Ok((2, 0)), Ok((2, 0)), Ok((3, 0))]);
    assert!(
        matches!(&outcomes[3], Err((409, code, _)) if code == "stale_stamp"),
        "{:?}",
        outcomes[3]
    );
}

#[test]
fn s7_rule_2_copies_of_several_pairs_in_one_batch_each_fold_into_their_record() {
    let (a, b, c) = (stamp(1, 1), stamp(2, 4), stamp(3, 2));
    let outcomes = agree(vec![
        batch(&a, &[(&a, 1), (&b, 1), (&a, 2), (&c, 1), (&b, 2), (&a, 3)]),
        batch(&b, &[(&b, 2), (&b, 3), (&c, 2)]),
    ]);
    assert_eq!(outcomes, vec![Ok((6, 0)), Ok((2, 1))]);
}

#[test]
fn s3_rule_4_a_key_reused_for_other_content_refuses_the_whole_batch() {
    let run = stamp(1, 1);
    let mut receiver = memory_stream("/sink");
    assert_eq!(
        accept(&mut receiver, batch(&run, &[(&run, 1), (&run, 2)]), 1_000),
        Ok((2, 0))
    );
    let before = contents(&mut receiver);
    // Against a committed copy, and against one earlier in the same batch.
    let committed = CopyBatch {
        stamp: run.clone(),
        events: vec![
            copy(&run, 3, json!({"offset": 3})),
            copy(&run, 1, json!({"other": true})),
        ],
    };
    let refused = accept(&mut receiver, committed, 2_000).unwrap_err();
    assert_eq!(
        (refused.0, refused.1.as_str()),
        (409, "idempotency_key_reused"),
        "{refused:?}"
    );
    assert_eq!(refused.2["offset"], 1, "names the committed copy");
    let within = CopyBatch {
        stamp: run.clone(),
        events: vec![
            copy(&run, 3, json!({"offset": 3})),
            copy(&run, 4, json!({"offset": 4})),
            copy(&run, 3, json!({"other": true})),
        ],
    };
    let refused = accept(&mut receiver, within, 3_000).unwrap_err();
    assert_eq!(
        (refused.0, refused.1.as_str()),
        (409, "idempotency_key_reused"),
        "{refused:?}"
    );
    assert_eq!(refused.2["offset"], 3, "names the copy earlier in the batch");
    assert_eq!(contents(&mut receiver), before, "nothing committed");
}

#[test]
fn s12_a_batch_opening_two_pairs_at_the_bound_is_refused_at_the_second_and_commits_nothing() {
    let (a, b, c) = (stamp(1, 1), stamp(2, 1), stamp(3, 1));
    let file = FileStream::new("/sink");
    {
        let mut receiver = file.open();
        assert_eq!(accept(&mut receiver, batch(&a, &[(&a, 1)]), 1_000), Ok((1, 0)));
    }
    // One record short of the bound (a real fill is 100,000 copies).
    let connection = rusqlite::Connection::open(file.db()).unwrap();
    connection
        .execute(
            "UPDATE inbound_fence_count SET records = ?1",
            [MAX_INBOUND_FENCE_RECORDS - 1],
        )
        .unwrap();
    drop(connection);
    let mut receiver = file.open();
    let before = contents(&mut receiver);
    // a is fenced already, b opens the last record, c would open one more.
    let whole = batch(&b, &[(&a, 2), (&b, 1), (&b, 2), (&a, 3), (&c, 1), (&b, 3)]);
    let refused = accept(&mut receiver, whole, 2_000).unwrap_err();
    assert_eq!(
        (refused.0, refused.1.as_str()),
        (422, "inbound_fence_full"),
        "{refused:?}"
    );
    assert_eq!(
        refused.2["index"], 4,
        "refused at the copy that opens the pair: {refused:?}"
    );
    assert_eq!(contents(&mut receiver), before, "nothing committed");
    assert_eq!(receiver.inbound_fence_count().unwrap(), MAX_INBOUND_FENCE_RECORDS - 1);
    // Without c the batch fits: b takes the last record.
    let fits = batch(&b, &[(&a, 2), (&b, 1), (&b, 2), (&a, 3), (&b, 3)]);
    assert_eq!(accept(&mut receiver, fits, 3_000), Ok((5, 0)));
    assert_eq!(receiver.inbound_fence_count().unwrap(), MAX_INBOUND_FENCE_RECORDS);
    let rows = fence_rows(&receiver);
    let received: Vec<(String, Value)> = rows
        .iter()
        .map(|(path, _, record)| (path.clone(), record["numEventsReceived"].clone()))
        .collect();
    assert_eq!(
        received,
        vec![("/source/1".to_owned(), json!(3)), ("/source/2".to_owned(), json!(3))]
    );
}

#[test]
fn s4_a_batch_of_copies_writes_one_fence_row_per_pair_not_per_copy() {
    let run = stamp(1, 1);
    let mut receiver = memory_stream("/sink");
    assert_eq!(accept(&mut receiver, batch(&run, &[(&run, 1)]), 1_000), Ok((1, 0)));
    let written = |receiver: &mut Stream<RusqliteStorage>, copies: &[(&Stamp, u64)], now_ms| {
        let before = receiver.storage().rows_written();
        assert!(accept(receiver, batch(&run, copies), now_ms).is_ok());
        receiver.storage().rows_written() - before
    };
    let one = written(&mut receiver, &[(&run, 2)], 2_000);
    let hundred: Vec<(&Stamp, u64)> = (3..103).map(|offset| (&run, offset)).collect();
    let many = written(&mut receiver, &hundred, 3_000);
    // Each copy adds its event row; the batch's fence record is written
    // once, as for one copy (SQLite's change count: the platform's
    // `rowsWritten` also counts each key's index entry). Folding copy by copy
    // wrote 2 per copy here.
    assert_eq!((one, many), (2, 101));
}

#[test]
fn s7_the_internal_answer_carries_counts_not_the_copies() {
    let run = stamp(1, 1);
    let mut receiver = memory_stream("/sink");
    accept(&mut receiver, batch(&run, &[(&run, 1)]), 1_000).unwrap();
    let accepted = receiver
        .accept_copies(batch(&run, &[(&run, 1), (&run, 2), (&run, 3)]), &inputs(2_000, 1))
        .unwrap();
    assert_eq!(accepted.appended.len(), 3);
    assert_eq!(
        serde_json::to_value(accepted.answer()).unwrap(),
        json!({"committed": 2, "deduplicated": 1, "dropped": 0})
    );
}

#[test]
fn s12_a_full_copy_batch_runs_about_one_statement_per_eleven_copies() {
    let run = stamp(1, 1);
    let mut receiver = memory_stream("/sink");
    accept(&mut receiver, batch(&run, &[(&run, 1)]), 1_000).unwrap();
    receiver.storage().take_statement_counts();
    let copies: Vec<(&Stamp, u64)> = (2..1002).map(|offset| (&run, offset)).collect();
    assert_eq!(accept(&mut receiver, batch(&run, &copies), 2_000), Ok((1000, 0)));
    let counts = receiver.storage().take_statement_counts();
    let per_copy = counts.values().sum::<u64>() as f64 / 1000.0;
    println!("statements per copied event: {per_copy:.3} ({counts:#?})");
    // The rows go 11 to an insert (9 values a row, at most 100 bound values
    // a statement); the fence record and the keys are read and written once
    // a batch. One insert per copy was 1.005.
    assert!(per_copy <= 0.1, "{per_copy:.3} statements per copy: {counts:#?}");
    let (_, page) = read(&mut receiver, "after=0&limit=1000");
    let payloads: Vec<&Value> = page["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["payload"])
        .collect();
    let expected: Vec<Value> = (1..1001).map(|offset| json!({ "offset": offset })).collect();
    assert_eq!(payloads, expected.iter().collect::<Vec<_>>(), "every copy in its place");
    let (_, last) = read(&mut receiver, "after=1000&limit=10");
    assert_eq!(
        (&last["head"], &last["events"][0]["payload"]),
        (&json!(1001), &json!({"offset": 1001}))
    );
    let rows = fence_rows(&receiver);
    assert_eq!(rows[0].2["numEventsReceived"], 1001, "{rows:?}");
}
