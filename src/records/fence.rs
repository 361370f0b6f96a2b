//! The inbound fence record (DESIGN.md §5 inbound, §7 rule 2): per
//! `(sourcePath, subscriptionKey)`, the stamp of the last copy this stream
//! committed and how many it received. Reduced from committed copies, so a
//! rebuild gives the identical record.
//!
//! Reduced-state JSON (persisted in `reduced_state`, so the keys and their
//! order must be kept stable): `{streamId, streamCreatedAt,
//! cursorChangedAtSourceOffset, numEventsReceived, lastEventReceivedAt?}`.

use super::RunStamp;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InboundFence {
    /// The last accepted stamp: the fence (§7 rule 2).
    #[serde(flatten)]
    pub stamp: RunStamp,
    /// Copies committed from this `(sourcePath, subscriptionKey)`, over all runs.
    pub num_events_received: u64,
    /// When the last of them was committed (RFC 3339, §3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_event_received_at: Option<String>,
}

impl InboundFence {
    /// The record after committing one more copy of run `stamp` at
    /// `received_at` (§5): the fence moves to that stamp, the count grows.
    pub fn received(previous: Option<&InboundFence>, stamp: RunStamp, received_at: String) -> InboundFence {
        InboundFence {
            stamp,
            num_events_received: previous
                .map_or(0, |record| record.num_events_received)
                .saturating_add(1),
            last_event_received_at: Some(received_at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::rfc3339_millis;
    use proptest::prelude::*;
    use serde_json::json;

    fn any_fence() -> impl Strategy<Value = InboundFence> {
        (
            "[a-z0-9_]{1,24}",
            -9_000_000_000_000_000i64..9_000_000_000_000_000i64,
            0u64..(1 << 53),
            0u64..(1 << 53),
            proptest::option::of(0i64..9_000_000_000_000_000i64),
        )
            .prop_map(|(stream_id, created_ms, generation, received, last_ms)| InboundFence {
                stamp: RunStamp {
                    stream_id,
                    stream_created_at: rfc3339_millis(created_ms),
                    cursor_changed_at_source_offset: generation,
                },
                num_events_received: received,
                last_event_received_at: last_ms.map(rfc3339_millis),
            })
    }

    proptest! {
        #[test]
        fn s5_inbound_fence_round_trips(fence in any_fence()) {
            let json = serde_json::to_string(&fence).unwrap_or_default();
            let decoded: Result<InboundFence, _> = serde_json::from_str(&json);
            prop_assert_eq!(decoded.ok(), Some(fence));
        }

        /// The bytes are those the untyped fold wrote (a `json!` map in
        /// insertion order), so a cached reduced state stays byte-identical.
        #[test]
        fn s5_inbound_fence_keeps_its_stored_bytes(fence in any_fence()) {
            let mut untyped = json!({
                "streamId": fence.stamp.stream_id,
                "streamCreatedAt": fence.stamp.stream_created_at,
                "cursorChangedAtSourceOffset": fence.stamp.cursor_changed_at_source_offset,
                "numEventsReceived": fence.num_events_received,
            });
            if let (Some(at), Some(fields)) = (&fence.last_event_received_at, untyped.as_object_mut()) {
                fields.insert("lastEventReceivedAt".to_owned(), json!(at));
            }
            prop_assert_eq!(serde_json::to_string(&fence).ok(), serde_json::to_string(&untyped).ok());
        }
    }

    #[test]
    fn s5_received_counts_over_runs() {
        let stamp = |generation| RunStamp {
            stream_id: "str_a".to_owned(),
            stream_created_at: rfc3339_millis(0),
            cursor_changed_at_source_offset: generation,
        };
        let first = InboundFence::received(None, stamp(1), rfc3339_millis(5));
        let second = InboundFence::received(Some(&first), stamp(4), rfc3339_millis(6));
        assert_eq!(first.num_events_received, 1);
        assert_eq!(second.num_events_received, 2);
        assert_eq!(second.stamp, stamp(4));
        assert_eq!(second.last_event_received_at, Some(rfc3339_millis(6)));
    }
}
