//! Scoped tokens natively (docs/design.md §2 Scopes, issue 22): `API_TOKENS`
//! values parsed into grants (hostile values are `misconfigured`), and the
//! matrix scope × route — every public route, checked as the Worker entry
//! checks it (`route::scope::need`, `authorize`, then the append's events
//! and subscribe-from's source once the body is read).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use serde_json::json;
use tributary::auth_tokens::{self, Grant, Scope, TokensError};
use tributary::error::ApiError;
use tributary::route::public::{parse_api, ApiRoute};
use tributary::route::scope::{self, catalog_view, CatalogView, Need, ScopeError};

const DATA: &str = r#"{"type": "order-placed", "payload": {}}"#;
const CONTROL: &str =
    r#"{"type": "events.iterate.com/stream/subscription-removed", "payload": {"subscriptionKey": "k"}}"#;
const MIXED: &str = r#"{"events": [{"type": "a"}, {"type": "events.iterate.com/stream/subscription-removed", "payload": {"subscriptionKey": "k"}}]}"#;
const SUBSCRIBE_FROM: &str = r#"{"sourcePath": "/app/source", "idempotencyKey": "k"}"#;

/// Every public route once (one per `ApiRoute` kind and stream `Action`),
/// with the scopes it needs: `(method, url, body, needed)`.
fn routes() -> Vec<(&'static str, &'static str, &'static str, Vec<Scope>)> {
    use Scope::{Append, Manage, Read};
    vec![
        ("POST", "/v1/jsonata/evaluate", "", vec![]),
        ("GET", "/v1/token", "", vec![]),
        ("GET", "/v1/streams", "", vec![Read]),
        ("GET", "/v1/processors", "", vec![Read]),
        ("GET", "/v1/processors/totals", "", vec![Read]),
        ("PUT", "/v1/processors/totals", "", vec![Manage]),
        ("DELETE", "/v1/processors/totals", "", vec![Manage]),
        ("GET", "/v1/sources", "", vec![Read]),
        ("GET", "/v1/sources/usdc", "", vec![Read]),
        ("PUT", "/v1/sources/usdc", "", vec![Manage]),
        ("DELETE", "/v1/sources/usdc", "", vec![Manage]),
        ("GET", "/v1/secrets", "", vec![Manage]),
        ("PUT", "/v1/secrets/HOOK", "", vec![Manage]),
        ("DELETE", "/v1/secrets/HOOK", "", vec![Manage]),
        ("GET", "/v1/streams/app/a", "", vec![Read]),
        ("DELETE", "/v1/streams/app/a", "", vec![Manage]),
        ("POST", "/v1/streams/app/a/-/events", DATA, vec![Append]),
        ("POST", "/v1/streams/app/a/-/events", CONTROL, vec![Manage]),
        ("POST", "/v1/streams/app/a/-/events", MIXED, vec![Append, Manage]),
        ("GET", "/v1/streams/app/a/-/events", "", vec![Read]),
        ("GET", "/v1/streams/app/a/-/events/3", "", vec![Read]),
        ("GET", "/v1/streams/app/a/-/metrics", "", vec![Read]),
        ("GET", "/v1/streams/app/a/-/subscriptions", "", vec![Read]),
        (
            "POST",
            "/v1/streams/app/a/-/subscribe-from",
            SUBSCRIBE_FROM,
            vec![Manage],
        ),
        (
            "GET",
            "/v1/streams/app/a/-/subscriptions/k/signing-secret",
            "",
            vec![Manage],
        ),
        ("GET", "/v1/streams/app/a/-/dead-letters", "", vec![Read]),
        ("DELETE", "/v1/streams/app/a/-/dead-letters", "", vec![Manage]),
        ("DELETE", "/v1/streams/app/a/-/dead-letters/4", "", vec![Manage]),
        ("POST", "/v1/streams/app/a/-/dead-letters/4/replay", "", vec![Manage]),
        ("GET", "/v1/streams/app/a/-/live", "", vec![Read]),
        ("GET", "/v1/streams/app/a/-/processors/totals", "", vec![Read]),
    ]
}

