//! The Durable Object driver of the engine's storage trait (docs/design.md §1).
//!
//! Each statement runs in one call to `sql_exec.js`, which answers one
//! number; a statement that read rows takes them in a second call. Its
//! bindings and its rows are carried as numbers and bytes. Traps handled
//! there and here:
//! integers cross JS as f64 (the engine keeps them below 2^53); booleans
//! are bound as 0/1 by the engine; rows are read with `raw()`, never
//! `one()` (which hangs on zero rows). Atomicity comes from
//! `storage.transactionSync`, which rolls back when the body throws.

use js_sys::{Function, Reflect};
use std::cell::Cell;
use std::rc::Rc;
use tributary::limits::{MAX_SQL_ANSWER_BYTES, MAX_SQL_ANSWER_VALUES};
use tributary::storage::{Row, SqlValue, Storage, StorageError};
use wasm_bindgen::closure::ScopedClosure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use worker::{SqlStorage, State};

pub struct DoSql {
    sql: SqlStorage,
    storage: JsValue,
    transaction_sync: Option<Function>,
    rows_written: Cell<u64>,
    generation: Rc<Cell<u64>>,
}

/// One object's storage as its drivers share it. Every [`DoSql`] an object
/// opens comes from here, so a write through any of them moves the
/// [`Storage::generation`] all of them answer, and no other object's
/// write does: an isolate runs many objects, and what one object keeps
/// of its reads stays true while others write (issue 33).
pub struct ObjectSql {
    sql: SqlStorage,
    storage: JsValue,
    /// `storage.transactionSync`, looked up once (`None`: the platform has none).
    transaction_sync: Option<Function>,
    generation: Rc<Cell<u64>>,
}

impl ObjectSql {
    pub fn of(state: &State) -> Self {
        let storage = state.storage();
        let raw: JsValue = storage.as_raw().unchecked_ref::<JsValue>().clone();
        let transaction_sync = Reflect::get(&raw, &JsValue::from_str("transactionSync"))
            .ok()
            .and_then(|method| method.dyn_into::<Function>().ok());
        ObjectSql {
            sql: storage.sql(),
            storage: raw,
            transaction_sync,
            generation: Rc::default(),
        }
    }

    /// A driver over this object's storage, sharing its generation.
    pub fn driver(&self) -> DoSql {
        DoSql {
            sql: self.sql.clone(),
            storage: self.storage.clone(),
            transaction_sync: self.transaction_sync.clone(),
            rows_written: Cell::new(0),
            generation: Rc::clone(&self.generation),
        }
    }
}

impl DoSql {
    /// [`Storage::generation`] moves: the data may have changed (moving it
    /// more often than needed is never wrong).
    fn next_generation(&self) {
        self.generation.set(self.generation.get().wrapping_add(1));
    }
}

#[wasm_bindgen(module = "/src/platform/sql_exec.js")]
extern "C" {
    /// One statement on the platform's side in one call (`sql_exec.js`):
    /// its bindings, and one number: the rows written, or (negative) the
    /// sizes of the rows read, which [`sql_take`] hands over as [`Values`].
    #[wasm_bindgen(catch, js_name = sqlExec)]
    fn sql_exec(sql: &JsValue, query: &str, numbers: &[f64], bytes: &[u8], want_rows: bool) -> Result<f64, JsValue>;

    /// Copies the rows the last [`sql_exec`] read into `numbers` and `bytes`.
    #[wasm_bindgen(catch, js_name = sqlTake)]
    fn sql_take(numbers: &mut [f64], bytes: &mut [u8]) -> Result<(), JsValue>;
}

/// The sizes of the rows an answer of [`sql_exec`] says were read: numbers
/// and bytes; `None` when it is the rows written.
fn read_sizes(answer: f64) -> Option<(usize, usize)> {
    if answer >= 0.0 {
        return None;
    }
    let sizes = (-answer - 1.0) as u64;
    Some(((sizes >> 32) as usize, (sizes & 0xffff_ffff) as usize))
}

/// A statement's rows as `sql_exec.js` hands them back: two numbers a value
/// (its kind, then its number or its byte length) and the bytes of its
/// strings and blobs, one after the other.
struct Values {
    numbers: Vec<f64>,
    bytes: Vec<u8>,
}

const NULL: f64 = 0.0;
const INTEGER: f64 = 1.0;
const REAL: f64 = 2.0;
const TEXT: f64 = 3.0;
const BLOB: f64 = 4.0;

/// A statement's bindings as `sql_exec.js` takes them: two numbers a value
/// (its kind, then its number, a text's length in UTF-16 units or a blob's
/// in bytes), then the texts' length in bytes; and every text's UTF-8
/// followed by every blob. The texts are decoded in one call and sliced
/// (a call into the platform costs more than the bytes it decodes).
struct Bindings {
    numbers: Vec<f64>,
    bytes: Vec<u8>,
}

impl Bindings {
    fn of(params: &[SqlValue]) -> Bindings {
        let mut numbers = Vec::new();
        let mut bytes = Vec::new();
        let mut blobs = Vec::new();
        for value in params {
            let (kind, number) = match value {
                SqlValue::Null => (NULL, 0.0),
                // The engine keeps integers below 2^53 (§12), where f64 is exact.
                SqlValue::Integer(n) => (INTEGER, *n as f64),
                SqlValue::Real(f) => (REAL, *f),
                SqlValue::Text(text) => {
                    bytes.extend_from_slice(text.as_bytes());
                    (TEXT, utf16_length(text) as f64)
                }
                SqlValue::Blob(blob) => {
                    blobs.extend_from_slice(blob);
                    (BLOB, blob.len() as f64)
                }
            };
            numbers.push(kind);
            numbers.push(number);
        }
        numbers.push(bytes.len() as f64);
        bytes.extend_from_slice(&blobs);
        Bindings { numbers, bytes }
    }
}

