//! The face's rows (migration `0010_durable_streams.sql`, docs/design.md §17):
//! `protocol_face` — one row per lifetime, written by the creating `PUT`, a
//! `Stream-Seq` append and an expiry renewal — and `protocol_producers`, one
//! row per idempotent producer, written in the transaction of the append it
//! accepted.

use crate::durable_streams::checks::WriterWrites;
use crate::durable_streams::producer::{ProducerRecord, ProducerTable};
use crate::records::columns::Named;
use crate::storage::{query_optional, SqlValue, Storage, StorageError};

/// Row of `protocol_face` (one per lifetime, `id = 1`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FaceRow {
    /// The content type the creating `PUT` fixed, canonical; `None`: a
    /// stream first written natively (JSON, each data event a message).
    pub content_type: Option<String>,
    /// The event type its messages get (`Tributary-Message-Type`).
    pub message_type: String,
    /// The highest `Stream-Seq` accepted (compared bytewise).
    pub last_stream_seq: Option<String>,
    /// The stored expiry deadline (`expiry::StoredExpiry::deadline_ms`).
    pub expiry_deadline_ms: Option<i64>,
}

/// Idle producers one producer write forgets at most.
const FORGET_PER_WRITE: u64 = 16;

/// Row of `protocol_producers`: one producer's record.
pub type ProducerRow = ProducerRecord;

const FACE_COLUMNS: [&str; 4] = ["content_type", "message_type", "last_stream_seq", "expiry_deadline_ms"];
const PRODUCER_COLUMNS: [&str; 4] = ["producer_id", "epoch", "last_seq", "last_active_ms"];

fn face_table_exists<S: Storage + ?Sized>(storage: &S) -> Result<bool, StorageError> {
    let sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'protocol_face'";
    Ok(query_optional(storage, sql, &[])?.is_some())
}

/// The lifetime's face row; `None` for a stream first written natively.
pub fn load_face<S: Storage + ?Sized>(storage: &S) -> Result<Option<FaceRow>, StorageError> {
    if !face_table_exists(storage)? {
        return Ok(None);
    }
    load_face_of_lifetime(storage)
}

/// [`load_face`] while a lifetime exists: its migrations ran, so the table
/// is there and is not looked up (a `sqlite_master` read on every request).
pub fn load_face_of_lifetime<S: Storage + ?Sized>(storage: &S) -> Result<Option<FaceRow>, StorageError> {
    let sql = "SELECT content_type, message_type, last_stream_seq, expiry_deadline_ms FROM protocol_face WHERE id = 1";
    let Some(row) = query_optional(storage, sql, &[])? else {
        return Ok(None);
    };
    let named = Named::new(sql, &row, &FACE_COLUMNS);
    Ok(Some(FaceRow {
        content_type: named.optional_text("content_type")?,
        message_type: named.text("message_type")?,
        last_stream_seq: named.optional_text("last_stream_seq")?,
        expiry_deadline_ms: named.optional_int("expiry_deadline_ms")?,
    }))
}

pub fn save_face<S: Storage + ?Sized>(storage: &S, face: &FaceRow) -> Result<(), StorageError> {
    storage.execute(
        "INSERT INTO protocol_face (id, content_type, message_type, last_stream_seq, expiry_deadline_ms) \
         VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET content_type = excluded.content_type, \
         message_type = excluded.message_type, last_stream_seq = excluded.last_stream_seq, \
         expiry_deadline_ms = excluded.expiry_deadline_ms",
        &[
            face.content_type.clone().into(),
            face.message_type.as_str().into(),
            face.last_stream_seq.clone().into(),
            face.expiry_deadline_ms.map_or(SqlValue::Null, SqlValue::Integer),
        ],
    )
}

