//! Receiver secrets and headers natively (docs/design.md §9): the project's
//! write-only store on real SQLite with the project migrations, reference
//! parsing, rotation by version through the stream's cache, the resolved
//! URL re-checked, `secret_missing`, and the redaction of every failure a
//! send reports — through the delivery spine into `lastError` and a dead
//! letter. Copies of a stream carry a reference, never a value.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::driver::{Driver, CONFIGURED};
use common::world::{Network, World};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use tributary::delivery::{Completion, FailureKind, Outcome};
use tributary::error::ApiError;
use tributary::limits::{MAX_SECRETS_PER_PROJECT, MAX_SECRET_VALUE_BYTES};
use tributary::secrets::resolve::{names, resolve_webhook};
use tributary::secrets::{
    check_references, referenced_in_append, references, ResolveRequest, SecretCache, SecretError, SecretStore, Use,
};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::subscription::{Configuration, Receiver};

const HOOK_URL: &str = "https://hooks.chat.example/services/T0001/B0002/tok3nInTheUrlPath";
const API_TOKEN: &str = "Bearer s3cr3t-api-token-value";

fn store() -> SecretStore<RusqliteStorage> {
    SecretStore::open(RusqliteStorage::in_memory().unwrap()).unwrap()
}

fn put(store: &SecretStore<RusqliteStorage>, name: &str, value: &str) -> u64 {
    store
        .put(name, json!({ "value": value }).to_string().as_bytes(), 1_000)
        .unwrap()
        .version
}

const DELIVERY: &str = r#"{"start": "beginning", "onFailingEvent": "skip"}"#;

/// A receiver with a default delivery when it names none.
fn webhook(mut receiver: Value) -> Receiver {
    if receiver.get("delivery").is_none() {
        receiver["delivery"] = serde_json::from_str(DELIVERY).unwrap();
    }
    Configuration::parse(&json!({"receiver": receiver})).unwrap().receiver
}

fn secret_receiver() -> Receiver {
    webhook(json!({"action": "webhook-post", "url": {"secret": "HOOK"},
        "headers": {"authorization": {"secret": "API_TOKEN"}, "x-team": "alerts"}}))
}

/// What the shell does at send time: ask with the cache's versions, absorb.
fn resolve_through(
    cache: &mut SecretCache,
    store: &SecretStore<RusqliteStorage>,
    receiver: &Receiver,
) -> (ResolveRequest, Result<tributary::secrets::ResolvedWebhook, Outcome>) {
    let wanted = names(receiver);
    let request = cache.request(wanted.iter().map(String::as_str));
    let answer = store.resolve(&request).unwrap();
    let values = cache.absorb(answer).unwrap();
    (request, resolve_webhook(receiver, &values, false))
}

fn api(error: SecretError) -> (u16, String, Value) {
    let api = ApiError::from(error);
    (api.status, api.code().to_owned(), json!(api.body.error.details))
}