/// How many UTF-16 units JavaScript's string of `text` holds.
fn utf16_length(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().map(char::len_utf16).sum()
    }
}

impl Values {
    /// The rows an answer holds (after its three leading numbers: the row
    /// width, the rows written and the rows read).
    fn rows(&self) -> Result<Vec<Row>, StorageError> {
        let unreadable = || StorageError::Sql("an unreadable answer from sql_exec.js".to_owned());
        let width = self.numbers.first().map_or(1, |width| (*width as usize).max(1));
        let mut rows = Vec::new();
        let mut row = Vec::new();
        let mut at = 0usize;
        for pair in self.numbers.get(3..).ok_or_else(unreadable)?.chunks_exact(2) {
            let [kind, number] = pair else { return Err(unreadable()) };
            let value = if *kind == INTEGER {
                SqlValue::Integer(*number as i64)
            } else if *kind == REAL {
                SqlValue::Real(*number)
            } else if *kind == TEXT || *kind == BLOB {
                let end = at.saturating_add(*number as usize);
                let bytes = self.bytes.get(at..end).ok_or_else(unreadable)?;
                at = end;
                if *kind == TEXT {
                    SqlValue::Text(String::from_utf8(bytes.to_vec()).map_err(|_| unreadable())?)
                } else {
                    SqlValue::Blob(bytes.to_vec())
                }
            } else {
                SqlValue::Null
            };
            row.push(value);
            if row.len() == width {
                rows.push(std::mem::take(&mut row));
            }
        }
        if !row.is_empty() {
            return Err(unreadable());
        }
        Ok(rows)
    }
}

fn js_error(error: impl std::fmt::Debug) -> StorageError {
    StorageError::Sql(format!("{error:?}"))
}

impl DoSql {
    /// One statement through `sql_exec.js`; its rows read only when `want_rows`.
    fn run(&self, sql: &str, params: &[SqlValue], want_rows: bool) -> Result<Vec<Row>, StorageError> {
        let bindings = Bindings::of(params);
        let answer =
            sql_exec(self.sql.as_ref(), sql, &bindings.numbers, &bindings.bytes, want_rows).map_err(js_error)?;
        let (rows, written) = match read_sizes(answer) {
            None => (Vec::new(), answer as u64),
            Some((numbers, bytes)) => {
                // Two numbers a value after the three leading ones (§12 caps).
                let values = numbers.saturating_sub(3) / 2;
                if values > MAX_SQL_ANSWER_VALUES || bytes > MAX_SQL_ANSWER_BYTES {
                    return Err(StorageError::AnswerTooLarge {
                        query: sql.to_owned(),
                        values,
                        bytes,
                    });
                }
                let mut answer = Values {
                    numbers: vec![0.0; numbers],
                    bytes: vec![0; bytes],
                };
                sql_take(&mut answer.numbers, &mut answer.bytes).map_err(js_error)?;
                let written = answer.numbers.get(1).copied().unwrap_or(0.0) as u64;
                (answer.rows()?, written)
            }
        };
        self.rows_written.set(self.rows_written.get() + written);
        if written > 0 || tributary::storage::may_write(sql) {
            self.next_generation();
        }
        Ok(rows)
    }
}

impl Storage for DoSql {
    fn query(&self, sql: &str, params: &[SqlValue]) -> Result<Vec<Row>, StorageError> {
        self.run(sql, params, true)
    }

    fn execute(&self, sql: &str, params: &[SqlValue]) -> Result<(), StorageError> {
        self.run(sql, params, false).map(drop)
    }

    fn execute_script(&self, script: &str) -> Result<(), StorageError> {
        let cursor = self.sql.exec(script, None).map_err(js_error)?;
        for row in cursor.raw() {
            row.map_err(js_error)?;
        }
        self.rows_written
            .set(self.rows_written.get() + cursor.rows_written() as u64);
        self.next_generation();
        Ok(())
    }

    fn atomically<T, E: From<StorageError>>(&self, body: &mut dyn FnMut() -> Result<T, E>) -> Result<T, E> {
        let mut outcome: Option<Result<T, E>> = None;
        let mut run = || -> Result<JsValue, JsValue> {
            let result = body();
            let failed = result.is_err();
            outcome = Some(result);
            if failed {
                self.next_generation();
                Err(JsValue::from_str("tributary: rolled back"))
            } else {
                Ok(JsValue::UNDEFINED)
            }
        };
        let called = {
            let closure = ScopedClosure::<dyn FnMut() -> Result<JsValue, JsValue>>::borrow_mut_aborting(&mut run);
            let callback: &Function = closure.as_ref().unchecked_ref();
            match &self.transaction_sync {
                Some(method) => method.call1(&self.storage, callback),
                None => Err(JsValue::from_str("storage.transactionSync is not a function")),
            }
        };
        match (called, outcome) {
            (Ok(_), Some(result)) => result,
            (Err(_), Some(Err(error))) => Err(error),
            (Err(thrown), _) => {
                self.next_generation();
                Err(E::from(js_error(thrown)))
            }
            (Ok(_), None) => Err(E::from(StorageError::Sql("transaction body did not run".to_owned()))),
        }
    }

    fn rows_written(&self) -> u64 {
        self.rows_written.get()
    }

    fn generation(&self) -> u64 {
        self.generation.get()
    }

    fn database_bytes(&self) -> Result<u64, StorageError> {
        Ok(self.sql.database_size() as u64)
    }
}
