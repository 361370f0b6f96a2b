//! In-memory delivery figures for the debug card (§6, §11): completion
//! latency (event commit → acknowledgement) and delivery duration (send →
//! result). Kept since the object started, over the last samples.

use crate::limits::DELIVERY_STATS_SAMPLES;
use serde_json::{json, Value};
use std::collections::VecDeque;

#[derive(Debug, Clone, Default)]
pub struct Samples {
    count: u64,
    max: i64,
    recent: VecDeque<i64>,
}

impl Samples {
    pub fn record(&mut self, value: i64) {
        self.count += 1;
        self.max = self.max.max(value);
        if self.recent.len() == DELIVERY_STATS_SAMPLES {
            self.recent.pop_front();
        }
        self.recent.push_back(value);
    }

    fn percentile(sorted: &[i64], p: f64) -> Option<i64> {
        let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
        sorted.get(index).copied()
    }

    pub fn summary(&self) -> Value {
        let mut sorted: Vec<i64> = self.recent.iter().copied().collect();
        sorted.sort_unstable();
        json!({
            "count": self.count,
            "p50": Self::percentile(&sorted, 0.5),
            "p99": Self::percentile(&sorted, 0.99),
            "max": if self.count == 0 { None } else { Some(self.max) },
        })
    }
}

#[derive(Debug, Clone, Default)]
pub struct DeliveryStats {
    pub completion_latency_ms: Samples,
    pub delivery_duration_ms: Samples,
    pub outcomes: DeliveryOutcomes,
}

/// Completions by what they did (§11 deliveries by outcome), since the
/// object started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeliveryOutcomes {
    pub delivered: u64,
    pub retried: u64,
    pub halted: u64,
    pub dead_lettered: u64,
    pub stale: u64,
}

impl DeliveryOutcomes {
    pub fn record(&mut self, completion: &super::Completion) {
        use super::Completion;
        let count = match completion {
            Completion::Acknowledged { .. } => &mut self.delivered,
            Completion::RetryScheduled { .. } => &mut self.retried,
            Completion::Halted { .. } => &mut self.halted,
            Completion::Skipped { .. } => &mut self.dead_lettered,
            Completion::Stale => &mut self.stale,
        };
        *count += 1;
    }
}
