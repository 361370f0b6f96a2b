//! Server-Sent Events of the protocol (docs/design.md §17 "Reads", PROTOCOL
//! §5.8): each batch of data is an `event: data` followed by an `event:
//! control` carrying `streamNextOffset`, `streamCursor` (while open),
//! `upToDate` and `streamClosed`. Text and JSON streams send UTF-8 text;
//! every other type is base64 (RFC 4648, padded), announced by
//! `Stream-SSE-Data-Encoding: base64`. A payload's line breaks (CRLF, CR or
//! LF) become separate `data:` lines, so no payload can end an event or
//! inject one. The server ends the response after at most
//! [`PROTOCOL_SSE_MAX_LIFETIME_MS`] (PROTOCOL §10.2), the client resumes
//! from the last `streamNextOffset`.

use super::media_type::MediaType;
use super::names::{
    CACHE_CONTROL, CONTENT_TYPE, SSE_CLOSED_FIELD, SSE_CURSOR_FIELD, SSE_NEXT_OFFSET_FIELD, SSE_UP_TO_DATE_FIELD,
    STREAM_SSE_DATA_ENCODING,
};
use super::offset::encode;
use crate::limits::PROTOCOL_SSE_MAX_LIFETIME_MS;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{Map, Value};

/// How data events carry a stream's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataEncoding {
    /// `text/*` and `application/json`: the bytes as UTF-8 text.
    Text,
    /// Every other type: standard base64.
    Base64,
}

impl DataEncoding {
    pub fn of(content_type: &MediaType) -> DataEncoding {
        if content_type.sse_base64() {
            DataEncoding::Base64
        } else {
            DataEncoding::Text
        }
    }
}

/// What one `control` event says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Control {
    /// The native offset the client resumes after.
    pub next_offset: u64,
    /// The cursor (`super::cursor`); left out once the stream is closed.
    pub cursor: Option<u64>,
    /// Everything committed so far has been sent.
    pub up_to_date: bool,
    /// The stream is closed and everything up to its end has been sent:
    /// the last event of the response (PROTOCOL §5.8).
    pub closed: bool,
}

/// The headers of a protocol SSE response: `text/event-stream`, no caching,
/// and the base64 announcement for binary streams (security and CORS
/// headers are added to every protocol response by the caller).
pub fn response_headers(encoding: DataEncoding) -> Vec<(&'static str, String)> {
    let mut headers = vec![
        (CONTENT_TYPE, "text/event-stream".to_owned()),
        (CACHE_CONTROL, "no-cache".to_owned()),
    ];
    if encoding == DataEncoding::Base64 {
        headers.push((STREAM_SSE_DATA_ENCODING, "base64".to_owned()));
    }
    headers
}

/// One `event: data` with `payload`: for a JSON stream, the JSON array of
/// the batch's messages (`super::json_mode::array`); for others, the bytes
/// of one or more whole events. Text that is not UTF-8 is sent with
/// replacement characters (a text stream's bytes are stored as written).
pub fn data_event(payload: &[u8], encoding: DataEncoding) -> String {
    let text = match encoding {
        DataEncoding::Base64 => STANDARD.encode(payload),
        DataEncoding::Text => String::from_utf8_lossy(payload).into_owned(),
    };
    event("data", &text)
}

/// One `event: control` (PROTOCOL §5.8): `upToDate` when caught up (always
/// with `streamClosed`, which implies it), `streamCursor` only while open.
pub fn control_event(control: &Control) -> String {
    let mut fields = Map::new();
    fields.insert(
        SSE_NEXT_OFFSET_FIELD.to_owned(),
        Value::from(encode(control.next_offset)),
    );
    if let (Some(cursor), false) = (control.cursor, control.closed) {
        fields.insert(SSE_CURSOR_FIELD.to_owned(), Value::from(cursor.to_string()));
    }
    if control.up_to_date || control.closed {
        fields.insert(SSE_UP_TO_DATE_FIELD.to_owned(), Value::Bool(true));
    }
    if control.closed {
        fields.insert(SSE_CLOSED_FIELD.to_owned(), Value::Bool(true));
    }
    event("control", &Value::Object(fields).to_string())
}

/// When a response opened at `opened_ms` must end (PROTOCOL §10.2).
pub fn ends_at(opened_ms: i64) -> i64 {
    opened_ms.saturating_add(PROTOCOL_SSE_MAX_LIFETIME_MS)
}

