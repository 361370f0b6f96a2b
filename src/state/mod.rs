//! The reduced state (DESIGN.md §5): a deterministic fold of the stream's own
//! committed events. Cached in `reduced_state`; rebuilding it by replaying the
//! log must give the identical value.

mod fold;
mod outbound;

pub use fold::{ReduceError, PROCESSOR_ALREADY_SUBSCRIBED};
pub use outbound::{CursorSet, DeliveryHalted, OutboundSubscription, StoredConfiguration};

use crate::records::InboundFence;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Bumped whenever the fold changes meaning: a cached state of another
/// version is discarded and rebuilt from the log. 4: a second processor-wake
/// subscription of one processor on a stream is kept marked invalid (§9).
pub const STATE_VERSION: i64 = 4;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReducedState {
    pub subscriptions: Subscriptions,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscriptions {
    pub inbound: Inbound,
    pub outbound: Outbound,
}

/// Fence records of copies this stream received (§5 inbound, §7), by
/// source path, then subscription key.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Inbound {
    pub by_source_path: BTreeMap<String, BTreeMap<String, InboundFence>>,
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
