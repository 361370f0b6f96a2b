//! Request bodies read under their route's cap (docs/design.md §12 "request
//! body": read with a streaming cap at the route's limit, chunked or not; 413
//! past it without buffering the rest). A declared `Content-Length` past the
//! cap is refused before any byte is kept; otherwise the JS `ReadableStream`
//! is read chunk by chunk and dropped as soon as the count passes the cap,
//! so a 64 MiB chunked body costs at most the cap and one chunk.
//!
//! Before that 413, a body at most [`OVERSIZED_BODY_DRAIN_BYTES`] past the
//! cap is read to its end and dropped: an answer sent while the client
//! still sends makes workerd close the connection with bytes unread, which
//! resets it, and the client — or `wrangler dev`'s proxy, which then exits
//! — may lose the answer to the reset. A larger body is answered at once.

use crate::internal::incoming::ReadBody;
use crate::internal::responses;
use futures_util::StreamExt;
use tributary::limits::OVERSIZED_BODY_DRAIN_BYTES;
use tributary::route::BodyLimit;
use worker::{ByteStream, Response, Result};

/// The whole body if it fits in `limit`, else `None` (the rest dropped:
/// read to its end when it is small enough to, else unread).
pub async fn read(request: &mut impl ReadBody, limit: BodyLimit) -> Result<Option<Vec<u8>>> {
    let declared = request.headers().get("content-length")?;
    if limit.refuses_declared(declared.as_deref()) {
        let drainable = limit.bytes.saturating_add(OVERSIZED_BODY_DRAIN_BYTES);
        // A client that waits for `100 Continue` has sent no byte of its
        // body: the 413 goes at once (reading would wait for a body that
        // is never sent, and there is nothing in flight to reset).
        let awaits_continue = request
            .headers()
            .get("expect")?
            .is_some_and(|expect| expect.to_ascii_lowercase().contains("100-continue"));
        if !awaits_continue && declared_length(declared.as_deref()).is_some_and(|length| length <= drainable as u64) {
            if let Ok(mut stream) = request.stream() {
                discard(&mut stream, drainable).await;
            }
        }
        return Ok(None);
    }
    if declared_within(declared.as_deref(), limit) {
        // HTTP framing delivers exactly the declared length, which is within
        // the cap: one read, no chunk-by-chunk copy across the JS boundary
        // (a request without a body reads as empty; asking first whether it
        // has one would make the platform wrap its stream for nothing).
        let body = request.bytes().await?;
        return Ok((body.len() <= limit.bytes).then_some(body));
    }
    if !request.has_body() {
        return Ok(Some(Vec::new()));
    }
    let mut stream = request.stream()?;
    let mut body = Vec::new();
    // Budget: a body within the cap arrives in at most `cap + 1` reads even
    // if every chunk is one byte (plus the final end-of-stream read).
    for _read in 0..=limit.bytes.saturating_add(1) {
        match stream.next().await {
            Some(Ok(chunk)) => {
                if body.len().saturating_add(chunk.len()) > limit.bytes {
                    discard(&mut stream, OVERSIZED_BODY_DRAIN_BYTES).await;
                    return Ok(None);
                }
                body.extend_from_slice(&chunk);
            }
            Some(Err(error)) => return Err(error),
            None => return Ok(Some(body)),
        }
    }
    Ok(None)
}

/// Whether the request declares a `Content-Length` that fits `limit`.
fn declared_within(content_length: Option<&str>, limit: BodyLimit) -> bool {
    declared_length(content_length).is_some_and(|length| length <= limit.bytes as u64)
}

/// A declared `Content-Length` as a number (`None`: absent or not one).
fn declared_length(content_length: Option<&str>) -> Option<u64> {
    content_length
        .map(str::trim)
        .filter(|length| !length.is_empty() && length.bytes().all(|byte| byte.is_ascii_digit()))
        .and_then(|length| length.parse::<u64>().ok())
}

/// Reads and drops the rest of a refused body, up to `budget` bytes: a body
/// that ends within it leaves the connection clean. A read error (the
/// client went away) ends it too; nothing is kept either way.
async fn discard(stream: &mut ByteStream, budget: usize) {
    let mut dropped = 0usize;
    // Budget: every read but the last brings at least one byte.
    for _read in 0..=budget.saturating_add(1) {
        match stream.next().await {
            Some(Ok(chunk)) => {
                dropped = dropped.saturating_add(chunk.len());
                if dropped > budget {
                    return;
                }
            }
            Some(Err(_)) | None => return,
        }
    }
}

/// Reads and drops a body of at most `limit` before an error answer, so a
/// keep-alive client can send its next request on the same connection; a
/// larger one is left unread (the connection then closes).
pub async fn drain(request: &mut impl ReadBody, limit: BodyLimit) {
    let _ = read(request, limit).await;
}

/// The 413 of a body past `limit`.
pub fn refuse(limit: BodyLimit) -> Result<Response> {
    responses::from_api(limit.too_large().into())
}

/// [`read`], answering 413 past the limit: `Err(response)` is that answer.
pub async fn read_or_refuse(
    request: &mut impl ReadBody,
    limit: BodyLimit,
) -> Result<std::result::Result<Vec<u8>, Response>> {
    match read(request, limit).await? {
        Some(body) => Ok(Ok(body)),
        None => refuse(limit).map(Err),
    }
}
