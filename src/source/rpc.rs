//! Ethereum JSON-RPC for the EVM source (docs/design.md §15): the requests the
//! engine asks the shell to send, the answers it gets back, and how a
//! failure is classified. Our own serde types; nothing here does I/O.
//!
//! Classification (§15 "Failures"): 408, 429, 5xx, timeouts, network errors
//! and inconsistent answers are transient (backoff, next URL); malformed
//! requests and unsupported methods (HTTP 400/405/501, JSON-RPC -32600,
//! -32601, -32700) and other 4xx are permanent (the source stops, `failed`).
//! A JSON-RPC error answering a block-range `eth_getLogs` first halves the
//! range (providers cap ranges and result counts).

use super::abi::{self, Log};
use crate::limits::{MAX_SAFE_INTEGER, SOURCE_RPC_TIMEOUT_MS};
use alloy_primitives::{Address, B256};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::str::FromStr;

/// One JSON-RPC request for the shell to POST (`content-type: application/json`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcCall {
    pub url: String,
    /// Which of `rpcUrls` (for messages: URLs may carry API keys, so they
    /// never appear in errors or logs).
    pub url_index: usize,
    pub method: &'static str,
    pub id: u64,
    pub body: String,
    /// Deadline of the whole exchange, headers and body.
    pub timeout_ms: u64,
}

/// What became of an [`RpcCall`], as the shell saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RpcAnswer {
    Response {
        status: u16,
        retry_after: Option<String>,
        body: Vec<u8>,
    },
    /// The body exceeded the response cap (§12) and was not read.
    TooLarge,
    Timeout,
    Network(String),
    /// Not sent: the URL breaks this deployment's URL rules (§9, §15; see
    /// [`screen`]).
    Refused(String),
}

/// Re-checks a call's URL against the deployment's rules right before it is
/// sent (§15: the rules are those of webhooks, §9, and are re-checked at
/// send time as webhooks are, since a deployment can change them — e.g.
/// `ALLOW_INSECURE_WEBHOOKS` turned off after a local RPC URL was
/// accepted). `Some` is the answer to use instead of sending: the run ends
/// as a transient failure naming the rule (the next run rotates to the next
/// URL), so a source never sends silently to a refused URL.
pub fn screen(call: &RpcCall, allow_insecure: bool) -> Option<RpcAnswer> {
    crate::webhook::url_rules::check(&call.url, allow_insecure)
        .err()
        .map(RpcAnswer::Refused)
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RpcFailure {
    #[error("{reason}")]
    Transient {
        reason: String,
        retry_after_ms: Option<u64>,
    },
    #[error("{0}")]
    Permanent(String),
    /// A JSON-RPC error (or an oversized answer) to a block-range `eth_getLogs`.
    #[error("{0}")]
    RangeRefused(String),
}

impl RpcFailure {
    fn transient(reason: impl Into<String>) -> Self {
        RpcFailure::Transient {
            reason: reason.into(),
            retry_after_ms: None,
        }
    }
    /// An answer that contradicts the request or itself (another node's view,
    /// a reorg between calls, a broken proxy): transient.
    pub fn inconsistent(reason: impl Into<String>) -> Self {
        RpcFailure::transient(format!("inconsistent answer: {}", reason.into()))
    }
}

pub fn call(url: &str, url_index: usize, id: u64, method: &'static str, params: Value) -> RpcCall {
    RpcCall {
        url: url.to_owned(),
        url_index,
        method,
        id,
        body: json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        timeout_ms: SOURCE_RPC_TIMEOUT_MS,
    }
}

pub fn quantity(n: u64) -> String {
    format!("0x{n:x}")
}

/// A JSON-RPC answer, its `result` left unparsed (a range of logs can be
/// megabytes: it is parsed once, into typed rows, never into a `Value` tree).
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default)]
    id: Value,
    /// `Some("null")` for `"result": null` (no such block), `None` when absent.
    #[serde(default, borrow, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(default)]
    error: Option<ErrorObject>,
}

/// Keeps a present `null` apart from an absent field.
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

