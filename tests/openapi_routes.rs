//! The OpenAPI document cannot drift from the route table (docs/design.md §2,
//! issue 22): every route the router accepts is documented with its method,
//! every documented operation parses to the route it documents, and every
//! error code of `ErrorCode` is in the document with its status.
//! `tests/e2e/openapi.test.mjs` checks the same document against the
//! running worker (every documented route answers; bodies match schemas).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use tributary::error::ErrorCode;
use tributary::route::public::{self, ApiRoute, PublicRoute, SourceMethod};
use tributary::route::{Action, Route};

const METHODS: [&str; 7] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

fn document() -> Value {
    serde_json::from_str(include_str!("../openapi.json")).expect("openapi.json parses")
}

/// `(METHOD, path template)` of every documented operation.
fn documented(doc: &Value) -> BTreeSet<(String, String)> {
    let mut operations = BTreeSet::new();
    for (template, item) in doc["paths"].as_object().unwrap() {
        for method in METHODS {
            if item.get(method.to_lowercase()).is_some() {
                operations.insert((method.to_owned(), template.clone()));
            }
        }
    }
    operations
}

/// A parameter object, its `$ref` resolved.
fn resolve<'a>(doc: &'a Value, parameter: &'a Value) -> &'a Value {
    match parameter.get("$ref").and_then(Value::as_str) {
        Some(pointer) => doc.pointer(pointer.trim_start_matches('#')).unwrap(),
        None => parameter,
    }
}

/// The template with each path parameter replaced by its `example`.
fn sample_url(doc: &Value, template: &str) -> String {
    let item = &doc["paths"][template];
    let lists = std::iter::once(item.get("parameters")).chain(
        METHODS
            .iter()
            .map(|method| item.get(method.to_lowercase()).and_then(|op| op.get("parameters"))),
    );
    let parameters: Vec<&Value> = lists.flatten().filter_map(Value::as_array).flatten().collect();
    let mut url = template.to_owned();
    for parameter in parameters.into_iter().map(|p| resolve(doc, p)) {
        if parameter["in"] != "path" {
            continue;
        }
        let name = parameter["name"].as_str().unwrap();
        let example = match &parameter["example"] {
            Value::String(text) => text.clone(),
            Value::Number(number) => number.to_string(),
            other => panic!("path parameter {name} of {template} needs an example, has {other}"),
        };
        url = url.replace(&format!("{{{name}}}"), &example);
    }
    assert!(!url.contains('{'), "{template}: a path parameter without a definition");
    url
}

/// The documented operation a parsed route belongs to; `None` for what
/// is not the API (the bench-only baseline, the console's static assets)
/// and for methods the project object refuses itself (405). A CORS
/// preflight is documented on the protocol face only (§17 "Browsers"; the
/// Worker answers `OPTIONS` on every `/v1/` URL the same way).
fn template_of(method: &str, url: &str, route: &PublicRoute) -> Option<(String, String)> {
    let template = match route {
        PublicRoute::Bench { .. } | PublicRoute::Console => return None,
        PublicRoute::Preflight if url.starts_with("/v1/stream/") => "/v1/stream/{path}",
        PublicRoute::Preflight => return None,
        PublicRoute::OpenApi => "/v1/openapi.json",
        PublicRoute::Api(Err(_)) => return None,
        PublicRoute::Api(Ok(api)) => match api {
            ApiRoute::JsonataEvaluate => "/v1/jsonata/evaluate",
            ApiRoute::Catalog => "/v1/streams",
            ApiRoute::Token => "/v1/token",
            ApiRoute::Metrics => "/v1/metrics",
            // Any method reaches the project object, which answers 405 to
            // all but these (checked over HTTP by tests/e2e/openapi.test.mjs).
            ApiRoute::Processors { name: None } if method == "GET" => "/v1/processors",
            ApiRoute::Processors { name: Some(_) } if ["PUT", "GET", "DELETE"].contains(&method) => {
                "/v1/processors/{name}"
            }
            ApiRoute::Processors { .. } => return None,
            ApiRoute::SourceDirectory => "/v1/sources",
            ApiRoute::Source { method: typed, .. } => {
                let expected = match typed {
                    SourceMethod::Put => "PUT",
                    SourceMethod::Get => "GET",
                    SourceMethod::Delete => "DELETE",
                };
                assert_eq!(expected, method);
                "/v1/sources/{name}"
            }
            ApiRoute::SecretList => "/v1/secrets",
            ApiRoute::Secret { method: typed, .. } => {
                assert_eq!(typed.as_str(), method);
                "/v1/secrets/{name}"
            }
            ApiRoute::Stream(Route { action, .. }) => stream_template(action),
            ApiRoute::Protocol { .. } => "/v1/stream/{path}",
        },
    };
    Some((method.to_owned(), template.to_owned()))
}

