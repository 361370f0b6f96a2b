//! `events-invalidated` (docs/design.md §4, §13): an upstream declaring earlier
//! events of this stream invalid — a range `{afterOffset, reason?}` (every
//! durable event with `afterOffset < offset <` its own) or a list
//! `{offsets: [...], reason?}` (at most 1000, all below its own offset).
//! The log never changes; subscriptions retract what they delivered.

use crate::event::{ControlType, TypeKind};
use crate::limits::{MAX_INVALIDATED_OFFSETS, MAX_REASON_BYTES};
use crate::state::ReduceError;
use serde_json::Value;
use std::collections::BTreeSet;

/// Whether `event_type` is `events-invalidated` (a stream's own, or a copy
/// of one: the type a copy carries is its source's unless transformed).
pub fn is_invalidation_type(event_type: &str) -> bool {
    matches!(
        ControlType::classify(event_type),
        TypeKind::Control(ControlType::EventsInvalidated)
    )
}

/// Which earlier offsets one `events-invalidated` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invalidated {
    /// `afterOffset < offset < at`.
    After(u64),
    Offsets(BTreeSet<u64>),
}

/// A validated `events-invalidated` payload at offset `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalidation {
    pub at: u64,
    pub invalidated: Invalidated,
    pub reason: Option<String>,
}

fn refuse(field: &'static str, problem: &'static str) -> ReduceError {
    ReduceError::Payload { field, problem }
}

impl Invalidation {
    /// Validates the payload of an `events-invalidated` at offset `at` (422
    /// on every malformed form, checked before commit).
    pub fn parse(payload: &Value, at: u64) -> Result<Invalidation, ReduceError> {
        let fields = payload.as_object().ok_or(refuse("payload", "must be an object"))?;
        if fields
            .keys()
            .any(|name| !["afterOffset", "offsets", "reason"].contains(&name.as_str()))
        {
            return Err(refuse("payload", "takes only afterOffset or offsets, and reason"));
        }
        let reason = match fields.get("reason") {
            None | Some(Value::Null) => None,
            Some(Value::String(reason)) if reason.len() <= MAX_REASON_BYTES => Some(reason.clone()),
            Some(_) => return Err(refuse("reason", "must be a string of at most 256 bytes")),
        };
        let invalidated = match (fields.get("afterOffset"), fields.get("offsets")) {
            (Some(_), Some(_)) => return Err(refuse("payload", "takes afterOffset or offsets, not both")),
            (None, None) => return Err(refuse("payload", "needs afterOffset or offsets")),
            (Some(after), None) => {
                let after = after
                    .as_u64()
                    .ok_or(refuse("afterOffset", "must be a non-negative integer"))?;
                if after >= at {
                    return Err(refuse("afterOffset", "must be below the invalidation's own offset"));
                }
                Invalidated::After(after)
            }
            (None, Some(offsets)) => {
                let list = offsets
                    .as_array()
                    .ok_or(refuse("offsets", "must be an array of offsets"))?;
                if list.is_empty() || list.len() > MAX_INVALIDATED_OFFSETS {
                    return Err(refuse("offsets", "must list 1 to 1000 offsets"));
                }
                let mut set = BTreeSet::new();
                for offset in list {
                    match offset.as_u64() {
                        Some(offset) if offset >= 1 && offset < at => {
                            set.insert(offset);
                        }
                        Some(_) => return Err(refuse("offsets", "must all be earlier offsets of this stream")),
                        None => return Err(refuse("offsets", "must be positive integers")),
                    }
                }
                Invalidated::Offsets(set)
            }
        };
        Ok(Invalidation {
            at,
            invalidated,
            reason,
        })
    }

    /// Whether `offset` is invalidated.
    pub fn covers(&self, offset: u64) -> bool {
        match &self.invalidated {
            Invalidated::After(after) => *after < offset && offset < self.at,
            Invalidated::Offsets(offsets) => offsets.contains(&offset),
        }
    }

    /// The lowest offset it can name.
    pub fn lowest(&self) -> u64 {
        match &self.invalidated {
            Invalidated::After(after) => after + 1,
            Invalidated::Offsets(offsets) => offsets.first().copied().unwrap_or(self.at),
        }
    }
}
