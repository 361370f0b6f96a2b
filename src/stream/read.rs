//! Reads (docs/design.md §3): range reads, point reads and stream info (§11).

use super::fences::InboundView;
use super::{rows, Stream};
use crate::error::{details, ApiFailure, ErrorCode};
use crate::event::CommittedEvent;
use crate::limits::{DEFAULT_INBOUND_FENCE_PAGE, DEFAULT_READ_LIMIT, MAX_READ_LIMIT, MAX_SAFE_INTEGER};
use crate::state::Outbound;
use crate::storage::{Storage, StorageError};
use crate::time::rfc3339_millis;
use serde::Serialize;
use serde_json::{json, Map, Value};

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("stream '{0}' does not exist")]
    StreamNotFound(String),
    #[error("no event at offset {0}")]
    EventNotFound(u64),
    #[error("offset {asked} was trimmed by retention; the first retained offset is {first_offset} (read with after={} or after=earliest)", first_offset.saturating_sub(1))]
    Trimmed { asked: u64, first_offset: u64 },
    #[error("query parameter '{name}' {problem}")]
    InvalidParameter { name: &'static str, problem: String },
    #[error("no webhook-post subscription with key '{0}'")]
    NoSuchWebhook(String),
    #[error("webhook signing is not configured on this deployment (WEBHOOK_SIGNING_KEY)")]
    SigningNotConfigured,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ApiFailure for ReadError {
    fn error_code(&self) -> ErrorCode {
        match self {
            ReadError::StreamNotFound(_) => ErrorCode::StreamNotFound,
            ReadError::EventNotFound(_) => ErrorCode::EventNotFound,
            ReadError::Trimmed { .. } => ErrorCode::Trimmed,
            ReadError::NoSuchWebhook(_) => ErrorCode::SubscriptionNotFound,
            ReadError::SigningNotConfigured => ErrorCode::SigningNotConfigured,
            ReadError::InvalidParameter { .. } => ErrorCode::InvalidParameter,
            ReadError::Storage(_) => ErrorCode::Internal,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            ReadError::InvalidParameter { name, .. } => details([("parameter", json!(name))]),
            ReadError::Trimmed { first_offset, .. } => details([("firstOffset", json!(first_offset))]),
            _ => Map::new(),
        }
    }
}

/// `?after=N&limit=L&includeEphemeral=` of a range read.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeQuery {
    pub after: u64,
    /// `after=earliest`, or no `after` (§16): from the first retained event,
    /// whatever retention trimmed. An explicit `after` before `firstOffset − 1`
    /// is 410 `trimmed` instead.
    pub from_earliest: bool,
    pub limit: u64,
    pub include_ephemeral: bool,
}

fn invalid(name: &'static str, problem: impl Into<String>) -> ReadError {
    ReadError::InvalidParameter {
        name,
        problem: problem.into(),
    }
}

/// A non-negative integer below 2^53, digits only.
pub fn parse_offset(name: &'static str, raw: &str) -> Result<u64, ReadError> {
    if raw.is_empty() || raw.len() > 16 || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(name, "must be a non-negative integer"));
    }
    match raw.parse::<u64>() {
        Ok(n) if n <= MAX_SAFE_INTEGER => Ok(n),
        _ => Err(invalid(name, "must be below 2^53")),
    }
}

impl RangeQuery {
    /// Parses a URL query string (no leading `?`). Unknown parameters are refused.
    pub fn parse(query: &str) -> Result<Self, ReadError> {
        let mut range = RangeQuery {
            after: 0,
            from_earliest: true,
            limit: DEFAULT_READ_LIMIT,
            include_ephemeral: false,
        };
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            match name {
                "after" if value == "earliest" => range.from_earliest = true,
                "after" => {
                    range.after = parse_offset("after", value)?;
                    range.from_earliest = false;
                }
                "limit" => {
                    let limit = parse_offset("limit", value)?;
                    if !(1..=MAX_READ_LIMIT).contains(&limit) {
                        return Err(invalid("limit", format!("must be between 1 and {MAX_READ_LIMIT}")));
                    }
                    range.limit = limit;
                }
                "includeEphemeral" => {
                    range.include_ephemeral = match value {
                        "true" | "1" => true,
                        "false" | "0" | "" => false,
                        _ => return Err(invalid("includeEphemeral", "must be true or false")),
                    }
                }
                _ => {
                    return Err(ReadError::InvalidParameter {
                        name: "query",
                        problem: format!("has unknown parameter '{}'", crate::text::name_excerpt(name)),
                    })
                }
            }
        }
        Ok(range)
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RangeRead {
    pub stream_id: String,
    pub stream_created_at: String,
    pub path: String,
    pub head: u64,
    /// The stream is closed (§17): nothing follows its last data event.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub closed: bool,
    pub events: Vec<CommittedEvent>,
    pub next_after: u64,
}

/// The fields of [`RangeRead`] before its events.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RangeHeader<'a> {
    stream_id: &'a str,
    stream_created_at: String,
    path: &'a str,
    head: u64,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    closed: bool,
}

