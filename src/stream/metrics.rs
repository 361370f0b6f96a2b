//! Per-stream counters in Prometheus text format (docs/design.md §11). Counters
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
    /// `trimmed` facts written: subscriptions retention passed (§16).
    pub retention_passes: u64,
}

impl Counters {
    pub fn record_append(&mut self, results: &[(StoredEvent, bool)]) {
        self.appends += 1;
        let duplicates = results.iter().filter(|(_, duplicate)| *duplicate).count() as u64;
        self.events_deduplicated += duplicates;
        self.events_appended += results.len() as u64 - duplicates;
    }
}

/// How many series one stream reports (§11).
pub const STREAM_SERIES_COUNT: usize = 32;

/// A series of the metrics text: its name after `tributary_`, its
/// Prometheus type and its help line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeriesDef {
    pub name: &'static str,
    pub kind: &'static str,
    pub help: &'static str,
}

/// The stream's series, in the order of [`Stream::series_values`]: the
/// per-stream page and the project's scrape (§11) both render this table.
#[rustfmt::skip]
pub const STREAM_SERIES: [SeriesDef; STREAM_SERIES_COUNT] = [
    SeriesDef { name: "dead_letters_total", kind: "counter", help: "Events dead-lettered since the object started." },
    SeriesDef { name: "delivery_skips_total", kind: "counter", help: "Batches given up in skip mode (recorded as error-occurred)." },
    SeriesDef { name: "appends_total", kind: "counter", help: "Append requests committed since the object started." },
    SeriesDef { name: "events_appended_total", kind: "counter", help: "Events committed since the object started." },
    SeriesDef { name: "events_deduplicated_total", kind: "counter", help: "Appended events answered from idempotency." },
    SeriesDef { name: "delivery_halts_total", kind: "counter", help: "Subscriptions halted after exhausting retries." },
    SeriesDef { name: "copies_accepted_total", kind: "counter", help: "Copied events committed on this stream." },
    SeriesDef { name: "copies_dropped_total", kind: "counter", help: "Copies dropped by the cycle and hop guard." },
    SeriesDef { name: "fence_rejections_total", kind: "counter", help: "Copy batches rejected by the stamp fence." },
    SeriesDef { name: "sqlite_rows_written_total", kind: "counter", help: "SQLite rows written since the object started." },
    SeriesDef { name: "stream_head", kind: "gauge", help: "Highest assigned offset." },
    SeriesDef { name: "subscriptions", kind: "gauge", help: "Durable subscriptions configured on this stream." },
    SeriesDef { name: "retractions_total", kind: "counter", help: "Retractions delivered (§13)." },
    SeriesDef { name: "journal_gap_total", kind: "counter", help: "Invalidations reaching past what the delivery journal retained (§13)." },
    SeriesDef { name: "gate_discarded_total", kind: "counter", help: "Matching events a maxOnce gate discarded (§13)." },
    SeriesDef { name: "gate_dropped_total", kind: "counter", help: "Held threshold-gate hits that fell out of the window (§13)." },
    SeriesDef { name: "gate_invalidated_total", kind: "counter", help: "Held threshold-gate hits dropped because an events-invalidated named them (§13)." },
    SeriesDef { name: "live_connections", kind: "gauge", help: "Open live connections (SSE and WebSocket, §10)." },
    SeriesDef { name: "live_connections_opened_total", kind: "counter", help: "Live connections opened since the object started." },
    SeriesDef { name: "live_events_sent_total", kind: "counter", help: "Events sent to live connections." },
    SeriesDef { name: "live_bytes_sent_total", kind: "counter", help: "Bytes sent to live connections." },
    SeriesDef { name: "live_slow_consumer_closes_total", kind: "counter", help: "Live connections closed because their backlog passed the limit." },
    SeriesDef { name: "live_frames_sent_total", kind: "counter", help: "Frames sent to live connections (one transport send each)." },
    SeriesDef { name: "live_frames_serialized_total", kind: "counter", help: "Live frames serialized (fan-out serializes each distinct frame once)." },
    SeriesDef { name: "live_acks_total", kind: "counter", help: "WebSocket acknowledgements received." },
    SeriesDef { name: "live_attachment_writes_total", kind: "counter", help: "Connection records saved into WebSocket attachments." },
    SeriesDef { name: "live_long_poll_waiters", kind: "gauge", help: "Long-polls waiting now (§10)." },
    SeriesDef { name: "stream_first_offset", kind: "gauge", help: "Lowest offset still readable (§16)." },
    SeriesDef { name: "stream_bytes", kind: "gauge", help: "Bytes of the retained event rows (§16)." },
    SeriesDef { name: "retention_trimmed_events_total", kind: "counter", help: "Rows deleted by retention and ephemeral expiry in this lifetime (§16)." },
    SeriesDef { name: "retention_passes_total", kind: "counter", help: "Subscriptions retention trimmed past (trimmed facts) since the object started (§16)." },
    SeriesDef { name: "retention_events_passed_total", kind: "counter", help: "Events trimmed before a subscription received them (trimPastSubscribers, §16)." },
];

