//! What an EVM source appends (docs/design.md §15 "Events"): the `evm.log`
//! event of each log that matches a filter, and the `events-invalidated`
//! retractions of a reorganisation, each serialized at once with its
//! idempotency key. Pure shaping: no storage, no run state.
//!
//! Keys (§15): `evm:{source}:{chainId}:{blockHash}:{logIndex}` for a log,
//! with `:{deaths}` when its block died and came back (so the revived
//! block's events are new events, not collapsed into the invalidated
//! ones); `evm:{source}:{chainId}:reorg:{ancestor}:{deadTip}:{deaths}:{chunk}`
//! for an invalidation, one per [`MAX_INVALIDATED_OFFSETS`] offsets.

use super::abi::{self, CompiledFilter, Log};
use super::store::WindowBlock;
use crate::limits::{MAX_EVENT_BYTES, MAX_INVALIDATED_OFFSETS, SOURCE_EVENT_ENVELOPE_BYTES};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The event type of a matching log (§15).
pub const EVM_LOG_TYPE: &str = "evm.log";
pub const INVALIDATED_TYPE: &str = crate::event::ControlType::EventsInvalidated.as_str();

/// Who appends: the source's name and chain, which every key and payload carry.
#[derive(Debug, Clone, Copy)]
pub(super) struct Origin<'a> {
    pub name: &'a str,
    pub chain_id: u64,
}

/// The `evm.log` events of the logs that match a filter, with their keys,
/// in log order. `deaths` counts the invalidations of dead block hashes.
pub(super) fn log_events(
    origin: Origin<'_>,
    filters: &[CompiledFilter],
    deaths: Option<&BTreeMap<String, u64>>,
    logs: &[Log],
) -> Vec<(String, String)> {
    let mut events = Vec::new();
    for log in logs {
        let Some((index, args)) = abi::decode(filters, log) else {
            continue;
        };
        let Some(filter) = filters.get(index) else {
            continue;
        };
        let block_hash = abi::word_hex(&log.block_hash);
        let died = deaths.and_then(|deaths| deaths.get(&block_hash)).copied();
        let key = log_key(origin, &block_hash, log.log_index, died);
        let mut payload = log_payload(origin, &filter.event.name, args, &block_hash, log);
        fit_event_limit(&mut payload, &[("args", "argsOmitted"), ("data", "dataOmitted")]);
        // Serialized at once: a range's events never sit in memory as JSON trees.
        let event = json!({"type": EVM_LOG_TYPE, "payload": payload, "idempotencyKey": key}).to_string();
        events.push((key, event));
    }
    events
}

fn log_key(origin: Origin<'_>, block_hash: &str, log_index: u64, deaths: Option<u64>) -> String {
    let mut key = format!("evm:{}:{}:{block_hash}:{log_index}", origin.name, origin.chain_id);
    // A block that died and came back: its first events are invalidated.
    if let Some(deaths) = deaths.filter(|deaths| *deaths > 0) {
        key.push_str(&format!(":{deaths}"));
    }
    key
}

fn log_payload(origin: Origin<'_>, event: &str, args: Value, block_hash: &str, log: &Log) -> Value {
    json!({
        "chainId": origin.chain_id,
        "address": log.address.to_checksum(None),
        "event": event,
        "args": args,
        "topics": log.topics.iter().map(abi::word_hex).collect::<Vec<_>>(),
        "data": alloy_primitives::hex::encode_prefixed(&log.data),
        "blockNumber": log.block_number,
        "blockHash": block_hash,
        "transactionHash": abi::word_hex(&log.transaction_hash),
        "transactionIndex": log.transaction_index,
        "logIndex": log.log_index,
    })
}

/// An event stays under the event limit (§3): drop the `droppable` fields
/// in turn (the decoded args, then the raw data), each flagged, rather than
/// fail the source.
pub(super) fn fit_event_limit(payload: &mut Value, droppable: &[(&str, &str)]) {
    for &(field, flag) in droppable {
        if payload.to_string().len() + SOURCE_EVENT_ENVELOPE_BYTES <= MAX_EVENT_BYTES {
            break;
        }
        if let Some(fields) = payload.as_object_mut() {
            fields.insert(field.to_owned(), Value::Null);
            fields.insert(flag.to_owned(), Value::Bool(true));
        }
    }
}

/// A concluded ancestor search (§15 "Reorg → invalidation"): what died above
/// `ancestor`, and the offsets of the events appended from it.
#[derive(Debug, Clone)]
pub(super) struct Reorg {
    pub ancestor: Option<u64>,
    pub ancestor_hash: Option<String>,
    pub deep: bool,
    pub dead_blocks: Vec<WindowBlock>,
    /// Sorted, deduplicated.
    pub offsets: Vec<u64>,
    /// Earlier invalidations of the dead tip's hash (it died before).
    pub deaths: u64,
}

impl Reorg {
    pub fn dead_tip(&self) -> Option<&WindowBlock> {
        self.dead_blocks.last()
    }
}

/// The `events-invalidated` events retracting a reorg's offsets, with keys.
pub(super) fn invalidation_events(origin: Origin<'_>, reorg: &Reorg) -> Vec<(String, String)> {
    let dead_tip = reorg.dead_tip();
    let ancestor_label = match (&reorg.ancestor_hash, reorg.ancestor) {
        (Some(hash), _) if !reorg.deep => hash.clone(),
        (_, Some(number)) => format!("deep-{number}"),
        (_, None) => "deep-genesis".to_owned(),
    };
    let tip_label = dead_tip.map_or_else(|| "none".to_owned(), |tip| tip.hash.clone());
    let metadata = json!({
        "source": origin.name,
        "chainId": origin.chain_id,
        "ancestor": reorg.ancestor.map(|number| json!({"number": number, "hash": reorg.ancestor_hash})),
        "deadTip": dead_tip.map(|tip| json!({"number": tip.number, "hash": tip.hash})),
        "deep": reorg.deep,
    });
    let mut events = Vec::new();
    for (chunk_index, chunk) in reorg.offsets.chunks(MAX_INVALIDATED_OFFSETS).enumerate() {
        let key = format!(
            "evm:{}:{}:reorg:{ancestor_label}:{tip_label}:{}:{chunk_index}",
            origin.name, origin.chain_id, reorg.deaths
        );
        let event = json!({
            "type": INVALIDATED_TYPE,
            "payload": {"offsets": chunk, "reason": "reorg"},
            "metadata": metadata,
            "idempotencyKey": key,
        })
        .to_string();
        events.push((key, event));
    }
    events
}

/// The structured log line of a reorg (§11).
pub(super) fn reorg_log(origin: Origin<'_>, reorg: &Reorg) -> Value {
    json!({
        "event": if reorg.deep { "source_deep_reorg" } else { "source_reorg" },
        "source": origin.name,
        "chainId": origin.chain_id,
        "ancestor": reorg.ancestor,
        "deadTip": reorg.dead_tip().map(|tip| tip.number),
        "deadBlocks": reorg.dead_blocks.len(),
        "invalidatedOffsets": reorg.offsets.len(),
    })
}