/// Stream info's `forkedFrom` (§18).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ForkedFrom {
    pub path: String,
    pub stream_id: String,
    pub fork_point: u64,
}

/// A range read as its response body (the JSON of [`RangeRead`]) and how
/// many events it holds.
#[derive(Debug)]
pub struct RangeJson {
    pub body: String,
    pub count: u64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PointRead {
    pub stream_id: String,
    pub stream_created_at: String,
    pub path: String,
    pub event: CommittedEvent,
}

/// Stream info (§3, §5, §11): the lifetime, the head, how many inbound
/// fence records the stream keeps, and the reduced state as §5 shapes it —
/// its inbound part the first page of those records (the debug card pages
/// the rest).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamInfo<'a> {
    pub stream_id: String,
    pub stream_created_at: String,
    pub path: String,
    pub head: u64,
    pub event_count: u64,
    /// The lowest offset still readable (§16): 1 until something is trimmed.
    pub first_offset: u64,
    /// The latest `retention-configured` (`null`: keep everything, §16).
    pub retention: Option<&'a crate::retention::Retention>,
    /// Bytes of the retained event rows (§16 `maxBytes` counts these).
    pub bytes: u64,
    /// Rows deleted by retention and ephemeral expiry in this lifetime.
    pub trimmed_events: u64,
    pub inbound_fence_count: u64,
    /// The content type fixed for the lifetime (§17): `application/json`
    /// for a stream first written natively.
    pub content_type: String,
    /// Whether the stream is closed (§17 "Closure"), and at which offset.
    pub closed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_at_offset: Option<u64>,
    /// The latest `expiry-configured` (§17): `{}` never, `{ttlSeconds}` or
    /// `{expiresAt}`; and the deadline as the stream knows it now.
    pub expiry: serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// A fork's source (§18): its path, lifetime and the fork point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<ForkedFrom>,
    /// How many forks read this lifetime's prefix (§18).
    pub forks: u64,
    pub state: StateView<'a>,
}

/// The reduced state as §5 shapes it: `{subscriptions: {inbound, outbound}}`.
#[derive(Debug, Serialize)]
pub struct StateView<'a> {
    pub subscriptions: SubscriptionsView<'a>,
}

#[derive(Debug, Serialize)]
pub struct SubscriptionsView<'a> {
    /// The first [`DEFAULT_INBOUND_FENCE_PAGE`] fence records, in
    /// `(sourcePath, subscriptionKey)` order.
    pub inbound: InboundView,
    pub outbound: &'a Outbound,
}

impl<S: Storage> Stream<S> {
    pub(crate) fn existing(&self) -> Result<&crate::schema::StreamMetaRow, ReadError> {
        self.lifetime
            .as_ref()
            .ok_or_else(|| ReadError::StreamNotFound(self.path.to_string()))
    }

    /// Where a read starts (§16): `after`, or the first retained event's
    /// predecessor when reading from the earliest; before it is 410.
    pub fn read_start(&self, after: u64, from_earliest: bool) -> Result<u64, ReadError> {
        let first_offset = self.retention.first_offset();
        if from_earliest {
            return Ok(after.max(first_offset - 1));
        }
        if after.saturating_add(1) < first_offset {
            return Err(ReadError::Trimmed {
                asked: after.saturating_add(1),
                first_offset,
            });
        }
        Ok(after)
    }

    pub fn read_range(&self, query: &RangeQuery) -> Result<RangeRead, ReadError> {
        let meta = self.existing()?;
        let after = self.read_start(query.after, query.from_earliest)?;
        let events = rows::range(&self.storage, after, query.limit, query.include_ephemeral)?;
        let next_after = events.last().map_or(after.max(meta.head), |e| e.offset);
        Ok(RangeRead {
            stream_id: meta.stream_id.clone(),
            stream_created_at: rfc3339_millis(meta.created_at_ms),
            path: meta.path.clone(),
            head: meta.head,
            closed: self.state.closed.is_some(),
            events: events.into_iter().map(CommittedEvent::from).collect(),
            next_after,
        })
    }

    /// [`Stream::read_range`] as the response body's JSON text, the page
    /// built by SQLite in one range scan ([`super::page_json`]): what the
    /// HTTP reads and long-polls send.
    pub fn read_range_json(&self, query: &RangeQuery) -> Result<RangeJson, ReadError> {
        let meta = self.existing()?;
        if self.holds_bytes()? {
            // SQLite cannot write a byte message's base64 form (§17): the
            // events are built here instead.
            let read = self.read_range(query)?;
            let count = read.events.len() as u64;
            let body = serde_json::to_string(&read).map_err(|error| StorageError::Sql(error.to_string()))?;
            return Ok(RangeJson { body, count });
        }
        let after = self.read_start(query.after, query.from_earliest)?;
        let page = super::page_json::range_json(
            &self.storage,
            after,
            query.limit,
            query.include_ephemeral,
            crate::limits::MAX_READ_BYTES,
        )?;
        let next_after = page.last_offset.unwrap_or(after.max(meta.head));
        Ok(RangeJson {
            body: self.range_body(&page.events_json, next_after)?,
            count: page.count,
        })
    }