impl<S: Storage> Stream<S> {
    /// The metrics text (§11): one `tributary_` series per line of the table.
    pub fn metrics_text(&self) -> String {
        render(&STREAM_SERIES, &self.series_values())
    }

    /// The value of each of [`STREAM_SERIES`], in its order.
    pub fn series_values(&self) -> [u64; STREAM_SERIES_COUNT] {
        let c = &self.counters;
        let live = &self.live.counters;
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let subscriptions = self.state.subscriptions.outbound.by_key.len() as u64;
        let events_passed = match self.lifetime {
            Some(_) => crate::retention::passes::PassRow::all(&self.storage)
                .map(|passes| passes.values().map(|pass| pass.events_passed).sum())
                .unwrap_or(0),
            None => 0,
        };
        [
            c.dead_letters,              // dead_letters_total
            c.skips,                     // delivery_skips_total
            c.appends,                   // appends_total
            c.events_appended,           // events_appended_total
            c.events_deduplicated,       // events_deduplicated_total
            c.halts,                     // delivery_halts_total
            c.copies_accepted,           // copies_accepted_total
            c.copies_dropped,            // copies_dropped_total
            c.fence_rejections,          // fence_rejections_total
            self.storage.rows_written(), // sqlite_rows_written_total
            head,                        // stream_head
            subscriptions,               // subscriptions
            c.retractions,               // retractions_total
            c.journal_gaps,              // journal_gap_total
            c.gate_discarded,            // gate_discarded_total
            c.gate_dropped,              // gate_dropped_total
            c.gate_invalidated,          // gate_invalidated_total
            self.live.len() as u64,      // live_connections
            live.opened,                 // live_connections_opened_total
            live.events_sent,            // live_events_sent_total
            live.bytes_sent,             // live_bytes_sent_total
            live.slow_consumer_closes,   // live_slow_consumer_closes_total
            live.frames_sent,            // live_frames_sent_total
            live.frames_serialized,      // live_frames_serialized_total
            live.acks,                   // live_acks_total
            live.attachment_writes,      // live_attachment_writes_total
            live.long_poll_waiters,      // live_long_poll_waiters
            self.first_offset(),         // stream_first_offset
            self.retained_bytes(),       // stream_bytes
            self.trimmed_events(),       // retention_trimmed_events_total
            c.retention_passes,          // retention_passes_total
            events_passed,               // retention_events_passed_total
        ]
    }
}

/// Prometheus text format: `# HELP`, `# TYPE` and the sample, per series.
fn render(series: &[SeriesDef], values: &[u64]) -> String {
    let mut text = String::new();
    for (SeriesDef { name, kind, help }, value) in series.iter().zip(values) {
        let _ = writeln!(
            text,
            "# HELP tributary_{name} {help}\n# TYPE tributary_{name} {kind}\ntributary_{name} {value}"
        );
    }
    text
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    const A: SeriesDef = SeriesDef {
        name: "a_total",
        kind: "counter",
        help: "As.",
    };
    const B: SeriesDef = SeriesDef {
        name: "b",
        kind: "gauge",
        help: "B now.",
    };

    #[test]
    fn renders_help_type_and_sample_per_series() {
        let text = render(&[A, B], &[3, 0]);
        assert_eq!(
            text,
            "# HELP tributary_a_total As.\n# TYPE tributary_a_total counter\ntributary_a_total 3\n\
             # HELP tributary_b B now.\n# TYPE tributary_b gauge\ntributary_b 0\n"
        );
    }

    #[test]
    fn renders_nothing_for_no_series() {
        assert_eq!(render(&[], &[]), "");
    }

    #[test]
    fn every_series_name_is_distinct_and_counters_end_in_total() {
        let mut names: Vec<&str> = STREAM_SERIES.iter().map(|def| def.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), STREAM_SERIES_COUNT);
        for def in STREAM_SERIES {
            assert_eq!(def.kind == "counter", def.name.ends_with("_total"), "{}", def.name);
        }
    }
}
