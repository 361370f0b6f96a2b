//! SQL over the `events` table (schema: `migrations/0001_streams.sql`).

use crate::event::{InputEvent, StoredEvent, CONTROL_PREFIX};
use crate::limits::{FOLD_PAGE_ROWS, MAX_SQL_PARAMETERS};
use crate::records::event_row;
use crate::storage::{Columns, SqlValue, Storage, StorageError};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The columns of an event row, named once in `records/event_row.rs`.
const EVENT_COLUMNS: &str = event_row::LIST;

fn select<S: Storage + ?Sized>(storage: &S, sql: &str, params: &[SqlValue]) -> Result<Vec<StoredEvent>, StorageError> {
    storage
        .query(sql, params)?
        .iter()
        .map(|row| event_row::decode(sql, row))
        .collect()
}

pub fn by_offset<S: Storage + ?Sized>(storage: &S, offset: u64) -> Result<Option<StoredEvent>, StorageError> {
    let sql = format!("SELECT {EVENT_COLUMNS} FROM events WHERE event_offset = ?");
    Ok(select(storage, &sql, &[offset.into()])?.into_iter().next())
}

pub fn by_idempotency_key<S: Storage + ?Sized>(storage: &S, key: &str) -> Result<Option<StoredEvent>, StorageError> {
    let sql = format!("SELECT {EVENT_COLUMNS} FROM events WHERE idempotency_key = ?");
    Ok(select(storage, &sql, &[key.into()])?.into_iter().next())
}

/// The committed events holding any of `keys`, by key (§3 rule 4): one
/// query for a batch's keys (a point lookup when there is one), each key
/// probing the unique index. At most one row per key, so the answer is
/// bounded by the caller's (bounded) batch.
pub fn by_idempotency_keys<'a, S: Storage + ?Sized>(
    storage: &S,
    keys: impl Iterator<Item = &'a str>,
) -> Result<HashMap<String, StoredEvent>, StorageError> {
    let keys: Vec<&str> = keys.collect();
    let events = match keys.as_slice() {
        [] => Vec::new(),
        [key] => by_idempotency_key(storage, key)?.into_iter().collect(),
        _ => {
            let sql =
                format!("SELECT {EVENT_COLUMNS} FROM events WHERE idempotency_key IN (SELECT value FROM json_each(?))");
            let list = serde_json::to_string(&keys).map_err(|error| StorageError::Sql(error.to_string()))?;
            select(storage, &sql, &[list.into()])?
        }
    };
    Ok(events
        .into_iter()
        .filter_map(|event| event.idempotency_key.clone().map(|key| (key, event)))
        .collect())
}

/// Bytes one event row occupies in memory once read (all its text columns).
pub(crate) const ROW_BYTES: &str = "octet_length(type) + octet_length(payload) + octet_length(metadata) \
     + COALESCE(octet_length(idempotency_key), 0) + COALESCE(octet_length(source), 0) \
     + 2 * COALESCE(octet_length(body), 0)";

/// The most bytes one event row can hold (§3, §12): an event, its
/// idempotency key and a copy's provenance of at most [`MAX_COPY_HOPS`](crate::limits::MAX_COPY_HOPS) hops.
const MAX_ROW_BYTES: usize = crate::limits::MAX_EVENT_BYTES + 64 * 1024;

/// Which rows a bounded read may return.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Exclusive lower offset.
    pub after: u64,
    /// Inclusive upper offset.
    pub through: u64,
    /// Ephemeral rows after this offset are included (0: all of them;
    /// [`NO_EPHEMERAL`]: none), §3 rule 5.
    pub ephemeral_after: u64,
    /// Most rows, and most bytes of rows (always at least one row).
    pub max_rows: u64,
    pub max_bytes: usize,
}

/// [`Window::ephemeral_after`] that excludes every ephemeral row.
pub const NO_EPHEMERAL: u64 = crate::limits::MAX_SAFE_INTEGER;

/// A page of a bounded read, and whether it saw every row of its window.
#[derive(Debug)]
pub struct Page {
    pub events: Vec<StoredEvent>,
    pub exhausted: bool,
}

impl Window {
    /// Whether so few rows are asked for that even the largest fit the byte
    /// budget: the read is one query and no size is looked at.
    pub fn fits_any_rows(&self) -> bool {
        self.max_rows.saturating_mul(MAX_ROW_BYTES as u64) <= self.max_bytes as u64
    }

