//! A mempool source's configuration (docs/design.md §15.1): `PUT
//! /v1/sources/{name}` with `{kind: "evm-mempool", rpcUrls, chainId,
//! targetStream, filters: [{to?, function?}], pollMs?}`, validated before
//! anything is stored (422 naming the field) by the same rules as the chain
//! source's (§15): RPC URLs under the webhook URL rules (§9), the chain id
//! checked against every endpoint by the shell, addresses EIP-55 checked.

use super::calldata::{self, CompiledCall};
use crate::limits::MAX_SOURCE_EVENT_SIGNATURE_BYTES as MAX_FUNCTION_SIGNATURE_BYTES;
use crate::source::config::{self as shared, invalid, ConfigError};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use super::calldata::CallFilter;

/// The `kind` of a mempool source.
pub const KIND: &str = "evm-mempool";

/// A validated configuration, as stored and returned (defaults filled in,
/// `to` addresses EIP-55 checksummed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MempoolConfig {
    pub kind: String,
    pub rpc_urls: Vec<String>,
    pub chain_id: u64,
    pub target_stream: String,
    pub filters: Vec<CallFilter>,
    pub poll_ms: u64,
}

impl MempoolConfig {
    /// Whether `other` watches for the same transactions into the same
    /// stream: a PUT changing any of these starts watching afresh; URLs and
    /// the poll interval apply to the running source.
    pub fn same_ingestion(&self, other: &MempoolConfig) -> bool {
        self.chain_id == other.chain_id && self.target_stream == other.target_stream && self.filters == other.filters
    }

    /// The filters, compiled (a stored configuration is re-validated here).
    pub fn compile(&self) -> Result<Vec<CompiledCall>, ConfigError> {
        self.filters
            .iter()
            .enumerate()
            .map(|(index, filter)| calldata::compile(index, filter))
            .collect()
    }
}

const FIELDS: &[&str] = &["kind", "rpcUrls", "chainId", "targetStream", "filters", "pollMs"];

/// The fields of a `kind: "evm-mempool"` body (already a JSON object of
/// bounded size, its name checked). `allow_insecure` is the deployment's
/// `ALLOW_INSECURE_WEBHOOKS` (§9).
pub fn parse_fields(fields: &Map<String, Value>, allow_insecure: bool) -> Result<MempoolConfig, ConfigError> {
    shared::only_fields(fields, FIELDS)?;
    let config = MempoolConfig {
        kind: KIND.to_owned(),
        rpc_urls: shared::rpc_urls(fields.get("rpcUrls"), allow_insecure)?,
        chain_id: shared::chain_id(fields)?,
        target_stream: shared::target_stream(fields)?,
        filters: filters(fields.get("filters"))?,
        poll_ms: shared::poll_ms(fields)?,
    };
    config.compile()?;
    Ok(config)
}

fn filters(value: Option<&Value>) -> Result<Vec<CallFilter>, ConfigError> {
    let list = shared::filter_list(value, "{to?, function?}")?;
    let mut filters = Vec::with_capacity(list.len());
    for (index, filter) in list.iter().enumerate() {
        let fields = filter
            .as_object()
            .ok_or_else(|| invalid(format!("filters[{index}]"), "must be an object {to?, function?}"))?;
        if let Some(unknown) = fields.keys().find(|key| !["to", "function"].contains(&key.as_str())) {
            return Err(invalid(format!("filters[{index}].{unknown}"), "is not a filter field"));
        }
        let to = shared::addresses(fields.get("to"), &format!("filters[{index}].to"))?;
        let function = function(fields.get("function"), index)?;
        filters.push(CallFilter { to, function });
    }
    Ok(filters)
}

fn function(value: Option<&Value>, index: usize) -> Result<Option<String>, ConfigError> {
    let field = format!("filters[{index}].function");
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(signature)) if !signature.trim().is_empty() => {
            if signature.len() > MAX_FUNCTION_SIGNATURE_BYTES {
                return Err(invalid(
                    &field,
                    format!("must be at most {MAX_FUNCTION_SIGNATURE_BYTES} bytes"),
                ));
            }
            Ok(Some(signature.trim().to_owned()))
        }
        Some(_) => Err(invalid(
            &field,
            "must be a function signature such as \"transfer(address to, uint256 amount)\"",
        )),
    }
}