/// What the entry decides for `grant` on this request.
fn decide(grant: &Grant, method: &str, url: &str, body: &str) -> Result<(), ScopeError> {
    let route = parse_api(method, url).unwrap_or_else(|error| panic!("{method} {url}: {error}"));
    let need = scope::need(method, &route);
    scope::authorize(grant, &need)?;
    match need {
        Need::Append { .. } => scope::authorize_append(grant, body.as_bytes()),
        Need::SubscribeFrom { receiving } => {
            let plan = tributary::subscribe_from::plan(receiving, body.as_bytes()).unwrap();
            scope::on_stream(grant, Scope::Manage, &plan.source_path)
        }
        _ => Ok(()),
    }
}

/// Every non-empty set of scopes.
fn scope_sets() -> Vec<Vec<Scope>> {
    (1u8..8)
        .map(|bits| {
            Scope::ALL
                .into_iter()
                .enumerate()
                .filter(|(index, _)| bits & (1 << index) != 0)
                .map(|(_, scope)| scope)
                .collect()
        })
        .collect()
}

#[test]
fn s2_the_matrix_covers_every_route_kind() {
    let mut kinds = std::collections::BTreeSet::new();
    for (method, url, _, _) in routes() {
        let kind = match parse_api(method, url).unwrap() {
            ApiRoute::Stream(route) => format!("stream {:?}", std::mem::discriminant(&route.action)),
            other => format!("project {:?}", std::mem::discriminant(&other)),
        };
        kinds.insert(kind);
    }
    // 8 project routes (jsonata, token, catalog, processors, source
    // directory, source, secret list, secret) and 15 stream actions.
    assert_eq!(kinds.len(), 8 + 15, "{kinds:?}");
}

#[test]
fn s2_a_token_succeeds_exactly_when_it_holds_every_scope_the_route_needs() {
    for scopes in scope_sets() {
        let grant = Grant::scoped("p", &scopes, None).unwrap();
        for (method, url, body, needed) in routes() {
            let decided = decide(&grant, method, url, body);
            let missing = needed.iter().copied().find(|scope| !scopes.contains(scope));
            match missing {
                None => assert_eq!(decided, Ok(()), "{scopes:?} {method} {url} {body}"),
                Some(_) => {
                    let error = decided.expect_err(&format!("{scopes:?} {method} {url} {body}"));
                    let ScopeError::MissingScope { scope } = &error else {
                        panic!("{error:?}");
                    };
                    assert!(!scopes.contains(scope) && needed.contains(scope), "{error:?}");
                    let api = ApiError::from(error.clone());
                    assert_eq!((api.status, api.code()), (403, "forbidden_scope"));
                    assert_eq!(api.body.error.details.get("scope"), Some(&json!(scope.as_str())));
                }
            }
        }
    }
    // A project id value is every scope.
    let full = Grant::full("p");
    for (method, url, body, _) in routes() {
        assert_eq!(decide(&full, method, url, body), Ok(()), "{method} {url}");
    }
}

#[test]
fn s2_a_prefix_token_reaches_only_streams_under_its_prefix() {
    let all = Scope::ALL;
    let inside = Grant::scoped("p", &all, Some("/app/")).unwrap();
    let outside = Grant::scoped("p", &all, Some("/other/")).unwrap();
    let sibling = Grant::scoped("p", &all, Some("/app/a/")).unwrap();
    for (method, url, body, _) in routes() {
        let stream_route = url.starts_with("/v1/streams/");
        let project_wide = ["/v1/processors", "/v1/sources", "/v1/secrets"]
            .iter()
            .any(|prefix| url.starts_with(prefix));
        let decided = decide(&inside, method, url, body);
        if project_wide {
            let error = decided.unwrap_err();
            assert!(matches!(error, ScopeError::ProjectWide { .. }), "{method} {url}");
            let api = ApiError::from(error);
            assert_eq!(api.body.error.details.get("resource"), Some(&json!("project")));
        } else {
            assert_eq!(decided, Ok(()), "{method} {url}");
        }
        if stream_route {
            let refused = decide(&outside, method, url, body).unwrap_err();
            let api = ApiError::from(refused);
            assert_eq!((api.status, api.code()), (403, "forbidden_scope"), "{method} {url}");
            assert_eq!(api.body.error.details.get("prefix"), Some(&json!("/other/")));
            assert_eq!(api.body.error.details.get("path"), Some(&json!("/app/a")));
            // `/app/a/` covers what is below `/app/a`, not `/app/a` itself.
            assert!(decide(&sibling, method, url, body).is_err(), "{method} {url}");
        }
    }
}

