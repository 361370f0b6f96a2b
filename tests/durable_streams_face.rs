//! The Durable Streams face on real SQLite (docs/design.md §17): one stream, two
//! faces — what the protocol writes the native face reads and delivers, and
//! the reverse; every write checked in the protocol's order; byte messages
//! byte-exact; closure, expiry and producers as the engine decides them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{append, inputs, memory_stream, read};
use serde_json::{json, Value};
use tributary::durable_streams::face::{Method, ProtocolAnswer, ProtocolRequest, Then};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;

const LOCATION: &str = "https://tributary.test/v1/stream/app/s";

fn call(
    stream: &mut Stream<RusqliteStorage>,
    method: Method,
    query: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    now_ms: i64,
) -> ProtocolAnswer {
    let headers: Vec<(String, String)> = headers
        .iter()
        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
        .collect();
    let request = ProtocolRequest {
        method,
        query,
        headers: &headers,
        body,
        location: LOCATION,
        resumed: None,
        continued: None,
    };
    stream.protocol(&request, &inputs(now_ms, 7))
}

fn header<'a>(answer: &'a ProtocolAnswer, name: &str) -> Option<&'a str> {
    answer
        .headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}

fn offset(native: u64) -> String {
    format!("0000000000000000_{native:016}")
}

#[test]
fn s17_create_is_idempotent_and_a_different_create_conflicts() {
    let mut stream = memory_stream("/app/s");
    let created = call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "text/plain")],
        b"",
        1_000,
    );
    assert_eq!(created.status, 201);
    assert_eq!(header(&created, "Location"), Some(LOCATION));
    assert_eq!(header(&created, "Stream-Next-Offset"), Some(offset(0).as_str()));
    let again = call(
        &mut stream,
        Method::Put,
        "",
        &[("content-type", "text/plain")],
        b"",
        2_000,
    );
    assert_eq!(again.status, 200);
    let other = call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "application/json")],
        b"",
        3_000,
    );
    assert_eq!(other.status, 409);
    let head = call(&mut stream, Method::Head, "", &[], b"", 4_000);
    assert_eq!((head.status, header(&head, "Content-Type")), (200, Some("text/plain")));
    assert_eq!(header(&head, "X-Content-Type-Options"), Some("nosniff"));
}

#[test]
fn s17_byte_messages_are_byte_exact_on_both_faces() {
    let mut stream = memory_stream("/app/s");
    call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "application/octet-stream")],
        b"",
        1_000,
    );
    let binary: Vec<u8> = (0..=255u8).chain([0, 255, 10, 13]).collect();
    let appended = call(
        &mut stream,
        Method::Post,
        "",
        &[("Content-Type", "application/octet-stream")],
        &binary,
        2_000,
    );
    assert_eq!(appended.status, 204);
    assert_eq!(header(&appended, "Stream-Next-Offset"), Some(offset(1).as_str()));
    call(
        &mut stream,
        Method::Post,
        "",
        &[("Content-Type", "application/octet-stream")],
        b"tail",
        3_000,
    );
    let page = call(&mut stream, Method::Get, "offset=-1", &[], b"", 4_000);
    assert_eq!(page.status, 200);
    assert_eq!(page.body, [binary.as_slice(), b"tail"].concat());
    assert_eq!(header(&page, "Stream-Up-To-Date"), Some("true"));
    // Natively: a string payload and how it holds the bytes.
    let (status, native) = read(&mut stream, "after=0");
    assert_eq!(status, 200);
    let events = native["events"].as_array().cloned().unwrap_or_default();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["type"], "message");
    assert_eq!(events[0]["encoding"], "base64");
    use base64::Engine;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(events[0]["payload"].as_str().unwrap_or_default())
        .unwrap_or_default();
    assert_eq!(decoded, binary);
    assert_eq!(
        (events[1]["payload"].clone(), events[1]["encoding"].clone()),
        (json!("tail"), json!("utf-8"))
    );
}

#[test]
fn s17_a_large_byte_body_is_split_and_read_back_whole() {
    let mut stream = memory_stream("/app/s");
    call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "application/octet-stream")],
        b"",
        1_000,
    );
    let body: Vec<u8> = (0..1_000_000u32).map(|n| (n % 251) as u8).collect();
    let appended = call(
        &mut stream,
        Method::Post,
        "",
        &[("Content-Type", "application/octet-stream")],
        &body,
        2_000,
    );
    assert_eq!(appended.status, 204);
    let mut read_back = Vec::new();
    let mut from = "-1".to_owned();
    for _ in 0..10 {
        let page = call(&mut stream, Method::Get, &format!("offset={from}"), &[], b"", 3_000);
        assert_eq!(page.status, 200);
        read_back.extend_from_slice(&page.body);
        from = header(&page, "Stream-Next-Offset").unwrap_or_default().to_owned();
        if header(&page, "Stream-Up-To-Date").is_some() {
            break;
        }
    }
    assert_eq!(read_back, body);
}

