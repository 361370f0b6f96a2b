//! The mempool source natively (docs/design.md §15.1): the state machine driven
//! against a fake node's pending pool and filters, appending into a real
//! engine stream over SQLite. Matching and decoding, once per transaction
//! whatever is re-announced, re-polled or repeated after a crash; a node
//! that forgets its filter; the per-run call budget (§12); failures backing
//! off and rotating URLs (§15 "Failures"); and the property over random
//! pools, faults, forgetting and crashes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod mempool_support;

use mempool_support::*;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::str::FromStr;
use tributary::limits::MAX_SOURCE_RPC_CALLS_PER_RUN;
use tributary::source::Effect;

fn status(harness: &Harness) -> Value {
    harness.source.status().unwrap().unwrap()
}

#[test]
fn s15_1_matching_pending_transactions_append_once_with_decoded_args() {
    let checksummed = |raw: &str| alloy_primitives::Address::from_str(raw).unwrap().to_checksum(None);
    let mut harness = Harness::new(1, &transfer_config());
    // Pending before the source watches: not replayed.
    let before = harness.node.submit(1, Some(TOKEN), transfer_input(0xcafe, 5));
    harness.run();
    assert_eq!(harness.methods, vec!["eth_newPendingTransactionFilter"]);
    let watching = status(&harness);
    assert!(watching["watchingSince"].is_string(), "{watching}");
    let matching = harness.node.submit(2, Some(TOKEN), transfer_input(0xbeef, 42));
    harness
        .node
        .submit(3, Some(TOKEN), format!("0x095ea7b3{:064x}{:064x}", 1, 2)); // approve
    harness.node.submit(4, Some(OTHER), transfer_input(0xbeef, 42)); // another contract
    harness.node.submit(5, None, "0x6000".to_owned()); // a contract creation
    harness
        .node
        .submit(6, Some(TOKEN), format!("0x{TRANSFER_SELECTOR}{:064x}", 1)); // truncated calldata
    harness.run();
    let events = harness.events();
    assert_eq!(events.len(), 1, "{events:?}");
    let event = &events[0];
    assert_eq!(
        event["idempotencyKey"],
        format!("evm-mempool:watcher:{CHAIN_ID}:{matching}")
    );
    let payload = &event["payload"];
    assert_eq!(payload["chainId"], CHAIN_ID);
    assert_eq!(payload["hash"], json!(matching));
    assert_eq!(
        payload["from"],
        json!(checksummed("0x0000000000000000000000000000000000000f02"))
    );
    assert_eq!(
        payload["to"], "0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa",
        "checksummed"
    );
    assert_eq!(payload["nonce"], 2);
    assert_eq!(payload["value"], "2000", "a decimal string");
    assert_eq!(payload["function"], "transfer");
    assert_eq!(
        payload["args"],
        json!({"to": checksummed("0x000000000000000000000000000000000000beef"), "amount": "42"})
    );
    assert_eq!(payload["input"], json!(transfer_input(0xbeef, 42)));
    // Seen by the poll of that run: when the source first saw its hash.
    assert_eq!(payload["seenAt"], status(&harness)["lastPollAt"]);
    assert_ne!(payload["hash"], json!(before));
    let after = status(&harness);
    assert_eq!(
        (after["eventsAppended"].clone(), after["txsSeen"].clone()),
        (json!(1), json!(5))
    );
    assert_eq!(after["txsQueued"], 0);
}

#[test]
fn s15_1_a_re_announced_re_polled_or_crash_repeated_transaction_appends_nothing_twice() {
    let mut harness = Harness::new(2, &transfer_config());
    harness.run();
    let hash = harness.node.submit(7, Some(TOKEN), transfer_input(1, 1));
    harness.run();
    assert_eq!(harness.appended_hashes(), vec![hash.clone()]);
    // Announced again (another peer), polled again: fetched no more, appended no more.
    harness.node.announce(&hash);
    let fetches = |harness: &Harness| {
        harness
            .methods
            .iter()
            .filter(|method| **method == "eth_getTransactionByHash")
            .count()
    };
    let fetched = fetches(&harness);
    harness.run();
    harness.run();
    assert_eq!(fetches(&harness), fetched, "a seen hash is not fetched again");
    assert_eq!(harness.appended_hashes(), vec![hash]);
    // The append lands, the object dies before its answer: the restart
    // appends the same event again, which collapses onto the first.
    let second = harness.node.submit(8, Some(TOKEN), transfer_input(2, 2));
    harness.crash_after = Some("append");
    harness.run();
    assert_eq!(harness.crashes, 1);
    assert_eq!(harness.appended_hashes().len(), 2, "the append landed");
    assert_eq!(status(&harness)["txsQueued"], 1, "its answer did not");
    harness.settle();
    assert_eq!(harness.appended_hashes().last(), Some(&second));
    assert_eq!(harness.appended_hashes().len(), 2);
    assert!(harness.refused_appends.is_empty(), "{:?}", harness.refused_appends);
    assert!(harness.crashes > 0);
}

