//! The mempool source's configuration natively (docs/design.md §15.1, the
//! `/v1/sources` routes): defaults and normalisation, malformed, oversized
//! and hostile bodies refused naming the field, the chain id check, one
//! object switching kinds, and the reserved key namespace.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod mempool_support;

use mempool_support::*;
use serde_json::{json, Value};
use tributary::error::ApiFailure;
use tributary::limits::MAX_SOURCE_CONFIG_BYTES;
use tributary::source::kinds::{self, AnyConfig, AnySource};
use tributary::source::RpcFailure;
use tributary::storage::rusqlite_driver::RusqliteStorage;

fn refused_body(body: &[u8]) -> (u16, String, Value) {
    match kinds::parse("watcher", body, false) {
        Ok(config) => panic!("accepted {}: {config:?}", String::from_utf8_lossy(body)),
        Err(error) => (
            error.status(),
            error.code().to_owned(),
            json!(error.details().get("field")),
        ),
    }
}

fn refused(body: &Value) -> (u16, String, Value) {
    refused_body(body.to_string().as_bytes())
}

#[test]
fn s15_1_defaults_and_normalisation() {
    let body = json!({
        "kind": "evm-mempool",
        "rpcUrls": ["https://rpc.example.com"],
        "chainId": 1,
        "targetStream": "/eth/pending",
        "filters": [{"to": ["0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"], "function": " transfer(address to, uint256 amount) "}, {}],
    });
    let Ok(AnyConfig::Mempool(config)) = kinds::parse("usdc", body.to_string().as_bytes(), false) else {
        panic!("a mempool configuration");
    };
    assert_eq!(config.poll_ms, 2000);
    assert_eq!(config.kind, "evm-mempool");
    assert_eq!(
        config.filters[0].to.as_deref(),
        Some(&["0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48".to_owned()][..])
    );
    assert_eq!(config.filters[0].function.as_deref(), Some(TRANSFER));
    assert_eq!(
        (config.filters[1].to.clone(), config.filters[1].function.clone()),
        (None, None),
        "any transaction"
    );
    let listed = AnyConfig::Mempool(config.clone()).listed();
    assert_eq!(listed["kind"], "evm-mempool");
    assert!(listed.get("startBlock").is_none());
    // Insecure URLs only with the deployment switch.
    let mut local = body.clone();
    local["rpcUrls"] = json!(["http://127.0.0.1:8545"]);
    assert!(kinds::parse("usdc", local.to_string().as_bytes(), false).is_err());
    assert!(kinds::parse("usdc", local.to_string().as_bytes(), true).is_ok());
    // The chain source's kind still parses through the same door.
    let chain = json!({"kind": "evm", "rpcUrls": ["https://rpc.example.com"], "chainId": 1, "targetStream": "/eth/usdc",
        "filters": [{"event": "Transfer(address indexed from, address indexed to, uint256 value)"}]});
    assert!(matches!(
        kinds::parse("usdc", chain.to_string().as_bytes(), false),
        Ok(AnyConfig::Chain(_))
    ));
}

