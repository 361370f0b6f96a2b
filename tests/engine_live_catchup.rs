//! Live catch-up's failure paths natively (docs/design.md §10, §12): a filtered
//! catch-up that scans its whole budget without a match still makes
//! progress — SSE ends with an `id:` carrying the scanned position (so the
//! client's `Last-Event-ID` moves), a WebSocket is told to keep scanning on
//! the next turn without an ack — and never rescans from the start.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{inputs, memory_stream};
use serde_json::{json, Value};
use tributary::event::Authority;
use tributary::limits::{MAX_LIVE_BACKLOG_BYTES, MAX_LIVE_SSE_PINNED_BYTES};
use tributary::live::{sse_catch_up_budget, LiveQuery, Transport};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;

const MIB: usize = 1024 * 1024;

/// `noise` events of type `noise`, then one `signal`: returns the signal's offset.
fn noisy_stream(noise: usize) -> (Stream<RusqliteStorage>, u64) {
    let mut stream = memory_stream("/noisy");
    let mut left = noise;
    while left > 0 {
        let n = left.min(1000);
        let batch: Vec<Value> = (0..n).map(|_| json!({"type": "noise"})).collect();
        stream
            .append_body(
                json!({"events": batch}).to_string().as_bytes(),
                Authority::Public,
                &inputs(1_000, 1),
            )
            .unwrap();
        left -= n;
    }
    stream
        .append_body(
            json!({"type": "signal", "payload": "here"}).to_string().as_bytes(),
            Authority::Public,
            &inputs(1_000, 1),
        )
        .unwrap();
    let head = stream.head();
    (stream, head)
}

fn open(stream: &mut Stream<RusqliteStorage>, raw: &str, last_event_id: Option<&str>, transport: Transport) -> String {
    let query = LiveQuery::parse(raw, last_event_id).unwrap();
    let (connection, _) = stream.open_live(&query, transport, 2_000, [9; 16]).unwrap();
    connection.connection_key
}

/// The `id:` fields of an SSE text, in order.
fn sse_ids(frames: &[String]) -> Vec<u64> {
    frames
        .iter()
        .flat_map(|frame| frame.lines())
        .filter_map(|line| line.strip_prefix("id: "))
        .map(|id| id.parse().unwrap())
        .collect()
}

/// The `event: event` messages' offsets (the data of each).
fn sse_event_offsets(frames: &[String]) -> Vec<u64> {
    frames
        .iter()
        .flat_map(|frame| frame.split("\n\n"))
        .filter(|message| message.lines().any(|line| line == "event: event"))
        .filter_map(|message| message.lines().find_map(|line| line.strip_prefix("data: ")))
        .map(|data| serde_json::from_str::<Value>(data).unwrap()["offset"].as_u64().unwrap())
        .collect()
}

#[test]
fn s10_a_filtered_sse_catch_up_that_finds_nothing_sends_its_scanned_position_and_the_reconnect_resumes_there() {
    let (mut stream, signal) = noisy_stream(17_000);
    let key = open(&mut stream, "after=0&types=signal", None, Transport::Sse);
    let first = stream.live_catch_up(&key, MIB).unwrap();
    assert!(!first.caught_up, "16 pages of 1000 rows do not reach offset {signal}");
    assert!(sse_event_offsets(&first.frames).is_empty(), "no signal yet");
    // The position travels as an `id:` on a message EventSource dispatches
    // (the `eventsource` client ignores a message without data).
    let ids = sse_ids(&first.frames);
    let scanned = *ids.last().expect("the frames end with the scanned position as an id");
    assert!(scanned >= 16_000 && scanned < signal, "scanned through {scanned}");
    let progress = first.frames.last().unwrap();
    assert!(progress.contains("event: progress\n"), "{progress}");
    assert!(progress.contains("\ndata: "), "dispatched by clients: {progress}");
    assert_eq!(stream.live.get(&key).unwrap().delivered_through_offset, scanned);

    // The client reconnects with Last-Event-ID = that position: it resumes
    // there (not from 0) and gets the signal, then is caught up.
    stream.live.remove(&key);
    let again = open(
        &mut stream,
        "after=0&types=signal",
        Some(&scanned.to_string()),
        Transport::Sse,
    );
    let second = stream.live_catch_up(&again, MIB).unwrap();
    assert!(second.caught_up);
    assert_eq!(sse_event_offsets(&second.frames), vec![signal]);
}