/// Exhaustive on purpose: a new action does not compile until it is mapped
/// to its documented path.
fn stream_template(action: &Action) -> &'static str {
    match action {
        Action::Info | Action::Destroy => "/v1/streams/{path}",
        Action::Append | Action::ReadRange => "/v1/streams/{path}/-/events",
        Action::ReadOne(_) => "/v1/streams/{path}/-/events/{offset}",
        Action::Metrics => "/v1/streams/{path}/-/metrics",
        Action::Subscriptions => "/v1/streams/{path}/-/subscriptions",
        Action::SubscribeFrom => "/v1/streams/{path}/-/subscribe-from",
        Action::SigningSecret(_) => "/v1/streams/{path}/-/subscriptions/{subscriptionKey}/signing-secret",
        Action::ListDeadLetters | Action::DiscardDeadLetters => "/v1/streams/{path}/-/dead-letters",
        Action::DiscardDeadLetter(_) => "/v1/streams/{path}/-/dead-letters/{id}",
        Action::ReplayDeadLetter(_) => "/v1/streams/{path}/-/dead-letters/{id}/replay",
        Action::Live => "/v1/streams/{path}/-/live",
        Action::ProcessorState(_) => "/v1/streams/{path}/-/processors/{name}",
        Action::Fork => "/v1/streams/{path}/-/fork",
    }
}

/// One URL of every route the router has (each `ApiRoute` and `Action`),
/// written independently of the document; every method is tried on each.
const ROUTER_URLS: [&str; 30] = [
    "/v1/openapi.json",
    "/v1/token",
    "/v1/metrics",
    "/v1/jsonata/evaluate",
    "/v1/streams",
    "/v1/streams/",
    "/v1/processors",
    "/v1/processors/totals%20x",
    "/v1/sources",
    "/v1/sources/",
    "/v1/sources/usdc.transfers",
    "/v1/secrets",
    "/v1/secrets/",
    "/v1/secrets/ALERTS_WEBHOOK_URL",
    "/v1/streams/a",
    "/v1/streams/a/b/c",
    "/v1/streams/a/-/events",
    "/v1/streams/a/-/events/0",
    "/v1/streams/a/-/metrics",
    "/v1/streams/a/-/subscriptions",
    "/v1/streams/a/-/subscriptions/hook%201/signing-secret",
    "/v1/streams/a/-/subscribe-from",
    "/v1/streams/a/-/dead-letters",
    "/v1/streams/a/-/dead-letters/7",
    "/v1/streams/a/-/dead-letters/7/replay",
    "/v1/streams/a/-/live",
    "/v1/streams/a/-/processors/totals",
    "/v1/streams/a/-/fork",
    "/v1/stream/a",
    "/v1/stream/a/b/c",
];

#[test]
fn every_documented_operation_is_the_route_it_documents_section_2() {
    let doc = document();
    for (method, template) in documented(&doc) {
        let url = sample_url(&doc, &template);
        let route = public::parse(&method, &url);
        assert_eq!(
            template_of(&method, &url, &route),
            Some((method.clone(), template.clone())),
            "{method} {url} parses to {route:?}"
        );
    }
}