    fn params(&self) -> [SqlValue; 4] {
        [
            self.after.into(),
            self.through.into(),
            self.ephemeral_after.into(),
            self.max_rows.into(),
        ]
    }
}

const WINDOW_FILTER: &str = "event_offset > ? AND event_offset <= ? AND (ephemeral = 0 OR event_offset > ?)";

fn window_sql() -> String {
    format!("SELECT {EVENT_COLUMNS} FROM events WHERE {WINDOW_FILTER} ORDER BY event_offset LIMIT +?")
}

/// The rows of a window that [`Window::fits_any_rows`], read only to check
/// what the engine keeps of the log against storage (`Storage::check_read`);
/// `None` where reads are not checked.
pub(crate) fn check_window<S: Storage + ?Sized>(
    storage: &S,
    window: Window,
) -> Option<Result<Vec<StoredEvent>, StorageError>> {
    let sql = window_sql();
    let rows = storage.check_read(&sql, &window.params())?;
    Some(rows.and_then(|rows| rows.iter().map(|row| event_row::decode(&sql, row)).collect()))
}

/// Reads events in `window` without ever loading more than its byte budget
/// (§12): sizes first (no payloads), then exactly the rows that fit.
pub fn read_window<S: Storage + ?Sized>(storage: &S, window: Window) -> Result<Page, StorageError> {
    let filter = WINDOW_FILTER;
    let params = window.params();
    let sql = window_sql();
    if window.fits_any_rows() {
        // So few rows that even the largest fit the budget: one query (a
        // webhook's scan reads one event per delivery).
        let events = select(storage, &sql, &params)?;
        let exhausted = (events.len() as u64) < window.max_rows;
        return Ok(Page { events, exhausted });
    }
    // Most windows fit their budget whole: their total comes back as one
    // row, and no row's size crosses from SQLite one by one.
    let totals_sql = format!(
        "SELECT COALESCE(SUM(row_bytes), 0) FROM \
         (SELECT {ROW_BYTES} AS row_bytes FROM events WHERE {filter} ORDER BY event_offset LIMIT +?)"
    );
    let total = match storage.query(&totals_sql, &params)?.first() {
        Some(row) => Columns {
            query: &totals_sql,
            row,
        }
        .int(0)?
        .max(0) as u64,
        None => u64::MAX,
    };
    if total <= window.max_bytes as u64 {
        let events = select(storage, &sql, &params)?;
        let exhausted = (events.len() as u64) < window.max_rows;
        return Ok(Page { events, exhausted });
    }
    let sizes_sql =
        format!("SELECT event_offset, {ROW_BYTES} FROM events WHERE {filter} ORDER BY event_offset LIMIT +?");
    let sizes = storage.query(&sizes_sql, &params)?;
    let mut last = None;
    let mut bytes = 0usize;
    let mut fitted = 0usize;
    for row in &sizes {
        let columns = Columns { query: &sizes_sql, row };
        let size = usize::try_from(columns.int(1)?.max(0)).unwrap_or(usize::MAX);
        if fitted > 0 && bytes.saturating_add(size) > window.max_bytes {
            break;
        }
        bytes = bytes.saturating_add(size);
        fitted += 1;
        last = Some(columns.int(0)?.max(0) as u64);
    }
    let exhausted = fitted == sizes.len() && (sizes.len() as u64) < window.max_rows;
    let Some(last) = last else {
        return Ok(Page {
            events: Vec::new(),
            exhausted,
        });
    };
    let events = select(
        storage,
        &sql,
        &[
            window.after.into(),
            last.into(),
            window.ephemeral_after.into(),
            (fitted as u64).into(),
        ],
    )?;
    Ok(Page { events, exhausted })
}

/// Up to `limit` events after `after`, ephemeral ones only when asked (§3
/// rule 5), and no more than the read budget in bytes (§12).
pub fn range<S: Storage + ?Sized>(
    storage: &S,
    after: u64,
    limit: u64,
    include_ephemeral: bool,
) -> Result<Vec<StoredEvent>, StorageError> {
    let window = Window {
        after,
        through: crate::limits::MAX_SAFE_INTEGER,
        ephemeral_after: if include_ephemeral { 0 } else { NO_EPHEMERAL },
        max_rows: limit,
        max_bytes: crate::limits::MAX_READ_BYTES,
    };
    Ok(read_window(storage, window)?.events)
}

