//! Project-wide metrics natively (docs/design.md §11): a stream's snapshot holds
//! what its card and dead letters say; the project stores one per listed
//! lifetime and forgets it with the lifetime; a scrape is bounded; a
//! hostile report changes nothing; every completion but a stale one is one
//! Analytics Engine data point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::driver::Driver;
use serde_json::json;
use tributary::catalog::{Catalog, CatalogChange};
use tributary::delivery::{Completion, Outcome};
use tributary::limits::{MAX_METRICS_SCRAPE_STREAMS, MAX_METRICS_SCRAPE_SUBSCRIPTIONS, MAX_STREAM_SUBSCRIPTIONS};
use tributary::project_metrics::analytics::record_delivery;
use tributary::project_metrics::snapshot::SUBSCRIPTION_SERIES_COUNT;
use tributary::project_metrics::{AnalyticsSink, DeliveryDataPoint, StreamSnapshot, SubscriptionSnapshot};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::metrics::{STREAM_SERIES, STREAM_SERIES_COUNT};

/// The index of a subscription series by name and outcome.
fn subscription_value(snapshot: &StreamSnapshot, key: &str, index: usize) -> u64 {
    let subscription = snapshot.subscriptions.iter().find(|s| s.key == key).unwrap();
    subscription.values[index]
}

fn stream_value(snapshot: &StreamSnapshot, name: &str) -> u64 {
    snapshot.values[STREAM_SERIES.iter().position(|def| def.name == name).unwrap()]
}

/// Counts what the engine would write to the `METRICS` dataset.
#[derive(Default)]
struct CountingSink {
    points: Vec<DeliveryDataPoint>,
}

impl AnalyticsSink for CountingSink {
    fn write(&mut self, point: DeliveryDataPoint) {
        self.points.push(point);
    }
}

#[test]
fn s11_a_snapshot_holds_the_card_s_lag_the_outcomes_and_the_dead_letters_held() {
    let mut driver = Driver::new("/app/orders");
    driver.configure("hook", "webhook-post", json!({}));
    let mut sink = CountingSink::default();
    driver.data(1);
    let plan = driver.plan().remove(0);
    let completion = driver.complete(&plan, Outcome::Delivered);
    assert!(matches!(completion, Completion::Acknowledged { .. }));
    record_delivery(&mut sink, "p", &plan, &completion, driver.now);
    driver.data(1);
    let plan = driver.plan().remove(0);
    let completion = driver.complete(&plan, Outcome::permanent("410 gone"));
    assert!(matches!(completion, Completion::Skipped { .. }), "{completion:?}");
    record_delivery(&mut sink, "p", &plan, &completion, driver.now);
    // A completion of a batch already settled is stale: no data point.
    let stale = driver.complete(&plan, Outcome::Delivered);
    assert_eq!(stale, Completion::Stale);
    record_delivery(&mut sink, "p", &plan, &stale, driver.now);
    driver.data(2);

    let snapshot = driver.stream.metrics_snapshot().unwrap().expect("a lifetime");
    assert_eq!(snapshot.path, "/app/orders");
    assert_eq!(snapshot.values.len(), STREAM_SERIES_COUNT);
    assert_eq!(
        stream_value(&snapshot, "appends_total"),
        5,
        "the configuration, three appends of data and the error-occurred fact"
    );
    assert_eq!(stream_value(&snapshot, "delivery_skips_total"), 1);
    // delivered, retried, halted, dead_lettered, stale, lag, attempt, halted, held, bytes
    let values: Vec<u64> = (0..SUBSCRIPTION_SERIES_COUNT)
        .map(|index| subscription_value(&snapshot, "hook", index))
        .collect();
    assert_eq!(&values[..5], &[1, 0, 0, 1, 1]);
    assert_eq!(values[5], driver.runtime_card("hook")["lag"].as_u64().unwrap());
    assert_eq!(values[5], 3, "the error-occurred fact and two events past the cursor");
    assert_eq!(values[7], 0, "not halted");
    assert_eq!(values[8], driver.letters("hook").len() as u64);
    assert_eq!(values[8], 1);

    assert_eq!(sink.points.len(), 2, "one point per settled completion");
    let outcomes: Vec<&str> = sink.points.iter().map(|point| point.blobs[4].as_str()).collect();
    assert_eq!(outcomes, ["delivered", "dead_lettered"]);
    assert_eq!(sink.points[0].blobs[..4], ["p", "/app/orders", "hook", "webhook-post"]);
    assert_eq!(sink.points[0].index, "/app/orders");
    assert_eq!(sink.points[1].doubles[2], 1.0, "attempt");
}

