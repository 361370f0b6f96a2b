//! What one send's outcome does to its subscription (docs/design.md §6 rules 4,
//! 5, 7, 8; §8; §9; §13), decided from the plan, the runtime row and the
//! delivery policy alone: `complete_delivery` only carries it out.

use super::{backoff_ms, DeliveryPlan, FailureKind, Outcome};
use crate::limits::MAX_ERROR_CHARS;
use crate::schema::RuntimeRow;
use crate::subscription::{Delivery, OnFailingEvent};

/// What one send's outcome does to its subscription.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Settle {
    /// The result belongs to an older run or a cursor that moved (§6 rule 7).
    Stale,
    /// A retraction batch was delivered (§13).
    Retracted,
    /// A hosted processor answered its checkpoint (§9).
    Checkpointed {
        through: u64,
    },
    Delivered,
    /// A failed batch of several events is retried one event at a time (§6 rule 4).
    Isolate {
        message: String,
    },
    /// `skip` mode gives up on the batch (§6 rule 5, §8); a throttled batch always.
    Skip {
        kind: FailureKind,
        attempts: u64,
        message: String,
    },
    /// The retry budget ran out, or the failure was permanent (§6 rules 5, 8).
    Halt {
        attempts: u64,
        message: String,
    },
    /// Another attempt after a jittered backoff (§6 rule 5).
    Retry {
        attempts: u64,
        delay_ms: i64,
        message: String,
    },
}

/// Decides what `outcome` of `plan` does, given the subscription's runtime
/// row, its delivery policy and the stream's current lifetime id.
pub(super) fn settle(
    plan: &DeliveryPlan,
    outcome: Outcome,
    row: &RuntimeRow,
    delivery: Option<&Delivery>,
    lifetime: Option<&str>,
    entropy: [u8; 16],
) -> Settle {
    // The run is the whole stamp (§6 rule 7): the source lifetime and the
    // config generation. A send from a destroyed lifetime, an older
    // generation, or a cursor that moved since, changes nothing; nor does
    // one the row no longer waits for (its lease, §6 rules 6, 9): a dead
    // instance's send of the same range while the new instance's is in
    // flight, or a result already taken.
    if lifetime != Some(plan.stamp.stream_id.as_str())
        || row.cursor_changed_at_source_offset != plan.stamp.cursor_changed_at_source_offset
        || row.acknowledged_offset != plan.after_offset
        || row.send_lease != plan.lease
    {
        return Settle::Stale;
    }
    if plan.retraction.is_some() && outcome == Outcome::Delivered {
        return Settle::Retracted;
    }
    match outcome {
        Outcome::Checkpointed { through } => Settle::Checkpointed { through },
        Outcome::Delivered => Settle::Delivered,
        Outcome::Failed {
            kind,
            message,
            retry_after_ms,
        } => {
            let message: String = message.chars().take(MAX_ERROR_CHARS).collect();
            failing(plan, row.attempt, delivery, kind, message, retry_after_ms, entropy)
        }
    }
}

