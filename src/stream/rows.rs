//! SQL over the `events` table (schema: `migrations/0001_streams.sql`).

use crate::event::{InputEvent, StoredEvent, CONTROL_PREFIX};
use crate::storage::{Columns, Row, SqlValue, Storage, StorageError};
use serde_json::value::RawValue;

const EVENT_COLUMNS: &str = "event_offset, type, payload, metadata, idempotency_key, ephemeral, created_at_ms, source";

fn raw_json(columns: &Columns<'_>, index: usize) -> Result<Box<RawValue>, StorageError> {
    RawValue::from_string(columns.text(index)?).map_err(|_| StorageError::Decode {
        query: columns.query.to_owned(),
        column: index,
    })
}

fn decode(query: &str, row: &Row) -> Result<StoredEvent, StorageError> {
    let columns = Columns { query, row };
    let source = match columns.opt_text(7)? {
        Some(_) => Some(raw_json(&columns, 7)?),
        None => None,
    };
    Ok(StoredEvent {
        offset: columns.int(0)?.max(0) as u64,
        event_type: columns.text(1)?,
        payload: raw_json(&columns, 2)?,
        metadata: raw_json(&columns, 3)?,
        idempotency_key: columns.opt_text(4)?,
        ephemeral: columns.int(5)? != 0,
        created_at_ms: columns.int(6)?,
        source,
    })
}

fn select<S: Storage + ?Sized>(storage: &S, sql: &str, params: &[SqlValue]) -> Result<Vec<StoredEvent>, StorageError> {
    storage.query(sql, params)?.iter().map(|row| decode(sql, row)).collect()
}

pub fn by_offset<S: Storage + ?Sized>(storage: &S, offset: u64) -> Result<Option<StoredEvent>, StorageError> {
    let sql = format!("SELECT {EVENT_COLUMNS} FROM events WHERE event_offset = ?");
    Ok(select(storage, &sql, &[offset.into()])?.into_iter().next())
}

pub fn by_idempotency_key<S: Storage + ?Sized>(storage: &S, key: &str) -> Result<Option<StoredEvent>, StorageError> {
    let sql = format!("SELECT {EVENT_COLUMNS} FROM events WHERE idempotency_key = ?");
    Ok(select(storage, &sql, &[key.into()])?.into_iter().next())
}

/// Up to `limit` events after `after`, ephemeral ones only when asked (§3 rule 5).
pub fn range<S: Storage + ?Sized>(
    storage: &S,
    after: u64,
    limit: u64,
    include_ephemeral: bool,
) -> Result<Vec<StoredEvent>, StorageError> {
    let sql = format!(
        "SELECT {EVENT_COLUMNS} FROM events WHERE event_offset > ? AND (ephemeral = 0 OR ? = 1) \
         ORDER BY event_offset LIMIT ?"
    );
    select(storage, &sql, &[after.into(), include_ephemeral.into(), limit.into()])
}

/// The events the reduced-state fold can react to: control events and copies.
pub fn select_fold_inputs<S: Storage + ?Sized>(storage: &S) -> Result<Vec<StoredEvent>, StorageError> {
    let sql = format!(
        "SELECT {EVENT_COLUMNS} FROM events WHERE substr(type, 1, {}) = ? OR source IS NOT NULL \
         ORDER BY event_offset",
        CONTROL_PREFIX.len()
    );
    select(storage, &sql, &[CONTROL_PREFIX.into()])
}

/// The row an input event becomes at `offset`.
pub fn stored_from_input(input: &InputEvent, offset: u64, created_at_ms: i64) -> Result<StoredEvent, StorageError> {
    let encode = |value: &serde_json::Value| {
        serde_json::value::to_raw_value(value).map_err(|error| StorageError::Sql(error.to_string()))
    };
    Ok(StoredEvent {
        offset,
        event_type: input.event_type.clone(),
        payload: encode(&input.payload)?,
        metadata: encode(&input.metadata)?,
        idempotency_key: input.idempotency_key.clone(),
        ephemeral: input.ephemeral,
        created_at_ms,
        source: input.source.as_ref().map(encode).transpose()?,
    })
}

pub fn insert<S: Storage + ?Sized>(storage: &S, event: &StoredEvent) -> Result<(), StorageError> {
    let sql = format!("INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    storage.execute(
        &sql,
        &[
            event.offset.into(),
            event.event_type.as_str().into(),
            event.payload.get().into(),
            event.metadata.get().into(),
            event.idempotency_key.clone().into(),
            event.ephemeral.into(),
            SqlValue::Integer(event.created_at_ms),
            event.source.as_ref().map(|source| source.get().to_owned()).into(),
        ],
    )
}
