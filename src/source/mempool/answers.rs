//! Reading a node's answers to the mempool source (docs/design.md §15.1): the
//! filter id `eth_newPendingTransactionFilter` gives, the hashes
//! `eth_getFilterChanges` gives, a transaction `eth_getTransactionByHash`
//! gives, and a refusal saying the node no longer knows the filter. Every
//! answer is checked for shape; one that does not parse is an inconsistent
//! answer (transient, §15 "Failures").

use super::calldata::{parse_u256, PendingTx};
use crate::limits::MAX_MEMPOOL_FILTER_ID_BYTES;
use crate::source::abi;
use crate::source::rpc::{parse_quantity, RpcCall, RpcFailure};
use alloy_primitives::Address;
use serde_json::value::RawValue;
use serde_json::Value;
use std::str::FromStr;

fn unreadable(call: &RpcCall, what: &str) -> RpcFailure {
    RpcFailure::inconsistent(format!("{} on rpcUrls[{}]: {what}", call.method, call.url_index))
}

/// Whether a failed `eth_getFilterChanges` says the filter is gone (nodes
/// drop idle filters, and forget them on restart): geth, Erigon and Besu
/// answer "filter not found", Nethermind "Filter with id … does not exist".
pub fn forgot_filter(failure: &RpcFailure) -> bool {
    let text = failure.to_string().to_ascii_lowercase();
    let Some((_, message)) = text.split_once("json-rpc error") else {
        return false;
    };
    message.contains("filter")
        && ["not found", "does not exist", "unknown", "expired", "not exist"]
            .iter()
            .any(|phrase| message.contains(phrase))
}

/// The id of a new filter: a `0x` hex string.
pub fn filter_id(call: &RpcCall, raw: &RawValue) -> Result<String, RpcFailure> {
    let id: String = serde_json::from_str(raw.get()).map_err(|_| unreadable(call, "the filter id is not a string"))?;
    let hex = id.strip_prefix("0x").unwrap_or("");
    if hex.is_empty() || id.len() > MAX_MEMPOOL_FILTER_ID_BYTES || !hex.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return Err(unreadable(call, "the filter id is not a 0x hex string"));
    }
    Ok(id)
}

/// The transaction hashes of a pending-transaction filter's changes, in
/// the node's order, repeats dropped.
pub fn hashes(call: &RpcCall, raw: &RawValue) -> Result<Vec<String>, RpcFailure> {
    let list: Vec<&str> =
        serde_json::from_str(raw.get()).map_err(|_| unreadable(call, "the changes are not an array of hashes"))?;
    let mut hashes: Vec<String> = Vec::with_capacity(list.len());
    let mut seen = std::collections::BTreeSet::new();
    for text in list {
        let hash = abi::parse_word(text).ok_or_else(|| unreadable(call, "a change is not a transaction hash"))?;
        let hash = abi::word_hex(&hash);
        if seen.insert(hash.clone()) {
            hashes.push(hash);
        }
    }
    Ok(hashes)
}

/// The transaction `hash` names, or `None` when the node no longer has it
/// (dropped or replaced since it was announced).
pub fn transaction(call: &RpcCall, raw: &RawValue, hash: &str) -> Result<Option<PendingTx>, RpcFailure> {
    let value: Value = serde_json::from_str(raw.get()).map_err(|_| unreadable(call, "unreadable transaction"))?;
    if value.is_null() {
        return Ok(None);
    }
    let bad = |what: &str| unreadable(call, &format!("transaction {hash} {what}"));
    let text = |name: &str| value.get(name).and_then(Value::as_str);
    let address = |name: &str| {
        text(name)
            .filter(|raw| raw.len() == 42 && raw.starts_with("0x"))
            .and_then(|raw| Address::from_str(raw).ok())
    };
    let got = text("hash")
        .and_then(abi::parse_word)
        .ok_or_else(|| bad("has no hash"))?;
    if abi::word_hex(&got) != hash {
        return Err(bad(&format!("is answered with transaction {}", abi::word_hex(&got))));
    }
    let to = match value.get("to") {
        None | Some(Value::Null) => None,
        Some(_) => Some(address("to").ok_or_else(|| bad("has a malformed to"))?),
    };
    Ok(Some(PendingTx {
        hash: got,
        from: address("from").ok_or_else(|| bad("has no valid from"))?,
        to,
        nonce: value
            .get("nonce")
            .and_then(parse_quantity)
            .ok_or_else(|| bad("has no nonce"))?,
        value: text("value").and_then(parse_u256).ok_or_else(|| bad("has no value"))?,
        input: text("input")
            .and_then(abi::parse_bytes)
            .ok_or_else(|| bad("has no input"))?,
    }))
}
