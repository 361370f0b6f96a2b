//! Issue 9: the simulation explores what the shell does (docs/design.md §6, §7, §8).
//!
//! Per seed, a random schedule over one source stream (real SQLite through
//! the engine's native driver) with subscriptions of every receiver kind and
//! policy (webhook-post and itx-call in halt and skip mode, aggregate,
//! throttle, copy-to-stream into a second stream whose receiving side is the
//! engine's own `accept_copy_body`; filters and transforms of which some fail
//! on some events) interleaves: planning any subset of the due subscriptions,
//! completing outstanding sends in any order with any outcome (delivered,
//! transient, Retry-After, permanent, hang, answer lost), client requests
//! between plan and completion (appends, ephemeral ones too, reconfigure,
//! cursor-set, remove, resume, destroy-and-recreate), clock jumps, and
//! restarts (the `Stream` is dropped and reopened; the dead instance's sends
//! may still complete afterwards). After every step:
//!
//! 1. nothing passes silently (§6 rule 11): every durable, non-audit event at
//!    or below a cursor (`runtime_rows`), in the current run, was delivered
//!    (the model receiver's record for that run), filtered out by a filter
//!    that evaluated cleanly (an oracle written in plain Rust), dead-lettered
//!    (`dead_letters`), or is covered by a halt (`state`); each fresh plan is
//!    also checked against the log (`read_range`) and the oracle;
//! 2. in order per subscription within a run (§6 rules 3, 9): a receiver
//!    never sees a new offset below one it already saw, and a cursor never
//!    goes back;
//! 3. no stale completion applied (§6 rule 7): completing a plan of an older
//!    run or lifetime — or of a send a newer send of its subscription
//!    superseded, such as a dead instance's while the new instance's send of
//!    the same range is in flight (§6 rules 6, 9; the send's lease) —
//!    returns `Stale` and changes no runtime row, state, head or dead
//!    letter; the receiving stream never fences off a current run;
//! 4. bounded work per engine call (§6 rule 10, §12): a counting `Storage`
//!    around the rusqlite driver fails any call past 20 000 rows read or 5 000
//!    statements (so a looping call ends instead of hanging the test);
//! 5. the reduced state equals a rebuild from the log (§5), on both streams;
//!
//! 8. concurrent delivery (§8 `concurrency`, issue 20): webhook-post and
//!    itx-call subscriptions in skip mode (throttled ones too) now and then
//!    run with concurrency 2-6, so several single-event sends of one key are
//!    outstanding and complete in any order, fail, retry, dead-letter and
//!    survive crashes; their receivers may see offsets out of order
//!    (invariant 2 is relaxed for them), but a window never has more than
//!    its concurrency open, never holds an open delivery at or below the
//!    cursor (so the cursor never passes an incomplete offset), and no plan
//!    resends an offset at or below the cursor or one whose delivery
//!    completed in the run — after a crash included;
//! 9. nothing is acknowledged past what one invocation may write (§12 "log
//!    receiver", §15.1): the shell writes a log batch's lines the moment it
//!    is planned, and the platform keeps only 256 KB of one invocation's
//!    log; no invocation writes more than its budget, and a line past the
//!    capture never reaches the model receiver, so invariant 1 catches a
//!    cursor that passed it. Some events are large: their lines fill an
//!    invocation's budget, or one line exceeds it (dead-lettered or halted);
//! 10. no turn stops on a trim step, and no cursor passes an offset without
//!     its `trimmed` fact (§16; invariant 1 counts a pass only by a fact
//!     written after the run began): now and then a trim step's transaction
//!     fails after its facts committed — the object dies there, or the turn
//!     goes on — so a later try finds its fact (the head moved since); and a
//!     hostile append takes the key of the fact retention would write next,
//!     and the keys it would move to (the router refuses them, §2: the sim
//!     asserts that, then appends them as keys taken before the reservation).
//!     Facts written and trimmed within one turn are observed as written;
//!
//! and at the end, after a drain in which every send succeeds, every
//! subscription that is not halted has caught up with the head (6). Every
//! 50th seed runs twice and must give the same trace (7).
//!
//! A failure prints its seed, the command that replays it, and a schedule
//! shrunk to the fewest steps that still break the same invariant.
//! `SIM_SEED=n` runs one seed and prints its trace; `SIM_SEEDS=n` sets how
//! many seeds the run covers (default 1000), plus the pinned
//! [`REGRESSION_SEEDS`] past that range; `SIM_STEPS=n` the steps per seed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod sim;

use sim::world::{run, schedule, Report, Stats, Step, Violation};
use std::time::Instant;

