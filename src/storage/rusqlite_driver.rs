//! The native driver of [`Storage`]: bundled SQLite through `rusqlite`, used by
//! `cargo test` so the engine's SQL and `migrations/*.sql` are tested natively.

use super::{Row, SqlValue, Storage, StorageError};
use crate::limits::{MAX_SQL_ANSWER_BYTES, MAX_SQL_ANSWER_VALUES, MAX_SQL_PARAMETERS, SQL_VALUE_LIMIT_BYTES};
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, StatementStatus};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::Path;

pub struct RusqliteStorage {
    connection: Connection,
    rows_written: Cell<u64>,
    /// Statements run, by SQL text: how tests and measurements count the
    /// storage work one engine call does.
    statements: RefCell<BTreeMap<String, u64>>,
    /// Values returned (rows × columns): each one crosses from SQLite to
    /// the engine one by one through a Durable Object's cursor.
    values_read: Cell<u64>,
    /// Times SQLite compiled a cached statement again before running it,
    /// by SQL text: a Durable Object pays the same compile on every such
    /// run (its statement cache keeps the statement; SQLite expires it).
    reprepares: RefCell<BTreeMap<String, u64>>,
    generation: Cell<u64>,
    /// Whether [`Storage::check_read`] checks (on unless a test turns it off
    /// to see what the engine does when its memory is wrong).
    checks_reads: Cell<bool>,
}

fn sql_error(error: rusqlite::Error) -> StorageError {
    StorageError::Sql(error.to_string())
}

impl RusqliteStorage {
    pub fn in_memory() -> Result<Self, StorageError> {
        Connection::open_in_memory().map(Self::wrap).map_err(sql_error)
    }

    /// Opens (or creates) a database file: reopening the same file is how the
    /// tests simulate a Durable Object restart. They simulate an object's
    /// crash by dropping the connection, never a power loss, so commits skip
    /// the fsync (`synchronous = OFF`): the same statements, much faster.
    pub fn open(path: &Path) -> Result<Self, StorageError> {
        let connection = Connection::open(path).map_err(sql_error)?;
        connection
            .pragma_update(None, "synchronous", "OFF")
            .map_err(sql_error)?;
        Ok(Self::wrap(connection))
    }

    fn wrap(connection: Connection) -> Self {
        // The engine issues more distinct statements than rusqlite's default
        // cache of 16 holds.
        connection.set_prepared_statement_cache_capacity(256);
        // A value a Durable Object refuses is refused here too (the limit
        // is in range, so setting it cannot fail).
        let _ = connection.set_limit(rusqlite::limits::Limit::SQLITE_LIMIT_LENGTH, SQL_VALUE_LIMIT_BYTES);
        RusqliteStorage {
            connection,
            rows_written: Cell::new(0),
            statements: RefCell::new(BTreeMap::new()),
            values_read: Cell::new(0),
            reprepares: RefCell::new(BTreeMap::new()),
            generation: Cell::new(0),
            checks_reads: Cell::new(true),
        }
    }

    /// Turns [`Storage::check_read`]'s checks off (or on again): a test that
    /// changes storage behind the engine's back sees how it recovers.
    pub fn check_reads(&self, on: bool) {
        self.checks_reads.set(on);
    }

    /// The statements run since the last call, by SQL text (and forgets them).
    pub fn take_statement_counts(&self) -> BTreeMap<String, u64> {
        std::mem::take(&mut *self.statements.borrow_mut())
    }

    /// The statements SQLite compiled again before running them since the
    /// last call, by SQL text, with how many times (and forgets them).
    pub fn take_reprepares(&self) -> BTreeMap<String, u64> {
        std::mem::take(&mut *self.reprepares.borrow_mut())
    }

    /// The values statements returned since the last call (and forgets them).
    pub fn take_values_read(&self) -> u64 {
        self.values_read.replace(0)
    }
}

fn to_rusqlite(value: &SqlValue) -> Value {
    match value {
        SqlValue::Null => Value::Null,
        SqlValue::Integer(n) => Value::Integer(*n),
        SqlValue::Real(f) => Value::Real(*f),
        SqlValue::Text(t) => Value::Text(t.clone()),
        SqlValue::Blob(b) => Value::Blob(b.clone()),
    }
}

fn from_rusqlite(value: ValueRef<'_>) -> SqlValue {
    match value {
        ValueRef::Null => SqlValue::Null,
        ValueRef::Integer(n) => SqlValue::Integer(n),
        ValueRef::Real(f) => SqlValue::Real(f),
        ValueRef::Text(t) => SqlValue::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => SqlValue::Blob(b.to_vec()),
    }
}

