//! The engine's native driver (rusqlite) behind a counting wrapper: every
//! engine call is metered (rows returned, statements run), so the simulation
//! can assert bounded work per call (docs/design.md §6 rule 10, §12) — and a call
//! that loops is stopped with an error instead of hanging the test.

use std::cell::{Cell, RefCell};
use std::path::Path;
use tributary::records::event_row;
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
    /// Armed: the next trim transaction's delete fails, as if the object
    /// died between a step's facts and its transaction (§16).
    crash_in_trim: Cell<bool>,
    /// The event rows the current call's committed transactions inserted
    /// ([`Counting::take_written`]), and those of the open transaction.
    written: RefCell<Vec<Row>>,
    pending: RefCell<Vec<Row>>,
    depth: Cell<u32>,
}

/// What the armed trim crash answers.
pub const TRIM_CRASH: &str = "sim: the object died inside a trim step";
/// The engine's insert of event rows (`stream::rows::insert_all`).
const EVENT_INSERT: &str = "INSERT INTO events (";
/// The trim's delete of the rows it trims (`retention::trim`).
const TRIM_DELETE: &str = "DELETE FROM events WHERE event_offset > ?";

impl Counting {
    /// Opens a database by SQLite URI (a shared in-memory database that
    /// outlives this connection: reopening it is a restart).
    pub fn open(uri: &str) -> Result<Self, StorageError> {
        Ok(Counting {
            inner: RusqliteStorage::open(Path::new(uri))?,
            rows: Cell::new(0),
            queries: Cell::new(0),
            tripped: Cell::new(false),
            crash_in_trim: Cell::new(false),
            written: RefCell::new(Vec::new()),
            pending: RefCell::new(Vec::new()),
            depth: Cell::new(0),
        })
    }

    /// Starts metering one engine call.
    pub fn begin_call(&self) {
        self.rows.set(0);
        self.queries.set(0);
        self.tripped.set(false);
        self.written.borrow_mut().clear();
    }

    pub fn rows_read(&self) -> u64 {
        self.rows.get()
    }

    pub fn queries(&self) -> u64 {
        self.queries.get()
    }

    /// Arms (or disarms) the crash inside the next trim transaction.
    pub fn arm_trim_crash(&self, armed: bool) {
        self.crash_in_trim.set(armed);
    }

    /// The event rows the current call committed, as inserted (in
    /// `event_row::COLUMNS` order): what the engine wrote, even if a later
    /// statement of the same call deleted it again.
    pub fn take_written(&self) -> Vec<Row> {
        std::mem::take(&mut *self.written.borrow_mut())
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
        if self.crash_in_trim.get() && sql.starts_with(TRIM_DELETE) {
            self.crash_in_trim.set(false);
            return Err(StorageError::Sql(TRIM_CRASH.to_owned()));
        }
        let rows = self.inner.query(sql, params)?;
        if sql.starts_with(EVENT_INSERT) {
            let journal = if self.depth.get() > 0 {
                &self.pending
            } else {
                &self.written
            };
            // A multi-row insert (`stream::rows::insert_all`): one row per
            // `COLUMNS.len()` values.
            journal
                .borrow_mut()
                .extend(params.chunks(event_row::COLUMNS.len()).map(<[SqlValue]>::to_vec));
        }
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

    fn execute_script(&self, script: &str) -> Result<(), StorageError> {
        if self.tripped.get() {
            return Err(StorageError::Sql("sim: work bound exceeded in this call".to_owned()));
        }
        self.queries.set(self.queries.get() + 1);
        self.inner.execute_script(script)
    }

    fn atomically<T, E: From<StorageError>>(&self, body: &mut dyn FnMut() -> Result<T, E>) -> Result<T, E> {
        self.depth.set(self.depth.get() + 1);
        let result = self.inner.atomically(body);
        self.depth.set(self.depth.get() - 1);
        if self.depth.get() == 0 {
            let pending = std::mem::take(&mut *self.pending.borrow_mut());
            if result.is_ok() {
                self.written.borrow_mut().extend(pending);
            }
        }
        result
    }

    fn rows_written(&self) -> u64 {
        self.inner.rows_written()
    }
    fn generation(&self) -> u64 {
        self.inner.generation()
    }
    fn check_read(
        &self,
        sql: &str,
        params: &[tributary::storage::SqlValue],
    ) -> Option<Result<Vec<tributary::storage::Row>, tributary::storage::StorageError>> {
        self.inner.check_read(sql, params)
    }
    fn database_bytes(&self) -> Result<u64, StorageError> {
        self.inner.database_bytes()
    }
}