#[test]
fn s15_1_a_node_that_forgot_the_filter_gets_a_new_one_in_the_same_run() {
    let mut harness = Harness::new(3, &transfer_config());
    harness.run();
    let first_watch = status(&harness)["watchingSince"].clone();
    harness.node.submit(1, Some(TOKEN), transfer_input(1, 1));
    harness.run();
    harness.node.forget();
    // Pending while the node had no filter for the source: not replayed.
    harness.node.submit(2, Some(TOKEN), transfer_input(2, 2));
    harness.methods.clear();
    harness.run();
    assert_eq!(
        harness.methods,
        vec!["eth_getFilterChanges", "eth_newPendingTransactionFilter"]
    );
    let after = status(&harness);
    assert_eq!(after["filterResets"], 1);
    assert_eq!(after["status"], "running", "{after}");
    assert_ne!(after["watchingSince"], first_watch, "it watches since the new filter");
    let third = harness.node.submit(3, Some(TOKEN), transfer_input(3, 3));
    harness.run();
    let hashes = harness.appended_hashes();
    assert_eq!(hashes.len(), 2, "{hashes:?}");
    assert_eq!(hashes.last(), Some(&third));
}

#[test]
fn s15_1_a_run_makes_at_most_its_calls_and_the_queue_carries_the_rest() {
    let mut harness = Harness::new(4, &transfer_config());
    harness.run();
    let hashes: Vec<String> = (0..150)
        .map(|n| harness.node.submit(100 + n, Some(TOKEN), transfer_input(n, n)))
        .collect();
    let effect = harness.run();
    assert_eq!(harness.most_calls, MAX_SOURCE_RPC_CALLS_PER_RUN);
    let mid = status(&harness);
    assert_eq!(mid["txsSeen"], 150);
    assert_eq!(mid["txsQueued"], 150 - 39, "one poll and 39 fetches: {mid}");
    // More is due at once (not after the poll interval of 1 s).
    let Effect::Sleep { at_ms } = effect else {
        panic!("{effect:?}");
    };
    assert!(at_ms <= harness.now, "{at_ms} > {}", harness.now);
    harness.settle();
    assert_eq!(harness.appended_hashes(), hashes, "every one, once, in the order seen");
}

#[test]
fn s15_1_a_transaction_gone_before_its_fetch_is_counted_not_appended() {
    let mut harness = Harness::new(5, &transfer_config());
    harness.run();
    let gone = harness.node.submit(1, Some(TOKEN), transfer_input(1, 1));
    let kept = harness.node.submit(2, Some(TOKEN), transfer_input(2, 2));
    harness.node.dropped.insert(gone);
    harness.run();
    assert_eq!(harness.appended_hashes(), vec![kept]);
    assert_eq!(status(&harness)["txsVanished"], 1);
}

#[test]
fn s15_1_a_failure_backs_off_rotates_urls_and_makes_a_filter_on_the_new_one() {
    let mut harness = Harness::new(6, &transfer_config());
    harness.run();
    let hash = harness.node.submit(1, Some(TOKEN), transfer_input(1, 1));
    // The poll succeeds, the first fetch fails.
    harness.node.fault_percent = 100;
    let started = harness.now;
    let inputs = tributary::Inputs {
        now_ms: harness.now,
        entropy: [0; 16],
    };
    let Effect::Call(poll) = harness.source.begin_run(&inputs).unwrap() else {
        panic!("expected a poll");
    };
    assert_eq!((poll.method, poll.url_index), ("eth_getFilterChanges", 0));
    harness.node.fault_percent = 0;
    let answer = harness.node.answer(&poll, &mut harness.rng);
    let run_id = harness.source.run_id().unwrap();
    let Effect::Call(fetch) = harness.source.on_rpc(run_id, &answer, harness.now).unwrap() else {
        panic!("expected a fetch");
    };
    assert_eq!(fetch.method, "eth_getTransactionByHash");
    let busy = tributary::source::RpcAnswer::Response {
        status: 503,
        retry_after: None,
        body: b"busy".to_vec(),
    };
    let Effect::Sleep { at_ms } = harness.source.on_rpc(run_id, &busy, harness.now).unwrap() else {
        panic!("expected a backoff");
    };
    assert!(at_ms - started >= 800, "backed off: {}", at_ms - started);
    let retrying = status(&harness);
    assert_eq!(
        (retrying["status"].clone(), retrying["attempt"].clone()),
        (json!("retrying"), json!(1))
    );
    assert!(
        retrying["lastError"].as_str().unwrap().contains("HTTP 503"),
        "{retrying}"
    );
    // The next run uses the other URL: a filter is one node's, so it makes
    // a new one there, and fetches what was queued.
    harness.methods.clear();
    harness.run();
    assert_eq!(harness.methods[0], "eth_newPendingTransactionFilter");
    assert_eq!(harness.appended_hashes(), vec![hash]);
    assert_eq!(status(&harness)["status"], "running");
}

