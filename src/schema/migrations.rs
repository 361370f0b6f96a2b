//! Each Durable Object class's migrations, and how a database gets them.
//!
//! A database that has applied none of a class's migrations (a new object, or
//! a stream after its deletion dropped `schema_migrations`) runs the class's
//! fresh script instead: the tables and indexes its migrations leave, as
//! SQLite records them, in one call to the platform. A stream's first append
//! ran 86 statements one call at a time before (a third of a creation's V8
//! profile; about 3 ms of workerd's CPU of 12, `bench/create.mjs`); the
//! script runs 27 in one. A database that
//! applied some runs the rest one by one, as always. A native test holds each
//! script to what its migrations leave (`sqlite_master`, row for row).

use crate::storage::{Columns, SqlValue, Storage, StorageError};

/// One Durable Object class's schema: its migrations in order, and what
/// they leave.
#[derive(Debug)]
pub struct Migrations {
    /// `(version, sql)` for every file, in order.
    pub files: &'static [(i64, &'static str)],
    /// `migrations/fresh/<class>.sql`: every table and index the files
    /// leave, as `sqlite_master` holds it, each `IF NOT EXISTS` (tables
    /// that survive a stream's deletion are kept as they are, so no
    /// migration may alter one: a test holds it). Generated:
    /// `TRIBUTARY_WRITE_FRESH_SCHEMA=1 cargo test -p tributary fresh_scripts`.
    pub fresh: &'static str,
}

/// A stream's schema (`migrations/*.sql`).
pub const MIGRATIONS: &Migrations = &Migrations {
    files: &[
        (1, include_str!("../../migrations/0001_streams.sql")),
        (2, include_str!("../../migrations/0002_subscription_runtime.sql")),
        (3, include_str!("../../migrations/0003_dead_letters.sql")),
        (4, include_str!("../../migrations/0004_retry_range.sql")),
        (5, include_str!("../../migrations/0005_catalog_registration.sql")),
        (6, include_str!("../../migrations/0006_journal_gates.sql")),
        (7, include_str!("../../migrations/0007_inbound_fences.sql")),
        (8, include_str!("../../migrations/0008_delivery_window.sql")),
        (9, include_str!("../../migrations/0009_retention.sql")),
        (10, include_str!("../../migrations/0010_durable_streams.sql")),
        (11, include_str!("../../migrations/0011_forks.sql")),
        (12, include_str!("../../migrations/0012_send_lease.sql")),
        (13, include_str!("../../migrations/0013_catalog_soft_delete.sql")),
        (14, include_str!("../../migrations/0014_journal_rows.sql")),
        (15, include_str!("../../migrations/0015_window_lease.sql")),
        (16, include_str!("../../migrations/0016_copy_key_first_form.sql")),
        (17, include_str!("../../migrations/0017_journal_without_rowid.sql")),
    ],
    fresh: include_str!("../../migrations/fresh/stream.sql"),
};

/// The project object's schema (§9, §14).
pub const PROJECT_MIGRATIONS: &Migrations = &Migrations {
    files: &[
        (1, include_str!("../../migrations/project/0001_processors.sql")),
        (2, include_str!("../../migrations/project/0002_catalog.sql")),
        (3, include_str!("../../migrations/project/0003_metrics.sql")),
        (4, include_str!("../../migrations/project/0004_secrets.sql")),
        (5, include_str!("../../migrations/project/0005_catalog_soft_delete.sql")),
    ],
    fresh: include_str!("../../migrations/fresh/project.sql"),
};

/// A processor instance's schema (§9).
pub const PROCESSOR_MIGRATIONS: &Migrations = &Migrations {
    files: &[
        (1, include_str!("../../migrations/processor/0001_instance.sql")),
        (2, include_str!("../../migrations/processor/0002_folded_from.sql")),
    ],
    fresh: include_str!("../../migrations/fresh/processor.sql"),
};

