//! What a mempool source appends (docs/design.md §15.1): one `evm.pending-tx`
//! event per matching transaction, `{chainId, hash, from, to, nonce, value,
//! function, args, input, seenAt}`, under the idempotency key
//! `evm-mempool:{name}:{chainId}:{hash}`. Its identity is the transaction:
//! the payload depends only on the transaction and the moment the source
//! first saw its hash (kept with the hash), so appending it again — after a
//! crash, a re-poll, another node announcing it — collapses onto the first.

use super::calldata::{Call, PendingTx};
use crate::source::abi;
use crate::source::payload::fit_event_limit;
use crate::time::rfc3339_millis;
use alloy_primitives::hex;
use serde_json::json;

/// The event type of a matching pending transaction (§15.1).
pub const PENDING_TX_TYPE: &str = "evm.pending-tx";
/// The prefix of every key a mempool source appends under.
pub const KEY_PREFIX: &str = "evm-mempool:";

/// `evm-mempool:{name}:{chainId}:{hash}`.
pub fn idempotency_key(name: &str, chain_id: u64, hash: &str) -> String {
    format!("{KEY_PREFIX}{name}:{chain_id}:{hash}")
}

/// The event of `tx`, serialized, under its key: `(key, event)`.
pub fn pending_tx_event(name: &str, chain_id: u64, tx: &PendingTx, call: Call, seen_at_ms: i64) -> (String, String) {
    let hash = abi::word_hex(&tx.hash);
    let key = idempotency_key(name, chain_id, &hash);
    let mut payload = json!({
        "chainId": chain_id,
        "hash": hash,
        "from": tx.from.to_checksum(None),
        "to": tx.to.map(|to| to.to_checksum(None)),
        "nonce": tx.nonce,
        "value": tx.value.to_string(),
        "function": call.function,
        "args": call.args,
        "input": hex::encode_prefixed(&tx.input),
        "seenAt": rfc3339_millis(seen_at_ms),
    });
    fit_event_limit(&mut payload, &[("args", "argsOmitted"), ("input", "inputOmitted")]);
    let event = json!({"type": PENDING_TX_TYPE, "payload": payload, "idempotencyKey": key}).to_string();
    (key, event)
}
