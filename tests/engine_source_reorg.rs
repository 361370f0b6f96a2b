//! EVM source reorganisations natively (docs/design.md §15 "Reorg →
//! invalidation"): a reorg invalidates exactly the dead fork's offsets, a
//! fork deeper than the window invalidates the whole window, a block that
//! comes back is appended again under a new key, a crash between append and
//! checkpoint repeats the work once, and many dead offsets split into several
//! invalidations.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod source_support;

use serde_json::Value;
use source_support::*;
use tributary::source::Effect;
use tributary::Inputs;

// ---------- reorg shapes ----------

fn offsets_of(harness: &mut Harness, block_hashes: &[String]) -> Vec<u64> {
    harness
        .events()
        .iter()
        .filter(|event| {
            event["type"] == "evm.log"
                && block_hashes
                    .iter()
                    .any(|hash| event["payload"]["blockHash"].as_str() == Some(hash.as_str()))
        })
        .map(|event| event["offset"].as_u64().unwrap())
        .collect()
}

fn invalidations(harness: &mut Harness) -> Vec<Value> {
    harness
        .events()
        .into_iter()
        .filter(|event| event["type"] == INVALIDATED)
        .collect()
}

#[test]
fn s15_a_reorg_invalidates_exactly_the_dead_forks_offsets_then_appends_the_new_fork() {
    let mut harness = Harness::new(11, 12, &base_config(64, 0, Some(0)));
    harness.chain.set_logs(11, vec![transfer(1), transfer(2)]);
    harness.chain.set_logs(12, vec![transfer(3)]);
    harness.settle();
    harness.assert_invariant(0, "before");
    let dead: Vec<String> = (harness.chain.tip() - 1..=harness.chain.tip())
        .map(|n| hex(&harness.chain.by_number(n).unwrap().hash))
        .collect();
    let dead_offsets = offsets_of(&mut harness, &dead);
    assert!(!dead_offsets.is_empty());
    let mut rng = Rng::new(5);
    harness.chain.reorg(&mut rng, 2, 1, 3);
    let head_before = harness.events().len() as u64;
    harness.settle();
    let found = invalidations(&mut harness);
    assert_eq!(found.len(), 1);
    let offsets: Vec<u64> = found[0]["payload"]["offsets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|offset| offset.as_u64().unwrap())
        .collect();
    assert_eq!(offsets, dead_offsets);
    // The invalidation comes before the new fork's logs.
    assert_eq!(found[0]["offset"].as_u64().unwrap(), head_before + 1);
    let key = found[0]["idempotencyKey"].as_str().unwrap();
    let ancestor = hex(&harness.chain.by_number(harness.chain.tip() - 3).unwrap().hash);
    assert_eq!(
        key,
        format!("evm:transfers:{CHAIN_ID}:reorg:{ancestor}:{}:0:0", dead[1]),
        "the key names the ancestor and the dead tip"
    );
    assert_eq!(found[0]["metadata"]["deep"], false);
    harness.assert_invariant(0, "after");
    let row = harness.source.row().unwrap();
    assert_eq!((row.reorgs, row.deep_reorgs, row.invalidations), (1, 0, 1));
}

#[test]
fn s15_a_reorg_touching_no_matched_logs_invalidates_nothing() {
    let mut harness = Harness::new(3, 10, &base_config(64, 0, Some(0)));
    harness.max_logs = 0;
    // Blocks 11 and 12 without logs, then a reorg of exactly those.
    let mut rng = Rng::new(9);
    harness.chain.extend(&mut rng, 2, 0);
    harness.settle();
    let before = harness.events().len();
    harness.chain.reorg(&mut rng, 2, 1, 0);
    harness.settle();
    assert!(invalidations(&mut harness).is_empty());
    assert_eq!(harness.events().len(), before);
    assert_eq!(harness.source.row().unwrap().reorgs, 1);
    harness.assert_invariant(0, "no-log reorg");
}

#[test]
fn s15_a_fork_deeper_than_the_window_invalidates_the_whole_window_and_rewinds_to_the_floor() {
    let finality = 3;
    let mut rng = Rng::new(21);
    let mut harness = Harness::new(21, 0, &base_config(finality, 0, Some(0)));
    // Every block has logs so the window has offsets.
    harness.chain = Chain::empty();
    while harness.chain.canonical.len() < 13 {
        harness.chain.push(&mut rng, 0);
        let number = harness.chain.tip();
        let hash = harness.chain.canonical[number as usize];
        let block = harness.chain.blocks.get_mut(&hash).unwrap();
        block.logs = vec![FakeLog {
            address: TOKEN,
            topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
            data: word(number, 0).to_vec(),
            tx: word(number, 0x77),
        }];
    }
    harness.settle();
    let row = harness.source.row().unwrap().clone();
    assert_eq!(row.finalized_block, Some(12 - finality));
    let window: Vec<String> = (row.finalized_block.unwrap() + 1..=12)
        .map(|n| hex(&harness.chain.by_number(n).unwrap().hash))
        .collect();
    let window_offsets = offsets_of(&mut harness, &window);
    assert_eq!(window_offsets.len(), finality as usize);
    harness.chain.reorg(&mut rng, 6, 1, 2);
    harness.settle();
    let found = invalidations(&mut harness);
    assert_eq!(found.len(), 1);
    let offsets: Vec<u64> = found[0]["payload"]["offsets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|offset| offset.as_u64().unwrap())
        .collect();
    assert_eq!(offsets, window_offsets, "the whole window, and only it");
    assert_eq!(found[0]["metadata"]["deep"], true);
    let row = harness.source.row().unwrap();
    assert_eq!(row.deep_reorgs, 1);
    // Above the floor the stream again equals the canonical chain.
    let floor = 12 - finality;
    let expected = harness.chain.matching(floor + 1);
    let valid = harness.valid_logs();
    assert!(valid.ends_with(&expected), "{valid:?} does not end with {expected:?}");
    let logs = harness.source.take_logs();
    assert!(logs.iter().any(|line| line["event"] == "source_deep_reorg"), "{logs:?}");
}

#[test]
fn s15_a_block_that_comes_back_is_appended_again_under_a_new_key() {
    let mut rng = Rng::new(33);
    let mut harness = Harness::new(33, 0, &base_config(64, 0, Some(0)));
    harness.chain = Chain::empty();
    let log = FakeLog {
        address: TOKEN,
        topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
        data: word(1, 0).to_vec(),
        tx: word(1, 0x77),
    };
    for _ in 0..6 {
        harness.chain.push(&mut rng, 0);
    }
    let hash = harness.chain.canonical[5];
    harness.chain.blocks.get_mut(&hash).unwrap().logs = vec![log];
    harness.settle();
    harness.chain.reorg(&mut rng, 2, 1, 0);
    harness.settle();
    assert!(harness.chain.flip_back(10));
    harness.chain.extend(&mut rng, 1, 0);
    harness.settle();
    harness.assert_invariant(0, "flip-flop");
    let keys: Vec<String> = harness
        .events()
        .iter()
        .filter(|event| event["type"] == "evm.log")
        .map(|event| event["idempotencyKey"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[1], format!("{}:1", keys[0]));
}

#[test]
fn s15_a_crash_after_an_append_before_the_checkpoint_repeats_the_work_once_even_if_the_block_died() {
    let mut rng = Rng::new(44);
    let mut harness = Harness::new(44, 0, &base_config(64, 0, Some(0)));
    harness.chain = Chain::empty();
    harness.chain.push(&mut rng, 0);
    harness.chain.set_logs(0, vec![transfer(0)]);
    harness.settle();
    harness.chain.push(&mut rng, 0);
    harness.chain.set_logs(1, vec![transfer(1), transfer(2)]);
    // Run until block 1's append lands, then crash before its answer is fed.
    let inputs = Inputs {
        now_ms: harness.now,
        entropy: [1; 16],
    };
    let mut effect = harness.source.begin_run(&inputs).unwrap();
    let run_id = harness.source.run_id().unwrap();
    loop {
        match effect {
            Effect::Call(call) => {
                let answer = answer(&harness.chain, &call, &mut rng, Faults::default());
                effect = harness.source.on_rpc(run_id, &answer, harness.now).unwrap();
            }
            Effect::Append(append) => {
                harness.append(&append.body);
                break;
            }
            other => panic!("expected an append, got {other:?}"),
        }
    }
    harness.crash();
    assert_eq!(harness.events().len(), 3);
    assert_eq!(
        harness.source.row().unwrap().next_block,
        Some(1),
        "the checkpoint did not move"
    );
    // The block the append came from dies before the restart.
    harness.chain.reorg(&mut rng, 1, 1, 0);
    harness.settle();
    // The restart finished the written-ahead block (same keys: nothing
    // appended twice), then the reorg invalidated it: never left valid.
    let invalidated: Vec<u64> = harness.invalidated().into_iter().collect();
    assert_eq!(invalidated, vec![2, 3]);
    assert_eq!(harness.events().len(), 4, "three evm.log events and one invalidation");
    harness.assert_invariant(0, "crash then reorg");
    let row = harness.source.row().unwrap();
    assert_eq!(row.events_appended, 3);
}

#[test]
fn s15_more_than_1000_dead_offsets_are_split_into_several_invalidations() {
    let mut rng = Rng::new(55);
    let mut harness = Harness::new(55, 0, &base_config(64, 0, Some(0)));
    harness.chain = Chain::empty();
    harness.chain.push(&mut rng, 0);
    harness.chain.push(&mut rng, 0);
    let hash = harness.chain.canonical[1];
    harness.chain.blocks.get_mut(&hash).unwrap().logs = (0..1500)
        .map(|i| FakeLog {
            address: TOKEN,
            topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
            data: word(i, 0).to_vec(),
            tx: word(i, 0x77),
        })
        .collect();
    harness.settle();
    assert_eq!(harness.events().len(), 1500);
    harness.chain.reorg(&mut rng, 1, 1, 0);
    harness.settle();
    let found = invalidations(&mut harness);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0]["payload"]["offsets"].as_array().unwrap().len(), 1000);
    assert_eq!(found[1]["payload"]["offsets"].as_array().unwrap().len(), 500);
    assert_ne!(found[0]["idempotencyKey"], found[1]["idempotencyKey"]);
    assert_eq!(harness.invalidated().len(), 1500);
    assert_eq!(harness.source.row().unwrap().invalidations, 2);
}
