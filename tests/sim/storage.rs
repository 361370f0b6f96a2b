//! The engine's native driver (rusqlite) behind a counting wrapper: every
//! engine call is metered (rows returned, statements run), so the simulation
//! can assert bounded work per call (DESIGN.md §6 rule 10, §12) — and a call
//! that loops is stopped with an error instead of hanging the test.

use std::cell::Cell;
use std::path::Path;
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::storage::{Row, SqlValue, Storage, StorageError};

/// Rows one engine call may read. The spec's budget is 10 000 rows scanned
/// per subscription per turn (§12); the simulation's logs are far smaller,
/// so anything near this is a loop.
pub const ROWS_PER_CALL: u64 = 20_000;
/// Statements one engine call may run.
pub const QUERIES_PER_CALL: u64 = 5_000;

pub struct Counting {
    inner: RusqliteStorage,
    rows: Cell<u64>,
    queries: Cell<u64>,
    tripped: Cell<bool>,
}

impl Counting {
    /// Opens a database by SQLite URI (a shared in-memory database that
    /// outlives this connection: reopening it is a restart).
    pub fn open(uri: &str) -> Result<Self, StorageError> {
        Ok(Counting {
            inner: RusqliteStorage::open(Path::new(uri))?,
            rows: Cell::new(0),
            queries: Cell::new(0),
            tripped: Cell::new(false),
        })
    }

    /// Starts metering one engine call.
    pub fn begin_call(&self) {
        self.rows.set(0);
        self.queries.set(0);
        self.tripped.set(false);
    }

    pub fn rows_read(&self) -> u64 {
        self.rows.get()
    }

    pub fn queries(&self) -> u64 {
        self.queries.get()
    }

    /// Whether the current call hit a bound (and was failed by the driver).
    pub fn tripped(&self) -> bool {
        self.tripped.get()
    }
}

impl Storage for Counting {
    fn query(&self, sql: &str, params: &[SqlValue]) -> Result<Vec<Row>, StorageError> {
        if self.tripped.get() {
            return Err(StorageError::Sql("sim: work bound exceeded in this call".to_owned()));
        }
        self.queries.set(self.queries.get() + 1);
        let rows = self.inner.query(sql, params)?;
        self.rows.set(self.rows.get() + rows.len() as u64);
        if self.rows.get() > ROWS_PER_CALL || self.queries.get() > QUERIES_PER_CALL {
            self.tripped.set(true);
            return Err(StorageError::Sql(format!(
                "sim: work bound exceeded ({} rows, {} statements in one call)",
                self.rows.get(),
                self.queries.get()
            )));
        }
        Ok(rows)
    }

    fn atomically<T, E: From<StorageError>>(&self, body: &mut dyn FnMut() -> Result<T, E>) -> Result<T, E> {
        self.inner.atomically(body)
    }

    fn rows_written(&self) -> u64 {
        self.inner.rows_written()
    }
    fn database_bytes(&self) -> Result<u64, StorageError> {
        self.inner.database_bytes()
    }
}
