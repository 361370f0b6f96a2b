//! Where one subscription's delivery stands and what shape its next batch
//! takes (docs/design.md §6 rules 4, 6, 10; §8; §12; §13), decided from its
//! configuration and runtime row alone: pure, so the planner branches on
//! values and the scan only follows them.

use crate::limits::{
    DEFAULT_WEBHOOK_TIMEOUT_MS, IN_FLIGHT_GRACE_MS, MAX_COPY_BATCH_EVENTS, MAX_DELIVERY_BATCH_EVENTS, MAX_SCAN_ROWS,
    SEND_TIMEOUT_MS,
};
use crate::schema::RuntimeRow;
use crate::stream::memory::ThrottleWindow;
use crate::subscription::{Aggregate, Delivery, Gate, Receiver, Throttle};

/// One subscription's delivery, as its runtime row says at `now_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// A batch was marked in flight and its deadline passed: the object died
    /// mid-send (§6 rule 6), so the batch is recovered and planned again.
    DeadlinePassed,
    /// A batch is being sent and its deadline is still ahead.
    InFlight { deadline_at_ms: i64 },
    /// A failed batch waits for its jittered retry (§6 rule 5).
    WaitingToRetry { at_ms: i64 },
    /// Nothing stands in the way: the next batch may be planned.
    Ready,
}

/// The phase of `row` at `now_ms`.
pub(super) fn phase(row: &RuntimeRow, now_ms: i64) -> Phase {
    match (row.in_flight_deadline_at_ms, row.next_attempt_at_ms) {
        (Some(deadline), _) if deadline <= now_ms => Phase::DeadlinePassed,
        (Some(deadline_at_ms), _) => Phase::InFlight { deadline_at_ms },
        (None, Some(at_ms)) if at_ms > now_ms => Phase::WaitingToRetry { at_ms },
        (None, _) => Phase::Ready,
    }
}

/// What the next batch of one subscription may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Shape {
    /// Events one batch carries at most: a webhook posts one event a request.
    pub batch_limit: usize,
    /// The whole exchange's deadline (§6 rule 10, §12).
    pub timeout_ms: u64,
    /// Events this batch wants: an aggregate's `maxBatch`, one while
    /// isolating a failure (§6 rule 4) or under a maxOnce gate, else the limit.
    pub wanted: usize,
    /// Retractions one batch carries (§13).
    pub retracting: usize,
    pub gate: Option<Gate>,
    pub aggregate: Option<Aggregate>,
    pub throttle: Option<Throttle>,
    /// Retraction and gates (§13) apply to itx-call and webhook-post.
    pub journaled: bool,
    /// A hosted processor's checkpoint passes filtered-out events too (§9).
    pub checkpoints: bool,
    /// The pinned range a digest (aggregate or threshold gate) resends.
    pub retry_through: Option<u64>,
    /// The log's head when the batch was shaped.
    pub head: u64,
    /// The scan budget (§12): this call looks at no offset past it.
    pub window_end: u64,
}

