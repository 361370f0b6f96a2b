//! Event signatures and log decoding for the EVM source (docs/design.md §15),
//! through `alloy-json-abi` (`Event::parse`, the topic-0 selector) and
//! `alloy-dyn-abi` (`decode_log_parts`), and nothing else of alloy.
//!
//! `args` render integers as decimal strings, addresses EIP-55 checksummed,
//! bytes (and the hashes that stand for indexed dynamic values) as `0x` hex,
//! tuples and arrays as JSON arrays. Types are bounded at configure time
//! (nesting and fixed-array sizes), so decoding a hostile log allocates
//! nothing a signature did not allow.

use super::config_error::{invalid, ConfigError};
use crate::limits::{MAX_SOURCE_ABI_TYPE_DEPTH, MAX_SOURCE_ABI_TYPE_SLOTS};
use alloy_dyn_abi::{DynSolType, DynSolValue, EventExt, Specifier};
use alloy_json_abi::Event;
use alloy_primitives::{hex, Address, B256};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::str::FromStr;

/// One log filter as configured (§15): the event's signature, and the
/// contract addresses it must come from (`None`: any).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FilterConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<Vec<String>>,
    pub event: String,
}

/// One filter, ready to match logs.
#[derive(Debug, Clone)]
pub struct CompiledFilter {
    pub event: Event,
    /// `keccak256` of the canonical signature: the log's first topic.
    pub selector: B256,
    /// Lowercase `0x` addresses, or `None` for any address.
    pub addresses: Option<Vec<Address>>,
    /// Argument names in declaration order (`"0"`, `"1"`... for unnamed ones).
    pub arg_names: Vec<String>,
}

/// A `0x` address; mixed case must carry a valid EIP-55 checksum.
pub fn parse_address(raw: &str) -> Result<String, String> {
    let hex_part = raw
        .strip_prefix("0x")
        .ok_or_else(|| "must be a 0x-prefixed 20-byte hex address".to_owned())?;
    if hex_part.len() != 40 || !hex_part.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return Err("must be a 0x-prefixed 20-byte hex address".to_owned());
    }
    let mixed = hex_part.bytes().any(|byte| byte.is_ascii_lowercase())
        && hex_part.bytes().any(|byte| byte.is_ascii_uppercase());
    let address = if mixed {
        Address::parse_checksummed(raw, None).map_err(|_| "fails its EIP-55 checksum".to_owned())?
    } else {
        Address::from_str(raw).map_err(|_| "must be a 0x-prefixed 20-byte hex address".to_owned())?
    };
    Ok(address.to_checksum(None))
}

fn type_bounds(ty: &DynSolType, depth: usize) -> Result<u64, String> {
    if depth > MAX_SOURCE_ABI_TYPE_DEPTH {
        return Err(format!("nests types deeper than {MAX_SOURCE_ABI_TYPE_DEPTH}"));
    }
    let slots = match ty {
        DynSolType::Array(inner) => type_bounds(inner, depth + 1)?,
        DynSolType::FixedArray(inner, size) => {
            let size = u64::try_from(*size).unwrap_or(u64::MAX);
            type_bounds(inner, depth + 1)?.saturating_mul(size)
        }
        DynSolType::Tuple(items) => {
            let mut total = 0u64;
            for item in items {
                total = total.saturating_add(type_bounds(item, depth + 1)?);
            }
            total.max(1)
        }
        _ => 1,
    };
    if slots > MAX_SOURCE_ABI_TYPE_SLOTS {
        return Err(format!("holds more than {MAX_SOURCE_ABI_TYPE_SLOTS} values"));
    }
    Ok(slots)
}

/// One parameter of a signature (an event's or a function's, §15, §15.1),
/// checked against the type bounds: its name in `args` (`"0"`, `"1"`...
/// when unnamed), which no earlier parameter in `seen` may share.
pub(super) fn checked_arg_name(
    field: &str,
    position: usize,
    name: &str,
    ty: Result<DynSolType, alloy_dyn_abi::Error>,
    seen: &[String],
) -> Result<String, ConfigError> {
    let ty = ty.map_err(|error| invalid(field, format!("parameter {position}: {error}")))?;
    type_bounds(&ty, 0).map_err(|problem| invalid(field, format!("parameter {position} {problem}")))?;
    let name = if name.is_empty() {
        position.to_string()
    } else {
        name.to_owned()
    };
    if seen.contains(&name) {
        return Err(invalid(field, format!("names parameter '{name}' twice")));
    }
    Ok(name)
}

