//! A fake JSON-RPC node over a [`Chain`] (docs/design.md §15 tests), answering
//! the source's calls, with injectable faults.

use super::*;

// ---------- a fake JSON-RPC node ----------

#[derive(Default, Clone, Copy)]
pub struct Faults {
    /// Percent of calls that fail or answer inconsistently.
    pub percent: u64,
}

pub fn header_json(block: &Block) -> Value {
    json!({"number": format!("0x{:x}", block.number), "hash": hex(&block.hash), "parentHash": hex(&block.parent), "transactions": []})
}

pub fn log_json(block: &Block, index: usize, log: &FakeLog) -> Value {
    json!({
        "address": hex(&log.address),
        "topics": log.topics.iter().map(|t| hex(t)).collect::<Vec<_>>(),
        "data": hex(&log.data),
        "blockNumber": format!("0x{:x}", block.number),
        "blockHash": hex(&block.hash),
        "transactionHash": hex(&log.tx),
        "transactionIndex": format!("0x{:x}", index),
        "logIndex": format!("0x{:x}", index),
        "removed": false,
    })
}

pub fn node_filter(filter: &Value, log: &FakeLog) -> bool {
    if let Some(addresses) = filter.get("address").and_then(Value::as_array) {
        if !addresses.iter().any(|a| a.as_str() == Some(hex(&log.address).as_str())) {
            return false;
        }
    }
    if let Some(first) = filter.pointer("/topics/0").and_then(Value::as_array) {
        let Some(topic) = log.topics.first() else {
            return false;
        };
        if !first.iter().any(|t| t.as_str() == Some(hex(topic).as_str())) {
            return false;
        }
    }
    true
}

pub fn ok(id: &Value, result: Value) -> RpcAnswer {
    RpcAnswer::Response {
        status: 200,
        retry_after: None,
        body: json!({"jsonrpc": "2.0", "id": id, "result": result})
            .to_string()
            .into_bytes(),
    }
}

pub fn rpc_error(id: &Value, code: i64, message: &str) -> RpcAnswer {
    RpcAnswer::Response {
        status: 200,
        retry_after: None,
        body: json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
            .to_string()
            .into_bytes(),
    }
}

pub fn answer(chain: &Chain, call: &RpcCall, rng: &mut Rng, faults: Faults) -> RpcAnswer {
    let request: Value = serde_json::from_str(&call.body).unwrap();
    let id = request["id"].clone();
    let params = &request["params"];
    if faults.percent > 0 && rng.chance(faults.percent) {
        return match rng.below(5) {
            0 => RpcAnswer::Response {
                status: 429,
                retry_after: Some("1".to_owned()),
                body: b"slow down".to_vec(),
            },
            1 => RpcAnswer::Response {
                status: 503,
                retry_after: None,
                body: Vec::new(),
            },
            2 => RpcAnswer::Timeout,
            3 => ok(&json!(9_999_999), json!("0x1")),
            _ => {
                // An inconsistent answer: a log of another block (another
                // hash, or a number outside the asked range).
                if call.method == "eth_getLogs" {
                    let mut wrong = chain.by_number(chain.tip()).unwrap().clone();
                    wrong.hash = word(rng.next(), 0xEE);
                    if let Some(to) = params[0].get("toBlock") {
                        wrong.number = quantity(to) + 5;
                    }
                    let fake = FakeLog {
                        address: TOKEN,
                        topics: vec![transfer_topic(), padded([9; 20]), padded([9; 20])],
                        data: word(1, 0).to_vec(),
                        tx: word(1, 0x99),
                    };
                    ok(&id, json!([log_json(&wrong, 0, &fake)]))
                } else {
                    RpcAnswer::Network("connection reset".to_owned())
                }
            }
        };
    }
    match call.method {
        "eth_chainId" => ok(&id, json!(format!("0x{CHAIN_ID:x}"))),
        "eth_blockNumber" => ok(&id, json!(format!("0x{:x}", chain.tip()))),
        "eth_getBlockByNumber" => {
            let number = quantity(&params[0]);
            ok(&id, chain.by_number(number).map_or(Value::Null, header_json))
        }
        "eth_getLogs" => {
            let filter = &params[0];
            let blocks: Vec<&Block> = if let Some(hash) = filter.get("blockHash").and_then(Value::as_str) {
                match unhex(hash).and_then(|hash| chain.blocks.get(&hash)) {
                    Some(block) => vec![block],
                    None => return rpc_error(&id, -32000, "unknown block"),
                }
            } else {
                let from = quantity(&filter["fromBlock"]);
                let to = quantity(&filter["toBlock"]);
                (from..=to.min(chain.tip()))
                    .filter_map(|n| chain.by_number(n))
                    .collect()
            };
            let mut logs = Vec::new();
            for block in blocks {
                for (index, log) in block.logs.iter().enumerate() {
                    if node_filter(filter, log) {
                        logs.push(log_json(block, index, log));
                    }
                }
            }
            ok(&id, Value::Array(logs))
        }
        _ => rpc_error(&id, -32601, "method not found"),
    }
}
