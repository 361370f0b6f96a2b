//! Coalesced WebSocket acknowledgements natively (docs/design.md §10, §12): every
//! ack counts against the backlog at once, but a caught-up connection's
//! record (the socket's attachment) is saved only when acks moved it by
//! `LIVE_ACK_WINDOW_BYTES`; a client that acks only that often is never a
//! slow consumer; and an object restarted from a record saved between
//! coalesced acks neither resends nor skips anything on the open socket.
//!
//! `Socket` plays the shell (durable-objects/src/stream_object/live.rs): it
//! performs the engine's decisions and keeps the last record saved into its
//! attachment, which is all a woken object gets back.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{inputs, FileStream};
use serde_json::{json, Value};
use tributary::event::Authority;
use tributary::limits::{LIVE_ACK_WINDOW_BYTES, LIVE_PERSIST_EVERY_SENDS, MAX_LIVE_BACKLOG_BYTES};
use tributary::live::{AfterAck, Connection, Fanout, LiveQuery, Transport};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;

/// One open WebSocket as the shell sees it: what its client received (and
/// how many bytes of it since its last ack), and its attachment.
struct Socket {
    key: String,
    received: Vec<u64>,
    bytes_since_ack: usize,
    attachment: Connection,
}

impl Socket {
    fn open(stream: &mut Stream<RusqliteStorage>, query: &str) -> Socket {
        let query = LiveQuery::parse(query, None).unwrap();
        let (connection, _) = stream.open_live(&query, Transport::WebSocket, 1_000, [3; 16]).unwrap();
        let key = connection.connection_key.clone();
        let mut socket = Socket {
            key,
            received: Vec::new(),
            bytes_since_ack: 0,
            attachment: connection,
        };
        socket.catch_up(stream);
        socket
    }

    /// The shell's catch-up step: its frames, then the record saved.
    fn catch_up(&mut self, stream: &mut Stream<RusqliteStorage>) {
        let budget = MAX_LIVE_BACKLOG_BYTES.saturating_sub(stream.live.backlog(&self.key));
        let step = stream.live_catch_up(&self.key, budget).unwrap();
        for frame in &step.frames {
            self.receive(frame);
        }
        self.attachment = stream.live.attachment_record(&self.key).unwrap();
    }

    fn receive(&mut self, frame: &str) {
        let value: Value = serde_json::from_str(frame).unwrap();
        let offsets = value["events"].as_array().unwrap().iter();
        self.received
            .extend(offsets.map(|event| event["offset"].as_u64().unwrap()));
        self.bytes_since_ack += frame.len();
    }

    /// The shell's fan-out of what was committed since the last call.
    fn fan_out(&mut self, stream: &mut Stream<RusqliteStorage>) {
        let committed = stream.take_committed();
        let head = stream.head();
        let decisions = stream.live.on_commit(&committed, head, &|_| 0);
        for (key, fanout) in decisions {
            match fanout {
                Fanout::Send { text, save } if key == self.key => {
                    if let Some(record) = save {
                        self.attachment = *record;
                    }
                    self.receive(&text);
                }
                Fanout::Close(reason) => panic!("closed: {reason:?}"),
                _ => {}
            }
        }
    }

    /// An ack of everything received, performed as the shell does.
    fn ack(&mut self, stream: &mut Stream<RusqliteStorage>) -> AfterAck {
        self.bytes_since_ack = 0;
        let after = stream.live.on_ack(&self.key, *self.received.last().unwrap());
        match &after {
            AfterAck::SaveAttachment(record) => self.attachment = record.clone(),
            AfterAck::ContinueCatchUp => self.catch_up(stream),
            AfterAck::Nothing => {}
        }
        after
    }

    /// The client the README describes: an ack once 64 KiB arrived since
    /// its last one.
    fn ack_if_window_full(&mut self, stream: &mut Stream<RusqliteStorage>) {
        if self.bytes_since_ack >= LIVE_ACK_WINDOW_BYTES {
            self.ack(stream);
        }
    }
}

