//! EVM source configuration natively (docs/design.md §15, the `/v1/sources`
//! routes): defaults and normalisation, bad configurations refused naming the
//! field, the endpoint chain id check, what a PUT restarts, the start without
//! `startBlock`, the status shape, and the directory listing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod source_support;

use serde_json::{json, Value};
use source_support::*;
use tributary::error::ApiFailure;
use tributary::source::config::{self, SourceConfig};
use tributary::source::{Directory, DirectoryChange, Effect, RpcAnswer, RpcFailure};
use tributary::storage::rusqlite_driver::RusqliteStorage;

// ---------- configuration ----------

fn refused(body: &Value) -> (u16, String, Value) {
    match config::parse("transfers", body.to_string().as_bytes(), false) {
        Ok(config) => panic!("accepted {body}: {config:?}"),
        Err(error) => (
            error.status(),
            error.code().to_owned(),
            json!(error.details().get("field")),
        ),
    }
}

#[test]
fn s15_configuration_defaults_and_normalisation() {
    let body = json!({
        "kind": "evm",
        "rpcUrls": ["https://rpc.example.com"],
        "chainId": 1,
        "targetStream": "/eth/usdc",
        "filters": [{"address": ["0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"], "event": format!("  {TRANSFER} ")}],
    });
    let config = config::parse("usdc", body.to_string().as_bytes(), false).unwrap();
    assert_eq!(config.confirmations, 0);
    assert_eq!(config.finality_depth, 64);
    assert_eq!(config.poll_ms, 2000);
    assert_eq!(config.start_block, None);
    assert_eq!(
        config.filters[0].address.as_deref(),
        Some(&["0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48".to_owned()][..])
    );
    assert_eq!(config.filters[0].event, TRANSFER);
    let again: SourceConfig = serde_json::from_value(serde_json::to_value(&config).unwrap()).unwrap();
    assert_eq!(again, config);
    // Insecure URLs only with the deployment switch.
    let mut local = body.clone();
    local["rpcUrls"] = json!(["http://127.0.0.1:8545"]);
    assert!(config::parse("usdc", local.to_string().as_bytes(), false).is_err());
    assert!(config::parse("usdc", local.to_string().as_bytes(), true).is_ok());
}