/// A failed send after `attempt` earlier failures.
pub(super) fn failing(
    plan: &DeliveryPlan,
    attempt: u64,
    delivery: Option<&Delivery>,
    kind: FailureKind,
    message: String,
    retry_after_ms: Option<i64>,
    entropy: [u8; 16],
) -> Settle {
    let retry = delivery.and_then(|delivery| delivery.retry).unwrap_or_default();
    let attempts = attempt + 1;
    if plan.throttled {
        return Settle::Skip {
            kind,
            attempts: attempt,
            message,
        };
    }
    let giving_up = kind == FailureKind::Permanent || attempts >= retry.max_attempts;
    // A digest (aggregate or threshold gate) is retried whole and
    // dead-letters event by event: it never isolates (§8, §13).
    let aggregating = delivery.is_some_and(Delivery::resends_whole);
    if giving_up && plan.events.len() > 1 && !aggregating {
        return Settle::Isolate { message };
    }
    if giving_up {
        if delivery.is_some_and(|d| d.on_failing_event == OnFailingEvent::Skip) {
            return Settle::Skip {
                kind,
                attempts,
                message,
            };
        }
        return Settle::Halt { attempts, message };
    }
    Settle::Retry {
        attempts,
        delay_ms: backoff_ms(&retry, attempts, entropy).max(retry_after_ms.unwrap_or(0)),
        message,
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::copy::Stamp;
    use crate::delivery::{PlannedEvent, Retraction};
    use crate::subscription::{Aggregate, Receiver, Retry, Start};
    use serde_json::json;

    const ENTROPY: [u8; 16] = [0; 16];

    fn row() -> RuntimeRow {
        RuntimeRow {
            in_flight_deadline_at_ms: Some(5000),
            send_lease: 4,
            ..RuntimeRow::fixture()
        }
    }

    fn delivery() -> Delivery {
        Delivery {
            start: Start::Beginning,
            on_failing_event: OnFailingEvent::Halt,
            retry: Some(Retry {
                max_attempts: 3,
                initial_backoff_ms: 100,
                max_backoff_ms: 1000,
            }),
            throttle: None,
            aggregate: None,
            timeout_ms: None,
            journal_depth: None,
            gate: None,
            concurrency: None,
        }
    }

    fn plan(events: u64) -> DeliveryPlan {
        DeliveryPlan {
            subscription_key: "k".to_owned(),
            receiver: Receiver::ItxCall {
                expression: json!(["a"]),
                jsonata_transform: None,
                delivery: delivery(),
            },
            stamp: Stamp {
                source_project_id: "p".to_owned(),
                source_path: "/s".to_owned(),
                subscription_key: "k".to_owned(),
                stream_id: "str_1".to_owned(),
                stream_created_at: "2026-01-01T00:00:00.000Z".to_owned(),
                cursor_changed_at_source_offset: 1,
            },
            after_offset: 10,
            through_offset: 10 + events,
            attempt: 1,
            lease: 4,
            delivery_id: "dlv".to_owned(),
            started_at_ms: 1000,
            events: (11..=10 + events)
                .map(|offset| PlannedEvent {
                    offset,
                    created_at_ms: 900,
                    body: json!({}).into(),
                })
                .collect(),
            prepared_failure: None,
            throttled: false,
            timeout_ms: 1000,
            retraction: None,
        }
    }

    fn settled(plan: &DeliveryPlan, outcome: Outcome, row: &RuntimeRow, delivery: &Delivery) -> Settle {
        settle(plan, outcome, row, Some(delivery), Some("str_1"), ENTROPY)
    }

    #[test]
    fn another_run_or_a_moved_cursor_is_stale() {
        let plan = plan(1);
        assert_eq!(
            settle(
                &plan,
                Outcome::Delivered,
                &row(),
                Some(&delivery()),
                Some("str_2"),
                ENTROPY
            ),
            Settle::Stale
        );
        assert_eq!(
            settle(&plan, Outcome::Delivered, &row(), Some(&delivery()), None, ENTROPY),
            Settle::Stale
        );
        let moved = RuntimeRow {
            acknowledged_offset: 11,
            ..row()
        };
        assert_eq!(settled(&plan, Outcome::Delivered, &moved, &delivery()), Settle::Stale);
        let regenerated = RuntimeRow {
            cursor_changed_at_source_offset: 2,
            ..row()
        };
        assert_eq!(
            settled(&plan, Outcome::Delivered, &regenerated, &delivery()),
            Settle::Stale
        );
    }

    #[test]
    fn a_send_the_row_no_longer_waits_for_is_stale_whatever_its_outcome() {
        // Same run, range and attempt number: a dead instance's send, or
        // one already answered (§6 rules 6, 7, 9).
        for lease in [3, 5] {
            let superseded = DeliveryPlan { lease, ..plan(1) };
            for outcome in [
                Outcome::Delivered,
                Outcome::transient("reset"),
                Outcome::permanent("400"),
            ] {
                assert_eq!(settled(&superseded, outcome, &row(), &delivery()), Settle::Stale);
            }
        }
    }

    #[test]
    fn success_delivers_checkpoints_or_completes_a_retraction() {
        let plan = plan(1);
        assert_eq!(
            settled(&plan, Outcome::Delivered, &row(), &delivery()),
            Settle::Delivered
        );
        assert_eq!(
            settled(&plan, Outcome::Checkpointed { through: 4 }, &row(), &delivery()),
            Settle::Checkpointed { through: 4 }
        );
        let retraction = DeliveryPlan {
            retraction: Some(Retraction {
                invalidated_at: 20,
                reason: None,
            }),
            ..plan
        };
        assert_eq!(
            settled(&retraction, Outcome::Delivered, &row(), &delivery()),
            Settle::Retracted
        );
        assert!(matches!(
            settled(&retraction, Outcome::transient("down"), &row(), &delivery()),
            Settle::Retry { attempts: 1, .. }
        ));
    }

    #[test]
    fn a_transient_failure_retries_after_backoff_or_the_receivers_delay() {
        let plan = plan(1);
        let Settle::Retry {
            attempts,
            delay_ms,
            message,
        } = settled(&plan, Outcome::transient("down"), &row(), &delivery())
        else {
            panic!("expected a retry");
        };
        assert_eq!((attempts, message.as_str()), (1, "down"));
        assert!((80..=120).contains(&delay_ms));
        let later = Outcome::Failed {
            kind: FailureKind::Transient,
            message: "slow down".to_owned(),
            retry_after_ms: Some(60_000),
        };
        assert!(matches!(
            settled(&plan, later, &row(), &delivery()),
            Settle::Retry { delay_ms: 60_000, .. }
        ));
    }

    #[test]
    fn the_last_attempt_halts_or_skips_by_mode() {
        let spent = RuntimeRow { attempt: 2, ..row() };
        assert_eq!(
            settled(&plan(1), Outcome::transient("down"), &spent, &delivery()),
            Settle::Halt {
                attempts: 3,
                message: "down".to_owned()
            }
        );
        let skipping = Delivery {
            on_failing_event: OnFailingEvent::Skip,
            ..delivery()
        };
        assert_eq!(
            settled(&plan(1), Outcome::permanent("bad"), &row(), &skipping),
            Settle::Skip {
                kind: FailureKind::Permanent,
                attempts: 1,
                message: "bad".to_owned()
            }
        );
    }

    #[test]
    fn a_batch_isolates_before_giving_up_unless_it_is_a_digest() {
        assert_eq!(
            settled(&plan(3), Outcome::permanent("bad"), &row(), &delivery()),
            Settle::Isolate {
                message: "bad".to_owned()
            }
        );
        let digest = Delivery {
            aggregate: Some(Aggregate {
                window_ms: 100,
                max_batch: 5,
            }),
            ..delivery()
        };
        assert!(matches!(
            settled(&plan(3), Outcome::permanent("bad"), &row(), &digest),
            Settle::Halt { attempts: 1, .. }
        ));
    }

    #[test]
    fn a_throttled_batch_is_skipped_without_spending_an_attempt() {
        let throttled = DeliveryPlan {
            throttled: true,
            ..plan(1)
        };
        let row = RuntimeRow { attempt: 1, ..row() };
        assert!(matches!(
            settled(&throttled, Outcome::permanent("throttled"), &row, &delivery()),
            Settle::Skip { attempts: 1, .. }
        ));
    }

    #[test]
    fn a_long_error_is_cut_to_the_limit() {
        let long = "x".repeat(MAX_ERROR_CHARS + 10);
        let Settle::Retry { message, .. } = settled(&plan(1), Outcome::transient(long), &row(), &delivery()) else {
            panic!("expected a retry");
        };
        assert_eq!(message.chars().count(), MAX_ERROR_CHARS);
    }
}
