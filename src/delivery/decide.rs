//! What the planner does after a scan (docs/design.md §6 rule 2, §8, §9, §13),
//! decided from the batch's shape, the runtime row and how the scan ended.

use super::scan::{Retract, Scan, ScanEnd};
use super::shape::Shape;
use super::Outcome;
use crate::schema::RuntimeRow;
use crate::stream::memory::Hold;

/// What the planner does after a scan.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Next {
    /// Retract earlier deliveries before anything after the invalidation (§13).
    Retract(Retract),
    /// Tell a hosted processor of the scanned range, with no events (§9).
    Checkpoint,
    /// Nothing matched: the cursor advances over the scanned range (§6 rule 2).
    Advance,
    /// An aggregate holds its events, waiting for more (§8).
    Hold(Hold),
    /// A log batch's first line does not fit in what the invocation may
    /// still log (§12 "log receiver"): nothing is sent now, the cursor
    /// passes only what the scan skipped before it, and it waits for the
    /// next invocation.
    WaitForLogBudget,
    /// A fork's subscription reached inherited events no held page covers
    /// (§18): nothing is sent now, the cursor passes only what the scan
    /// skipped before them, and the shell fetches the page.
    WaitForInherited,
    /// Send the batch, or complete it with `failure` unsent; `pin_range`
    /// pins a digest's range while it is in flight (§8).
    Send { failure: Option<Outcome>, pin_range: bool },
}

