//! The inbound fence record (docs/design.md §5 inbound, §7 rule 2): per
//! `(sourcePath, subscriptionKey)`, the stamp of the last copy this stream
//! committed and how many it received. Reduced from committed copies, so a
//! rebuild gives the identical record.
//!
//! A row of `inbound_fences` (migration 0007; persisted, so the columns must
//! be kept stable): `source_path`, `subscription_key`, `stream_id`,
//! `stream_created_at` (the stamp's text), `cursor_changed_at_source_offset`,
//! `num_events_received`, `last_event_received_at_ms`.
//!
//! On the wire (stream info and the debug card, §11) a record keeps its §5
//! shape: `{streamId, streamCreatedAt, cursorChangedAtSourceOffset,
//! numEventsReceived, lastEventReceivedAt}`, under `bySourcePath`, then the key.

use super::columns::Named;
use super::RunStamp;
use crate::storage::{SqlValue, StorageError};
use crate::time::rfc3339_millis;
use serde::{Serialize, Serializer};

/// The columns [`FenceRow::decode`] reads, in order, after `SELECT`.
pub const COLUMNS: &str = "source_path, subscription_key, stream_id, stream_created_at, \
     cursor_changed_at_source_offset, num_events_received, last_event_received_at_ms";
const NAMES: &[&str] = &[
    "source_path",
    "subscription_key",
    "stream_id",
    "stream_created_at",
    "cursor_changed_at_source_offset",
    "num_events_received",
    "last_event_received_at_ms",
];

/// Writes one record into `$table`, replacing the pair's earlier one
/// ([`FenceRow::encode`]); and the record of one pair, a point lookup.
macro_rules! fence_sql {
    (upsert $table:literal) => {
        concat!(
            "INSERT INTO ", $table, " (source_path, subscription_key, stream_id, stream_created_at, \
             cursor_changed_at_source_offset, num_events_received, last_event_received_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (source_path, subscription_key) DO UPDATE SET stream_id = excluded.stream_id, \
             stream_created_at = excluded.stream_created_at, \
             cursor_changed_at_source_offset = excluded.cursor_changed_at_source_offset, \
             num_events_received = excluded.num_events_received, \
             last_event_received_at_ms = excluded.last_event_received_at_ms"
        )
    };
    (select_one $table:literal) => {
        concat!(
            "SELECT source_path, subscription_key, stream_id, stream_created_at, \
             cursor_changed_at_source_offset, num_events_received, last_event_received_at_ms \
             FROM ", $table, " WHERE source_path = ? AND subscription_key = ?"
        )
    };
}

/// Writes one record of `inbound_fences`, replacing the pair's earlier one.
pub const UPSERT: &str = fence_sql!(upsert "inbound_fences");

/// The record of one pair: a point lookup on the primary key.
pub const SELECT_ONE: &str = fence_sql!(select_one "inbound_fences");

/// The same two statements over `snapshot_inbound_fences` (§16): the
/// records as of the retention snapshot, folded from trimmed copies.
pub const SNAPSHOT_UPSERT: &str = fence_sql!(upsert "snapshot_inbound_fences");
pub const SNAPSHOT_SELECT_ONE: &str = fence_sql!(select_one "snapshot_inbound_fences");

/// A page of records after a pair, in `(source_path, subscription_key)`
/// order (binary collation: the order the reduced state's maps had).
pub const SELECT_PAGE_AFTER: &str = "SELECT source_path, subscription_key, stream_id, stream_created_at, \
     cursor_changed_at_source_offset, num_events_received, last_event_received_at_ms \
     FROM inbound_fences WHERE (source_path, subscription_key) > (?, ?) \
     ORDER BY source_path, subscription_key LIMIT +?";

/// The first page of records.
pub const SELECT_FIRST_PAGE: &str = "SELECT source_path, subscription_key, stream_id, stream_created_at, \
     cursor_changed_at_source_offset, num_events_received, last_event_received_at_ms \
     FROM inbound_fences ORDER BY source_path, subscription_key LIMIT +?";

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InboundFence {
    /// The last accepted stamp: the fence (§7 rule 2).
    #[serde(flatten)]
    pub stamp: RunStamp,
    /// Copies committed from this `(sourcePath, subscriptionKey)`, over all runs.
    pub num_events_received: u64,
    /// When the last of them was committed (shown as RFC 3339, §3).
    #[serde(rename = "lastEventReceivedAt", serialize_with = "as_rfc3339")]
    pub last_event_received_at_ms: i64,
}

fn as_rfc3339<S: Serializer>(ms: &i64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&rfc3339_millis(*ms))
}

