//! A completion answers the one send it belongs to (docs/design.md §6 rules 6,
//! 7, 9; §8): a dead instance's late result for the same run and range, while
//! a newer send of that range is in flight, changes nothing — it neither
//! dead-letters nor retries nor halts nor moves the cursor, so the next batch
//! is not sent before the one in flight (the interleaving simulation's seeds
//! 1449 and 3880, reduced to their steps).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::driver::{offsets, Driver};
use serde_json::json;
use tributary::delivery::{Completion, Outcome};

/// A skip-mode webhook allowing `attempts` attempts, with two events due.
fn hook(path: &str, attempts: u64) -> Driver {
    let mut driver = Driver::new(path);
    let retry = json!({"maxAttempts": attempts, "initialBackoffMs": 10, "maxBackoffMs": 10});
    assert_eq!(driver.configure("hook", "webhook-post", json!({"retry": retry})).0, 201);
    assert_eq!(driver.data(2), vec![2, 3]);
    driver
}

#[test]
fn s6_a_dead_instances_failure_does_not_skip_the_send_in_flight() {
    // Seed 3880: the dead instance's send of offset 2 fails after the new
    // instance sent the same range again; with one attempt allowed, taking
    // it would dead-letter offset 2 and send 3 while 2 is still on its way.
    let mut driver = hook("/lease-skip", 1);
    let dead = driver.plan();
    assert_eq!(offsets(&dead), vec![2]);
    driver.crash();
    let live = driver.plan();
    assert_eq!(offsets(&live), vec![2], "the restart resends what was in flight");
    assert_eq!(
        (live[0].after_offset, live[0].through_offset, live[0].attempt),
        (dead[0].after_offset, dead[0].through_offset, dead[0].attempt),
        "same run, same range, same attempt number: only the send differs"
    );

    let late = driver.complete(&dead[0], Outcome::transient("connection reset"));
    assert_eq!(
        late,
        Completion::Stale,
        "the dead instance's send is not the one in flight"
    );
    assert_eq!(driver.cursor("hook"), dead[0].after_offset);
    assert!(driver.letters("hook").is_empty(), "nothing dead-lettered");
    assert_eq!(driver.turn.in_flight(), 1, "the live send keeps its place in the turn");
    assert!(driver.plan().is_empty(), "offset 3 waits for the send of 2 (§6 rule 9)");

    assert_eq!(
        driver.complete(&live[0], Outcome::Delivered),
        Completion::Acknowledged { through: 2 }
    );
    assert_eq!(offsets(&driver.plan()), vec![3]);
}

#[test]
fn s6_dead_instances_failures_spend_no_attempt_of_the_send_in_flight() {
    // Seed 1449: two dead instances' sends of the same range fail in turn
    // (a retry scheduled, then a skip) while a third instance's send of it
    // is in flight.
    let mut driver = hook("/lease-retry", 2);
    let first = driver.plan();
    driver.crash();
    let second = driver.plan();
    driver.crash();
    let live = driver.plan();
    assert_eq!(offsets(&live), vec![2]);
    for dead in [&first[0], &second[0]] {
        assert_eq!(
            driver.complete(dead, Outcome::transient("connection reset")),
            Completion::Stale
        );
    }
    let row = &driver.stream.runtime_rows().unwrap()["hook"];
    assert_eq!(
        (row.acknowledged_offset, row.attempt),
        (live[0].after_offset, 0),
        "no attempt spent"
    );
    assert!(
        row.in_flight_deadline_at_ms.is_some(),
        "the live send is still in flight"
    );
    assert!(driver.plan().is_empty());
    assert!(matches!(
        driver.complete(&live[0], Outcome::transient("HTTP 503")),
        Completion::RetryScheduled { attempt: 1, .. }
    ));
}

#[test]
fn s6_a_late_result_of_the_last_send_before_a_restart_still_counts() {
    // Nothing newer is in flight: the dead instance's answer is the one the
    // row waits for (a restart alone refuses nothing).
    let mut driver = hook("/lease-restart", 3);
    let sent = driver.plan();
    driver.crash();
    assert_eq!(
        driver.complete(&sent[0], Outcome::Delivered),
        Completion::Acknowledged { through: 2 }
    );
    assert_eq!(offsets(&driver.plan()), vec![3]);
}

#[test]
fn s6_a_send_is_answered_once() {
    // A repeated result of one send (the shell handing it over twice)
    // spends no second attempt.
    let mut driver = hook("/lease-once", 3);
    let sent = driver.plan();
    assert!(matches!(
        driver.complete(&sent[0], Outcome::transient("HTTP 503")),
        Completion::RetryScheduled { attempt: 1, .. }
    ));
    assert_eq!(
        driver.complete(&sent[0], Outcome::transient("HTTP 503")),
        Completion::Stale
    );
    assert_eq!(driver.stream.runtime_rows().unwrap()["hook"].attempt, 1);
}

