//! Concurrent delivery natively (docs/design.md §8 `concurrency`, §6, §13): up
//! to N single-event deliveries in flight, each under its own delivery id,
//! completing in any order; the cursor passes only the completed front; a
//! stuck event holds the cursor and nothing else; each failure is retried
//! and dead-lettered on its own; retractions still precede anything after
//! their invalidation; the throttle counts each delivery; a crash resends
//! only what was in flight.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::driver::{offsets, plan_of, Driver, INVALIDATED};
use serde_json::json;
use std::collections::BTreeMap;
use tributary::delivery::{Completion, DeliveryPlan, Outcome};

/// Completes every plan in `plans` with `outcome_of(offset)`, planning again
/// after each completion as the alarm does; returns every plan sent, in
/// order. Stops when nothing is planned (the clock never moves).
fn drive(driver: &mut Driver, mut outcome_of: impl FnMut(&DeliveryPlan) -> Outcome) -> Vec<DeliveryPlan> {
    let mut sent = Vec::new();
    let mut pending = driver.plan();
    for _ in 0..1_000 {
        let Some(plan) = pending.pop() else {
            break;
        };
        let outcome = plan.prepared_failure.clone().unwrap_or_else(|| outcome_of(&plan));
        driver.complete(&plan, outcome);
        sent.push(plan);
        pending.extend(driver.plan());
    }
    sent
}

#[test]
fn s8_deliveries_complete_in_any_order_and_the_cursor_passes_only_the_completed_front() {
    let mut driver = Driver::new("/c");
    assert_eq!(
        driver.configure("hook", "webhook-post", json!({"concurrency": 4})).0,
        201
    );
    assert_eq!(driver.data(6), vec![2, 3, 4, 5, 6, 7]);
    let plans = driver.plan();
    assert_eq!(
        offsets(&plans),
        vec![2, 3, 4, 5],
        "four single-event deliveries at once"
    );
    let stream_id = driver.stream.lifetime().unwrap().stream_id.clone();
    for plan in &plans {
        let offset = plan.events[0].offset;
        assert_eq!(
            (plan.after_offset, plan.through_offset, plan.attempt),
            (offset - 1, offset, 1)
        );
        assert_eq!(
            plan.delivery_id,
            tributary::copy::delivery_id(&stream_id, "hook", offset - 1, offset),
            "each event has its own deterministic id (§8)"
        );
    }
    assert!(driver.plan().is_empty(), "no fifth send while four are in flight");
    let card = driver.runtime_card("hook");
    let in_flight: Vec<u64> = card["window"]["inFlight"]
        .as_array()
        .unwrap()
        .iter()
        .map(|slot| slot["offset"].as_u64().unwrap())
        .collect();
    assert_eq!(in_flight, vec![2, 3, 4, 5], "the card shows the in-flight set: {card}");
    assert_eq!(card["window"]["inFlight"][0]["state"], "sending");

    assert_eq!(
        driver.complete(&plan_of(&plans, 4), Outcome::Delivered),
        Completion::Acknowledged { through: 4 }
    );
    assert_eq!(driver.cursor("hook"), 1, "2 and 3 are still open");
    let more = driver.plan();
    assert_eq!(offsets(&more), vec![6], "the place 4 freed is filled at once");
    driver.complete(&plan_of(&plans, 5), Outcome::Delivered);
    driver.complete(&plan_of(&plans, 2), Outcome::Delivered);
    assert_eq!(driver.cursor("hook"), 2);
    assert_eq!(driver.runtime_card("hook")["window"]["completedAhead"], 2);
    driver.complete(&plan_of(&plans, 3), Outcome::Delivered);
    assert_eq!(driver.cursor("hook"), 5, "3 completes the run 2..5");
    let last = driver.plan();
    assert_eq!(offsets(&last), vec![7]);
    driver.complete(&plan_of(&last, 7), Outcome::Delivered);
    assert_eq!(driver.cursor("hook"), 5, "6 is still open");
    driver.complete(&plan_of(&more, 6), Outcome::Delivered);
    assert_eq!(driver.cursor("hook"), 7);
    assert!(driver.stream.delivery_window("hook").unwrap().is_empty());
    assert_eq!(driver.next_due_at(), None, "nothing left: no alarm");
}