#[test]
fn every_route_the_router_accepts_is_documented_section_2() {
    let doc = document();
    let operations = documented(&doc);
    let mut urls: Vec<String> = operations.iter().map(|(_, t)| sample_url(&doc, t)).collect();
    urls.extend(ROUTER_URLS.iter().map(|url| (*url).to_owned()));
    let mut reached = BTreeSet::new();
    for url in &urls {
        for method in METHODS {
            if let Some(operation) = template_of(method, url, &public::parse(method, url)) {
                assert!(
                    operations.contains(&operation),
                    "{method} {url} is accepted but not documented"
                );
                reached.insert(operation);
            }
        }
    }
    assert_eq!(reached, operations, "documented operations the router never reached");
}

#[test]
fn every_error_code_is_documented_with_its_status_section_2() {
    let doc = document();
    let schema = &doc["components"]["schemas"]["ErrorCode"];
    let listed: BTreeSet<&str> = schema["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let statuses: BTreeMap<&str, BTreeSet<u64>> = schema["x-statuses"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(code, list)| {
            (
                code.as_str(),
                list.as_array().unwrap().iter().map(|s| s.as_u64().unwrap()).collect(),
            )
        })
        .collect();
    let mut table: BTreeMap<&str, BTreeSet<u64>> = BTreeMap::new();
    for code in ErrorCode::ALL {
        table.entry(code.as_str()).or_default().insert(u64::from(code.status()));
    }
    assert_eq!(statuses, table, "x-statuses against src/error.rs ErrorCode");
    assert_eq!(listed, table.keys().copied().collect(), "the ErrorCode enum");
    // Each status's response component lists exactly that status's codes.
    for response in doc["components"]["responses"].as_object().unwrap().values() {
        let description = response["description"].as_str().unwrap();
        let status: u64 = description.split(':').next().unwrap().parse().unwrap();
        let codes = &response["content"]["application/json"]["schema"]["allOf"][1]["properties"]["error"]["properties"]
            ["code"]["enum"];
        let codes: BTreeSet<&str> = codes.as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        let expected: BTreeSet<&str> = table
            .iter()
            .filter(|(_, s)| s.contains(&status))
            .map(|(code, _)| *code)
            .collect();
        assert_eq!(codes, expected, "the {status} response's codes");
    }
}

#[test]
fn trimmed_and_stream_full_have_their_statuses_section_16() {
    let responses = &document()["components"]["responses"];
    assert!(responses["Trimmed"]["description"]
        .as_str()
        .unwrap()
        .starts_with("410:"));
    assert!(responses["StreamFull"]["description"]
        .as_str()
        .unwrap()
        .starts_with("507:"));
    assert_eq!(ErrorCode::Trimmed.status(), 410);
    assert_eq!(ErrorCode::StreamFull.status(), 507);
}

/// Scoped tokens (§2): every token-guarded operation names its scope and
/// documents 403 (`forbidden_scope` among its codes) and 401.
#[test]
fn every_guarded_operation_names_its_scope_section_2() {
    let doc = document();
    for (method, template) in documented(&doc) {
        let operation = &doc["paths"][&template][method.to_lowercase()];
        if operation.get("security") == Some(&serde_json::json!([])) {
            assert!(
                template == "/v1/openapi.json" || method == "OPTIONS",
                "only the document and CORS preflights are served without a token: {method} {template}"
            );
            continue;
        }
        let scope = operation["x-scope"].as_str().unwrap_or_default();
        assert!(
            // `any`: every valid token (the playground, `GET /v1/token`).
            ["read", "append", "manage", "any"].contains(&scope),
            "{method} {template}: x-scope {scope:?}"
        );
        for status in ["401", "403"] {
            assert!(
                operation["responses"].get(status).is_some(),
                "{method} {template} documents {status}"
            );
        }
    }
}
