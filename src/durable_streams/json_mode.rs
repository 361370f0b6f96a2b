//! JSON mode (docs/design.md §17 "Messages are events", PROTOCOL §9.1): a body
//! of an `application/json` stream is one JSON value; an array is flattened
//! one level into messages (each becomes one event's `payload`, verbatim),
//! anything else is one message; `[]` is refused on append (400) and means
//! "no messages" on create. A read answers the messages as one JSON array.
//!
//! Bounded before anything is kept (§12): the body's bytes, its nesting,
//! the number of messages (counted while parsing, so a 2 MiB body of
//! one-byte messages allocates at most the budget plus one), and each
//! message's bytes and depth within one event's limits.

use crate::error::{details, ApiFailure, ErrorCode};
use crate::json_limits::raw_depth;
use crate::limits::{
    MAX_JSON_MESSAGES_PER_APPEND, MAX_JSON_MESSAGE_BYTES, MAX_JSON_MESSAGE_DEPTH, MAX_PROTOCOL_BODY_BYTES,
};
use serde::de::{Deserializer as _, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

/// Why a JSON body is written: a create may carry `[]`, an append may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyPurpose {
    Create,
    Append,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonModeError {
    #[error("the body is {bytes} bytes; the limit is {MAX_PROTOCOL_BODY_BYTES}")]
    BodyTooLarge { bytes: usize },
    #[error("the body is not valid JSON: {0}")]
    Malformed(String),
    #[error("an empty JSON array appends nothing; send at least one message")]
    EmptyArray,
    #[error("the body holds more than {MAX_JSON_MESSAGES_PER_APPEND} messages")]
    TooManyMessages,
    #[error("message {index} is {bytes} bytes; the limit is {MAX_JSON_MESSAGE_BYTES}")]
    MessageTooLarge { index: usize, bytes: usize },
    #[error("message {index} nests {depth} levels; the limit is {MAX_JSON_MESSAGE_DEPTH}")]
    MessageTooDeep { index: usize, depth: usize },
}

impl ApiFailure for JsonModeError {
    fn error_code(&self) -> ErrorCode {
        match self {
            JsonModeError::BodyTooLarge { .. } => ErrorCode::BodyTooLarge,
            JsonModeError::Malformed(_) => ErrorCode::MalformedJson,
            JsonModeError::EmptyArray => ErrorCode::InvalidBatch,
            JsonModeError::TooManyMessages => ErrorCode::BatchTooLarge,
            JsonModeError::MessageTooLarge { .. } => ErrorCode::EventTooLarge,
            JsonModeError::MessageTooDeep { .. } => ErrorCode::EventTooDeep,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            JsonModeError::BodyTooLarge { .. } => details([("limitBytes", json!(MAX_PROTOCOL_BODY_BYTES))]),
            JsonModeError::TooManyMessages => details([("limitMessages", json!(MAX_JSON_MESSAGES_PER_APPEND))]),
            JsonModeError::MessageTooLarge { index, .. } | JsonModeError::MessageTooDeep { index, .. } => {
                details([("index", json!(index))])
            }
            JsonModeError::Malformed(_) | JsonModeError::EmptyArray => Map::new(),
        }
    }
}

/// The messages of one body, each the exact JSON text sent (whitespace
/// inside a message kept; around it dropped), borrowed from the body.
pub fn messages(body: &[u8], purpose: BodyPurpose) -> Result<Vec<&RawValue>, JsonModeError> {
    if body.len() > MAX_PROTOCOL_BODY_BYTES {
        return Err(JsonModeError::BodyTooLarge { bytes: body.len() });
    }
    // One level more than a message may nest: the array around them.
    let depth = raw_depth(body);
    if depth > MAX_JSON_MESSAGE_DEPTH + 1 {
        return Err(JsonModeError::MessageTooDeep { index: 0, depth });
    }
    let text = std::str::from_utf8(body).map_err(|error| JsonModeError::Malformed(error.to_string()))?;
    let whole: &RawValue = serde_json::from_str(text).map_err(|error| JsonModeError::Malformed(error.to_string()))?;
    let messages = if whole.get().starts_with('[') {
        flatten(whole.get())?
    } else {
        vec![whole]
    };
    if messages.is_empty() && purpose == BodyPurpose::Append {
        return Err(JsonModeError::EmptyArray);
    }
    for (index, message) in messages.iter().enumerate() {
        let bytes = message.get().len();
        if bytes > MAX_JSON_MESSAGE_BYTES {
            return Err(JsonModeError::MessageTooLarge { index, bytes });
        }
        let depth = raw_depth(message.get().as_bytes());
        if depth > MAX_JSON_MESSAGE_DEPTH {
            return Err(JsonModeError::MessageTooDeep { index, depth });
        }
    }
    Ok(messages)
}

/// The elements of a JSON array text, at most the budget.
fn flatten(array: &str) -> Result<Vec<&RawValue>, JsonModeError> {
    let mut deserializer = serde_json::Deserializer::from_str(array);
    let mut over_budget = false;
    let elements = deserializer
        .deserialize_seq(Elements {
            over_budget: &mut over_budget,
        })
        .map_err(|error| {
            if over_budget {
                JsonModeError::TooManyMessages
            } else {
                JsonModeError::Malformed(error.to_string())
            }
        })?;
    Ok(elements)
}

struct Elements<'a> {
    over_budget: &'a mut bool,
}

