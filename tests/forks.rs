//! Forks on real SQLite (docs/design.md §18), through the small world of
//! `fork_world`. The invariants: a fork's read is its source's prefix up to
//! the fork point followed by its own messages; no source data goes while
//! an edge lives; a crash between the acquire and the creation leaks no
//! edge; a soft-deleted source is purged when its last fork goes, cascading
//! up the chain.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;
mod fork_world;

use fork_world::*;
use std::collections::BTreeMap;
use tributary::catalog::{Catalog, CatalogChange, CatalogQuery};
use tributary::durable_streams::face::Method;
use tributary::limits::FORK_ACQUIRE_GRACE_MS;
use tributary::path::StreamPath;
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;

#[test]
fn s18_a_three_level_chain_reads_its_prefix_across_every_boundary() {
    let mut world = World::new();
    create(&mut world, "/a", "A1");
    append(&mut world, "/a", "A2");
    let at_a = fork(&mut world, "/b", "/a", &[]);
    assert_eq!(at_a.status, 201);
    assert_eq!(header(&at_a, "Stream-Next-Offset"), Some(offset(2).as_str()));
    append(&mut world, "/a", "-late");
    append(&mut world, "/b", "B3");
    assert_eq!(fork(&mut world, "/c", "/b", &[]).status, 201);
    append(&mut world, "/b", "-late");
    append(&mut world, "/c", "C4");
    assert_eq!(world.text("/c", "offset=-1"), (200, "A1A2B3C4".to_owned()));
    // Every starting point: the same log from there on.
    for (after, expected) in [(1, "A2B3C4"), (2, "B3C4"), (3, "C4"), (4, "")] {
        assert_eq!(
            world.text("/c", &format!("offset={}", offset(after))),
            (200, expected.to_owned())
        );
    }
    assert_eq!(world.text("/b", "offset=-1").1, "A1A2B3-late");
    assert_eq!(world.text("/a", "offset=-1").1, "A1A2-late");
    assert_eq!((world.edges("/a"), world.edges("/b"), world.edges("/c")), (1, 1, 0));
}

