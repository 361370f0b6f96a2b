//! Sources per project (docs/design.md §15, §12): the project's directory admits
//! at most 100 source names; `PUT /v1/sources/{name}` registers there before
//! it commits, so the 101st name is a 422 `too_many_sources` that creates
//! nothing, while redefining a listed name, or a name after a DELETE, is fine.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use serde_json::{json, Value};
use tributary::limits::MAX_SOURCES_PER_PROJECT;
use tributary::source::{Directory, DirectoryChange};
use tributary::storage::rusqlite_driver::RusqliteStorage;

fn register(directory: &Directory<RusqliteStorage>, name: &str) -> (u16, Value) {
    let change = DirectoryChange::Register {
        name: name.to_owned(),
        config: json!({"kind": "evm", "targetStream": format!("/chain/{name}")}),
    };
    let response = directory.apply(&change, 1_000).unwrap();
    let body = if response.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&response.body).unwrap()
    };
    (response.status, body)
}

fn listed(directory: &Directory<RusqliteStorage>) -> usize {
    let page: Value = serde_json::from_str(&directory.list("limit=1000").unwrap().body).unwrap();
    page["sources"].as_array().unwrap().len()
}

#[test]
fn s12_a_project_holds_at_most_100_sources() {
    assert_eq!(MAX_SOURCES_PER_PROJECT, 100);
    let directory = Directory::open(RusqliteStorage::in_memory().unwrap()).unwrap();
    for n in 0..MAX_SOURCES_PER_PROJECT {
        assert_eq!(register(&directory, &format!("s{n:03}")).0, 204);
    }
    let (status, body) = register(&directory, "one-more");
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["error"]["code"], "too_many_sources");
    assert_eq!(body["error"]["details"]["limit"], 100);
    assert!(body["error"]["message"].as_str().unwrap().contains("100"), "{body}");
    assert_eq!(listed(&directory), 100, "nothing was registered");
    // A listed name is redefined freely; a DELETE makes room.
    assert_eq!(register(&directory, "s000").0, 204);
    directory
        .apply(
            &DirectoryChange::Unregister {
                name: "s042".to_owned(),
            },
            2_000,
        )
        .unwrap();
    assert_eq!(register(&directory, "one-more").0, 204);
    assert_eq!(listed(&directory), 100);
}
