//! A webhook's `receiver.headers` (docs/design.md §9 "Receiver secrets and
//! headers"): at most [`MAX_WEBHOOK_HEADERS`], each a name an HTTP token
//! and a value that is a string or a secret reference. Names Tributary sets
//! or the platform owns are refused: `webhook-*` (the signature), `host`,
//! `content-*`, the hop-by-hop headers, and `authorization` unless its value
//! is a secret reference (a credential never sits in the log as text).

use super::{invalid, ConfigError};
use crate::limits::{MAX_WEBHOOK_HEADERS, MAX_WEBHOOK_HEADER_NAME_BYTES, MAX_WEBHOOK_HEADER_VALUE_BYTES};
use crate::secrets::MaybeSecret;
use serde_json::Value;
use std::collections::BTreeMap;

/// Header names as configured, each with its value.
pub type Headers = BTreeMap<String, MaybeSecret>;

/// Hop-by-hop headers (RFC 9110 §7.6.1, and the older `keep-alive`,
/// `proxy-connection`): a connection's, never an end-to-end request's.
const HOP_BY_HOP: [&str; 9] = [
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// Why a header name is refused whatever its value, or `None`.
fn forbidden_name(lowercase: &str) -> Option<&'static str> {
    if lowercase.starts_with("webhook-") {
        return Some("is set by Tributary (the Standard Webhooks signature)");
    }
    if lowercase.starts_with("content-") {
        return Some("is set by Tributary (the body's own headers)");
    }
    if lowercase == "host" {
        return Some("is the URL's");
    }
    HOP_BY_HOP.contains(&lowercase).then_some("is a hop-by-hop header")
}

/// An HTTP token (RFC 9110 §5.6.2), 1 to the bound of bytes.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_WEBHOOK_HEADER_NAME_BYTES
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte))
}

/// A header value sent as is: visible ASCII, spaces and tabs, no leading
/// or trailing whitespace (RFC 9110 §5.5, without obsolete text). Also the
/// rule for a value taken from a secret, checked when it is resolved.
pub fn header_value_problem(value: &str) -> Option<&'static str> {
    let visible = value
        .bytes()
        .all(|byte| byte == b' ' || byte == b'\t' || byte.is_ascii_graphic());
    if !visible {
        return Some("must be visible ASCII, spaces and tabs (no line breaks or control characters)");
    }
    if value.trim() != value {
        return Some("must not start or end with whitespace");
    }
    None
}

/// One header's value: a bounded string, or a secret reference.
fn parse_value(name: &str, lowercase: &str, value: &Value, field: &str) -> Result<MaybeSecret, ConfigError> {
    let parsed = MaybeSecret::from_json(value).ok_or_else(|| {
        invalid(
            field,
            "must be a string or {\"secret\": NAME} (a name of [A-Za-z0-9_.-])",
        )
    })?;
    match &parsed {
        MaybeSecret::Plain(_) if lowercase == "authorization" => Err(invalid(
            field,
            format!("'{name}' carries a credential: take it from a secret ({{\"secret\": NAME}}), never a string in the log"),
        )),
        MaybeSecret::Plain(text) if text.len() > MAX_WEBHOOK_HEADER_VALUE_BYTES => Err(invalid(
            field,
            format!("must be at most {MAX_WEBHOOK_HEADER_VALUE_BYTES} bytes"),
        )),
        MaybeSecret::Plain(text) => match header_value_problem(text) {
            Some(problem) => Err(invalid(field, problem)),
            None => Ok(parsed),
        },
        MaybeSecret::Secret(_) => Ok(parsed),
    }
}