#[derive(Deserialize)]
struct ErrorObject {
    code: i64,
    #[serde(default)]
    message: String,
}

fn retry_after_ms(header: Option<&str>) -> Option<u64> {
    header?
        .trim()
        .parse::<u64>()
        .ok()
        .map(|seconds| seconds.saturating_mul(1000))
}

fn error_message(code: i64, message: &str) -> String {
    let message = crate::text::excerpt(message);
    format!("JSON-RPC error {code}: {message}")
}

/// The `result` of a JSON-RPC answer to request `id`, or why not. `range`
/// marks a block-range `eth_getLogs`.
pub fn result<'a>(call: &RpcCall, answer: &'a RpcAnswer, range: bool) -> Result<&'a RawValue, RpcFailure> {
    let where_ = format!("{} on rpcUrls[{}]", call.method, call.url_index);
    let (status, retry_after, body) = match answer {
        RpcAnswer::Response {
            status,
            retry_after,
            body,
        } => (*status, retry_after.as_deref(), body),
        RpcAnswer::TooLarge if range => return Err(RpcFailure::RangeRefused(format!("{where_}: answer too large"))),
        RpcAnswer::TooLarge => return Err(RpcFailure::transient(format!("{where_}: answer too large"))),
        RpcAnswer::Timeout => return Err(RpcFailure::transient(format!("{where_}: timed out"))),
        RpcAnswer::Network(error) => {
            let error = crate::text::excerpt(error);
            return Err(RpcFailure::transient(format!("{where_}: network error: {error}")));
        }
        RpcAnswer::Refused(rule) => {
            return Err(RpcFailure::transient(format!(
                "{where_}: not sent, the URL is refused by this deployment's URL rules: {rule}"
            )))
        }
    };
    let envelope = serde_json::from_slice::<Envelope<'a>>(body).ok();
    if let Some(Envelope { error: Some(error), .. }) = &envelope {
        let message = format!("{where_}: {}", error_message(error.code, &error.message));
        return Err(match error.code {
            -32700 | -32600 | -32601 => RpcFailure::Permanent(message),
            _ if range => RpcFailure::RangeRefused(message),
            -32602 => RpcFailure::Permanent(message),
            _ => RpcFailure::Transient {
                reason: message,
                retry_after_ms: retry_after_ms(retry_after),
            },
        });
    }
    match status {
        200..=299 => {}
        408 | 429 | 500 | 502..=599 => {
            return Err(RpcFailure::Transient {
                reason: format!("{where_}: HTTP {status}"),
                retry_after_ms: retry_after_ms(retry_after),
            })
        }
        _ => return Err(RpcFailure::Permanent(format!("{where_}: HTTP {status}"))),
    }
    let Some(envelope) = envelope else {
        return Err(RpcFailure::inconsistent(format!("{where_}: not a JSON-RPC answer")));
    };
    if envelope.id != json!(call.id) {
        return Err(RpcFailure::inconsistent(format!(
            "{where_}: answers request id {} instead of {}",
            envelope.id, call.id
        )));
    }
    envelope
        .result
        .ok_or_else(|| RpcFailure::inconsistent(format!("{where_}: neither result nor error")))
}

/// A hex quantity below 2^53.
pub fn parse_quantity(value: &Value) -> Option<u64> {
    let digits = value.as_str()?.strip_prefix("0x")?;
    if digits.is_empty() || digits.len() > 14 {
        return None;
    }
    u64::from_str_radix(digits, 16).ok().filter(|n| *n <= MAX_SAFE_INTEGER)
}

fn small(call: &RpcCall, raw: &RawValue) -> Result<Value, RpcFailure> {
    serde_json::from_str(raw.get()).map_err(|_| {
        RpcFailure::inconsistent(format!(
            "{} on rpcUrls[{}]: unreadable result",
            call.method, call.url_index
        ))
    })
}

/// `eth_chainId` / `eth_blockNumber`.
pub fn parse_number(call: &RpcCall, raw: &RawValue) -> Result<u64, RpcFailure> {
    parse_quantity(&small(call, raw)?).ok_or_else(|| {
        RpcFailure::inconsistent(format!(
            "{} on rpcUrls[{}] is not a hex quantity",
            call.method, call.url_index
        ))
    })
}

