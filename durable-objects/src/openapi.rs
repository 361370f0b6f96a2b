//! `GET /v1/openapi.json` (docs/design.md §2, issue 22): the OpenAPI 3.1
//! document, generated from the repository's `openapi.yaml` into
//! `openapi.json` (`scripts/openapi`) and embedded at build time.

use crate::internal::responses;
use tributary::api::ApiResponse;
use worker::{Response, Result};

/// The document, as committed (`scripts/openapi --check` keeps it current).
const DOCUMENT: &str = include_str!("../../openapi.json");

/// Serves the document; no token needed (it holds no project's data).
pub fn serve() -> Result<Response> {
    responses::from_api(ApiResponse {
        status: 200,
        content_type: "application/json",
        body: DOCUMENT.to_owned(),
    })
}
