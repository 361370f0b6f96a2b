//! A source's configuration (docs/design.md §15): `PUT /v1/sources/{name}` with
//! `{kind: "evm", rpcUrls, chainId, targetStream, filters: [{address?,
//! event}], startBlock?, confirmations?, finalityDepth?, pollMs?}`,
//! validated before anything is stored (422 naming the field). RPC URLs
//! follow the webhook URL rules (§9), relaxed by the same deployment switch.
//! The endpoint's `eth_chainId` is compared by the shell, through
//! [`check_chain_ids`], before the configuration is committed.

use super::abi::{self, CompiledFilter};
use super::rpc::RpcFailure;
use crate::limits::{
    MAX_SAFE_INTEGER, MAX_SOURCE_CONFIG_BYTES, MAX_SOURCE_EVENT_SIGNATURE_BYTES, MAX_SOURCE_FILTERS,
    MAX_SOURCE_FILTER_ADDRESSES, MAX_SOURCE_FINALITY_DEPTH, MAX_SOURCE_NAME_BYTES, MAX_SOURCE_POLL_MS,
    MAX_SOURCE_RPC_URLS, MAX_SOURCE_URL_BYTES, MIN_SOURCE_POLL_MS,
};
use crate::path::StreamPath;
use crate::webhook::url_rules;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use super::abi::FilterConfig;
pub use super::config_error::{invalid, ConfigError};

pub use crate::limits::{
    SOURCE_DEFAULT_CONFIRMATIONS as DEFAULT_CONFIRMATIONS, SOURCE_DEFAULT_FINALITY_DEPTH as DEFAULT_FINALITY_DEPTH,
    SOURCE_DEFAULT_POLL_MS as DEFAULT_POLL_MS,
};

/// A validated configuration, as stored and returned (defaults filled in,
/// filter addresses EIP-55 checksummed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceConfig {
    pub kind: String,
    pub rpc_urls: Vec<String>,
    pub chain_id: u64,
    pub target_stream: String,
    pub filters: Vec<FilterConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_block: Option<u64>,
    pub confirmations: u64,
    pub finality_depth: u64,
    pub poll_ms: u64,
}

impl SourceConfig {
    /// Whether `other` reads the same logs into the same stream: a PUT that
    /// changes any of these restarts ingestion (§15); the rest (URLs,
    /// confirmations, finality, poll interval) apply to the running source.
    pub fn same_ingestion(&self, other: &SourceConfig) -> bool {
        self.chain_id == other.chain_id
            && self.target_stream == other.target_stream
            && self.filters == other.filters
            && self.start_block == other.start_block
    }

    /// The filters, compiled. A stored configuration is re-validated here, so
    /// one that no longer compiles refuses to run rather than running half-valid.
    pub fn compile(&self) -> Result<Vec<CompiledFilter>, ConfigError> {
        self.filters
            .iter()
            .enumerate()
            .map(|(index, filter)| abi::compile(index, filter))
            .collect()
    }
}

/// A source name: one path segment of `/v1/sources/{name}`.
pub fn check_name(name: &str) -> Result<(), ConfigError> {
    if crate::text::is_plain_name(name, MAX_SOURCE_NAME_BYTES) {
        Ok(())
    } else {
        Err(ConfigError::Name)
    }
}

const FIELDS: &[&str] = &[
    "kind",
    "rpcUrls",
    "chainId",
    "targetStream",
    "filters",
    "startBlock",
    "confirmations",
    "finalityDepth",
    "pollMs",
];

/// A non-negative integer below 2^53 (§1), or `None` when absent or null.
pub(super) fn integer(fields: &Map<String, Value>, field: &str) -> Result<Option<u64>, ConfigError> {
    match fields.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => match value.as_u64() {
            Some(n) if n <= MAX_SAFE_INTEGER => Ok(Some(n)),
            _ => Err(invalid(field, "must be a non-negative integer below 2^53")),
        },
    }
}

/// What every source kind checks first (§15): the name, the size, that the
/// body is a JSON object. Its fields are then the kind's to validate.
pub(super) fn body_fields(name: &str, body: &[u8]) -> Result<Map<String, Value>, ConfigError> {
    check_name(name)?;
    if body.len() > MAX_SOURCE_CONFIG_BYTES {
        return Err(ConfigError::TooLarge(body.len()));
    }
    let value: Value = serde_json::from_slice(body).map_err(|error| ConfigError::Malformed(error.to_string()))?;
    match value {
        Value::Object(fields) => Ok(fields),
        _ => Err(invalid("body", "must be a JSON object")),
    }
}

