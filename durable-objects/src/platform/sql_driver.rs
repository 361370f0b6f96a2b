//! The Durable Object driver of the engine's storage trait (docs/design.md §1).
//!
//! Traps handled here: integers cross JS as f64 (the engine keeps them below
//! 2^53); booleans are bound as 0/1 by the engine; rows are read with `raw()`,
//! never `one()` (which hangs on zero rows). Atomicity comes from
//! `storage.transactionSync`, which rolls back when the body throws.

use js_sys::{Function, Reflect};
use std::cell::Cell;
use tributary::storage::{Row, SqlValue, Storage, StorageError};
use wasm_bindgen::closure::ScopedClosure;
use wasm_bindgen::{JsCast, JsValue};
use worker::{SqlStorage, SqlStorageValue, State};

pub struct DoSql {
    sql: SqlStorage,
    storage: JsValue,
    rows_written: Cell<u64>,
}

thread_local! {
    /// [`Storage::generation`], shared by every driver of this isolate: an
    /// object may hold more than one, and a write through any of them
    /// moves it (moving it more often than needed is never wrong).
    static GENERATION: Cell<u64> = const { Cell::new(0) };
}

fn next_generation() {
    GENERATION.with(|generation| generation.set(generation.get().wrapping_add(1)));
}

impl DoSql {
    pub fn new(state: &State) -> Self {
        let storage = state.storage();
        DoSql {
            sql: storage.sql(),
            storage: storage.as_raw().unchecked_ref::<JsValue>().clone(),
            rows_written: Cell::new(0),
        }
    }
}

fn to_binding(value: &SqlValue) -> SqlStorageValue {
    match value {
        SqlValue::Null => SqlStorageValue::Null,
        SqlValue::Integer(n) => SqlStorageValue::Integer(*n),
        SqlValue::Real(f) => SqlStorageValue::Float(*f),
        SqlValue::Text(text) => SqlStorageValue::String(text.clone()),
        SqlValue::Blob(bytes) => SqlStorageValue::Blob(bytes.clone()),
    }
}

fn from_column(value: SqlStorageValue) -> SqlValue {
    match value {
        SqlStorageValue::Null => SqlValue::Null,
        SqlStorageValue::Boolean(flag) => SqlValue::Integer(i64::from(flag)),
        SqlStorageValue::Integer(n) => SqlValue::Integer(n),
        SqlStorageValue::Float(f) => SqlValue::Real(f),
        SqlStorageValue::String(text) => SqlValue::Text(text),
        SqlStorageValue::Blob(bytes) => SqlValue::Blob(bytes),
    }
}

fn js_error(error: impl std::fmt::Debug) -> StorageError {
    StorageError::Sql(format!("{error:?}"))
}

impl Storage for DoSql {
    fn query(&self, sql: &str, params: &[SqlValue]) -> Result<Vec<Row>, StorageError> {
        let bindings: Vec<SqlStorageValue> = params.iter().map(to_binding).collect();
        let cursor = self.sql.exec(sql, bindings).map_err(js_error)?;
        let mut rows = Vec::new();
        for row in cursor.raw() {
            rows.push(row.map_err(js_error)?.into_iter().map(from_column).collect());
        }
        let written = cursor.rows_written() as u64;
        self.rows_written.set(self.rows_written.get() + written);
        if written > 0 || tributary::storage::may_write(sql) {
            next_generation();
        }
        Ok(rows)
    }

    fn execute_script(&self, script: &str) -> Result<(), StorageError> {
        let cursor = self.sql.exec(script, None).map_err(js_error)?;
        for row in cursor.raw() {
            row.map_err(js_error)?;
        }
        self.rows_written
            .set(self.rows_written.get() + cursor.rows_written() as u64);
        next_generation();
        Ok(())
    }

    fn atomically<T, E: From<StorageError>>(&self, body: &mut dyn FnMut() -> Result<T, E>) -> Result<T, E> {
        let mut outcome: Option<Result<T, E>> = None;
        let mut run = || -> Result<JsValue, JsValue> {
            let result = body();
            let failed = result.is_err();
            outcome = Some(result);
            if failed {
                next_generation();
                Err(JsValue::from_str("tributary: rolled back"))
            } else {
                Ok(JsValue::UNDEFINED)
            }
        };
        let called = {
            let closure = ScopedClosure::<dyn FnMut() -> Result<JsValue, JsValue>>::borrow_mut_aborting(&mut run);
            let callback: &Function = closure.as_ref().unchecked_ref();
            Reflect::get(&self.storage, &JsValue::from_str("transactionSync"))
                .and_then(|method| method.dyn_into::<Function>())
                .and_then(|method| method.call1(&self.storage, callback))
        };
        match (called, outcome) {
            (Ok(_), Some(result)) => result,
            (Err(_), Some(Err(error))) => Err(error),
            (Err(thrown), _) => {
                next_generation();
                Err(E::from(js_error(thrown)))
            }
            (Ok(_), None) => Err(E::from(StorageError::Sql("transaction body did not run".to_owned()))),
        }
    }

    fn rows_written(&self) -> u64 {
        self.rows_written.get()
    }

    fn generation(&self) -> u64 {
        GENERATION.with(Cell::get)
    }

    fn database_bytes(&self) -> Result<u64, StorageError> {
        Ok(self.sql.database_size() as u64)
    }
}
