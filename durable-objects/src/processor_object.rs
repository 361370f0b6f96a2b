//! A processor instance Durable Object (docs/design.md §9): one per `(project,
//! processor name, stream path)`, holding its fold and checkpoint in its own
//! SQLite. Reached only from stream objects (internal routes).

use crate::internal::responses;
use crate::platform::sql_driver::{DoSql, ObjectSql};
use std::cell::RefCell;
use tributary::error::ErrorCode;
use tributary::processor::Instance;
use tributary::route::internal::{self, PROJECT_HEADER};
use tributary::route::BodyLimit;
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

#[durable_object]
pub struct ProcessorObject {
    /// Its storage, which its instance's driver uses.
    sql: ObjectSql,
    instance: RefCell<Option<Instance<DoSql>>>,
}

impl DurableObject for ProcessorObject {
    fn new(state: State, _env: Env) -> Self {
        ProcessorObject {
            sql: ObjectSql::of(&state),
            instance: RefCell::new(None),
        }
    }

    async fn fetch(&self, mut request: Request) -> Result<Response> {
        if request.headers().get(PROJECT_HEADER)?.is_none() {
            return responses::error(
                ErrorCode::Forbidden,
                "processor instances are reached by their streams only",
            );
        }
        let url = crate::internal::incoming::target_of(&request)?;
        let action = match internal::processor_object(url.path()) {
            Ok(action) => action,
            Err(error) => return responses::api_error(error),
        };
        let body = match crate::internal::request_body::read_or_refuse(&mut request, BodyLimit::INTERNAL).await? {
            Ok(body) => body,
            Err(refused) => return Ok(refused),
        };
        let mut slot = self.instance.borrow_mut();
        if slot.is_none() {
            match Instance::open(self.sql.driver()) {
                Ok(instance) => *slot = Some(instance),
                Err(error) => return responses::error(ErrorCode::Internal, &error.to_string()),
            }
        }
        let Some(instance) = slot.as_mut() else {
            return responses::error(ErrorCode::Internal, "instance not open");
        };
        responses::from_api(instance.handle(action, &body))
    }
}
