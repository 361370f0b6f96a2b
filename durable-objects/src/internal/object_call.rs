//! A request to another Durable Object, built as the platform's own
//! `Request` (issue 33): workers-rs's `Request::new_with_init` turns its
//! options into a new JavaScript object, then reads the new request's
//! method, URL, headers and `cf` back across the wasm boundary into a
//! `worker::Request` that is only handed on; this builds the request once
//! and hands it on as it is.

use tributary::limits::MAX_OBJECT_ANSWER_BYTES;
use wasm_bindgen::JsCast;
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

/// Sends `call` to `url` on `object`: the platform's own answer.
async fn send(object: Object, url: &str, call: ObjectCall<'_>) -> Result<web_sys::Response> {
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
    let answer = JsFuture::from(object.0.fetch_with_request(&request)?).await?;
    Ok(answer.dyn_into::<web_sys::Response>()?)
}