#[test]
fn s17_json_mode_flattens_one_level_and_refuses_an_empty_array() {
    let mut stream = memory_stream("/app/s");
    call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "application/json")],
        b"",
        1_000,
    );
    let json = [("Content-Type", "application/json")];
    assert_eq!(
        call(&mut stream, Method::Post, "", &json, br#"[{"a":1},[2,3]]"#, 2_000).status,
        204
    );
    assert_eq!(
        call(&mut stream, Method::Post, "", &json, br#"{"b":true}"#, 2_000).status,
        204
    );
    assert_eq!(call(&mut stream, Method::Post, "", &json, b"[]", 2_000).status, 400);
    assert_eq!(
        call(&mut stream, Method::Post, "", &json, b"{not json", 2_000).status,
        400
    );
    let page = call(&mut stream, Method::Get, "offset=-1", &[], b"", 3_000);
    let messages: Value = serde_json::from_slice(&page.body).unwrap_or_default();
    assert_eq!(messages, json!([{"a": 1}, [2, 3], {"b": true}]));
    // The second read from where the first ended is empty, and up to date.
    let next = header(&page, "Stream-Next-Offset").unwrap_or_default().to_owned();
    let after = call(&mut stream, Method::Get, &format!("offset={next}"), &[], b"", 3_000);
    assert_eq!((after.status, after.body.as_slice()), (200, b"[]".as_slice()));
}

#[test]
fn s17_a_native_stream_reads_as_typed_events_and_takes_input_events() {
    let mut stream = memory_stream("/app/s");
    let (status, _) = append(
        &mut stream,
        json!({"type": "order-placed", "payload": {"id": 1}}),
        1_000,
    );
    assert_eq!(status, 201);
    append(
        &mut stream,
        json!({"type": "note", "payload": "x", "ephemeral": true}),
        1_500,
    );
    let json = [("Content-Type", "application/json")];
    let posted = call(
        &mut stream,
        Method::Post,
        "",
        &json,
        br#"{"type":"order-shipped","payload":{"id":1}}"#,
        2_000,
    );
    assert_eq!(posted.status, 204);
    let control = br#"{"type":"events.iterate.com/stream/retention-configured","payload":{"maxEvents":5}}"#;
    assert_eq!(call(&mut stream, Method::Post, "", &json, control, 2_000).status, 403);
    let page = call(&mut stream, Method::Get, "offset=-1", &[], b"", 3_000);
    let messages: Value = serde_json::from_slice(&page.body).unwrap_or_default();
    let types: Vec<&str> = messages
        .as_array()
        .map(|all| all.iter().filter_map(|m| m["type"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        types,
        ["order-placed", "order-shipped"],
        "no ephemeral event is a message"
    );
    assert_eq!(messages[0]["offset"], 1);
    assert_eq!(header(&page, "Stream-Next-Offset"), Some(offset(3).as_str()));
}

#[test]
fn s17_control_events_are_skipped_but_move_the_position() {
    let mut stream = memory_stream("/app/s");
    call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "text/plain")],
        b"a",
        1_000,
    );
    append(
        &mut stream,
        json!({"type": "events.iterate.com/stream/retention-configured", "payload": {"maxEvents": 100}}),
        2_000,
    );
    let page = call(&mut stream, Method::Get, "offset=-1", &[], b"", 3_000);
    assert_eq!(page.body, b"a");
    assert_eq!(header(&page, "Stream-Next-Offset"), Some(offset(2).as_str()));
    assert_eq!(header(&page, "Stream-Up-To-Date"), Some("true"));
    let poll = call(
        &mut stream,
        Method::Get,
        &format!("offset={}&live=long-poll", offset(2)),
        &[],
        b"",
        3_000,
    );
    assert_eq!(
        poll.then,
        Then::WaitForAppend { after: 2 },
        "at the tail a long-poll waits"
    );
}

