//! Retention's work is bounded per step and per turn (docs/design.md §16, §12)
//! over a log of a million events: an open counts no more than a
//! checkpoint's worth of rows, a trim step deletes at most its budget in a
//! handful of statements, one alarm turn runs at most its steps, and the
//! log ends at its limit with its byte count exact.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{inputs, path, tempdir_lite::TempDir, PROJECT};
use serde_json::json;
use tributary::delivery::Turn;
use tributary::event::Authority;
use tributary::limits::{COUNT_STEP_ROWS, TRIM_STEPS_PER_TURN, TRIM_STEP_ROWS};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;

const LOG: u64 = 1_000_000;

fn open(file: &std::path::Path) -> Stream<RusqliteStorage> {
    Stream::open(RusqliteStorage::open(file).unwrap(), PROJECT, path("/big")).unwrap()
}

#[test]
fn a_million_event_log_is_counted_and_trimmed_in_bounded_steps() {
    let dir = TempDir::new();
    let file = dir.path().join("big.sqlite");
    let mut stream = open(&file);
    let retention = json!({"type": "events.iterate.com/stream/retention-configured", "payload": {"maxEvents": 10}});
    stream
        .append_body(retention.to_string().as_bytes(), Authority::Public, &inputs(1_000, 1))
        .unwrap();
    drop(stream);
    // A log written before the byte count existed: a million rows behind it.
    let connection = rusqlite::Connection::open(&file).unwrap();
    connection
        .execute(
            "WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ?1) \
             INSERT INTO events (event_offset, type, payload, metadata, idempotency_key, ephemeral, created_at_ms, source) \
             SELECT i, 'tick', '{\"n\":1}', '{}', NULL, 0, 1000, NULL FROM n",
            [LOG + 1],
        )
        .unwrap();
    connection.execute("DELETE FROM retention_progress", []).unwrap();
    drop(connection);

    let mut stream = open(&file);
    let opened = stream.storage().take_statement_counts();
    assert!(
        opened.values().sum::<u64>() < 60,
        "an open runs a bounded number of statements: {opened:?}"
    );
    assert_eq!(stream.retained_bytes(), 0, "and counts nothing of the old log yet");
    let row_bytes = ("tick".len() + r#"{"n":1}"#.len() + "{}".len()) as u64;

    let mut steps = 0u64;
    let mut counted_steps = 0u64;
    let mut most_deleted = 0;
    loop {
        steps += 1;
        assert!(steps < 2 * LOG / TRIM_STEP_ROWS, "trimming never settled");
        let mut turn = Turn::begin(2_000);
        let before = stream.retained_bytes();
        let events_before = stream.info().unwrap().event_count;
        turn.trim(&mut stream, 2_000, [2; 16]).unwrap();
        let statements: u64 = stream.storage().take_statement_counts().values().sum();
        let turn_steps = turn.take_trim_steps();
        assert!(turn_steps.len() <= TRIM_STEPS_PER_TURN as usize);
        let deleted = events_before - stream.info().unwrap().event_count;
        assert!(
            deleted <= u64::from(TRIM_STEPS_PER_TURN) * TRIM_STEP_ROWS,
            "one turn: {deleted}"
        );
        assert!(
            statements <= 12 * u64::from(TRIM_STEPS_PER_TURN),
            "one turn runs a bounded number of statements: {statements}"
        );
        most_deleted = most_deleted.max(deleted);
        if stream.retained_bytes() > before {
            counted_steps += 1;
            // At most a turn's count steps of ticks (and the retention event).
            let most = u64::from(TRIM_STEPS_PER_TURN) * COUNT_STEP_ROWS * row_bytes + 1024;
            assert!(stream.retained_bytes() - before <= most);
        }
        if !stream.trim_due(2_000).unwrap() {
            break;
        }
    }
    assert!(
        counted_steps >= LOG / (COUNT_STEP_ROWS * u64::from(TRIM_STEPS_PER_TURN)),
        "{counted_steps}"
    );
    assert_eq!(most_deleted, u64::from(TRIM_STEPS_PER_TURN) * TRIM_STEP_ROWS);
    let info = serde_json::to_value(stream.info().unwrap()).unwrap();
    assert_eq!(info["eventCount"], 10);
    assert_eq!(info["firstOffset"], LOG + 2 - 10);
    assert_eq!(info["bytes"], 10 * row_bytes, "the byte count is exact after all that");
    drop(stream);
    assert_eq!(open(&file).retained_bytes(), 10 * row_bytes, "and survives a restart");
    // The snapshot's fold of a million trimmed events is the live state.
    let reopened = open(&file);
    let live = reopened.state().clone();
    assert_eq!(reopened.rebuild_state().unwrap(), live);
    assert!(
        live.retention.is_some(),
        "the trimmed retention-configured lives on in the snapshot"
    );
}
