//! Receiver secrets (docs/design.md §9 "Receiver secrets and headers"): values a
//! webhook takes its `url` or a header value from, written once per project
//! and never read back.
//!
//! - Here: a secret's name, a configured value that is either a string or a
//!   reference `{"secret": NAME}` ([`MaybeSecret`]), and the references a
//!   configuration (or an append) makes ([`Reference`]).
//! - [`store`]: the project object's write-only store (`PUT|DELETE
//!   /v1/secrets/{name}`, `GET /v1/secrets`) and the internal resolution.
//! - [`resolve`]: the stream's side at send time — the cache keyed by
//!   version, the resolved URL re-checked against the URL rules, and the
//!   [`Redaction`](resolve::Redaction) every failure passes through, so no
//!   resolved value reaches the log, the card, `lastError`, a dead letter,
//!   a metric or a log line.
//!
//! A stream's SQLite never holds a value: only references reach the log.

pub mod resolve;
pub mod store;

pub use resolve::{check_references, Redaction, ResolveAnswer, ResolveRequest, ResolvedWebhook, SecretCache};
pub use store::{SecretError, SecretStore};

use crate::error::{details, ApiFailure, ErrorCode};
use crate::limits::MAX_SECRET_NAME_BYTES;
use crate::subscription::{Configuration, Receiver};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// A secret name is 1 to [`MAX_SECRET_NAME_BYTES`] of `[A-Za-z0-9_.-]`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("secret name must be 1-{MAX_SECRET_NAME_BYTES} characters of [A-Za-z0-9_.-]")]
pub struct NameError;

impl ApiFailure for NameError {
    fn error_code(&self) -> ErrorCode {
        ErrorCode::InvalidSecretName
    }
}

pub fn check_name(name: &str) -> Result<(), NameError> {
    if crate::text::is_plain_name(name, MAX_SECRET_NAME_BYTES) {
        Ok(())
    } else {
        Err(NameError)
    }
}

/// `{"secret": NAME}`: a project secret in place of a string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecretRef {
    pub secret: String,
}

/// A configured string, or a reference to the project secret holding it.
/// Serialized as the string itself or as `{"secret": NAME}`: the log, the
/// reduced state and every copy of a stream hold the reference, never the
/// value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MaybeSecret {
    Plain(String),
    Secret(SecretRef),
}

impl MaybeSecret {
    /// Reads a string or `{"secret": NAME}`; `None` for anything else, or
    /// a reference whose name §9 does not allow (the caller names the field).
    pub fn from_json(value: &Value) -> Option<MaybeSecret> {
        match value {
            Value::String(text) => Some(MaybeSecret::Plain(text.clone())),
            Value::Object(fields) if fields.len() == 1 => {
                let name = fields.get("secret")?.as_str()?;
                check_name(name).ok()?;
                Some(MaybeSecret::Secret(SecretRef {
                    secret: name.to_owned(),
                }))
            }
            _ => None,
        }
    }

    /// The secret this value names, if it is a reference.
    pub fn secret_name(&self) -> Option<&str> {
        match self {
            MaybeSecret::Plain(_) => None,
            MaybeSecret::Secret(reference) => Some(&reference.secret),
        }
    }

    /// How the value shows where it is seen: the string, or `{secret:NAME}`.
    pub fn shown(&self) -> String {
        match self {
            MaybeSecret::Plain(text) => text.clone(),
            MaybeSecret::Secret(reference) => placeholder(&reference.secret),
        }
    }
}

/// What a resolved value is replaced with wherever it could be read back.
pub fn placeholder(name: &str) -> String {
    format!("{{secret:{name}}}")
}

/// Where a secret is used: each use has its own rules for the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// `receiver.url`: the URL rules of §9.
    Url,
    /// A value of `receiver.headers`: a valid header value.
    Header,
}

/// One reference a configuration makes: the secret, the field naming it
/// (`receiver.url`, `receiver.headers.authorization`) and its use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub name: String,
    pub field: String,
    pub usage: Use,
}

