//! Delivery outcomes and latencies for a Workers Analytics Engine dataset
//! (§11): when the deployment binds `METRICS`, every completion of the
//! alarm's turn becomes one data point. The engine only shapes the point
//! ([`delivery_data_point`]); writing it is an effect behind
//! [`AnalyticsSink`] (the shell's calls `writeDataPoint`, tests count).

use crate::delivery::{Completion, DeliveryPlan};
use crate::subscription::Receiver;

/// An Analytics Engine index holds at most this many bytes.
pub const ANALYTICS_INDEX_BYTES: usize = 96;

/// One data point, in the dataset's columns.
#[derive(Debug, Clone, PartialEq)]
pub struct DeliveryDataPoint {
    /// `blob1..blob5`: project, stream path, subscription key, receiver
    /// kind, outcome (`delivered`, `retried`, `halted`, `dead_lettered`).
    pub blobs: [String; 5],
    /// `double1..double4`: delivery duration (send → result) and completion
    /// latency (last event's commit → result) in ms, attempt, events.
    pub doubles: [f64; 4],
    /// The sampling index: the stream path, cut to [`ANALYTICS_INDEX_BYTES`].
    pub index: String,
}

/// Where data points go: the `METRICS` binding, or a test's counter.
pub trait AnalyticsSink {
    fn write(&mut self, point: DeliveryDataPoint);
}

fn receiver_kind(receiver: &Receiver) -> &'static str {
    match receiver {
        Receiver::ProcessorWake { .. } => "processor",
        Receiver::CopyToStream { .. } => "copy-to-stream",
        Receiver::ItxCall { .. } => "itx-call",
        Receiver::WebhookPost { .. } => "webhook-post",
        Receiver::Log { .. } => "log",
    }
}

/// `text` cut to at most `bytes` bytes at a character boundary.
fn cut(text: &str, bytes: usize) -> String {
    let mut end = text.len().min(bytes);
    // A character boundary is at most 3 bytes back.
    for _ in 0..4 {
        if text.is_char_boundary(end) {
            break;
        }
        end -= 1;
    }
    text.get(..end).unwrap_or_default().to_owned()
}

/// The data point of one completion at `now_ms`; `None` for a stale one
/// (it changed nothing).
pub fn delivery_data_point(
    project: &str,
    plan: &DeliveryPlan,
    completion: &Completion,
    now_ms: i64,
) -> Option<DeliveryDataPoint> {
    let outcome = match completion {
        Completion::Acknowledged { .. } => "delivered",
        Completion::RetryScheduled { .. } => "retried",
        Completion::Halted { .. } => "halted",
        Completion::Skipped { .. } => "dead_lettered",
        Completion::Stale => return None,
    };
    let path = plan.stamp.source_path.as_str();
    let latency = plan.events.last().map_or(0, |last| now_ms - last.created_at_ms);
    Some(DeliveryDataPoint {
        blobs: [
            project.to_owned(),
            path.to_owned(),
            plan.subscription_key.clone(),
            receiver_kind(&plan.receiver).to_owned(),
            outcome.to_owned(),
        ],
        doubles: [
            (now_ms - plan.started_at_ms) as f64,
            latency as f64,
            plan.attempt as f64,
            plan.events.len() as f64,
        ],
        index: cut(path, ANALYTICS_INDEX_BYTES),
    })
}

/// Writes the point of one completion to `sink`, if it has one.
pub fn record_delivery(
    sink: &mut dyn AnalyticsSink,
    project: &str,
    plan: &DeliveryPlan,
    completion: &Completion,
    now_ms: i64,
) {
    if let Some(point) = delivery_data_point(project, plan, completion, now_ms) {
        sink.write(point);
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn an_index_is_cut_at_a_character_boundary() {
        assert_eq!(cut("abc", 96), "abc");
        let long = format!("/{}", "é".repeat(60));
        let cut = cut(&long, ANALYTICS_INDEX_BYTES);
        assert!(cut.len() <= ANALYTICS_INDEX_BYTES && long.starts_with(&cut), "{cut}");
        assert_eq!(cut.len(), 95);
    }
}
