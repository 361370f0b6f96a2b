//! Resolving a webhook's secrets at send time (docs/design.md §9): the stream
//! asks the project object for the current version of every secret its
//! receiver names, telling it the versions it already holds; the project
//! answers a value only for a version the stream does not hold. So a
//! rotation takes effect on the very next send, and an unchanged secret's
//! value crosses once per stream object.
//!
//! The resolved URL is checked against the URL rules again, each header
//! value against the header rules, and every failure of the send passes
//! through a [`Redaction`] before the engine sees it: no resolved value
//! reaches `lastError`, a halt, a dead letter, a metric or a log line.

use super::{placeholder, references, Reference, ReferenceError, Use};
use crate::delivery::Outcome;
use crate::limits::{MAX_RESOLVED_SECRETS, MAX_SECRETS_PER_PROJECT, MAX_WEBHOOK_URL_BYTES, MIN_REDACTED_PART_BYTES};
use crate::subscription::headers::header_value_problem;
use crate::subscription::Receiver;
use crate::webhook::url_rules;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `POST /internal/secrets/resolve`: each name with the version the asker
/// holds (`null`: none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    pub names: BTreeMap<String, Option<u64>>,
}

/// One secret's current version, with its value when the asker's version
/// differs; `None` in [`ResolveAnswer::secrets`] when the project holds no
/// such secret.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    pub version: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl std::fmt::Debug for Resolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resolution")
            .field("version", &self.version)
            .field("value", &self.value.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolveAnswer {
    pub secrets: BTreeMap<String, Option<Resolution>>,
}

/// What a stream object knows of its project's secrets: name → (version,
/// value), in memory only (never in the stream's SQLite), at most a
/// project's worth of names.
#[derive(Default)]
pub struct SecretCache {
    entries: BTreeMap<String, (u64, String)>,
}

impl SecretCache {
    /// The request for `names`: the first [`MAX_RESOLVED_SECRETS`]
    /// distinct ones, each with the version this cache holds.
    pub fn request<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> ResolveRequest {
        let mut asked = BTreeMap::new();
        for name in names {
            if asked.len() >= MAX_RESOLVED_SECRETS {
                break;
            }
            asked.insert(name.to_owned(), self.entries.get(name).map(|(version, _)| *version));
        }
        ResolveRequest { names: asked }
    }

    /// Takes the project's answer: the value of each asked name (`None`:
    /// the project holds no such secret). A version answered without a
    /// value that this cache does not hold (the cache was emptied meanwhile)
    /// is an error: the send is retried.
    pub fn absorb(&mut self, answer: ResolveAnswer) -> Result<BTreeMap<String, Option<String>>, String> {
        let mut values = BTreeMap::new();
        for (name, resolution) in answer.secrets.into_iter().take(MAX_RESOLVED_SECRETS) {
            let value = match resolution {
                None => {
                    self.entries.remove(&name);
                    None
                }
                Some(Resolution {
                    version,
                    value: Some(value),
                }) => {
                    if !self.entries.contains_key(&name) && self.entries.len() >= MAX_SECRETS_PER_PROJECT {
                        self.entries.clear();
                    }
                    self.entries.insert(name.clone(), (version, value.clone()));
                    Some(value)
                }
                Some(Resolution { version, value: None }) => match self.entries.get(&name) {
                    Some((held, value)) if *held == version => Some(value.clone()),
                    _ => {
                        return Err(format!(
                            "secret '{name}' version {version} was answered without its value"
                        ))
                    }
                },
            };
            values.insert(name, value);
        }
        Ok(values)
    }
}

/// A webhook's URL and headers with every secret resolved, and the
/// redaction of what they hold.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedWebhook {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub redaction: Redaction,
}

/// The names a receiver's references need, each once, url first.
pub fn names(receiver: &Receiver) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for reference in references(receiver) {
        if !names.contains(&reference.name) {
            names.push(reference.name);
        }
    }
    names
}

/// Why `value` cannot serve `reference`'s use (the URL rules of §9, a
/// header value's rules), redacted; `None` when it can.
fn problem_of(reference: &Reference, value: &str, allow_insecure: bool) -> Option<String> {
    let problem = match reference.usage {
        Use::Url if value.len() > MAX_WEBHOOK_URL_BYTES => Some(format!(
            "is longer than a webhook URL may be ({MAX_WEBHOOK_URL_BYTES} bytes)"
        )),
        Use::Url => url_rules::check(value, allow_insecure).err(),
        Use::Header => header_value_problem(value).map(str::to_owned),
    }?;
    let mut redaction = Redaction::default();
    redaction.add(&reference.name, value, reference.usage);
    Some(redaction.text(&problem))
}

/// The value of `reference` among `values`, checked for its use; a failure
/// names the secret and the field, never the value.
fn value_for<'a>(
    reference: &Reference,
    values: &'a BTreeMap<String, Option<String>>,
    allow_insecure: bool,
) -> Result<&'a str, Outcome> {
    let Some(Some(value)) = values.get(&reference.name) else {
        return Err(Outcome::permanent(format!(
            "secret_missing: '{}' names secret '{}', which this project no longer holds \
             (PUT /v1/secrets/{} again, then replay or resume)",
            reference.field, reference.name, reference.name
        )));
    };
    match problem_of(reference, value, allow_insecure) {
        None => Ok(value),
        Some(problem) => Err(Outcome::permanent(format!(
            "'{}' names secret '{}', whose value {problem}",
            reference.field, reference.name
        ))),
    }
}