/// `event: <name>`, one `data:` line per line of `payload`, a blank line.
/// `data:` is followed directly by the line (the conformance suite matches
/// `data:{` in control events), except that a line beginning with a space
/// gets one more: a client strips exactly one (WHATWG SSE), so it keeps its
/// own.
fn event(name: &str, payload: &str) -> String {
    let mut frame = String::with_capacity(payload.len() + name.len() + 16);
    frame.push_str("event: ");
    frame.push_str(name);
    frame.push('\n');
    let mut rest = payload;
    loop {
        let (line, next) = match rest.find(['\r', '\n']) {
            Some(at) => {
                let (line, tail) = rest.split_at(at);
                let skip = if tail.starts_with("\r\n") { 2 } else { 1 };
                (line, tail.get(skip..))
            }
            None => (rest, None),
        };
        frame.push_str(if line.starts_with(' ') { "data: " } else { "data:" });
        frame.push_str(line);
        frame.push('\n');
        match next {
            Some(tail) => rest = tail,
            None => break,
        }
    }
    frame.push('\n');
    frame
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A WHATWG-conforming parse of one event: its type and its data lines
    /// joined with `\n` (each with one leading space stripped).
    fn parse(frame: &str) -> (String, String) {
        let mut kind = String::new();
        let mut data: Vec<String> = Vec::new();
        for line in frame.split(['\n']).take_while(|line| !line.is_empty()) {
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "event" => kind = value.to_owned(),
                "data" => data.push(value.to_owned()),
                other => panic!("unexpected field {other}"),
            }
        }
        assert!(frame.ends_with("\n\n"), "{frame:?}");
        (kind, data.join("\n"))
    }

    fn open(next_offset: u64) -> Control {
        Control {
            next_offset,
            cursor: Some(1000),
            up_to_date: false,
            closed: false,
        }
    }

    #[test]
    fn control_events_use_the_protocol_field_names() {
        let frame = control_event(&open(5));
        // The suite reads control events with /event: control\s*\ndata:({[^}]+})/.
        assert!(
            frame.starts_with("event: control\ndata:{\"streamNextOffset\""),
            "{frame:?}"
        );
        let (kind, data) = parse(&frame);
        assert_eq!(kind, "control");
        assert_eq!(
            data,
            r#"{"streamNextOffset":"0000000000000000_0000000000000005","streamCursor":"1000"}"#
        );
        let caught_up = Control {
            up_to_date: true,
            ..open(5)
        };
        assert_eq!(
            parse(&control_event(&caught_up)).1,
            r#"{"streamNextOffset":"0000000000000000_0000000000000005","streamCursor":"1000","upToDate":true}"#
        );
        let closed = Control {
            closed: true,
            ..open(9)
        };
        assert_eq!(
            parse(&control_event(&closed)).1,
            r#"{"streamNextOffset":"0000000000000000_0000000000000009","upToDate":true,"streamClosed":true}"#
        );
    }

    #[test]
    fn binary_data_is_padded_base64_and_text_is_text() {
        let binary = MediaType::parse("application/octet-stream").unwrap();
        assert_eq!(DataEncoding::of(&binary), DataEncoding::Base64);
        assert_eq!(
            parse(&data_event(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], DataEncoding::Base64)).1,
            "AQIDBAUGBwgJCg=="
        );
        assert_eq!(
            parse(&data_event(&[], DataEncoding::Base64)),
            ("data".to_owned(), String::new())
        );
        assert_eq!(
            parse(&data_event(&[0, 0xff, b'\n', b'\r'], DataEncoding::Base64)).1,
            "AP8KDQ=="
        );
        assert_eq!(DataEncoding::of(&MediaType::json()), DataEncoding::Text);
        assert_eq!(
            parse(&data_event(br#"[{"k":"v"}]"#, DataEncoding::Text)).1,
            r#"[{"k":"v"}]"#
        );
        assert_eq!(
            parse(&data_event(b"caf\xc3\xa9 \xff", DataEncoding::Text)).1,
            "café \u{fffd}"
        );
        assert!(response_headers(DataEncoding::Base64).contains(&("Stream-SSE-Data-Encoding", "base64".to_owned())));
        assert!(!response_headers(DataEncoding::Text)
            .iter()
            .any(|(name, _)| *name == "Stream-SSE-Data-Encoding"));
    }

    #[test]
    fn line_breaks_become_data_lines_and_cannot_inject_events() {
        let frame = data_event(b"line1\nline2\r\nline3\rline4", DataEncoding::Text);
        assert_eq!(frame, "event: data\ndata:line1\ndata:line2\ndata:line3\ndata:line4\n\n");
        let attack = data_event(
            b"x\n\nevent: control\ndata: {\"streamClosed\":true}\r\r",
            DataEncoding::Text,
        );
        assert_eq!(attack.matches("\n\n").count(), 1, "{attack:?}");
        assert!(attack.ends_with("\n\n"));
        assert_eq!(parse(&attack).0, "data");
        // A leading space survives a conforming client's strip.
        assert_eq!(parse(&data_event(b" indented", DataEncoding::Text)).1, " indented");
    }

    #[test]
    fn a_response_ends_within_sixty_seconds() {
        assert_eq!(ends_at(1_000), 61_000);
        assert_eq!(ends_at(i64::MAX), i64::MAX);
    }

    proptest! {
        #[test]
        fn text_round_trips_up_to_line_break_normalization(text in "\\PC{0,200}|[a\r\n ]{0,40}") {
            let (kind, data) = parse(&data_event(text.as_bytes(), DataEncoding::Text));
            prop_assert_eq!(kind, "data");
            prop_assert_eq!(data, text.replace("\r\n", "\n").replace('\r', "\n"));
        }

        #[test]
        fn base64_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let (_, data) = parse(&data_event(&bytes, DataEncoding::Base64));
            prop_assert_eq!(data.len() % 4, 0);
            prop_assert_eq!(STANDARD.decode(data).unwrap(), bytes);
        }
    }
}
