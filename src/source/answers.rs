//! Reading the answers a source gets (docs/design.md §15 "Failures"): the
//! stream's answer to an append (the offsets it gave, or how the run ends),
//! and the consistency checks on an RPC node's logs — every returned log
//! must belong to the block, or the range, that was asked for, under one
//! hash per block. Pure: each returns what it found or why not.

use super::abi::{self, Log};
use super::effect::{AppendAnswer, Finish};
use super::rpc::{Header, RpcFailure};
use crate::limits::MAX_ERROR_CHARS;
use serde_json::Value;
use std::collections::BTreeMap;

/// `text` cut to what a `lastError` holds (§11).
pub(super) fn error_text(text: &str) -> String {
    text.chars().take(MAX_ERROR_CHARS).collect()
}

/// The offsets an append answer gives the batch's events (checked against
/// the keys sent, in order), or how the run ends: 429 and 5xx are
/// transient, other refusals permanent (an `idempotency_key_reused` means
/// the stream holds other events under the source's keys).
pub(super) fn append_offsets(stream: &str, answer: &AppendAnswer, keys: &[String]) -> Result<Vec<u64>, Finish> {
    let (status, body) = match answer {
        AppendAnswer::Failed(error) => {
            return Err(Finish::Transient {
                reason: error_text(&format!("append to {stream} failed: {error}")),
                retry_after_ms: None,
            })
        }
        AppendAnswer::Response { status, body, .. } => (*status, body),
    };
    if !(200..300).contains(&status) {
        return Err(append_refused(stream, status, body));
    }
    let events = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|answer| answer.get("events").and_then(Value::as_array).cloned())
        .unwrap_or_default();
    let matches = events.len() == keys.len()
        && events
            .iter()
            .zip(keys)
            .all(|(event, key)| event.get("idempotencyKey").and_then(Value::as_str) == Some(key.as_str()));
    let offsets: Option<Vec<u64>> = events
        .iter()
        .map(|event| event.get("offset").and_then(Value::as_u64))
        .collect();
    match (matches, offsets) {
        (true, Some(offsets)) => Ok(offsets),
        _ => Err(Finish::Transient {
            reason: format!("append to {stream}: the answer does not list the batch's events"),
            retry_after_ms: None,
        }),
    }
}

/// How a refused append ends the run: the §2 error's code and message (or
/// an excerpt of the body), transient for 429 and 5xx.
fn append_refused(stream: &str, status: u16, body: &[u8]) -> Finish {
    let message = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|error| {
            let code = error.pointer("/error/code")?.as_str()?.to_owned();
            let message = error.pointer("/error/message")?.as_str()?.to_owned();
            Some(format!("{code}: {message}"))
        })
        .unwrap_or_else(|| crate::text::excerpt(&String::from_utf8_lossy(body)));
    let reason = error_text(&format!("append to {stream} answered {status}: {message}"));
    if status == 429 || status >= 500 {
        Finish::Transient {
            reason,
            retry_after_ms: None,
        }
    } else {
        Finish::Permanent(reason)
    }
}

/// A block's logs (read by its hash) all belong to that block.
pub(super) fn check_block_logs(header: &Header, logs: &[Log]) -> Result<(), RpcFailure> {
    match logs
        .iter()
        .find(|log| log.block_hash != header.hash || log.block_number != header.number)
    {
        Some(log) => Err(RpcFailure::inconsistent(format!(
            "logs of block {} ({}) include one of block {} ({})",
            header.number,
            abi::word_hex(&header.hash),
            log.block_number,
            abi::word_hex(&log.block_hash)
        ))),
        None => Ok(()),
    }
}

/// A range's logs lie in `from..=to`, under one hash per block.
pub(super) fn check_range_logs(from: u64, to: u64, logs: &[Log]) -> Result<(), RpcFailure> {
    let mut hashes: BTreeMap<u64, alloy_primitives::B256> = BTreeMap::new();
    for log in logs {
        if log.block_number < from || log.block_number > to {
            return Err(RpcFailure::inconsistent(format!(
                "logs of blocks {from}..={to} include one of block {}",
                log.block_number
            )));
        }
        if *hashes.entry(log.block_number).or_insert(log.block_hash) != log.block_hash {
            return Err(RpcFailure::inconsistent(format!(
                "two hashes for block {} in one answer",
                log.block_number
            )));
        }
    }
    Ok(())
}

/// The range's last block exists, and its logs carry its hash: the header
/// that anchors the range.
pub(super) fn check_range_anchor(to: u64, header: Option<Header>, logs: &[Log]) -> Result<Header, RpcFailure> {
    let Some(header) = header.filter(|header| header.number == to) else {
        return Err(RpcFailure::inconsistent(format!("finalized block {to} is missing")));
    };
    if logs
        .iter()
        .any(|log| log.block_number == to && log.block_hash != header.hash)
    {
        return Err(RpcFailure::inconsistent(format!(
            "logs of block {to} carry another hash than the block"
        )));
    }
    Ok(header)
}

/// A header read by number is the block asked for.
pub(super) fn check_header_number(number: u64, header: &Header) -> Result<(), RpcFailure> {
    if header.number == number {
        Ok(())
    } else {
        Err(RpcFailure::inconsistent(format!(
            "asked for block {number}, got block {}",
            header.number
        )))
    }
}
