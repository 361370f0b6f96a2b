//! Nesting depth of JSON (docs/design.md §3 rule 2), measured without recursion so
//! hostile input cannot exhaust the stack; and a cheap screen that tells
//! when raw JSON cannot contain a name, so the router parses a body only
//! when it must; and the length of a value's JSON text, without writing it.

use serde_json::Value;

/// Deepest `{`/`[` nesting in raw JSON text, ignoring brackets inside strings.
/// Used to refuse absurd bodies before they reach the parser.
pub fn raw_depth(json: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &byte in json {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The length in bytes of `value`'s compact JSON text — what
/// `serde_json::to_string(value)` returns — computed without writing it:
/// strings are measured with serde_json's escapes, only numbers are
/// formatted (into a counter). Recursive like serialization itself.
pub fn json_len(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(number) => {
            if let Some(n) = number.as_u64() {
                decimal_digits(n)
            } else if let Some(n) = number.as_i64() {
                1 + decimal_digits(n.unsigned_abs())
            } else {
                written_len(number)
            }
        }
        Value::String(text) => string_len(text),
        Value::Array(items) => items
            .iter()
            .map(json_len)
            .fold(1 + items.len().max(1), usize::saturating_add),
        Value::Object(fields) => fields
            .iter()
            .map(|(name, field)| string_len(name).saturating_add(1).saturating_add(json_len(field)))
            .fold(1 + fields.len().max(1), usize::saturating_add),
    }
}

/// Digits of `n` in decimal.
fn decimal_digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// A JSON string's length as serde_json writes it: quotes, `\"` `\\` and
/// the short escapes of `\b \t \n \f \r` take two bytes, any other control
/// character six (`\u00XX`), every other byte one.
pub fn string_len(text: &str) -> usize {
    text.bytes()
        .map(|byte| match byte {
            b'"' | b'\\' | 0x08 | 0x09 | 0x0a | 0x0c | 0x0d => 2,
            0x00..=0x1f => 6,
            _ => 1,
        })
        .fold(2, usize::saturating_add)
}

/// The length of what serde_json writes for `value` (`usize::MAX` if it
/// cannot), counted as it is written.
fn written_len<T: serde::Serialize + ?Sized>(value: &T) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(bytes.len());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    match serde_json::to_writer(&mut count, value) {
        Ok(()) => count.0,
        Err(_) => usize::MAX,
    }
}

/// Nesting depth of a parsed value: a scalar is 0, `{}` or `[]` is 1.
pub fn value_depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((node, depth)) = pending.pop() {
        match node {
            Value::Array(items) => {
                deepest = deepest.max(depth + 1);
                pending.extend(items.iter().map(|item| (item, depth + 1)));
            }
            Value::Object(fields) => {
                deepest = deepest.max(depth + 1);
                pending.extend(fields.values().map(|item| (item, depth + 1)));
            }
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn depth_counts_containers_not_strings() {
        assert_eq!(raw_depth(br#"{"a":"[[[{{{"}"#), 1);
        assert_eq!(raw_depth(br#"{"a":"\"[[["}"#), 1);
        assert_eq!(raw_depth(br#"[[1,[2]],{"x":{}}]"#), 3);
        assert_eq!(value_depth(&json!(1)), 0);
        assert_eq!(value_depth(&json!({"a": [1, {"b": []}]})), 4);
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(raw_depth(deep.as_bytes()), 10_000);
    }

    #[test]
    fn json_len_is_the_length_of_the_serialized_text() {
        let corpus = [
            json!(null),
            json!(true),
            json!(0),
            json!(-12_345_678_901_i64),
            json!(u64::MAX),
            json!(0.1),
            json!(-1.5e-300),
            json!(1e300),
            json!(f64::MAX),
            json!(123_456.789),
            json!(""),
            json!("plain"),
            json!("quote \" backslash \\ slash / tab \t newline \n"),
            json!("\u{0}\u{1f}\u{7f} controls"),
            json!("é ü 中文 😀 \u{2028}\u{2029}"),
            json!([]),
            json!({}),
            json!({"a": [1, 2.5, "x", null, {"b\"c": "d\u{1}"}], "é": {"nested": [[[]]]}}),
            json!({"type": "data", "payload": {"n": 1, "text": "ümlaut"}, "metadata": {}, "idempotencyKey": "k"}),
        ];
        for value in &corpus {
            assert_eq!(json_len(value), serde_json::to_string(value).unwrap().len(), "{value}");
            assert_eq!(json_len(value), value.to_string().len(), "{value}");
        }
        let all = Value::Array(corpus.to_vec());
        assert_eq!(json_len(&all), all.to_string().len());
    }

    proptest::proptest! {
        #[test]
        fn json_len_of_any_string_is_its_serialized_length(text in "\\PC*|[\\x00-\\x7f]*|.*") {
            let value = Value::String(text);
            proptest::prop_assert_eq!(json_len(&value), value.to_string().len());
        }

        #[test]
        fn json_len_of_any_number_is_its_serialized_length(n in proptest::num::i64::ANY, u in proptest::num::u64::ANY, f in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO) {
            for value in [json!(n), json!(u), json!(f), json!([n, {"k": f}])] {
                proptest::prop_assert_eq!(json_len(&value), value.to_string().len());
            }
        }
    }
}

/// Whether raw JSON text may contain `needle` once parsed: false only when
/// the text has no backslash (so no string in it is escaped) and `needle`
/// does not appear literally. A field name or string value equal to
/// `needle` must then be spelled out; with any escape, assume it may.
pub fn may_contain(json: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    json.contains(&b'\\')
        || json
            .iter()
            .enumerate()
            .any(|(at, &byte)| byte == first && json.get(at + 1..at + 1 + rest.len()) == Some(rest))
}

#[cfg(test)]
mod screen_tests {
    use super::may_contain;

    #[test]
    fn a_name_is_ruled_out_only_when_it_cannot_be_spelled() {
        assert!(may_contain(br#"{"idempotencyKey":"copy:1"}"#, b"idempotencyKey"));
        assert!(!may_contain(br#"{"type":"a","payload":{"k":1}}"#, b"idempotencyKey"));
        // An escape anywhere may spell it: `\u004b` is `K`.
        assert!(may_contain(br#"{"idempotency\u004bey":"copy:1"}"#, b"idempotencyKey"));
        assert!(may_contain(br#"{"idempotencyKe"#, b""));
        assert!(!may_contain(br#"{"idempotencyKe"#, b"idempotencyKey"));
    }
}