#[test]
fn s11_a_halt_shows_as_halted_and_the_snapshot_goes_with_the_lifetime() {
    let mut driver = Driver::new("/app/halts");
    driver.configure(
        "strict",
        "webhook-post",
        json!({"onFailingEvent": "halt", "retry": {"maxAttempts": 1, "initialBackoffMs": 1, "maxBackoffMs": 1}}),
    );
    driver.data(1);
    let plan = driver.plan().remove(0);
    let completion = driver.complete(&plan, Outcome::permanent("400"));
    assert!(matches!(completion, Completion::Halted { .. }), "{completion:?}");
    let snapshot = driver.stream.metrics_snapshot().unwrap().unwrap();
    assert_eq!(subscription_value(&snapshot, "strict", 2), 1, "one halted completion");
    assert_eq!(subscription_value(&snapshot, "strict", 7), 1, "halted now");
    assert_eq!(stream_value(&snapshot, "delivery_halts_total"), 1);
    driver.stream.destroy().unwrap();
    assert_eq!(driver.stream.metrics_snapshot().unwrap(), None);
}

fn snapshot(path: &str, stream_id: &str, subscriptions: usize) -> StreamSnapshot {
    StreamSnapshot {
        path: path.to_owned(),
        stream_id: stream_id.to_owned(),
        values: vec![7; STREAM_SERIES_COUNT],
        subscriptions: (0..subscriptions)
            .map(|i| SubscriptionSnapshot {
                key: format!("k{i}"),
                values: vec![1; SUBSCRIPTION_SERIES_COUNT],
            })
            .collect(),
    }
}

fn register(catalog: &Catalog<RusqliteStorage>, path: &str, stream_id: &str, at: i64) {
    catalog
        .apply(&CatalogChange::Register {
            path: path.to_owned(),
            stream_id: stream_id.to_owned(),
            stream_created_at_ms: at,
            soft_deleted_at_ms: None,
        })
        .unwrap();
}

fn report(catalog: &Catalog<RusqliteStorage>, snapshot: &StreamSnapshot) -> u16 {
    catalog
        .handle_metrics("POST", "report", "", snapshot.encode().as_bytes(), 5)
        .status
}

fn scrape(catalog: &Catalog<RusqliteStorage>, query: &str) -> String {
    let answer = catalog.handle_metrics("GET", "scrape", query, b"", 9);
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.content_type, "text/plain; version=0.0.4");
    answer.body
}

