//! A request to another Durable Object, made in one call to the platform
//! (issue 33, `object_fetch.js`): the stub's `fetch` takes the URL and an
//! init, so the platform builds the one request. workers-rs's
//! `Request::new_with_init` made a JavaScript request, then read its
//! method, URL, headers and `cf` back across the wasm boundary; a request
//! built by hand from the instance still took about ten crossings.

use tributary::limits::MAX_OBJECT_ANSWER_BYTES;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use worker::{Headers, Method, Response, Result, Stub};

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

/// Sends `call` to `url` on `object`; the answer's body is
/// streamed on as it is (the entry's forwarding).
pub async fn fetch(object: impl Into<Object>, url: &str, call: ObjectCall<'_>) -> Result<Response> {
    Ok(send(object.into(), url, call).await?.into())
}

/// Sends `call` and reads the whole answer ([`Answer`]).
pub async fn ask(object: impl Into<Object>, url: &str, call: ObjectCall<'_>) -> Result<Answer> {
    Answer::read(send(object.into(), url, call).await?).await
}

/// The object a stub names, callable more than once (a workers-rs `Stub`
/// is handed over whole).
#[derive(Clone)]
pub struct Object(worker::worker_sys::DurableObject);

impl From<Stub> for Object {
    fn from(stub: Stub) -> Self {
        Object(stub.into_rpc())
    }
}

impl From<&Object> for Object {
    fn from(object: &Object) -> Self {
        object.clone()
    }
}

/// An object's whole answer, its body read in one call. A workers-rs
/// `Response` reads a fetched body chunk by chunk, a promise and a copy a
/// chunk (issue 33: a fork's 1,000-event source page is tens of chunks).
pub struct Answer {
    pub status: u16,
    pub headers: Headers,
    pub body: Vec<u8>,
}

impl Answer {
    /// The answer, its body within [`MAX_OBJECT_ANSWER_BYTES`] (a declared
    /// length past it is not read at all).
    async fn read(raw: web_sys::Response) -> Result<Answer> {
        let headers = Headers(raw.headers());
        let too_large = |length: u64| {
            worker::Error::RustError(format!(
                "an object answered {length} bytes, over the {MAX_OBJECT_ANSWER_BYTES}-byte cap"
            ))
        };
        let declared = headers
            .get("content-length")?
            .and_then(|length| length.trim().parse::<u64>().ok());
        if let Some(length) = declared.filter(|length| *length > MAX_OBJECT_ANSWER_BYTES as u64) {
            return Err(too_large(length));
        }
        let body = match raw.body() {
            Some(_) => {
                let bytes = js_sys::Uint8Array::new(&JsFuture::from(raw.array_buffer()?).await?);
                if bytes.length() as usize > MAX_OBJECT_ANSWER_BYTES {
                    return Err(too_large(u64::from(bytes.length())));
                }
                bytes.to_vec()
            }
            None => Vec::new(),
        };
        Ok(Answer {
            status: raw.status(),
            headers,
            body,
        })
    }

    /// The body as text, what is not UTF-8 replaced.
    pub fn lossy_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

#[wasm_bindgen(module = "/src/internal/object_fetch.js")]
extern "C" {
    /// The call on the platform's side in one crossing (`object_fetch.js`):
    /// the stub's `fetch` with the URL and an init, as JavaScript calls it.
    #[wasm_bindgen(catch, js_name = objectFetch)]
    fn object_fetch(
        object: &worker::worker_sys::DurableObject,
        url: &str,
        method: &str,
        headers_json: &str,
        body_kind: u8,
        bytes: &[u8],
        text: &str,
    ) -> std::result::Result<js_sys::Promise, JsValue>;
}

/// `object_fetch.js`'s body kinds.
const NO_BODY: u8 = 0;
const BYTES: u8 = 1;
const TEXT: u8 = 2;

/// Sends `call` to `url` on `object`: the platform's own answer.
pub async fn send(object: Object, url: &str, call: ObjectCall<'_>) -> Result<web_sys::Response> {
    let headers_json = tributary::header_init::object_json(call.headers);
    let (kind, bytes, text) = match call.body {
        // A GET forwarded with a body would be a TypeError.
        Some(CallBody::Bytes(bytes)) if !bytes.is_empty() => (BYTES, bytes, ""),
        Some(CallBody::Text(text)) => (TEXT, &[][..], text),
        _ => (NO_BODY, &[][..], ""),
    };
    let answer = object_fetch(&object.0, url, call.method.as_ref(), &headers_json, kind, bytes, text)?;
    Ok(JsFuture::from(answer).await?.dyn_into::<web_sys::Response>()?)
}
