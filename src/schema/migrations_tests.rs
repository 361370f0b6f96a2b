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

    #[test]
    fn a_migration_that_fails_between_two_statements_leaves_nothing_and_runs_again() {
        let failing = &Migrations {
            files: &[(
                1,
                "CREATE TABLE a (x INTEGER);\nINSERT INTO a (x) VALUES (1);\nINSERT INTO missing (x) VALUES (1);\n",
            )],
            fresh: "",
        };
        let storage = RusqliteStorage::in_memory().unwrap();
        // Applied once (a version recorded) so the file runs on its own, not as the fresh script.
        storage
            .execute_script("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY); INSERT INTO schema_migrations VALUES (0);")
            .unwrap();
        assert!(migrate_with(&storage, failing).is_err());
        let tables = storage
            .query("SELECT name FROM sqlite_master WHERE name = 'a'", &[])
            .unwrap();
        assert!(tables.is_empty(), "the file's first statement was rolled back");
        let versions = storage.query("SELECT version FROM schema_migrations", &[]).unwrap();
        assert_eq!(versions.len(), 1, "its version is not recorded");
        let fixed = &Migrations {
            files: &[(1, "CREATE TABLE a (x INTEGER);\nINSERT INTO a (x) VALUES (1);\n")],
            fresh: "",
        };
        migrate_with(&storage, fixed).unwrap();
        assert_eq!(storage.query("SELECT x FROM a", &[]).unwrap().len(), 1);
    }

    /// Migration 17: the journal as one b-tree keyed by its primary key,
    /// every row kept.
    #[test]
    fn the_journal_becomes_one_b_tree_and_keeps_its_rows() {
        let storage = RusqliteStorage::in_memory().unwrap();
        let before = &MIGRATIONS.files[..16];
        apply_files(&storage, before, &applied_versions(&storage).unwrap()).unwrap();
        storage
            .execute_script(
                "INSERT INTO delivery_journal (subscription_key, event_offset, delivery_id, retraction_dead_lettered) VALUES \
                 ('a', 1, 'dlv_1', 0), ('a', 2, 'dlv_2', 1), ('b', 1, 'dlv_3', 0);",
            )
            .unwrap();
        let sql = "SELECT subscription_key, event_offset, delivery_id, retraction_dead_lettered FROM delivery_journal \
                   ORDER BY subscription_key, event_offset";
        let rows = storage.query(sql, &[]).unwrap();
        migrate_with(&storage, MIGRATIONS).unwrap();
        assert_eq!(storage.query(sql, &[]).unwrap(), rows);
        assert_eq!(schema_of(&storage), schema_of(&migrated_file_by_file(MIGRATIONS)));
        let created = storage
            .query("SELECT sql FROM sqlite_master WHERE name = 'delivery_journal'", &[])
            .unwrap();
        let created = crate::storage::Columns {
            query: "",
            row: &created[0],
        }
        .text(0)
        .unwrap();
        assert!(created.ends_with("WITHOUT ROWID"), "{created}");
        let indexes = storage
            .query(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'delivery_journal'",
                &[],
            )
            .unwrap();
        assert!(indexes.is_empty(), "no second b-tree beside the rows");
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