fn decode_producer(sql: &str, row: &[SqlValue]) -> Result<ProducerRecord, StorageError> {
    let named = Named::new(sql, row, &PRODUCER_COLUMNS);
    Ok(ProducerRecord {
        producer_id: named.text("producer_id")?,
        epoch: named.count("epoch")?,
        last_seq: named.count("last_seq")?,
        last_active_ms: named.int("last_active_ms")?,
    })
}

/// One producer's record.
pub fn producer<S: Storage + ?Sized>(storage: &S, id: &str) -> Result<Option<ProducerRecord>, StorageError> {
    let sql = "SELECT producer_id, epoch, last_seq, last_active_ms FROM protocol_producers WHERE producer_id = ?";
    query_optional(storage, sql, &[id.into()])?
        .map(|row| decode_producer(sql, &row))
        .transpose()
}

/// How many producers the stream holds, and the least recently active.
pub fn producer_table<S: Storage + ?Sized>(storage: &S) -> Result<ProducerTable, StorageError> {
    let count_sql = "SELECT COUNT(*) FROM protocol_producers";
    let count = match query_optional(storage, count_sql, &[])? {
        Some(row) => crate::storage::Columns {
            query: count_sql,
            row: &row,
        }
        .int(0)?
        .max(0) as u64,
        None => 0,
    };
    let sql = "SELECT producer_id, epoch, last_seq, last_active_ms FROM protocol_producers \
               ORDER BY last_active_ms LIMIT 1";
    let least_recent = query_optional(storage, sql, &[])?
        .map(|row| decode_producer(sql, &row))
        .transpose()?;
    Ok(ProducerTable { count, least_recent })
}

/// Writes what an accepted write changes of the writers' state, inside the
/// append's transaction (§17 "validated before and written in the same
/// transaction as the append").
pub fn write_writers<S: Storage + ?Sized>(
    storage: &S,
    writes: &WriterWrites,
    face: &FaceRow,
) -> Result<(), StorageError> {
    if let Some(evicted) = &writes.evict_producer {
        storage.execute(
            "DELETE FROM protocol_producers WHERE producer_id = ?",
            &[evicted.as_str().into()],
        )?;
    }
    if let Some(record) = &writes.producer {
        // Producers idle for 7 days are forgotten a few at a time (§17, §12).
        let before = crate::durable_streams::producer::forget_before(record.last_active_ms);
        forget_producers(storage, before, FORGET_PER_WRITE)?;
        storage.execute(
            "INSERT INTO protocol_producers (producer_id, epoch, last_seq, last_active_ms) VALUES (?, ?, ?, ?) \
             ON CONFLICT (producer_id) DO UPDATE SET epoch = excluded.epoch, last_seq = excluded.last_seq, \
             last_active_ms = excluded.last_active_ms",
            &[
                record.producer_id.as_str().into(),
                record.epoch.into(),
                record.last_seq.into(),
                SqlValue::Integer(record.last_active_ms),
            ],
        )?;
    }
    if let Some(seq) = &writes.stream_seq {
        let mut face = face.clone();
        face.last_stream_seq = Some(seq.clone());
        save_face(storage, &face)?;
    }
    Ok(())
}

/// Forgets producers idle since before `before_ms` (at most `limit` rows).
pub fn forget_producers<S: Storage + ?Sized>(storage: &S, before_ms: i64, limit: u64) -> Result<(), StorageError> {
    storage.execute(
        "DELETE FROM protocol_producers WHERE producer_id IN \
         (SELECT producer_id FROM protocol_producers WHERE last_active_ms < ? ORDER BY last_active_ms LIMIT +?)",
        &[SqlValue::Integer(before_ms), limit.into()],
    )
}

/// Stores a new expiry deadline (a stream first written natively gets its
/// face row here).
pub fn set_deadline<S: Storage + ?Sized>(storage: &S, deadline_ms: Option<i64>) -> Result<(), StorageError> {
    let mut face = load_face(storage)?.unwrap_or_else(super::lifetime::native_face);
    face.expiry_deadline_ms = deadline_ms;
    save_face(storage, &face)
}