#[test]
fn s9_the_store_is_write_only_and_versions_each_change() {
    let store = store();
    assert_eq!(put(&store, "HOOK", HOOK_URL), 1);
    // An identical write is a retry: nothing changes.
    assert_eq!(put(&store, "HOOK", HOOK_URL), 1);
    assert_eq!(put(&store, "HOOK", "https://hooks.chat.example/rotated-0001"), 2);
    put(&store, "API_TOKEN", API_TOKEN);
    let listed = store.handle("GET", None, b"", 0);
    assert_eq!(listed.status, 200);
    let body: Value = serde_json::from_str(&listed.body).unwrap();
    let names: Vec<&str> = body["secrets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["API_TOKEN", "HOOK"]);
    assert_eq!(body["secrets"][1]["version"], 2);
    assert_eq!(body["secrets"][1]["updatedAt"], "1970-01-01T00:00:01.000Z");
    for value in [HOOK_URL, API_TOKEN, "rotated"] {
        assert!(!listed.body.contains(value), "{}", listed.body);
    }
    // A PUT answers the summary, never the value; no route reads one back.
    let answered = store.handle("PUT", Some("HOOK"), br#"{"value": "https://x.example/v3-abc"}"#, 5);
    assert!(!answered.body.contains("v3-abc"), "{}", answered.body);
    assert_eq!(store.handle("GET", Some("HOOK"), b"", 0).status, 405);
    // A deleted name written again continues from its last version.
    assert_eq!(store.handle("DELETE", Some("HOOK"), b"", 0).status, 204);
    assert_eq!(store.handle("DELETE", Some("HOOK"), b"", 0).status, 404);
    assert_eq!(put(&store, "HOOK", HOOK_URL), 4);
}

#[test]
fn s9_s12_malformed_oversized_and_hostile_writes_change_nothing() {
    let store = store();
    put(&store, "HOOK", HOOK_URL);
    let huge = "v".repeat(MAX_SECRET_VALUE_BYTES + 1);
    let fits = "v".repeat(MAX_SECRET_VALUE_BYTES);
    assert!(store
        .put("BIG", json!({ "value": fits }).to_string().as_bytes(), 0)
        .is_ok());
    let cases: [(&str, &[u8], u16, &str); 9] = [
        ("HOOK", b"{", 400, "malformed_json"),
        ("HOOK", b"[]", 422, "invalid_secret"),
        ("HOOK", br#"{"value": ""}"#, 422, "invalid_secret"),
        ("HOOK", br#"{"value": 7}"#, 422, "invalid_secret"),
        ("HOOK", br#"{"value": "a\nb"}"#, 422, "invalid_secret"),
        ("HOOK", br#"{"value": "x", "other": 1}"#, 422, "invalid_secret"),
        ("HOOK", huge.as_bytes(), 400, "malformed_json"),
        ("a b", br#"{"value": "x"}"#, 400, "invalid_secret_name"),
        ("", br#"{"value": "x"}"#, 400, "invalid_secret_name"),
    ];
    for (name, body, status, code) in cases {
        let error = store.put(name, body, 0).unwrap_err();
        let (got_status, got_code, _) = api(error);
        assert_eq!(
            (got_status, got_code.as_str()),
            (status, code),
            "{name} {}",
            String::from_utf8_lossy(body)
        );
    }
    let oversized = json!({ "value": huge }).to_string();
    let (status, code, details) = api(store.put("HOOK", oversized.as_bytes(), 0).unwrap_err());
    assert_eq!(
        (status, code.as_str(), details["field"].clone()),
        (422, "invalid_secret", json!("value"))
    );
    // Nothing changed: still version 1 with its value.
    let request = SecretCache::default().request(["HOOK"]);
    let answer = store.resolve(&request).unwrap();
    let resolution = answer.secrets["HOOK"].clone().unwrap();
    assert_eq!((resolution.version, resolution.value.as_deref()), (1, Some(HOOK_URL)));
}

#[test]
fn s12_a_project_holds_a_bounded_count_of_secrets() {
    let store = store();
    for index in 0..MAX_SECRETS_PER_PROJECT {
        put(&store, &format!("S{index}"), "value");
    }
    let (status, code, details) = api(store.put("ONE_MORE", br#"{"value": "x"}"#, 0).unwrap_err());
    assert_eq!((status, code.as_str()), (422, "too_many_secrets"));
    assert_eq!(details["limit"], MAX_SECRETS_PER_PROJECT);
    // Rewriting one that exists is not a new one.
    assert_eq!(put(&store, "S0", "rotated"), 2);
    assert_eq!(store.list().unwrap().len(), MAX_SECRETS_PER_PROJECT);
}

#[test]
fn s9_references_parse_from_url_and_headers() {
    let receiver = secret_receiver();
    let found: Vec<(String, String, Use)> = references(&receiver)
        .into_iter()
        .map(|reference| (reference.name, reference.field, reference.usage))
        .collect();
    assert_eq!(
        found,
        [
            ("HOOK".to_owned(), "receiver.url".to_owned(), Use::Url),
            (
                "API_TOKEN".to_owned(),
                "receiver.headers.authorization".to_owned(),
                Use::Header
            ),
        ]
    );
    // The reduced state keeps the reference as written.
    let Receiver::WebhookPost { url, headers, .. } = &receiver else {
        panic!()
    };
    assert_eq!(serde_json::to_value(url).unwrap(), json!({"secret": "HOOK"}));
    assert_eq!(headers["x-team"].secret_name(), None);
    // A bad url reference is a 422 naming receiver.url.
    for url in [json!({"secret": "no spaces"}), json!({"secret": "A", "x": 1}), json!(5)] {
        let receiver =
            json!({"action": "webhook-post", "url": url, "delivery": {"start": "now", "onFailingEvent": "skip"}});
        let error = Configuration::parse(&json!({ "receiver": receiver })).unwrap_err();
        let api = ApiError::from(error);
        assert_eq!(
            (api.status, api.body.error.details["field"].clone()),
            (422, json!("receiver.url"))
        );
    }
    // An append names the references of each valid configuration only.
    let configure = |mut receiver: Value| {
        receiver["delivery"] = json!({"start": "now", "onFailingEvent": "skip"});
        json!({"type": CONFIGURED, "payload": {"receiver": receiver}})
    };
    let batch = json!({"events": [
        configure(json!({"action": "webhook-post", "url": {"secret": "HOOK"}})),
        configure(json!({"action": "webhook-post", "url": {"secret": "BROKEN"}, "headers": 3})),
        {"type": "data", "payload": {"url": {"secret": "NOT_A_CONFIG"}}},
    ]});
    let named: Vec<String> = referenced_in_append(batch.to_string().as_bytes())
        .into_iter()
        .map(|reference| reference.name)
        .collect();
    assert_eq!(named, ["HOOK"]);
    assert!(referenced_in_append(br#"{"type": "data"}"#).is_empty());
}

#[test]
fn s9_a_rotation_takes_effect_on_the_next_send_by_version() {
    let store = store();
    put(&store, "HOOK", HOOK_URL);
    put(&store, "API_TOKEN", API_TOKEN);
    let receiver = secret_receiver();
    let mut cache = SecretCache::default();
    let (request, first) = resolve_through(&mut cache, &store, &receiver);
    assert_eq!(
        request.names,
        BTreeMap::from([("API_TOKEN".into(), None), ("HOOK".into(), None)])
    );
    let first = first.unwrap();
    assert_eq!(first.url, HOOK_URL);
    assert!(first
        .headers
        .contains(&("authorization".to_owned(), API_TOKEN.to_owned())));
    assert!(first.headers.contains(&("x-team".to_owned(), "alerts".to_owned())));
    // Unchanged: the cache names its versions and the project sends no value.
    let request = cache.request(["HOOK", "API_TOKEN"]);
    assert_eq!(request.names["HOOK"], Some(1));
    assert_eq!(
        store.resolve(&request).unwrap().secrets["HOOK"].clone().unwrap().value,
        None
    );
    let (_, again) = resolve_through(&mut cache, &store, &receiver);
    assert_eq!(again.unwrap().url, HOOK_URL);
    // Rotated: the very next send uses the new value.
    put(&store, "API_TOKEN", "Bearer rotated-token-0002");
    let (request, rotated) = resolve_through(&mut cache, &store, &receiver);
    assert_eq!(request.names["API_TOKEN"], Some(1));
    let rotated = rotated.unwrap();
    assert!(rotated
        .headers
        .contains(&("authorization".to_owned(), "Bearer rotated-token-0002".to_owned())));
    assert_eq!(cache.request(["API_TOKEN"]).names["API_TOKEN"], Some(2));
}

#[test]
fn s9_a_deleted_secret_fails_the_send_as_permanent_secret_missing() {
    let store = store();
    put(&store, "HOOK", HOOK_URL);
    put(&store, "API_TOKEN", API_TOKEN);
    let receiver = secret_receiver();
    let mut cache = SecretCache::default();
    assert!(resolve_through(&mut cache, &store, &receiver).1.is_ok());
    store.delete("API_TOKEN").unwrap();
    let (_, failed) = resolve_through(&mut cache, &store, &receiver);
    let Err(Outcome::Failed { kind, message, .. }) = failed else {
        panic!("{failed:?}")
    };
    assert_eq!(kind, FailureKind::Permanent);
    assert!(message.starts_with("secret_missing: "), "{message}");
    assert!(message.contains("receiver.headers.authorization") && message.contains("API_TOKEN"));
    assert!(!message.contains(API_TOKEN));
}

#[test]
fn s9_a_resolved_url_is_checked_against_the_url_rules_without_showing_it() {
    let store = store();
    put(&store, "HOOK", "https://10.1.2.3/internal/s3cr3t-path-token");
    let receiver = webhook(json!({"action": "webhook-post", "url": {"secret": "HOOK"}}));
    let (_, refused) = resolve_through(&mut SecretCache::default(), &store, &receiver);
    let Err(Outcome::Failed { kind, message, .. }) = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(kind, FailureKind::Permanent);
    assert!(
        message.contains("receiver.url") && message.contains("'HOOK'"),
        "{message}"
    );
    for part in ["10.1.2.3", "s3cr3t-path-token"] {
        assert!(!message.contains(part), "{message}");
    }
    // A header value with a line break cannot be stored; one with a
    // leading space is refused at send time.
    put(&store, "PADDED", " Bearer x");
    let receiver = webhook(json!({"action": "webhook-post", "url": "https://example.com/h",
        "headers": {"authorization": {"secret": "PADDED"}}}));
    let (_, refused) = resolve_through(&mut SecretCache::default(), &store, &receiver);
    assert!(matches!(
        refused,
        Err(Outcome::Failed {
            kind: FailureKind::Permanent,
            ..
        })
    ));
}

#[test]
fn s9_configure_time_check_names_the_field_of_a_missing_or_unusable_secret() {
    let store = store();
    put(&store, "HOOK", HOOK_URL);
    put(&store, "LOCAL", "http://127.0.0.1:9/hook");
    let check = |receiver: Value, allow_insecure: bool| {
        let references = references(&webhook(receiver));
        let request = SecretCache::default().request(references.iter().map(|r| r.name.as_str()));
        let answer = store.resolve(&request).unwrap();
        check_references(&references, &request, answer, allow_insecure).map_err(|error| Box::new(ApiError::from(error)))
    };
    assert_eq!(
        check(json!({"action": "webhook-post", "url": {"secret": "HOOK"}}), false),
        Ok(())
    );
    let missing = check(
        json!({"action": "webhook-post", "url": {"secret": "HOOK"}, "headers": {"x-key": {"secret": "NOPE"}}}),
        false,
    )
    .unwrap_err();
    assert_eq!((missing.status, missing.code()), (422, "unknown_secret"));
    assert_eq!(missing.body.error.details["field"], "receiver.headers.x-key");
    assert_eq!(missing.body.error.details["secret"], "NOPE");
    let unusable = check(json!({"action": "webhook-post", "url": {"secret": "LOCAL"}}), false).unwrap_err();
    assert_eq!((unusable.status, unusable.code()), (422, "invalid_subscription"));
    assert_eq!(unusable.body.error.details["field"], "receiver.url");
    assert!(!unusable.to_json().contains("127.0.0.1"), "{}", unusable.to_json());
    assert_eq!(
        check(json!({"action": "webhook-post", "url": {"secret": "LOCAL"}}), true),
        Ok(())
    );
}

#[test]
fn s9_past_a_projects_worth_of_names_a_reference_is_unknown() {
    let store = store();
    for index in 0..MAX_SECRETS_PER_PROJECT {
        put(&store, &format!("S{index:03}"), "v");
    }
    let mut references = Vec::new();
    for index in 0..=MAX_SECRETS_PER_PROJECT {
        let name = format!("S{index:03}");
        references.push(tributary::secrets::Reference {
            field: format!("receiver.headers.x-{index}"),
            name,
            usage: Use::Header,
        });
    }
    let request = SecretCache::default().request(references.iter().map(|r| r.name.as_str()));
    assert_eq!(request.names.len(), MAX_SECRETS_PER_PROJECT);
    let answer = store.resolve(&request).unwrap();
    let refused = check_references(&references, &request, answer, false).unwrap_err();
    assert_eq!(
        ApiError::from(refused).body.error.details["secret"],
        format!("S{MAX_SECRETS_PER_PROJECT:03}")
    );
}

#[test]
fn s9_the_resolution_request_is_bounded_and_checked() {
    let store = store();
    let too_many: BTreeMap<String, Option<u64>> =
        (0..=MAX_SECRETS_PER_PROJECT).map(|i| (format!("S{i}"), None)).collect();
    let refused = store.resolve(&ResolveRequest { names: too_many }).unwrap_err();
    assert_eq!(api(refused).1, "invalid_request");
    assert_eq!(store.handle_resolve(b"{").status, 400);
    assert_eq!(store.handle_resolve(br#"{"names": {}, "more": 1}"#).status, 400);
    // A name no secret can have resolves to null.
    let answer = store
        .resolve(&ResolveRequest {
            names: BTreeMap::from([("a b".to_owned(), None)]),
        })
        .unwrap();
    assert_eq!(answer.secrets["a b"], None);
}

/// The failure a real send reports (a network error quoting the URL, a
/// receiver echoing the credential) reaches `lastError` and the dead letter
/// only redacted, through the production spine.
#[test]
fn s9_last_error_and_dead_letters_never_hold_a_resolved_value() {
    let store = store();
    put(&store, "HOOK", HOOK_URL);
    put(&store, "API_TOKEN", API_TOKEN);
    let mut driver = Driver::new("/secrets/spine");
    let (status, body) = driver.append(json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook",
        "receiver": {"action": "webhook-post", "url": {"secret": "HOOK"},
            "headers": {"authorization": {"secret": "API_TOKEN"}},
            "delivery": {"start": "beginning", "onFailingEvent": "skip"}}}}));
    assert_eq!(status, 201, "{body}");
    driver.data(1);
    let plan = driver.plan().pop().unwrap();
    let (_, resolved) = resolve_through(&mut SecretCache::default(), &store, &plan.receiver);
    let resolved = resolved.unwrap();
    let failure = Outcome::permanent(format!(
        "network error: connect to {HOOK_URL} failed; receiver said: HTTP 401: bad authorization '{API_TOKEN}' \
         for path /services/T0001/B0002/tok3nInTheUrlPath"
    ));
    let redacted = resolved.redaction.outcome(failure);
    let completion = driver.complete(&plan, redacted);
    assert!(matches!(completion, Completion::Skipped { .. }), "{completion:?}");
    let card = driver.runtime_card("hook").to_string();
    let letters = serde_json::to_string(&driver.letters("hook")).unwrap();
    let log = serde_json::to_string(&driver.events_of_type(CONFIGURED)).unwrap();
    for text in [&card, &letters, &log] {
        for part in [
            HOOK_URL,
            API_TOKEN,
            "tok3nInTheUrlPath",
            "s3cr3t-api-token-value",
            "hooks.chat.example",
        ] {
            assert!(!text.contains(part), "{part} in {text}");
        }
    }
    assert!(
        letters.contains("{secret:HOOK}") && letters.contains("{secret:API_TOKEN}"),
        "{letters}"
    );
    assert!(log.contains(r#"{"secret":"HOOK"}"#), "{log}");
}

/// §7, §4: a copy carries the configuration event as data, its reference
/// as written; the receiving stream holds no value and configures nothing.
#[test]
fn s9_copies_carry_a_reference_never_a_value() {
    let mut world = World::new(9);
    world.append(
        "/src",
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "copy",
        "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/dst",
            "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}}),
    );
    world.append(
        "/src",
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "hook",
        "receiver": {"action": "webhook-post", "url": {"secret": "HOOK"},
            "headers": {"authorization": {"secret": "API_TOKEN"}},
            "delivery": {"start": "beginning", "onFailingEvent": "skip"}}}}),
    );
    world.run(&["/src"], 50, &mut |_| Network::Deliver);
    let copied: Vec<Value> = world
        .events("/dst")
        .into_iter()
        .filter(|event| event["type"] == CONFIGURED && event["payload"]["subscriptionKey"] == "hook")
        .collect();
    assert_eq!(copied.len(), 1, "{copied:?}");
    let receiver = &copied[0]["payload"]["receiver"];
    assert_eq!(receiver["url"], json!({"secret": "HOOK"}));
    assert_eq!(receiver["headers"]["authorization"], json!({"secret": "API_TOKEN"}));
    assert!(copied[0]["source"]["copiedFrom"].is_array(), "{}", copied[0]);
    let card = world.card("/dst");
    assert_eq!(card["subscriptions"], json!([]), "{card}");
}
