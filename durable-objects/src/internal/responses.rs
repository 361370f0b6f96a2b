//! Turning engine responses and errors into `worker::Response`s (§2 JSON errors).

use crate::internal::answers::Answer;
use tributary::api::ApiResponse;
use tributary::error::{ApiError, ErrorCode};
use worker::{Response, ResponseBuilder};

/// The answer with its status, its `Content-Type` and §17's security
/// headers (made in one call, `answers.js`), so the entry hands it on as
/// it is.
pub fn from_api(api: ApiResponse) -> worker::Result<Response> {
    let builder = ResponseBuilder::new()
        .with_status(api.status)
        .with_headers(crate::internal::answers::headers(api.content_type)?);
    Ok(if api.status == 204 {
        builder.empty()
    } else {
        builder.fixed(api.body.into_bytes())
    })
}

/// [`from_api`] as an object's answer leaves it: the platform's `Response`
/// made in one call (`answers.js` `respond`), with `extra` as one more
/// header. Made as a workers-rs `Response`, it took the headers' object,
/// a second copy of them in the init, and five more calls to build.
pub fn answer(api: ApiResponse, extra: Option<(&str, &str)>) -> worker::Result<Answer> {
    crate::internal::answers::respond(api.status, api.content_type, api.body.as_bytes(), extra).map(Answer::Object)
}

/// A §2 error answer; its status comes from the code's one table.
pub fn error(code: ErrorCode, message: &str) -> worker::Result<Response> {
    from_api(ApiError::new(code, message).into())
}

/// A rendered engine error as a response.
pub fn api_error(error: impl Into<ApiError>) -> worker::Result<Response> {
    from_api(error.into().into())
}