/// Refuses a field `known` does not list.
pub(super) fn only_fields(fields: &Map<String, Value>, known: &[&str]) -> Result<(), ConfigError> {
    match fields.keys().find(|key| !known.contains(&key.as_str())) {
        Some(unknown) => Err(invalid(unknown.clone(), "is not a source field")),
        None => Ok(()),
    }
}

/// Validates a `PUT /v1/sources/{name}` body of `kind: "evm"` (§15).
/// `allow_insecure` is the deployment's `ALLOW_INSECURE_WEBHOOKS` (§9).
pub fn parse(name: &str, body: &[u8], allow_insecure: bool) -> Result<SourceConfig, ConfigError> {
    let fields = body_fields(name, body)?;
    parse_fields(&fields, allow_insecure)
}

/// The fields of a `kind: "evm"` configuration (§15).
pub(super) fn parse_fields(fields: &Map<String, Value>, allow_insecure: bool) -> Result<SourceConfig, ConfigError> {
    only_fields(fields, FIELDS)?;
    match fields.get("kind") {
        Some(Value::String(kind)) if kind == "evm" => {}
        _ => return Err(invalid("kind", "must be \"evm\"")),
    }
    let rpc_urls = rpc_urls(fields.get("rpcUrls"), allow_insecure)?;
    let chain_id = chain_id(fields)?;
    let target_stream = target_stream(fields)?;
    let filters = filters(fields.get("filters"))?;
    let start_block = integer(fields, "startBlock")?;
    let (confirmations, finality_depth, poll_ms) = pacing(fields)?;
    let config = SourceConfig {
        kind: "evm".to_owned(),
        rpc_urls,
        chain_id,
        target_stream,
        filters,
        start_block,
        confirmations,
        finality_depth,
        poll_ms,
    };
    config.compile()?;
    Ok(config)
}

pub(super) fn chain_id(fields: &Map<String, Value>) -> Result<u64, ConfigError> {
    match integer(fields, "chainId")? {
        Some(id) if id >= 1 => Ok(id),
        _ => Err(invalid("chainId", "must be a positive integer below 2^53")),
    }
}

pub(super) fn target_stream(fields: &Map<String, Value>) -> Result<String, ConfigError> {
    match fields.get("targetStream") {
        Some(Value::String(path)) => Ok(StreamPath::parse(path)
            .map_err(|error| invalid("targetStream", format!("is not a stream path: {error}")))?
            .as_str()
            .to_owned()),
        _ => Err(invalid(
            "targetStream",
            "must be a stream path such as \"/chain/transfers\"",
        )),
    }
}

/// `confirmations`, `finalityDepth` and `pollMs`, defaults filled in and bounds checked.
fn pacing(fields: &Map<String, Value>) -> Result<(u64, u64, u64), ConfigError> {
    let confirmations = integer(fields, "confirmations")?.unwrap_or(DEFAULT_CONFIRMATIONS);
    if confirmations > MAX_SOURCE_FINALITY_DEPTH {
        return Err(invalid(
            "confirmations",
            format!("must be at most {MAX_SOURCE_FINALITY_DEPTH}"),
        ));
    }
    let finality_depth = integer(fields, "finalityDepth")?.unwrap_or(DEFAULT_FINALITY_DEPTH);
    if !(1..=MAX_SOURCE_FINALITY_DEPTH).contains(&finality_depth) {
        return Err(invalid(
            "finalityDepth",
            format!("must be 1 to {MAX_SOURCE_FINALITY_DEPTH} blocks"),
        ));
    }
    Ok((confirmations, finality_depth, poll_ms(fields)?))
}

/// `pollMs`, the default filled in and bounds checked.
pub(super) fn poll_ms(fields: &Map<String, Value>) -> Result<u64, ConfigError> {
    let poll_ms = integer(fields, "pollMs")?.unwrap_or(DEFAULT_POLL_MS);
    if !(MIN_SOURCE_POLL_MS..=MAX_SOURCE_POLL_MS).contains(&poll_ms) {
        return Err(invalid(
            "pollMs",
            format!("must be {MIN_SOURCE_POLL_MS} to {MAX_SOURCE_POLL_MS} milliseconds"),
        ));
    }
    Ok(poll_ms)
}

pub(super) fn rpc_urls(value: Option<&Value>, allow_insecure: bool) -> Result<Vec<String>, ConfigError> {
    let list = value
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("rpcUrls", "must be an array of JSON-RPC endpoint URLs"))?;
    if list.is_empty() || list.len() > MAX_SOURCE_RPC_URLS {
        return Err(invalid("rpcUrls", format!("must list 1 to {MAX_SOURCE_RPC_URLS} URLs")));
    }
    let mut urls = Vec::with_capacity(list.len());
    for (index, url) in list.iter().enumerate() {
        let field = format!("rpcUrls[{index}]");
        let url = url.as_str().ok_or_else(|| invalid(&field, "must be a string"))?;
        if url.len() > MAX_SOURCE_URL_BYTES {
            return Err(invalid(&field, format!("must be at most {MAX_SOURCE_URL_BYTES} bytes")));
        }
        url_rules::check(url, allow_insecure).map_err(|problem| invalid(&field, problem))?;
        if urls.iter().any(|seen| seen == url) {
            return Err(invalid(&field, "repeats an earlier URL"));
        }
        urls.push(url.to_owned());
    }
    Ok(urls)
}

