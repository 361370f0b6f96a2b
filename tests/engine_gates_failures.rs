//! Both gates against receivers that fail transiently, fail permanently,
//! time out, and a crash between plan and completion, in `skip` and `halt`
//! mode (docs/design.md §13 Gates, §6 rules 5, 6, 7, 11, §8). The invariant in
//! every case: a gate may discard only a hit it never tried to deliver;
//! nothing passes silently; the alarm is never left due with nothing to do.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;
mod gates;

use common::world::{Network, World};
use gates::*;
use serde_json::{json, Value};
use tributary::delivery::{Completion, DeliveryPlan, Outcome};

fn max_once() -> Value {
    json!({"maxOnce": {"windowMs": 600_000}})
}

fn threshold() -> Value {
    json!({"threshold": {"count": 2, "windowMs": 600_000}})
}

/// The first `failures` sends get `failure`; the rest are delivered.
fn failing(failures: usize, failure: Network) -> impl FnMut(&DeliveryPlan) -> Network {
    let mut sent = 0;
    move |_| {
        sent += 1;
        if sent <= failures {
            failure.clone()
        } else {
            Network::Deliver
        }
    }
}

fn modes_and_crashes() -> Vec<(&'static str, Network)> {
    let mut cases = Vec::new();
    for mode in ["skip", "halt"] {
        for crash in [Network::CrashBeforeSend, Network::CrashAfterSend] {
            cases.push((mode, crash));
        }
    }
    cases
}

fn timed_out() -> Network {
    Network::Fail(Outcome::transient("timed out after 15000 ms (headers and body)"))
}

// maxOnce --------------------------------------------------------------------

#[test]
fn s13_max_once_permanent_failure_in_skip_mode_dead_letters_the_hit_and_the_anchor_stays() {
    let mut world = World::new(11);
    webhook(&mut world, "/m", "skip", max_once());
    data(&mut world, "/m", 2); // 2 refused, 3 in the same window
    let mut attempted = Attempted::new();
    settle(
        &mut world,
        "/m",
        &mut attempted,
        &mut |plan| match plan.events[0].offset {
            2 => Network::Fail(Outcome::permanent("HTTP 410")),
            _ => Network::Deliver,
        },
    );
    assert_eq!(letter_offsets(&mut world, "/m"), vec![2]);
    assert_eq!(
        delivered(&world),
        vec![vec![3]],
        "the anchor moves only on success: 3 is the first delivered hit"
    );
    assert_eq!(metric(&mut world, "/m", "gate_discarded_total"), 0);
    data(&mut world, "/m", 1); // in 3's window
    settle(&mut world, "/m", &mut attempted, &mut |_| Network::Deliver);
    assert_eq!(delivered(&world), vec![vec![3]]);
    assert_eq!(metric(&mut world, "/m", "gate_discarded_total"), 1);
    assert_eq!(lag(&mut world, "/m"), 0);
    assert_nothing_passed_silently(&mut world, "/m", &attempted);
}

#[test]
fn s13_max_once_permanent_failure_in_halt_mode_halts_before_the_hit_and_resume_admits_it() {
    let mut world = World::new(12);
    webhook(&mut world, "/m", "halt", max_once());
    data(&mut world, "/m", 1); // 2
    let mut attempted = Attempted::new();
    let sends = settle(&mut world, "/m", &mut attempted, &mut |_| {
        Network::Fail(Outcome::permanent("HTTP 400"))
    });
    assert_eq!(sends, 1);
    assert_eq!(halts(&mut world, "/m"), 1);
    assert!(
        runtime(&mut world, "/m")["acknowledgedOffset"].as_u64().unwrap() < 2,
        "the cursor stays before the hit: the halt covers it"
    );
    data(&mut world, "/m", 1); // 4 (3 is the halt)
    assert!(
        world.stream("/m").next_due_at().unwrap().is_none(),
        "a halted gate is not due"
    );
    resume(&mut world, "/m");
    settle(&mut world, "/m", &mut attempted, &mut |_| Network::Deliver);
    assert_eq!(
        delivered(&world),
        vec![vec![2]],
        "the retried hit is admitted again, 4 discarded"
    );
    assert_eq!(metric(&mut world, "/m", "gate_discarded_total"), 1);
    assert_nothing_passed_silently(&mut world, "/m", &attempted);
}