#[test]
fn s15_1_a_node_without_pending_filters_stops_the_source_with_the_reason() {
    let mut harness = Harness::new(7, &transfer_config());
    let inputs = tributary::Inputs {
        now_ms: harness.now,
        entropy: [0; 16],
    };
    let Effect::Call(call) = harness.source.begin_run(&inputs).unwrap() else {
        panic!("expected a call");
    };
    let refused = rpc_error(
        &json!(call.id),
        -32601,
        "the method eth_newPendingTransactionFilter does not exist",
    );
    let run_id = harness.source.run_id().unwrap();
    assert_eq!(
        harness.source.on_rpc(run_id, &refused, harness.now).unwrap(),
        Effect::Stop
    );
    let failed = status(&harness);
    assert_eq!(failed["status"], "failed");
    assert!(failed["lastError"].as_str().unwrap().contains("-32601"), "{failed}");
}

/// One random history: transactions (matching or not) entering the pool,
/// re-announcements, dropped transactions, forgotten filters, faults and
/// crashes between any two steps.
fn history(seed: u64, fault_percent: u64, crash_percent: u64, forget_percent: u64) -> Result<(), TestCaseError> {
    let mut harness = Harness::new(seed, &transfer_config());
    harness.node.fault_percent = fault_percent;
    harness.crash_percent = crash_percent;
    let mut rng = Rng(seed ^ 0x5eed);
    let mut n = 0u64;
    for _run in 0..(10 + rng.below(30)) {
        for _tx in 0..rng.below(12) {
            n += 1;
            let to = [Some(TOKEN), Some(OTHER), None][rng.below(3) as usize];
            let input = match rng.below(4) {
                0 => format!("0x095ea7b3{:064x}{:064x}", n, n),
                1 => format!("0x{:016x}", rng.next()),
                _ => transfer_input(rng.next() % 1000, rng.next()),
            };
            let hash = harness.node.submit(n, to, input);
            if rng.chance(10) {
                harness.node.dropped.insert(hash);
            }
        }
        if n > 0 && rng.chance(20) {
            let again = format!("0x{:064x}", 1 + rng.below(n));
            harness.node.announce(&again);
        }
        if rng.chance(forget_percent) {
            harness.node.forget();
        }
        harness.run();
        prop_assert!(harness.most_calls <= MAX_SOURCE_RPC_CALLS_PER_RUN);
    }
    harness.settle();
    let appended = harness.appended_hashes();
    let unique: BTreeSet<&String> = appended.iter().collect();
    prop_assert_eq!(
        unique.len(),
        appended.len(),
        "a transaction appended twice: {:?}",
        appended
    );
    prop_assert!(harness.refused_appends.is_empty(), "{:?}", harness.refused_appends);
    let expected: BTreeSet<String> = harness
        .node
        .delivered
        .iter()
        .filter(|hash| harness.node.matches(hash) && !harness.node.answered_null.contains(*hash))
        .cloned()
        .collect();
    let got: BTreeSet<String> = appended.into_iter().collect();
    // Every match the source heard of is appended; nothing else is (a
    // dropped transaction may still be appended if it was fetched first).
    prop_assert!(
        expected.is_subset(&got),
        "missing {:?}",
        expected.difference(&got).collect::<Vec<_>>()
    );
    for hash in &got {
        prop_assert!(
            harness.node.matches(hash) && harness.node.delivered.contains(hash),
            "{hash} should not be appended"
        );
    }
    let row = harness.source.row().unwrap();
    prop_assert_eq!(row.events_appended, u64::try_from(got.len()).unwrap());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn s15_1_random_pools_faults_forgetting_and_crashes_append_each_match_once(
        seed in any::<u64>(),
        fault_percent in 0u64..25,
        crash_percent in 0u64..15,
        forget_percent in 0u64..20,
    ) {
        history(seed, fault_percent, crash_percent, forget_percent)?;
    }
}

#[test]
fn s15_1_a_history_without_any_match_appends_nothing() {
    // Found by the property: no match ever, so the stream is never created.
    history(626_707_388_268_097_861, 0, 10, 9).unwrap();
}
