//! Answers made and finished in one call each (`answers.js`; issue 33,
//! docs/benchmarks.md twenty-ninth round): an answer's headers, security
//! headers included (§17 "Browsers"), and the entry's last step on an API
//! answer, which hands an object's own answer on untouched when it already
//! carries everything §17 asks of it.

use std::cell::Cell;
use tributary::durable_streams::response::SECURITY_HEADERS;
use tributary::route::internal::STREAM_ID_HEADER;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use worker::{Headers, Response, Result};

#[wasm_bindgen(module = "/src/internal/answers.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = configureAnswers)]
    fn configure_answers(security_json: &str, internal_header: &str) -> std::result::Result<(), JsValue>;

    #[wasm_bindgen(catch, js_name = answerHeaders)]
    fn answer_headers(content_type: &str) -> std::result::Result<web_sys::Headers, JsValue>;

    #[wasm_bindgen(catch, js_name = respond)]
    fn respond_raw(
        status: u16,
        content_type: &str,
        body: &[u8],
        extra_name: &str,
        extra_value: &str,
    ) -> std::result::Result<web_sys::Response, JsValue>;

    #[wasm_bindgen(catch, js_name = respondWith)]
    fn respond_with_raw(
        status: u16,
        headers_json: &str,
        body: &[u8],
        with_body: bool,
    ) -> std::result::Result<web_sys::Response, JsValue>;

    #[wasm_bindgen(catch, js_name = decorateAnswer)]
    fn decorate_answer(
        response: &web_sys::Response,
        cors_json: &str,
    ) -> std::result::Result<web_sys::Response, JsValue>;
}

thread_local! {
    /// Whether this instance told `answers.js` the header names. A wasm
    /// instance made again after a panic tells it again (harmless).
    static CONFIGURED: Cell<bool> = const { Cell::new(false) };
}

fn configured() -> Result<()> {
    if CONFIGURED.with(Cell::get) {
        return Ok(());
    }
    configure_answers(&serde_json::to_string(&SECURITY_HEADERS)?, STREAM_ID_HEADER)?;
    CONFIGURED.with(|configured| configured.set(true));
    Ok(())
}

/// An answer's headers: its content type and §17's security headers.
pub fn headers(content_type: &str) -> Result<Headers> {
    configured()?;
    Ok(Headers(answer_headers(content_type)?))
}

/// An answer made whole in one call: `status`, `body` (none for a 204),
/// its content type, §17's security headers and `extra`, if any.
pub fn respond(status: u16, content_type: &str, body: &[u8], extra: Option<(&str, &str)>) -> Result<web_sys::Response> {
    configured()?;
    let (extra_name, extra_value) = extra.unwrap_or(("", ""));
    Ok(respond_raw(status, content_type, body, extra_name, extra_value)?)
}

/// An answer whose headers are all given (the Durable Streams face's), made
/// in one call; `with_body` false answers no body.
pub fn respond_with(
    status: u16,
    headers: &[(impl AsRef<str>, impl AsRef<str>)],
    body: &[u8],
    with_body: bool,
) -> Result<web_sys::Response> {
    Ok(respond_with_raw(
        status,
        &tributary::header_init::object_json(headers),
        body,
        with_body,
    )?)
}

/// An API answer as it leaves the entry: `cors` added, the security
/// headers added where missing, [`STREAM_ID_HEADER`] taken off. The
/// answer itself when there is nothing to change.
pub fn decorate(answer: Answer, cors: &[(&str, String)]) -> Result<web_sys::Response> {
    configured()?;
    let cors_json = if cors.is_empty() {
        String::new()
    } else {
        serde_json::to_string(cors)?
    };
    Ok(decorate_answer(&answer.into_raw(), &cors_json)?)
}

/// An answer on its way out of the entry: an object's own, handed on as it
/// came (reading it into a workers-rs `Response` costs five calls into the
/// platform, and turning that back a new `Response` around its body), or
/// one the entry built.
pub enum Answer {
    Object(web_sys::Response),
    Built(Response),
}

impl From<Response> for Answer {
    fn from(response: Response) -> Self {
        Answer::Built(response)
    }
}

impl Answer {
    /// The platform's `Response`.
    pub fn into_raw(self) -> web_sys::Response {
        match self {
            Answer::Object(raw) => raw,
            Answer::Built(response) => response.into(),
        }
    }

    /// The answer's status.
    pub fn status(&self) -> u16 {
        match self {
            Answer::Object(raw) => raw.status(),
            Answer::Built(response) => response.status_code(),
        }
    }

    /// A workers-rs `Response`, for the entry's own routes that read an
    /// object's answer (`subscribeToEventsFrom`).
    pub fn into_response(self) -> Response {
        match self {
            Answer::Object(raw) => raw.into(),
            Answer::Built(response) => response,
        }
    }
}
