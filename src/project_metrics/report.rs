//! When a stream reports to its project (§11): only when something may have
//! changed ([`ReportClock::touched`]), at most once per
//! [`METRICS_REPORT_INTERVAL_MS`], and only when the snapshot differs from
//! the last one the project acknowledged. A failed report is retried after
//! [`ALARM_RETRY_MS`], as the catalog registration is (§14). The due time is
//! a value in memory (the alarm takes the earliest of it and the delivery's
//! due time): an untouched stream never wakes for metrics, so there is no
//! alarm storm, and a busy one reports from the delivery alarms it runs
//! anyway: it wakes for a report of its own only
//! [`METRICS_REPORT_IDLE_WAKE_MS`] after the last. A restarted object has acknowledged nothing and reports once.

use crate::limits::{ALARM_RETRY_MS, METRICS_REPORT_IDLE_WAKE_MS, METRICS_REPORT_INTERVAL_MS};

/// The shell keeps one per stream object (it is `Copy`, so a `Cell` holds it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReportClock {
    /// Something may have changed since the last report was taken.
    dirty: bool,
    /// When the last report was sent (acknowledged or not).
    last_sent_at_ms: Option<i64>,
    /// The fingerprint of the last snapshot the project acknowledged.
    acknowledged: Option<u64>,
    /// After a failed report: not before this.
    retry_at_ms: Option<i64>,
}

/// What to do with the snapshot at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportDecision {
    /// Not due yet (or nothing may have changed).
    NotDue,
    /// Due, but the project already has these values.
    Unchanged,
    /// Send it; then [`ReportClock::acknowledged`] or [`ReportClock::failed`].
    Send,
}

impl ReportClock {
    /// Something a report shows may have changed (an append, a completion,
    /// a configuration, a connection, a trim step).
    pub fn touched(&mut self) {
        self.dirty = true;
    }

    /// When a report may be made: `interval` after the last one (at once
    /// for the first), not before a failed one's retry time.
    fn spaced(&self, interval_ms: i64) -> Option<i64> {
        if !self.dirty {
            return None;
        }
        let spaced = self.last_sent_at_ms.map_or(i64::MIN, |at| at + interval_ms);
        Some(spaced.max(self.retry_at_ms.unwrap_or(i64::MIN)))
    }

    /// When the alarm should wake for a report, if one may be due:
    /// [`METRICS_REPORT_IDLE_WAKE_MS`] after the last, so that a busy stream
    /// reports from the delivery alarms it runs anyway ([`Self::is_due`]).
    pub fn due_at(&self) -> Option<i64> {
        self.spaced(METRICS_REPORT_IDLE_WAKE_MS)
    }

    /// Whether an alarm running at `now_ms` makes a report: at most once per
    /// [`METRICS_REPORT_INTERVAL_MS`]. Asked before the snapshot is taken,
    /// so an alarm with no report to make reads nothing for one.
    pub fn is_due(&self, now_ms: i64) -> bool {
        self.spaced(METRICS_REPORT_INTERVAL_MS).is_some_and(|due| due <= now_ms)
    }

    /// At `now_ms`, with the snapshot whose fingerprint is `fingerprint`.
    /// Taking a report clears `dirty`: what changes while it is sent is
    /// touched again and reported next time.
    pub fn decide(&mut self, fingerprint: u64, now_ms: i64) -> ReportDecision {
        if !self.is_due(now_ms) {
            return ReportDecision::NotDue;
        }
        self.dirty = false;
        if self.acknowledged == Some(fingerprint) {
            return ReportDecision::Unchanged;
        }
        self.last_sent_at_ms = Some(now_ms);
        ReportDecision::Send
    }

    /// The project stored the snapshot with `fingerprint`.
    pub fn acknowledged(&mut self, fingerprint: u64) {
        self.acknowledged = Some(fingerprint);
        self.retry_at_ms = None;
    }

