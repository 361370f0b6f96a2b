//! The stream catalog natively (docs/design.md §14): a stream owes its project's
//! catalog a registration per lifetime and an unregistration per destroy,
//! until acknowledged — across restarts, and after its tables are gone; the
//! catalog orders lifetimes, and lists by path with a prefix, paged.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{inputs, FileStream};
use serde_json::{json, Value};
use tributary::catalog::{open_registered, Catalog, CatalogChange, CatalogQuery};
use tributary::event::Authority;
use tributary::storage::rusqlite_driver::RusqliteStorage;

fn append(stream: &mut tributary::stream::Stream<RusqliteStorage>, now: i64) {
    stream
        .append_body(br#"{"type":"t"}"#, Authority::Public, &inputs(now, now as u8))
        .unwrap();
}

#[test]
fn s14_a_stream_owes_a_registration_per_lifetime_until_acknowledged_even_across_restarts_and_deletion() {
    let file = FileStream::new("/app/orders");
    let mut stream = file.open();
    assert_eq!(
        stream.catalog_due().unwrap(),
        None,
        "a never-written stream owes nothing"
    );
    append(&mut stream, 1_000);
    let first = stream.lifetime().unwrap().stream_id.clone();
    let due = stream.catalog_due().unwrap().expect("registration due");
    assert!(matches!(&due, CatalogChange::Register { stream_id, .. } if *stream_id == first));
    // A crash before the catalog answered: the reopened stream still owes it.
    drop(stream);
    let mut stream = file.open();
    assert_eq!(stream.catalog_due().unwrap(), Some(due.clone()));
    stream.catalog_acknowledged(&due).unwrap();
    assert_eq!(stream.catalog_due().unwrap(), None);
    append(&mut stream, 2_000);
    assert_eq!(stream.catalog_due().unwrap(), None, "one registration per lifetime");
    stream.destroy().unwrap();
    let unregister = CatalogChange::Unregister {
        path: "/app/orders".to_owned(),
        stream_id: first.clone(),
        through_created_at_ms: Some(1_000),
    };
    assert_eq!(stream.catalog_due().unwrap(), Some(unregister.clone()));
    // After a restart there is no stream left, but the registration names it.
    drop(stream);
    assert!(
        tributary::stream::Stream::open_existing(RusqliteStorage::open(&file.db()).unwrap())
            .unwrap()
            .is_none()
    );
    let registered = open_registered(RusqliteStorage::open(&file.db()).unwrap())
        .unwrap()
        .expect("still registered");
    assert_eq!(registered.catalog_due().unwrap(), Some(unregister.clone()));
    registered.catalog_acknowledged(&unregister).unwrap();
    assert!(open_registered(RusqliteStorage::open(&file.db()).unwrap())
        .unwrap()
        .is_none());
    // A new lifetime registers again, with its own id.
    let mut stream = file.open();
    append(&mut stream, 3_000);
    let second = stream.lifetime().unwrap().stream_id.clone();
    assert_ne!(first, second);
    assert!(
        matches!(stream.catalog_due().unwrap(), Some(CatalogChange::Register { stream_id, .. }) if stream_id == second)
    );
}

fn register(path: &str, id: &str, at: i64) -> CatalogChange {
    CatalogChange::Register {
        path: path.to_owned(),
        stream_id: id.to_owned(),
        stream_created_at_ms: at,
        soft_deleted_at_ms: None,
    }
}

fn paths(listed: &Value) -> Vec<String> {
    listed["streams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|stream| stream["path"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn s14_the_catalog_orders_lifetimes_and_lists_by_prefix_in_pages() {
    let catalog = Catalog::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    catalog.apply(&register("/app/b", "b2", 20)).unwrap();
    // A late, older registration never replaces the newer lifetime; a late
    // unregistration of the old one removes nothing.
    catalog.apply(&register("/app/b", "b1", 10)).unwrap();
    catalog
        .apply(&CatalogChange::Unregister {
            path: "/app/b".to_owned(),
            stream_id: "b1".to_owned(),
            through_created_at_ms: None,
        })
        .unwrap();
    for (path, id) in [
        ("/app/a", "a"),
        ("/app/c", "c"),
        ("/other/x", "x"),
        ("/app/a/deep", "d"),
    ] {
        catalog.apply(&register(path, id, 5)).unwrap();
        catalog.apply(&register(path, id, 5)).unwrap();
    }
    let all = catalog.list(&CatalogQuery::parse("").unwrap()).unwrap();
    assert_eq!(
        paths(&all),
        vec!["/app/a", "/app/a/deep", "/app/b", "/app/c", "/other/x"]
    );
    assert_eq!(all["streams"][2]["streamId"], "b2");
    assert_eq!(all["nextAfter"], Value::Null);
    let first = catalog
        .list(&CatalogQuery::parse("prefix=/app/&limit=2").unwrap())
        .unwrap();
    assert_eq!(paths(&first), vec!["/app/a", "/app/a/deep"]);
    assert_eq!(first["nextAfter"], json!("/app/a/deep"));
    let next = catalog
        .list(&CatalogQuery::parse("prefix=%2Fapp%2F&limit=2&after=%2Fapp%2Fa%2Fdeep").unwrap())
        .unwrap();
    assert_eq!(paths(&next), vec!["/app/b", "/app/c"]);
    catalog
        .apply(&CatalogChange::Unregister {
            path: "/app/b".to_owned(),
            stream_id: "b2".to_owned(),
            through_created_at_ms: None,
        })
        .unwrap();
    assert_eq!(
        paths(&catalog.list(&CatalogQuery::parse("prefix=/app/b").unwrap()).unwrap()),
        Vec::<String>::new()
    );
    for bad in [
        "limit=0",
        "limit=1001",
        "limit=x",
        "nope=1",
        &format!("prefix={}", "p".repeat(600)),
    ] {
        assert!(CatalogQuery::parse(bad).is_err(), "{bad}");
    }
}

fn listed_paths(catalog: &Catalog<RusqliteStorage>) -> Vec<String> {
    paths(
        &catalog
            .list(&CatalogQuery::parse("softDeleted=include").unwrap())
            .unwrap(),
    )
}

#[test]
fn s14_a_registration_whose_answer_was_lost_is_still_unregistered_however_lifetimes_follow() {
    let catalog = Catalog::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    let file = FileStream::new("/app/lost");
    let mut stream = file.open();
    // The catalog applied the registration; the stream never heard its answer.
    append(&mut stream, 1_000);
    catalog.apply(&stream.catalog_due().unwrap().unwrap()).unwrap();
    stream.destroy().unwrap();
    let due = stream.catalog_due().unwrap().expect("an unregistration is owed");
    assert!(matches!(&due, CatalogChange::Unregister { .. }), "{due:?}");
    catalog.apply(&due).unwrap();
    stream.catalog_acknowledged(&due).unwrap();
    assert_eq!(listed_paths(&catalog), Vec::<String>::new());

    // A listed lifetime, destroyed and replaced before its unregistration
    // went out, the new one destroyed before its registration did: one
    // unregistration forgets both.
    append(&mut stream, 2_000);
    let due = stream.catalog_due().unwrap().unwrap();
    catalog.apply(&due).unwrap();
    stream.catalog_acknowledged(&due).unwrap();
    stream.destroy().unwrap();
    append(&mut stream, 3_000);
    stream.destroy().unwrap();
    // A restart in between: the registration keeps what is owed.
    drop(stream);
    let stream = open_registered(RusqliteStorage::open(&file.db()).unwrap())
        .unwrap()
        .expect("still registered");
    let due = stream.catalog_due().unwrap().unwrap();
    assert!(
        matches!(&due, CatalogChange::Unregister { through_created_at_ms: Some(at), .. } if *at >= 3_000),
        "{due:?}"
    );
    assert_eq!(listed_paths(&catalog), vec!["/app/lost"]);
    catalog.apply(&due).unwrap();
    assert_eq!(listed_paths(&catalog), Vec::<String>::new());
    // A late unregistration never removes a newer lifetime.
    catalog.apply(&register("/app/lost", "newer", 4_000)).unwrap();
    catalog.apply(&due).unwrap();
    assert_eq!(listed_paths(&catalog), vec!["/app/lost"]);
}