#[test]
fn s18_sub_offsets_cut_bytes_and_count_json_messages() {
    let mut world = World::new();
    create(&mut world, "/s", "hello");
    let zero = offset(0);
    let cut = fork(
        &mut world,
        "/f",
        "/s",
        &[("Stream-Fork-Offset", &zero), ("Stream-Fork-Sub-Offset", "3")],
    );
    assert_eq!(cut.status, 201);
    append(&mut world, "/f", "!");
    assert_eq!(world.text("/f", "offset=-1").1, "hel!");
    let past = fork(
        &mut world,
        "/g",
        "/s",
        &[("Stream-Fork-Offset", &zero), ("Stream-Fork-Sub-Offset", "6")],
    );
    assert_eq!(past.status, 400);
    // The refused fork's acquire recorded nothing.
    assert_eq!(world.edges("/s"), 1);

    let json = ("Content-Type", "application/json");
    let answer = world.call("/j", Method::Put, "", &[json], br#"[{"a":1},{"b":2},{"c":3}]"#);
    assert_eq!(answer.status, 201);
    let two = fork(
        &mut world,
        "/k",
        "/j",
        &[("Stream-Fork-Offset", &zero), ("Stream-Fork-Sub-Offset", "2")],
    );
    assert_eq!(two.status, 201);
    assert_eq!(world.text("/k", "offset=-1").1, r#"[{"a":1},{"b":2}]"#);
    // The same fork again is 200; another sub-offset is 409.
    let again = fork(
        &mut world,
        "/k",
        "/j",
        &[("Stream-Fork-Offset", &zero), ("Stream-Fork-Sub-Offset", "2")],
    );
    assert_eq!(again.status, 200);
    let other = fork(
        &mut world,
        "/k",
        "/j",
        &[("Stream-Fork-Offset", &zero), ("Stream-Fork-Sub-Offset", "1")],
    );
    assert_eq!(other.status, 409);
}

#[test]
fn s18_fork_errors_follow_protocol_section_4_2() {
    let mut world = World::new();
    create(&mut world, "/s", "x");
    assert_eq!(fork(&mut world, "/f", "/missing", &[]).status, 404);
    let beyond = offset(9);
    assert_eq!(
        fork(&mut world, "/f", "/s", &[("Stream-Fork-Offset", &beyond)]).status,
        400
    );
    let mismatch = fork(&mut world, "/f", "/s", &[("Content-Type", "application/json")]);
    assert_eq!(mismatch.status, 409);
    assert_eq!(world.edges("/s"), 0, "a refused fork leaves no edge");
    assert_eq!(fork(&mut world, "/s", "/s", &[]).status, 409, "the path exists");
    assert_eq!(
        fork(&mut world, "/self", "/self", &[]).status,
        400,
        "a stream cannot fork itself"
    );
    assert_eq!(
        fork(&mut world, "/f", "/s", &[("Stream-Fork-Offset", "garbage")]).status,
        400
    );
    assert_eq!(
        fork(&mut world, "/f", "/s", &[("Stream-Fork-Sub-Offset", "-1")]).status,
        400
    );
}

#[test]
fn s18_soft_delete_keeps_data_for_forks_and_the_last_release_purges_up_the_chain() {
    let mut world = World::new();
    create(&mut world, "/a", "A");
    assert_eq!(fork(&mut world, "/b", "/a", &[]).status, 201);
    assert_eq!(fork(&mut world, "/c", "/b", &[]).status, 201);
    assert_eq!(world.call("/a", Method::Delete, "", &[], b"").status, 204);
    assert_eq!(world.call("/b", Method::Delete, "", &[], b"").status, 204);
    // Gone on both faces, path not free, data still read by the fork.
    for method in [Method::Get, Method::Head, Method::Post, Method::Delete] {
        assert_eq!(world.call("/a", method, "", &[TEXT], b"").status, 410);
    }
    assert_eq!(world.call("/a", Method::Put, "", &[TEXT], b"").status, 409);
    assert_eq!(
        fork(&mut world, "/d", "/a", &[]).status,
        409,
        "a soft-deleted source is not forked"
    );
    assert_eq!(world.text("/c", "offset=-1"), (200, "A".to_owned()));
    // Deleting the last fork purges /b, then /a.
    assert_eq!(world.call("/c", Method::Delete, "", &[], b"").status, 204);
    assert_eq!(world.call("/b", Method::Get, "offset=-1", &[], b"").status, 404);
    assert_eq!(world.call("/a", Method::Get, "offset=-1", &[], b"").status, 404);
    assert_eq!(
        world.call("/a", Method::Put, "", &[TEXT], b"").status,
        201,
        "the path is free again"
    );
}

/// What `stream_object/delivery.rs` does from the alarm: tells the catalog
/// what the stream owes it until it owes nothing, then reports its metrics.
fn sync_project(world: &mut World, catalog: &Catalog<RusqliteStorage>, path: &str) {
    let stream = world.stream(path);
    // A registration, then (after a soft delete or a purge) at most one more.
    for _ in 0..3 {
        let Some(change) = stream.catalog_due().unwrap() else {
            break;
        };
        catalog.apply(&change).unwrap();
        stream.catalog_acknowledged(&change).unwrap();
    }
    assert_eq!(stream.catalog_due().unwrap(), None, "{path} still owes the catalog");
    if let Some(snapshot) = stream.metrics_snapshot().unwrap() {
        catalog.apply_report(snapshot.encode().as_bytes(), 1).unwrap();
    }
}

fn listed(catalog: &Catalog<RusqliteStorage>, query: &str) -> Vec<(String, bool)> {
    let listed = catalog.list(&CatalogQuery::parse(query).unwrap()).unwrap();
    listed["streams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|stream| {
            let soft = stream["softDeleted"].as_bool().unwrap();
            assert_eq!(stream.get("softDeletedAt").is_some(), soft, "{stream}");
            (stream["path"].as_str().unwrap().to_owned(), soft)
        })
        .collect()
}

fn scraped(catalog: &Catalog<RusqliteStorage>) -> String {
    let answer = catalog.handle_metrics("GET", "scrape", "", b"", 9);
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.body
}

#[test]
fn s18_s14_the_catalog_and_metrics_count_a_soft_deleted_stream_apart_until_its_purge() {
    let mut world = World::new();
    let catalog = Catalog::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    create(&mut world, "/a", "A");
    assert_eq!(fork(&mut world, "/b", "/a", &[]).status, 201);
    for path in ["/a", "/b"] {
        sync_project(&mut world, &catalog, path);
    }
    let live = vec![("/a".to_owned(), false), ("/b".to_owned(), false)];
    assert_eq!(listed(&catalog, ""), live);
    let text = scraped(&catalog);
    assert!(text.contains("tributary_stream_head{stream=\"/a\"} 1\n"), "{text}");
    assert!(text.contains("tributary_metrics_streams_soft_deleted 0\n"), "{text}");

    // The source is deleted while /b reads it: soft-deleted, and it owes the
    // catalog a registration naming when.
    assert_eq!(world.call("/a", Method::Delete, "", &[], b"").status, 204);
    let due = world.stream("/a").catalog_due().unwrap();
    let Some(CatalogChange::Register {
        soft_deleted_at_ms: Some(at),
        stream_id,
        ..
    }) = due.clone()
    else {
        panic!("a soft delete owes a registration: {due:?}");
    };
    // A crash before the catalog answered: the reopened stream still owes it.
    let storage = world.streams.remove("/a").unwrap().into_storage();
    world.streams.insert(
        "/a".to_owned(),
        Stream::open(storage, common::PROJECT, StreamPath::parse("/a").unwrap()).unwrap(),
    );
    assert_eq!(world.stream("/a").catalog_due().unwrap(), due);
    sync_project(&mut world, &catalog, "/a");
    assert_eq!(
        listed(&catalog, ""),
        vec![("/b".to_owned(), false)],
        "left out by default"
    );
    assert_eq!(
        listed(&catalog, "softDeleted=include"),
        vec![("/a".to_owned(), true), ("/b".to_owned(), false)]
    );
    assert_eq!(listed(&catalog, "softDeleted=only"), vec![("/a".to_owned(), true)]);
    assert_eq!(listed(&catalog, "softDeleted=exclude&prefix=/a"), Vec::new());
    let included = catalog.list(&CatalogQuery::parse("softDeleted=only").unwrap()).unwrap();
    assert_eq!(included["streams"][0]["streamId"], stream_id.as_str());
    assert_eq!(
        included["streams"][0]["softDeletedAt"],
        tributary::time::rfc3339_millis(at).as_str()
    );
    // Its series leave the scrape (its reports are accepted, not kept); a gauge counts it.
    let text = scraped(&catalog);
    assert!(!text.contains("stream=\"/a\""), "{text}");
    assert!(text.contains("tributary_stream_head{stream=\"/b\"} 1\n"), "{text}");
    assert!(text.contains("tributary_metrics_streams_reported 1\n"), "{text}");
    assert!(text.contains("tributary_metrics_streams_soft_deleted 1\n"), "{text}");
    let prefixed = catalog.handle_metrics("GET", "scrape", "prefix=/b", b"", 9).body;
    assert!(
        prefixed.contains("tributary_metrics_streams_soft_deleted 0\n"),
        "{prefixed}"
    );
    // A late registration of the live lifetime does not undo the soft delete.
    catalog
        .apply(&CatalogChange::Register {
            path: "/a".to_owned(),
            stream_id: stream_id.clone(),
            stream_created_at_ms: 0,
            soft_deleted_at_ms: None,
        })
        .unwrap();
    assert_eq!(listed(&catalog, "softDeleted=only"), vec![("/a".to_owned(), true)]);

    // Deleting the last fork purges the source: both leave the catalog and the scrape.
    assert_eq!(world.call("/b", Method::Delete, "", &[], b"").status, 204);
    assert_eq!(world.call("/a", Method::Get, "offset=-1", &[], b"").status, 404);
    for path in ["/a", "/b"] {
        sync_project(&mut world, &catalog, path);
    }
    assert_eq!(listed(&catalog, "softDeleted=include"), Vec::new());
    let text = scraped(&catalog);
    assert!(text.contains("tributary_metrics_streams_soft_deleted 0\n"), "{text}");
    assert!(text.contains("tributary_metrics_streams_reported 0\n"), "{text}");

    // A new lifetime at the path is live again.
    create(&mut world, "/a", "A2");
    sync_project(&mut world, &catalog, "/a");
    assert_eq!(listed(&catalog, ""), vec![("/a".to_owned(), false)]);
    assert!(CatalogQuery::parse("softDeleted=yes").is_err());
}

#[test]
fn s18_a_crash_between_grant_and_creation_leaks_no_edge() {
    let mut world = World::new();
    create(&mut world, "/s", "x");
    world.crash_after_grant = true;
    assert_eq!(fork(&mut world, "/f", "/s", &[]).status, 500);
    world.crash_after_grant = false;
    assert_eq!(world.edges("/s"), 1, "the grant recorded the edge before the crash");
    assert_eq!(
        world.call("/f", Method::Head, "", &[], b"").status,
        404,
        "no dangling fork"
    );
    // Within the grace nothing is sent; after it, the alarm's send releases.
    world.send_releases("/f");
    assert_eq!(world.edges("/s"), 1);
    world.now_ms += FORK_ACQUIRE_GRACE_MS;
    world.send_releases("/f");
    assert_eq!(world.edges("/s"), 0);
    // A retried creation after a crash keeps its edge: its commit cancels the pending release.
    assert_eq!(fork(&mut world, "/f", "/s", &[]).status, 201);
    world.now_ms += FORK_ACQUIRE_GRACE_MS;
    world.send_releases("/f");
    assert_eq!(world.edges("/s"), 1);
}

#[test]
fn s18_a_fork_is_its_own_stream_closure_writers_and_expiry() {
    let mut world = World::new();
    world
        .call("/s", Method::Put, "", &[TEXT, ("Stream-TTL", "60")], b"src")
        .status
        .eq(&201)
        .then_some(())
        .unwrap();
    let closed = world.call("/s", Method::Post, "", &[("Stream-Closed", "true")], b"");
    assert_eq!(closed.status, 204);
    let forked = fork(&mut world, "/f", "/s", &[]);
    assert_eq!(forked.status, 201);
    assert_eq!(header(&forked, "Stream-Closed"), None, "a fork starts open");
    append(&mut world, "/f", "+own");
    assert_eq!(world.text("/f", "offset=-1").1, "src+own");
    // The source's TTL value is inherited (PROTOCOL §4.2 table).
    let head = world.call("/f", Method::Head, "", &[], b"");
    assert_eq!(header(&head, "Stream-TTL"), Some("60"));
    // Producers are never inherited: epoch 0 seq 0 is fresh on the fork.
    let producer = [
        TEXT,
        ("Producer-Id", "p"),
        ("Producer-Epoch", "0"),
        ("Producer-Seq", "0"),
    ];
    assert_eq!(world.call("/f", Method::Post, "", &producer, b"p").status, 200);
    // Expiry of the fork releases its edge.
    assert_eq!(world.edges("/s"), 1);
    world.now_ms += 61_000;
    assert_eq!(world.call("/f", Method::Head, "", &[], b"").status, 404);
    assert_eq!(world.edges("/s"), 0);
}

#[test]
fn s18_retention_keeps_what_a_live_edge_reads() {
    let mut world = World::new();
    create(&mut world, "/s", "1");
    append(&mut world, "/s", "2");
    assert_eq!(fork(&mut world, "/f", "/s", &[]).status, 201);
    assert_eq!(world.stream("/s").lowest_fork_point().unwrap(), Some(2));
    retention_keeps_the_prefix(&mut world);
}

/// Retention on a source with a live fork trims nothing; once the fork is
/// gone it trims as configured.
fn retention_keeps_the_prefix(world: &mut World) {
    let retention =
        br#"{"events":[{"type":"events.iterate.com/stream/retention-configured","payload":{"maxEvents":2}}]}"#;
    let inputs = world.tick();
    world
        .stream("/s")
        .append_body(retention, tributary::event::Authority::Public, &inputs)
        .unwrap();
    for i in 0..30 {
        append(world, "/s", &format!("[{i}]"));
    }
    let trim_all = |world: &mut World| -> u64 {
        let mut trimmed = 0;
        for _ in 0..100 {
            world.now_ms += tributary::limits::TRIM_INTERVAL_MS;
            let now = world.now_ms;
            let stream = world.stream("/s");
            if !stream.trim_due(now).unwrap() {
                break;
            }
            let step = stream.trim_step(now, [3; 16]).unwrap();
            trimmed += step.trimmed;
            if !step.more && step.trimmed == 0 {
                break;
            }
        }
        trimmed
    };
    assert_eq!(trim_all(world), 0, "nothing is trimmed while a fork reads the front");
    assert_eq!(world.text("/f", "offset=-1").1, "12");
    assert_eq!(world.call("/f", Method::Delete, "", &[], b"").status, 204);
    assert_eq!(world.edges("/s"), 0);
    assert!(trim_all(world) > 0, "the fork released: retention trims again");
}

/// What the model knows of one path.
#[derive(Debug, Clone, PartialEq)]
enum Life {
    Live,
    SoftDeleted,
}

#[derive(Debug, Clone)]
struct Modelled {
    life: Life,
    source: Option<(String, usize)>,
    own: Vec<String>,
    forks: std::collections::BTreeSet<String>,
}

/// The model: every path's life, source and own messages.
#[derive(Default)]
struct Model {
    streams: BTreeMap<String, Modelled>,
}

impl Model {
    fn log(&self, path: &str) -> Vec<String> {
        let Some(stream) = self.streams.get(path) else {
            return Vec::new();
        };
        let mut log = match &stream.source {
            Some((source, point)) => self.log(source).into_iter().take(*point).collect(),
            None => Vec::new(),
        };
        log.extend(stream.own.iter().cloned());
        log
    }

    /// A delete (or the purge it cascades to): soft while forks read it.
    fn delete(&mut self, path: &str) {
        let Some(stream) = self.streams.get_mut(path) else {
            return;
        };
        if !stream.forks.is_empty() {
            stream.life = Life::SoftDeleted;
            return;
        }
        let source = stream.source.clone();
        self.streams.remove(path);
        if let Some((source, _)) = source {
            let purge = self.streams.get_mut(&source).is_some_and(|up| {
                up.forks.remove(path);
                up.life == Life::SoftDeleted && up.forks.is_empty()
            });
            if purge {
                self.delete(&source);
            }
        }
    }
}

/// A small deterministic generator (xorshift64*).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// Random creates, appends, forks (some crashing between grant and
/// creation), deletes and reads over six paths, checked against the model
/// after every step: a fork reads its source's prefix then its own; a
/// soft-deleted stream answers 410 and keeps its data for its forks; a
/// stream with no forks left is purged; no edge outlives its fork.
#[test]
fn s18_simulated_forks_deletes_and_crashes_keep_every_invariant() {
    const PATHS: [&str; 6] = ["/p0", "/p1", "/p2", "/p3", "/p4", "/p5"];
    let seeds: u64 = std::env::var("FORK_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    // How often each path under test ran: forks, crashes, soft deletes, deep reads.
    let (mut forks, mut crashes, mut soft, mut deep, mut listed_apart) = (0, 0, 0, 0, 0);
    for seed in 1..=seeds {
        let mut world = World::new();
        let mut model = Model::default();
        let catalog = Catalog::open(RusqliteStorage::in_memory().unwrap()).unwrap();
        let mut dice = Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        for step in 0..80 {
            let path = PATHS[dice.below(PATHS.len())];
            let context = format!("seed {seed} step {step} on {path}");
            let known = model.streams.get(path).map(|stream| stream.life.clone());
            match (dice.below(6), known) {
                (0, None) => {
                    let body = format!("{path}#{step};");
                    assert_eq!(
                        world.call(path, Method::Put, "", &[TEXT], body.as_bytes()).status,
                        201,
                        "{context}"
                    );
                    model.streams.insert(
                        path.to_owned(),
                        Modelled {
                            life: Life::Live,
                            source: None,
                            own: vec![body],
                            forks: Default::default(),
                        },
                    );
                }
                (1, Some(Life::Live)) => {
                    let body = format!("{path}+{step};");
                    append(&mut world, path, &body);
                    model.streams.get_mut(path).unwrap().own.push(body);
                }
                (2 | 3, None) => {
                    let live: Vec<&str> = PATHS
                        .iter()
                        .copied()
                        .filter(|p| model.streams.get(*p).is_some_and(|s| s.life == Life::Live))
                        .collect();
                    if live.is_empty() {
                        continue;
                    }
                    let source = live[dice.below(live.len())];
                    let head = model.log(source).len();
                    let point = dice.below(head + 1);
                    let at = offset(point as u64);
                    let crash = dice.below(5) == 0;
                    world.crash_after_grant = crash;
                    let answer = fork(&mut world, path, source, &[("Stream-Fork-Offset", &at)]);
                    world.crash_after_grant = false;
                    if crash {
                        crashes += 1;
                        assert_eq!(answer.status, 500, "{context}");
                        // The grace passes; the alarm sends the pending release.
                        world.now_ms += FORK_ACQUIRE_GRACE_MS;
                        world.send_releases(path);
                        continue;
                    }
                    assert_eq!(
                        answer.status,
                        201,
                        "{context}: {}",
                        String::from_utf8_lossy(&answer.body)
                    );
                    forks += 1;
                    model.streams.get_mut(source).unwrap().forks.insert(path.to_owned());
                    model.streams.insert(
                        path.to_owned(),
                        Modelled {
                            life: Life::Live,
                            source: Some((source.to_owned(), point)),
                            own: Vec::new(),
                            forks: Default::default(),
                        },
                    );
                }
                (4, Some(Life::Live)) => {
                    assert_eq!(world.call(path, Method::Delete, "", &[], b"").status, 204, "{context}");
                    model.delete(path);
                    soft += u32::from(model.streams.contains_key(path));
                }
                (4 | 5, Some(Life::SoftDeleted)) => {
                    assert_eq!(world.call(path, Method::Put, "", &[TEXT], b"").status, 409, "{context}");
                }
                _ => {}
            }
            for check in PATHS {
                let answer = world.call(check, Method::Get, "offset=-1", &[], b"");
                let context = format!("seed {seed} step {step}: {check}");
                match model.streams.get(check).map(|stream| &stream.life) {
                    None => assert_eq!(answer.status, 404, "{context}"),
                    Some(Life::SoftDeleted) => assert_eq!(answer.status, 410, "{context}"),
                    Some(Life::Live) => {
                        assert_eq!(answer.status, 200, "{context}");
                        let stream = &model.streams[check];
                        let grand = stream
                            .source
                            .as_ref()
                            .and_then(|(source, _)| model.streams[source].source.as_ref());
                        deep += u32::from(grand.is_some());
                        assert_eq!(
                            String::from_utf8(answer.body).unwrap(),
                            model.log(check).concat(),
                            "{context}"
                        );
                    }
                }
                let edges = model.streams.get(check).map_or(0, |stream| stream.forks.len() as u64);
                if world
                    .streams
                    .get(check)
                    .is_some_and(|stream| stream.lifetime().is_some())
                {
                    assert_eq!(world.edges(check), edges, "{context}: edges");
                }
            }
            // The project hears of some streams now (an alarm may lag, or the
            // stream may crash before the catalog's answer is recorded) ...
            let heard = PATHS[dice.below(PATHS.len())];
            if let Some(change) = world.stream(heard).catalog_due().unwrap() {
                catalog.apply(&change).unwrap();
                if dice.below(2) == 0 {
                    world.stream(heard).catalog_acknowledged(&change).unwrap();
                }
            }
            // ... and every few steps of all of them: then the catalog lists
            // the model's streams, soft-deleted ones apart, and counts them.
            if step % 8 == 7 {
                for check in PATHS {
                    sync_project(&mut world, &catalog, check);
                }
                let expected: Vec<(String, bool)> = model
                    .streams
                    .iter()
                    .map(|(path, stream)| (path.clone(), stream.life == Life::SoftDeleted))
                    .collect();
                assert_eq!(
                    listed(&catalog, "softDeleted=include"),
                    expected,
                    "seed {seed} step {step}"
                );
                let live: Vec<(String, bool)> = expected.iter().filter(|(_, soft)| !soft).cloned().collect();
                assert_eq!(listed(&catalog, ""), live, "seed {seed} step {step}");
                let soft_count = expected.len() - live.len();
                let text = scraped(&catalog);
                assert!(
                    text.contains(&format!("tributary_metrics_streams_soft_deleted {soft_count}\n")),
                    "seed {seed} step {step}: {text}"
                );
                assert!(
                    text.contains(&format!("tributary_metrics_streams_reported {}\n", live.len())),
                    "seed {seed} step {step}: {text}"
                );
                listed_apart += u32::from(soft_count > 0);
            }
        }
    }
    assert!(
        forks > 0 && crashes > 0 && soft > 0 && deep > 0 && listed_apart > 0,
        "forks {forks}, crashes {crashes}, soft deletes {soft}, reads through two forks {deep}, \
         catalogs listing a soft-deleted stream apart {listed_apart}"
    );
}

#[test]
fn s12_a_stitched_read_of_a_fork_keeps_one_reads_byte_budget() {
    use tributary::limits::MAX_READ_BYTES;
    let mut world = World::new();
    let message = |tag: char, n: usize| format!("{tag}{n:05}{}", "x".repeat(300 * 1024));
    create(&mut world, "/big", &message('a', 0));
    for n in 1..24 {
        append(&mut world, "/big", &message('a', n));
    }
    assert_eq!(fork(&mut world, "/big-fork", "/big", &[]).status, 201);
    for n in 0..12 {
        append(&mut world, "/big-fork", &message('f', n));
    }
    let mut whole = String::new();
    let mut offset_query = "offset=-1".to_owned();
    for _ in 0..40 {
        let answer = world.call("/big-fork", Method::Get, &offset_query, &[], b"");
        assert_eq!(answer.status, 200);
        assert!(
            answer.body.len() <= MAX_READ_BYTES + 301 * 1024,
            "one response holds about one read's budget: {} bytes",
            answer.body.len()
        );
        whole.push_str(std::str::from_utf8(&answer.body).unwrap());
        if header(&answer, "Stream-Up-To-Date") == Some("true") {
            break;
        }
        offset_query = format!("offset={}", header(&answer, "Stream-Next-Offset").unwrap());
    }
    let expected: String = (0..24)
        .map(|n| message('a', n))
        .chain((0..12).map(|n| message('f', n)))
        .collect();
    assert_eq!(whole.len(), expected.len());
    assert!(whole == expected, "every message once, in order, across the responses");
}

/// The alarm's release turn (§18) in one read: owed rows soonest first and
/// within the limit, the next due time only when nothing is due yet, and
/// nothing at all on a storage no migration reached.
#[test]
fn s18_a_release_turn_reads_what_is_owed_and_when_the_next_falls_due() {
    use tributary::fork::store::{owe_release, release_turn, ReleaseRow, ReleaseTurn};
    let storage = RusqliteStorage::in_memory().unwrap();
    assert_eq!(release_turn(&storage, 1_000, 10).unwrap(), None);
    tributary::schema::migrate(&storage).unwrap();
    let empty = ReleaseTurn {
        owed: Vec::new(),
        next_due: None,
    };
    storage.take_statement_counts();
    assert_eq!(release_turn(&storage, 1_000, 10).unwrap(), Some(empty));
    let statements: u64 = storage.take_statement_counts().values().sum();
    assert_eq!(
        statements, 2,
        "the outbox's table, then one read (the alarm's every turn)"
    );
    let owed = |fork: &str, due_at_ms: i64| ReleaseRow {
        project_id: "p".to_owned(),
        source_path: "/source".to_owned(),
        fork_path: fork.to_owned(),
        source_stream_id: Some("s1".to_owned()),
        due_at_ms,
    };
    for (fork, due) in [("/late", 5_000), ("/first", 900), ("/second", 1_000), ("/later", 3_000)] {
        owe_release(&storage, &owed(fork, due)).unwrap();
    }
    let turn = release_turn(&storage, 1_000, 10).unwrap().unwrap();
    assert_eq!(turn.owed, vec![owed("/first", 900), owed("/second", 1_000)]);
    assert_eq!(turn.next_due, None, "due rows first: the sender arms after sending");
    let limited = release_turn(&storage, 10_000, 3).unwrap().unwrap();
    assert_eq!(
        limited
            .owed
            .iter()
            .map(|row| row.fork_path.as_str())
            .collect::<Vec<_>>(),
        ["/first", "/second", "/later"]
    );
    let early = release_turn(&storage, 100, 10).unwrap().unwrap();
    assert_eq!(
        early,
        ReleaseTurn {
            owed: Vec::new(),
            next_due: Some(900)
        }
    );
}
