//! A source's progress in the project's scrape (§11, §15): each source
//! object reports the figures of its status view — where it reads
//! (`nextBlock`, `finalizedBlock`), what it appended, its failures in a row
//! and whether it failed — after an alarm run when they changed, at most
//! once per [`crate::limits::METRICS_REPORT_INTERVAL_MS`]
//! ([`super::ReportClock`]); a DELETE tells the project it is gone. The
//! project keeps one row per source name (`source_metrics`), at most
//! [`crate::limits::MAX_SOURCES_PER_PROJECT`] of them.

use crate::stream::metrics::SeriesDef;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How many series a source reports.
pub const SOURCE_SERIES_COUNT: usize = 7;

/// A source's series and the status-view field each is read from.
#[rustfmt::skip]
pub const SOURCE_SERIES: [(SeriesDef, &str); SOURCE_SERIES_COUNT] = [
    (SeriesDef { name: "source_next_block", kind: "gauge", help: "The next block the chain source reads (§15)." }, "nextBlock"),
    (SeriesDef { name: "source_finalized_block", kind: "gauge", help: "The highest block the chain source holds final (§15)." }, "finalizedBlock"),
    (SeriesDef { name: "source_events_appended_total", kind: "counter", help: "Events the source appended to its stream (§15, §15.1)." }, "eventsAppended"),
    (SeriesDef { name: "source_invalidations_total", kind: "counter", help: "events-invalidated the chain source appended after reorgs (§15)." }, "invalidations"),
    (SeriesDef { name: "source_reorgs_total", kind: "counter", help: "Reorgs the chain source handled (§15)." }, "reorgs"),
    (SeriesDef { name: "source_errors", kind: "gauge", help: "Failed attempts in a row (0 while the source runs cleanly)." }, "attempt"),
    (SeriesDef { name: "source_failed", kind: "gauge", help: "1 once the source stopped on a permanent error (§15), else 0." }, "status"),
];

/// A source's report: its name and, by [`SOURCE_SERIES`] position, each
/// value it has (`None`: not of its kind, or not known yet).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SourceSnapshot {
    pub name: String,
    pub values: Vec<Option<u64>>,
}

/// What a source object tells its project (`POST /internal/metrics/source`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum SourceReport {
    Progress { snapshot: SourceSnapshot },
    Gone { name: String },
}

impl SourceSnapshot {
    /// The snapshot of a source's status view (`GET /v1/sources/{name}`).
    pub fn of_status(status: &Value) -> Option<SourceSnapshot> {
        let name = status.get("name")?.as_str()?.to_owned();
        let values = SOURCE_SERIES
            .iter()
            .map(|(_, field)| match (*field, status.get(field)) {
                ("status", Some(Value::String(state))) => Some(u64::from(state == "failed")),
                (_, Some(value)) => value.as_u64(),
                (_, None) => None,
            })
            .collect();
        Some(SourceSnapshot { name, values })
    }

    pub fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        self.hash(&mut hasher);
        hasher.finish()
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_chain_source_s_status_gives_every_value_and_a_mempool_s_what_it_has() {
        let chain = json!({"name": "usdc", "status": "retrying", "nextBlock": 101, "finalizedBlock": 90,
            "eventsAppended": 7, "invalidations": 1, "reorgs": 2, "attempt": 3, "lastError": "timeout"});
        let snapshot = SourceSnapshot::of_status(&chain).unwrap();
        assert_eq!(snapshot.name, "usdc");
        assert_eq!(
            snapshot.values,
            [Some(101), Some(90), Some(7), Some(1), Some(2), Some(3), Some(0)]
        );
        let mempool = json!({"name": "pending", "status": "failed", "eventsAppended": 4, "attempt": 0});
        let snapshot = SourceSnapshot::of_status(&mempool).unwrap();
        assert_eq!(snapshot.values, [None, None, Some(4), None, None, Some(0), Some(1)]);
        let fresh = json!({"name": "new", "status": "running", "nextBlock": null});
        assert_eq!(SourceSnapshot::of_status(&fresh).unwrap().values[0], None);
        assert_eq!(SourceSnapshot::of_status(&json!({})), None);
    }

    #[test]
    fn a_report_round_trips_as_tagged_json() {
        let report = SourceReport::Gone { name: "x".to_owned() };
        let text = serde_json::to_string(&report).unwrap();
        assert_eq!(text, r#"{"op":"gone","name":"x"}"#);
        assert_eq!(serde_json::from_str::<SourceReport>(&text).unwrap(), report);
    }
}
