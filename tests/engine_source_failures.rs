//! EVM source failures natively (docs/design.md §15 "Failures"): transient
//! failures back off and rotate URLs, malformed requests stop the source,
//! inconsistent logs are never appended, a refused range halves, and an
//! append refused by the stream fails the source with the reason.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod source_support;

use serde_json::{json, Value};
use source_support::*;
use tributary::source::config;
use tributary::source::{Effect, RpcAnswer};

// ---------- failures ----------

#[test]
fn s15_transient_failures_back_off_1s_to_5min_and_rotate_urls() {
    let mut harness = Harness::new(88, 5, &base_config(64, 0, Some(0)));
    let mut delays = Vec::new();
    let mut urls = Vec::new();
    for _ in 0..12 {
        let now = harness.now;
        let (effect, appends) = drive_one(&mut harness, &mut |call| {
            urls.push(call.url_index);
            Some(RpcAnswer::Response {
                status: 503,
                retry_after: None,
                body: Vec::new(),
            })
        });
        assert_eq!(appends, 0);
        let Effect::Sleep { at_ms } = effect else {
            panic!("expected a backoff, got {effect:?}")
        };
        delays.push(at_ms - now);
        harness.now = at_ms;
    }
    assert_eq!(&delays[..4], &[1_000, 2_000, 4_000, 8_000]);
    // Capped at 5 minutes (the jitter factor of this entropy is 1.000003).
    assert!((*delays.last().unwrap() - 300_000).abs() <= 1, "{delays:?}");
    assert_eq!(&urls[..4], &[0, 1, 0, 1], "each failed run moves to the next URL");
    let status = harness.source.status().unwrap();
    assert_eq!(status["status"], "retrying");
    assert_eq!(status["lastError"], "eth_blockNumber on rpcUrls[1]: HTTP 503");
    // Retry-After is a floor.
    let now = harness.now;
    let (effect, _) = drive_one(&mut harness, &mut |_| {
        Some(RpcAnswer::Response {
            status: 429,
            retry_after: Some("600".to_owned()),
            body: Vec::new(),
        })
    });
    let Effect::Sleep { at_ms } = effect else {
        panic!("{effect:?}")
    };
    assert!(
        (at_ms - now - 300_000).abs() <= 1,
        "Retry-After capped at the max backoff"
    );
    // Recovery resets the attempt and clears the error.
    harness.now += 300_000;
    harness.settle();
    let status = harness.source.status().unwrap();
    assert_eq!(status["status"], "running");
    assert_eq!(status["lastError"], Value::Null);
}

#[test]
fn s15_malformed_requests_and_unsupported_methods_stop_the_source() {
    for (code, status) in [(-32601, 200u16), (-32600, 200)] {
        let mut harness = Harness::new(89, 5, &base_config(64, 0, Some(0)));
        let (effect, _) = drive_one(&mut harness, &mut |call| {
            let id: Value = serde_json::from_str::<Value>(&call.body).unwrap()["id"].clone();
            let mut answer = rpc_error(&id, code, "nope");
            if let RpcAnswer::Response { status: s, .. } = &mut answer {
                *s = status;
            }
            Some(answer)
        });
        assert_eq!(effect, Effect::Stop);
        let status = harness.source.status().unwrap();
        assert_eq!(status["status"], "failed");
        assert!(status["lastError"].as_str().unwrap().contains(&code.to_string()));
        assert_eq!(harness.source.due_at(), None);
        // A failed source does not run until it is configured again.
        assert_eq!(drive_one(&mut harness, &mut |_| None).0, Effect::Stop);
        let config = config::parse("transfers", base_config(64, 0, Some(0)).to_string().as_bytes(), false).unwrap();
        assert!(!harness
            .source
            .configure("project", "transfers", config, harness.now)
            .unwrap());
        harness.settle();
        harness.assert_invariant(0, "after a re-PUT");
    }
    let mut harness = Harness::new(90, 5, &base_config(64, 0, Some(0)));
    let (effect, _) = drive_one(&mut harness, &mut |_| {
        Some(RpcAnswer::Response {
            status: 405,
            retry_after: None,
            body: b"method not allowed".to_vec(),
        })
    });
    assert_eq!(effect, Effect::Stop);
}

#[test]
fn s15_logs_whose_block_hash_does_not_match_are_never_appended() {
    let mut harness = Harness::new(91, 3, &base_config(64, 0, Some(0)));
    let chain_blocks: Vec<Block> = (0..=3).map(|n| harness.chain.by_number(n).unwrap().clone()).collect();
    for _ in 0..5 {
        let (effect, appends) = drive_one(&mut harness, &mut |call| {
            if call.method != "eth_getLogs" {
                return None;
            }
            let id: Value = serde_json::from_str::<Value>(&call.body).unwrap()["id"].clone();
            let mut wrong = chain_blocks[0].clone();
            wrong.hash = word(12345, 0xEE);
            let log = FakeLog {
                address: TOKEN,
                topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
                data: word(1, 0).to_vec(),
                tx: word(1, 0x77),
            };
            Some(ok(&id, json!([log_json(&wrong, 0, &log)])))
        });
        assert_eq!(appends, 0, "no wrong append");
        let Effect::Sleep { at_ms } = effect else {
            panic!("{effect:?}")
        };
        harness.now = at_ms;
    }
    assert!(harness.events().is_empty());
    let status = harness.source.status().unwrap();
    assert!(
        status["lastError"].as_str().unwrap().contains("inconsistent"),
        "{status}"
    );
    harness.settle();
    harness.assert_invariant(0, "after the proxy heals");
}

#[test]
fn s15_a_refused_log_range_is_halved_without_failing() {
    let mut harness = Harness::new(92, 600, &base_config(64, 0, Some(0)));
    let mut spans = Vec::new();
    let (effect, _) = drive_one(&mut harness, &mut |call| {
        let request: Value = serde_json::from_str(&call.body).unwrap();
        let filter = &request["params"][0];
        if call.method == "eth_getLogs" && filter.get("fromBlock").is_some() {
            let span = quantity(&filter["toBlock"]) - quantity(&filter["fromBlock"]) + 1;
            spans.push(span);
            if span > 100 {
                return Some(rpc_error(
                    &request["id"],
                    -32005,
                    "query returned more than 10000 results",
                ));
            }
        }
        None
    });
    assert!(matches!(effect, Effect::Sleep { .. }));
    assert_eq!(&spans[..4], &[500, 250, 125, 62]);
    assert_eq!(harness.source.row().unwrap().attempt, 0);
}

#[test]
fn s15_an_append_refused_by_the_stream_fails_the_source_with_the_reason() {
    let mut harness = Harness::new(93, 3, &base_config(64, 0, Some(0)));
    let hash = harness.chain.canonical[1];
    harness.chain.blocks.get_mut(&hash).unwrap().logs = vec![FakeLog {
        address: TOKEN,
        topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
        data: word(1, 0).to_vec(),
        tx: word(1, 0x77),
    }];
    // Someone else holds the source's key with other content.
    let key = format!("evm:transfers:{CHAIN_ID}:{}:0", hex(&hash));
    let body = json!({"type": "evm.log", "payload": {"forged": true}, "idempotencyKey": key}).to_string();
    harness.append(&body);
    let (effect, _) = drive_one(&mut harness, &mut |_| None);
    assert_eq!(effect, Effect::Stop);
    let status = harness.source.status().unwrap();
    assert!(
        status["lastError"].as_str().unwrap().contains("idempotency_key_reused"),
        "{status}"
    );
}