const DEFAULT_SEEDS: u64 = 1_000;
/// Seeds a wider sweep once broke an invariant (at the default step
/// count), run by every sweep: 1449 and 3880 broke invariant 2 when a dead
/// instance's late failure of a range was taken while the new instance's
/// send of it was in flight (tests/engine_send_leases.rs); 11112 broke
/// invariant 1 when a trim passed a halted threshold digest whole and its
/// fact did not name the hit the digest held from before the cursor
/// (tests/engine_gates_failures.rs).
const REGRESSION_SEEDS: &[u64] = &[1449, 3880, 11112];
const DEFAULT_STEPS: usize = 50;
/// Failures shrunk and printed in full (the rest are listed by seed).
const SHRUNK_FAILURES: usize = 3;
/// Replays one shrink may spend.
const SHRINK_BUDGET: usize = 1_500;
/// Every this many seeds, the seed runs twice and must give the same trace.
const DETERMINISM_EVERY: u64 = 50;

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|value| value.trim().parse().ok())
}

struct Failure {
    seed: u64,
    step: usize,
    violation: Violation,
    steps: Vec<Step>,
}

/// Removes steps while the same invariant still breaks (delta debugging):
/// each step carries its own dice, so the remaining ones keep their choices.
fn shrink(seed: u64, steps: Vec<Step>, invariant: &str) -> (Vec<Step>, Report) {
    sim::shrink::shrink_steps(steps, SHRINK_BUDGET, |candidate: &[Step]| {
        let report = run(seed, candidate, false);
        let same = report
            .failure
            .as_ref()
            .is_some_and(|(_, violation)| violation.invariant == invariant);
        (same, report)
    })
}

/// Names the known engine bug a failure looks like, for the report.
fn diagnosis(violation: &Violation) -> &'static str {
    let detail = &violation.detail;
    match violation.invariant {
        sim::world::INV_WORK if detail.contains("plan_delivery") => {
            "looks like known bug (b): a digest's retry range ending on an ephemeral offset makes plan_delivery loop"
        }
        sim::world::INV_SILENT if detail.contains("Fails") => {
            "looks like known bug (a): a filter/transform error passed without a dead letter"
        }
        sim::world::INV_STALE if detail.contains("lifetime was destroyed") => {
            "looks like known bug (c): the stale check ignores streamId"
        }
        _ => "",
    }
}