#[test]
fn s13_max_once_timeouts_follow_the_ladder_then_dead_letter_or_halt() {
    for mode in ["skip", "halt"] {
        let mut world = World::new(13);
        webhook(&mut world, "/m", mode, max_once());
        data(&mut world, "/m", 1); // 2
        let mut attempted = Attempted::new();
        let sends = settle(&mut world, "/m", &mut attempted, &mut |_| timed_out());
        assert_eq!(sends, 3, "{mode}: the whole ladder, then give up");
        assert_eq!(metric(&mut world, "/m", "gate_discarded_total"), 0, "{mode}");
        if mode == "skip" {
            let letters = letters(&mut world, "/m");
            assert_eq!(letters.len(), 1);
            assert!(letters[0].1.starts_with("transient: timed out"), "{letters:?}");
            assert_eq!(lag(&mut world, "/m"), 0);
        } else {
            assert!(halted(&mut world, "/m"));
            assert!(letters(&mut world, "/m").is_empty());
        }
        assert_nothing_passed_silently(&mut world, "/m", &attempted);
    }
}

#[test]
fn s13_max_once_crash_between_plan_and_completion_replans_the_same_hit() {
    for (mode, crash) in modes_and_crashes() {
        let mut world = World::new(14);
        webhook(&mut world, "/m", mode, max_once());
        data(&mut world, "/m", 1); // 2
        let mut attempted = Attempted::new();
        settle(&mut world, "/m", &mut attempted, &mut failing(1, crash.clone()));
        let expected: Vec<Vec<u64>> = match crash {
            Network::CrashAfterSend => vec![vec![2], vec![2]],
            _ => vec![vec![2]],
        };
        assert_eq!(
            delivered(&world),
            expected,
            "{mode} {crash:?}: redelivered, never discarded"
        );
        let ids = delivery_ids(&world);
        assert!(
            ids.windows(2).all(|pair| pair[0] == pair[1]),
            "same delivery id: {ids:?}"
        );
        assert_eq!(metric(&mut world, "/m", "gate_discarded_total"), 0);
        data(&mut world, "/m", 1);
        settle(&mut world, "/m", &mut attempted, &mut |_| Network::Deliver);
        assert_eq!(
            metric(&mut world, "/m", "gate_discarded_total"),
            1,
            "{crash:?}: the anchor moved with the success"
        );
        assert_nothing_passed_silently(&mut world, "/m", &attempted);
    }
}

#[test]
fn s6_a_send_that_outlives_its_deadline_is_replanned_and_its_late_result_is_stale() {
    for gate in [max_once(), threshold()] {
        let mut world = World::new(15);
        webhook(&mut world, "/m", "skip", gate.clone());
        data(&mut world, "/m", 2); // 2, 3
        let now = world.now;
        let slow = world.stream("/m").plan_delivery("hook", now, [1; 16]).unwrap().unwrap();
        // The object stays alive; the send hangs past its in-flight deadline.
        world.now += 60_000;
        let mut attempted = Attempted::new();
        settle(&mut world, "/m", &mut attempted, &mut |plan| {
            assert_eq!(
                plan.delivery_id, slow.delivery_id,
                "{gate}: the same delivery, re-planned"
            );
            Network::Deliver
        });
        let now = world.now;
        let late = world
            .stream("/m")
            .complete_delivery(&slow, Outcome::transient("timed out"), now, [2; 16])
            .unwrap();
        assert_eq!(late, Completion::Stale, "{gate}");
        assert!(world.stream("/m").next_due_at().unwrap().is_none(), "{gate}");
        assert_eq!(lag(&mut world, "/m"), 0, "{gate}");
    }
}

// threshold ------------------------------------------------------------------

#[test]
fn s13_threshold_digest_failing_once_is_resent_whole_under_the_same_delivery_id() {
    for mode in ["skip", "halt"] {
        let mut world = World::new(21);
        webhook(&mut world, "/t", mode, threshold());
        data(&mut world, "/t", 2); // 2, 3
        let mut plans = Vec::new();
        let mut attempted = Attempted::new();
        let mut network = failing(1, Network::Fail(Outcome::transient("HTTP 503")));
        settle(&mut world, "/t", &mut attempted, &mut |plan| {
            plans.push((
                plan.delivery_id.clone(),
                plan.events.iter().map(|e| e.offset).collect::<Vec<_>>(),
            ));
            network(plan)
        });
        assert_eq!(plans.len(), 2, "{mode}: {plans:?}");
        assert_eq!(plans[0], plans[1], "{mode}: never isolated, never re-gated");
        assert_eq!(delivered(&world), vec![vec![2, 3]]);
        assert!(letters(&mut world, "/t").is_empty());
        assert_eq!(halts(&mut world, "/t"), 0, "{mode}");
        assert_eq!(held_hits(&mut world, "/t"), 0);
        assert_eq!(lag(&mut world, "/t"), 0);
        assert_nothing_passed_silently(&mut world, "/t", &attempted);
    }
}

