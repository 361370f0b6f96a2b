#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::{migrate_with, statements, Migrations};

#[test]
fn splits_statements_and_drops_comments() {
    let sql = "-- c\nCREATE TABLE a (x INTEGER);\n\n-- d\nCREATE TABLE b (y TEXT);\n";
    let got: Vec<String> = statements(sql).collect();
    assert_eq!(got, vec!["CREATE TABLE a (x INTEGER)", "CREATE TABLE b (y TEXT)"]);
}

#[cfg(feature = "native-sqlite")]
mod native {
    use super::super::{
        applied_versions, apply_files, fresh_script, MIGRATIONS, PROCESSOR_MIGRATIONS, PROJECT_MIGRATIONS,
        SOURCE_MIGRATIONS,
    };
    use super::{migrate_with, Migrations};
    use crate::storage::rusqlite_driver::RusqliteStorage;
    use crate::storage::{Row, Storage};

    const CLASSES: [(&str, &Migrations); 4] = [
        ("stream", MIGRATIONS),
        ("project", PROJECT_MIGRATIONS),
        ("processor", PROCESSOR_MIGRATIONS),
        ("source", SOURCE_MIGRATIONS),
    ];

    /// Everything SQLite records of the schema, and the versions applied.
    fn schema_of(storage: &RusqliteStorage) -> (Vec<Row>, Vec<Row>) {
        (
            storage
                .query(
                    "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name",
                    &[],
                )
                .unwrap(),
            storage
                .query("SELECT version FROM schema_migrations ORDER BY version", &[])
                .unwrap(),
        )
    }

    fn migrated_file_by_file(migrations: &Migrations) -> RusqliteStorage {
        let storage = RusqliteStorage::in_memory().unwrap();
        apply_files(&storage, migrations.files, &applied_versions(&storage).unwrap()).unwrap();
        storage
    }

    #[test]
    fn fresh_scripts_are_what_the_migrations_leave() {
        let write = std::env::var_os("TRIBUTARY_WRITE_FRESH_SCHEMA").is_some();
        for (class, migrations) in CLASSES {
            let expected = fresh_script(migrations.files).unwrap();
            if write && expected != migrations.fresh {
                let path = format!("{}/migrations/fresh/{class}.sql", env!("CARGO_MANIFEST_DIR"));
                std::fs::write(&path, &expected).unwrap();
                continue;
            }
            assert!(
                expected == migrations.fresh,
                "migrations/fresh/{class}.sql is not what the {class} migrations leave; run \
                 TRIBUTARY_WRITE_FRESH_SCHEMA=1 cargo test -p tributary fresh_scripts\n{expected}"
            );
        }
    }

    #[test]
    fn a_new_database_gets_the_schema_its_migrations_build_file_by_file() {
        for (class, migrations) in CLASSES {
            let fresh = RusqliteStorage::in_memory().unwrap();
            migrate_with(&fresh, migrations).unwrap();
            assert_eq!(
                schema_of(&fresh),
                schema_of(&migrated_file_by_file(migrations)),
                "{class}"
            );
            // Applied: a second call changes nothing.
            migrate_with(&fresh, migrations).unwrap();
            assert_eq!(
                schema_of(&fresh),
                schema_of(&migrated_file_by_file(migrations)),
                "{class}"
            );
        }
    }

    #[test]
    fn a_deleted_stream_gets_the_same_schema_again_around_the_tables_that_survive() {
        let storage = RusqliteStorage::in_memory().unwrap();
        migrate_with(&storage, MIGRATIONS).unwrap();
        storage
            .execute(
                "INSERT INTO stream_lifetimes (id, last_created_at_ms, lifetimes) VALUES (1, 5, 1)",
                &[],
            )
            .unwrap();
        crate::schema::drop_stream_tables(&storage).unwrap();
        migrate_with(&storage, MIGRATIONS).unwrap();
        assert_eq!(schema_of(&storage), schema_of(&migrated_file_by_file(MIGRATIONS)));
        let kept = storage
            .query("SELECT last_created_at_ms, lifetimes FROM stream_lifetimes", &[])
            .unwrap();
        assert_eq!(kept.len(), 1, "the survivor keeps its row");
    }

    #[test]
    fn a_database_that_applied_some_migrations_runs_the_rest_file_by_file() {
        let storage = RusqliteStorage::in_memory().unwrap();
        let first_five = &MIGRATIONS.files[..5];
        apply_files(&storage, first_five, &applied_versions(&storage).unwrap()).unwrap();
        migrate_with(&storage, MIGRATIONS).unwrap();
        assert_eq!(schema_of(&storage), schema_of(&migrated_file_by_file(MIGRATIONS)));
    }

    #[test]
    fn a_migration_numbered_below_one_applied_still_runs() {
        let first = &Migrations {
            files: &[
                (1, "CREATE TABLE a (x INTEGER);\n"),
                (3, "CREATE TABLE c (x INTEGER);\n"),
            ],
            fresh: "CREATE TABLE IF NOT EXISTS a (x INTEGER);\nCREATE TABLE IF NOT EXISTS c (x INTEGER);\n",
        };
        let storage = RusqliteStorage::in_memory().unwrap();
        migrate_with(&storage, first).unwrap();
        // Merged later with a lower number: applied once, the others not again.
        let merged = &Migrations {
            files: &[
                (1, "CREATE TABLE a (x INTEGER);\n"),
                (2, "CREATE TABLE b (x INTEGER);\n"),
                (3, "CREATE TABLE c (x INTEGER);\n"),
            ],
            fresh: "",
        };
        migrate_with(&storage, merged).unwrap();
        migrate_with(&storage, merged).unwrap();
        let versions = storage
            .query("SELECT version FROM schema_migrations ORDER BY version", &[])
            .unwrap();
        assert_eq!(versions.len(), 3);
        assert_eq!(storage.query("SELECT x FROM b", &[]).unwrap().len(), 0);
    }
}

/// A table that outlives a stream's deletion keeps the shape it was created
/// with: a new stream's fresh script skips it (`IF NOT EXISTS`), so no
/// migration may change it after its `CREATE`.
#[test]
fn no_migration_alters_a_table_that_survives_deletion() {
    for (version, file) in super::MIGRATIONS.files {
        for statement in statements(file) {
            let upper = statement.to_ascii_uppercase();
            for survivor in crate::schema::SURVIVES_DELETION {
                let altered = format!("ALTER TABLE {}", survivor.to_ascii_uppercase());
                assert!(
                    !upper.contains(&altered),
                    "migration {version} alters {survivor}: {statement}"
                );
            }
        }
    }
}
