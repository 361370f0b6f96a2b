//! The inbound fence records as the API shows them (docs/design.md §5 inbound,
//! §7 rule 2, §11): stream info gives their count and the first page, the
//! debug card pages them (`?inboundAfter=&inboundLimit=`, `nextInboundAfter`).
//! The records themselves are rows of `inbound_fences` (`state::inbound`).

use super::read::ReadError;
use super::Stream;
use crate::limits::{DEFAULT_INBOUND_FENCE_PAGE, MAX_INBOUND_FENCE_PAGE, MAX_SUBSCRIPTION_KEY_BYTES};
use crate::path::StreamPath;
use crate::records::InboundFence;
use crate::state::inbound;
use crate::storage::{Storage, StorageError};
use serde::Serialize;
use std::collections::BTreeMap;

/// A position among the records: after the pair `sourcePath:subscriptionKey`
/// (a path never holds `:`, so the first one separates; the key may hold more).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboundCursor {
    pub source_path: String,
    pub subscription_key: String,
}

impl InboundCursor {
    /// Parses a decoded `inboundAfter`: a valid stream path, `:`, a key of
    /// 1 to [`MAX_SUBSCRIPTION_KEY_BYTES`] bytes.
    pub fn parse(raw: &str) -> Result<InboundCursor, ReadError> {
        let invalid = |problem: &str| ReadError::InvalidParameter {
            name: "inboundAfter",
            problem: problem.to_owned(),
        };
        let (path, key) = raw
            .split_once(':')
            .ok_or_else(|| invalid("must be 'sourcePath:subscriptionKey' (a nextInboundAfter)"))?;
        let path = StreamPath::parse(path).map_err(|error| invalid(&format!("names no stream path: {error}")))?;
        if key.is_empty() || key.len() > MAX_SUBSCRIPTION_KEY_BYTES {
            return Err(invalid(&format!(
                "must end with a subscription key of 1 to {MAX_SUBSCRIPTION_KEY_BYTES} bytes"
            )));
        }
        Ok(InboundCursor {
            source_path: path.as_str().to_owned(),
            subscription_key: key.to_owned(),
        })
    }

    /// What `nextInboundAfter` says (to be percent-encoded in a URL).
    pub fn render(&self) -> String {
        format!("{}:{}", self.source_path, self.subscription_key)
    }
}

/// `?inboundAfter=&inboundLimit=` of the debug card (§11). Unknown
/// parameters are refused, like every query of the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardQuery {
    pub inbound_after: Option<InboundCursor>,
    pub inbound_limit: u64,
}

impl Default for CardQuery {
    fn default() -> Self {
        CardQuery {
            inbound_after: None,
            inbound_limit: DEFAULT_INBOUND_FENCE_PAGE,
        }
    }
}

impl CardQuery {
    /// Parses a URL query string (no leading `?`).
    pub fn parse(query: &str) -> Result<CardQuery, ReadError> {
        let mut parsed = CardQuery::default();
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            match name {
                "inboundAfter" => {
                    let decoded = crate::route::percent_decode(&value.replace('+', " ")).ok_or_else(|| {
                        ReadError::InvalidParameter {
                            name: "inboundAfter",
                            problem: "is not valid percent-encoding".to_owned(),
                        }
                    })?;
                    parsed.inbound_after = Some(InboundCursor::parse(&decoded)?);
                }
                "inboundLimit" => {
                    let limit = super::read::parse_offset("inboundLimit", value)?;
                    if !(1..=MAX_INBOUND_FENCE_PAGE).contains(&limit) {
                        return Err(ReadError::InvalidParameter {
                            name: "inboundLimit",
                            problem: format!("must be between 1 and {MAX_INBOUND_FENCE_PAGE}"),
                        });
                    }
                    parsed.inbound_limit = limit;
                }
                _ => {
                    return Err(ReadError::InvalidParameter {
                        name: "query",
                        problem: format!("has unknown parameter '{}'", crate::text::name_excerpt(name)),
                    })
                }
            }
        }
        Ok(parsed)
    }
}

/// Records in their §5 shape: by source path, then subscription key.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InboundView {
    pub by_source_path: BTreeMap<String, BTreeMap<String, InboundFence>>,
}

/// One page of records, and where the next starts (`None`: none left).
#[derive(Debug, Clone, PartialEq)]
pub struct InboundPage {
    pub records: InboundView,
    pub next_after: Option<InboundCursor>,
}

impl<S: Storage> Stream<S> {
    /// How many fence records this stream keeps (§11 `inboundFenceCount`).
    pub fn inbound_fence_count(&self) -> Result<u64, StorageError> {
        if self.lifetime.is_none() {
            return Ok(0);
        }
        inbound::count(&self.storage)
    }

    /// At most `limit` records after `after`, in `(sourcePath,
    /// subscriptionKey)` order; reads one row more to know whether any follow.
    pub fn inbound_page(&self, after: Option<&InboundCursor>, limit: u64) -> Result<InboundPage, StorageError> {
        let mut page = InboundPage {
            records: InboundView::default(),
            next_after: None,
        };
        if self.lifetime.is_none() {
            return Ok(page);
        }
        let after = after.map(|cursor| (cursor.source_path.as_str(), cursor.subscription_key.as_str()));
        let mut rows = inbound::page(&self.storage, after, limit.saturating_add(1))?;
        if rows.len() as u64 > limit {
            rows.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
            page.next_after = rows.last().map(|row| InboundCursor {
                source_path: row.source_path.clone(),
                subscription_key: row.subscription_key.clone(),
            });
        }
        for row in rows {
            page.records
                .by_source_path
                .entry(row.source_path)
                .or_default()
                .insert(row.subscription_key, row.fence);
        }
        Ok(page)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn s11_card_query_takes_a_cursor_and_a_limit() {
        let query = CardQuery::parse("inboundAfter=%2Fapp%2Fu1%3Asubscription%3A4&inboundLimit=5").unwrap();
        let cursor = query.inbound_after.unwrap();
        assert_eq!(
            (cursor.source_path.as_str(), cursor.subscription_key.as_str()),
            ("/app/u1", "subscription:4")
        );
        assert_eq!(cursor.render(), "/app/u1:subscription:4");
        assert_eq!(query.inbound_limit, 5);
        assert_eq!(CardQuery::parse("").unwrap(), CardQuery::default());
    }

    #[test]
    fn s11_card_query_refuses_what_it_cannot_read() {
        let long_key = format!("inboundAfter=/a:{}", "k".repeat(MAX_SUBSCRIPTION_KEY_BYTES + 1));
        for (query, parameter) in [
            ("inboundLimit=0", "inboundLimit"),
            ("inboundLimit=1001", "inboundLimit"),
            ("inboundLimit=-1", "inboundLimit"),
            ("inboundLimit=ten", "inboundLimit"),
            ("inboundLimit=", "inboundLimit"),
            ("inboundAfter=", "inboundAfter"),
            ("inboundAfter=/a", "inboundAfter"),
            ("inboundAfter=/a:", "inboundAfter"),
            ("inboundAfter=a:k", "inboundAfter"),
            ("inboundAfter=/a/../b:k", "inboundAfter"),
            ("inboundAfter=%zz", "inboundAfter"),
            (long_key.as_str(), "inboundAfter"),
            ("after=3", "query"),
        ] {
            match CardQuery::parse(query) {
                Err(ReadError::InvalidParameter { name, .. }) => assert_eq!(name, parameter, "{query}"),
                other => panic!("{query}: {other:?}"),
            }
        }
    }
}
