//! The storage trait (docs/design.md §1 "one SQL dialect, two drivers").
//!
//! The engine speaks SQL with positional `?` parameters and gets rows of
//! [`SqlValue`] back. The shell implements [`Storage`] over the Durable Object
//! `SqlStorage`; native tests implement it over `rusqlite` ([`rusqlite_driver`]).
//! The same SQL strings and `migrations/*.sql` run in both.

#[cfg(feature = "native-sqlite")]
pub mod rusqlite_driver;

/// One SQLite value. Integers stay below 2^53 (§1): they cross JS as f64.
#[derive(Debug, Clone, PartialEq)]
pub enum SqlValue {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

pub type Row = Vec<SqlValue>;

/// Whether running `sql` may change the data (see [`Storage::generation`]):
/// anything but a `SELECT`.
pub fn may_write(sql: &str) -> bool {
    !sql.trim_start()
        .get(..6)
        .is_some_and(|verb| verb.eq_ignore_ascii_case("SELECT"))
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StorageError {
    #[error("sqlite: {0}")]
    Sql(String),
    #[error("column {column} of '{query}' holds an unexpected value")]
    Decode { query: String, column: usize },
    /// An answer past [`MAX_SQL_ANSWER_VALUES`](crate::limits::MAX_SQL_ANSWER_VALUES)
    /// or [`MAX_SQL_ANSWER_BYTES`](crate::limits::MAX_SQL_ANSWER_BYTES) (§12),
    /// refused before anything is allocated for it.
    #[error("'{query}' answered {values} values and {bytes} bytes, past the most one statement hands back")]
    AnswerTooLarge { query: String, values: usize, bytes: usize },
}

pub trait Storage {
    /// Runs one statement and returns all its rows.
    fn query(&self, sql: &str, params: &[SqlValue]) -> Result<Vec<Row>, StorageError>;

    /// Runs `body` as one transaction: every write commits, or (when `body`
    /// returns `Err`) none does.
    fn atomically<T, E: From<StorageError>>(&self, body: &mut dyn FnMut() -> Result<T, E>) -> Result<T, E>;

    /// Rows written by this connection so far (SQLite's own count; the
    /// benchmark divides it by appended events).
    fn rows_written(&self) -> u64;

    /// Bytes the database occupies (§16 storage budget): the platform's
    /// `databaseSize` in a Durable Object (which shrinks as rows are
    /// deleted), the pages in use natively.
    fn database_bytes(&self) -> Result<u64, StorageError>;

    /// A number that moves whenever the data may have changed: a statement
    /// other than a `SELECT`, one that wrote a row, or a rolled-back
    /// transaction. What an engine keeps of a read stays true while it
    /// has not moved (the runtime rows, §6).
    fn generation(&self) -> u64;

    /// Runs a read only to check what the engine keeps in memory against
    /// storage, uncounted; `None` where reads are not checked (a Durable
    /// Object). The native driver checks every such read in the tests.
    fn check_read(&self, _sql: &str, _params: &[SqlValue]) -> Option<Result<Vec<Row>, StorageError>> {
        None
    }

    /// Runs a script of statements separated by `;`, without bindings,
    /// ignoring rows: one call to the platform for all of them.
    fn execute_script(&self, script: &str) -> Result<(), StorageError>;

    /// Runs a statement, ignoring rows.
    fn execute(&self, sql: &str, params: &[SqlValue]) -> Result<(), StorageError> {
        self.query(sql, params).map(|_| ())
    }
}

/// Typed access to a row's columns, with errors naming the query.
pub struct Columns<'a> {
    pub query: &'a str,
    pub row: &'a [SqlValue],
}

impl Columns<'_> {
    fn decode_error(&self, column: usize) -> StorageError {
        StorageError::Decode {
            query: crate::text::query_excerpt(self.query),
            column,
        }
    }

    pub fn int(&self, column: usize) -> Result<i64, StorageError> {
        match self.row.get(column) {
            Some(SqlValue::Integer(n)) => Ok(*n),
            // The DO driver sees every number as f64; whole ones are integers.
            Some(SqlValue::Real(f)) if f.fract() == 0.0 => Ok(*f as i64),
            _ => Err(self.decode_error(column)),
        }
    }

    pub fn text(&self, column: usize) -> Result<String, StorageError> {
        match self.row.get(column) {
            Some(SqlValue::Text(text)) => Ok(text.clone()),
            _ => Err(self.decode_error(column)),
        }
    }

    pub fn opt_text(&self, column: usize) -> Result<Option<String>, StorageError> {
        match self.row.get(column) {
            Some(SqlValue::Null) => Ok(None),
            _ => self.text(column).map(Some),
        }
    }

    pub fn opt_int(&self, column: usize) -> Result<Option<i64>, StorageError> {
        match self.row.get(column) {
            Some(SqlValue::Null) => Ok(None),
            _ => self.int(column).map(Some),
        }
    }

    /// An integer column that is never negative (counts, generations, blocks).
    pub fn unsigned(&self, column: usize) -> Result<u64, StorageError> {
        u64::try_from(self.int(column)?).map_err(|_| self.decode_error(column))
    }

    pub fn opt_unsigned(&self, column: usize) -> Result<Option<u64>, StorageError> {
        match self.row.get(column) {
            Some(SqlValue::Null) => Ok(None),
            _ => self.unsigned(column).map(Some),
        }
    }

    /// A text column holding JSON of `T`.
    pub fn json<T: serde::de::DeserializeOwned>(&self, column: usize) -> Result<T, StorageError> {
        serde_json::from_str(&self.text(column)?).map_err(|_| self.decode_error(column))
    }

    /// A column holding JSON of `T`, or NULL.
    pub fn opt_json<T: serde::de::DeserializeOwned>(&self, column: usize) -> Result<Option<T>, StorageError> {
        match self.row.get(column) {
            Some(SqlValue::Null) => Ok(None),
            _ => self.json(column).map(Some),
        }
    }
}

/// Runs a query that returns at most one row (never relies on a driver's
/// "exactly one row" helper: `SqlCursor::one()` hangs on zero rows, §1).
pub fn query_optional<S: Storage + ?Sized>(
    storage: &S,
    sql: &str,
    params: &[SqlValue],
) -> Result<Option<Row>, StorageError> {
    Ok(storage.query(sql, params)?.into_iter().next())
}

impl From<&str> for SqlValue {
    fn from(text: &str) -> Self {
        SqlValue::Text(text.to_owned())
    }
}

impl From<String> for SqlValue {
    fn from(text: String) -> Self {
        SqlValue::Text(text)
    }
}

impl From<i64> for SqlValue {
    fn from(n: i64) -> Self {
        SqlValue::Integer(n)
    }
}

impl From<u64> for SqlValue {
    fn from(n: u64) -> Self {
        SqlValue::Integer(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

/// Booleans are bound as 0/1 (a DO `Boolean` binding is stored as text, §1).
impl From<bool> for SqlValue {
    fn from(flag: bool) -> Self {
        SqlValue::Integer(i64::from(flag))
    }
}

impl<T: Into<SqlValue>> From<Option<T>> for SqlValue {
    fn from(value: Option<T>) -> Self {
        value.map_or(SqlValue::Null, Into::into)
    }
}

impl crate::error::ApiFailure for StorageError {
    fn error_code(&self) -> crate::error::ErrorCode {
        crate::error::ErrorCode::Internal
    }
}
