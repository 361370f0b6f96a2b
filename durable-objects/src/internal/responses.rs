//! Turning engine responses and errors into `worker::Response`s (§2 JSON errors).

use tributary::api::ApiResponse;
use tributary::error::{ApiError, ErrorCode};
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

/// A §2 error answer; its status comes from the code's one table.
pub fn error(code: ErrorCode, message: &str) -> worker::Result<Response> {
    from_api(ApiError::new(code, message).into())
}

/// A rendered engine error as a response.
pub fn api_error(error: impl Into<ApiError>) -> worker::Result<Response> {
    from_api(error.into().into())
}
