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

impl<S: Storage> Stream<S> {
    /// The metrics text (§11): one `tributary_` series per line of the table.
    pub fn metrics_text(&self) -> String {
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
        #[rustfmt::skip]
        let series = [
            counter("dead_letters_total", "Events dead-lettered since the object started.", c.dead_letters),
            counter("delivery_skips_total", "Batches given up in skip mode (recorded as error-occurred).", c.skips),
            counter("appends_total", "Append requests committed since the object started.", c.appends),
            counter("events_appended_total", "Events committed since the object started.", c.events_appended),
            counter("events_deduplicated_total", "Appended events answered from idempotency.", c.events_deduplicated),
            counter("delivery_halts_total", "Subscriptions halted after exhausting retries.", c.halts),
            counter("copies_accepted_total", "Copied events committed on this stream.", c.copies_accepted),
            counter("copies_dropped_total", "Copies dropped by the cycle and hop guard.", c.copies_dropped),
            counter("fence_rejections_total", "Copy batches rejected by the stamp fence.", c.fence_rejections),
            counter("sqlite_rows_written_total", "SQLite rows written since the object started.", self.storage.rows_written()),
            gauge("stream_head", "Highest assigned offset.", head),
            gauge("subscriptions", "Durable subscriptions configured on this stream.", subscriptions),
            counter("retractions_total", "Retractions delivered (§13).", c.retractions),
            counter("journal_gap_total", "Invalidations reaching past what the delivery journal retained (§13).", c.journal_gaps),
            counter("gate_discarded_total", "Matching events a maxOnce gate discarded (§13).", c.gate_discarded),
            counter("gate_dropped_total", "Held threshold-gate hits that fell out of the window (§13).", c.gate_dropped),
            counter("gate_invalidated_total", "Held threshold-gate hits dropped because an events-invalidated named them (§13).", c.gate_invalidated),
            gauge("live_connections", "Open live connections (SSE and WebSocket, §10).", self.live.len() as u64),
            counter("live_connections_opened_total", "Live connections opened since the object started.", live.opened),
            counter("live_events_sent_total", "Events sent to live connections.", live.events_sent),
            counter("live_bytes_sent_total", "Bytes sent to live connections.", live.bytes_sent),
            counter("live_slow_consumer_closes_total", "Live connections closed because their backlog passed the limit.", live.slow_consumer_closes),
            counter("live_frames_sent_total", "Frames sent to live connections (one transport send each).", live.frames_sent),
            counter("live_frames_serialized_total", "Live frames serialized (fan-out serializes each distinct frame once).", live.frames_serialized),
            counter("live_acks_total", "WebSocket acknowledgements received.", live.acks),
            counter("live_attachment_writes_total", "Connection records saved into WebSocket attachments.", live.attachment_writes),
            gauge("live_long_poll_waiters", "Long-polls waiting now (§10).", live.long_poll_waiters),
            gauge("stream_first_offset", "Lowest offset still readable (§16).", self.first_offset()),
            gauge("stream_bytes", "Bytes of the retained event rows (§16).", self.retained_bytes()),
            counter("retention_trimmed_events_total", "Rows deleted by retention and ephemeral expiry in this lifetime (§16).", self.trimmed_events()),
            counter("retention_passes_total", "Subscriptions retention trimmed past (trimmed facts) since the object started (§16).", c.retention_passes),
            counter("retention_events_passed_total", "Events trimmed before a subscription received them (trimPastSubscribers, §16).", events_passed),
        ];
        render(&series)
    }
}

/// One series of the metrics text: its name after `tributary_`, its
/// Prometheus type, its help line and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Series {
    name: &'static str,
    kind: &'static str,
    help: &'static str,
    value: u64,
}

/// A count since the object started (or a durable one).
fn counter(name: &'static str, help: &'static str, value: u64) -> Series {
    Series {
        name,
        kind: "counter",
        help,
        value,
    }
}

/// A value as it is now.
fn gauge(name: &'static str, help: &'static str, value: u64) -> Series {
    Series {
        name,
        kind: "gauge",
        help,
        value,
    }
}

/// Prometheus text format: `# HELP`, `# TYPE` and the sample, per series.
fn render(series: &[Series]) -> String {
    let mut text = String::new();
    for Series {
        name,
        kind,
        help,
        value,
    } in series
    {
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

    #[test]
    fn renders_help_type_and_sample_per_series() {
        let text = render(&[counter("a_total", "As.", 3), gauge("b", "B now.", 0)]);
        assert_eq!(
            text,
            "# HELP tributary_a_total As.\n# TYPE tributary_a_total counter\ntributary_a_total 3\n\
             # HELP tributary_b B now.\n# TYPE tributary_b gauge\ntributary_b 0\n"
        );
    }

    #[test]
    fn renders_nothing_for_no_series() {
        assert_eq!(render(&[]), "");
    }
}
