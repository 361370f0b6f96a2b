//! The protocol face of one stream (docs/design.md §17): a Durable Streams
//! request in, an answer out — the same [`Stream`] the native API serves,
//! its log, lifetime and reduced state. The codec beside this folder parses
//! and encodes; this decides against the stream. Waiting (a long-poll at
//! the tail, an SSE response between appends) is the shell's: an answer
//! says when to wait and the shell asks again.
//!
//! - [`store`]: the face's rows (`protocol_face`, `protocol_producers`).
//! - `write`: create (`PUT`), append and close (`POST`), delete.
//! - `read`: catch-up and long-poll reads, `HEAD`, SSE frames.
//! - `lifetime`: expiry — checked at every request, renewed without a write
//!   per read, and what the alarm does.

mod fork;
mod lifetime;
mod read;
pub mod store;
mod write;

pub use fork::Inherited;
pub use read::SseStep;

use super::response::{Headers, SECURITY_HEADERS};
use crate::error::ApiError;
use crate::storage::Storage;
use crate::stream::Stream;
use crate::Inputs;

/// The methods the face serves (`OPTIONS` is the Worker's: CORS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    Put,
    Post,
    Delete,
}

impl Method {
    pub fn parse(method: &str) -> Option<Method> {
        match method {
            "GET" => Some(Method::Get),
            "HEAD" => Some(Method::Head),
            "PUT" => Some(Method::Put),
            "POST" => Some(Method::Post),
            "DELETE" => Some(Method::Delete),
            _ => None,
        }
    }
}

/// One protocol request, as the shell hands it over.
#[derive(Debug, Clone, Copy)]
pub struct ProtocolRequest<'a> {
    pub method: Method,
    /// The URL query without `?`.
    pub query: &'a str,
    pub headers: &'a [(String, String)],
    pub body: &'a [u8],
    /// The stream's URL as the client addressed it (`Location` of a create).
    pub location: &'a str,
    /// A long-poll asked again after a wait: where its first ask resolved
    /// the offset (`now` means the tail *when the poll began*), and whether
    /// the wait ran out.
    pub resumed: Option<Resumed>,
    /// A fork's request asked again with what its source answered (§18).
    pub continued: Option<Continued<'a>>,
}

/// What the shell brings back from a fork's source (after
/// [`Then::AcquireFork`] or [`Then::ReadInherited`]).
#[derive(Debug, Clone, Copy)]
pub enum Continued<'a> {
    Granted(&'a crate::fork::ForkGrant),
    Inherited(&'a Inherited),
}

/// A long-poll's second ask (after [`Then::WaitForAppend`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resumed {
    pub after: u64,
    pub waited_out: bool,
}

/// What the shell does after sending nothing yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Then {
    /// Send this answer.
    Respond,
    /// A long-poll at the tail `after`: wait for an append (up to the
    /// deployment's timeout), then ask again with [`Resumed`].
    WaitForAppend { after: u64 },
    /// Open an SSE response after `after` (its headers are this answer's);
    /// frames come from [`Stream::protocol_sse_step`].
    Sse { after: u64, cursor: Option<u64> },
    /// A fork's creation (§18): ask the source for its prefix (which records
    /// the edge), then ask again with [`Continued::Granted`].
    AcquireFork {
        source: crate::path::StreamPath,
        ask: crate::fork::ForkAsk,
    },
    /// A fork's read below its fork point: read the source's messages after
    /// `after` through `through`, then ask again with [`Continued::Inherited`].
    ReadInherited {
        source: crate::path::StreamPath,
        after: u64,
        through: u64,
    },
}

/// A protocol answer: status, headers, body, and what follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolAnswer {
    pub status: u16,
    pub headers: Headers,
    pub body: Vec<u8>,
    pub then: Then,
}

impl ProtocolAnswer {
    pub fn new(status: u16, headers: Headers, body: Vec<u8>) -> Self {
        ProtocolAnswer {
            status,
            headers,
            body,
            then: Then::Respond,
        }
    }

    /// A refusal: the §2 error body plus the protocol's own headers.
    pub fn refusal(error: impl Into<ApiError>, mut headers: Headers) -> Self {
        let error = error.into();
        headers.push(("Content-Type", "application/json".to_owned()));
        ProtocolAnswer::new(error.status, headers, error.to_json().into_bytes())
    }

    /// Every protocol response carries the security headers (§17 "Browsers").
    pub fn with_security_headers(mut self) -> Self {
        for (name, value) in SECURITY_HEADERS {
            self.headers.push((name, value.to_owned()));
        }
        self
    }
}

/// 404: no stream lives at this path (or it expired).
fn not_found(path: &str) -> ProtocolAnswer {
    ProtocolAnswer::refusal(crate::stream::ReadError::StreamNotFound(path.to_owned()), Vec::new())
}

impl<S: Storage> Stream<S> {
    /// Serves one protocol request (§17). An expired stream is deleted
    /// first, as `DELETE` would, and the request sees no stream.
    pub fn protocol(&mut self, request: &ProtocolRequest<'_>, inputs: &Inputs) -> ProtocolAnswer {
        let soft_deleted = self.expire_if_due(inputs.now_ms).and_then(|_| self.is_soft_deleted());
        let answer = match soft_deleted {
            Err(error) => ProtocolAnswer::refusal(crate::stream::ReadError::from(error), Vec::new()),
            // A soft-deleted stream (§18): its path is not free, and gone.
            Ok(true) if request.method == Method::Put => ProtocolAnswer::refusal(
                crate::fork::ForkRefusal::SourceDeleted(self.path.to_string()),
                Vec::new(),
            ),
            Ok(true) => ProtocolAnswer::refusal(crate::fork::source::gone(self.path.as_str()), Vec::new()),
            Ok(false) => match request.method {
                Method::Put => self.protocol_create(request, inputs),
                Method::Post => self.protocol_append(request, inputs),
                Method::Delete => self.protocol_delete(inputs.now_ms),
                Method::Head => self.protocol_head(inputs),
                Method::Get => self.protocol_read(request, inputs),
            },
        };
        answer.with_security_headers()
    }
}