#[test]
fn s11_the_project_keeps_the_latest_report_of_each_listed_lifetime_and_forgets_it_with_the_lifetime() {
    let catalog = Catalog::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    assert_eq!(report(&catalog, &snapshot("/a", "a1", 1)), 404, "not listed: refused");
    assert!(scrape(&catalog, "").contains("tributary_metrics_streams_reported 0\n"));
    register(&catalog, "/a", "a1", 1);
    register(&catalog, "/b", "b1", 1);
    assert_eq!(report(&catalog, &snapshot("/a", "a1", 1)), 204);
    let mut newer = snapshot("/a", "a1", 1);
    newer.values[0] = 42;
    assert_eq!(report(&catalog, &newer), 204);
    assert_eq!(report(&catalog, &snapshot("/b", "b1", 0)), 204);
    let text = scrape(&catalog, "");
    let first = STREAM_SERIES[0].name;
    assert!(
        text.contains(&format!("tributary_{first}{{stream=\"/a\"}} 42\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("tributary_{first}{{stream=\"/b\"}} 7\n")),
        "{text}"
    );
    assert!(text.contains("tributary_subscription_lag{stream=\"/a\",subscription=\"k0\"} 1\n"));
    assert!(!scrape(&catalog, "prefix=%2Fb").contains("stream=\"/a\""));

    // A new lifetime at /a replaces the old one's series; destroying /b removes its own.
    register(&catalog, "/a", "a2", 2);
    assert!(!scrape(&catalog, "").contains("stream=\"/a\""));
    assert_eq!(
        report(&catalog, &snapshot("/a", "a1", 1)),
        404,
        "a late report of the old lifetime"
    );
    catalog
        .apply(&CatalogChange::Unregister {
            path: "/b".to_owned(),
            stream_id: "b1".to_owned(),
            through_created_at_ms: None,
        })
        .unwrap();
    let text = scrape(&catalog, "");
    assert!(!text.contains("stream=\"/b\""), "{text}");
    assert!(text.contains("tributary_metrics_streams_reported 0\n"));
}

#[test]
fn s11_s12_a_scrape_renders_at_most_its_bounds_in_path_order_and_counts_the_rest() {
    let catalog = Catalog::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    let streams = MAX_METRICS_SCRAPE_STREAMS + 1;
    for i in 0..streams {
        let path = format!("/s/{i:05}");
        register(&catalog, &path, "id", 1);
        assert_eq!(report(&catalog, &snapshot(&path, "id", 0)), 204);
    }
    let text = scrape(&catalog, "");
    assert!(text.contains(&format!(
        "tributary_metrics_streams_reported {MAX_METRICS_SCRAPE_STREAMS}\n"
    )));
    assert!(text.contains("tributary_metrics_streams_omitted 1\n"));
    assert!(text.contains(&format!("stream=\"/s/{:05}\"", MAX_METRICS_SCRAPE_STREAMS - 1)));
    assert!(!text.contains(&format!("stream=\"/s/{:05}\"", MAX_METRICS_SCRAPE_STREAMS)));

    let catalog = Catalog::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    let per_stream = MAX_STREAM_SUBSCRIPTIONS as u64;
    let fit = MAX_METRICS_SCRAPE_SUBSCRIPTIONS / per_stream;
    for i in 0..fit + 2 {
        let path = format!("/t/{i:03}");
        register(&catalog, &path, "id", 1);
        assert_eq!(report(&catalog, &snapshot(&path, "id", MAX_STREAM_SUBSCRIPTIONS)), 204);
    }
    let text = scrape(&catalog, "");
    assert!(
        text.contains(&format!("tributary_metrics_streams_reported {fit}\n")),
        "{fit}"
    );
    assert!(text.contains("tributary_metrics_streams_omitted 2\n"));
    let lag_samples = text
        .lines()
        .filter(|line| line.starts_with("tributary_subscription_lag{"))
        .count() as u64;
    assert_eq!(lag_samples, fit * per_stream);
    assert!(lag_samples <= MAX_METRICS_SCRAPE_SUBSCRIPTIONS);
}

#[test]
fn s2_s11_a_hostile_report_or_scrape_is_refused_and_changes_nothing() {
    let catalog = Catalog::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    register(&catalog, "/a", "a1", 1);
    assert_eq!(report(&catalog, &snapshot("/a", "a1", 1)), 204);
    let before = scrape(&catalog, "");
    let mut too_many = snapshot("/a", "a1", 1);
    too_many.values = vec![1; 65];
    let mut too_many_subscriptions = snapshot("/a", "a1", MAX_STREAM_SUBSCRIPTIONS + 1);
    too_many_subscriptions.values[0] = 1;
    let mut long_key = snapshot("/a", "a1", 1);
    long_key.subscriptions[0].key = "k".repeat(257);
    for body in [
        b"{".to_vec(),
        b"[]".to_vec(),
        br#"{"path":"/a","streamId":"a1","values":[-1],"subscriptions":[]}"#.to_vec(),
        br#"{"path":"/a","streamId":"a1","values":[1e400],"subscriptions":[]}"#.to_vec(),
        too_many.encode().into_bytes(),
        too_many_subscriptions.encode().into_bytes(),
        long_key.encode().into_bytes(),
    ] {
        let answer = catalog.handle_metrics("POST", "report", "", &body, 6);
        assert_eq!(answer.status, 400, "{}", String::from_utf8_lossy(&body));
        assert!(answer.body.contains("invalid_request"), "{}", answer.body);
    }
    for query in ["limit=3", "prefix=%zz", &format!("prefix={}", "a".repeat(513))] {
        let answer = catalog.handle_metrics("GET", "scrape", query, b"", 6);
        assert_eq!(answer.status, 400, "{query}");
        assert!(answer.body.contains("invalid_parameter"), "{}", answer.body);
    }
    assert_eq!(catalog.handle_metrics("PUT", "scrape", "", b"", 6).status, 405);
    assert_eq!(scrape(&catalog, ""), before, "nothing changed");
}

fn source_report(catalog: &Catalog<RusqliteStorage>, body: serde_json::Value) -> u16 {
    catalog
        .handle_metrics("POST", "source", "", body.to_string().as_bytes(), 5)
        .status
}

fn progress(name: &str, next_block: u64) -> serde_json::Value {
    json!({"op": "progress", "snapshot": {"name": name, "values": [next_block, null, 3, 0, 0, 1, 0]}})
}

#[test]
fn s11_s15_a_source_s_progress_is_scraped_by_name_until_it_is_deleted_and_bounded_per_project() {
    let catalog = Catalog::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    assert_eq!(source_report(&catalog, progress("usdc", 100)), 204);
    assert_eq!(source_report(&catalog, progress("usdc", 101)), 204);
    let text = scrape(&catalog, "");
    assert!(
        text.contains("tributary_source_next_block{source=\"usdc\"} 101\n"),
        "{text}"
    );
    assert!(text.contains("tributary_source_errors{source=\"usdc\"} 1\n"));
    assert!(!text.contains("tributary_source_finalized_block"), "not known yet");
    assert!(
        !scrape(&catalog, "prefix=%2Fapp").contains("source=\"usdc\""),
        "a prefix scrapes streams only"
    );
    assert_eq!(source_report(&catalog, json!({"op": "gone", "name": "usdc"})), 204);
    let text = scrape(&catalog, "");
    assert!(!text.contains("source=\"usdc\""), "{text}");

    for body in [
        progress("bad name", 1),
        progress(&"x".repeat(65), 1),
        json!({"op": "progress", "snapshot": {"name": "x", "values": vec![1; 65]}}),
        json!({"op": "explode", "name": "x"}),
    ] {
        assert_eq!(source_report(&catalog, body.clone()), 400, "{body}");
    }
    for i in 0..tributary::limits::MAX_SOURCES_PER_PROJECT {
        assert_eq!(source_report(&catalog, progress(&format!("s{i}"), 1)), 204);
    }
    assert_eq!(source_report(&catalog, progress("one-too-many", 1)), 400);
    assert_eq!(
        source_report(&catalog, progress("s0", 2)),
        204,
        "a known source still reports"
    );
}