/// A source's schema (§15).
pub const SOURCE_MIGRATIONS: &Migrations = &Migrations {
    files: &[
        (1, include_str!("../../migrations/source/0001_source.sql")),
        (2, include_str!("../../migrations/source/0002_target_lifetime.sql")),
        (3, include_str!("../../migrations/source/0003_mempool.sql")),
    ],
    fresh: include_str!("../../migrations/fresh/source.sql"),
};

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

/// Brings the database to every migration of `migrations`: the fresh script
/// where none was applied, else each file not applied yet, in order.
pub fn migrate_with<S: Storage + ?Sized>(storage: &S, migrations: &Migrations) -> Result<(), StorageError> {
    let applied = applied_versions(storage)?;
    if applied.is_empty() {
        let versions: Vec<String> = migrations
            .files
            .iter()
            .map(|(version, _)| format!("({version})"))
            .collect();
        let script = format!(
            "{}\nINSERT INTO schema_migrations (version) VALUES {};\n",
            migrations.fresh,
            versions.join(", ")
        );
        return storage.execute_script(&script);
    }
    apply_files(storage, migrations.files, &applied)
}

fn applied_versions<S: Storage + ?Sized>(storage: &S) -> Result<std::collections::BTreeSet<i64>, StorageError> {
    storage.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
        &[],
    )?;
    let sql = "SELECT version FROM schema_migrations";
    storage
        .query(sql, &[])?
        .iter()
        .map(|row| Columns { query: sql, row }.int(0))
        .collect()
}

/// Every file whose version is not applied yet, not only those above the
/// highest: a migration numbered below one already applied (merged later)
/// still runs. Each file runs as one transaction.
fn apply_files<S: Storage + ?Sized>(
    storage: &S,
    files: &[(i64, &str)],
    applied: &std::collections::BTreeSet<i64>,
) -> Result<(), StorageError> {
    for (version, file) in files.iter().filter(|(version, _)| !applied.contains(version)) {
        // One file, and its version, all or nothing: a failure between two
        // of its statements (a table dropped, not yet renamed) leaves none.
        storage.atomically(&mut || {
            for statement in statements(file) {
                storage.execute(&statement, &[])?;
            }
            storage.execute(
                "INSERT INTO schema_migrations (version) VALUES (?)",
                &[SqlValue::Integer(*version)],
            )
        })?;
    }
    Ok(())
}

/// What `files` leave, as a fresh script: the text of
/// `migrations/fresh/<class>.sql`.
#[cfg(all(test, feature = "native-sqlite"))]
fn fresh_script(files: &[(i64, &str)]) -> Result<String, StorageError> {
    let storage = crate::storage::rusqlite_driver::RusqliteStorage::in_memory()?;
    apply_files(&storage, files, &applied_versions(&storage)?)?;
    let mut script = String::from(
        "-- Generated from this class's migrations: every table and index they leave, as\n\
         -- sqlite_master holds it. Do not edit; to regenerate, run\n\
         -- TRIBUTARY_WRITE_FRESH_SCHEMA=1 cargo test -p tributary fresh_scripts\n",
    );
    let sql = "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' \
               AND name != 'schema_migrations' ORDER BY rowid";
    for row in storage.query(sql, &[])? {
        let created = Columns { query: sql, row: &row }.text(0)?;
        script.push_str(&if_not_exists(&created));
        script.push_str(";\n");
    }
    Ok(script)
}

/// `CREATE TABLE x …` as `CREATE TABLE IF NOT EXISTS x …` (and the same for
/// indexes): SQLite records the statement without the clause.
#[cfg(all(test, feature = "native-sqlite"))]
fn if_not_exists(created: &str) -> String {
    for kind in ["CREATE TABLE ", "CREATE UNIQUE INDEX ", "CREATE INDEX "] {
        if let Some(rest) = created.strip_prefix(kind) {
            return format!("{kind}IF NOT EXISTS {rest}");
        }
    }
    created.to_owned()
}

#[cfg(test)]
#[path = "migrations_tests.rs"]
mod tests;