#[test]
fn s15_bad_configurations_are_refused_naming_the_field() {
    let good = base_config(64, 0, None);
    let with = |field: &str, value: Value| {
        let mut body = good.clone();
        body[field] = value;
        body
    };
    let filter = |value: Value| with("filters", json!([value]));
    let cases: Vec<(Value, &str)> = vec![
        (with("kind", json!("solana")), "kind"),
        (with("rpcUrls", json!([])), "rpcUrls"),
        (with("rpcUrls", json!("https://x.example.com")), "rpcUrls"),
        (
            with(
                "rpcUrls",
                json!((0..9).map(|i| format!("https://r{i}.example.com")).collect::<Vec<_>>()),
            ),
            "rpcUrls",
        ),
        (with("rpcUrls", json!(["http://rpc.example.com"])), "rpcUrls[0]"),
        (
            with("rpcUrls", json!(["https://user:pw@rpc.example.com"])),
            "rpcUrls[0]",
        ),
        (with("rpcUrls", json!(["https://localhost:8545"])), "rpcUrls[0]"),
        (with("rpcUrls", json!(["https://169.254.169.254/"])), "rpcUrls[0]"),
        (
            with("rpcUrls", json!(["https://a.example.com", "https://a.example.com"])),
            "rpcUrls[1]",
        ),
        (
            with(
                "rpcUrls",
                json!([format!("https://a.example.com/{}", "x".repeat(3000))]),
            ),
            "rpcUrls[0]",
        ),
        (with("rpcUrls", json!([7])), "rpcUrls[0]"),
        (with("chainId", json!(0)), "chainId"),
        (with("chainId", json!("1")), "chainId"),
        (with("chainId", json!(-1)), "chainId"),
        (with("chainId", json!(1.5)), "chainId"),
        (with("chainId", json!(9_007_199_254_740_992u64)), "chainId"),
        (with("targetStream", json!("no-slash")), "targetStream"),
        (with("targetStream", json!("/a/-/b")), "targetStream"),
        (with("targetStream", json!(null)), "targetStream"),
        (with("filters", json!([])), "filters"),
        (with("filters", json!({})), "filters"),
        (
            with(
                "filters",
                json!((0..17).map(|_| json!({"event": TRANSFER})).collect::<Vec<_>>()),
            ),
            "filters",
        ),
        (filter(json!("Transfer")), "filters[0]"),
        (filter(json!({"event": ""})), "filters[0].event"),
        (filter(json!({"event": "Transfer(address"})), "filters[0].event"),
        (
            filter(json!({"event": "function transfer(address to, uint256 value)"})),
            "filters[0].event",
        ),
        (
            filter(json!({"event": "Transfer(address indexed from, address indexed to, uint256 value) anonymous"})),
            "filters[0].event",
        ),
        (
            filter(json!({"event": "E(uint8 indexed a, uint8 indexed b, uint8 indexed c, uint8 indexed d)"})),
            "filters[0].event",
        ),
        (filter(json!({"event": "E(uint256[4294967295] a)"})), "filters[0].event"),
        (filter(json!({"event": "E(uint256[64][64] a)"})), "filters[0].event"),
        (
            filter(json!({"event": "E(uint256[][][][][][][][][][] a)"})),
            "filters[0].event",
        ),
        (filter(json!({"event": "E(uint256 a, address a)"})), "filters[0].event"),
        (filter(json!({"event": "E(uint257 a)"})), "filters[0].event"),
        (
            filter(json!({"event": format!("E({})", vec!["uint256"; 300].join(","))})),
            "filters[0].event",
        ),
        (filter(json!({"event": TRANSFER, "topics": []})), "filters[0].topics"),
        (filter(json!({"event": TRANSFER, "address": []})), "filters[0].address"),
        (
            filter(json!({"event": TRANSFER, "address": "0x00"})),
            "filters[0].address",
        ),
        (
            filter(json!({"event": TRANSFER, "address": ["0x1234"]})),
            "filters[0].address[0]",
        ),
        (
            filter(json!({"event": TRANSFER, "address": ["A0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"]})),
            "filters[0].address[0]",
        ),
        (
            filter(json!({"event": TRANSFER, "address": ["0xA0b86991c6218b36c1d19d4a2e9eb0ce3606eB48"]})),
            "filters[0].address[0]",
        ),
        (
            filter(json!({"event": TRANSFER, "address": ["0xzz b86991c6218b36c1d19d4a2e9eb0ce3606eb4"]})),
            "filters[0].address[0]",
        ),
        (
            filter(json!({"event": TRANSFER, "address": (0..257).map(|i| format!("0x{i:040x}")).collect::<Vec<_>>()})),
            "filters[0].address",
        ),
        (with("startBlock", json!(-1)), "startBlock"),
        (with("startBlock", json!("latest")), "startBlock"),
        (with("confirmations", json!(1025)), "confirmations"),
        (with("finalityDepth", json!(0)), "finalityDepth"),
        (with("finalityDepth", json!(1025)), "finalityDepth"),
        (with("pollMs", json!(249)), "pollMs"),
        (with("pollMs", json!(3_600_001)), "pollMs"),
        (with("webhook", json!("x")), "webhook"),
    ];
    for (body, field) in cases {
        let (status, code, named) = refused(&body);
        assert_eq!((status, code.as_str()), (422, "invalid_source"), "{body}");
        assert_eq!(named, json!(field), "{body}");
    }
    // Bodies that are not configurations at all.
    for (raw, status, code) in [
        (b"{".to_vec(), 400, "malformed_json"),
        (b"[1,2]".to_vec(), 422, "invalid_source"),
        (b"null".to_vec(), 422, "invalid_source"),
        (vec![b'['; 200_000], 413, "source_too_large"),
        (
            format!("{{\"kind\": \"{}\"}}", "x".repeat(70_000)).into_bytes(),
            413,
            "source_too_large",
        ),
        ("[".repeat(5_000).into_bytes(), 400, "malformed_json"),
    ] {
        let error = config::parse("transfers", &raw, false).unwrap_err();
        assert_eq!((error.status(), error.code()), (status, code));
    }
    for name in ["", "a/b", "a b", "ü", &"n".repeat(65), ".."] {
        let error = config::parse(name, good.to_string().as_bytes(), false);
        if name == ".." {
            // Dots are allowed characters; ".." is still one segment name.
            assert!(error.is_ok());
            continue;
        }
        let error = error.unwrap_err();
        assert_eq!((error.status(), error.code()), (400, "invalid_source_name"), "{name}");
    }
}

