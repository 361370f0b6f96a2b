//! A processor instance Durable Object (DESIGN.md §9): one per `(project,
//! processor name, stream path)`, holding its fold and checkpoint in its own
//! SQLite. Reached only from stream objects (internal routes).

use crate::entry::PROJECT_HEADER;
use crate::responses;
use crate::sql_driver::DoSql;
use std::cell::RefCell;
use tributary::error::{ApiError, ErrorCode};
use tributary::processor::Instance;
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

/// `POST /internal/processor/{wake|fold}`, `GET /internal/processor/state`.
pub const INSTANCE_ROUTE: &str = "/internal/processor/";

#[durable_object]
pub struct ProcessorObject {
    state: State,
    instance: RefCell<Option<Instance<DoSql>>>,
}

impl DurableObject for ProcessorObject {
    fn new(state: State, _env: Env) -> Self {
        ProcessorObject {
            state,
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
        let url = request.url()?;
        let Some(action) = url.path().strip_prefix(INSTANCE_ROUTE).map(str::to_owned) else {
            return responses::error(ErrorCode::RouteNotFound, "no route for this URL");
        };
        let body =
            match crate::request_body::read_or_refuse(&mut request, tributary::route::BodyLimit::INTERNAL).await? {
                Ok(body) => body,
                Err(refused) => return Ok(refused),
            };
        let mut slot = self.instance.borrow_mut();
        if slot.is_none() {
            match Instance::open(DoSql::new(&self.state)) {
                Ok(instance) => *slot = Some(instance),
                Err(error) => return responses::from_api(ApiError::new(ErrorCode::Internal, error.to_string()).into()),
            }
        }
        let Some(instance) = slot.as_mut() else {
            return responses::error(ErrorCode::Internal, "instance not open");
        };
        responses::from_api(instance.handle(&action, &body))
    }
}