/// The optional `receiver.headers` object (§9).
pub fn parse(value: Option<&Value>) -> Result<Headers, ConfigError> {
    let fields = match value {
        None | Some(Value::Null) => return Ok(Headers::new()),
        Some(Value::Object(fields)) => fields,
        Some(_) => {
            return Err(invalid(
                "receiver.headers",
                "must be an object of header names to values",
            ))
        }
    };
    if fields.len() > MAX_WEBHOOK_HEADERS {
        return Err(invalid(
            "receiver.headers",
            format!("has {} headers; at most {MAX_WEBHOOK_HEADERS}", fields.len()),
        ));
    }
    let mut headers = Headers::new();
    let mut seen = std::collections::BTreeSet::new();
    for (name, value) in fields {
        let field = format!("receiver.headers.{name}");
        if !is_token(name) {
            return Err(invalid(
                &field,
                format!("is not a header name (1-{MAX_WEBHOOK_HEADER_NAME_BYTES} characters of an HTTP token)"),
            ));
        }
        let lowercase = name.to_ascii_lowercase();
        if let Some(problem) = forbidden_name(&lowercase) {
            return Err(invalid(&field, format!("'{name}' {problem}; it may not be configured")));
        }
        if !seen.insert(lowercase.clone()) {
            return Err(invalid(&field, "repeats a header name (names are case-insensitive)"));
        }
        headers.insert(name.clone(), parse_value(name, &lowercase, value, &field)?);
    }
    Ok(headers)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::secrets::SecretRef;
    use serde_json::json;

    fn field_of(error: ConfigError) -> String {
        match error {
            ConfigError::Invalid { field, .. } => field,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn s9_every_forbidden_name_is_refused_naming_its_field() {
        let names = [
            "webhook-id",
            "Webhook-Signature",
            "webhook-timestamp",
            "webhook-anything",
            "host",
            "Host",
            "content-type",
            "Content-Length",
            "content-encoding",
            "connection",
            "keep-alive",
            "proxy-authenticate",
            "Proxy-Authorization",
            "proxy-connection",
            "te",
            "trailer",
            "transfer-encoding",
            "upgrade",
        ];
        for name in names {
            let error = parse(Some(&json!({ name: "x" }))).unwrap_err();
            assert_eq!(field_of(error), format!("receiver.headers.{name}"), "{name}");
            // Not even from a secret.
            let error = parse(Some(&json!({ name: {"secret": "S"} }))).unwrap_err();
            assert_eq!(field_of(error), format!("receiver.headers.{name}"), "{name}");
        }
    }

    #[test]
    fn s9_authorization_only_from_a_secret() {
        for name in ["authorization", "Authorization"] {
            let error = parse(Some(&json!({ name: "Bearer abc" }))).unwrap_err();
            assert_eq!(field_of(error), format!("receiver.headers.{name}"));
            let headers = parse(Some(&json!({ name: {"secret": "API_TOKEN"} }))).unwrap();
            assert_eq!(
                headers.get(name),
                Some(&MaybeSecret::Secret(SecretRef {
                    secret: "API_TOKEN".into()
                }))
            );
        }
    }

    #[test]
    fn s9_at_most_sixteen_headers() {
        let many = |count: usize| Value::Object((0..count).map(|index| (format!("x-h{index}"), json!("v"))).collect());
        assert_eq!(
            parse(Some(&many(MAX_WEBHOOK_HEADERS))).unwrap().len(),
            MAX_WEBHOOK_HEADERS
        );
        let error = parse(Some(&many(MAX_WEBHOOK_HEADERS + 1))).unwrap_err();
        assert_eq!(field_of(error), "receiver.headers");
    }

    #[test]
    fn s9_oversized_and_hostile_names_and_values_are_refused() {
        let long_name = "x".repeat(MAX_WEBHOOK_HEADER_NAME_BYTES + 1);
        let long_value = "v".repeat(MAX_WEBHOOK_HEADER_VALUE_BYTES + 1);
        let fit_value = "v".repeat(MAX_WEBHOOK_HEADER_VALUE_BYTES);
        assert!(parse(Some(&json!({ "x-fit": fit_value }))).is_ok());
        let cases = [
            (
                json!({ long_name.clone(): "v" }),
                format!("receiver.headers.{long_name}"),
            ),
            (json!({ "x-big": long_value }), "receiver.headers.x-big".to_owned()),
            (json!({ "": "v" }), "receiver.headers.".to_owned()),
            (json!({ "x a": "v" }), "receiver.headers.x a".to_owned()),
            (json!({ "x:a": "v" }), "receiver.headers.x:a".to_owned()),
            (
                json!({ "x-inject": "a\r\nhost: evil" }),
                "receiver.headers.x-inject".to_owned(),
            ),
            (json!({ "x-nul": "a\u{0}" }), "receiver.headers.x-nul".to_owned()),
            (json!({ "x-utf": "é" }), "receiver.headers.x-utf".to_owned()),
            (json!({ "x-pad": " v" }), "receiver.headers.x-pad".to_owned()),
            (json!({ "x-num": 3 }), "receiver.headers.x-num".to_owned()),
            (
                json!({ "x-ref": {"secret": "bad name"} }),
                "receiver.headers.x-ref".to_owned(),
            ),
            (
                json!({ "x-ref": {"secret": "A", "more": 1} }),
                "receiver.headers.x-ref".to_owned(),
            ),
            (
                json!({ "X-Dup": "a", "x-dup": "b" }),
                "receiver.headers.x-dup".to_owned(),
            ),
        ];
        for (headers, field) in cases {
            assert_eq!(field_of(parse(Some(&headers)).unwrap_err()), field, "{headers}");
        }
        assert_eq!(field_of(parse(Some(&json!(["x"]))).unwrap_err()), "receiver.headers");
        assert_eq!(parse(Some(&json!(null))).unwrap(), Headers::new());
    }

    #[test]
    fn s9_ordinary_headers_keep_their_names() {
        let headers = parse(Some(&json!({"X-Team": "alerts", "x-key": {"secret": "KEY"}}))).unwrap();
        assert_eq!(headers.get("X-Team"), Some(&MaybeSecret::Plain("alerts".into())));
        assert_eq!(headers.get("x-key").and_then(MaybeSecret::secret_name), Some("KEY"));
    }
}
