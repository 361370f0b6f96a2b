//! Running the copy-chain simulation over many seeds (see `chain.rs`):
//! one schedule per seed, then the drain; failures shrunk by delta debugging
//! and printed with the command that replays them.

use super::chain::{chain_schedule, ChainSim, ChainStats, ChainStep, ChainViolation, R5};
use std::collections::BTreeMap;

/// The result of one schedule.
pub struct ChainReport {
    pub stats: ChainStats,
    pub failure: Option<(usize, ChainViolation)>,
    pub trace: Vec<String>,
}

pub fn run_chain(seed: u64, steps: &[ChainStep], verbose: bool) -> ChainReport {
    let mut sim = match ChainSim::new(seed) {
        Ok(sim) => sim,
        Err(error) => {
            return ChainReport {
                stats: ChainStats::default(),
                failure: Some((0, error)),
                trace: Vec::new(),
            }
        }
    };
    sim.verbose = verbose;
    sim.stats.seeds = 1;
    let mut failure = None;
    for (index, step) in steps.iter().enumerate() {
        if let Err(error) = sim.run_step(index, *step) {
            failure = Some((index, error));
            break;
        }
    }
    if failure.is_none() {
        if let Err(error) = sim.drain() {
            failure = Some((steps.len(), error));
        }
    }
    if let Some((_, error)) = &failure {
        sim.log(format!("VIOLATION {error}"));
    }
    ChainReport {
        stats: sim.stats,
        failure,
        trace: sim.trace,
    }
}

/// Removes steps while the same invariant still breaks (delta debugging).
pub fn shrink_chain(seed: u64, steps: Vec<ChainStep>, invariant: &str, budget: usize) -> (Vec<ChainStep>, ChainReport) {
    super::shrink::shrink_steps(steps, budget, |candidate: &[ChainStep]| {
        let report = run_chain(seed, candidate, false);
        let same = report
            .failure
            .as_ref()
            .is_some_and(|(_, violation)| violation.invariant == invariant);
        (same, report)
    })
}

/// A failing seed: the seed, the step, what broke.
type Failed = (u64, usize, ChainViolation);

/// Runs `seeds` (in up to four threads); on failure, the message to panic
/// with: failing seeds, and the first failure shrunk with its replay command.
pub fn check_chain_seeds(seeds: &[u64], steps_per_seed: usize, verbose: bool) -> (ChainStats, Result<(), String>) {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 4);
    let results: Vec<(ChainStats, Vec<Failed>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let chunk: Vec<u64> = seeds.iter().copied().skip(worker).step_by(workers).collect();
                scope.spawn(move || {
                    let mut stats = ChainStats::default();
                    let mut failures = Vec::new();
                    for seed in chunk {
                        let steps = chain_schedule(seed, steps_per_seed);
                        let report = run_chain(seed, &steps, verbose);
                        stats.add(&report.stats);
                        // Every 50th seed runs twice: the same trace, or the
                        // seed does not replay what failed.
                        if seed % 50 == 0 && run_chain(seed, &steps, false).trace != report.trace {
                            let detail = "a second run's trace differs".to_owned();
                            failures.push((seed, steps.len(), ChainViolation { invariant: R5, detail }));
                            continue;
                        }
                        if let Some((step, violation)) = report.failure {
                            failures.push((seed, step, violation));
                        }
                    }
                    (stats, failures)
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).collect()
    });
    let mut stats = ChainStats::default();
    let mut failures = Vec::new();
    for (part, part_failures) in results {
        stats.add(&part);
        failures.extend(part_failures);
    }
    failures.sort_by_key(|(seed, _, _)| *seed);
    let Some((seed, step, first)) = failures.first().cloned() else {
        return (stats, Ok(()));
    };
    let mut by_invariant: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    for (seed, _, violation) in &failures {
        by_invariant.entry(violation.invariant).or_default().push(*seed);
    }
    let mut message = format!(
        "{} of {} copy-chain seeds broke an invariant:\n",
        failures.len(),
        seeds.len()
    );
    for (invariant, seeds) in &by_invariant {
        let shown: Vec<String> = seeds.iter().take(20).map(u64::to_string).collect();
        message.push_str(&format!(
            "{invariant}: {} seeds, e.g. {}\n",
            seeds.len(),
            shown.join(", ")
        ));
    }
    let prefix: Vec<ChainStep> = chain_schedule(seed, steps_per_seed)
        .into_iter()
        .take(step + 1)
        .collect();
    let (steps, report) = shrink_chain(seed, prefix, first.invariant, 1_500);
    message.push_str(&format!(
        "\nseed {seed} failed at step {step}: {first}\nreplay: SIM_SEED={seed} cargo test --test sim_interleavings \
         copy_chains -- --nocapture\nshrunk to {} steps {steps:?}; its trace:\n{}\n",
        steps.len(),
        report.trace.join("\n")
    ));
    (stats, Err(message))
}