#[test]
fn s13_max_once_hit_failing_once_in_halt_mode_is_delivered_without_a_halt() {
    let mut world = World::new(17);
    webhook(&mut world, "/m", "halt", max_once());
    data(&mut world, "/m", 2); // 2 fails once then is delivered; 3 in its window
    let mut attempted = Attempted::new();
    settle(
        &mut world,
        "/m",
        &mut attempted,
        &mut failing(1, Network::Fail(Outcome::transient("HTTP 503"))),
    );
    assert_eq!(delivered(&world), vec![vec![2]]);
    assert_eq!(halts(&mut world, "/m"), 0);
    assert_eq!(metric(&mut world, "/m", "gate_discarded_total"), 1);
    assert_eq!(lag(&mut world, "/m"), 0);
    assert_nothing_passed_silently(&mut world, "/m", &attempted);
}

#[test]
fn s13_threshold_digest_awaiting_retry_keeps_its_range_while_hits_arrive() {
    let mut world = World::new(22);
    webhook(&mut world, "/t", "skip", threshold());
    data(&mut world, "/t", 2); // 2, 3 → digest
    let now = world.now;
    let plan = world.stream("/t").plan_delivery("hook", now, [1; 16]).unwrap().unwrap();
    world.perform("/t", plan, Network::Fail(Outcome::transient("HTTP 503")));
    data(&mut world, "/t", 2); // 4, 5 arrive while it waits
    let mut attempted = Attempted::new();
    settle(&mut world, "/t", &mut attempted, &mut |_| Network::Deliver);
    assert_eq!(delivered(&world), vec![vec![2, 3], vec![4, 5]]);
    assert_nothing_passed_silently(&mut world, "/t", &attempted);
}

#[test]
fn s13_threshold_digest_refused_in_halt_mode_halts_keeps_its_hits_and_resume_resends_it() {
    let mut world = World::new(23);
    webhook(&mut world, "/t", "halt", threshold());
    data(&mut world, "/t", 2); // 2, 3
    let mut ids = Vec::new();
    let mut attempted = Attempted::new();
    let sends = settle(&mut world, "/t", &mut attempted, &mut |plan| {
        ids.push(plan.delivery_id.clone());
        Network::Fail(Outcome::permanent("HTTP 400"))
    });
    assert_eq!(sends, 1, "a permanent failure halts at once, never isolates");
    assert_eq!(halts(&mut world, "/t"), 1);
    assert_eq!(held_hits(&mut world, "/t"), 2, "the halted digest's hits stay held");
    assert!(letters(&mut world, "/t").is_empty());
    resume(&mut world, "/t");
    settle(&mut world, "/t", &mut attempted, &mut |plan| {
        ids.push(plan.delivery_id.clone());
        Network::Deliver
    });
    assert_eq!(delivered(&world), vec![vec![2, 3]], "the same digest, whole");
    assert_eq!(ids[0], ids[1]);
    assert_eq!(held_hits(&mut world, "/t"), 0);
    assert_nothing_passed_silently(&mut world, "/t", &attempted);
}

#[test]
fn s13_threshold_digest_halted_and_resumed_is_resent_whole_never_re_gating_a_dropped_hit() {
    // Hit 2 falls out of the window before 3, 4, 5 mint a digest (0..5]: the
    // gate dropped it quietly. The digest lands but its answer is lost, the
    // retry is refused: a halt. After the resume the same digest goes again;
    // re-running the gate from the cursor would admit 2 as a new hit and
    // send it after the receiver already took 3, 4, 5 (seed 617).
    let mut world = World::new(27);
    webhook(
        &mut world,
        "/t",
        "halt",
        json!({"threshold": {"count": 3, "windowMs": 300}}),
    );
    data(&mut world, "/t", 1); // 2
    world.now += 60_000;
    data(&mut world, "/t", 3); // 3, 4, 5
    let mut attempted = Attempted::new();
    let mut sends = 0;
    settle(&mut world, "/t", &mut attempted, &mut |_| {
        sends += 1;
        match sends {
            1 => Network::CrashAfterSend,
            _ => Network::Fail(Outcome::permanent("HTTP 400")),
        }
    });
    assert!(halted(&mut world, "/t"));
    resume(&mut world, "/t");
    settle(&mut world, "/t", &mut attempted, &mut |_| Network::Deliver);
    assert_eq!(
        delivered(&world),
        vec![vec![3, 4, 5], vec![3, 4, 5]],
        "the halted digest, whole, and nothing older after it"
    );
    let ids = delivery_ids(&world);
    assert_eq!(ids[0], ids[1], "the same delivery");
    // (`gate_dropped_total` lives in memory: the crash reset it.)
    assert!(!attempted.contains(&2), "the dropped hit is never tried");
    assert_eq!((held_hits(&mut world, "/t"), lag(&mut world, "/t")), (0, 0));
    assert_nothing_passed_silently(&mut world, "/t", &attempted);
}