#[test]
fn s6_a_superseded_permanent_failure_does_not_halt() {
    // Halt mode: the dead instance's permanent failure of a range the live
    // instance sent again must not append a halt while that send runs.
    let mut driver = Driver::new("/lease-halt");
    let delivery = json!({"onFailingEvent": "halt"});
    assert_eq!(driver.configure("hook", "itx-call", delivery).0, 201);
    assert_eq!(driver.data(1), vec![2]);
    let dead = driver.plan();
    driver.crash();
    let live = driver.plan();
    assert_eq!(offsets(&live), vec![2]);
    assert_eq!(
        driver.complete(&dead[0], Outcome::permanent("HTTP 400")),
        Completion::Stale
    );
    assert!(driver.stream.state().subscriptions.outbound.by_key["hook"]
        .delivery_halted
        .is_none());
    assert_eq!(
        driver.complete(&live[0], Outcome::Delivered),
        Completion::Acknowledged { through: 2 }
    );
}

#[test]
fn s6_an_isolation_and_a_halt_are_each_taken_once() {
    // Every way of settling a send ends its lease: a batch isolating
    // (§6 rule 4) and a halt (§6 rule 5) handed over twice act once.
    let mut driver = Driver::new("/lease-halt-once");
    let delivery =
        json!({"onFailingEvent": "halt", "retry": {"maxAttempts": 1, "initialBackoffMs": 10, "maxBackoffMs": 10}});
    assert_eq!(driver.configure("hook", "itx-call", delivery).0, 201);
    assert_eq!(driver.data(2), vec![2, 3]);
    let batch = driver.plan();
    assert_eq!(offsets(&batch), vec![2, 3]);
    for (round, expected) in [(0, true), (1, false)] {
        let isolated = driver.complete(&batch[0], Outcome::permanent("HTTP 400"));
        assert_eq!(
            matches!(isolated, Completion::RetryScheduled { .. }),
            expected,
            "round {round}: {isolated:?}"
        );
    }
    let alone = driver.plan();
    assert_eq!(
        offsets(&alone),
        vec![2],
        "the failing batch retried one event at a time"
    );
    assert!(matches!(
        driver.complete(&alone[0], Outcome::permanent("HTTP 400")),
        Completion::Halted { .. }
    ));
    let halts = driver.events_of_type("events.iterate.com/stream/subscription-delivery-halted");
    assert_eq!(
        driver.complete(&alone[0], Outcome::permanent("HTTP 400")),
        Completion::Stale
    );
    assert_eq!(
        driver.events_of_type("events.iterate.com/stream/subscription-delivery-halted"),
        halts,
        "one halt fact"
    );
}

/// A concurrent window's slots (§8 `concurrency`) hold a lease too: a lost
/// send of a slot, resent after its deadline, answers nothing when its late
/// result arrives — no false dead letter, no retry under the live send —
/// and the live send's answer completes the slot, once.
#[test]
fn s8_a_dead_instances_failure_does_not_settle_a_window_slot_sent_again() {
    let mut driver = Driver::new("/lease-window");
    let retry = json!({"maxAttempts": 1, "initialBackoffMs": 10, "maxBackoffMs": 10});
    let configured = driver.configure("hook", "webhook-post", json!({"retry": retry, "concurrency": 2}));
    assert_eq!(configured.0, 201, "{}", configured.1);
    assert_eq!(driver.data(2), vec![2, 3]);
    let dead = driver.plan();
    assert_eq!(offsets(&dead), vec![2, 3], "two slots in flight");
    driver.crash();
    driver.now += 10 * 60 * 1000;
    let live = driver.plan();
    assert_eq!(
        offsets(&live),
        vec![2, 3],
        "the lost sends go again after their deadline"
    );
    for (dead, live) in dead.iter().zip(&live) {
        assert_eq!(
            (&dead.delivery_id, dead.attempt),
            (&live.delivery_id, live.attempt),
            "same slot, same attempt number: only the send differs"
        );
    }

    // The dead instance's sends answer late: a failure (one attempt allowed,
    // so taking it would dead-letter) and a success.
    assert_eq!(
        driver.complete(&dead[0], Outcome::transient("connection reset")),
        Completion::Stale
    );
    assert_eq!(driver.complete(&dead[1], Outcome::Delivered), Completion::Stale);
    assert!(driver.letters("hook").is_empty(), "nothing dead-lettered");
    assert_eq!(driver.cursor("hook"), 1, "the cursor waits for the live sends");

    assert_eq!(
        driver.complete(&live[1], Outcome::Delivered),
        Completion::Acknowledged { through: 3 }
    );
    assert_eq!(
        driver.complete(&live[0], Outcome::Delivered),
        Completion::Acknowledged { through: 2 }
    );
    assert_eq!(driver.cursor("hook"), 3);
    assert_eq!(
        driver.complete(&live[0], Outcome::Delivered),
        Completion::Stale,
        "answered once"
    );
    assert!(driver.letters("hook").is_empty());
}