impl Shape {
    pub(super) fn of(receiver: &Receiver, row: &RuntimeRow, head: u64) -> Shape {
        let (batch_limit, timeout_ms) = match receiver {
            Receiver::WebhookPost { delivery, .. } => (1, delivery.timeout_ms.unwrap_or(DEFAULT_WEBHOOK_TIMEOUT_MS)),
            // A stream takes a whole append batch at once: a copier that fell
            // behind catches up a thousand events a request (issue 20).
            Receiver::CopyToStream { .. } => (MAX_COPY_BATCH_EVENTS, SEND_TIMEOUT_MS),
            _ => (MAX_DELIVERY_BATCH_EVENTS, SEND_TIMEOUT_MS),
        };
        let delivery = receiver.delivery();
        let aggregate = delivery.and_then(|delivery| delivery.aggregate);
        let gate = delivery.and_then(|delivery| delivery.gate);
        // A maxOnce gate plans one admitted hit at a time (§13): the hits
        // behind it are judged against the anchor its success sets, so an
        // isolated retry can never discard a hit this batch already tried.
        let max_once = matches!(gate, Some(Gate::MaxOnce { .. }));
        // A digest is retried whole and dead-letters event by event (§8), so
        // aggregation never isolates.
        let wanted = match aggregate {
            Some(aggregate) => usize::try_from(aggregate.max_batch).unwrap_or(MAX_DELIVERY_BATCH_EVENTS),
            None if row.isolating || max_once => 1,
            None => batch_limit,
        };
        // A digest awaiting retry resends exactly the same range (§8), a
        // threshold gate's too (§13: the gate decided once, when it minted).
        let retry_through = row
            .retry_through_offset
            .filter(|through| delivery.is_some_and(Delivery::resends_whole) && *through > row.acknowledged_offset);
        let scan_limit = retry_through.map_or(head, |through| through.min(head));
        Shape {
            batch_limit,
            timeout_ms,
            wanted,
            retracting: if row.isolating { 1 } else { batch_limit },
            gate,
            aggregate,
            throttle: delivery.and_then(|delivery| delivery.throttle),
            journaled: matches!(receiver, Receiver::WebhookPost { .. } | Receiver::ItxCall { .. }),
            checkpoints: matches!(receiver, Receiver::ProcessorWake { .. }),
            retry_through,
            head,
            window_end: scan_limit.min(row.acknowledged_offset.saturating_add(MAX_SCAN_ROWS)),
        }
    }

    pub(super) fn threshold_gate(&self) -> bool {
        matches!(self.gate, Some(Gate::Threshold { .. }))
    }

    /// When a batch planned at `now_ms` counts as lost (§6 rule 6).
    pub(super) fn deadline_ms(&self, now_ms: i64) -> i64 {
        now_ms
            .saturating_add(i64::try_from(self.timeout_ms).unwrap_or(i64::MAX))
            .saturating_add(IN_FLIGHT_GRACE_MS)
    }
}