#[test]
fn s16_a_halted_digest_does_not_hold_the_log_and_a_pass_into_it_keeps_it_whole() {
    // The halted digest (3..5] of the test above keeps its pin, but the log
    // is not held by it: `trimPastSubscribers` trims anyway (§16). A trim
    // that passes into the digest's range — before the dropped hit 2, or
    // into the digest itself — keeps the pin, so the resume still sends the
    // digest whole (the gate kept its hits), never re-gating the rest.
    for max_events in [6, 4] {
        let mut world = World::new(28);
        webhook(
            &mut world,
            "/t",
            "halt",
            json!({"threshold": {"count": 3, "windowMs": 300}}),
        );
        data(&mut world, "/t", 1); // 2
        world.now += 60_000;
        data(&mut world, "/t", 3); // 3, 4, 5
        let mut attempted = Attempted::new();
        let mut sends = 0;
        settle(&mut world, "/t", &mut attempted, &mut |_| {
            sends += 1;
            match sends {
                1 => Network::CrashAfterSend,
                _ => Network::Fail(Outcome::permanent("HTTP 400")),
            }
        });
        assert!(halted(&mut world, "/t"));
        // Offsets 6 (the halt) and 7 (this), then the pass's fact.
        world.append(
            "/t",
            json!({"type": "events.iterate.com/stream/retention-configured",
                   "payload": {"maxEvents": max_events, "trimPastSubscribers": true}}),
        );
        let now = world.now;
        let step = world.stream("/t").trim_step(now, [7; 16]).unwrap();
        assert_eq!(step.error, None);
        assert_eq!(
            step.passed.len(),
            1,
            "the halted hook is passed, with its fact: {step:?}"
        );
        let first = world.stream("/t").info().unwrap().first_offset;
        assert!(
            first <= 5,
            "{max_events}: trimmed into the digest's range (first offset {first})"
        );
        resume(&mut world, "/t");
        settle(&mut world, "/t", &mut attempted, &mut |_| Network::Deliver);
        assert_eq!(
            delivered(&world),
            vec![vec![3, 4, 5], vec![3, 4, 5]],
            "{max_events} (first offset {first}): the halted digest, whole, and nothing older after it"
        );
        assert!(!attempted.contains(&2), "the dropped hit is never tried");
        assert_eq!((held_hits(&mut world, "/t"), lag(&mut world, "/t")), (0, 0));
    }
}

#[test]
fn s13_threshold_digest_timeouts_follow_the_ladder_then_dead_letter_each_event_or_halt() {
    for mode in ["skip", "halt"] {
        let mut world = World::new(24);
        webhook(&mut world, "/t", mode, threshold());
        data(&mut world, "/t", 2); // 2, 3
        let mut attempted = Attempted::new();
        let sends = settle(&mut world, "/t", &mut attempted, &mut |_| timed_out());
        assert_eq!(sends, 3, "{mode}: the ladder, whole digest each time");
        if mode == "skip" {
            let letters = letters(&mut world, "/t");
            assert_eq!(
                letters.iter().map(|(offset, _)| *offset).collect::<Vec<_>>(),
                vec![2, 3]
            );
            assert!(letters
                .iter()
                .all(|(_, reason)| reason.starts_with("transient: timed out")));
            assert_eq!(held_hits(&mut world, "/t"), 0);
            assert_eq!(lag(&mut world, "/t"), 0);
        } else {
            assert!(halted(&mut world, "/t"));
            assert_eq!(held_hits(&mut world, "/t"), 2);
        }
        assert_nothing_passed_silently(&mut world, "/t", &attempted);
    }
}