/// The references of a receiver, url first, then headers in name order.
pub fn references(receiver: &Receiver) -> Vec<Reference> {
    let Receiver::WebhookPost { url, headers, .. } = receiver else {
        return Vec::new();
    };
    let url = url.secret_name().map(|name| Reference {
        name: name.to_owned(),
        field: "receiver.url".to_owned(),
        usage: Use::Url,
    });
    let headers = headers.iter().filter_map(|(header, value)| {
        value.secret_name().map(|name| Reference {
            name: name.to_owned(),
            field: format!("receiver.headers.{header}"),
            usage: Use::Header,
        })
    });
    url.into_iter().chain(headers).collect()
}

/// The references of every valid `subscription-configured` an append body
/// carries, so the router can check them before the append (§9: a
/// reference to a missing secret is a 422). Bodies that do not parse name
/// none: the append itself reports them.
pub fn referenced_in_append(body: &[u8]) -> Vec<Reference> {
    if !crate::json_limits::may_contain(body, b"secret") {
        return Vec::new();
    }
    crate::subscription::configured_in_append(body)
        .iter()
        .flat_map(|configuration: &Configuration| references(&configuration.receiver))
        .collect()
}

/// A reference the project cannot serve at configure time (§9: 422).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    #[error("'{field}' names secret '{name}', which this project does not hold (PUT /v1/secrets/{name} first)")]
    Unknown { field: String, name: String },
    #[error("'{field}' names secret '{name}', whose value {problem}")]
    Unusable {
        field: String,
        name: String,
        problem: String,
    },
}

impl ApiFailure for ReferenceError {
    fn error_code(&self) -> ErrorCode {
        match self {
            ReferenceError::Unknown { .. } => ErrorCode::UnknownSecret,
            ReferenceError::Unusable { .. } => ErrorCode::InvalidSubscription,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            ReferenceError::Unknown { field, name } | ReferenceError::Unusable { field, name, .. } => {
                details([("field", json!(field)), ("secret", json!(name))])
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn s9_a_name_is_a_bounded_restricted_charset() {
        for name in ["A", "alerts_webhook.url-2", &"n".repeat(MAX_SECRET_NAME_BYTES)] {
            assert_eq!(check_name(name), Ok(()), "{name}");
        }
        for name in ["", "a b", "a/b", "é", "a\n", &"n".repeat(MAX_SECRET_NAME_BYTES + 1)] {
            assert_eq!(check_name(name), Err(NameError), "{name:?}");
        }
    }

    #[test]
    fn s9_a_reference_is_exactly_one_secret_field_with_a_valid_name() {
        assert_eq!(
            MaybeSecret::from_json(&json!({"secret": "HOOK"})),
            Some(MaybeSecret::Secret(SecretRef { secret: "HOOK".into() }))
        );
        assert_eq!(
            MaybeSecret::from_json(&json!("https://x")),
            Some(MaybeSecret::Plain("https://x".into()))
        );
        for hostile in [
            json!({"secret": "a b"}),
            json!({"secret": ""}),
            json!({"secret": 3}),
            json!({"secret": "A", "value": "x"}),
            json!({"name": "A"}),
            json!({}),
            json!(["A"]),
            json!(null),
            json!(7),
        ] {
            assert_eq!(MaybeSecret::from_json(&hostile), None, "{hostile}");
        }
    }

    #[test]
    fn s9_a_reference_serializes_as_itself_never_as_a_value() {
        let reference = MaybeSecret::Secret(SecretRef { secret: "HOOK".into() });
        assert_eq!(serde_json::to_value(&reference).unwrap(), json!({"secret": "HOOK"}));
        let back: MaybeSecret = serde_json::from_value(json!({"secret": "HOOK"})).unwrap();
        assert_eq!(back, reference);
        let plain: MaybeSecret = serde_json::from_value(json!("https://x")).unwrap();
        assert_eq!(plain, MaybeSecret::Plain("https://x".into()));
        assert_eq!(reference.shown(), "{secret:HOOK}");
    }
}
