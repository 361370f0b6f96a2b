//! A request to another Durable Object, built as the platform's own
//! `Request` (issue 33): workers-rs's `Request::new_with_init` turns its
//! options into a new JavaScript object, then reads the new request's
//! method, URL, headers and `cf` back across the wasm boundary into a
//! `worker::Request` that is only handed on; this builds the request once
//! and hands it on as it is.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use worker::{Method, Response, Result, Stub};

/// What one call to an object carries besides its URL.
pub struct ObjectCall<'a> {
    pub method: Method,
    pub headers: &'a [(&'a str, &'a str)],
    /// The body: bytes, or text (a JSON body the sender built).
    pub body: Option<CallBody<'a>>,
}

pub enum CallBody<'a> {
    Bytes(&'a [u8]),
    Text(&'a str),
}

/// Sends `call` to `url` on the object of `stub`.
pub async fn fetch(stub: Stub, url: &str, call: ObjectCall<'_>) -> Result<Response> {
    let headers = web_sys::Headers::new()?;
    for (name, value) in call.headers {
        headers.set(name, value)?;
    }
    let init = web_sys::RequestInit::new();
    init.set_method(call.method.as_ref());
    init.set_headers(&headers);
    match call.body {
        Some(CallBody::Bytes(bytes)) if !bytes.is_empty() => init.set_body(&js_sys::Uint8Array::from(bytes)),
        Some(CallBody::Text(text)) => init.set_body(&text.into()),
        _ => {}
    }
    let request = web_sys::Request::new_with_str_and_init(url, &init)?;
    let object: worker::worker_sys::DurableObject = stub.into_rpc();
    let answer = JsFuture::from(object.fetch_with_request(&request)?).await?;
    Ok(answer.dyn_into::<web_sys::Response>()?.into())
}
