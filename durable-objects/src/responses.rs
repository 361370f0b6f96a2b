//! Turning engine responses and errors into `worker::Response`s (§2 JSON errors).

use tributary::api::ApiResponse;
use tributary::error::ApiError;
use worker::{Headers, Response};

pub fn from_api(api: ApiResponse) -> worker::Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", api.content_type)?;
    let response = if api.status == 204 {
        Response::empty()?
    } else {
        Response::ok(api.body)?
    };
    Ok(response.with_status(api.status).with_headers(headers))
}

pub fn error(status: u16, code: &str, message: &str) -> worker::Result<Response> {
    from_api(ApiError::new(status, code, message).into())
}
