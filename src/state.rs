//! The reduced state (DESIGN.md §5): a deterministic fold of the stream's own
//! committed events. Cached in `reduced_state`; rebuilding it by replaying the
//! log must give the identical value.

use crate::error::ApiFailure;
use crate::event::{ControlType, StoredEvent, TypeKind};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Bumped whenever the fold changes meaning: a cached state of another
/// version is discarded and rebuilt from the log.
pub const STATE_VERSION: i64 = 1;

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

/// Fence records of copies this stream received (§5 inbound, §7).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Inbound {
    pub by_source_path: BTreeMap<String, BTreeMap<String, Value>>,
}

/// Durable subscriptions configured on this stream (§5 outbound).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Outbound {
    pub by_key: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReduceError {
    #[error("'{0}' is not supported by this deployment yet")]
    Unsupported(String),
}

impl ApiFailure for ReduceError {
    fn status(&self) -> u16 {
        422
    }
    fn code(&self) -> &'static str {
        "unsupported_control_type"
    }
}

impl ReducedState {
    /// Folds one committed event. Events that are not control events on this
    /// stream (ordinary events, copies) leave the state unchanged.
    pub fn apply(&mut self, event: &StoredEvent) -> Result<(), ReduceError> {
        if event.source.is_some() {
            return Ok(());
        }
        match ControlType::classify(&event.event_type) {
            TypeKind::Ordinary | TypeKind::UnknownControl => Ok(()),
            TypeKind::Control(ControlType::ErrorOccurred) => Ok(()),
            TypeKind::Control(_) => Err(ReduceError::Unsupported(event.event_type.clone())),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_owned())
    }
}