    /// The report failed at `now_ms`: due again after [`ALARM_RETRY_MS`].
    pub fn failed(&mut self, now_ms: i64) {
        self.dirty = true;
        self.retry_at_ms = Some(now_ms + ALARM_RETRY_MS);
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn an_untouched_clock_is_never_due() {
        let mut clock = ReportClock::default();
        assert_eq!(clock.due_at(), None);
        assert!(!clock.is_due(i64::MAX));
        assert_eq!(clock.decide(1, 1_000), ReportDecision::NotDue);
    }

    #[test]
    fn is_due_agrees_with_decide_so_the_shell_can_skip_the_snapshot() {
        let mut clock = ReportClock::default();
        clock.touched();
        assert!(clock.is_due(0));
        assert_eq!(clock.decide(1, 0), ReportDecision::Send);
        clock.acknowledged(1);
        clock.touched();
        assert!(!clock.is_due(METRICS_REPORT_INTERVAL_MS - 1));
        assert_eq!(clock.decide(2, METRICS_REPORT_INTERVAL_MS - 1), ReportDecision::NotDue);
        assert!(clock.is_due(METRICS_REPORT_INTERVAL_MS));
    }

    #[test]
    fn an_alarm_woken_for_a_report_finds_it_due() {
        let mut clock = ReportClock::default();
        clock.touched();
        assert_eq!(clock.decide(1, 5_000), ReportDecision::Send);
        clock.acknowledged(1);
        clock.touched();
        let wake = clock.due_at().unwrap();
        assert!(clock.is_due(wake), "woken at {wake}, the report must be due");
        assert_eq!(clock.decide(2, wake), ReportDecision::Send);
    }

    #[test]
    fn a_first_touch_is_due_at_once_then_reports_are_spaced_by_the_interval() {
        let mut clock = ReportClock::default();
        clock.touched();
        assert_eq!(clock.due_at(), Some(i64::MIN));
        assert_eq!(clock.decide(1, 1_000), ReportDecision::Send);
        clock.acknowledged(1);
        assert_eq!(clock.due_at(), None, "nothing touched since");
        clock.touched();
        assert_eq!(
            clock.due_at(),
            Some(1_000 + METRICS_REPORT_IDLE_WAKE_MS),
            "an alarm of its own only after the idle wake"
        );
        assert_eq!(clock.decide(2, 1_001), ReportDecision::NotDue);
        assert_eq!(
            clock.decide(2, 1_000 + METRICS_REPORT_INTERVAL_MS),
            ReportDecision::Send
        );
    }

    #[test]
    fn unchanged_values_are_not_sent_and_the_clock_goes_quiet() {
        let mut clock = ReportClock::default();
        clock.touched();
        assert_eq!(clock.decide(7, 0), ReportDecision::Send);
        clock.acknowledged(7);
        clock.touched();
        assert_eq!(clock.decide(7, METRICS_REPORT_INTERVAL_MS), ReportDecision::Unchanged);
        assert_eq!(clock.due_at(), None, "no alarm is asked for");
    }

    #[test]
    fn a_failed_report_is_retried_after_the_retry_delay_not_before() {
        let mut clock = ReportClock::default();
        clock.touched();
        assert_eq!(clock.decide(7, 0), ReportDecision::Send);
        clock.failed(10);
        let due = (10 + ALARM_RETRY_MS).max(METRICS_REPORT_INTERVAL_MS);
        assert_eq!(
            clock.due_at(),
            Some((10 + ALARM_RETRY_MS).max(METRICS_REPORT_IDLE_WAKE_MS))
        );
        assert_eq!(clock.decide(7, due - 1), ReportDecision::NotDue);
        assert_eq!(
            clock.decide(7, due),
            ReportDecision::Send,
            "never acknowledged: sent again"
        );
    }

    #[test]
    fn a_touch_while_a_report_is_out_is_reported_next_time() {
        let mut clock = ReportClock::default();
        clock.touched();
        assert_eq!(clock.decide(1, 0), ReportDecision::Send);
        clock.touched();
        clock.acknowledged(1);
        assert_eq!(clock.due_at(), Some(METRICS_REPORT_IDLE_WAKE_MS));
        assert!(
            clock.is_due(METRICS_REPORT_INTERVAL_MS),
            "a delivery alarm may make it sooner"
        );
    }
}
