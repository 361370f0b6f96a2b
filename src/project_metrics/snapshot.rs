//! What a stream reports to its project (§11): the values of its series
//! ([`crate::stream::metrics::STREAM_SERIES`]) and of each subscription's ([`SUBSCRIPTION_SERIES`]),
//! by position — names, types and help stay in this table, so a snapshot is
//! a few hundred bytes plus the subscription keys.

use crate::storage::{Storage, StorageError};
use crate::stream::metrics::{SeriesDef, STREAM_SERIES_COUNT};
use crate::stream::Stream;
use serde::{Deserialize, Serialize};

/// How many series one subscription reports (§11).
pub const SUBSCRIPTION_SERIES_COUNT: usize = 10;

/// One subscription's series; a series named twice in a row is one family
/// with an `outcome` label (the first word after `outcome=` in its help).
#[rustfmt::skip]
pub const SUBSCRIPTION_SERIES: [SubscriptionSeriesDef; SUBSCRIPTION_SERIES_COUNT] = [
    SubscriptionSeriesDef { def: SeriesDef { name: "subscription_deliveries_total", kind: "counter", help: "Completed sends by outcome since the stream object started (§6, §11)." }, outcome: Some("delivered") },
    SubscriptionSeriesDef { def: SeriesDef { name: "subscription_deliveries_total", kind: "counter", help: "" }, outcome: Some("retried") },
    SubscriptionSeriesDef { def: SeriesDef { name: "subscription_deliveries_total", kind: "counter", help: "" }, outcome: Some("halted") },
    SubscriptionSeriesDef { def: SeriesDef { name: "subscription_deliveries_total", kind: "counter", help: "" }, outcome: Some("dead_lettered") },
    SubscriptionSeriesDef { def: SeriesDef { name: "subscription_deliveries_total", kind: "counter", help: "" }, outcome: Some("stale") },
    SubscriptionSeriesDef { def: SeriesDef { name: "subscription_lag", kind: "gauge", help: "Events between the subscription's cursor and the stream head (§11)." }, outcome: None },
    SubscriptionSeriesDef { def: SeriesDef { name: "subscription_attempt", kind: "gauge", help: "Attempts of the batch awaiting retry (0 when none)." }, outcome: None },
    SubscriptionSeriesDef { def: SeriesDef { name: "subscription_halted", kind: "gauge", help: "1 while the subscription is halted (§6), else 0." }, outcome: None },
    SubscriptionSeriesDef { def: SeriesDef { name: "subscription_dead_letters", kind: "gauge", help: "Dead letters held for the subscription (§8)." }, outcome: None },
    SubscriptionSeriesDef { def: SeriesDef { name: "subscription_bytes_sent_total", kind: "counter", help: "Bytes sent to the receiver in this run." }, outcome: None },
];

/// One entry of [`SUBSCRIPTION_SERIES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubscriptionSeriesDef {
    pub def: SeriesDef,
    /// The `outcome` label of a family split by outcome.
    pub outcome: Option<&'static str>,
}

/// A stream's report: the lifetime it is about and its values. Stored as
/// JSON in the project's `stream_metrics.snapshot` (src/schema.rs). A
/// snapshot from another version may hold fewer or more values: the
/// project renders the ones both know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamSnapshot {
    pub path: String,
    pub stream_id: String,
    /// The values of [`crate::stream::metrics::STREAM_SERIES`], in order.
    pub values: Vec<u64>,
    /// Subscriptions in key order.
    pub subscriptions: Vec<SubscriptionSnapshot>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionSnapshot {
    pub key: String,
    /// The values of [`SUBSCRIPTION_SERIES`], in order.
    pub values: Vec<u64>,
}

impl StreamSnapshot {
    /// A fingerprint of the values (not the lifetime's coordinates alone):
    /// two snapshots with the same fingerprint report the same thing.
    pub fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        self.hash(&mut hasher);
        hasher.finish()
    }

    /// The JSON a stream sends and the project stores.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn decode(text: &[u8]) -> Result<Self, serde_json::Error> {
        serde_json::from_slice(text)
    }
}

impl std::hash::Hash for StreamSnapshot {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.path.hash(state);
        self.stream_id.hash(state);
        self.values.hash(state);
        for subscription in &self.subscriptions {
            subscription.key.hash(state);
            subscription.values.hash(state);
        }
    }
}

impl<S: Storage> Stream<S> {
    /// What this stream reports to its project now; `None` without a
    /// lifetime (a destroyed stream's series leave with its catalog row).
    pub fn metrics_snapshot(&self) -> Result<Option<StreamSnapshot>, StorageError> {
        let Some(meta) = self.lifetime.as_ref() else {
            return Ok(None);
        };
        let values: [u64; STREAM_SERIES_COUNT] = self.series_values();
        let rows = self.runtime_rows()?;
        let dead_letters = self.dead_letter_counts();
        let subscriptions = self
            .state
            .subscriptions
            .outbound
            .by_key
            .iter()
            .map(|(key, subscription)| {
                let row = rows.get(key);
                let outcomes = self
                    .memory
                    .subscriptions
                    .get(key)
                    .map(|memory| memory.stats.outcomes)
                    .unwrap_or_default();
                let values: [u64; SUBSCRIPTION_SERIES_COUNT] = [
                    outcomes.delivered,
                    outcomes.retried,
                    outcomes.halted,
                    outcomes.dead_lettered,
                    outcomes.stale,
                    row.map_or(0, |row| meta.head.saturating_sub(row.acknowledged_offset)),
                    row.map_or(0, |row| row.attempt),
                    u64::from(subscription.delivery_halted.is_some()),
                    dead_letters.get(key).copied().unwrap_or(0),
                    row.map_or(0, |row| row.bytes_sent),
                ];
                SubscriptionSnapshot {
                    key: key.clone(),
                    values: values.to_vec(),
                }
            })
            .collect();
        Ok(Some(StreamSnapshot {
            path: meta.path.clone(),
            stream_id: meta.stream_id.clone(),
            values: values.to_vec(),
            subscriptions,
        }))
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn snapshot() -> StreamSnapshot {
        StreamSnapshot {
            path: "/a\"b".to_owned(),
            stream_id: "s1".to_owned(),
            values: vec![1, u64::MAX],
            subscriptions: vec![SubscriptionSnapshot {
                key: "k\n".to_owned(),
                values: vec![2, 3],
            }],
        }
    }

    #[test]
    fn a_snapshot_round_trips_through_its_json_even_past_2_pow_53() {
        let snapshot = snapshot();
        let text = snapshot.encode();
        assert!(text.contains("18446744073709551615"), "{text}");
        assert_eq!(StreamSnapshot::decode(text.as_bytes()).unwrap(), snapshot);
    }

    #[test]
    fn the_fingerprint_moves_with_any_value_and_only_then() {
        let snapshot = snapshot();
        assert_eq!(snapshot.fingerprint(), snapshot.clone().fingerprint());
        let mut moved = snapshot.clone();
        moved.subscriptions[0].values[1] = 4;
        assert_ne!(moved.fingerprint(), snapshot.fingerprint());
    }

    #[test]
    fn an_outcome_family_is_consecutive_and_helped_once() {
        let outcomes: Vec<_> = SUBSCRIPTION_SERIES
            .iter()
            .filter(|series| series.outcome.is_some())
            .collect();
        assert_eq!(outcomes.len(), 5);
        assert!(outcomes
            .iter()
            .all(|series| series.def.name == "subscription_deliveries_total"));
        assert_eq!(outcomes.iter().filter(|series| !series.def.help.is_empty()).count(), 1);
    }
}
