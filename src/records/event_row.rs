//! A row of `events` (docs/design.md §3): one committed event, as
//! [`StoredEvent`]. Written once by the append; read by every range read,
//! delivery scan and rebuild (`stream/rows.rs` holds those queries).
//!
//! Columns (migration 0001; persisted, so must be kept stable), in the
//! order [`COLUMNS`] lists and every query selects them.

use super::columns::Named;
use crate::event::StoredEvent;
use crate::storage::{SqlValue, StorageError};
use serde_json::value::RawValue;

/// The columns of an event row, in select and insert order.
pub const COLUMNS: [&str; 9] = [
    "event_offset",
    "type",
    "payload",
    "metadata",
    "idempotency_key",
    "ephemeral",
    "created_at_ms",
    "source",
    "body",
];

/// [`COLUMNS`] as a select or insert list (checked by a test).
pub const LIST: &str = "event_offset, type, payload, metadata, idempotency_key, ephemeral, created_at_ms, source, body";

fn raw_json(named: &Named<'_>, name: &str) -> Result<Box<RawValue>, StorageError> {
    RawValue::from_string(named.text(name)?).map_err(|_| StorageError::Decode {
        query: named.columns.query.to_owned(),
        column: named.column(name),
    })
}

/// Decodes one row selecting [`LIST`].
pub fn decode(query: &str, row: &[SqlValue]) -> Result<StoredEvent, StorageError> {
    let named = Named::new(query, row, &COLUMNS);
    let source = if named.is_null("source")? {
        None
    } else {
        Some(raw_json(&named, "source")?)
    };
    // A byte message (§17, migration 0010): its bytes travel as a string.
    let (payload, encoding) = match named.optional_blob("body")? {
        Some(bytes) => {
            let (payload, encoding) = crate::event::BodyEncoding::carry(bytes);
            (payload, Some(encoding))
        }
        None => (raw_json(&named, "payload")?, None),
    };
    Ok(StoredEvent {
        offset: named.count("event_offset")?,
        event_type: named.text("type")?,
        payload,
        metadata: raw_json(&named, "metadata")?,
        idempotency_key: named.optional_text("idempotency_key")?,
        ephemeral: named.int("ephemeral")? != 0,
        created_at_ms: named.int("created_at_ms")?,
        source,
        encoding,
        body: None,
    })
}

/// The values of `INSERT INTO events (LIST)`, in [`COLUMNS`] order.
pub fn encode(event: &StoredEvent) -> Vec<SqlValue> {
    vec![
        event.offset.into(),
        event.event_type.as_str().into(),
        match &event.body {
            Some(_) => "null".into(),
            None => event.payload.get().into(),
        },
        event.metadata.get().into(),
        event.idempotency_key.clone().into(),
        event.ephemeral.into(),
        SqlValue::Integer(event.created_at_ms),
        event.source.as_ref().map(|source| source.get().to_owned()).into(),
        event.body.clone().map_or(SqlValue::Null, SqlValue::Blob),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn raw(value: serde_json::Value) -> Box<RawValue> {
        serde_json::value::to_raw_value(&value).unwrap_or_else(|_| RawValue::NULL.to_owned())
    }

    /// A comparable view (RawValue has no equality).
    fn view(event: &StoredEvent) -> (u64, String, String, String, Option<String>, bool, i64, Option<String>) {
        (
            event.offset,
            event.event_type.clone(),
            event.payload.get().to_owned(),
            event.metadata.get().to_owned(),
            event.idempotency_key.clone(),
            event.ephemeral,
            event.created_at_ms,
            event.source.as_ref().map(|source| source.get().to_owned()),
        )
    }

    proptest! {
        #[test]
        fn s3_event_row_round_trips(
            offset in 1u64..(1 << 53),
            event_type in "[a-z.-]{1,20}",
            payload in ".{0,20}",
            key in proptest::option::of("[a-z0-9:]{1,20}"),
            ephemeral in any::<bool>(),
            created_at_ms in any::<i64>(),
            hop_offset in proptest::option::of(0u64..1000),
        ) {
            let event = StoredEvent {
                offset,
                event_type,
                payload: raw(serde_json::json!({ "text": payload })),
                metadata: raw(serde_json::json!({})),
                idempotency_key: key,
                ephemeral,
                created_at_ms,
                source: hop_offset.map(|offset| raw(serde_json::json!({"copiedFrom": [{"offset": offset}]}))),
                encoding: None,
                body: None,
            };
            let decoded = decode(LIST, &encode(&event));
            prop_assert_eq!(decoded.as_ref().map(view).ok(), Some(view(&event)));
        }
    }

    #[test]
    fn s3_list_names_the_columns_in_order() {
        let names: Vec<&str> = LIST.split(',').map(str::trim).collect();
        assert_eq!(names, COLUMNS.to_vec());
    }

    #[test]
    fn s3_a_payload_that_is_not_json_is_a_decode_error() {
        let mut values = encode(&StoredEvent::sample(1, 1));
        if let Some(payload) = values.get_mut(2) {
            *payload = SqlValue::Text("{not json".to_owned());
        }
        assert_eq!(
            decode(LIST, &values).err(),
            Some(StorageError::Decode {
                query: LIST.to_owned(),
                column: 2
            })
        );
    }
}
