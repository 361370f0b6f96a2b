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
    pub halts: u64,
    pub skips: u64,
    pub dead_letters: u64,
    pub copies_accepted: u64,
    pub copies_dropped: u64,
    pub fence_rejections: u64,
    /// Retractions delivered (§13).
    pub retractions: u64,
    /// Invalidations reaching past the journal (§13).
    pub journal_gaps: u64,
    /// Hits a maxOnce gate discarded (§13).
    pub gate_discarded: u64,
    /// Hits that fell out of a threshold gate's window (§13).
    pub gate_dropped: u64,
    /// Held threshold-gate hits an `events-invalidated` named (§13).
    pub gate_invalidated: u64,
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
        let c = &self.counters;
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let series: &[(&str, &str, &str, u64)] = &[
            (
                "dead_letters_total",
                "counter",
                "Events dead-lettered since the object started.",
                c.dead_letters,
            ),
            (
                "delivery_skips_total",
                "counter",
                "Batches given up in skip mode (recorded as error-occurred).",
                c.skips,
            ),
            (
                "appends_total",
                "counter",
                "Append requests committed since the object started.",
                c.appends,
            ),
            (
                "events_appended_total",
                "counter",
                "Events committed since the object started.",
                c.events_appended,
            ),
            (
                "events_deduplicated_total",
                "counter",
                "Appended events answered from idempotency.",
                c.events_deduplicated,
            ),
            (
                "delivery_halts_total",
                "counter",
                "Subscriptions halted after exhausting retries.",
                c.halts,
            ),
            (
                "copies_accepted_total",
                "counter",
                "Copied events committed on this stream.",
                c.copies_accepted,
            ),
            (
                "copies_dropped_total",
                "counter",
                "Copies dropped by the cycle and hop guard.",
                c.copies_dropped,
            ),
            (
                "fence_rejections_total",
                "counter",
                "Copy batches rejected by the stamp fence.",
                c.fence_rejections,
            ),
            (
                "sqlite_rows_written_total",
                "counter",
                "SQLite rows written since the object started.",
                self.storage.rows_written(),
            ),
            ("stream_head", "gauge", "Highest assigned offset.", head),
            (
                "subscriptions",
                "gauge",
                "Durable subscriptions configured on this stream.",
                self.state.subscriptions.outbound.by_key.len() as u64,
            ),
            (
                "retractions_total",
                "counter",
                "Retractions delivered (§13).",
                self.counters.retractions,
            ),
            (
                "journal_gap_total",
                "counter",
                "Invalidations reaching past what the delivery journal retained (§13).",
                self.counters.journal_gaps,
            ),
            (
                "gate_discarded_total",
                "counter",
                "Matching events a maxOnce gate discarded (§13).",
                self.counters.gate_discarded,
            ),
            (
                "gate_dropped_total",
                "counter",
                "Held threshold-gate hits that fell out of the window (§13).",
                self.counters.gate_dropped,
            ),
            (
                "gate_invalidated_total",
                "counter",
                "Held threshold-gate hits dropped because an events-invalidated named them (§13).",
                self.counters.gate_invalidated,
            ),
            (
                "live_connections",
                "gauge",
                "Open live connections (SSE and WebSocket, §10).",
                self.live.len() as u64,
            ),
            (
                "live_connections_opened_total",
                "counter",
                "Live connections opened since the object started.",
                self.live.counters.opened,
            ),
            (
                "live_events_sent_total",
                "counter",
                "Events sent to live connections.",
                self.live.counters.events_sent,
            ),
            (
                "live_bytes_sent_total",
                "counter",
                "Bytes sent to live connections.",
                self.live.counters.bytes_sent,
            ),
            (
                "live_slow_consumer_closes_total",
                "counter",
                "Live connections closed because their backlog passed the limit.",
                self.live.counters.slow_consumer_closes,
            ),
            (
                "live_long_poll_waiters",
                "gauge",
                "Long-polls waiting now (§10).",
                self.live.counters.long_poll_waiters,
            ),
        ];
        let mut text = String::new();
        for (name, kind, help, value) in series {
            let _ = writeln!(
                text,
                "# HELP tributary_{name} {help}\n# TYPE tributary_{name} {kind}\ntributary_{name} {value}"
            );
        }
        text
    }
}