    /// A range read's body around `events_json` (a JSON array's text):
    /// `{...header}` + `,"events":[...],"nextAfter":n}`, [`RangeRead`]'s field order.
    pub(crate) fn range_body(&self, events_json: &str, next_after: u64) -> Result<String, ReadError> {
        let meta = self.existing()?;
        let header = RangeHeader {
            stream_id: &meta.stream_id,
            stream_created_at: rfc3339_millis(meta.created_at_ms),
            path: &meta.path,
            head: meta.head,
            closed: self.state.closed.is_some(),
        };
        let header = serde_json::to_string(&header).map_err(|error| StorageError::Sql(error.to_string()))?;
        let mut body = String::with_capacity(header.len() + events_json.len() + 40);
        body.push_str(header.strip_suffix('}').unwrap_or(&header));
        body.push_str(",\"events\":");
        body.push_str(events_json);
        body.push_str(&format!(",\"nextAfter\":{next_after}}}"));
        Ok(body)
    }

    /// Whether this lifetime's messages are bytes (a protocol stream whose
    /// content type is not JSON, §17).
    pub(crate) fn holds_bytes(&self) -> Result<bool, StorageError> {
        let face = self.face()?;
        Ok(face.row.content_type.is_some() && !face.content_type.is_json())
    }

    pub fn read_one(&self, offset: u64) -> Result<PointRead, ReadError> {
        let meta = self.existing()?;
        let first_offset = self.retention.first_offset();
        // Trimmed (§16), or an ephemeral row expired after its hour.
        let gone = |offset: u64| offset < first_offset || (offset >= 1 && offset <= meta.head);
        let event = rows::by_offset(&self.storage, offset)?.ok_or(if gone(offset) {
            ReadError::Trimmed {
                asked: offset,
                first_offset,
            }
        } else {
            ReadError::EventNotFound(offset)
        })?;
        Ok(PointRead {
            stream_id: meta.stream_id.clone(),
            stream_created_at: rfc3339_millis(meta.created_at_ms),
            path: meta.path.clone(),
            event: event.into(),
        })
    }

    /// The `whsec_` secret of a webhook-post subscription (§9), derived on
    /// demand (once for as long as the object holds its memory) and never
    /// stored.
    pub fn signing_secret(&self, key: &str) -> Result<String, ReadError> {
        let meta = self.existing()?;
        let subscription = self.state.subscriptions.outbound.by_key.get(key);
        if !subscription.is_some_and(|s| {
            s.configuration.valid().is_some_and(|configuration| {
                matches!(
                    configuration.receiver,
                    crate::subscription::Receiver::WebhookPost { .. }
                )
            })
        }) {
            return Err(ReadError::NoSuchWebhook(key.to_owned()));
        }
        let signing_key = self
            .deployment
            .webhook_signing_key
            .as_deref()
            .ok_or(ReadError::SigningNotConfigured)?;
        Ok(self
            .memory
            .signing_secrets
            .secret(signing_key, &meta.project_id, &meta.path, key))
    }

    pub fn info(&self) -> Result<StreamInfo<'_>, ReadError> {
        let meta = self.existing()?;
        let inbound = self.inbound_page(None, DEFAULT_INBOUND_FENCE_PAGE)?;
        let face = self.face()?;
        Ok(StreamInfo {
            stream_id: meta.stream_id.clone(),
            stream_created_at: rfc3339_millis(meta.created_at_ms),
            path: meta.path.clone(),
            head: meta.head,
            event_count: meta.event_count,
            first_offset: self.first_offset(),
            retention: self.state.retention.as_ref(),
            bytes: self.retained_bytes(),
            trimmed_events: self.trimmed_events(),
            inbound_fence_count: self.inbound_fence_count()?,
            content_type: face.content_type.canonical(),
            closed: self.state.closed.is_some(),
            closed_at_offset: self.state.closed.as_ref().map(|closed| closed.at_offset),
            expiry: crate::state::lifecycle::expiry_payload(self.state.expiry),
            expires_at: self
                .stored_expiry(Some(&face.row))
                .deadline(self.last_access)
                .map(rfc3339_millis),
            forked_from: crate::fork::store::origin(&self.storage)?.map(|origin| ForkedFrom {
                path: origin.source_path,
                stream_id: origin.source_stream_id,
                fork_point: origin.fork_point,
            }),
            forks: self.fork_edges()?.0,
            state: StateView {
                subscriptions: SubscriptionsView {
                    inbound: inbound.records,
                    outbound: &self.state.subscriptions.outbound,
                },
            },
        })
    }
}