/// Calls `fold` on every event in `(after, through]` the fold can react to
/// (control events and copies), in offset order, a bounded page at a time;
/// stops at its first error.
pub fn for_each_fold_input<S: Storage + ?Sized>(
    storage: &S,
    after: u64,
    through: u64,
    mut fold: impl FnMut(StoredEvent) -> Result<(), StorageError>,
) -> Result<(), StorageError> {
    let sql = format!(
        "SELECT {EVENT_COLUMNS} FROM events WHERE event_offset > ? AND event_offset <= ? \
         AND (substr(type, 1, {}) = ? OR source IS NOT NULL) ORDER BY event_offset LIMIT +?",
        CONTROL_PREFIX.len()
    );
    let last = "SELECT COALESCE(MAX(event_offset), 0) FROM events";
    let highest = match storage.query(last, &[])?.first() {
        Some(row) => Columns { query: last, row }.int(0)?.max(0) as u64,
        None => 0,
    }
    .min(through);
    let mut cursor = after;
    // A full page moves `cursor` past at least FOLD_PAGE_ROWS offsets.
    for _page in 0..=highest.saturating_sub(after) / FOLD_PAGE_ROWS {
        let page = select(
            storage,
            &sql,
            &[
                cursor.into(),
                through.into(),
                CONTROL_PREFIX.into(),
                FOLD_PAGE_ROWS.into(),
            ],
        )?;
        let full = page.len() as u64 == FOLD_PAGE_ROWS;
        for event in page {
            cursor = event.offset;
            fold(event)?;
        }
        if !full {
            return Ok(());
        }
    }
    Ok(())
}

/// The row an input event becomes at `offset`.
pub fn stored_from_input(input: &InputEvent, offset: u64, created_at_ms: i64) -> Result<StoredEvent, StorageError> {
    let encode =
        |field: &crate::json_field::JsonField| field.to_raw().map_err(|error| StorageError::Sql(error.to_string()));
    let (payload, encoding) = match &input.body {
        Some(bytes) => {
            let (payload, encoding) = crate::event::BodyEncoding::carry(bytes);
            (payload, Some(encoding))
        }
        None => (encode(&input.payload)?, None),
    };
    Ok(StoredEvent {
        offset,
        event_type: input.event_type.clone(),
        payload,
        metadata: encode(&input.metadata)?,
        idempotency_key: input.idempotency_key.clone(),
        ephemeral: input.ephemeral,
        created_at_ms,
        source: input.source.as_ref().map(encode).transpose()?,
        encoding,
        body: input.body.clone(),
    })
}

/// Rows of `events` one INSERT carries: as many as bind within
/// [`MAX_SQL_PARAMETERS`] (11 rows of 9 values).
pub const INSERT_ROWS_PER_STATEMENT: usize = MAX_SQL_PARAMETERS / event_row::COLUMNS.len();

/// One row's placeholders: `(?, ?, …)`, a value for each of [`event_row::COLUMNS`].
fn row_placeholders() -> String {
    format!("({})", vec!["?"; event_row::COLUMNS.len()].join(", "))
}

/// The three statements that write `events`, built once: one row (a single
/// append), [`INSERT_ROWS_PER_STATEMENT`] rows (a batch's full chunks), and
/// the same number padded (a chunk of 2 to 10 rows: its unused rows are bound
/// NULL and filtered out by their NULL offset).
///
/// Three texts, not one a row count: the platform keeps every statement text
/// an object runs compiled for the object's life (§12: memory is a budget),
/// and a text a row count held about 100 KB an object once its batches had
/// taken every size (`tests/engine_statement_memory.rs`). The padded form is
/// not used for full chunks: its subquery costs SQLite more steps a row.
struct InsertSql {
    one: String,
    full: String,
    padded: String,
}

fn insert_sql() -> &'static InsertSql {
    static SQL: OnceLock<InsertSql> = OnceLock::new();
    SQL.get_or_init(|| {
        let row = row_placeholders();
        let rows = [row.as_str(); INSERT_ROWS_PER_STATEMENT].join(", ");
        InsertSql {
            one: format!("INSERT INTO events ({EVENT_COLUMNS}) VALUES {row}"),
            full: format!("INSERT INTO events ({EVENT_COLUMNS}) VALUES {rows}"),
            // `column1`: the first column of a VALUES list, the row's event_offset.
            padded: format!(
                "INSERT INTO events ({EVENT_COLUMNS}) SELECT * FROM (VALUES {rows}) WHERE column1 IS NOT NULL"
            ),
        }
    })
}

