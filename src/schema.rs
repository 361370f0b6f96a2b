//! The storage schema of one stream (docs/design.md §1), as documented types.
//!
//! `migrations/*.sql` is the single source of DDL; [`migrations`] embeds those
//! files and applies them in order (a new database runs what they leave, in
//! one script), and this module names each table with the Rust type that
//! describes one of its rows. Both drivers run exactly these statements.

use crate::storage::{query_optional, Columns, Storage, StorageError};

mod migrations;
pub use migrations::{
    migrate_with, Migrations, MIGRATIONS, PROCESSOR_MIGRATIONS, PROJECT_MIGRATIONS, SOURCE_MIGRATIONS,
};

/// Tables that outlive a stream's deletion (§3 rule 6).
pub const SURVIVES_DELETION: &[&str] = &["stream_lifetimes", "catalog_registration", "fork_release_outbox"];

/// Row of `stream_meta`: the current lifetime. Written once, by the append
/// that starts the lifetime; `head` and `event_count` are read from the log
/// (the table's own columns of that name are no longer written).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamMetaRow {
    pub project_id: String,
    pub path: String,
    pub stream_id: String,
    pub created_at_ms: i64,
    /// Highest assigned offset.
    pub head: u64,
    /// Committed events in this lifetime (ephemeral included).
    pub event_count: u64,
}

/// Row of `reduced_state`: the cached fold (§5). Written by commits that change it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReducedStateRow {
    pub version: i64,
    pub state_json: String,
}

/// Row of `subscription_runtime` (§6): now a typed record with its
/// encode/decode in `records/runtime_row.rs`.
pub use crate::records::RuntimeRow;

/// Row of `copy_key_first_form_runs` (§7 rule 4): a copy run this stream
/// had when copies' idempotency keys took their ordered form, whose keys
/// keep the first form ([`crate::copy::CopyKeyForm::First`]). Written once,
/// by migration 0016, from `subscription_runtime`; read by the copy's
/// shaping; dropped with the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyKeyFirstFormRunRow {
    pub subscription_key: String,
    /// The run's config generation (`run_offset`).
    pub run_offset: u64,
}

/// Row of `delivery_window` (§8 `concurrency`): one event of a concurrent
/// subscription planned past its cursor; a typed record in
/// `records/window_slot.rs`.
pub use crate::records::WindowSlot;

/// Row of `inbound_fences` (§5 inbound, §7 rule 2): the stamp fence of one
/// `(sourcePath, subscriptionKey)` this stream received copies from. Part of
/// the fold, kept outside the reduced-state document: written with the copy
/// that updates it, cleared and rebuilt by a state rebuild. A typed record
/// with its encode/decode in `records/fence.rs`.
pub use crate::records::FenceRow;

/// Row of `inbound_fence_count` (§5 inbound): how many rows `inbound_fences`
/// holds (one row, `id = 1`; absent means none). Written with each new
/// record, so neither the bound (`MAX_INBOUND_FENCE_RECORDS`, §12) nor stream
/// info's `inboundFenceCount` counts the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InboundFenceCountRow {
    pub records: u64,
}

/// Row of `retention_progress` (§16): how far retention trimmed the log and
/// the checkpoint of its byte count; a typed record in `retention/progress.rs`.
pub use crate::retention::progress::ProgressRow;

/// Row of `state_snapshot` (§16): the reduced state as of the trim point;
/// `snapshot_inbound_fences` (and its count) hold the fence records as of it,
/// rows shaped like [`FenceRow`]. In `retention/snapshot.rs`.
pub use crate::retention::snapshot::SnapshotRow;

/// Row of `retention_passes` (§16): what trimming passed, per subscription;
/// in `retention/passes.rs`.
pub use crate::retention::passes::PassRow;

/// Row of the project's `stream_metrics` (§11): the latest metrics snapshot
/// of one stream lifetime the catalog lists, replaced by each report and
/// deleted with the lifetime's catalog row. In `project_metrics/store.rs`.
pub use crate::project_metrics::store::StreamMetricsRow;

/// Row of the project's `source_metrics` (§11, §15): the latest progress one
/// source reported (a [`crate::project_metrics::sources::SourceSnapshot`]),
/// deleted when the source is. In `project_metrics/store.rs`.
pub use crate::project_metrics::store::SourceMetricsRow;

/// Row of `protocol_face` (§17): the Durable Streams face of the lifetime —
/// its content type, message type, last `Stream-Seq` and stored expiry
/// deadline; and rows of `protocol_producers`, one idempotent producer each.
/// Typed records in `durable_streams/face/store.rs`; `events.body` (the
/// same migration) holds a byte message's bytes (`records/event_row.rs`).
pub use crate::durable_streams::face::store::{FaceRow, ProducerRow};

/// Rows of the fork tables (§18): `fork_origin` (the fork's source and fork
/// point, written by its creating `PUT`), `fork_edges` (the source's forks,
/// written by their acquires and releases), `fork_soft_delete` (a `DELETE`
/// while forks read the stream, and whether the catalog listed it apart:
/// migration 0013) and `fork_release_outbox` (releases a destroyed fork
/// still owes, surviving the deletion). In `fork/store.rs`.
pub use crate::fork::store::{EdgeRow, OriginRow, ReleaseRow, SoftDeleteRow};

/// Row of `dead_letters` (§8): one event a subscription gave up on.
/// Written by the spine before its cursor moves on; removed by replay/discard.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeadLetterRow {
    pub id: u64,
    pub subscription_key: String,
    pub offset: u64,
    pub delivery_id: String,
    pub attempts: u64,
    pub reason: String,
    /// The event as it would have been sent.
    pub payload: serde_json::Value,
    pub created_at: String,
    /// `"event"`, or `"retraction"` (§13: never replayed).
    pub kind: String,
}

/// Row of `stream_lifetimes`: survives deletion. Written when a lifetime starts.
#[derive(Debug, Clone, PartialEq)]
pub struct LifetimeRow {
    pub last_created_at_ms: i64,
    pub lifetimes: i64,
}

/// Whether this storage holds a stream (its schema was ever applied and not deleted).
pub fn stream_exists<S: Storage + ?Sized>(storage: &S) -> Result<bool, StorageError> {
    let sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'stream_meta'";
    Ok(query_optional(storage, sql, &[])?.is_some())
}

/// Applies every stream migration newer than the stored schema version.
pub fn migrate<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    migrate_with(storage, MIGRATIONS)
}

/// Drops every table of the stream except those in [`SURVIVES_DELETION`]
/// (and the platform's own `_cf_` tables).
pub fn drop_stream_tables<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    let sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";
    for row in storage.query(sql, &[])? {
        let name = Columns { query: sql, row: &row }.text(0)?;
        if !SURVIVES_DELETION.contains(&name.as_str()) {
            storage.execute(&format!("DROP TABLE IF EXISTS \"{name}\""), &[])?;
        }
    }
    Ok(())
}