/// A block header: what the window keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub number: u64,
    pub hash: B256,
    pub parent_hash: B256,
}

/// `eth_getBlockByNumber` / `eth_getBlockByHash` (`null`: no such block).
pub fn parse_header(call: &RpcCall, raw: &RawValue) -> Result<Option<Header>, RpcFailure> {
    let value = small(call, raw)?;
    if value.is_null() {
        return Ok(None);
    }
    let bad = |what: &str| RpcFailure::inconsistent(format!("{} on rpcUrls[{}]: {what}", call.method, call.url_index));
    let number = value
        .get("number")
        .and_then(parse_quantity)
        .ok_or_else(|| bad("block without a number"))?;
    let hash = value
        .get("hash")
        .and_then(Value::as_str)
        .and_then(abi::parse_word)
        .ok_or_else(|| bad("block without a hash"))?;
    let parent_hash = value
        .get("parentHash")
        .and_then(Value::as_str)
        .and_then(abi::parse_word)
        .ok_or_else(|| bad("block without a parentHash"))?;
    Ok(Some(Header {
        number,
        hash,
        parent_hash,
    }))
}

/// One log as it arrives (borrowed from the body where possible).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawLog<'a> {
    #[serde(borrow)]
    address: Option<Cow<'a, str>>,
    #[serde(borrow)]
    topics: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow)]
    data: Option<Cow<'a, str>>,
    #[serde(borrow)]
    block_number: Option<Cow<'a, str>>,
    #[serde(borrow)]
    block_hash: Option<Cow<'a, str>>,
    #[serde(borrow)]
    transaction_hash: Option<Cow<'a, str>>,
    #[serde(borrow)]
    transaction_index: Option<Cow<'a, str>>,
    #[serde(borrow)]
    log_index: Option<Cow<'a, str>>,
    #[serde(default)]
    removed: Option<bool>,
}

fn hex_quantity(text: Option<&Cow<'_, str>>) -> Option<u64> {
    let digits = text?.strip_prefix("0x")?;
    if digits.is_empty() || digits.len() > 14 {
        return None;
    }
    u64::from_str_radix(digits, 16).ok().filter(|n| *n <= MAX_SAFE_INTEGER)
}

/// `eth_getLogs`: every log checked for shape and `removed: false`.
pub fn parse_logs(call: &RpcCall, raw: &RawValue, max: usize) -> Result<Vec<Log>, RpcFailure> {
    let where_ = format!("{} on rpcUrls[{}]", call.method, call.url_index);
    let list: Vec<RawLog<'_>> = serde_json::from_str(raw.get())
        .map_err(|error| RpcFailure::inconsistent(format!("{where_}: logs are not an array of logs: {error}")))?;
    if list.len() > max {
        return Err(RpcFailure::RangeRefused(format!(
            "{where_}: {} logs in one answer (more than {max})",
            list.len()
        )));
    }
    let mut logs = Vec::with_capacity(list.len());
    for (position, raw) in list.iter().enumerate() {
        let bad = |what: &str| RpcFailure::inconsistent(format!("{where_}: log {position} {what}"));
        if raw.removed == Some(true) {
            return Err(bad("is marked removed"));
        }
        let word = |text: &Option<Cow<'_, str>>| text.as_deref().and_then(abi::parse_word);
        let address = raw
            .address
            .as_deref()
            .filter(|text| text.len() == 42 && text.starts_with("0x"))
            .and_then(|text| Address::from_str(text).ok())
            .ok_or_else(|| bad("has no valid address"))?;
        let topics = raw
            .topics
            .as_ref()
            .filter(|topics| topics.len() <= 4)
            .and_then(|topics| {
                topics
                    .iter()
                    .map(|topic| abi::parse_word(topic))
                    .collect::<Option<Vec<B256>>>()
            })
            .ok_or_else(|| bad("has malformed topics"))?;
        let data = raw
            .data
            .as_deref()
            .and_then(abi::parse_bytes)
            .ok_or_else(|| bad("has malformed data"))?;
        logs.push(Log {
            address,
            topics,
            data,
            block_number: hex_quantity(raw.block_number.as_ref()).ok_or_else(|| bad("has no blockNumber"))?,
            block_hash: word(&raw.block_hash).ok_or_else(|| bad("has no blockHash"))?,
            transaction_hash: word(&raw.transaction_hash).ok_or_else(|| bad("has no transactionHash"))?,
            transaction_index: hex_quantity(raw.transaction_index.as_ref())
                .ok_or_else(|| bad("has no transactionIndex"))?,
            log_index: hex_quantity(raw.log_index.as_ref()).ok_or_else(|| bad("has no logIndex"))?,
        });
    }
    logs.sort_by_key(|log| (log.block_number, log.log_index));
    Ok(logs)
}