/// Compiles filter `index` (422 naming `filters[i].event` or `.address`).
pub fn compile(index: usize, filter: &FilterConfig) -> Result<CompiledFilter, ConfigError> {
    let field = format!("filters[{index}].event");
    let event =
        Event::parse(&filter.event).map_err(|error| invalid(&field, format!("is not an event signature: {error}")))?;
    if event.anonymous {
        return Err(invalid(
            &field,
            "is anonymous; a source matches logs by their topic-0 selector",
        ));
    }
    let mut arg_names = Vec::with_capacity(event.inputs.len());
    for (position, input) in event.inputs.iter().enumerate() {
        let name = checked_arg_name(&field, position, &input.name, input.resolve(), &arg_names)?;
        arg_names.push(name);
    }
    if event.num_topics() > 4 {
        return Err(invalid(&field, "has more than 3 indexed parameters"));
    }
    // Resolving the whole event checks what decoding will need.
    event
        .resolve()
        .map_err(|error| invalid(&field, format!("cannot be decoded: {error}")))?;
    let addresses = match &filter.address {
        None => None,
        Some(list) => {
            let mut parsed = Vec::with_capacity(list.len());
            for (position, raw) in list.iter().enumerate() {
                let address = Address::from_str(raw)
                    .map_err(|_| invalid(format!("filters[{index}].address[{position}]"), "is not an address"))?;
                parsed.push(address);
            }
            Some(parsed)
        }
    };
    Ok(CompiledFilter {
        selector: event.selector(),
        event,
        addresses,
        arg_names,
    })
}

/// What one `eth_getLogs` call asks for, covering every filter: the union of
/// addresses (or any, if one filter takes any) and of topic-0 selectors. Logs
/// are then matched filter by filter.
pub fn request_filter(filters: &[CompiledFilter]) -> Map<String, Value> {
    let mut filter = Map::new();
    let any_address = filters.iter().any(|filter| filter.addresses.is_none());
    if !any_address {
        let mut addresses: Vec<String> = filters
            .iter()
            .flat_map(|filter| filter.addresses.iter().flatten())
            .map(|address| hex::encode_prefixed(address.as_slice()))
            .collect();
        addresses.sort();
        addresses.dedup();
        filter.insert("address".to_owned(), json!(addresses));
    }
    let mut selectors: Vec<String> = filters
        .iter()
        .map(|filter| hex::encode_prefixed(filter.selector.as_slice()))
        .collect();
    selectors.sort();
    selectors.dedup();
    filter.insert("topics".to_owned(), json!([selectors]));
    filter
}

/// One log as the RPC returned it, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Log {
    pub address: Address,
    pub topics: Vec<B256>,
    pub data: Vec<u8>,
    pub block_number: u64,
    pub block_hash: B256,
    pub transaction_hash: B256,
    pub transaction_index: u64,
    pub log_index: u64,
}

/// The decoded `args` of `log` under the first filter that matches it (its
/// address, its selector, and a clean decode — an ERC-721 `Transfer` shares
/// the ERC-20 selector but not its topic count), or `None`.
pub fn decode(filters: &[CompiledFilter], log: &Log) -> Option<(usize, Value)> {
    let topic0 = log.topics.first()?;
    filters.iter().enumerate().find_map(|(index, filter)| {
        if filter.selector != *topic0 {
            return None;
        }
        if let Some(addresses) = &filter.addresses {
            if !addresses.contains(&log.address) {
                return None;
            }
        }
        let decoded = filter
            .event
            .decode_log_parts(log.topics.iter().copied(), &log.data)
            .ok()?;
        let mut indexed = decoded.indexed.into_iter();
        let mut body = decoded.body.into_iter();
        let mut args = Map::new();
        for (input, name) in filter.event.inputs.iter().zip(&filter.arg_names) {
            let value = if input.indexed { indexed.next() } else { body.next() }?;
            args.insert(name.clone(), render(&value));
        }
        Some((index, Value::Object(args)))
    })
}