/// Writes `events` in offset order, [`INSERT_ROWS_PER_STATEMENT`] rows to a
/// statement (each statement is a crossing into the platform's SQLite).
/// Inside the caller's transaction: on an error, whatever was written rolls
/// back with it.
pub fn insert_all<'a, S: Storage + ?Sized>(
    storage: &S,
    events: impl IntoIterator<Item = &'a StoredEvent>,
) -> Result<(), StorageError> {
    let sql = insert_sql();
    let full_width = INSERT_ROWS_PER_STATEMENT * event_row::COLUMNS.len();
    let mut events = events.into_iter().peekable();
    let mut params = Vec::with_capacity(full_width);
    while events.peek().is_some() {
        params.clear();
        let mut rows = 0;
        for event in events.by_ref().take(INSERT_ROWS_PER_STATEMENT) {
            params.extend(event_row::encode(event));
            rows += 1;
        }
        let text = match rows {
            1 => &sql.one,
            INSERT_ROWS_PER_STATEMENT => &sql.full,
            _ => {
                params.resize(full_width, SqlValue::Null);
                &sql.padded
            }
        };
        storage.execute(text, &params)?;
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn each_insert_binds_its_rows_values_and_never_more_than_the_platform_allows() {
        assert_eq!(INSERT_ROWS_PER_STATEMENT, 11);
        let sql = insert_sql();
        for (text, rows) in [
            (&sql.one, 1),
            (&sql.full, INSERT_ROWS_PER_STATEMENT),
            (&sql.padded, INSERT_ROWS_PER_STATEMENT),
        ] {
            let placeholders = text.matches('?').count();
            assert_eq!(placeholders, rows * event_row::COLUMNS.len(), "{text}");
            assert!(placeholders <= MAX_SQL_PARAMETERS);
            assert_eq!(text.matches("(?").count(), rows, "{text}");
        }
    }

    #[test]
    fn a_batch_of_any_size_writes_exactly_its_rows_in_order_with_three_statement_texts() {
        use crate::storage::rusqlite_driver::RusqliteStorage;
        let storage = RusqliteStorage::in_memory().unwrap();
        crate::schema::migrate(&storage).unwrap();
        storage.take_statement_counts();
        let raw = |text: &str| serde_json::value::RawValue::from_string(text.to_owned()).unwrap();
        let mut next = 1;
        for size in 1..=25u64 {
            let batch: Vec<StoredEvent> = (next..next + size)
                .map(|offset| StoredEvent {
                    offset,
                    event_type: format!("t{offset}"),
                    payload: raw(&format!("{{\"n\":{offset}}}")),
                    metadata: raw("{}"),
                    // Every other event keyed: NULLs and values side by side in one statement.
                    idempotency_key: (offset % 2 == 0).then(|| format!("key-{offset}")),
                    ephemeral: offset % 3 == 0,
                    created_at_ms: offset as i64,
                    source: None,
                    encoding: None,
                    body: (offset % 5 == 0).then(|| vec![0, 255, offset as u8]),
                })
                .collect();
            insert_all(&storage, &batch).unwrap();
            next += size;
        }
        let texts = storage.take_statement_counts();
        let inserts: Vec<&String> = texts
            .keys()
            .filter(|sql| sql.starts_with("INSERT INTO events"))
            .collect();
        assert_eq!(inserts.len(), 3, "{inserts:?}");
        let rows = storage
            .query(
                "SELECT event_offset, type, idempotency_key, ephemeral, body FROM events ORDER BY event_offset",
                &[],
            )
            .unwrap();
        assert_eq!(rows.len() as u64, next - 1, "every event once, no padding row");
        for (row, offset) in rows.iter().zip(1u64..) {
            assert_eq!(row[0], SqlValue::Integer(offset as i64));
            assert_eq!(row[1], SqlValue::Text(format!("t{offset}")));
            let key = if offset % 2 == 0 {
                SqlValue::Text(format!("key-{offset}"))
            } else {
                SqlValue::Null
            };
            assert_eq!(row[2], key);
            assert_eq!(row[3], SqlValue::Integer(i64::from(offset % 3 == 0)));
            let body = if offset % 5 == 0 {
                SqlValue::Blob(vec![0, 255, offset as u8])
            } else {
                SqlValue::Null
            };
            assert_eq!(row[4], body);
        }
    }
}
