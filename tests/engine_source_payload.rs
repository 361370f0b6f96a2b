//! EVM source payloads natively (docs/design.md §15 "Events", §3): the
//! `evm.log` payload decodes args and carries the log's coordinates;
//! hostile logs decode cleanly or not at all; oversized logs keep their
//! coordinates and drop what does not fit.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod source_support;

use serde_json::{json, Value};
use source_support::*;
use tributary::source::config;

// ---------- payload ----------

#[test]
fn s15_the_payload_decodes_args_and_carries_the_log_coordinates() {
    let mut rng = Rng::new(77);
    let mut harness = Harness::new(77, 0, &base_config(64, 0, Some(0)));
    harness.chain = Chain::empty();
    harness.chain.push(&mut rng, 0);
    let from = [
        0x52, 0x90, 0x84, 0x00, 0x09, 0x85, 0x27, 0x88, 0x6E, 0x0F, 0x70, 0x30, 0x06, 0x98, 0x57, 0xD2, 0xE4, 0x16,
        0x9E, 0xE7,
    ];
    let hash = harness.chain.canonical[0];
    harness.chain.blocks.get_mut(&hash).unwrap().logs = vec![FakeLog {
        address: TOKEN,
        topics: vec![transfer_topic(), padded(from), padded([0x11; 20])],
        data: word(1_000_000_000_000_000_000, 0).to_vec(),
        tx: word(5, 0x77),
    }];
    harness.settle();
    let events = harness.events();
    assert_eq!(events.len(), 1);
    let event = &events[0];
    let block_hash = hex(&hash);
    assert_eq!(event["type"], "evm.log");
    assert_eq!(
        event["idempotencyKey"],
        format!("evm:transfers:{CHAIN_ID}:{block_hash}:0")
    );
    let payload = &event["payload"];
    assert_eq!(payload["chainId"], CHAIN_ID);
    assert_eq!(payload["address"], "0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa");
    assert_eq!(payload["event"], "Transfer");
    assert_eq!(payload["args"]["from"], "0x52908400098527886E0F7030069857D2E4169EE7");
    assert_eq!(payload["args"]["to"], "0x1111111111111111111111111111111111111111");
    assert_eq!(payload["args"]["value"], "1000000000000000000");
    assert_eq!(payload["topics"][0], TRANSFER_TOPIC);
    assert_eq!(payload["blockNumber"], 0);
    assert_eq!(payload["blockHash"], block_hash);
    assert_eq!(payload["transactionHash"], hex(&word(5, 0x77)));
    assert_eq!(payload["transactionIndex"], 0);
    assert_eq!(payload["logIndex"], 0);
    assert!(payload["data"].as_str().unwrap().starts_with("0x"));
}