impl InboundFence {
    /// The record after committing one more copy of run `stamp` at
    /// `received_at_ms` (§5): the fence moves to that stamp, the count grows.
    pub fn received(previous: Option<&InboundFence>, stamp: RunStamp, received_at_ms: i64) -> InboundFence {
        InboundFence {
            stamp,
            num_events_received: previous
                .map_or(0, |record| record.num_events_received)
                .saturating_add(1),
            last_event_received_at_ms: received_at_ms,
        }
    }
}

/// One row of `inbound_fences`: the pair and its record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenceRow {
    pub source_path: String,
    pub subscription_key: String,
    pub fence: InboundFence,
}

impl FenceRow {
    /// Parameters of [`UPSERT`].
    pub fn encode(&self) -> [SqlValue; 7] {
        let fence = &self.fence;
        [
            self.source_path.as_str().into(),
            self.subscription_key.as_str().into(),
            fence.stamp.stream_id.as_str().into(),
            fence.stamp.stream_created_at.as_str().into(),
            fence.stamp.cursor_changed_at_source_offset.into(),
            fence.num_events_received.into(),
            SqlValue::Integer(fence.last_event_received_at_ms),
        ]
    }

    /// Decodes one row selecting [`COLUMNS`].
    pub fn decode(query: &str, row: &[SqlValue]) -> Result<FenceRow, StorageError> {
        let row = Named::new(query, row, NAMES);
        Ok(FenceRow {
            source_path: row.text("source_path")?,
            subscription_key: row.text("subscription_key")?,
            fence: InboundFence {
                stamp: RunStamp {
                    stream_id: row.text("stream_id")?,
                    stream_created_at: row.text("stream_created_at")?,
                    cursor_changed_at_source_offset: row.count("cursor_changed_at_source_offset")?,
                },
                num_events_received: row.count("num_events_received")?,
                last_event_received_at_ms: row.int("last_event_received_at_ms")?,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn any_row() -> impl Strategy<Value = FenceRow> {
        (
            "/[a-z0-9._~-]{1,24}",
            ".{1,24}",
            "[a-z0-9_]{1,24}",
            -9_000_000_000_000_000i64..9_000_000_000_000_000i64,
            0u64..(1 << 53),
            0u64..(1 << 53),
            -9_000_000_000_000_000i64..9_000_000_000_000_000i64,
        )
            .prop_map(
                |(source_path, subscription_key, stream_id, created_ms, generation, received, last_ms)| FenceRow {
                    source_path,
                    subscription_key,
                    fence: InboundFence {
                        stamp: RunStamp {
                            stream_id,
                            stream_created_at: rfc3339_millis(created_ms),
                            cursor_changed_at_source_offset: generation,
                        },
                        num_events_received: received,
                        last_event_received_at_ms: last_ms,
                    },
                },
            )
    }

    proptest! {
        #[test]
        fn s7_fence_row_round_trips(row in any_row()) {
            // The row a SELECT of COLUMNS returns is what UPSERT bound.
            let decoded = FenceRow::decode(SELECT_ONE, &row.encode());
            prop_assert_eq!(decoded.ok(), Some(row));
        }

        /// The wire bytes are those the reduced state's untyped records had
        /// (a `json!` map in insertion order), so readers see the §5 shape.
        #[test]
        fn s5_inbound_fence_keeps_its_wire_shape(row in any_row()) {
            let fence = &row.fence;
            let untyped = json!({
                "streamId": fence.stamp.stream_id,
                "streamCreatedAt": fence.stamp.stream_created_at,
                "cursorChangedAtSourceOffset": fence.stamp.cursor_changed_at_source_offset,
                "numEventsReceived": fence.num_events_received,
                "lastEventReceivedAt": rfc3339_millis(fence.last_event_received_at_ms),
            });
            prop_assert_eq!(serde_json::to_string(fence).ok(), serde_json::to_string(&untyped).ok());
        }
    }

    #[test]
    fn s5_received_counts_over_runs() {
        let stamp = |generation| RunStamp {
            stream_id: "str_a".to_owned(),
            stream_created_at: rfc3339_millis(0),
            cursor_changed_at_source_offset: generation,
        };
        let first = InboundFence::received(None, stamp(1), 5);
        let second = InboundFence::received(Some(&first), stamp(4), 6);
        assert_eq!(first.num_events_received, 1);
        assert_eq!(second.num_events_received, 2);
        assert_eq!(second.stamp, stamp(4));
        assert_eq!(second.last_event_received_at_ms, 6);
    }
}
