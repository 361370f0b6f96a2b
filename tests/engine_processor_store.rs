//! The project's processor definitions at scale (docs/design.md §9, §12, §14):
//! `GET /v1/processors` is paged (`?after=&limit=`, `nextAfter`, like `GET
//! /v1/streams`) and reads no definition bodies; a new PUT counts the
//! definitions in SQL instead of decoding all of them, and past 1000 is a
//! 422 `too_many_processors` that changes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use serde_json::{json, Value};
use tributary::error::ApiFailure;
use tributary::limits::MAX_PROCESSORS_PER_PROJECT;
use tributary::processor::ProcessorStore;
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::storage::Storage;

fn body(reducer: &str) -> Vec<u8> {
    json!({"kind": "jsonata-reducer", "initialState": 0, "reducer": reducer, "description": format!("counts {reducer}")})
        .to_string()
        .into_bytes()
}

fn list(store: &ProcessorStore<RusqliteStorage>, query: &str) -> (u16, Value) {
    let response = store.handle("GET", None, query, b"", 5_000);
    (response.status, serde_json::from_str(&response.body).unwrap())
}

fn names(page: &Value) -> Vec<String> {
    page["processors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|summary| summary["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn s9_the_processor_list_is_paged_in_name_order_with_next_after() {
    let storage = RusqliteStorage::in_memory().unwrap();
    let store = ProcessorStore::open(storage).unwrap();
    for name in ["e", "a", "c", "b", "d"] {
        store.put(name, &body("$state + 1"), 1_000).unwrap();
    }
    let (status, page) = list(&store, "limit=2");
    assert_eq!(status, 200, "{page}");
    assert_eq!(names(&page), ["a", "b"]);
    assert_eq!(page["nextAfter"], "b");
    assert_eq!(
        page["processors"][0],
        json!({"name": "a", "version": 1, "kind": "jsonata-reducer", "description": "counts $state + 1",
            "definedAt": "1970-01-01T00:00:01.000Z"}),
        "a summary, not the definition"
    );
    let (_, page) = list(&store, "after=b&limit=2");
    assert_eq!(
        (names(&page), page["nextAfter"].clone()),
        (vec!["c".to_owned(), "d".to_owned()], json!("d"))
    );
    let (_, page) = list(&store, "after=d&limit=2");
    assert_eq!(
        (names(&page), page["nextAfter"].clone()),
        (vec!["e".to_owned()], Value::Null)
    );
    let (_, page) = list(&store, "");
    assert_eq!(names(&page).len(), 5, "the default page holds 100");
    assert_eq!(page["nextAfter"], Value::Null);
    // A name with characters that need encoding pages too.
    store.put("b.x-y_z", &body("$state"), 2_000).unwrap();
    let (_, page) = list(&store, "after=b.x-y_z&limit=1");
    assert_eq!(names(&page), ["c"]);
    for (query, parameter) in [
        ("limit=0", "limit"),
        ("limit=1001", "limit"),
        ("limit=x", "limit"),
        ("after=%ZZ", "after"),
        ("sort=name", "query"),
    ] {
        let (status, error) = list(&store, query);
        assert_eq!(status, 400, "{query}: {error}");
        assert_eq!(error["error"]["code"], "invalid_parameter", "{query}");
        assert_eq!(error["error"]["details"]["parameter"], parameter, "{query}");
    }
}

/// 1000 stored definitions the store never needs to decode to count them:
/// rows whose bodies are not even JSON (a decode would fail).
#[test]
fn s12_a_project_holds_at_most_1000_processors_counted_without_decoding_them() {
    let dir = common::tempdir_lite::TempDir::new();
    let db = dir.path().join("project.sqlite");
    let store = ProcessorStore::open(RusqliteStorage::open(&db).unwrap()).unwrap();
    let storage = RusqliteStorage::open(&db).unwrap();
    store.put("kept", &body("$state + 1"), 1_000).unwrap();
    for n in 1..MAX_PROCESSORS_PER_PROJECT {
        storage
            .execute(
                "INSERT INTO processors (name, version, definition, defined_at_ms) VALUES (?, 1, 'not json', 0)",
                &[format!("p{n:04}").as_str().into()],
            )
            .unwrap();
    }
    let error = store.put("one-more", &body("$state"), 2_000).unwrap_err();
    assert_eq!((error.status(), error.code()), (422, "too_many_processors"), "{error}");
    assert!(error.to_string().contains("1000"), "{error}");
    assert_eq!(store.get("one-more").unwrap_err().status(), 404, "nothing was written");
    // Redefining an existing one is not a new definition.
    let (definition, changed) = store.put("kept", &body("$state + 2"), 3_000).unwrap();
    assert!(changed);
    assert_eq!(definition.version, 2);
    // Room again after a DELETE.
    storage
        .execute("DELETE FROM processors WHERE name = 'p0001'", &[])
        .unwrap();
    assert!(store.put("one-more", &body("$state"), 4_000).unwrap().1);
}