#[test]
fn s2_subscribe_from_needs_manage_on_the_source_stream_too() {
    let grant = Grant::scoped("p", &[Scope::Manage], Some("/app/a/")).unwrap();
    let body = r#"{"sourcePath": "/elsewhere", "idempotencyKey": "k"}"#;
    let refused = decide(&grant, "POST", "/v1/streams/app/a/b/-/subscribe-from", body);
    assert_eq!(
        refused,
        Err(ScopeError::OutsidePrefix {
            prefix: "/app/a/".to_owned(),
            path: "/elsewhere".to_owned()
        })
    );
    let inside = r#"{"sourcePath": "/app/a/c", "idempotencyKey": "k"}"#;
    assert_eq!(
        decide(&grant, "POST", "/v1/streams/app/a/b/-/subscribe-from", inside),
        Ok(())
    );
}

#[test]
fn s2_append_needs_follow_the_event_types() {
    assert_eq!(scope::append_needs(DATA.as_bytes()), vec![Scope::Append]);
    assert_eq!(scope::append_needs(CONTROL.as_bytes()), vec![Scope::Manage]);
    assert_eq!(
        scope::append_needs(MIXED.as_bytes()),
        vec![Scope::Append, Scope::Manage]
    );
    // Malformed or empty bodies need `append`; the stream answers their 400.
    for body in ["", "{", "[]", r#"{"events": []}"#, r#"{"type": 7}"#] {
        assert_eq!(scope::append_needs(body.as_bytes()), vec![Scope::Append], "{body}");
    }
    // Type names are compared exactly: a look-alike is data.
    let look_alike = r#"{"type": "events.iterate.com/streamx/a"}"#;
    assert_eq!(scope::append_needs(look_alike.as_bytes()), vec![Scope::Append]);
}

#[test]
fn s2_s14_the_catalog_of_a_prefix_token_lists_only_its_prefix() {
    let grant = Grant::scoped("p", &[Scope::Read], Some("/app/")).unwrap();
    let view = |query: &str| catalog_view(&grant, query);
    let narrowed = |prefix: &str, after: &str, limit: u64| {
        CatalogView::Query(format!(
            "prefix={prefix}&after={after}&limit={limit}&softDeleted=exclude"
        ))
    };
    assert_eq!(view(""), narrowed("/app/", "", 100));
    assert_eq!(view("prefix=/ap"), narrowed("/app/", "", 100));
    assert_eq!(view("prefix=/app/orders&limit=5"), narrowed("/app/orders", "", 5));
    assert_eq!(
        view("prefix=/app/x%20y&after=/app/b"),
        narrowed("/app/x%20y", "/app/b", 100)
    );
    // Soft-deleted streams (§18) are listed for a prefix token as asked.
    assert_eq!(
        view("softDeleted=only&limit=7"),
        CatalogView::Query("prefix=/app/&after=&limit=7&softDeleted=only".to_owned())
    );
    assert_eq!(view("prefix=/apple"), CatalogView::Empty);
    assert_eq!(view("prefix=/other/"), CatalogView::Empty);
    // A query the catalog refuses is forwarded for its own 400.
    assert_eq!(view("limit=0"), CatalogView::Query("limit=0".to_owned()));
    // An unprefixed token's query is forwarded as it is.
    let full = Grant::full("p");
    assert_eq!(
        catalog_view(&full, "prefix=/x"),
        CatalogView::Query("prefix=/x".to_owned())
    );
}

#[test]
fn s2_scoped_values_parse_into_grants() {
    let tokens = auth_tokens::parse(Some(
        r#"{"full": "p", "reader": {"project": "p", "scopes": ["read", "read"]},
            "app": {"project": "q", "scopes": ["append", "manage"], "prefix": "/app/"},
            "root": {"project": "p", "scopes": ["read"], "prefix": "/"}}"#,
    ))
    .unwrap();
    let grant = |token: &str| tokens.grant_for(token).unwrap().to_json();
    assert_eq!(
        grant("full"),
        json!({"project": "p", "scopes": ["read", "append", "manage"], "prefix": null})
    );
    assert_eq!(
        grant("reader"),
        json!({"project": "p", "scopes": ["read"], "prefix": null})
    );
    assert_eq!(
        grant("app"),
        json!({"project": "q", "scopes": ["append", "manage"], "prefix": "/app/"})
    );
    // `/` is the whole project: no prefix.
    assert_eq!(
        grant("root"),
        json!({"project": "p", "scopes": ["read"], "prefix": null})
    );
    assert_eq!(tokens.project_for("app"), Some("q"));
    assert_eq!(tokens.grants_by_hash().len(), 4);
}