/// Whether `throttle` refuses a delivery at `now_ms` (§8): the window that
/// started at the first admitted delivery is still open and spent.
pub(super) fn throttled(throttle: Throttle, window: Option<ThrottleWindow>, now_ms: i64) -> bool {
    window.is_some_and(|window| {
        now_ms < window.started_at_ms + throttle.window_ms as i64 && window.delivered >= throttle.max_deliveries
    })
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::subscription::{Delivery, OnFailingEvent, Start};
    use serde_json::json;

    fn row() -> RuntimeRow {
        RuntimeRow::fixture()
    }

    fn delivery() -> Delivery {
        Delivery {
            start: Start::Beginning,
            on_failing_event: OnFailingEvent::Halt,
            retry: None,
            throttle: None,
            aggregate: None,
            timeout_ms: None,
            journal_depth: None,
            gate: None,
            concurrency: None,
        }
    }

    fn webhook(delivery: Delivery) -> Receiver {
        Receiver::WebhookPost {
            url: crate::secrets::MaybeSecret::Plain("https://example.com/hook".to_owned()),
            headers: Default::default(),
            jsonata_transform: None,
            delivery,
        }
    }

    fn itx(delivery: Delivery) -> Receiver {
        Receiver::ItxCall {
            expression: json!(["a"]),
            jsonata_transform: None,
            delivery,
        }
    }

    #[test]
    fn a_passed_deadline_comes_before_anything_else() {
        let row = RuntimeRow {
            in_flight_deadline_at_ms: Some(100),
            next_attempt_at_ms: Some(500),
            ..row()
        };
        assert_eq!(phase(&row, 100), Phase::DeadlinePassed);
        assert_eq!(phase(&row, 99), Phase::InFlight { deadline_at_ms: 100 });
    }

    #[test]
    fn a_retry_waits_until_its_time_then_is_ready() {
        let row = RuntimeRow {
            next_attempt_at_ms: Some(200),
            ..row()
        };
        assert_eq!(phase(&row, 199), Phase::WaitingToRetry { at_ms: 200 });
        assert_eq!(phase(&row, 200), Phase::Ready);
        assert_eq!(phase(&super::tests::row(), 0), Phase::Ready);
    }

    #[test]
    fn a_webhook_posts_one_event_with_its_own_timeout() {
        let shape = Shape::of(
            &webhook(Delivery {
                timeout_ms: Some(1234),
                ..delivery()
            }),
            &row(),
            50,
        );
        assert_eq!((shape.batch_limit, shape.wanted, shape.retracting), (1, 1, 1));
        assert_eq!(shape.timeout_ms, 1234);
        assert!(shape.journaled && !shape.checkpoints);
        assert_eq!(shape.deadline_ms(1000), 1000 + 1234 + IN_FLIGHT_GRACE_MS);
        assert_eq!(shape.window_end, 50);
    }

    #[test]
    fn isolating_and_max_once_want_one_event() {
        let batched = Shape::of(&itx(delivery()), &row(), 50);
        assert_eq!(
            (batched.wanted, batched.retracting),
            (MAX_DELIVERY_BATCH_EVENTS, MAX_DELIVERY_BATCH_EVENTS)
        );
        assert_eq!(batched.timeout_ms, SEND_TIMEOUT_MS);
        let isolating = Shape::of(
            &itx(delivery()),
            &RuntimeRow {
                isolating: true,
                ..row()
            },
            50,
        );
        assert_eq!((isolating.wanted, isolating.retracting), (1, 1));
        let max_once = Shape::of(
            &itx(Delivery {
                gate: Some(Gate::MaxOnce { window_ms: 10 }),
                ..delivery()
            }),
            &row(),
            50,
        );
        assert_eq!((max_once.wanted, max_once.retracting), (1, MAX_DELIVERY_BATCH_EVENTS));
    }

    #[test]
    fn an_aggregate_wants_its_max_batch_and_never_isolates() {
        let shape = Shape::of(
            &itx(Delivery {
                aggregate: Some(Aggregate {
                    window_ms: 100,
                    max_batch: 7,
                }),
                ..delivery()
            }),
            &RuntimeRow {
                isolating: true,
                ..row()
            },
            50,
        );
        assert_eq!(shape.wanted, 7);
    }

    #[test]
    fn only_a_digest_resends_its_pinned_range() {
        let pinned = RuntimeRow {
            retry_through_offset: Some(30),
            ..row()
        };
        let plain = Shape::of(&itx(delivery()), &pinned, 50);
        assert_eq!((plain.retry_through, plain.window_end), (None, 50));
        let threshold = Shape::of(
            &itx(Delivery {
                gate: Some(Gate::Threshold {
                    count: 2,
                    window_ms: 10,
                }),
                ..delivery()
            }),
            &pinned,
            50,
        );
        assert!(threshold.threshold_gate());
        assert_eq!((threshold.retry_through, threshold.window_end), (Some(30), 30));
        let behind_cursor = RuntimeRow {
            retry_through_offset: Some(10),
            ..row()
        };
        let stale = Shape::of(
            &itx(Delivery {
                gate: Some(Gate::Threshold {
                    count: 2,
                    window_ms: 10,
                }),
                ..delivery()
            }),
            &behind_cursor,
            50,
        );
        assert_eq!(stale.retry_through, None);
    }

    #[test]
    fn the_scan_window_is_bounded_by_the_row_budget() {
        let shape = Shape::of(&itx(delivery()), &row(), u64::MAX);
        assert_eq!(shape.window_end, 10 + MAX_SCAN_ROWS);
    }

    #[test]
    fn a_processor_checkpoints_and_is_not_journaled() {
        let shape = Shape::of(
            &Receiver::ProcessorWake {
                expression: json!(["p"]),
            },
            &row(),
            50,
        );
        assert!(shape.checkpoints && !shape.journaled);
        assert_eq!((shape.gate, shape.aggregate, shape.throttle), (None, None, None));
    }

    #[test]
    fn a_throttle_refuses_only_inside_a_spent_window() {
        let throttle = Throttle {
            max_deliveries: 2,
            window_ms: 100,
        };
        let spent = ThrottleWindow {
            started_at_ms: 1000,
            delivered: 2,
        };
        assert!(!throttled(throttle, None, 1000));
        assert!(throttled(throttle, Some(spent), 1099));
        assert!(!throttled(throttle, Some(spent), 1100));
        assert!(!throttled(
            throttle,
            Some(ThrottleWindow { delivered: 1, ..spent }),
            1050
        ));
    }
}
