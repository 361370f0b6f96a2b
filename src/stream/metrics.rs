//! Per-stream counters in Prometheus text format (DESIGN.md §11). Counters
//! live in memory since the object started; `head` and the event count are
//! durable and read from the lifetime.

use super::Stream;
use crate::event::StoredEvent;
use crate::storage::Storage;
use std::fmt::Write;

#[derive(Debug, Default, Clone)]
pub struct Counters {
    pub appends: u64,
    pub events_appended: u64,
    pub events_deduplicated: u64,
}

impl Counters {
    pub fn record_append(&mut self, results: &[(StoredEvent, bool)]) {
        self.appends += 1;
        let duplicates = results.iter().filter(|(_, duplicate)| *duplicate).count() as u64;
        self.events_deduplicated += duplicates;
        self.events_appended += results.len() as u64 - duplicates;
    }
}

impl<S: Storage> Stream<S> {
    pub fn metrics_text(&self) -> String {
        let mut text = String::new();
        let mut line = |name: &str, kind: &str, help: &str, value: u64| {
            let _ = writeln!(text, "# HELP tributary_{name} {help}\n# TYPE tributary_{name} {kind}\ntributary_{name} {value}");
        };
        let c = &self.counters;
        line(
            "appends_total",
            "counter",
            "Append requests committed since the object started.",
            c.appends,
        );
        line(
            "events_appended_total",
            "counter",
            "Events committed since the object started.",
            c.events_appended,
        );
        line(
            "events_deduplicated_total",
            "counter",
            "Appended events answered from idempotency.",
            c.events_deduplicated,
        );
        line(
            "sqlite_rows_written_total",
            "counter",
            "SQLite rows written since the object started.",
            self.storage.rows_written(),
        );
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        line("stream_head", "gauge", "Highest assigned offset.", head);
        text
    }
}