#[test]
fn s15_1_bad_configurations_are_422_naming_the_field() {
    let good = transfer_config();
    let with = |field: &str, value: Value| {
        let mut body = good.clone();
        body[field] = value;
        body
    };
    let filter = |value: Value| with("filters", json!([value]));
    let cases: Vec<(Value, &str)> = vec![
        (with("kind", json!("evm-mempools")), "kind"),
        (with("kind", json!(7)), "kind"),
        (with("startBlock", json!(1)), "startBlock"),
        (with("confirmations", json!(1)), "confirmations"),
        (with("rpcUrls", json!([])), "rpcUrls"),
        (with("rpcUrls", json!(["http://rpc.example.com"])), "rpcUrls[0]"),
        (with("rpcUrls", json!(["https://localhost/rpc"])), "rpcUrls[0]"),
        (
            with("rpcUrls", json!(["https://user:secret@rpc.example.com"])),
            "rpcUrls[0]",
        ),
        (with("rpcUrls", json!(["https://10.0.0.1/rpc"])), "rpcUrls[0]"),
        (
            with("rpcUrls", json!(["https://a.example.com", "https://a.example.com"])),
            "rpcUrls[1]",
        ),
        (
            with(
                "rpcUrls",
                json!((0..9).map(|i| format!("https://r{i}.example.com")).collect::<Vec<_>>()),
            ),
            "rpcUrls",
        ),
        (
            with("rpcUrls", json!([format!("https://{}.example.com", "a".repeat(2100))])),
            "rpcUrls[0]",
        ),
        (with("chainId", json!(0)), "chainId"),
        (with("chainId", json!(9_007_199_254_740_993u64)), "chainId"),
        (with("chainId", json!("1")), "chainId"),
        (with("targetStream", json!("no-slash")), "targetStream"),
        (with("targetStream", json!("/a/-/b")), "targetStream"),
        (with("pollMs", json!(100)), "pollMs"),
        (with("pollMs", json!(-1)), "pollMs"),
        (with("filters", json!([])), "filters"),
        (with("filters", json!("transfer")), "filters"),
        (
            with("filters", json!((0..17).map(|_| json!({})).collect::<Vec<_>>())),
            "filters",
        ),
        (filter(json!("transfer(address,uint256)")), "filters[0]"),
        (
            filter(json!({"event": "Transfer(address,address,uint256)"})),
            "filters[0].event",
        ),
        (filter(json!({"to": []})), "filters[0].to"),
        (
            filter(json!({"to": "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})),
            "filters[0].to",
        ),
        (filter(json!({"to": ["0x1234"]})), "filters[0].to[0]"),
        (filter(json!({"to": [TOKEN, 7]})), "filters[0].to[1]"),
        // Mixed case must carry a valid EIP-55 checksum.
        (
            filter(json!({"to": ["0xAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa"]})),
            "filters[0].to[0]",
        ),
        (
            filter(json!({"to": (0..257).map(|i| format!("0x{i:040x}")).collect::<Vec<_>>()})),
            "filters[0].to",
        ),
        (filter(json!({"function": 1})), "filters[0].function"),
        (filter(json!({"function": "  "})), "filters[0].function"),
        (filter(json!({"function": "transfer("})), "filters[0].function"),
        (
            filter(json!({"function": "transfer(address to, address to)"})),
            "filters[0].function",
        ),
        (
            filter(json!({"function": "f(uint256[][][][][][][][][][] deep)"})),
            "filters[0].function",
        ),
        (
            filter(json!({"function": "f(uint256[100][100] wide)"})),
            "filters[0].function",
        ),
    ];
    for (body, field) in cases {
        let (status, code, got) = refused(&body);
        assert_eq!((status, code.as_str()), (422, "invalid_source"), "{body}");
        assert_eq!(got, json!(field), "{body}");
    }
}

#[test]
fn s15_1_malformed_oversized_and_hostile_bodies_are_refused() {
    assert_eq!(refused_body(b"{\"kind\": \"evm-mempool\"").1, "malformed_json");
    assert_eq!(refused_body(b"[1, 2]").2, json!("body"));
    assert_eq!(refused_body(&[0xff, 0xfe]).1, "malformed_json");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let (status, _, _) = refused_body(deep.as_bytes());
    assert!(status == 400 || status == 413, "{status}");
    let mut huge = transfer_config();
    huge["filters"][0]["padding"] = json!("x".repeat(MAX_SOURCE_CONFIG_BYTES));
    assert_eq!(refused(&huge).1, "source_too_large");
    assert!(kinds::parse("../etc", transfer_config().to_string().as_bytes(), false).is_err());
    assert!(kinds::parse(&"n".repeat(65), transfer_config().to_string().as_bytes(), false).is_err());
}

#[test]
fn s15_1_every_endpoint_must_serve_the_configured_chain() {
    let Ok(config) = kinds::parse("watcher", transfer_config().to_string().as_bytes(), false) else {
        panic!()
    };
    assert!(config.check_chain_ids(&[Ok(CHAIN_ID), Ok(CHAIN_ID)]).is_ok());
    let error = config.check_chain_ids(&[Ok(CHAIN_ID), Ok(1)]).unwrap_err();
    assert_eq!(error.details().get("field"), Some(&json!("chainId")));
    let failure = RpcFailure::Transient {
        reason: "timed out".to_owned(),
        retry_after_ms: None,
    };
    let error = config.check_chain_ids(&[Err(failure)]).unwrap_err();
    assert_eq!(error.details().get("field"), Some(&json!("rpcUrls")));
}

#[test]
fn s15_1_an_object_holds_one_kind_and_a_put_of_the_other_replaces_it() {
    let dir = TempDir::new();
    let db = dir.0.join("source.sqlite");
    let parse = |body: &Value| kinds::parse("watcher", body.to_string().as_bytes(), false).unwrap();
    let chain = json!({"kind": "evm", "rpcUrls": ["https://rpc.example.com"], "chainId": CHAIN_ID, "targetStream": STREAM,
        "filters": [{"event": "Transfer(address indexed from, address indexed to, uint256 value)"}]});
    let mut source = AnySource::open(RusqliteStorage::open(&db).unwrap()).unwrap();
    assert_eq!(source.status().unwrap(), None);
    assert!(
        source.configure("project", "watcher", parse(&chain), 1_000).unwrap(),
        "created"
    );
    assert!(source.status().unwrap().unwrap().get("finalizedBlock").is_some());
    assert!(
        !source
            .configure("project", "watcher", parse(&transfer_config()), 2_000)
            .unwrap(),
        "replaced"
    );
    let mempool = source.status().unwrap().unwrap();
    assert_eq!(mempool["config"]["kind"], "evm-mempool");
    assert!(mempool.get("finalizedBlock").is_none());
    // Reopened, the object is a mempool source.
    drop(source);
    let mut source = AnySource::open(RusqliteStorage::open(&db).unwrap()).unwrap();
    assert_eq!(source.status().unwrap().unwrap()["config"]["kind"], "evm-mempool");
    assert_eq!(source.project_id().as_deref(), Some("project"));
    assert!(!source.configure("project", "watcher", parse(&chain), 3_000).unwrap());
    drop(source);
    let mut source = AnySource::open(RusqliteStorage::open(&db).unwrap()).unwrap();
    assert_eq!(source.status().unwrap().unwrap()["config"]["kind"], "evm");
    assert!(source.delete().unwrap());
    assert_eq!(source.status().unwrap(), None);
}

#[test]
fn s15_1_the_mempool_key_namespace_is_reserved() {
    assert_eq!(
        tributary::reserved_keys::is_reserved("evm-mempool:watcher:1:0xab"),
        Some("evm-mempool:")
    );
}
