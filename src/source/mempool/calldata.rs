//! Matching pending transactions and decoding their calldata (docs/design.md
//! §15.1) with the ABI code of logs (`source::abi`): a function signature
//! parsed by `alloy-json-abi`, its 4-byte selector, the arguments decoded by
//! `alloy-dyn-abi` and rendered as `args` are for logs (integers as decimal
//! strings, addresses checksummed, bytes as `0x` hex). Types are bounded at
//! configure time, as events' are.

use crate::source::abi;
use crate::source::config_error::{invalid, ConfigError};
use alloy_dyn_abi::{JsonAbiExt, Specifier};
use alloy_json_abi::Function;
use alloy_primitives::{Address, B256, U256};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::str::FromStr;

/// One filter: a transaction matches when its `to` is listed (any, when
/// absent) and its calldata is a call of `function` (any, when absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

/// One filter, ready to match transactions.
#[derive(Debug, Clone)]
pub struct CompiledCall {
    /// The function and its argument names (`"0"`, `"1"`... for unnamed ones).
    pub function: Option<(Function, Vec<String>)>,
    /// `None` for any recipient.
    pub to: Option<Vec<Address>>,
}

/// Compiles filter `index` (422 naming `filters[i].function` or `.to`).
pub fn compile(index: usize, filter: &CallFilter) -> Result<CompiledCall, ConfigError> {
    let function = match &filter.function {
        None => None,
        Some(signature) => {
            let field = format!("filters[{index}].function");
            let function = Function::parse(signature)
                .map_err(|error| invalid(&field, format!("is not a function signature: {error}")))?;
            let mut names = Vec::with_capacity(function.inputs.len());
            for (position, input) in function.inputs.iter().enumerate() {
                let name = abi::checked_arg_name(&field, position, &input.name, input.resolve(), &names)?;
                names.push(name);
            }
            Some((function, names))
        }
    };
    let to = match &filter.to {
        None => None,
        Some(list) => {
            let mut parsed = Vec::with_capacity(list.len());
            for (position, raw) in list.iter().enumerate() {
                let address = Address::from_str(raw)
                    .map_err(|_| invalid(format!("filters[{index}].to[{position}]"), "is not an address"))?;
                parsed.push(address);
            }
            Some(parsed)
        }
    };
    Ok(CompiledCall { function, to })
}

/// A pending transaction, as `eth_getTransactionByHash` answered it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingTx {
    pub hash: B256,
    pub from: Address,
    /// `None` for a contract creation.
    pub to: Option<Address>,
    pub nonce: u64,
    pub value: U256,
    pub input: Vec<u8>,
}

/// What a matching filter made of a transaction: the function's name and
/// decoded `args`, or neither when the filter names no function.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub function: Option<String>,
    pub args: Option<Value>,
}

/// The first filter `tx` matches, and what it decoded (§15.1): `to` listed
/// (a contract creation matches only filters without `to` and without a
/// function), and the calldata a clean decode of the function, selector
/// first.
pub fn match_tx(filters: &[CompiledCall], tx: &PendingTx) -> Option<Call> {
    filters.iter().find_map(|filter| {
        if let Some(listed) = &filter.to {
            if !tx.to.is_some_and(|to| listed.contains(&to)) {
                return None;
            }
        }
        let Some((function, names)) = &filter.function else {
            return Some(Call {
                function: None,
                args: None,
            });
        };
        tx.to?;
        let (selector, data) = tx.input.split_at_checked(4)?;
        if selector != function.selector().as_slice() {
            return None;
        }
        let values = function.abi_decode_input(data).ok()?;
        if values.len() != names.len() {
            return None;
        }
        let args: Map<String, Value> = names
            .iter()
            .zip(&values)
            .map(|(name, value)| (name.clone(), abi::render(value)))
            .collect();
        Some(Call {
            function: Some(function.name.clone()),
            args: Some(Value::Object(args)),
        })
    })
}

/// A `0x` quantity of at most 256 bits.
pub fn parse_u256(raw: &str) -> Option<U256> {
    let digits = raw.strip_prefix("0x")?;
    if digits.is_empty() || digits.len() > 64 {
        return None;
    }
    U256::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use alloy_primitives::hex;
    use serde_json::json;

    fn filter(to: Option<Vec<&str>>, function: Option<&str>) -> CompiledCall {
        compile(
            0,
            &CallFilter {
                to: to.map(|list| list.into_iter().map(str::to_owned).collect()),
                function: function.map(str::to_owned),
            },
        )
        .unwrap()
    }

    fn transfer_input(to: &str, amount: u64) -> Vec<u8> {
        let mut input = hex::decode("a9059cbb").unwrap();
        input.extend(hex::decode(format!("{:0>64}", to.trim_start_matches("0x"))).unwrap());
        input.extend(hex::decode(format!("{amount:064x}")).unwrap());
        input
    }

    #[test]
    fn s15_1_a_transfer_call_decodes_by_its_selector_and_to() {
        let token = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
        let recipient = "0x52908400098527886e0f7030069857d2e4169ee7";
        let transfer = filter(Some(vec![token]), Some("transfer(address to, uint256 amount)"));
        let tx = PendingTx {
            hash: B256::ZERO,
            from: Address::ZERO,
            to: Some(Address::from_str(token).unwrap()),
            nonce: 0,
            value: U256::ZERO,
            input: transfer_input(recipient, 42),
        };
        let call = match_tx(std::slice::from_ref(&transfer), &tx).unwrap();
        assert_eq!(call.function.as_deref(), Some("transfer"));
        assert_eq!(
            call.args,
            Some(json!({"to": "0x52908400098527886E0F7030069857D2E4169EE7", "amount": "42"}))
        );
        // Another selector, calldata too short, another recipient: no match.
        let mut approve = tx.clone();
        approve.input[0] = 0x09;
        assert_eq!(match_tx(std::slice::from_ref(&transfer), &approve), None);
        let mut short = tx.clone();
        short.input.truncate(3);
        assert_eq!(match_tx(std::slice::from_ref(&transfer), &short), None);
        let mut elsewhere = tx.clone();
        elsewhere.to = Some(Address::ZERO);
        assert_eq!(match_tx(std::slice::from_ref(&transfer), &elsewhere), None);
        let mut creation = tx;
        creation.to = None;
        assert_eq!(match_tx(std::slice::from_ref(&transfer), &creation), None);
        let any = filter(None, None);
        assert_eq!(
            match_tx(&[transfer, any], &creation),
            Some(Call {
                function: None,
                args: None
            })
        );
    }

    #[test]
    fn s15_1_quantities_are_bounded_to_256_bits() {
        assert_eq!(parse_u256("0x10"), Some(U256::from(16)));
        assert_eq!(parse_u256(&format!("0x{}", "f".repeat(64))), Some(U256::MAX));
        assert_eq!(parse_u256(&format!("0x1{}", "0".repeat(64))), None);
        assert_eq!(parse_u256("0x"), None);
        assert_eq!(parse_u256("16"), None);
    }
}