#[test]
fn s17_closure_is_one_way_atomic_with_a_final_append_and_shared_by_both_faces() {
    let mut stream = memory_stream("/app/s");
    let text = [("Content-Type", "text/plain")];
    call(&mut stream, Method::Put, "", &text, b"", 1_000);
    let closing = call(
        &mut stream,
        Method::Post,
        "",
        &[text[0], ("Stream-Closed", "true")],
        b"last",
        2_000,
    );
    assert_eq!((closing.status, header(&closing, "Stream-Closed")), (204, Some("true")));
    let refused = call(&mut stream, Method::Post, "", &text, b"more", 3_000);
    assert_eq!((refused.status, header(&refused, "Stream-Closed")), (409, Some("true")));
    assert_eq!(
        call(&mut stream, Method::Post, "", &[("Stream-Closed", "true")], b"", 3_000).status,
        204
    );
    let (status, body) = append(&mut stream, json!({"type": "late"}), 4_000);
    assert_eq!((status, body["error"]["code"].clone()), (409, json!("stream_closed")));
    // Control events still commit on a closed stream.
    let (status, _) = append(
        &mut stream,
        json!({"type": "events.iterate.com/stream/retention-configured", "payload": {"maxEvents": 10}}),
        5_000,
    );
    assert_eq!(status, 201);
    let page = call(&mut stream, Method::Get, "offset=-1", &[], b"", 6_000);
    assert_eq!(
        (page.body.as_slice(), header(&page, "Stream-Closed")),
        (b"last".as_slice(), Some("true"))
    );
    let poll = call(
        &mut stream,
        Method::Get,
        &format!("offset={}&live=long-poll", offset(3)),
        &[],
        b"",
        6_000,
    );
    assert_eq!((poll.status, header(&poll, "Stream-Closed")), (204, Some("true")));
}

#[test]
fn s17_producers_deduplicate_fence_and_refuse_gaps() {
    let mut stream = memory_stream("/app/s");
    call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "text/plain")],
        b"",
        1_000,
    );
    let send = |stream: &mut Stream<RusqliteStorage>, epoch: &str, seq: &str, body: &[u8]| {
        let headers = [
            ("Content-Type", "text/plain"),
            ("Producer-Id", "writer"),
            ("Producer-Epoch", epoch),
            ("Producer-Seq", seq),
        ];
        call(stream, Method::Post, "", &headers, body, 2_000)
    };
    assert_eq!(send(&mut stream, "0", "0", b"a").status, 200);
    let duplicate = send(&mut stream, "0", "0", b"a");
    assert_eq!((duplicate.status, header(&duplicate, "Producer-Seq")), (204, Some("0")));
    let gap = send(&mut stream, "0", "2", b"c");
    assert_eq!((gap.status, header(&gap, "Producer-Expected-Seq")), (409, Some("1")));
    assert_eq!(send(&mut stream, "1", "0", b"b").status, 200);
    let stale = send(&mut stream, "0", "1", b"x");
    assert_eq!((stale.status, header(&stale, "Producer-Epoch")), (403, Some("1")));
    assert_eq!(send(&mut stream, "2", "1", b"x").status, 400);
    let page = call(&mut stream, Method::Get, "offset=-1", &[], b"", 3_000);
    assert_eq!(page.body, b"ab");
}

#[test]
fn s17_stream_seq_must_increase() {
    let mut stream = memory_stream("/app/s");
    call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "text/plain")],
        b"",
        1_000,
    );
    let with_seq = |seq: &'static str| [("Content-Type", "text/plain"), ("Stream-Seq", seq)];
    assert_eq!(
        call(&mut stream, Method::Post, "", &with_seq("b"), b"1", 2_000).status,
        204
    );
    assert_eq!(
        call(&mut stream, Method::Post, "", &with_seq("b"), b"2", 2_000).status,
        409
    );
    assert_eq!(
        call(&mut stream, Method::Post, "", &with_seq("a"), b"2", 2_000).status,
        409
    );
    assert_eq!(
        call(&mut stream, Method::Post, "", &with_seq("c"), b"2", 2_000).status,
        204
    );
}

#[test]
fn s17_expiry_is_never_early_and_deletes_the_stream_once_due() {
    let mut stream = memory_stream("/app/s");
    let created = call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "text/plain"), ("Stream-TTL", "10")],
        b"",
        0,
    );
    assert_eq!(created.status, 201);
    let head = call(&mut stream, Method::Head, "", &[], b"", 1_000);
    assert_eq!(header(&head, "Stream-TTL"), Some("10"));
    // A read renews the sliding deadline.
    assert_eq!(call(&mut stream, Method::Get, "offset=-1", &[], b"", 9_000).status, 200);
    assert_eq!(call(&mut stream, Method::Head, "", &[], b"", 18_000).status, 200);
    assert_eq!(call(&mut stream, Method::Head, "", &[], b"", 19_000).status, 404);
    let absolute = [
        ("Content-Type", "text/plain"),
        ("Stream-Expires-At", "1970-01-01T00:01:00Z"),
    ];
    assert_eq!(call(&mut stream, Method::Put, "", &absolute, b"", 20_000).status, 201);
    assert_eq!(
        call(&mut stream, Method::Get, "offset=-1", &[], b"", 59_999).status,
        200
    );
    assert_eq!(
        call(&mut stream, Method::Get, "offset=-1", &[], b"", 60_000).status,
        404
    );
    let both = [
        ("Content-Type", "text/plain"),
        ("Stream-TTL", "5"),
        ("Stream-Expires-At", "2030-01-01T00:00:00Z"),
    ];
    assert_eq!(call(&mut stream, Method::Put, "", &both, b"", 61_000).status, 400);
    assert_eq!(
        call(&mut stream, Method::Put, "", &[("Stream-TTL", "-5")], b"", 61_000).status,
        400
    );
    assert_eq!(
        call(
            &mut stream,
            Method::Put,
            "",
            &[("Stream-TTL", "99999999999999")],
            b"",
            61_000
        )
        .status,
        400
    );
}