#[test]
fn s15_hostile_logs_decode_cleanly_or_not_at_all() {
    use tributary::source::abi;
    let filters = vec![abi::compile(
        0,
        &config::FilterConfig {
            address: None,
            event:
                "E(uint256[] big, string indexed name, bytes blob, int8 small, bool flag, (uint16,address)[2] pairs)"
                    .to_owned(),
        },
    )
    .unwrap()];
    let selector = filters[0].selector;
    let name_hash = [7u8; 32];
    let base = abi::Log {
        address: alloy_primitives::Address::ZERO,
        topics: vec![selector, alloy_primitives::B256::from(name_hash)],
        data: Vec::new(),
        block_number: 1,
        block_hash: alloy_primitives::B256::ZERO,
        transaction_hash: alloy_primitives::B256::ZERO,
        transaction_index: 0,
        log_index: 0,
    };
    // Too short, a huge array length claim, an offset far out of range: no match, no panic.
    let mut huge = vec![0u8; 32 * 9];
    huge[30] = 0x01;
    huge[31] = 0x20; // `big` at word 9...
    huge.extend_from_slice(&[0x7f; 32]); // ...claims 2^255 elements
    let mut far = vec![0u8; 32 * 9];
    far[..32].copy_from_slice(&[0xff; 32]);
    for data in [vec![], vec![1, 2, 3], huge, far, vec![0xff; 4096]] {
        let log = abi::Log { data, ..base.clone() };
        assert_eq!(abi::decode(&filters, &log), None);
    }
    // Random bytes never panic (decoding may succeed or not).
    let mut rng = Rng::new(8);
    for _ in 0..2_000 {
        let len = rng.below(600) as usize;
        let data: Vec<u8> = (0..len).map(|_| (rng.next() % 4) as u8 * 0x40).collect();
        let log = abi::Log { data, ..base.clone() };
        let _ = abi::decode(&filters, &log);
    }
    // A well-formed one renders every type.
    let mut data = Vec::new();
    let word_of = |n: u64| {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&n.to_be_bytes());
        w
    };
    // head: big offset, blob offset, small, flag, pairs (2 x (uint16, address)) = 8 words
    data.extend_from_slice(&word_of(32 * 8));
    data.extend_from_slice(&word_of(32 * 10));
    data.extend_from_slice(&[0xff; 32]); // int8 -1
    data.extend_from_slice(&word_of(1));
    data.extend_from_slice(&word_of(7));
    data.extend_from_slice(&padded([0xAB; 20]));
    data.extend_from_slice(&word_of(8));
    data.extend_from_slice(&padded([0xCD; 20]));
    // big: [5]
    data.extend_from_slice(&word_of(1));
    data.extend_from_slice(&word_of(5));
    // blob: 0xdeadbeef
    data.extend_from_slice(&word_of(4));
    let mut blob = [0u8; 32];
    blob[..4].copy_from_slice(&[0xde, 0xad, 0xbe, 0xef]);
    data.extend_from_slice(&blob);
    let log = abi::Log { data, ..base };
    let (_, args) = abi::decode(&filters, &log).unwrap();
    assert_eq!(
        args,
        json!({
            "big": ["5"],
            "name": hex(&name_hash),
            "blob": "0xdeadbeef",
            "small": "-1",
            "flag": true,
            "pairs": [["7", "0xABaBaBaBABabABabAbAbABAbABabababaBaBABaB"], ["8", "0xCdCDCdCdcdcdcdCdcDcDCdcDcDCdCdcdCdcDCDcD"]],
        })
    );
}

#[test]
fn s15_oversized_logs_keep_their_coordinates_and_drop_what_does_not_fit() {
    let config = json!({
        "kind": "evm",
        "rpcUrls": ["https://rpc.example.com"],
        "chainId": CHAIN_ID,
        "targetStream": STREAM,
        "filters": [{"event": "Blob(bytes data)"}],
        "startBlock": 0,
    });
    let mut harness = Harness::new(94, 0, &config);
    let mut rng = Rng::new(1);
    harness.chain = Chain::empty();
    harness.chain.push(&mut rng, 0);
    let selector = tributary::source::abi::compile(
        0,
        &config::FilterConfig {
            address: None,
            event: "Blob(bytes data)".to_owned(),
        },
    )
    .unwrap()
    .selector;
    let mut topic = [0u8; 32];
    topic.copy_from_slice(selector.as_slice());
    let len = 200_000u64;
    let mut data = Vec::new();
    let mut w = [0u8; 32];
    w[31] = 32;
    data.extend_from_slice(&w);
    let mut l = [0u8; 32];
    l[24..].copy_from_slice(&len.to_be_bytes());
    data.extend_from_slice(&l);
    data.extend(std::iter::repeat_n(0xAB, len as usize));
    let hash = harness.chain.canonical[0];
    harness.chain.blocks.get_mut(&hash).unwrap().logs = vec![FakeLog {
        address: TOKEN,
        topics: vec![topic],
        data,
        tx: word(1, 0x77),
    }];
    harness.settle();
    let events = harness.events();
    assert_eq!(events.len(), 1);
    let payload = &events[0]["payload"];
    assert_eq!(payload["args"], Value::Null);
    assert_eq!(payload["argsOmitted"], true);
    assert_eq!(payload["dataOmitted"], true);
    assert_eq!(payload["blockHash"], hex(&hash));
}