impl Storage for RusqliteStorage {
    fn query(&self, sql: &str, params: &[SqlValue]) -> Result<Vec<Row>, StorageError> {
        // The platform's bound (§1: the same queries on both drivers), so a
        // statement binding more fails here as it would in a Durable Object.
        if params.len() > MAX_SQL_PARAMETERS {
            return Err(StorageError::Sql(format!(
                "{sql}: {} bound parameters; a Durable Object statement binds at most {MAX_SQL_PARAMETERS}",
                params.len()
            )));
        }
        *self.statements.borrow_mut().entry(sql.to_owned()).or_insert(0) += 1;
        let before = self.connection.total_changes();
        let mut statement = self.connection.prepare_cached(sql).map_err(sql_error)?;
        let reprepared_before = statement.get_status(StatementStatus::RePrepare);
        let columns = statement.column_count();
        let bound: Vec<Value> = params.iter().map(to_rusqlite).collect();
        let mut rows = statement.query(rusqlite::params_from_iter(bound)).map_err(sql_error)?;
        let mut out = Vec::new();
        // The answer's caps (§12), as an object's driver keeps them: each
        // row counted before it is kept, so the loop ends at the cap.
        let (mut answer_values, mut answer_bytes) = (0usize, 0usize);
        while let Some(row) = rows.next().map_err(sql_error)? {
            let mut values = Vec::with_capacity(columns);
            for index in 0..columns {
                let value = from_rusqlite(row.get_ref(index).map_err(sql_error)?);
                answer_bytes = answer_bytes.saturating_add(match &value {
                    SqlValue::Text(text) => text.len(),
                    SqlValue::Blob(bytes) => bytes.len(),
                    _ => 0,
                });
                values.push(value);
            }
            answer_values = answer_values.saturating_add(columns);
            if answer_values > MAX_SQL_ANSWER_VALUES || answer_bytes > MAX_SQL_ANSWER_BYTES {
                return Err(StorageError::AnswerTooLarge {
                    query: sql.to_owned(),
                    values: answer_values,
                    bytes: answer_bytes,
                });
            }
            out.push(values);
        }
        drop(rows);
        let reprepared = statement.get_status(StatementStatus::RePrepare) - reprepared_before;
        if reprepared > 0 {
            *self.reprepares.borrow_mut().entry(sql.to_owned()).or_insert(0) += reprepared as u64;
        }
        let values = out.iter().map(|row| row.len() as u64).sum::<u64>();
        self.values_read.set(self.values_read.get().saturating_add(values));
        let written = self.connection.total_changes().saturating_sub(before);
        self.rows_written.set(self.rows_written.get() + written);
        if written > 0 || super::may_write(sql) {
            self.generation.set(self.generation.get() + 1);
        }
        Ok(out)
    }

    fn execute_script(&self, script: &str) -> Result<(), StorageError> {
        *self.statements.borrow_mut().entry(script.to_owned()).or_insert(0) += 1;
        let before = self.connection.total_changes();
        self.connection.execute_batch(script).map_err(sql_error)?;
        let written = self.connection.total_changes().saturating_sub(before);
        self.rows_written.set(self.rows_written.get() + written);
        self.generation.set(self.generation.get() + 1);
        Ok(())
    }

    fn atomically<T, E: From<StorageError>>(&self, body: &mut dyn FnMut() -> Result<T, E>) -> Result<T, E> {
        // A savepoint, as workerd's `transactionSync` takes one: a body may
        // run inside another's (a migration inside an append's), and a
        // savepoint outside any transaction begins and commits one.
        self.connection
            .execute_batch("SAVEPOINT atomically")
            .map_err(sql_error)?;
        match body() {
            Ok(value) => {
                self.connection.execute_batch("RELEASE atomically").map_err(sql_error)?;
                Ok(value)
            }
            Err(error) => {
                self.generation.set(self.generation.get() + 1);
                self.connection
                    .execute_batch("ROLLBACK TO atomically; RELEASE atomically")
                    .map_err(sql_error)?;
                Err(error)
            }
        }
    }

    fn rows_written(&self) -> u64 {
        self.rows_written.get()
    }

    fn generation(&self) -> u64 {
        self.generation.get()
    }

    fn check_read(&self, sql: &str, params: &[SqlValue]) -> Option<Result<Vec<Row>, StorageError>> {
        if !self.checks_reads.get() {
            return None;
        }
        let counts = std::mem::take(&mut *self.statements.borrow_mut());
        let values = self.values_read.get();
        let rows = self.query(sql, params);
        *self.statements.borrow_mut() = counts;
        self.values_read.set(values);
        Some(rows)
    }

    /// Pages in use (the free list excluded, as a Durable Object's
    /// `databaseSize` shrinks when rows are deleted) times the page size.
    fn database_bytes(&self) -> Result<u64, StorageError> {
        let pages = |pragma: &str| -> Result<i64, StorageError> {
            self.connection
                .query_row(pragma, [], |row| row.get::<_, i64>(0))
                .map_err(sql_error)
        };
        let used = pages("PRAGMA page_count")? - pages("PRAGMA freelist_count")?;
        Ok((used.max(0) as u64).saturating_mul(pages("PRAGMA page_size")?.max(0) as u64))
    }
}