/// The configure-time check (§9): every reference names a secret the
/// project holds, and each value serves its use. `answer` is the project's
/// answer to `asked` (from an empty cache, so it carries every value). A
/// reference past the names asked comes after a full request's worth of
/// distinct names that all exist: the project can hold no more, so it is
/// unknown.
pub fn check_references(
    references: &[Reference],
    asked: &ResolveRequest,
    answer: ResolveAnswer,
    allow_insecure: bool,
) -> Result<(), ReferenceError> {
    for reference in references {
        let value = match answer.secrets.get(&reference.name) {
            Some(Some(Resolution { value: Some(value), .. })) if asked.names.contains_key(&reference.name) => value,
            _ => {
                return Err(ReferenceError::Unknown {
                    field: reference.field.clone(),
                    name: reference.name.clone(),
                })
            }
        };
        if let Some(problem) = problem_of(reference, value, allow_insecure) {
            return Err(ReferenceError::Unusable {
                field: reference.field.clone(),
                name: reference.name.clone(),
                problem,
            });
        }
    }
    Ok(())
}

/// Resolves a webhook receiver's URL and headers from `values` (what
/// [`SecretCache::absorb`] answered for [`names`]): a missing secret is
/// the permanent `secret_missing`, a value that breaks the rules of its
/// use a permanent failure naming the field (§9).
pub fn resolve_webhook(
    receiver: &Receiver,
    values: &BTreeMap<String, Option<String>>,
    allow_insecure: bool,
) -> Result<ResolvedWebhook, Outcome> {
    let Receiver::WebhookPost { url, headers, .. } = receiver else {
        return Err(Outcome::permanent("not a webhook-post receiver"));
    };
    let mut redaction = Redaction::default();
    let mut resolved = Vec::new();
    for reference in references(receiver) {
        let value = value_for(&reference, values, allow_insecure)?;
        redaction.add(&reference.name, value, reference.usage);
        resolved.push((reference, value.to_owned()));
    }
    let from_secret = |field: &str| {
        resolved
            .iter()
            .find(|(reference, _)| reference.field == field)
            .map(|(_, value)| value.clone())
    };
    let url = match url {
        super::MaybeSecret::Plain(url) => url.clone(),
        super::MaybeSecret::Secret(_) => from_secret("receiver.url").unwrap_or_default(),
    };
    let headers = headers
        .iter()
        .map(|(name, value)| match value {
            super::MaybeSecret::Plain(text) => (name.clone(), text.clone()),
            super::MaybeSecret::Secret(_) => (
                name.clone(),
                from_secret(&format!("receiver.headers.{name}")).unwrap_or_default(),
            ),
        })
        .collect();
    Ok(ResolvedWebhook {
        url,
        headers,
        redaction,
    })
}

/// The parts of resolved values to blank out of any text that could be
/// read back, each with the `{secret:NAME}` it becomes; longest first, so
/// a whole URL becomes one placeholder rather than several.
#[derive(Clone, Default, PartialEq)]
pub struct Redaction {
    needles: Vec<(String, String)>,
}

impl std::fmt::Debug for Redaction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redaction")
            .field("needles", &self.needles.len())
            .finish()
    }
}

/// A URL's parts a message may quote on their own: as normalised by the
/// parser, without its scheme, its host, path, query, each path segment
/// and query value, and any credentials.
fn url_parts(value: &str) -> Vec<String> {
    let Ok(url) = url::Url::parse(value) else {
        return Vec::new();
    };
    let mut parts = vec![url.as_str().to_owned(), url[url::Position::BeforeHost..].to_owned()];
    parts.extend(url.host_str().map(str::to_owned));
    parts.push(url.path().to_owned());
    parts.extend(url.query().map(str::to_owned));
    parts.extend(url.path_segments().into_iter().flatten().map(str::to_owned));
    parts.extend(url.query_pairs().map(|(_, value)| value.into_owned()));
    parts.push(url.username().to_owned());
    parts.extend(url.password().map(str::to_owned));
    parts
}

impl Redaction {
    /// Adds the value of secret `name` as `usage` uses it.
    pub fn add(&mut self, name: &str, value: &str, usage: Use) {
        let shown = placeholder(name);
        let parts: Vec<String> = match usage {
            Use::Url => url_parts(value),
            Use::Header => value.split_whitespace().map(str::to_owned).collect(),
        };
        let whole = (!value.is_empty()).then(|| value.to_owned());
        let parts = parts.into_iter().filter(|part| part.len() >= MIN_REDACTED_PART_BYTES);
        for needle in whole.into_iter().chain(parts) {
            if !self.needles.iter().any(|(held, _)| *held == needle) {
                self.needles.push((needle, shown.clone()));
            }
        }
        self.needles.sort_by_key(|(needle, _)| std::cmp::Reverse(needle.len()));
    }

    /// `text` with every part of a resolved value replaced.
    pub fn text(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (needle, shown) in &self.needles {
            if text.contains(needle.as_str()) {
                text = text.replace(needle.as_str(), shown);
            }
        }
        text
    }

    /// A send's outcome with its message redacted.
    pub fn outcome(&self, outcome: Outcome) -> Outcome {
        match outcome {
            Outcome::Failed {
                kind,
                message,
                retry_after_ms,
            } => Outcome::Failed {
                kind,
                message: self.text(&message),
                retry_after_ms,
            },
            other => other,
        }
    }
}
