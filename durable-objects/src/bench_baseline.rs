//! Bench-only baseline (issue: append benchmark): a Durable Object that does
//! nothing but one SQLite `INSERT` per request. Reachable only when the
//! `BENCH_BASELINE` binding exists (the bench's wrangler environment); the
//! deployed worker has no such binding and answers 404.

use crate::internal::incoming::{Incoming, ReadBody};
use crate::internal::object_call::{self, CallBody, ObjectCall};
use crate::internal::responses;
use std::cell::Cell;
use tributary::error::ErrorCode;
use worker::{durable_object, DurableObject, Env, Request, Response, Result, SqlStorageValue, State};

#[durable_object]
pub struct BenchBaseline {
    state: State,
    ready: Cell<bool>,
}

impl DurableObject for BenchBaseline {
    fn new(state: State, _env: Env) -> Self {
        BenchBaseline {
            state,
            ready: Cell::new(false),
        }
    }

    async fn fetch(&self, mut request: Request) -> Result<Response> {
        let body = request.text().await?;
        let sql = self.state.storage().sql();
        if !self.ready.get() {
            sql.exec(
                "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)",
                None,
            )?;
            self.ready.set(true);
        }
        let cursor = sql.exec("INSERT INTO t (body) VALUES (?)", vec![SqlStorageValue::String(body)])?;
        Response::ok(format!("{{\"rowsWritten\":{}}}", cursor.rows_written()))
    }
}

/// `POST /bench/baseline/{name}` → the baseline object named `name`.
pub async fn route(mut request: Incoming, env: &Env, name: &str) -> Result<Response> {
    let Ok(namespace) = crate::internal::bindings::namespace(env, crate::internal::bindings::BENCH_BASELINE_BINDING)
    else {
        return responses::error(ErrorCode::RouteNotFound, "no route for this URL");
    };
    let body = request.bytes().await?;
    let stub = namespace.get_by_name(name)?;
    let call = ObjectCall {
        method: worker::Method::Post,
        headers: &[],
        body: Some(CallBody::Bytes(&body)),
    };
    object_call::fetch(stub, "https://baseline.internal/", call).await
}
