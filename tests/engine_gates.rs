//! Gates on their failure paths (docs/design.md §13 Gates, §6 rules 5, 6, 11, §8):
//! a gate decides once per hit and never re-runs on a retry, a failing
//! threshold digest follows the retry ladder and then dead-letters each
//! contained event or halts, and invalidated held hits are dropped.
//! Natively, through the engine's plan/complete API with real SQLite.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;
mod gates;

use common::world::{Network, World};
use gates::*;
use serde_json::json;
use tributary::delivery::Outcome;

#[test]
fn s13_max_once_retried_hit_is_delivered_not_discarded_by_its_own_window() {
    // Issue 18 item 2: 503 once, then 200.
    let mut world = World::new(1);
    webhook(&mut world, "/mo", "skip", json!({"maxOnce": {"windowMs": 600_000}}));
    data(&mut world, "/mo", 1); // 2
    let mut attempted = Attempted::new();
    let mut failed = false;
    settle(&mut world, "/mo", &mut attempted, &mut |_| {
        if std::mem::replace(&mut failed, true) {
            Network::Deliver
        } else {
            Network::Fail(Outcome::transient("HTTP 503"))
        }
    });
    assert_eq!(delivered(&world), vec![vec![2]], "{}", world.trace.join("\n"));
    assert!(letter_offsets(&mut world, "/mo").is_empty());
    assert_eq!(runtime(&mut world, "/mo")["acknowledgedOffset"], 2);
    assert!(world
        .stream("/mo")
        .metrics_text()
        .contains("tributary_gate_discarded_total 0"));
    // The anchor moved with the success: a later hit in the window is discarded.
    data(&mut world, "/mo", 1); // 3
    settle(&mut world, "/mo", &mut attempted, &mut |_| Network::Deliver);
    assert_eq!(delivered(&world), vec![vec![2]]);
    assert_eq!(runtime(&mut world, "/mo")["acknowledgedOffset"], 3);
    assert!(world
        .stream("/mo")
        .metrics_text()
        .contains("tributary_gate_discarded_total 1"));
    assert_nothing_passed_silently(&mut world, "/mo", &attempted);
}

#[test]
fn s13_threshold_digest_refused_with_400_dead_letters_each_event_and_stops() {
    // Issue 18 item 3: the receiver always answers 400.
    let mut world = World::new(2);
    webhook(
        &mut world,
        "/th",
        "skip",
        json!({"threshold": {"count": 2, "windowMs": 600_000}}),
    );
    data(&mut world, "/th", 2); // 2, 3
    let mut attempted = Attempted::new();
    let sends = settle(&mut world, "/th", &mut attempted, &mut |_| {
        Network::Fail(Outcome::permanent("HTTP 400"))
    });
    assert_eq!(
        sends,
        1,
        "a permanent failure skips the ladder and is sent once\n{}",
        world.trace.join("\n")
    );
    assert_eq!(
        letter_offsets(&mut world, "/th"),
        vec![2, 3],
        "each contained event dead-lettered"
    );
    assert_eq!(
        lag(&mut world, "/th"),
        0,
        "the cursor passed the digest and the skip's audit fact"
    );
    assert_eq!(world.card("/th")["subscriptions"][0]["runtime"]["gate"]["heldHits"], 0);
    // The gate starts over: a later pair is one more send, not a storm.
    data(&mut world, "/th", 2); // 4, 5 (the skip's error-occurred is an audit fact, never delivered)
    let more = settle(&mut world, "/th", &mut attempted, &mut |_| Network::Deliver);
    assert_eq!(more, 1);
    assert_eq!(delivered(&world).last().unwrap().len(), 2);
    assert_nothing_passed_silently(&mut world, "/th", &attempted);
}

#[test]
fn s13_held_hits_named_by_an_invalidation_are_dropped_and_counted() {
    // Issue 18 item 4.
    let mut world = World::new(3);
    webhook(
        &mut world,
        "/iv",
        "skip",
        json!({"threshold": {"count": 3, "windowMs": 600_000}}),
    );
    data(&mut world, "/iv", 2); // 2, 3 held
    settle(&mut world, "/iv", &mut Attempted::new(), &mut |_| Network::Deliver);
    world.append("/iv", json!({"type": INVALIDATED, "payload": {"offsets": [2, 3]}})); // 4
    data(&mut world, "/iv", 3); // 5, 6, 7
    settle(&mut world, "/iv", &mut Attempted::new(), &mut |_| Network::Deliver);
    assert_eq!(delivered(&world), vec![vec![5, 6, 7]], "only valid hits, no retraction");
    let metrics = world.stream("/iv").metrics_text();
    assert!(metrics.contains("tributary_gate_invalidated_total 2"), "{metrics}");
    assert!(metrics.contains("tributary_retractions_total 0"), "{metrics}");
    // A range invalidation drops held hits too.
    data(&mut world, "/iv", 2); // 8, 9 held
    world.append("/iv", json!({"type": INVALIDATED, "payload": {"afterOffset": 8}})); // 10 names 9
    data(&mut world, "/iv", 2); // 11, 12 → digest of 8, 11, 12
    settle(&mut world, "/iv", &mut Attempted::new(), &mut |_| Network::Deliver);
    assert_eq!(delivered(&world), vec![vec![5, 6, 7], vec![8, 11, 12]]);
    assert!(world
        .stream("/iv")
        .metrics_text()
        .contains("tributary_gate_invalidated_total 3"));
}

