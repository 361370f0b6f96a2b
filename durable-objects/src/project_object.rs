//! The project Durable Object (DESIGN.md §9, §14): one per project, holding
//! its processor definitions (and, later, its stream catalog). Reached only
//! through the router, which sets the project header.

use crate::entry::PROJECT_HEADER;
use crate::responses;
use crate::sql_driver::DoSql;
use std::cell::RefCell;
use tributary::catalog::Catalog;
use tributary::error::{ApiError, ErrorCode};
use tributary::processor::ProcessorStore;
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

/// Where processor routes start (`/v1/processors` and `/v1/processors/{name}`).
pub const PROCESSORS_PREFIX: &str = "/v1/processors";
/// The catalog's public list (§14).
pub const CATALOG_ROUTE: &str = "/v1/streams";
/// Where streams send their registrations.
pub const CATALOG_CHANGE_ROUTE: &str = "/internal/catalog";

#[durable_object]
pub struct ProjectObject {
    state: State,
    store: RefCell<Option<ProcessorStore<DoSql>>>,
    catalog: RefCell<Option<Catalog<DoSql>>>,
}

impl DurableObject for ProjectObject {
    fn new(state: State, _env: Env) -> Self {
        ProjectObject {
            state,
            store: RefCell::new(None),
            catalog: RefCell::new(None),
        }
    }

    async fn fetch(&self, mut request: Request) -> Result<Response> {
        if request.headers().get(PROJECT_HEADER)?.is_none() {
            return responses::error(ErrorCode::Forbidden, "requests must come through the Tributary router");
        }
        let url = request.url()?;
        if url.path() == CATALOG_ROUTE || url.path() == CATALOG_CHANGE_ROUTE {
            let route = if url.path() == CATALOG_ROUTE { "list" } else { "change" };
            let method = request.method();
            let body = if method == worker::Method::Post {
                match crate::request_body::read_or_refuse(&mut request, tributary::route::BodyLimit::INTERNAL).await? {
                    Ok(body) => body,
                    Err(refused) => return Ok(refused),
                }
            } else {
                Vec::new()
            };
            let mut slot = self.catalog.borrow_mut();
            if slot.is_none() {
                match Catalog::open(DoSql::new(&self.state)) {
                    Ok(catalog) => *slot = Some(catalog),
                    Err(error) => {
                        return responses::from_api(ApiError::new(ErrorCode::Internal, error.to_string()).into())
                    }
                }
            }
            let Some(catalog) = slot.as_ref() else {
                return responses::error(ErrorCode::Internal, "catalog not open");
            };
            return responses::from_api(catalog.handle(method.as_ref(), route, url.query().unwrap_or(""), &body));
        }
        let name = match url.path().strip_prefix(PROCESSORS_PREFIX) {
            Some("") => None,
            Some(rest) => match rest.strip_prefix('/') {
                Some(name) => Some(tributary::route::decode_segment(name).unwrap_or_default()),
                None => return responses::error(ErrorCode::RouteNotFound, "no route for this URL"),
            },
            None => return responses::error(ErrorCode::RouteNotFound, "no route for this URL"),
        };
        let method = request.method();
        let body = if method == worker::Method::Put {
            match crate::request_body::read_or_refuse(&mut request, tributary::route::BodyLimit::PROCESSOR_DEFINITION)
                .await?
            {
                Ok(body) => body,
                Err(refused) => return Ok(refused),
            }
        } else {
            Vec::new()
        };
        let now = crate::platform::now_ms();
        let mut slot = self.store.borrow_mut();
        if slot.is_none() {
            match ProcessorStore::open(DoSql::new(&self.state)) {
                Ok(store) => *slot = Some(store),
                Err(error) => return responses::from_api(ApiError::new(ErrorCode::Internal, error.to_string()).into()),
            }
        }
        let Some(store) = slot.as_ref() else {
            return responses::error(ErrorCode::Internal, "project store not open");
        };
        responses::from_api(store.handle(method.as_ref(), name.as_deref(), url.query().unwrap_or(""), &body, now))
    }
}