#[test]
fn s17_hostile_offsets_are_400_and_trimmed_ones_410() {
    let mut stream = memory_stream("/app/s");
    call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "text/plain")],
        b"abc",
        1_000,
    );
    for bad in ["abc", "..%2Fx", "-2", "0000000000000001_0000000000000000", "now%00", ""] {
        let answer = call(&mut stream, Method::Get, &format!("offset={bad}"), &[], b"", 2_000);
        assert_eq!(answer.status, 400, "offset={bad}");
    }
    let beyond = call(
        &mut stream,
        Method::Get,
        &format!("offset={}", offset(9)),
        &[],
        b"",
        2_000,
    );
    assert_eq!(beyond.status, 400);
    assert_eq!(
        call(&mut stream, Method::Get, "offset=now", &[], b"", 2_000).status,
        200
    );
    assert_eq!(
        call(&mut stream, Method::Get, "offset=-1&live=bogus", &[], b"", 2_000).status,
        400
    );
}

#[test]
fn s17_an_unchanged_page_answers_304() {
    let mut stream = memory_stream("/app/s");
    call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "text/plain")],
        b"abc",
        1_000,
    );
    let page = call(&mut stream, Method::Get, "offset=-1", &[], b"", 2_000);
    let tag = header(&page, "ETag").unwrap_or_default().to_owned();
    let again = call(
        &mut stream,
        Method::Get,
        "offset=-1",
        &[("If-None-Match", &tag)],
        b"",
        3_000,
    );
    assert_eq!((again.status, again.body.len()), (304, 0));
}

#[test]
fn s17_sse_steps_send_data_then_control_and_end_on_a_closed_stream() {
    let mut stream = memory_stream("/app/s");
    call(
        &mut stream,
        Method::Put,
        "",
        &[("Content-Type", "application/json")],
        br#"[{"n":1}]"#,
        1_000,
    );
    let open = call(&mut stream, Method::Get, "offset=-1&live=sse", &[], b"", 2_000);
    let Then::Sse { after, cursor } = open.then else {
        panic!("an SSE read opens a response: {open:?}");
    };
    let step = stream
        .protocol_sse_step(after, cursor, true, &inputs(2_000, 1))
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(
        step.frames
            .starts_with("event: data\ndata:[{\"n\":1}]\n\nevent: control\n"),
        "{}",
        step.frames
    );
    assert!(step.caught_up && !step.ended);
    call(&mut stream, Method::Post, "", &[("Stream-Closed", "true")], b"", 3_000);
    let last = stream
        .protocol_sse_step(step.next, cursor, false, &inputs(3_000, 1))
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(
        last.ended && last.frames.contains("\"streamClosed\":true"),
        "{}",
        last.frames
    );
}

#[test]
fn s17_a_json_append_reads_the_face_row_once() {
    let mut stream = memory_stream("/app/s");
    let json = [("content-type", "application/json")];
    assert_eq!(call(&mut stream, Method::Put, "", &json, b"", 1).status, 201);
    // The first append after the create learns what the stream keeps in memory.
    assert_eq!(call(&mut stream, Method::Post, "", &json, br#"{"n":0}"#, 2).status, 204);
    stream.storage().take_statement_counts();
    let answer = call(&mut stream, Method::Post, "", &json, br#"{"n":1}"#, 3);
    assert_eq!(answer.status, 204);
    let counts = stream.storage().take_statement_counts();
    let face_reads: u64 = counts
        .iter()
        .filter(|(sql, _)| sql.contains("FROM protocol_face"))
        .map(|(_, count)| count)
        .sum();
    // The checks and the messages both need the face: one read serves both.
    assert_eq!(face_reads, 1, "{counts:#?}");
    // The face read and the append's one insert.
    assert_eq!(counts.values().sum::<u64>(), 2, "{counts:#?}");
}