#[test]
fn s15_the_endpoint_chain_id_must_match() {
    let config = config::parse("x", base_config(64, 0, None).to_string().as_bytes(), false).unwrap();
    assert!(config::check_chain_ids(&config, &[Ok(CHAIN_ID), Ok(CHAIN_ID)]).is_ok());
    let error = config::check_chain_ids(&config, &[Ok(CHAIN_ID), Ok(1)]).unwrap_err();
    assert_eq!(
        (error.status(), error.details()["field"].clone()),
        (422, json!("chainId"))
    );
    assert!(error.to_string().contains("rpcUrls[1] serves chain 1"));
    let error = config::check_chain_ids(
        &config,
        &[Err(RpcFailure::Transient {
            reason: "eth_chainId on rpcUrls[0]: timed out".to_owned(),
            retry_after_ms: None,
        })],
    )
    .unwrap_err();
    assert_eq!(error.details()["field"], json!("rpcUrls"));
    // The shell's call and the parse of its answer.
    let call = tributary::source::rpc::chain_id_call("https://x.example.com", 0);
    assert_eq!(
        tributary::source::rpc::parse_chain_id(&call, &ok(&json!(1), json!("0x7a69"))),
        Ok(31337)
    );
    assert!(tributary::source::rpc::parse_chain_id(&call, &ok(&json!(1), json!(31337))).is_err());
    assert!(tributary::source::rpc::parse_chain_id(&call, &RpcAnswer::Timeout).is_err());
}

#[test]
fn s15_a_put_that_changes_what_is_read_restarts_ingestion_and_others_keep_progress() {
    let mut harness = Harness::new(95, 10, &base_config(64, 0, Some(0)));
    harness.settle();
    let appended = harness.source.row().unwrap().events_appended;
    let mut faster = base_config(64, 0, Some(0));
    faster["pollMs"] = json!(250);
    let config = config::parse("transfers", faster.to_string().as_bytes(), false).unwrap();
    harness
        .source
        .configure("project", "transfers", config, harness.now)
        .unwrap();
    let row = harness.source.row().unwrap();
    assert_eq!((row.next_block, row.events_appended), (Some(11), appended));
    let mut later = base_config(64, 0, Some(5));
    later["pollMs"] = json!(250);
    let config = config::parse("transfers", later.to_string().as_bytes(), false).unwrap();
    harness
        .source
        .configure("project", "transfers", config, harness.now)
        .unwrap();
    let row = harness.source.row().unwrap();
    assert_eq!(
        (row.next_block, row.finalized_block, row.events_appended),
        (Some(5), Some(4), 0)
    );
    harness.settle();
    // Re-reading blocks 5.. collapses onto the same keys: nothing new.
    harness.assert_invariant(0, "after restart from 5");
}

#[test]
fn s15_without_start_block_the_source_begins_after_the_current_head() {
    let mut harness = Harness::new(96, 30, &base_config(64, 2, None));
    harness.settle();
    assert!(harness.events().is_empty());
    assert_eq!(harness.source.row().unwrap().next_block, Some(29));
    let mut rng = Rng::new(3);
    harness.chain.extend(&mut rng, 5, 3);
    harness.settle();
    harness.assert_invariant(29, "new blocks only");
}

#[test]
fn s15_the_status_has_the_documented_shape() {
    let mut harness = Harness::new(97, 3, &base_config(64, 0, Some(0)));
    harness.settle();
    let status = harness.source.status().unwrap();
    for field in [
        "name",
        "config",
        "status",
        "nextBlock",
        "finalizedBlock",
        "lastError",
        "eventsAppended",
        "invalidations",
    ] {
        assert!(status.get(field).is_some(), "{field} missing from {status}");
    }
    assert_eq!(status["name"], "transfers");
    assert_eq!(status["nextBlock"], 4);
    assert_eq!(status["config"]["filters"][0]["event"], TRANSFER);
    assert!(harness.source.delete().unwrap());
    assert!(harness.source.status().is_none());
    assert_eq!(drive_one(&mut harness, &mut |_| None).0, Effect::Stop);
}

#[test]
fn s15_the_directory_lists_sources_in_name_order_with_paging() {
    let directory = Directory::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    for name in ["c", "a", "b"] {
        let change = DirectoryChange::Register {
            name: name.to_owned(),
            config: json!({"kind": "evm"}),
        };
        assert_eq!(directory.apply(&change, 1_000).unwrap().status, 204);
    }
    directory
        .apply(&DirectoryChange::Unregister { name: "b".to_owned() }, 1_000)
        .unwrap();
    let page: Value = serde_json::from_str(&directory.list("limit=1").unwrap().body).unwrap();
    assert_eq!(page["sources"][0]["name"], "a");
    assert_eq!(page["nextAfter"], "a");
    let page: Value = serde_json::from_str(&directory.list("after=a").unwrap().body).unwrap();
    assert_eq!(page["sources"].as_array().unwrap().len(), 1);
    assert_eq!(page["sources"][0]["name"], "c");
    assert_eq!(page["nextAfter"], Value::Null);
    assert_eq!(directory.list("limit=0").unwrap().status, 400);
}
