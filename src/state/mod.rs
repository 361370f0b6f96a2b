//! The reduced state (docs/design.md §5): a deterministic fold of the stream's own
//! committed events. The outbound subscriptions are one JSON document, cached
//! in `reduced_state`; the inbound fence records (§7 rule 2) are rows of their
//! own table ([`inbound`]), written in the same commit. Rebuilding both by
//! replaying the log must give the identical value.

mod fold;
pub(crate) mod inbound;
pub mod lifecycle;
mod outbound;

pub(crate) use fold::Mode;
pub use fold::{ReduceError, PROCESSOR_ALREADY_SUBSCRIBED};
pub use outbound::{CursorSet, DeliveryHalted, OutboundSubscription, StoredConfiguration};

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Bumped whenever the fold changes meaning: a cached state of another
/// version is discarded and rebuilt from the log. 4: a second processor-wake
/// subscription of one processor on a stream is kept marked invalid (§9).
/// 5: inbound fence records moved out of the document into `inbound_fences`
/// (issue 20): the rebuild a version-4 stream gets on open fills the table
/// from its committed copies.
/// 6: closure and expiry (§17) joined the document.
pub const STATE_VERSION: i64 = 6;

/// The reduced-state document (cached in `reduced_state`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReducedState {
    pub subscriptions: Subscriptions,
    /// The latest `retention-configured` (§16); `None`: keep everything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retention: Option<crate::retention::Retention>,
    /// The first `stream-closed` (§17); `None`: open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed: Option<lifecycle::Closed>,
    /// The latest `expiry-configured` (§17).
    #[serde(
        default,
        with = "lifecycle::stored_expiry",
        skip_serializing_if = "lifecycle::stored_expiry::is_never"
    )]
    pub expiry: crate::durable_streams::expiry::Expiry,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscriptions {
    pub outbound: Outbound,
}

/// Durable subscriptions configured on this stream (§5 outbound).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Outbound {
    pub by_key: BTreeMap<String, OutboundSubscription>,
}

impl ReducedState {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_owned())
    }
}