/// The `eth_getLogs` parameter object: `filter` plus a block hash or range.
pub fn logs_params(filter: &Map<String, Value>, scope: LogScope) -> Value {
    let mut params = filter.clone();
    match scope {
        LogScope::Block(hash) => {
            params.insert("blockHash".to_owned(), json!(abi::word_hex(&hash)));
        }
        LogScope::Range { from, to } => {
            params.insert("fromBlock".to_owned(), json!(quantity(from)));
            params.insert("toBlock".to_owned(), json!(quantity(to)));
        }
    }
    json!([params])
}

#[derive(Debug, Clone, Copy)]
pub enum LogScope {
    Block(B256),
    Range { from: u64, to: u64 },
}

/// What a shell sends to check an endpoint's chain at configure time.
pub fn chain_id_call(url: &str, url_index: usize) -> RpcCall {
    call(url, url_index, 1, "eth_chainId", json!([]))
}

/// The chain id in an `eth_chainId` answer.
pub fn parse_chain_id(call: &RpcCall, answer: &RpcAnswer) -> Result<u64, RpcFailure> {
    let raw = result(call, answer, false)?;
    parse_number(call, raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, body: &str) -> RpcAnswer {
        RpcAnswer::Response {
            status,
            retry_after: Some("3".to_owned()),
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn classifies_answers() {
        let call = call("http://x", 0, 7, "eth_blockNumber", json!([]));
        let ok = answer(200, r#"{"jsonrpc":"2.0","id":7,"result":"0x10"}"#);
        assert_eq!(result(&call, &ok, false).map(RawValue::get), Ok("\"0x10\""));
        assert!(matches!(
            result(
                &call,
                &answer(200, r#"{"jsonrpc":"2.0","id":8,"result":"0x10"}"#),
                false
            ),
            Err(RpcFailure::Transient { .. })
        ));
        assert_eq!(
            result(&call, &answer(429, "slow down"), false).map(RawValue::get),
            Err(RpcFailure::Transient {
                reason: "eth_blockNumber on rpcUrls[0]: HTTP 429".to_owned(),
                retry_after_ms: Some(3000)
            })
        );
        assert!(matches!(
            result(&call, &answer(405, ""), false),
            Err(RpcFailure::Permanent(_))
        ));
        assert!(matches!(
            result(
                &call,
                &answer(
                    200,
                    r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no"}}"#
                ),
                false
            ),
            Err(RpcFailure::Permanent(_))
        ));
        assert!(matches!(
            result(
                &call,
                &answer(
                    200,
                    r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32005,"message":"limit"}}"#
                ),
                true
            ),
            Err(RpcFailure::RangeRefused(_))
        ));
        let null = answer(200, r#"{"jsonrpc":"2.0","id":7,"result":null}"#);
        assert_eq!(
            result(&call, &null, false).map(RawValue::get),
            Ok("null"),
            "a null result (no such block) is an answer"
        );
        assert!(matches!(
            result(&call, &answer(200, r#"{"jsonrpc":"2.0","id":7}"#), false),
            Err(RpcFailure::Transient { .. })
        ));
        assert_eq!(parse_quantity(&json!("0x20000000000000")), None);
        assert_eq!(parse_quantity(&json!("0x1fffffffffffff")), Some(MAX_SAFE_INTEGER));
    }
}