/// A decoded value as JSON (§15): integers as decimal strings, addresses
/// checksummed, bytes as `0x` hex.
pub fn render(value: &DynSolValue) -> Value {
    match value {
        DynSolValue::Bool(flag) => Value::Bool(*flag),
        DynSolValue::Int(number, _) => Value::String(number.to_string()),
        DynSolValue::Uint(number, _) => Value::String(number.to_string()),
        DynSolValue::FixedBytes(word, size) => {
            let bytes = word.as_slice().get(..*size).unwrap_or(word.as_slice());
            Value::String(hex::encode_prefixed(bytes))
        }
        DynSolValue::Address(address) => Value::String(address.to_checksum(None)),
        DynSolValue::Function(function) => Value::String(hex::encode_prefixed(function.as_slice())),
        DynSolValue::Bytes(bytes) => Value::String(hex::encode_prefixed(bytes)),
        DynSolValue::String(text) => Value::String(text.clone()),
        DynSolValue::Array(items) | DynSolValue::FixedArray(items) | DynSolValue::Tuple(items) => {
            Value::Array(items.iter().map(render).collect())
        }
    }
}

/// `0x` + 64 hex digits, as a word.
pub fn parse_word(raw: &str) -> Option<B256> {
    let digits = raw.strip_prefix("0x")?;
    if digits.len() != 64 {
        return None;
    }
    B256::from_str(raw).ok()
}

/// `0x` + even hex digits, as bytes.
pub fn parse_bytes(raw: &str) -> Option<Vec<u8>> {
    let digits = raw.strip_prefix("0x")?;
    if digits.len() % 2 != 0 {
        return None;
    }
    hex::decode(digits).ok()
}

/// The lowercase `0x` form of a word (block and transaction hashes, topics).
pub fn word_hex(word: &B256) -> String {
    hex::encode_prefixed(word.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(event: &str, address: Option<Vec<&str>>) -> CompiledFilter {
        let config = FilterConfig {
            address: address.map(|list| list.into_iter().map(str::to_owned).collect()),
            event: event.to_owned(),
        };
        match compile(0, &config) {
            Ok(filter) => filter,
            Err(error) => unreachable!("{error}"),
        }
    }

    #[test]
    fn transfer_selector_and_decoding() {
        let transfer = filter(
            "Transfer(address indexed from, address indexed to, uint256 value)",
            None,
        );
        assert_eq!(
            word_hex(&transfer.selector),
            "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
        );
        let from = "0x52908400098527886E0F7030069857D2E4169EE7";
        let to = "0x8617E340B3D01FA5F11F306F4090FD50E238070D";
        let pad = |address: &str| {
            parse_word(&format!(
                "0x000000000000000000000000{}",
                address.trim_start_matches("0x")
            ))
            .unwrap_or_default()
        };
        let mut data = vec![0u8; 32];
        if let Some(last) = data.last_mut() {
            *last = 42;
        }
        let log = Log {
            address: Address::ZERO,
            topics: vec![transfer.selector, pad(from), pad(to)],
            data,
            block_number: 1,
            block_hash: B256::ZERO,
            transaction_hash: B256::ZERO,
            transaction_index: 0,
            log_index: 0,
        };
        let decoded = decode(std::slice::from_ref(&transfer), &log);
        assert_eq!(
            decoded,
            Some((
                0,
                json!({"from": "0x52908400098527886E0F7030069857D2E4169EE7", "to": "0x8617E340B3D01FA5F11F306F4090FD50E238070D", "value": "42"})
            ))
        );
        // ERC-721 Transfer: same selector, one more topic: no match.
        let mut erc721 = log.clone();
        erc721.topics.push(B256::ZERO);
        erc721.data.clear();
        assert_eq!(decode(std::slice::from_ref(&transfer), &erc721), None);
    }
}
