//! What a catch-up read costs in values crossing from SQLite (docs/design.md
//! §2 reads, §12; issue 33's catch-up path): on a Durable Object every value
//! a statement returns crosses the wasm–JS boundary one by one through its
//! cursor, so a page must not read each row's size before reading the rows.
//! Counted through the native driver; run with `--nocapture` to see them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::world::World;
use serde_json::json;
use tributary::stream::RangeQuery;

const PAGE: u64 = 1000;

fn stream_of(events: u64) -> World {
    let mut world = World::new(33);
    for batch in 0..events / 100 {
        let events: Vec<_> = (0..100)
            .map(|n| json!({"type": "data", "payload": {"n": batch * 100 + n, "text": "a catch-up page"}}))
            .collect();
        world.append("/read", json!({ "events": events }));
    }
    world
}

fn query(limit: u64) -> RangeQuery {
    RangeQuery {
        after: 0,
        from_earliest: false,
        limit,
        include_ephemeral: false,
    }
}

#[test]
fn s12_a_json_page_that_fits_its_budget_reads_its_totals_not_each_rows_size() {
    let mut world = stream_of(PAGE);
    let stream = world.stream("/read");
    stream.storage().take_values_read();
    let read = stream.read_range_json(&query(PAGE)).unwrap();
    let values = stream.storage().take_values_read();
    println!("a JSON page of {PAGE} events read {values} values");
    assert_eq!(read.count, PAGE);
    assert!(
        values <= 20,
        "a page of {PAGE} events read {values} values from SQLite: its rows' sizes crossed one by one"
    );
}

#[test]
fn s12_a_typed_page_that_fits_its_budget_reads_each_row_once() {
    let mut world = stream_of(PAGE);
    let stream = world.stream("/read");
    stream.storage().take_values_read();
    stream.read_range(&query(1)).unwrap();
    let one = stream.storage().take_values_read();
    let read = stream.read_range(&query(PAGE)).unwrap();
    let page = stream.storage().take_values_read();
    println!("a typed page of 1 event read {one} values, of {PAGE} events {page}");
    assert_eq!(read.events.len() as u64, PAGE);
    assert!(
        page <= one * PAGE + 10,
        "a page of {PAGE} events read {page} values, {one} for one event: each row's size crossed too"
    );
}
