//! The EVM source natively (docs/design.md §15): the state machine driven over
//! scripted chains by a fake JSON-RPC node, appending into a real engine
//! stream over SQLite. The property: whatever the forks (random depth,
//! flip-flops back to an old fork), faults (429, 5xx, timeouts, wrong ids,
//! logs whose block hash does not match) and crashes (between any two
//! steps, an append included), once the source has caught up the stream's
//! non-invalidated `evm.log` events are exactly the final canonical chain's
//! matching logs, in order; and catch-up reads finalized blocks by range.
//!
//! The harness (chain, node, crashes) lives in `tests/source_support/`.
//! Reorg shapes (deep reorgs included), failures (backoff, budgets), the
//! payload and the validation of malformed, oversized and hostile input
//! have their own `engine_source_*` files.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod source_support;

use source_support::*;
use tributary::source::Effect;

// ---------- the property ----------

#[test]
fn s15_random_forks_faults_and_crashes_leave_exactly_the_canonical_logs_valid() {
    let seeds: u64 = std::env::var("SOURCE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let only: Option<u64> = std::env::var("SOURCE_SEED").ok().and_then(|s| s.parse().ok());
    let mut reorgs = 0;
    let mut deep = 0;
    let mut crashes = 0;
    let mut invalidations = 0;
    let mut revived = 0;
    for seed in only.map_or(1..=seeds, |seed| seed..=seed) {
        let mut rng = Rng::new(seed ^ 0xABCD);
        let finality = 3 + rng.below(10);
        let confirmations = rng.below(3);
        let start = rng.below(5);
        let config = base_config(finality, confirmations, Some(start));
        let mut harness = Harness::new(seed, 5 + rng.below(20), &config);
        harness.chain.min_ancestor = start;
        harness.faults = Faults { percent: rng.below(15) };
        harness.crash_percent = rng.below(8);
        harness.move_percent = 10 + rng.below(30);
        // Reorgs stay within the window (deep ones are their own test).
        harness.max_reorg = finality.min(1 + rng.below(6));
        harness.max_logs = 1 + rng.below(4);
        for _step in 0..(40 + rng.below(80)) {
            let effect = harness.run();
            assert!(
                !matches!(effect, Effect::Stop),
                "seed {seed}: the source stopped: {:?}",
                harness.source.status()
            );
        }
        harness.settle();
        let context = format!(
            "seed {seed} (replay: SOURCE_SEED={seed} cargo test --test engine_source s15_random): finality {finality}, confirmations {confirmations}, status {}",
            harness.source.status().unwrap()
        );
        assert_eq!(harness.source.row().unwrap().deep_reorgs, 0, "{context}");
        harness.assert_invariant(start, &context);
        revived += harness
            .events()
            .iter()
            .filter(|event| {
                event["type"] == "evm.log" && event["idempotencyKey"].as_str().unwrap().matches(':').count() > 4
            })
            .count();
        invalidations += harness.source.row().unwrap().invalidations;
        let row = harness.source.row().unwrap();
        reorgs += row.reorgs;
        deep += row.deep_reorgs;
        crashes += harness.crashes;
    }
    eprintln!(
        "{seeds} seeds: {reorgs} reorgs, {invalidations} invalidations, {revived} revived logs, {deep} deep, {crashes} crashes"
    );
    if only.is_none() {
        assert!(
            reorgs > 0 && invalidations > 0 && crashes > 0 && revived > 0,
            "the property saw too little"
        );
    }
}

// ---------- catch-up, payload ----------

#[test]
fn s15_catch_up_reads_finalized_blocks_by_range_and_unfinalized_ones_by_hash() {
    let mut harness = Harness::new(66, 2_000, &base_config(64, 0, Some(0)));
    harness.settle();
    harness.assert_invariant(0, "catch-up");
    let ranges = harness.effects.iter().filter(|m| **m == "eth_getLogs").count();
    // 2001 blocks: ~1937 final ones in a few ranges (500, then growing), 64 by hash.
    assert!(ranges < 64 + 10, "{ranges} getLogs calls");
    assert_eq!(harness.source.row().unwrap().finalized_block, Some(2_000 - 64));
}