#[test]
fn s8_a_stuck_event_holds_back_the_cursor_and_nothing_else() {
    let mut driver = Driver::new("/c");
    let retry = json!({"maxAttempts": 3, "initialBackoffMs": 10_000, "maxBackoffMs": 10_000});
    driver.configure("hook", "webhook-post", json!({"concurrency": 3, "retry": retry}));
    driver.data(8); // 2..=9
    let mut received: BTreeMap<u64, usize> = BTreeMap::new();
    let sent = drive(&mut driver, |plan| {
        let offset = plan.events[0].offset;
        if offset == 3 {
            return Outcome::transient("HTTP 503");
        }
        *received.entry(offset).or_default() += 1;
        Outcome::Delivered
    });
    assert_eq!(received.keys().copied().collect::<Vec<_>>(), vec![2, 4, 5, 6, 7, 8, 9]);
    assert!(received.values().all(|count| *count == 1), "nothing was sent twice");
    assert_eq!(offsets(&sent).iter().filter(|offset| **offset == 3).count(), 1);
    assert_eq!(driver.cursor("hook"), 2, "the cursor waits before the stuck event");
    let window = driver.runtime_card("hook")["window"].clone();
    assert_eq!(window["completedAhead"], 6, "{window}");
    assert_eq!(window["inFlight"][0]["offset"], 3);
    assert_eq!(window["inFlight"][0]["state"], "waiting-to-retry");
    assert_eq!(window["inFlight"][0]["attempt"], 1);
    // The stuck event retries alone, then is dead-lettered on its own.
    for attempt in 2..=3 {
        let at = driver.next_due_at().unwrap();
        assert!(
            at > driver.now,
            "a retry waits for its backoff, the alarm does not spin"
        );
        driver.now = at;
        let retried = driver.plan();
        assert_eq!(offsets(&retried), vec![3]);
        assert_eq!(retried[0].attempt, attempt);
        driver.complete(&retried[0], Outcome::transient("HTTP 503"));
    }
    assert_eq!(driver.cursor("hook"), 9, "past 3's dead letter and 4..9");
    drive(&mut driver, |_| Outcome::Delivered);
    let head = driver.stream.lifetime().unwrap().head;
    assert_eq!(driver.cursor("hook"), head, "and then past the skip fact");
    let letters = driver.letters("hook");
    assert_eq!(letters.len(), 1);
    assert_eq!(
        (letters[0]["offset"].as_u64(), letters[0]["attempts"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(letters[0]["reason"], "transient: HTTP 503");
}

#[test]
fn s8_each_failing_event_is_dead_lettered_on_its_own() {
    let mut driver = Driver::new("/c");
    driver.configure("hook", "itx-call", json!({"concurrency": 4}));
    driver.data(6); // 2..=7
    let plans = driver.plan();
    assert_eq!(offsets(&plans), vec![2, 3, 4, 5], "an itx call carries one event too");
    for plan in &plans {
        let outcome = match plan.events[0].offset {
            3 | 5 => Outcome::permanent("HTTP 400"),
            _ => Outcome::Delivered,
        };
        driver.complete(plan, outcome);
    }
    drive(&mut driver, |_| Outcome::Delivered);
    let letters = driver.letters("hook");
    let dead: Vec<(u64, String)> = letters
        .iter()
        .map(|letter| {
            (
                letter["offset"].as_u64().unwrap(),
                letter["deliveryId"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(dead.iter().map(|(offset, _)| *offset).collect::<Vec<_>>(), vec![3, 5]);
    assert_ne!(dead[0].1, dead[1].1, "each dead letter has its own delivery id");
    assert_eq!(dead[0].1, plan_of(&plans, 3).delivery_id);
    let skipped = driver.events_of_type("events.iterate.com/stream/error-occurred");
    assert_eq!(skipped.len(), 2, "one durable fact per dead-lettered event");
    assert_eq!(skipped[0]["payload"]["offsets"], json!([3]));
    let head = driver.stream.lifetime().unwrap().head;
    assert_eq!(driver.cursor("hook"), head, "the facts are passed over too");
    let card = driver.runtime_card("hook");
    assert_eq!(
        card["journal"]["size"], 6,
        "delivered and dead-lettered offsets are journaled: {card}"
    );
}

#[test]
fn s13_retractions_wait_for_open_deliveries_and_precede_everything_after_them() {
    let mut driver = Driver::new("/c");
    driver.configure("hook", "webhook-post", json!({"concurrency": 4}));
    driver.data(4); // 2..=5
    let plans = driver.plan();
    assert_eq!(offsets(&plans), vec![2, 3, 4, 5]);
    for offset in [2, 4, 5] {
        driver.complete(&plan_of(&plans, offset), Outcome::Delivered);
    }
    // 3 is still in flight when its invalidation is appended.
    let (status, body) = driver.append(json!({"type": INVALIDATED, "payload": {"afterOffset": 2}}));
    assert_eq!((status, body["event"]["offset"].as_u64()), (201, Some(6)));
    driver.data(2); // 7, 8
    assert!(
        driver.plan().is_empty(),
        "nothing after the invalidation goes while 3 is open"
    );
    assert_eq!(driver.runtime_card("hook")["window"]["waitingAtInvalidation"], 6);
    assert!(
        driver.next_due_at().unwrap() > driver.now,
        "waiting at the barrier is not due now"
    );
    driver.complete(&plan_of(&plans, 3), Outcome::Delivered);
    assert_eq!(driver.cursor("hook"), 5);
    let mut order = Vec::new();
    let sent = drive(&mut driver, |_| Outcome::Delivered);
    for plan in &sent {
        let kind = if plan.retraction.is_some() { "retract" } else { "event" };
        order.extend(plan.events.iter().map(|event| (kind, event.offset)));
    }
    assert_eq!(
        order[..3],
        [("retract", 3), ("retract", 4), ("retract", 5)],
        "retractions in offset order, each alone, before anything after the invalidation"
    );
    let mut after: Vec<(&str, u64)> = order[3..].to_vec();
    after.sort();
    assert_eq!(after, vec![("event", 7), ("event", 8)]);
    assert_eq!(driver.cursor("hook"), 8);
}

#[test]
fn s13_a_dead_lettered_event_before_an_invalidation_is_retracted_too() {
    let mut driver = Driver::new("/c");
    driver.configure("hook", "webhook-post", json!({"concurrency": 2}));
    driver.data(2); // 2, 3
    let plans = driver.plan();
    driver.append(json!({"type": INVALIDATED, "payload": {"offsets": [2, 3]}})); // 4
    driver.data(1); // 5
    driver.complete(&plan_of(&plans, 3), Outcome::permanent("HTTP 400"));
    assert!(driver.plan().is_empty(), "2 is open: the window waits at 4");
    driver.complete(&plan_of(&plans, 2), Outcome::Delivered);
    let sent = drive(&mut driver, |_| Outcome::Delivered);
    let retracted: Vec<u64> = sent
        .iter()
        .filter(|plan| plan.retraction.is_some())
        .flat_map(|plan| plan.events.iter().map(|event| event.offset))
        .collect();
    assert_eq!(
        retracted,
        vec![2, 3],
        "delivered and dead-lettered offsets are both retracted (§13)"
    );
    assert_eq!(offsets(&sent).last(), Some(&5));
}

#[test]
fn s8_the_throttle_counts_each_delivery_and_open_ones_hold_back_new_ones() {
    let mut driver = Driver::new("/c");
    let throttle = json!({"maxDeliveries": 3, "windowMs": 60_000});
    driver.configure("hook", "webhook-post", json!({"concurrency": 8, "throttle": throttle}));
    driver.data(6); // 2..=7
    let plans = driver.plan();
    assert_eq!(
        offsets(&plans),
        vec![2, 3, 4],
        "three open deliveries could spend the budget"
    );
    driver.complete(&plan_of(&plans, 3), Outcome::permanent("HTTP 400"));
    let more = driver.plan();
    assert_eq!(offsets(&more), vec![5], "a failure spends no budget");
    for plan in [plan_of(&plans, 2), plan_of(&plans, 4), plan_of(&more, 5)] {
        driver.complete(&plan, Outcome::Delivered);
    }
    let sent = drive(&mut driver, |_| Outcome::Delivered);
    assert!(
        sent.iter().all(|plan| plan.throttled),
        "past the budget each event is dead-lettered"
    );
    let mut letters: Vec<(u64, String)> = driver
        .letters("hook")
        .iter()
        .map(|letter| {
            (
                letter["offset"].as_u64().unwrap(),
                letter["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    letters.sort();
    assert_eq!(
        letters.iter().map(|(offset, _)| *offset).collect::<Vec<_>>(),
        vec![3, 6, 7]
    );
    assert!(
        letters[1]
            .1
            .contains("throttled: policy allows 3 deliveries per 60000ms"),
        "{letters:?}"
    );
}

#[test]
fn s8_a_crash_resends_only_what_was_in_flight_never_what_completed_ahead() {
    let mut driver = Driver::new("/c");
    driver.configure("hook", "webhook-post", json!({"concurrency": 4}));
    driver.data(6); // 2..=7
    let before = driver.plan();
    driver.complete(&plan_of(&before, 4), Outcome::Delivered);
    driver.complete(&plan_of(&before, 5), Outcome::Delivered);
    driver.crash();
    assert_eq!(driver.cursor("hook"), 1);
    assert_eq!(
        driver.next_due_at(),
        Some(i64::MIN),
        "the dead instance's sends are due now"
    );
    let after = driver.plan();
    assert_eq!(
        offsets(&after),
        vec![2, 3, 6, 7],
        "4 and 5 completed before the crash: not resent"
    );
    assert_eq!(plan_of(&after, 2).delivery_id, plan_of(&before, 2).delivery_id);
    assert_eq!(plan_of(&after, 2).attempt, 1, "a lost send spends no attempt");
    // The dead instance's send of 2 answers late: the slot went again under
    // a new lease, so only the resend is answered (§6 rule 7), once.
    assert_eq!(
        driver.complete(&plan_of(&before, 2), Outcome::Delivered),
        Completion::Stale
    );
    assert_eq!(
        driver.complete(&plan_of(&after, 2), Outcome::Delivered),
        Completion::Acknowledged { through: 2 }
    );
    assert_eq!(
        driver.complete(&plan_of(&after, 2), Outcome::Delivered),
        Completion::Stale
    );
    for offset in [3, 6, 7] {
        driver.complete(&plan_of(&after, offset), Outcome::Delivered);
    }
    assert_eq!(driver.cursor("hook"), 7);
    assert!(driver.plan().is_empty());
}

#[test]
fn s6_a_new_run_empties_the_window_and_old_completions_are_stale() {
    let mut driver = Driver::new("/c");
    driver.configure("hook", "webhook-post", json!({"concurrency": 3}));
    driver.data(3); // 2..=4
    let plans = driver.plan();
    driver.complete(&plan_of(&plans, 3), Outcome::Delivered);
    let set = json!({"type": "events.iterate.com/stream/subscription-cursor-set",
        "payload": {"subscriptionKey": "hook", "afterOffset": 0}});
    assert_eq!(driver.append(set).0, 201);
    assert!(driver.stream.delivery_window("hook").unwrap().is_empty());
    let rows_before = driver.stream.runtime_rows().unwrap();
    for offset in [2, 4] {
        assert_eq!(
            driver.complete(&plan_of(&plans, offset), Outcome::Delivered),
            Completion::Stale
        );
    }
    assert_eq!(
        driver.stream.runtime_rows().unwrap(),
        rows_before,
        "stale results change nothing"
    );
    let replanned = driver.plan();
    assert_eq!(offsets(&replanned), vec![2, 3, 4], "the new run starts over");
}

#[test]
fn s8_concurrency_1_is_the_ordered_default() {
    let mut driver = Driver::new("/c");
    driver.configure("one", "itx-call", json!({"concurrency": 1}));
    driver.configure("default", "itx-call", json!({}));
    driver.data(3); // 3..=5
    let plans = driver.plan();
    assert_eq!(plans.len(), 2, "one batch each, in flight alone");
    for plan in &plans {
        assert_eq!(offsets(std::slice::from_ref(plan)), vec![3, 4, 5]);
    }
    assert_eq!(plans[0].delivery_id.len(), plans[1].delivery_id.len());
    assert!(driver.stream.delivery_window("one").unwrap().is_empty());
}