#[test]
fn s2_hostile_scoped_values_are_misconfigured() {
    let huge = format!("/{}/", "a".repeat(600));
    let cases = [
        json!({"project": "p", "scopes": "read"}),
        json!({"project": "p"}),
        json!({"project": "p", "scopes": []}),
        json!({"project": "p", "scopes": ["read", "admin"]}),
        json!({"project": "p", "scopes": [1]}),
        json!({"project": "", "scopes": ["read"]}),
        json!({"project": 7, "scopes": ["read"]}),
        json!({"scopes": ["read"]}),
        json!({"project": "p", "scopes": ["read"], "prefix": "app/"}),
        json!({"project": "p", "scopes": ["read"], "prefix": "/app"}),
        json!({"project": "p", "scopes": ["read"], "prefix": "/app//"}),
        json!({"project": "p", "scopes": ["read"], "prefix": "/a/../b/"}),
        json!({"project": "p", "scopes": ["read"], "prefix": "/a b/"}),
        json!({"project": "p", "scopes": ["read"], "prefix": huge}),
        json!({"project": "p", "scopes": ["read"], "prefix": 5}),
        json!({"project": "p", "scopes": ["read"], "prefx": "/app/"}),
    ];
    for value in cases {
        let raw = json!({"ok": "p", "secret-token-123": value}).to_string();
        let error = auth_tokens::parse(Some(&raw)).expect_err(&raw);
        assert!(
            matches!(
                error,
                TokensError::BadGrant { index: 1, .. } | TokensError::BadProject { index: 1 }
            ),
            "{raw}: {error:?}"
        );
        let api = error.to_api_error();
        assert_eq!((api.status, api.code()), (500, "misconfigured"), "{raw}");
        assert!(!api.to_json().contains("secret-token-123"), "{}", api.to_json());
    }
}

