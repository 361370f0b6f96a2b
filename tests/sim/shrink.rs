//! Delta debugging for failing schedules: removes chunks of steps while the
//! same invariant still breaks. Each step carries its own dice, so the
//! remaining steps keep their choices. Bounded by `budget` runs.

/// Shrinks `steps`; `fails(candidate)` runs a candidate and says whether it
/// breaks the same invariant, with its report. Returns the smallest failing
/// schedule found and its report.
pub fn shrink_steps<S: Copy, R>(steps: Vec<S>, budget: usize, fails: impl Fn(&[S]) -> (bool, R)) -> (Vec<S>, R) {
    let mut best = steps;
    let (_, mut best_report) = fails(&best);
    let mut budget = budget;
    let passes = budget;
    let mut chunk = best.len().div_ceil(2).max(1);
    // Each pass spends at least one run of the budget, or ends.
    for _pass in 0..=passes {
        let mut start = 0;
        let mut progressed = false;
        while start < best.len() && budget > 0 {
            budget -= 1;
            let end = (start + chunk).min(best.len());
            let candidate: Vec<S> = best[..start].iter().chain(&best[end..]).copied().collect();
            let (same, report) = fails(&candidate);
            if same {
                best = candidate;
                best_report = report;
                progressed = true;
            } else {
                start += chunk;
            }
        }
        if budget == 0 || (chunk == 1 && !progressed) {
            break;
        }
        if !progressed {
            chunk = chunk.div_ceil(2);
        }
    }
    (best, best_report)
}