#[test]
fn s13_threshold_crash_between_plan_and_completion_resends_the_pinned_digest() {
    for (mode, crash) in modes_and_crashes() {
        let mut world = World::new(25);
        webhook(&mut world, "/t", mode, threshold());
        data(&mut world, "/t", 2); // 2, 3
        let mut attempted = Attempted::new();
        let mut plans = Vec::new();
        let mut network = failing(1, crash.clone());
        settle(&mut world, "/t", &mut attempted, &mut |plan| {
            plans.push((
                plan.delivery_id.clone(),
                plan.events.iter().map(|e| e.offset).collect::<Vec<_>>(),
            ));
            network(plan)
        });
        assert_eq!(plans.len(), 2, "{crash:?}: {plans:?}");
        assert_eq!(plans[0], plans[1], "{crash:?}: re-planned from storage, same digest");
        let expected: Vec<Vec<u64>> = match crash {
            Network::CrashAfterSend => vec![vec![2, 3], vec![2, 3]],
            _ => vec![vec![2, 3]],
        };
        assert_eq!(delivered(&world), expected, "{crash:?}");
        assert_eq!(held_hits(&mut world, "/t"), 0);
        assert_nothing_passed_silently(&mut world, "/t", &attempted);
    }
}

#[test]
fn s13_max_once_itx_batch_never_discards_a_hit_it_tried_after_the_batch_is_isolated() {
    // h1 at t, h2 at t+W/2 (discarded behind h1), h3 at t+1.2W (admitted
    // behind h1, but inside h2's window). If h1 and h3 went out in one batch
    // and h1 is then dead-lettered alone, h2 becomes the first delivered hit
    // and h3 — already tried — must not be discarded behind it.
    let mut world = World::new(16);
    world.set_deployment(
        "/i",
        tributary::deployment::Deployment {
            itx_services: vec!["SIM".to_owned()],
            ..Default::default()
        },
    );
    let delivery = json!({"start": "beginning", "onFailingEvent": "skip", "gate": {"maxOnce": {"windowMs": 1000}},
        "retry": {"maxAttempts": 1, "initialBackoffMs": 10, "maxBackoffMs": 10}});
    world.append(
        "/i",
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "itx-call", "expression": ["services", "SIM", "deliver"], "delivery": delivery}}}),
    );
    for step in [0, 500, 700] {
        world.now += step;
        data(&mut world, "/i", 1); // 2, 3, 4
    }
    let mut attempted = Attempted::new();
    settle(&mut world, "/i", &mut attempted, &mut |plan| {
        if plan.events.iter().any(|event| event.offset == 2) {
            Network::Fail(Outcome::permanent("refused"))
        } else {
            Network::Deliver
        }
    });
    assert_eq!(letter_offsets(&mut world, "/i"), vec![2]);
    assert_nothing_passed_silently(&mut world, "/i", &attempted);
    assert_eq!(
        delivered(&world),
        vec![vec![3]],
        "h2 is the first delivered hit; h3, never tried, is discarded"
    );
}

#[test]
fn s16_a_pass_over_a_whole_halted_digest_names_the_hit_it_held_from_before_the_cursor() {
    // Sim seed 11112: a threshold digest holds a hit from before its range
    // (2, held while the cursor passed it), is refused and halts; a trim
    // past the whole range drops its pin. The pass's fact names the held
    // hit too, and the gate forgets it: nothing passes silently, nothing
    // comes back in a later digest.
    let mut world = World::new(29);
    webhook(
        &mut world,
        "/t",
        "halt",
        json!({"threshold": {"count": 2, "windowMs": 300}}),
    );
    data(&mut world, "/t", 1); // 2: held, the cursor passes it
    let mut attempted = Attempted::new();
    settle(&mut world, "/t", &mut attempted, &mut |_| Network::Deliver);
    assert_eq!(held_hits(&mut world, "/t"), 1);
    data(&mut world, "/t", 1); // 3: the digest [2, 3]
    settle(&mut world, "/t", &mut attempted, &mut |_| {
        Network::Fail(Outcome::permanent("HTTP 410"))
    });
    assert!(halted(&mut world, "/t"));
    assert!(attempted.contains(&2), "the held hit was tried in the digest");
    world.append(
        "/t",
        json!({"type": "events.iterate.com/stream/retention-configured",
               "payload": {"maxEvents": 1, "trimPastSubscribers": true}}),
    );
    let now = world.now;
    let step = world.stream("/t").trim_step(now, [7; 16]).unwrap();
    assert_eq!(step.error, None);
    assert_eq!(step.passed.len(), 1, "{step:?}");
    assert!(
        step.passed[0].after_offset < 2,
        "the pass names the held hit: {:?}",
        step.passed[0]
    );
    assert_eq!(held_hits(&mut world, "/t"), 0, "the gate forgot the passed digest");
    assert_nothing_passed_silently(&mut world, "/t", &attempted);
    // (The harness's alarm runs no trims, so nothing more is appended here:
    // `held_hits` 0 is what keeps the hit out of any later digest.)
}