/// Decides what follows a scan that ended with `end` at `now_ms`.
pub(super) fn next(shape: &Shape, row: &RuntimeRow, scan: &Scan, end: ScanEnd, now_ms: i64) -> Next {
    // A scan that stopped at its budget with the log going on flushes now:
    // held events hold the cursor, so waiting could never see past the budget.
    let saw_head = shape.window_end >= shape.head && !end.stopped_early();
    let minted = end == ScanEnd::Minted;
    let log_budget_spent = end == ScanEnd::LogBudgetSpent;
    let awaits_inherited = end == ScanEnd::AwaitsInherited;
    let failure = match end {
        ScanEnd::Retract(retract) => return Next::Retract(retract),
        ScanEnd::Failed(failure) => Some(failure),
        _ => None,
    };
    let Some(first) = scan.events.first() else {
        if log_budget_spent {
            return Next::WaitForLogBudget;
        }
        if awaits_inherited {
            return Next::WaitForInherited;
        }
        return if shape.checkpoints && scan.scanned > row.acknowledged_offset {
            Next::Checkpoint
        } else {
            Next::Advance
        };
    };
    if let (Some(aggregate), None) = (shape.aggregate, &failure) {
        let flush_at_ms = first.created_at_ms.saturating_add(aggregate.window_ms as i64);
        if shape.retry_through.is_none()
            && (scan.events.len() as u64) < aggregate.max_batch
            && now_ms < flush_at_ms
            && saw_head
        {
            // The cursor stays before the first held event; it only passes
            // the non-matching events in front of it.
            return Next::Hold(Hold {
                after: scan.first_match_after.unwrap_or(row.acknowledged_offset),
                head: shape.head,
                flush_at_ms,
            });
        }
    }
    Next::Send {
        failure,
        pin_range: shape.aggregate.is_some() || minted,
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::delivery::PlannedEvent;
    use crate::invalidation::Invalidation;
    use crate::subscription::Aggregate;
    use serde_json::json;

    fn row() -> RuntimeRow {
        RuntimeRow::fixture()
    }

    fn shape() -> Shape {
        Shape {
            batch_limit: 100,
            timeout_ms: 1000,
            wanted: 100,
            retracting: 100,
            gate: None,
            aggregate: None,
            throttle: None,
            journaled: true,
            checkpoints: false,
            retry_through: None,
            head: 50,
            window_end: 50,
        }
    }

    fn aggregating() -> Shape {
        Shape {
            aggregate: Some(Aggregate {
                window_ms: 100,
                max_batch: 5,
            }),
            ..shape()
        }
    }

    /// A scan that collected `offsets` (event time 1000) after the cursor at 10.
    fn scanned(offsets: &[u64]) -> Scan {
        let mut scan = Scan::new(&row());
        scan.first_match_after = Some(10);
        for offset in offsets {
            scan.scanned = *offset;
            scan.events.push(PlannedEvent {
                offset: *offset,
                created_at_ms: 1000,
                body: json!({}).into(),
            });
        }
        scan
    }

    #[test]
    fn nothing_collected_advances_or_checkpoints_a_processor() {
        let mut scan = Scan::new(&row());
        assert_eq!(next(&shape(), &row(), &scan, ScanEnd::Exhausted, 0), Next::Advance);
        let processor = Shape {
            checkpoints: true,
            ..shape()
        };
        assert_eq!(next(&processor, &row(), &scan, ScanEnd::Exhausted, 0), Next::Advance);
        scan.scanned = 20;
        assert_eq!(next(&processor, &row(), &scan, ScanEnd::Exhausted, 0), Next::Checkpoint);
    }

    #[test]
    fn a_log_line_that_does_not_fit_waits_unless_lines_before_it_go() {
        let empty = Scan::new(&row());
        assert_eq!(
            next(&shape(), &row(), &empty, ScanEnd::LogBudgetSpent, 0),
            Next::WaitForLogBudget
        );
        assert_eq!(
            next(&shape(), &row(), &scanned(&[12]), ScanEnd::LogBudgetSpent, 0),
            Next::Send {
                failure: None,
                pin_range: false,
            }
        );
    }

    #[test]
    fn a_retraction_goes_first() {
        let retract = Retract {
            invalidation: Invalidation::parse(&json!({"afterOffset": 3}), 20).unwrap(),
            pending: Vec::new(),
            created_at_ms: 5,
        };
        let scan = Scan::new(&row());
        assert_eq!(
            next(&shape(), &row(), &scan, ScanEnd::Retract(retract.clone()), 0),
            Next::Retract(retract)
        );
    }

    #[test]
    fn an_aggregate_holds_until_its_window_closes_or_it_is_full() {
        let scan = scanned(&[12, 14]);
        let held = Next::Hold(Hold {
            after: 10,
            head: 50,
            flush_at_ms: 1100,
        });
        assert_eq!(next(&aggregating(), &row(), &scan, ScanEnd::Exhausted, 1099), held);
        assert_eq!(next(&aggregating(), &row(), &scan, ScanEnd::Wanted, 1099), held);
        let sent = Next::Send {
            failure: None,
            pin_range: true,
        };
        assert_eq!(next(&aggregating(), &row(), &scan, ScanEnd::Exhausted, 1100), sent);
        let full = scanned(&[11, 12, 13, 14, 15]);
        assert_eq!(next(&aggregating(), &row(), &full, ScanEnd::Exhausted, 0), sent);
    }

    #[test]
    fn an_aggregate_flushes_when_the_scan_could_not_see_the_head() {
        let scan = scanned(&[12]);
        let sent = Next::Send {
            failure: None,
            pin_range: true,
        };
        for end in [ScanEnd::Full, ScanEnd::Barrier, ScanEnd::Minted, ScanEnd::OutOfSteps] {
            assert_eq!(next(&aggregating(), &row(), &scan, end, 0), sent);
        }
        let budgeted = Shape {
            window_end: 40,
            ..aggregating()
        };
        assert_eq!(next(&budgeted, &row(), &scan, ScanEnd::Exhausted, 0), sent);
        let retrying = Shape {
            retry_through: Some(12),
            ..aggregating()
        };
        assert_eq!(next(&retrying, &row(), &scan, ScanEnd::Exhausted, 0), sent);
    }

    #[test]
    fn a_failed_event_is_sent_as_a_failure_and_only_digests_pin_their_range() {
        let scan = scanned(&[12]);
        let failure = Outcome::permanent("filter failed");
        assert_eq!(
            next(&aggregating(), &row(), &scan, ScanEnd::Failed(failure.clone()), 0),
            Next::Send {
                failure: Some(failure),
                pin_range: true,
            }
        );
        assert_eq!(
            next(&shape(), &row(), &scan, ScanEnd::Exhausted, 0),
            Next::Send {
                failure: None,
                pin_range: false,
            }
        );
        assert_eq!(
            next(&shape(), &row(), &scan, ScanEnd::Minted, 0),
            Next::Send {
                failure: None,
                pin_range: true,
            }
        );
    }
}