#[test]
fn s10_a_filtered_websocket_catch_up_that_finds_nothing_continues_next_turn_without_an_ack() {
    let (mut stream, signal) = noisy_stream(17_000);
    let key = open(&mut stream, "after=0&types=signal", None, Transport::WebSocket);
    let first = stream.live_catch_up(&key, MIB).unwrap();
    assert!(first.frames.is_empty(), "nothing matched in the first turn");
    assert!(!first.caught_up);
    assert!(first.next_turn, "no frame to ack: the shell must continue by itself");
    let scanned = stream.live.get(&key).unwrap().delivered_through_offset;
    assert!(scanned >= 16_000 && scanned < signal, "position persisted: {scanned}");
    let second = stream.live_catch_up(&key, MIB).unwrap();
    assert!(second.caught_up);
    assert!(!second.next_turn);
    let frame: Value = serde_json::from_str(&second.frames[0]).unwrap();
    assert_eq!(frame["events"][0]["offset"], json!(signal));
}

#[test]
fn s10_a_websocket_catch_up_stopped_by_its_byte_budget_waits_for_the_ack() {
    let mut stream = memory_stream("/acked");
    let batch: Vec<Value> = (0..50)
        .map(|i| json!({"type": "t", "payload": {"i": i, "pad": "x".repeat(1000)}}))
        .collect();
    stream
        .append_body(
            json!({"events": batch}).to_string().as_bytes(),
            Authority::Public,
            &inputs(1_000, 1),
        )
        .unwrap();
    let key = open(&mut stream, "after=0", None, Transport::WebSocket);
    let first = stream.live_catch_up(&key, 10_000).unwrap();
    assert!(!first.frames.is_empty());
    assert!(!first.caught_up);
    assert!(
        !first.next_turn,
        "the client's ack resumes a catch-up its backlog stopped"
    );
}

#[test]
fn s10_an_sse_catch_up_with_no_budget_sends_nothing_and_keeps_its_position() {
    let (mut stream, _) = noisy_stream(10);
    let key = open(&mut stream, "after=3", None, Transport::Sse);
    let none = stream.live_catch_up(&key, 0).unwrap();
    assert!(!none.caught_up);
    assert!(sse_event_offsets(&none.frames).is_empty());
    assert!(sse_ids(&none.frames).iter().all(|id| *id == 3), "{:?}", none.frames);
    assert_eq!(stream.live.get(&key).unwrap().delivered_through_offset, 3);
}

#[test]
fn s12_what_sse_catch_ups_pin_together_is_bounded_per_stream() {
    assert_eq!(sse_catch_up_budget(0), MAX_LIVE_BACKLOG_BYTES);
    let nearly_full = MAX_LIVE_SSE_PINNED_BYTES - 1000;
    assert_eq!(sse_catch_up_budget(nearly_full), 1000, "only what is left");
    assert_eq!(sse_catch_up_budget(MAX_LIVE_SSE_PINNED_BYTES), 0);
    assert_eq!(sse_catch_up_budget(usize::MAX), 0);
    // With no budget the catch-up queues nothing but its position.
    let (mut stream, _) = noisy_stream(10);
    let key = open(&mut stream, "after=2", None, Transport::Sse);
    let none = stream
        .live_catch_up(&key, sse_catch_up_budget(MAX_LIVE_SSE_PINNED_BYTES))
        .unwrap();
    assert!(sse_event_offsets(&none.frames).is_empty());
    assert!(
        none.frames.iter().map(String::len).sum::<usize>() < 200,
        "{:?}",
        none.frames
    );
}