#[test]
fn shell_interleavings_keep_every_delivery_invariant() {
    let steps_per_seed = env_number("SIM_STEPS").map_or(DEFAULT_STEPS, |n| n as usize);
    let single = env_number("SIM_SEED");
    let seeds: Vec<u64> = match single {
        Some(seed) => vec![seed],
        None => {
            let count = env_number("SIM_SEEDS").unwrap_or(DEFAULT_SEEDS);
            let pinned = REGRESSION_SEEDS.iter().copied().filter(|seed| *seed > count);
            (1..=count).chain(pinned).collect()
        }
    };
    let verbose = single.is_some();
    let started = Instant::now();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 4);
    let chunks: Vec<Vec<u64>> = (0..workers)
        .map(|worker| seeds.iter().copied().skip(worker).step_by(workers).collect())
        .collect();
    let results: Vec<(Stats, Vec<Failure>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                scope.spawn(move || {
                    let mut stats = Stats::default();
                    let mut failures = Vec::new();
                    for &seed in chunk {
                        let steps = schedule(seed, steps_per_seed);
                        let report = run(seed, &steps, verbose);
                        stats.add(&report.stats);
                        if seed % DETERMINISM_EVERY == 0 || single.is_some() {
                            let again = run(seed, &steps, false);
                            if again.trace != report.trace {
                                let step = again
                                    .trace
                                    .iter()
                                    .zip(&report.trace)
                                    .position(|(a, b)| a != b)
                                    .unwrap_or(0);
                                failures.push(Failure {
                                    seed,
                                    step: steps.len(),
                                    violation: Violation {
                                        invariant: "7 deterministic per seed",
                                        detail: format!(
                                            "a second run's trace differs at line {step}: {:?} vs {:?}",
                                            report.trace.get(step),
                                            again.trace.get(step)
                                        ),
                                    },
                                    steps: steps.clone(),
                                });
                                continue;
                            }
                        }
                        if let Some((step, violation)) = report.failure {
                            failures.push(Failure {
                                seed,
                                step,
                                violation,
                                steps,
                            });
                        }
                    }
                    (stats, failures)
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).collect()
    });
    let mut stats = Stats::default();
    let mut failures: Vec<Failure> = Vec::new();
    for (part, part_failures) in results {
        stats.add(&part);
        failures.extend(part_failures);
    }
    failures.sort_by_key(|failure| failure.seed);
    println!(
        "sim_interleavings: {} seeds, {} steps, {} plans, {} deliveries ({} events), {} dead letters, {} halts, \
         {} skips, {} stale completions ({} superseded sends), {} zombie completions, {} crashes, {} destroys, {} fence rejections, \
         {} engine calls (max {} rows / {} statements in one), {} gated plans, {} concurrent plans (at most {} \
         open in one window, {} receipts out of order), {} rows trimmed ({} trimmed facts, {} ephemeral expired, \
         {} failed steps, {} facts answered from an earlier try, {} squatted keys), \
         {} log lines (at most {} bytes in one invocation, {} waits for the next, {} over the budget), {} failing seeds, {:.1}s",
        stats.seeds,
        stats.steps,
        stats.plans,
        stats.deliveries,
        stats.delivered_events,
        stats.dead_letters,
        stats.halts,
        stats.skips,
        stats.stale_completions,
        stats.superseded_completions,
        stats.zombie_completions,
        stats.crashes,
        stats.destroys,
        stats.fence_rejections,
        stats.engine_calls,
        stats.max_rows_per_call,
        stats.max_queries_per_call,
        stats.gated_plans,
        stats.concurrent_plans,
        stats.max_open_slots,
        stats.out_of_order_receipts,
        stats.trimmed_rows,
        stats.trimmed_facts,
        stats.expired_rows,
        stats.trim_faults,
        stats.retried_facts,
        stats.squatted_keys,
        stats.log_lines,
        stats.max_invocation_log_bytes,
        stats.log_waits,
        stats.oversized_lines,
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    if failures.is_empty() {
        return;
    }
    let mut message = String::new();
    let mut by_invariant: std::collections::BTreeMap<&str, Vec<u64>> = std::collections::BTreeMap::new();
    for failure in &failures {
        by_invariant
            .entry(failure.violation.invariant)
            .or_default()
            .push(failure.seed);
    }
    for (invariant, seeds) in &by_invariant {
        let shown: Vec<String> = seeds.iter().take(20).map(u64::to_string).collect();
        message.push_str(&format!(
            "invariant {invariant}: {} seeds, e.g. {}\n",
            seeds.len(),
            shown.join(", ")
        ));
    }
    // Shrink the first failure of each invariant (up to a few).
    let mut shrunk = 0;
    let mut done: Vec<&str> = Vec::new();
    for failure in &failures {
        if shrunk >= SHRUNK_FAILURES || done.contains(&failure.violation.invariant) {
            continue;
        }
        done.push(failure.violation.invariant);
        shrunk += 1;
        let prefix: Vec<Step> = failure.steps.iter().take(failure.step + 1).copied().collect();
        let (steps, report) = if failure.violation.invariant.starts_with('7') {
            (failure.steps.clone(), run(failure.seed, &failure.steps, false))
        } else {
            shrink(failure.seed, prefix, failure.violation.invariant)
        };
        let diagnosis = diagnosis(&failure.violation);
        message.push_str(&format!(
            "\nseed {} failed at step {}: {}\n{}replay: SIM_SEED={} cargo test --test sim_interleavings -- \
             --nocapture\nshrunk to {} steps {:?}; its trace:\n{}\n",
            failure.seed,
            failure.step,
            failure.violation,
            if diagnosis.is_empty() {
                String::new()
            } else {
                format!("{diagnosis}\n")
            },
            failure.seed,
            steps.len(),
            steps,
            report.trace.join("\n")
        ));
    }
    panic!(
        "{} of {} seeds broke an invariant:\n{message}",
        failures.len(),
        stats.seeds
    );
}

/// Steps per seed of the copy-chain simulation (`SIM_STEPS` overrides).
const CHAIN_STEPS: usize = 40;

/// Issue 18 (docs/design.md §13 "Through copies", "Copies and invalidation
/// order"): copies carrying invalidations through two hops, `/a → /b → /c`
/// with a webhook on `/b` and `/c`, under failing and restarting receivers
/// (tests/sim/chain.rs). Invariant: every retraction reaches each receiver
/// in the chain before anything after its invalidation, and exactly the
/// copies of invalidated events are retracted, once.
#[test]
fn copy_chains_retract_before_anything_after_their_invalidation() {
    let steps_per_seed = env_number("SIM_STEPS").map_or(CHAIN_STEPS, |n| n as usize);
    let single = env_number("SIM_SEED");
    let seeds: Vec<u64> = match single {
        Some(seed) => vec![seed],
        None => (1..=env_number("SIM_SEEDS").unwrap_or(DEFAULT_SEEDS)).collect(),
    };
    let started = Instant::now();
    let (stats, result) = sim::chain_run::check_chain_seeds(&seeds, steps_per_seed, single.is_some());
    println!(
        "copy chains: {} seeds, {} steps, {} copies, {} invalidations on /a, {} derived on /b and /c, \
         {} retractions received, {} retractions dead-lettered, {} halts, {} crashes, {:.1}s",
        stats.seeds,
        stats.steps,
        stats.copies,
        stats.invalidations,
        stats.derived,
        stats.retractions,
        stats.dead_lettered_retractions,
        stats.halts,
        stats.crashes,
        started.elapsed().as_secs_f64()
    );
    if let Err(message) = result {
        panic!("{message}");
    }
}
