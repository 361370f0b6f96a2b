//! The project Durable Object (docs/design.md §9, §11, §14): one per project,
//! holding its processor definitions, its secrets, its stream catalog and
//! its streams' latest metrics snapshots. Reached only through the router (and the
//! project's streams), which set the project header.

use crate::internal::responses;
use crate::platform::sql_driver::{DoSql, ObjectSql};
use std::cell::RefCell;
use tributary::catalog::Catalog;
use tributary::error::ErrorCode;
use tributary::processor::ProcessorStore;
use tributary::route::internal::{self, ProjectObjectRoute, PROJECT_HEADER};
use tributary::route::BodyLimit;
use tributary::secrets::SecretStore;
use worker::{durable_object, DurableObject, Env, Method, Request, Response, Result, State};

#[durable_object]
pub struct ProjectObject {
    /// Its storage, which its three stores' drivers share.
    sql: ObjectSql,
    store: RefCell<Option<ProcessorStore<DoSql>>>,
    catalog: RefCell<Option<Catalog<DoSql>>>,
    secrets: RefCell<Option<SecretStore<DoSql>>>,
}

impl DurableObject for ProjectObject {
    fn new(state: State, _env: Env) -> Self {
        ProjectObject {
            sql: ObjectSql::of(&state),
            store: RefCell::new(None),
            catalog: RefCell::new(None),
            secrets: RefCell::new(None),
        }
    }

    async fn fetch(&self, mut request: Request) -> Result<Response> {
        if request.headers().get(PROJECT_HEADER)?.is_none() {
            return responses::error(ErrorCode::Forbidden, "requests must come through the Tributary router");
        }
        let url = crate::internal::incoming::target_of(&request)?;
        let query = url.query().unwrap_or("");
        match internal::project_object(url.path()) {
            Ok(ProjectObjectRoute::Processors { name }) => self.processors(&mut request, name.as_deref(), query).await,
            Ok(ProjectObjectRoute::Secrets { name }) => self.secrets(&mut request, name.as_deref(), false).await,
            Ok(ProjectObjectRoute::SecretsResolve) => self.secrets(&mut request, None, true).await,
            Ok(route) => self.catalog(&mut request, &route, query).await,
            Err(error) => responses::api_error(error),
        }
    }
}

impl ProjectObject {
    /// `GET /v1/streams`, `POST /internal/catalog` (§14), `GET /v1/metrics`
    /// and `POST /internal/metrics` (§11): all over the catalog's tables.
    async fn catalog(&self, request: &mut Request, route: &ProjectObjectRoute, query: &str) -> Result<Response> {
        let method = request.method();
        let body = if method == Method::Post {
            match crate::internal::request_body::read_or_refuse(request, BodyLimit::INTERNAL).await? {
                Ok(body) => body,
                Err(refused) => return Ok(refused),
            }
        } else {
            Vec::new()
        };
        let mut slot = self.catalog.borrow_mut();
        if slot.is_none() {
            match Catalog::open(self.sql.driver()) {
                Ok(catalog) => *slot = Some(catalog),
                Err(error) => return responses::error(ErrorCode::Internal, &error.to_string()),
            }
        }
        let Some(catalog) = slot.as_ref() else {
            return responses::error(ErrorCode::Internal, "catalog not open");
        };
        let answer = match (route.catalog_route(), route.metrics_route()) {
            (Some(route), _) => catalog.handle(method.as_ref(), route, query, &body),
            (None, Some(route)) => {
                catalog.handle_metrics(method.as_ref(), route, query, &body, crate::platform::now_ms())
            }
            (None, None) => return responses::error(ErrorCode::Internal, "not a catalog route"),
        };
        responses::from_api(answer)
    }

    /// `/v1/processors[/{name}]` (§9): the store answers each method.
    async fn processors(&self, request: &mut Request, name: Option<&str>, query: &str) -> Result<Response> {
        let method = request.method();
        let body = if method == Method::Put {
            match crate::internal::request_body::read_or_refuse(request, BodyLimit::PROCESSOR_DEFINITION).await? {
                Ok(body) => body,
                Err(refused) => return Ok(refused),
            }
        } else {
            Vec::new()
        };
        let now = crate::platform::now_ms();
        let mut slot = self.store.borrow_mut();
        if slot.is_none() {
            match ProcessorStore::open(self.sql.driver()) {
                Ok(store) => *slot = Some(store),
                Err(error) => return responses::error(ErrorCode::Internal, &error.to_string()),
            }
        }
        let Some(store) = slot.as_ref() else {
            return responses::error(ErrorCode::Internal, "project store not open");
        };
        responses::from_api(store.handle(method.as_ref(), name, query, &body, now))
    }

    /// `/v1/secrets[/{name}]` and `POST /internal/secrets/resolve` (§9):
    /// the write-only store answers each; only the internal route reads a
    /// value, and nothing here logs one.
    async fn secrets(&self, request: &mut Request, name: Option<&str>, resolve: bool) -> Result<Response> {
        let method = request.method();
        let limit = match (resolve, &method) {
            (true, _) => BodyLimit::INTERNAL,
            (false, Method::Put) => BodyLimit::SECRET,
            (false, _) => BodyLimit::UNUSED,
        };
        let body = match crate::internal::request_body::read_or_refuse(request, limit).await? {
            Ok(body) => body,
            Err(refused) => return Ok(refused),
        };
        let mut slot = self.secrets.borrow_mut();
        if slot.is_none() {
            match SecretStore::open(self.sql.driver()) {
                Ok(store) => *slot = Some(store),
                Err(error) => return responses::error(ErrorCode::Internal, &error.to_string()),
            }
        }
        let Some(store) = slot.as_ref() else {
            return responses::error(ErrorCode::Internal, "secret store not open");
        };
        let answer = if resolve {
            store.handle_resolve(&body)
        } else {
            store.handle(method.as_ref(), name, &body, crate::platform::now_ms())
        };
        responses::from_api(answer)
    }
}