/// A storage that counts the `gate_hits` rows its queries return.
struct Counting {
    inner: tributary::storage::rusqlite_driver::RusqliteStorage,
    gate_rows: std::cell::Cell<usize>,
}

impl tributary::storage::Storage for Counting {
    fn query(
        &self,
        sql: &str,
        params: &[tributary::storage::SqlValue],
    ) -> Result<Vec<tributary::storage::Row>, tributary::storage::StorageError> {
        let rows = self.inner.query(sql, params)?;
        if sql.contains("FROM gate_hits") {
            self.gate_rows.set(self.gate_rows.get() + rows.len());
        }
        Ok(rows)
    }
    fn execute_script(&self, script: &str) -> Result<(), tributary::storage::StorageError> {
        self.inner.execute_script(script)
    }
    fn atomically<T, E: From<tributary::storage::StorageError>>(
        &self,
        body: &mut dyn FnMut() -> Result<T, E>,
    ) -> Result<T, E> {
        self.inner.atomically(body)
    }
    fn rows_written(&self) -> u64 {
        self.inner.rows_written()
    }
    fn generation(&self) -> u64 {
        self.inner.generation()
    }
    fn check_read(
        &self,
        sql: &str,
        params: &[tributary::storage::SqlValue],
    ) -> Option<Result<Vec<tributary::storage::Row>, tributary::storage::StorageError>> {
        self.inner.check_read(sql, params)
    }
    fn database_bytes(&self) -> Result<u64, tributary::storage::StorageError> {
        self.inner.database_bytes()
    }
}

#[test]
fn s13_a_threshold_plan_reads_held_hits_linearly_not_once_per_hit() {
    // Found by reading: each hit re-read every held hit (quadratic in one plan).
    let storage = Counting {
        inner: tributary::storage::rusqlite_driver::RusqliteStorage::in_memory().unwrap(),
        gate_rows: std::cell::Cell::new(0),
    };
    let mut stream = tributary::stream::Stream::open(storage, common::PROJECT, common::path("/lin")).unwrap();
    stream.set_deployment(tributary::deployment::Deployment {
        allow_insecure_webhooks: true,
        ..Default::default()
    });
    let hits = 2_000usize;
    let configure = json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook", "filter": {"eventTypes": ["data"]},
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery":
        {"start": "beginning", "onFailingEvent": "skip", "gate": {"threshold": {"count": hits, "windowMs": 600_000}}}}}});
    let public = tributary::event::Authority::Public;
    stream
        .append_body(configure.to_string().as_bytes(), public, &common::inputs(1_000, 1))
        .unwrap();
    for _ in 0..hits / 1000 {
        let batch =
            json!({"events": (0..1000).map(|i| json!({"type": "data", "payload": {"i": i}})).collect::<Vec<_>>()});
        stream
            .append_body(batch.to_string().as_bytes(), public, &common::inputs(1_000, 2))
            .unwrap();
    }
    let plan = stream.plan_delivery("hook", 1_000, [3; 16]).unwrap().unwrap();
    assert_eq!(plan.events.len(), hits, "one digest of every hit");
    let read = stream.storage().gate_rows.get();
    assert!(
        read <= 2 * hits,
        "a plan over {hits} hits read {read} held-hit rows (quadratic would be ~{})",
        hits * hits / 2
    );
}

#[test]
fn s12_a_threshold_digest_never_passes_1_mib_it_is_minted_early_with_what_fits() {
    let mut world = World::new(4);
    webhook(
        &mut world,
        "/big",
        "skip",
        json!({"threshold": {"count": 8, "windowMs": 600_000}}),
    );
    let blob = "x".repeat(200_000);
    for i in 0..8 {
        world.append("/big", json!({"type": "data", "payload": {"i": i, "blob": blob}}));
    } // 2..=9
    let mut sizes = Vec::new();
    let mut attempted = Attempted::new();
    settle(&mut world, "/big", &mut attempted, &mut |plan| {
        sizes.push(
            plan.events
                .iter()
                .map(|event| event.body.to_string().len())
                .sum::<usize>(),
        );
        Network::Deliver
    });
    assert_eq!(
        delivered(&world),
        vec![vec![2, 3, 4, 5, 6]],
        "five ~200 KB hits fit in 1 MiB"
    );
    assert!(sizes.iter().all(|size| *size <= 1024 * 1024), "{sizes:?}");
    assert_eq!(
        held_hits(&mut world, "/big"),
        3,
        "the rest wait for the gate's next count"
    );
    assert_eq!(lag(&mut world, "/big"), 0, "held hits never hold the cursor");
    assert_nothing_passed_silently(&mut world, "/big", &attempted);
}
