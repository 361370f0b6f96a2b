//! The storage schema of one stream (docs/design.md §1), as documented types.
//!
//! `migrations/*.sql` is the single source of DDL; this module embeds those
//! files, applies them in order, and names each table with the Rust type that
//! describes one of its rows. Both drivers run exactly these statements.

use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};

/// `(version, sql)` for every file of `migrations/`, in order.
pub const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../migrations/0001_streams.sql")),
    (2, include_str!("../migrations/0002_subscription_runtime.sql")),
    (3, include_str!("../migrations/0003_dead_letters.sql")),
    (4, include_str!("../migrations/0004_retry_range.sql")),
    (5, include_str!("../migrations/0005_catalog_registration.sql")),
    (6, include_str!("../migrations/0006_journal_gates.sql")),
    (7, include_str!("../migrations/0007_inbound_fences.sql")),
    (8, include_str!("../migrations/0008_delivery_window.sql")),
    (9, include_str!("../migrations/0009_retention.sql")),
    (10, include_str!("../migrations/0010_durable_streams.sql")),
    (11, include_str!("../migrations/0011_forks.sql")),
    (12, include_str!("../migrations/0012_send_lease.sql")),
    (13, include_str!("../migrations/0013_catalog_soft_delete.sql")),
    (14, include_str!("../migrations/0014_journal_rows.sql")),
    (15, include_str!("../migrations/0015_window_lease.sql")),
    (16, include_str!("../migrations/0016_copy_key_first_form.sql")),
];

/// The project object's schema (§9, §14), applied in order in its SQLite.
pub const PROJECT_MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../migrations/project/0001_processors.sql")),
    (2, include_str!("../migrations/project/0002_catalog.sql")),
    (3, include_str!("../migrations/project/0003_metrics.sql")),
    (4, include_str!("../migrations/project/0004_secrets.sql")),
    (5, include_str!("../migrations/project/0005_catalog_soft_delete.sql")),
];

/// A processor instance's schema (§9), applied in order in its SQLite.
pub const PROCESSOR_MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../migrations/processor/0001_instance.sql")),
    (2, include_str!("../migrations/processor/0002_folded_from.sql")),
];

/// A source's schema (§15), applied in order in its SQLite.
pub const SOURCE_MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../migrations/source/0001_source.sql")),
    (2, include_str!("../migrations/source/0002_target_lifetime.sql")),
    (3, include_str!("../migrations/source/0003_mempool.sql")),
];

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

/// Splits a migration file into statements (`;` at the end of a line).
fn statements(sql: &str) -> impl Iterator<Item = String> + '_ {
    let without_comments: String = sql
        .lines()
        .filter(|line| !line.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n");
    without_comments
        .split(";\n")
        .map(|statement| statement.trim().trim_end_matches(';').trim().to_owned())
        .filter(|statement| !statement.is_empty())
        .collect::<Vec<_>>()
        .into_iter()
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

/// Applies every migration of `migrations` newer than the stored version
/// (each Durable Object class has its own list and its own database).
pub fn migrate_with<S: Storage + ?Sized>(storage: &S, migrations: &[(i64, &str)]) -> Result<(), StorageError> {
    storage.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
        &[],
    )?;
    // Every version not applied yet, not only those above the highest: a
    // migration numbered below one already applied (merged later) still runs.
    let sql = "SELECT version FROM schema_migrations";
    let applied = storage
        .query(sql, &[])?
        .iter()
        .map(|row| Columns { query: sql, row }.int(0))
        .collect::<Result<std::collections::BTreeSet<i64>, _>>()?;
    for (version, file) in migrations.iter().filter(|(version, _)| !applied.contains(version)) {
        for statement in statements(file) {
            storage.execute(&statement, &[])?;
        }
        storage.execute(
            "INSERT INTO schema_migrations (version) VALUES (?)",
            &[SqlValue::Integer(*version)],
        )?;
    }
    Ok(())
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::{migrate_with, statements};

    #[test]
    fn splits_statements_and_drops_comments() {
        let sql = "-- c\nCREATE TABLE a (x INTEGER);\n\n-- d\nCREATE TABLE b (y TEXT);\n";
        let got: Vec<String> = statements(sql).collect();
        assert_eq!(got, vec!["CREATE TABLE a (x INTEGER)", "CREATE TABLE b (y TEXT)"]);
    }

    #[cfg(feature = "native-sqlite")]
    #[test]
    fn a_migration_numbered_below_one_applied_still_runs() {
        use crate::storage::rusqlite_driver::RusqliteStorage;
        use crate::storage::Storage;
        let storage = RusqliteStorage::in_memory().unwrap();
        let first = [
            (1, "CREATE TABLE a (x INTEGER);\n"),
            (3, "CREATE TABLE c (x INTEGER);\n"),
        ];
        migrate_with(&storage, &first).unwrap();
        // Merged later with a lower number: applied once, the others not again.
        let merged = [first[0], (2, "CREATE TABLE b (x INTEGER);\n"), first[1]];
        migrate_with(&storage, &merged).unwrap();
        migrate_with(&storage, &merged).unwrap();
        let versions = storage
            .query("SELECT version FROM schema_migrations ORDER BY version", &[])
            .unwrap();
        assert_eq!(versions.len(), 3);
        assert_eq!(storage.query("SELECT x FROM b", &[]).unwrap().len(), 0);
    }
}
