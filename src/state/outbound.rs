//! One outbound subscription as the reduced state holds it (§5).

use crate::subscription::Configuration;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A configuration as the reduced state keeps it (§5, §8). A committed
/// configuration that no longer reads or validates (a restored backup, an
/// older version) is never dropped: it stays as its raw payload, with its
/// runtime row and cursor, marked invalid, and refuses to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
// Nearly every stored configuration is valid: boxing it would only add an
// allocation to the common case.
#[allow(clippy::large_enum_variant)]
pub enum StoredConfiguration {
    Valid(Configuration),
    Unreadable(Value),
}

impl StoredConfiguration {
    pub fn valid(&self) -> Option<&Configuration> {
        match self {
            StoredConfiguration::Valid(configuration) => Some(configuration),
            StoredConfiguration::Unreadable(_) => None,
        }
    }

    /// The stream this subscription copies into, if it is a copy (§2: what
    /// a prefix token may set going): an unreadable one by its raw receiver.
    pub fn copy_target(&self) -> Option<&str> {
        match self {
            StoredConfiguration::Valid(configuration) => match &configuration.receiver {
                crate::subscription::Receiver::CopyToStream {
                    receiving_stream_path, ..
                } => Some(receiving_stream_path),
                _ => None,
            },
            StoredConfiguration::Unreadable(raw) => raw.get("receiver").and_then(crate::route::scope::copy_target),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OutboundSubscription {
    pub configuration: StoredConfiguration,
    pub configured_at_offset: u64,
    pub configured_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription_key_was_generated: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor_set: Option<CursorSet>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery_halted: Option<DeliveryHalted>,
}

/// `subscription-cursor-set`: deliver everything after `after_offset`, in a
/// new run whose config generation is the cursor-set's own offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CursorSet {
    pub after_offset: u64,
    /// The generation the cursor-set starts (§7): `setAtSourceOffset` on
    /// the wire and in the reduced state (§5), which keep that name.
    #[serde(rename = "setAtSourceOffset")]
    pub cursor_changed_at_source_offset: u64,
}

/// `subscription-delivery-halted`: the durable fact that delivery stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryHalted {
    pub reason: String,
    pub after_offset: u64,
    pub attempts: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl OutboundSubscription {
    /// The run's config generation (§7 `cursorChangedAtSourceOffset`): the
    /// offset of the configure or cursor-set event that started it.
    pub fn cursor_changed_at_source_offset(&self) -> u64 {
        self.cursor_set
            .map_or(self.configured_at_offset, |set| set.cursor_changed_at_source_offset)
    }
}