#[test]
fn s2_a_prefix_token_may_configure_copies_only_into_its_prefix() {
    let grant = Grant::scoped("p", &[Scope::Manage], Some("/app/")).unwrap();
    let configure = |target: &str| {
        json!({"type": "events.iterate.com/stream/subscription-configured", "payload": {
            "subscriptionKey": "c", "receiver": {"action": "copy-to-stream", "receivingStreamPath": target}}})
        .to_string()
    };
    let url = "/v1/streams/app/a/-/events";
    assert_eq!(decide(&grant, "POST", url, &configure("/app/b")), Ok(()));
    assert_eq!(
        decide(&grant, "POST", url, &configure("/other/b")),
        Err(ScopeError::OutsidePrefix {
            prefix: "/app/".to_owned(),
            path: "/other/b".to_owned()
        })
    );
    // In a batch too; an unprefixed manage token may copy anywhere.
    let batch = format!(r#"{{"events": [{}, {}]}}"#, configure("/app/b"), configure("/other/b"));
    assert!(decide(&grant, "POST", url, &batch).is_err());
    let manager = Grant::scoped("p", &[Scope::Manage], None).unwrap();
    assert_eq!(decide(&manager, "POST", url, &batch), Ok(()));
}

// A prefix token may not set writing again a copy an unrestricted token
// configured into a stream outside its prefix (§2): cursor-set, resume and
// dead-letter replay are decided by the stream, which knows where its
// subscriptions copy (`route::scope::authorize_restarts`).

mod common;

use common::world::{Network, World};
use tributary::delivery::Outcome;
use tributary::route::Action;

const CONFIGURED: &str = "events.iterate.com/stream/subscription-configured";
const CURSOR_SET: &str = "events.iterate.com/stream/subscription-cursor-set";
const RESUMED: &str = "events.iterate.com/stream/subscription-delivery-resumed";
const REMOVED: &str = "events.iterate.com/stream/subscription-removed";

fn copy_config(key: &str, target: &str) -> serde_json::Value {
    json!({"type": CONFIGURED, "payload": {"subscriptionKey": key, "receiver": {"action": "copy-to-stream",
        "receivingStreamPath": target, "delivery": {"start": "beginning", "onFailingEvent": "halt"}}}})
}

fn data(world: &mut World, path: &str, n: usize) {
    let events: Vec<_> = (0..n).map(|i| json!({"type": "data", "payload": {"i": i}})).collect();
    world.append(path, json!({ "events": events }));
}

/// Copies that arrived at `path` (its data events).
fn copies(world: &mut World, path: &str) -> usize {
    world
        .events(path)
        .iter()
        .filter(|event| event["type"] == "data")
        .count()
}

fn head(world: &mut World, path: &str) -> u64 {
    world.stream(path).lifetime().map_or(0, |meta| meta.head)
}

/// An append to `path` by a token limited to `prefix`, as the router passes it on.
fn append_as(world: &mut World, prefix: Option<&str>, path: &str, body: serde_json::Value) -> (u16, serde_json::Value) {
    let inputs = world.inputs();
    common::call_within(
        world.stream(path),
        Action::Append,
        "",
        &body.to_string(),
        &inputs,
        prefix,
    )
}

fn assert_forbidden(answer: (u16, serde_json::Value), path: &str) {
    assert_eq!(answer.0, 403, "{}", answer.1);
    assert_eq!(answer.1["error"]["code"], "forbidden_scope");
    assert_eq!(answer.1["error"]["details"], json!({"prefix": "/app/", "path": path}));
}

/// `/app/o` copies into `/audit/all` (outside `/app/`) and `/app/mirror`
/// (inside), configured by an unrestricted token, both caught up on 3 events.
fn copying_world(seed: u64) -> World {
    let mut world = World::new(seed);
    world.append("/app/o", copy_config("audit", "/audit/all"));
    world.append("/app/o", copy_config("mirror", "/app/mirror"));
    data(&mut world, "/app/o", 3);
    world.run(&["/app/o"], 20, &mut |_| Network::Deliver);
    assert_eq!(
        (copies(&mut world, "/audit/all"), copies(&mut world, "/app/mirror")),
        (3, 3)
    );
    world
}

#[test]
fn s2_a_prefix_token_may_not_move_a_copy_into_a_stream_outside_its_prefix() {
    let mut world = copying_world(51);
    let app = Some("/app/");
    let before = head(&mut world, "/app/o");
    let rewind = |key: &str| json!({"type": CURSOR_SET, "payload": {"subscriptionKey": key, "afterOffset": 0}});
    assert_forbidden(append_as(&mut world, app, "/app/o", rewind("audit")), "/audit/all");
    // In a batch with events it may append: the whole batch is refused.
    let batch = json!({"events": [{"type": "data"}, rewind("audit")]});
    assert_forbidden(append_as(&mut world, app, "/app/o", batch), "/audit/all");
    assert_eq!(head(&mut world, "/app/o"), before, "nothing was committed");
    // Moving the copy inside its prefix is allowed: that run copies again…
    let (status, body) = append_as(&mut world, app, "/app/o", rewind("mirror"));
    assert_eq!(status, 201, "{body}");
    world.run(&["/app/o"], 20, &mut |_| Network::Deliver);
    assert_eq!(copies(&mut world, "/app/mirror"), 6, "the allowed rewind copied again");
    // …while the audit stream got nothing new from the refused ones.
    assert_eq!(copies(&mut world, "/audit/all"), 3);
    // An unrestricted token may: a new run copies the whole log again.
    let (status, body) = append_as(&mut world, None, "/app/o", rewind("audit"));
    assert_eq!(status, 201, "{body}");
    world.run(&["/app/o"], 20, &mut |_| Network::Deliver);
    assert_eq!(copies(&mut world, "/audit/all"), 6);
}

#[test]
fn s2_a_prefix_token_may_not_resume_a_halted_copy_outside_its_prefix() {
    let mut world = copying_world(52);
    data(&mut world, "/app/o", 1);
    // The audit copy fails permanently and halts (copies always halt, §5).
    world.run(&["/app/o"], 20, &mut |plan| match plan.subscription_key.as_str() {
        "audit" => Network::Fail(Outcome::permanent("receiving stream refused")),
        _ => Network::Deliver,
    });
    let halted = world.stream("/app/o").state().subscriptions.outbound.by_key["audit"]
        .delivery_halted
        .clone();
    assert!(halted.is_some(), "the audit copy halted");
    let before = head(&mut world, "/app/o");
    let resume = json!({"type": RESUMED, "payload": {"subscriptionKey": "audit"}});
    assert_forbidden(
        append_as(&mut world, Some("/app/"), "/app/o", resume.clone()),
        "/audit/all",
    );
    assert_eq!(head(&mut world, "/app/o"), before, "nothing was committed");
    world.run(&["/app/o"], 20, &mut |_| Network::Deliver);
    assert_eq!(copies(&mut world, "/audit/all"), 3, "still halted");
    assert_eq!(copies(&mut world, "/app/mirror"), 4, "the other copy went on");
    // An unrestricted token resumes it.
    assert_eq!(append_as(&mut world, None, "/app/o", resume).0, 201);
    world.run(&["/app/o"], 20, &mut |_| Network::Deliver);
    assert_eq!(copies(&mut world, "/audit/all"), 4);
}

#[test]
fn s2_a_prefix_token_may_stop_a_copy_outside_its_prefix_and_replace_it_with_one_inside() {
    let mut world = copying_world(53);
    let app = Some("/app/");
    // Replacing the key with a copy inside the prefix, then rewinding it in
    // the same batch: the rewind moves the new copy (a batch folds in order).
    let replace = json!({"events": [copy_config("audit", "/app/kept"),
        {"type": CURSOR_SET, "payload": {"subscriptionKey": "audit", "afterOffset": 0}}]});
    let (status, body) = append_as(&mut world, app, "/app/o", replace);
    assert_eq!(status, 201, "{body}");
    // Removing a copy only stops it.
    let remove = json!({"type": REMOVED, "payload": {"subscriptionKey": "mirror", "reason": "requested"}});
    assert_eq!(append_as(&mut world, app, "/app/o", remove).0, 201);
    world.run(&["/app/o"], 20, &mut |_| Network::Deliver);
    assert_eq!(copies(&mut world, "/app/kept"), 3);
    assert_eq!(copies(&mut world, "/audit/all"), 3, "the audit stream got nothing new");
    // A key removed, then named by a cursor-set in the same batch: the
    // fold answers that (it is no copy outside the prefix any more).
    world.append("/app/o", copy_config("audit2", "/audit/all"));
    let removed_then_moved = json!({"events": [
        {"type": REMOVED, "payload": {"subscriptionKey": "audit2", "reason": "requested"}},
        {"type": CURSOR_SET, "payload": {"subscriptionKey": "audit2", "afterOffset": 0}}]});
    let (status, body) = append_as(&mut world, app, "/app/o", removed_then_moved);
    assert_ne!(status, 403, "{body}");
    assert_ne!(status, 201, "{body}");
}

#[test]
fn s2_a_prefix_token_may_not_replay_a_dead_letter_into_a_copy_outside_its_prefix() {
    let mut world = World::new(54);
    let deployment = tributary::deployment::Deployment {
        allow_insecure_webhooks: true,
        ..Default::default()
    };
    world.set_deployment("/app/o", deployment);
    let skip = json!({"start": "beginning", "onFailingEvent": "skip", "retry": {"maxAttempts": 1, "initialBackoffMs": 10, "maxBackoffMs": 10}});
    world.append(
        "/app/o",
        json!({"type": CONFIGURED, "payload": {"subscriptionKey": "k",
        "receiver": {"action": "webhook-post", "url": "http://127.0.0.1:1/h", "delivery": skip}}}),
    );
    data(&mut world, "/app/o", 1);
    world.run(&["/app/o"], 20, &mut |_| Network::Fail(Outcome::permanent("HTTP 400")));
    let query = tributary::stream::dead_letters::DeadLetterQuery {
        subscription_key: None,
        after: 0,
        limit: 10,
    };
    let letters = world.stream("/app/o").dead_letters(&query).unwrap();
    let id = letters["deadLetters"][0]["id"].as_u64().unwrap();
    let now = world.now;
    // While it is a webhook, a prefix token may replay it.
    assert!(world
        .stream("/app/o")
        .plan_replay_within(id, now, Some("/app/"))
        .is_ok());
    // An unrestricted token makes the key a copy into /audit/all.
    world.append("/app/o", copy_config("k", "/audit/all"));
    let error = world
        .stream("/app/o")
        .plan_replay_within(id, now, Some("/app/"))
        .unwrap_err();
    let api = ApiError::from(error);
    assert_eq!((api.status, api.code()), (403, "forbidden_scope"), "{api:?}");
    assert_eq!(api.body.error.details.get("path"), Some(&json!("/audit/all")));
    // Without a prefix the replay is judged on its own terms (a copy takes no replays).
    let error = world.stream("/app/o").plan_replay_within(id, now, None).unwrap_err();
    assert_eq!(ApiError::from(error).code(), "subscription_not_found");
}

#[test]
fn s2_restarts_are_judged_by_where_the_copy_writes_when_the_event_is_folded() {
    let target_of = |key: &str| match key {
        "out" => Some("/audit/all"),
        "in" => Some("/app/x"),
        _ => None,
    };
    let events = |body: serde_json::Value| -> Vec<tributary::event::InputEvent> {
        let list = body.get("events").cloned().unwrap_or(json!([body]));
        let list = list.as_array().unwrap().iter().cloned();
        list.map(|event| tributary::event::InputEvent::from_json(event, tributary::event::Authority::Public).unwrap())
            .collect()
    };
    let set = |key: &str| json!({"type": CURSOR_SET, "payload": {"subscriptionKey": key, "afterOffset": 0}});
    let decide = |prefix: Option<&str>, body| scope::authorize_restarts(prefix, &events(body), target_of);
    let app = Some("/app/");
    assert!(decide(app, set("out")).is_err());
    assert_eq!(decide(None, set("out")), Ok(()));
    assert_eq!(decide(app, set("in")), Ok(()));
    assert_eq!(decide(app, set("webhook")), Ok(()), "not a copy");
    assert_eq!(decide(app, set("unknown")), Ok(()), "the fold answers an unknown key");
    // A copy configured outside in the same batch (the router refuses that
    // configure on its own), then moved: refused here too.
    let batch = json!({"events": [copy_config("in", "/audit/b"), set("in")]});
    assert_eq!(
        decide(app, batch),
        Err(ScopeError::OutsidePrefix {
            prefix: "/app/".to_owned(),
            path: "/audit/b".to_owned()
        })
    );
    // A restart before the replacing configure is judged by the old target.
    let batch = json!({"events": [set("out"), copy_config("out", "/app/y")]});
    assert!(decide(app, batch).is_err());
    // An unreadable stored configuration is judged by its raw receiver.
    let raw = tributary::state::StoredConfiguration::Unreadable(json!({"receiver": {
        "action": "copy-to-stream", "receivingStreamPath": "/audit/all", "delivery": "?"}}));
    assert_eq!(raw.copy_target(), Some("/audit/all"));
}

/// §9: secrets are project-wide; a prefix token may not configure a
/// receiver that sends one (it could name a URL of its own), in its url or
/// any header, alone or in a batch. An unprefixed manage token may.
#[test]
fn s2_s9_a_prefix_token_may_not_configure_a_receiver_naming_a_secret() {
    let grant = Grant::scoped("p", &[Scope::Manage], Some("/app/")).unwrap();
    let configure = |mut receiver: serde_json::Value| {
        receiver["delivery"] = json!({"start": "now", "onFailingEvent": "skip"});
        json!({"type": "events.iterate.com/stream/subscription-configured", "payload": {
            "subscriptionKey": "w", "receiver": receiver}})
        .to_string()
    };
    let url = "/v1/streams/app/a/-/events";
    let plain =
        configure(json!({"action": "webhook-post", "url": "https://example.com/h", "headers": {"x-team": "a"}}));
    assert_eq!(decide(&grant, "POST", url, &plain), Ok(()));
    let secret_url = configure(json!({"action": "webhook-post", "url": {"secret": "HOOK"}}));
    let secret_header = configure(json!({"action": "webhook-post", "url": "https://attacker.example/h",
        "headers": {"authorization": {"secret": "API_TOKEN"}}}));
    let batch = format!(r#"{{"events": [{plain}, {secret_header}]}}"#);
    for body in [&secret_url, &secret_header, &batch] {
        let refused = decide(&grant, "POST", url, body).unwrap_err();
        assert_eq!(
            refused,
            ScopeError::ProjectWide {
                prefix: "/app/".to_owned()
            },
            "{body}"
        );
        assert_eq!(ApiError::from(refused).status, 403);
    }
    let manager = Grant::scoped("p", &[Scope::Manage], None).unwrap();
    assert_eq!(decide(&manager, "POST", url, &batch), Ok(()));
}