/// `n` events of about `bytes` bytes each, one append.
fn append(stream: &mut Stream<RusqliteStorage>, n: usize, bytes: usize) {
    let events: Vec<Value> = (0..n)
        .map(|i| json!({"type": "t", "payload": {"i": i, "pad": "x".repeat(bytes)}}))
        .collect();
    stream
        .append_body(
            json!({ "events": events }).to_string().as_bytes(),
            Authority::Public,
            &inputs(2_000, 5),
        )
        .unwrap();
}

/// A series of the stream's metrics text.
fn metric(stream: &Stream<RusqliteStorage>, name: &str) -> u64 {
    let text = stream.metrics_text();
    let line = text
        .lines()
        .find(|line| line.starts_with(&format!("tributary_{name} ")))
        .unwrap_or_else(|| panic!("{name} in {text}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

/// A stream over a file with `events` small events and a caught-up socket.
fn caught_up_socket(events: usize) -> (FileStream, Stream<RusqliteStorage>, Socket) {
    let file = FileStream::new("/acks");
    let mut stream = file.open();
    append(&mut stream, events, 100);
    let socket = Socket::open(&mut stream, "after=0");
    assert!(socket.attachment.caught_up);
    (file, stream, socket)
}

#[test]
fn s10_an_ack_below_the_window_changes_no_stored_state() {
    let (_file, mut stream, mut socket) = caught_up_socket(3);
    append(&mut stream, 1, 100);
    socket.fan_out(&mut stream);
    let saved = socket.attachment.clone();
    let rows = metric(&stream, "sqlite_rows_written_total");
    let writes = metric(&stream, "live_attachment_writes_total");

    assert_eq!(socket.ack(&mut stream), AfterAck::Nothing);

    assert_eq!(socket.attachment, saved, "the attachment is untouched");
    assert_eq!(metric(&stream, "live_attachment_writes_total"), writes);
    assert_eq!(
        metric(&stream, "sqlite_rows_written_total"),
        rows,
        "no SQLite row either"
    );
    assert_eq!(metric(&stream, "live_acks_total"), 1);
    assert_eq!(stream.live.backlog(&socket.key), 0, "the ack counts at once, in memory");
}

#[test]
fn s10_an_ack_past_the_window_saves_the_record() {
    let (_file, mut stream, mut socket) = caught_up_socket(1);
    // Acknowledged frames add up; the ack that takes them past the window saves.
    let mut saves = Vec::new();
    for _ in 0..8 {
        append(&mut stream, 1, LIVE_ACK_WINDOW_BYTES / 3);
        socket.fan_out(&mut stream);
        if let AfterAck::SaveAttachment(record) = socket.ack(&mut stream) {
            saves.push(record.bytes_acknowledged);
        }
    }
    assert_eq!(saves.len(), 2, "every third ack of a third of the window: {saves:?}");
    let record = stream.live.get(&socket.key).unwrap();
    assert_eq!(socket.attachment.bytes_acknowledged, saves[1]);
    assert!(record.bytes_acknowledged - socket.attachment.bytes_acknowledged < LIVE_ACK_WINDOW_BYTES as u64);
    assert_eq!(
        socket.attachment.delivered_through_offset,
        1 + 6,
        "saved at the sixth frame's ack"
    );
}

#[test]
fn s10_s12_a_client_acking_every_64_kib_is_never_a_slow_consumer_and_writes_little() {
    let (_file, mut stream, mut socket) = caught_up_socket(1);
    let frames = 3_000;
    for _ in 0..frames {
        append(&mut stream, 1, 700);
        socket.fan_out(&mut stream);
        socket.ack_if_window_full(&mut stream);
        assert!(stream.live.backlog(&socket.key) <= LIVE_ACK_WINDOW_BYTES + 1024);
    }
    let head = stream.head();
    assert_eq!(socket.received, (1..=head).collect::<Vec<_>>());
    let acks = metric(&stream, "live_acks_total");
    let windows = metric(&stream, "live_bytes_sent_total") / LIVE_ACK_WINDOW_BYTES as u64;
    assert!(
        acks <= windows,
        "one ack per 64 KiB received: {acks} for {windows} windows"
    );
    let writes = metric(&stream, "live_attachment_writes_total");
    let most = frames / LIVE_PERSIST_EVERY_SENDS as u64 + acks + 1;
    assert!(writes <= most, "{writes} attachment writes for {frames} frames");
}

/// What a woken object has of `socket`: the stream reopened over the same
/// file, its registry restored from the socket's attachment alone.
fn restart(file: &FileStream, socket: &Socket) -> Stream<RusqliteStorage> {
    let mut stream = file.open();
    stream.live.restore(socket.attachment.clone());
    stream
}

#[test]
fn s10_a_restart_after_coalesced_acks_resends_nothing_and_skips_nothing() {
    let (file, mut stream, mut socket) = caught_up_socket(2);
    // ~1.6 KiB frames, an ack every ~40: sends and acks save the record in
    // turn. Stop a few frames after a save by a send, between two acks.
    let unsaved = |stream: &Stream<RusqliteStorage>, socket: &Socket| {
        let live = stream.live.get(&socket.key).unwrap();
        let saved = &socket.attachment;
        saved.bytes_sent > saved.bytes_acknowledged
            && live.delivered_through_offset > saved.delivered_through_offset + 3
    };
    for _ in 0..4 * LIVE_PERSIST_EVERY_SENDS {
        append(&mut stream, 1, 1_500);
        socket.fan_out(&mut stream);
        socket.ack_if_window_full(&mut stream);
        if unsaved(&stream, &socket) {
            break;
        }
    }
    // The attachment is behind what was sent and what was acknowledged…
    assert!(unsaved(&stream, &socket));
    assert!(socket.bytes_since_ack > 0);
    let unacknowledged_at_save = socket.attachment.bytes_sent - socket.attachment.bytes_acknowledged;
    drop(stream);

    // …and that is all a restarted object knows of the socket.
    let mut stream = restart(&file, &socket);
    assert_eq!(
        stream.live.backlog(&socket.key) as u64,
        unacknowledged_at_save,
        "its backlog restarts from the save"
    );
    for _ in 0..5 {
        append(&mut stream, 1, 2_000);
        socket.fan_out(&mut stream);
    }
    let head = stream.head();
    assert_eq!(
        socket.received,
        (1..=head).collect::<Vec<_>>(),
        "no gap, no duplicate on the open socket"
    );
    // The client's next ack (of what it has) clears what the save left over.
    socket.ack(&mut stream);
    assert_eq!(stream.live.backlog(&socket.key), 0);
}

#[test]
fn s10_a_restart_in_the_middle_of_a_catch_up_resumes_after_its_last_frame() {
    let file = FileStream::new("/acks-catch-up");
    let mut stream = file.open();
    for _ in 0..4 {
        append(&mut stream, 100, 5_000);
    }
    // A 2 MiB replay: the first step stops at the backlog limit.
    let mut socket = Socket::open(&mut stream, "after=0");
    assert!(!socket.attachment.caught_up);
    let sent = socket.received.len();
    assert!(sent > 0 && sent < 400);
    drop(stream);

    let mut stream = restart(&file, &socket);
    for _ in 0..100 {
        if stream.live.get(&socket.key).unwrap().caught_up {
            break;
        }
        // Every ack during a catch-up continues it (coalesced or not).
        assert_eq!(socket.ack(&mut stream), AfterAck::ContinueCatchUp);
    }
    assert_eq!(
        socket.received,
        (1..=400).collect::<Vec<_>>(),
        "resumed exactly after its last frame"
    );
}
