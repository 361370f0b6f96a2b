//! The stream Durable Object (DESIGN.md §3): one per `(projectId, path)`,
//! holding the engine's `Stream` over its own SQLite storage.

use crate::entry::PROJECT_HEADER;
use crate::responses;
use crate::sql_driver::DoSql;
use std::cell::RefCell;
use tributary::api::ApiRequest;
use tributary::route::{self, Action};
use tributary::stream::Stream;
use worker::{durable_object, DurableObject, Env, Method, Request, Response, Result, State};

#[durable_object]
pub struct StreamObject {
    state: State,
    stream: RefCell<Option<Stream<DoSql>>>,
}

fn method_name(method: &Method) -> &'static str {
    match method {
        Method::Get => "GET",
        Method::Post => "POST",
        Method::Delete => "DELETE",
        Method::Put => "PUT",
        Method::Patch => "PATCH",
        Method::Head => "HEAD",
        _ => "OTHER",
    }
}

impl DurableObject for StreamObject {
    fn new(state: State, _env: Env) -> Self {
        StreamObject {
            state,
            stream: RefCell::new(None),
        }
    }

    async fn fetch(&self, mut request: Request) -> Result<Response> {
        let Some(project) = request.headers().get(PROJECT_HEADER)? else {
            return responses::error(
                403,
                "forbidden",
                "requests must come through the Tributary router",
            );
        };
        let url = request.url()?;
        let route = match route::parse(method_name(&request.method()), url.path()) {
            Ok(route) => route,
            Err(error) => {
                return responses::from_api(tributary::error::ApiError::from(error).into())
            }
        };
        let body = if route.action == Action::Append {
            request.bytes().await?
        } else {
            Vec::new()
        };
        let inputs = crate::platform::inputs()?;
        let api = {
            let mut slot = self.stream.borrow_mut();
            let stream = match slot.as_mut() {
                Some(stream) => stream,
                None => match Stream::open(DoSql::new(&self.state), &project, route.path.clone()) {
                    Ok(stream) => slot.insert(stream),
                    Err(error) => return responses::error(500, "internal", &error.to_string()),
                },
            };
            let request = ApiRequest {
                action: &route.action,
                query: url.query().unwrap_or(""),
                body: &body,
            };
            stream.handle(&request, &inputs)
        };
        responses::from_api(api)
    }
}
