//! An incoming request, kept as the platform's own object (issue 33): the
//! Worker's, and the stream object's. Converting it into a workers-rs
//! `Request` reads its `cf` property, which makes the runtime parse and
//! deep-freeze the whole `cf` object of an edge request — about 4 % of a
//! single append's CPU, for a property Tributary never reads. The API
//! routes, the stream object's engine routes and its Durable Streams face
//! read the headers, the method and the body from this instead; a route
//! that needs a workers-rs `Request` (the console, the source routes, live
//! connections, fork calls) converts it with [`Incoming::into_request`].

use futures_util::future::LocalBoxFuture;
use tributary::route::Target;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use worker::{ByteStream, Headers, Method, Request, Result};

pub struct Incoming {
    raw: web_sys::Request,
    /// Read once: each read of the request's method or headers is a call
    /// into the runtime (`bench/calls.mjs` counts them).
    method: Method,
    headers: web_sys::Headers,
}

impl Incoming {
    pub fn new(raw: web_sys::Request) -> Self {
        let method = Method::from(raw.method());
        let headers = raw.headers();
        Incoming { raw, method, headers }
    }

    pub fn headers(&self) -> Headers {
        Headers(self.headers.clone())
    }

    pub fn method(&self) -> Method {
        self.method.clone()
    }

    /// The request's path and query, read once (`tributary::route::Target`).
    pub fn target(&self) -> Result<Target> {
        Target::of(&self.raw.url()).map_err(worker::Error::RustError)
    }

    /// At most `max` of the request's headers, names lower-case, in one
    /// call (`incoming.js`).
    pub fn header_pairs(&self, max: usize) -> Result<Vec<(String, String)>> {
        let json = header_pairs(&self.headers, u32::try_from(max).unwrap_or(u32::MAX))?;
        Ok(serde_json::from_str(&json)?)
    }

    /// The workers-rs request, for the routes that need one (reads `cf`).
    pub fn into_request(self) -> Request {
        Request::from(self.raw)
    }
}

#[wasm_bindgen(module = "/src/internal/incoming.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = headerPairs)]
    fn header_pairs(headers: &web_sys::Headers, max: u32) -> std::result::Result<String, JsValue>;
}

/// A request whose body [`crate::internal::request_body`] reads: the
/// Worker's [`Incoming`] one, or the workers-rs one an object receives.
pub trait ReadBody {
    fn headers(&self) -> Headers;
    fn has_body(&self) -> bool;
    /// The whole body (one read, for a declared length within the cap).
    fn bytes(&mut self) -> LocalBoxFuture<'_, Result<Vec<u8>>>;
    /// The body chunk by chunk.
    fn stream(&mut self) -> Result<ByteStream>;
}

impl ReadBody for Incoming {
    fn headers(&self) -> Headers {
        Incoming::headers(self)
    }

    fn has_body(&self) -> bool {
        self.raw.body().is_some()
    }

    fn bytes(&mut self) -> LocalBoxFuture<'_, Result<Vec<u8>>> {
        Box::pin(async move {
            let buffer = JsFuture::from(self.raw.array_buffer()?).await?;
            Ok(js_sys::Uint8Array::new(&buffer).to_vec())
        })
    }

    fn stream(&mut self) -> Result<ByteStream> {
        let body = self
            .raw
            .body()
            .ok_or_else(|| worker::Error::RustError("no body for request".into()))?;
        Ok(ByteStream::from(body))
    }
}

impl ReadBody for Request {
    /// The request's own headers (a workers-rs `Headers::clone` copies
    /// them into a new JavaScript object).
    fn headers(&self) -> Headers {
        Headers(Request::headers(self).0.clone())
    }

    fn has_body(&self) -> bool {
        self.inner().body().is_some()
    }

    fn bytes(&mut self) -> LocalBoxFuture<'_, Result<Vec<u8>>> {
        Box::pin(Request::bytes(self))
    }

    fn stream(&mut self) -> Result<ByteStream> {
        Request::stream(self)
    }
}

/// The path and query of a request an object received (as [`Incoming::target`]).
pub fn target_of(request: &Request) -> Result<Target> {
    Target::of(&request.inner().url()).map_err(worker::Error::RustError)
}