/// A source's `filters`: an array of 1 to [`MAX_SOURCE_FILTERS`] entries
/// (`shape` names what an entry holds, for the 422), shared by both kinds.
pub(crate) fn filter_list<'a>(value: Option<&'a Value>, shape: &str) -> Result<&'a Vec<Value>, ConfigError> {
    let list = value
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("filters", format!("must be an array of {shape}")))?;
    if list.is_empty() || list.len() > MAX_SOURCE_FILTERS {
        return Err(invalid(
            "filters",
            format!("must list 1 to {MAX_SOURCE_FILTERS} filters"),
        ));
    }
    Ok(list)
}

fn filters(value: Option<&Value>) -> Result<Vec<FilterConfig>, ConfigError> {
    let list = filter_list(value, "{address?, event}")?;
    let mut filters = Vec::with_capacity(list.len());
    for (index, filter) in list.iter().enumerate() {
        let field = |name: &str| format!("filters[{index}].{name}");
        let fields = filter
            .as_object()
            .ok_or_else(|| invalid(format!("filters[{index}]"), "must be an object {address?, event}"))?;
        if let Some(unknown) = fields.keys().find(|key| !["address", "event"].contains(&key.as_str())) {
            return Err(invalid(field(unknown), "is not a filter field"));
        }
        let event = match fields.get("event") {
            Some(Value::String(event)) if !event.trim().is_empty() => event.trim().to_owned(),
            _ => {
                return Err(invalid(
                    field("event"),
                    "must be an event signature such as \"Transfer(address indexed from, address indexed to, uint256 value)\"",
                ))
            }
        };
        if event.len() > MAX_SOURCE_EVENT_SIGNATURE_BYTES {
            return Err(invalid(
                field("event"),
                format!("must be at most {MAX_SOURCE_EVENT_SIGNATURE_BYTES} bytes"),
            ));
        }
        let address = addresses(fields.get("address"), &field("address"))?;
        filters.push(FilterConfig { address, event });
    }
    Ok(filters)
}

/// An optional list of 1 to [`MAX_SOURCE_FILTER_ADDRESSES`] addresses (`None`:
/// any), each EIP-55 checksummed, repeats dropped; errors name `field[i]`.
pub(super) fn addresses(value: Option<&Value>, field: &str) -> Result<Option<Vec<String>>, ConfigError> {
    let list = match value {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(invalid(field, "must be an array of addresses")),
    };
    if list.is_empty() || list.len() > MAX_SOURCE_FILTER_ADDRESSES {
        return Err(invalid(
            field,
            format!("must list 1 to {MAX_SOURCE_FILTER_ADDRESSES} addresses (omit it for any address)"),
        ));
    }
    let mut checked = Vec::with_capacity(list.len());
    for (position, address) in list.iter().enumerate() {
        let name = format!("{field}[{position}]");
        let raw = address.as_str().ok_or_else(|| invalid(&name, "must be a string"))?;
        let address = abi::parse_address(raw).map_err(|problem| invalid(&name, problem))?;
        if !checked.contains(&address) {
            checked.push(address);
        }
    }
    Ok(Some(checked))
}

/// The chain id every RPC URL answered (`eth_chainId`), in `rpcUrls` order:
/// an unreachable or failing endpoint is 422 on `rpcUrls`, a different chain
/// 422 on `chainId` (§15).
pub fn check_chain_ids(config: &SourceConfig, answers: &[Result<u64, RpcFailure>]) -> Result<(), ConfigError> {
    check_chain_id_answers(config.chain_id, answers)
}

/// [`check_chain_ids`] for any source kind configured with `expected`.
pub fn check_chain_id_answers(expected: u64, answers: &[Result<u64, RpcFailure>]) -> Result<(), ConfigError> {
    for (index, answer) in answers.iter().enumerate() {
        match answer {
            Ok(chain_id) if *chain_id == expected => {}
            Ok(chain_id) => {
                return Err(invalid(
                    "chainId",
                    format!("is {expected}, but rpcUrls[{index}] serves chain {chain_id}"),
                ))
            }
            Err(failure) => {
                return Err(invalid(
                    "rpcUrls",
                    format!("rpcUrls[{index}] did not answer eth_chainId: {failure}"),
                ))
            }
        }
    }
    Ok(())
}