impl<'de> Visitor<'de> for Elements<'_> {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a JSON array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut elements = Vec::new();
        while let Some(element) = seq.next_element::<&'de RawValue>()? {
            if elements.len() == MAX_JSON_MESSAGES_PER_APPEND {
                *self.over_budget = true;
                return Err(serde::de::Error::custom("too many messages"));
            }
            elements.push(element);
        }
        Ok(elements)
    }
}

/// A read's body (PROTOCOL §9.1.5): the messages, in order, as one JSON
/// array; `[]` when there are none. Each message is stored JSON text.
pub fn array<'a>(messages: impl IntoIterator<Item = &'a str>) -> String {
    let mut body = String::from("[");
    for (index, message) in messages.into_iter().enumerate() {
        if index > 0 {
            body.push(',');
        }
        body.push_str(message);
    }
    body.push(']');
    body
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::error::ApiError;
    use proptest::prelude::*;

    fn texts(body: &str, purpose: BodyPurpose) -> Result<Vec<String>, JsonModeError> {
        messages(body.as_bytes(), purpose).map(|found| found.iter().map(|m| m.get().to_owned()).collect())
    }

    fn append(body: &str) -> Result<Vec<String>, JsonModeError> {
        texts(body, BodyPurpose::Append)
    }

    #[test]
    fn arrays_flatten_exactly_one_level_protocol_9_1_2() {
        assert_eq!(append(r#"{"event": "created"}"#).unwrap(), [r#"{"event": "created"}"#]);
        assert_eq!(
            append(r#"[{"event": "a"}, {"event": "b"}]"#).unwrap(),
            [r#"{"event": "a"}"#, r#"{"event": "b"}"#]
        );
        assert_eq!(append("[[1,2], [3,4]]").unwrap(), ["[1,2]", "[3,4]"]);
        assert_eq!(append("[[[1,2,3]]]").unwrap(), ["[[1,2,3]]"]);
        assert_eq!(
            append(r#"[1, "two", null, true, 2.50, {}]"#).unwrap(),
            ["1", r#""two""#, "null", "true", "2.50", "{}"]
        );
        assert_eq!(append("  \n 42 \t").unwrap(), ["42"]);
        assert_eq!(append(r#""a string""#).unwrap(), [r#""a string""#]);
        assert_eq!(append(" [ 1 , 2 ] ").unwrap(), ["1", "2"]);
        // Verbatim: number spellings and inner whitespace are kept.
        assert_eq!(append("[1e3, { \"k\" :\n 1 }]").unwrap(), ["1e3", "{ \"k\" :\n 1 }"]);
    }

    #[test]
    fn an_empty_array_is_refused_on_append_and_means_nothing_on_create_protocol_9_1_3() {
        let refused = append("[]").unwrap_err();
        assert_eq!(refused, JsonModeError::EmptyArray);
        assert_eq!((ApiError::from(refused).status), 400);
        assert_eq!(append(" [ ] ").unwrap_err(), JsonModeError::EmptyArray);
        assert_eq!(texts("[]", BodyPurpose::Create).unwrap(), Vec::<String>::new());
        assert_eq!(append("[[]]").unwrap(), ["[]"]);
    }

    #[test]
    fn invalid_json_is_400_protocol_9_1_4() {
        for body in [
            "",
            " ",
            "{ invalid json }",
            "[1,]",
            "[1 2]",
            "{\"a\":1} {\"b\":2}",
            "[1]]",
            "\u{feff}[1]",
            "NaN",
            "'a'",
        ] {
            let error = append(body).expect_err(body);
            assert!(matches!(error, JsonModeError::Malformed(_)), "{body:?}: {error:?}");
            assert_eq!(ApiError::from(error).code(), "malformed_json");
        }
        let not_utf8 = messages(b"[\"\xff\"]", BodyPurpose::Append).unwrap_err();
        assert!(matches!(not_utf8, JsonModeError::Malformed(_)));
    }

    #[test]
    fn a_body_of_tiny_messages_is_refused_by_count_before_it_is_kept() {
        let at_budget = format!("[{}]", vec!["1"; MAX_JSON_MESSAGES_PER_APPEND].join(","));
        assert_eq!(append(&at_budget).unwrap().len(), MAX_JSON_MESSAGES_PER_APPEND);
        let over = format!("[{}]", vec!["1"; MAX_JSON_MESSAGES_PER_APPEND + 1].join(","));
        assert_eq!(append(&over), Err(JsonModeError::TooManyMessages));
        assert_eq!(ApiError::from(JsonModeError::TooManyMessages).status, 413);
        // 2 MiB of one-byte messages: ~1M elements, refused at the budget.
        let count = (MAX_PROTOCOL_BODY_BYTES - 2) / 2;
        let dense = format!("[{}1]", "1,".repeat(count - 1));
        assert!(dense.len() <= MAX_PROTOCOL_BODY_BYTES);
        assert_eq!(append(&dense), Err(JsonModeError::TooManyMessages));
        // 10 MB of them: refused by size before parsing.
        let huge = format!("[{}1]", "1,".repeat(5 * 1024 * 1024));
        assert!(matches!(append(&huge), Err(JsonModeError::BodyTooLarge { .. })));
        assert_eq!(ApiError::from(append(&huge).unwrap_err()).status, 413);
    }

    #[test]
    fn each_message_fits_one_event() {
        let big = format!("\"{}\"", "x".repeat(MAX_JSON_MESSAGE_BYTES - 2));
        assert_eq!(append(&format!("[{big}]")).unwrap().len(), 1);
        let too_big = format!("[1, \"{}\"]", "x".repeat(MAX_JSON_MESSAGE_BYTES - 1));
        let error = append(&too_big).unwrap_err();
        assert_eq!(
            error,
            JsonModeError::MessageTooLarge {
                index: 1,
                bytes: MAX_JSON_MESSAGE_BYTES + 1
            }
        );
        assert_eq!(ApiError::from(error).status, 413);
        let deepest = format!(
            "{}{}",
            "[".repeat(MAX_JSON_MESSAGE_DEPTH),
            "]".repeat(MAX_JSON_MESSAGE_DEPTH)
        );
        assert_eq!(append(&deepest).unwrap().len(), 1);
        assert_eq!(append(&format!("[{deepest}]")).unwrap().len(), 1);
        let too_deep = format!(
            "[{}{}]",
            "{\"a\":".repeat(MAX_JSON_MESSAGE_DEPTH + 1),
            "}".repeat(MAX_JSON_MESSAGE_DEPTH + 1)
        );
        assert!(matches!(
            append(&too_deep),
            Err(JsonModeError::MessageTooDeep { index: 0, .. })
        ));
        // A hostile nesting never reaches the parser's recursion.
        let hostile = "[".repeat(1_000_000);
        assert!(matches!(append(&hostile), Err(JsonModeError::MessageTooDeep { .. })));
    }

    #[test]
    fn reads_answer_one_json_array_protocol_9_1_5() {
        assert_eq!(array([]), "[]");
        assert_eq!(array([r#"{"k":"v"}"#]), r#"[{"k":"v"}]"#);
        assert_eq!(array(["1", "[2]", "{ \"a\" : 3 }"]), "[1,[2],{ \"a\" : 3 }]");
        let parsed: Value = serde_json::from_str(&array(["1", "[2]"])).unwrap();
        assert_eq!(parsed, json!([1, [2]]));
    }

    proptest! {
        /// Appending values and reading them back gives the same values:
        /// a single value is one message, an array is its elements.
        #[test]
        fn appended_messages_read_back_as_sent(values in proptest::collection::vec(any::<i32>(), 1..50), wrap: bool) {
            let body = if wrap || values.len() > 1 {
                serde_json::to_string(&values).unwrap()
            } else {
                values[0].to_string()
            };
            let found = messages(body.as_bytes(), BodyPurpose::Append).unwrap();
            let read: Vec<i32> = serde_json::from_str(&array(found.iter().map(|m| m.get()))).unwrap();
            prop_assert_eq!(read, values);
        }
    }
}
