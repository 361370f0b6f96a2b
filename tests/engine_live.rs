//! Live connections natively (docs/design.md §10): replay then live with no gap
//! and no duplicate even when appends race the replay, ephemeral events only
//! after the open, filters, keys that never collide with subscription keys,
//! the per-stream limit, and backpressure.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{inputs, memory_stream};
use serde_json::{json, Value};
use tributary::error::ApiFailure;
use tributary::event::Authority;
use tributary::live::{CloseReason, Fanout, LiveQuery, Transport};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";

fn append(stream: &mut Stream<RusqliteStorage>, body: Value) {
    stream
        .append_body(body.to_string().as_bytes(), Authority::Public, &inputs(1_000, 1))
        .unwrap();
}

fn query(raw: &str) -> LiveQuery {
    LiveQuery::parse(raw, None).unwrap()
}

/// Offsets carried by WebSocket frames.
fn ws_offsets(frames: &[String]) -> Vec<u64> {
    frames
        .iter()
        .flat_map(|frame| {
            let value: Value = serde_json::from_str(frame).unwrap();
            value["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|event| event["offset"].as_u64().unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// What one connection gets of what was committed since the last call.
fn decide(stream: &mut Stream<RusqliteStorage>, key: &str, unsent: usize) -> Option<Fanout> {
    let committed = stream.take_committed();
    let head = stream.head();
    let decisions = stream.live.on_commit(&committed, head, &|_| unsent);
    decisions.into_iter().find(|(k, _)| k == key).map(|(_, fanout)| fanout)
}

/// Delivers what was committed since the last call to `key`, as the shell
/// does (the engine has recorded the send).
fn fan_out(stream: &mut Stream<RusqliteStorage>, key: &str, unsent: usize) -> Vec<String> {
    match decide(stream, key, unsent) {
        Some(Fanout::Send { text, .. }) => vec![text.to_string()],
        Some(Fanout::Nothing) | None => Vec::new(),
        Some(Fanout::Close(reason)) => panic!("closed: {reason:?}"),
    }
}

#[test]
fn s10_replay_then_live_has_no_gap_and_no_duplicate_when_appends_race_the_replay() {
    let mut stream = memory_stream("/tail");
    for i in 0..50 {
        append(
            &mut stream,
            json!({"type": "t", "payload": {"i": i, "fill": "x".repeat(200)}}),
        );
    }
    let (connection, replaced) = stream
        .open_live(&query("after=10"), Transport::WebSocket, 2_000, [7; 16])
        .unwrap();
    assert!(replaced.is_none());
    assert!(connection.connection_key.starts_with("connection:"));
    let key = connection.connection_key;
    let mut received = Vec::new();
    // A tiny budget: the replay takes many steps, with appends in between.
    for step in 0..200 {
        let catch_up = stream.live_catch_up(&key, 600).unwrap();
        received.extend(ws_offsets(&catch_up.frames));
        if catch_up.caught_up {
            break;
        }
        if step % 3 == 0 {
            append(&mut stream, json!({"type": "t"}));
        }
        // Commits during catch-up are not fanned out to it: the log has them.
        assert!(fan_out(&mut stream, &key, 0).is_empty());
    }
    for _ in 0..5 {
        append(&mut stream, json!({"type": "t"}));
        received.extend(ws_offsets(&fan_out(&mut stream, &key, 0)));
    }
    let head = stream.head();
    assert_eq!(received, (11..=head).collect::<Vec<_>>(), "every offset once, in order");
    assert_eq!(stream.live.get(&key).unwrap().delivered_through_offset, head);
}

#[test]
fn s10_ephemeral_events_reach_a_connection_only_when_appended_after_it_opened() {
    let mut stream = memory_stream("/eph");
    append(&mut stream, json!({"type": "d"}));
    append(&mut stream, json!({"type": "e", "ephemeral": true}));
    let (connection, _) = stream.open_live(&query(""), Transport::Sse, 2_000, [1; 16]).unwrap();
    let key = connection.connection_key;
    let catch_up = stream.live_catch_up(&key, 1 << 20).unwrap();
    assert!(catch_up.caught_up);
    let replayed = catch_up.frames.concat();
    assert!(
        replayed.contains("id: 1\n") && !replayed.contains("id: 2\n"),
        "{replayed}"
    );
    append(&mut stream, json!({"type": "e", "ephemeral": true}));
    append(&mut stream, json!({"type": "d"}));
    let live = fan_out(&mut stream, &key, 0).concat();
    assert!(
        live.contains("id: 3\nevent: event\n") && live.contains("id: 4\n"),
        "{live}"
    );
    assert!(live.contains(r#""ephemeral":true"#));
}

#[test]
fn s10_types_filter_and_last_event_id_resume() {
    let mut stream = memory_stream("/types");
    for kind in ["a", "b", "a", "c", "b"] {
        append(&mut stream, json!({"type": kind}));
    }
    let resumed = LiveQuery::parse("types=b,c", Some("2")).unwrap();
    let (connection, _) = stream
        .open_live(&resumed, Transport::WebSocket, 2_000, [2; 16])
        .unwrap();
    let catch_up = stream.live_catch_up(&connection.connection_key, 1 << 20).unwrap();
    assert_eq!(ws_offsets(&catch_up.frames), vec![4, 5]);
    assert_eq!(
        stream
            .live
            .get(&connection.connection_key)
            .unwrap()
            .delivered_through_offset,
        5
    );
}

#[test]
fn s10_connection_and_subscription_keys_never_collide_either_way() {
    let mut stream = memory_stream("/keys");
    append(
        &mut stream,
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "shared",
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/x", "delivery": {"start": "now", "onFailingEvent": "halt"}}}}),
    );
    let error = stream
        .open_live(&query("connectionKey=shared"), Transport::Sse, 2_000, [3; 16])
        .unwrap_err();
    assert_eq!((error.status(), error.code()), (409, "connection_key_conflict"));
    stream
        .open_live(&query("connectionKey=mine"), Transport::Sse, 2_000, [3; 16])
        .unwrap();
    let before = stream.head();
    let body = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "mine",
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/x", "delivery": {"start": "now", "onFailingEvent": "halt"}}}});
    let error = stream
        .append_body(body.to_string().as_bytes(), Authority::Public, &inputs(3_000, 1))
        .unwrap_err();
    assert_eq!((error.status(), error.code()), (409, "subscription_key_conflict"));
    assert_eq!(stream.head(), before, "nothing committed");
    let (_, replaced) = stream
        .open_live(&query("connectionKey=mine"), Transport::WebSocket, 4_000, [4; 16])
        .unwrap();
    assert_eq!(
        replaced.unwrap().transport,
        Transport::Sse,
        "the older connection is replaced"
    );
    assert_eq!(stream.live.len(), 1);
    let card = stream.subscriptions_card().unwrap();
    assert_eq!(card["connections"][0]["connectionKey"], "mine", "{card}");
    assert_eq!(card["connections"][0]["transport"], "websocket");
}

#[test]
fn s12_at_most_a_thousand_connections_per_stream() {
    let mut stream = memory_stream("/many");
    for i in 0..1000u32 {
        let mut entropy = [0u8; 16];
        entropy[..4].copy_from_slice(&i.to_le_bytes());
        stream
            .open_live(&query(""), Transport::WebSocket, 1_000, entropy)
            .unwrap();
    }
    let error = stream
        .open_live(&query(""), Transport::WebSocket, 1_000, [0xff; 16])
        .unwrap_err();
    assert_eq!((error.status(), error.code()), (429, "too_many_connections"));
}

#[test]
fn s12_a_consumer_whose_backlog_passes_a_mebibyte_is_closed_and_acks_keep_one_open() {
    let mut stream = memory_stream("/slow");
    let (connection, _) = stream
        .open_live(&query(""), Transport::WebSocket, 1_000, [5; 16])
        .unwrap();
    let key = connection.connection_key;
    assert!(stream.live_catch_up(&key, 1 << 20).unwrap().caught_up);
    let fill = "z".repeat(100 * 1024);
    let mut acked_through = 0;
    // A client that acknowledges what it gets is never closed.
    for _ in 0..30 {
        append(&mut stream, json!({"type": "big", "payload": fill}));
        let frames = fan_out(&mut stream, &key, 0);
        assert_eq!(frames.len(), 1);
        acked_through = stream.head();
        stream.live.acknowledge(&key, acked_through);
    }
    assert_eq!(stream.live.backlog(&key), 0);
    // One that stops acknowledging is closed once a mebibyte is outstanding.
    let mut closed = None;
    for _ in 0..30 {
        append(&mut stream, json!({"type": "big", "payload": fill}));
        match decide(&mut stream, &key, 0) {
            Some(Fanout::Send { .. }) => {}
            Some(Fanout::Close(reason)) => {
                closed = Some(reason);
                break;
            }
            _ => panic!("caught up: it gets every event"),
        }
    }
    assert_eq!(closed, Some(CloseReason::SlowConsumer));
    assert!(stream.live.backlog(&key) <= 1024 * 1024);
    assert!(stream.live.get(&key).unwrap().delivered_through_offset > acked_through);
    assert_eq!(stream.live.counters.slow_consumer_closes, 1);
    // An SSE stream is judged by what the shell still holds unsent.
    let (sse, _) = stream.open_live(&query(""), Transport::Sse, 1_000, [6; 16]).unwrap();
    let first = stream.live_catch_up(&sse.connection_key, 1 << 20).unwrap();
    assert!(
        !first.caught_up,
        "a replay larger than the budget takes more than one step"
    );
    assert!(first.frames.concat().len() <= (1 << 20) + fill.len() + 1024);
    let rest = stream.live_catch_up(&sse.connection_key, usize::MAX).unwrap();
    assert!(rest.caught_up);
    append(&mut stream, json!({"type": "big", "payload": fill}));
    assert_eq!(
        decide(&mut stream, &sse.connection_key, 1024 * 1024),
        Some(Fanout::Close(CloseReason::SlowConsumer))
    );
}

#[test]
fn s10_bad_live_queries_are_refused_with_the_parameter_named() {
    for (raw, parameter) in [
        ("after=x", "after"),
        ("types=a%20b", "types"),
        ("connectionKey=subscription:1", "connectionKey"),
        ("waitMs=1", "query"),
    ] {
        let error = LiveQuery::parse(raw, None).unwrap_err();
        assert_eq!(error.status(), 400, "{raw}");
        assert_eq!(error.details()["parameter"], parameter, "{raw}");
    }
    let long_key = format!("connectionKey={}", "k".repeat(257));
    assert_eq!(LiveQuery::parse(&long_key, None).unwrap_err().status(), 400);
    let many_types = format!("types={}", vec!["t"; 600].join(","));
    assert_eq!(LiveQuery::parse(&many_types, None).unwrap_err().status(), 400);
}

#[test]
fn s12_a_filtered_connection_that_acknowledges_each_frame_is_never_slow() {
    let mut stream = memory_stream("/filtered");
    let (connection, _) = stream
        .open_live(&query("types=a"), Transport::WebSocket, 1_000, [8; 16])
        .unwrap();
    let key = connection.connection_key;
    assert!(stream.live_catch_up(&key, 1 << 20).unwrap().caught_up);
    let fill = "y".repeat(6 * 1024);
    for _ in 0..40 {
        // 100 matching events then one the filter passes over, in one commit.
        let mut events: Vec<Value> = (0..100).map(|_| json!({"type": "a", "payload": fill})).collect();
        events.push(json!({"type": "b"}));
        append(&mut stream, json!({ "events": events }));
        let frames = fan_out(&mut stream, &key, 0);
        assert_eq!(frames.len(), 1, "never closed");
        // The client acknowledges the last event it processed.
        let last = ws_offsets(&frames).last().copied().unwrap();
        stream.live.acknowledge(&key, last);
        assert_eq!(stream.live.backlog(&key), 0);
    }
}

#[test]
fn s10_a_commit_serializes_each_distinct_frame_once_whatever_the_readers() {
    let mut stream = memory_stream("/shared-frames");
    let mut keys = Vec::new();
    for (n, raw, transport) in [
        (100, "", Transport::WebSocket),
        (10, "types=a", Transport::WebSocket),
        (3, "", Transport::Sse),
    ] {
        for _ in 0..n {
            let (connection, _) = stream
                .open_live(&query(raw), transport, 1_000, [keys.len() as u8; 16])
                .unwrap();
            assert!(
                stream
                    .live_catch_up(&connection.connection_key, 1 << 20)
                    .unwrap()
                    .caught_up
            );
            keys.push(connection.connection_key);
        }
    }
    let before = stream.live.counters;
    append(&mut stream, json!({"events": [{"type": "a"}, {"type": "b"}]}));
    let committed = stream.take_committed();
    let decisions = stream.live.on_commit(&committed, stream.head(), &|_| 0);
    assert_eq!(decisions.len(), 113, "every reader gets a frame");
    let texts: std::collections::BTreeSet<String> = decisions
        .iter()
        .map(|(_, fanout)| match fanout {
            Fanout::Send { text, .. } => text.to_string(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(texts.len(), 3, "all events by WebSocket, the filtered ones, all by SSE");
    let after = stream.live.counters;
    assert_eq!(after.frames_serialized - before.frames_serialized, 3);
    assert_eq!(
        after.frames_sent - before.frames_sent,
        113,
        "each send recorded in the same pass"
    );
    assert_eq!(stream.live.get(&keys[0]).unwrap().delivered_through_offset, 2);
    assert_eq!(
        stream.live.get(&keys[100]).unwrap().events_sent,
        1,
        "the filtered reader got one event"
    );
}
