//! The stream URL space (docs/design.md §3): `/v1/streams/{path}` and
//! `/v1/streams/{path}/-/{action}`. `/-/` separates a stream path (which may
//! have many segments) from the action; a segment named `-` is never a path.

use super::{percent_decode, RouteError, STREAMS_PREFIX};
use crate::path::StreamPath;

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// `GET /streams/{path}`
    Info,
    /// `DELETE /streams/{path}`
    Destroy,
    /// `POST /streams/{path}/-/events`
    Append,
    /// `GET /streams/{path}/-/events`
    ReadRange,
    /// `GET /streams/{path}/-/events/{offset}`
    ReadOne(u64),
    /// `GET /streams/{path}/-/metrics` (§11)
    Metrics,
    /// `GET /streams/{path}/-/subscriptions` (§11 debug card)
    Subscriptions,
    /// `POST /streams/{receivingPath}/-/subscribe-from` (§5), served by the router
    SubscribeFrom,
    /// `GET /streams/{path}/-/subscriptions/{key}/signing-secret` (§9)
    SigningSecret(String),
    /// `GET /streams/{path}/-/dead-letters` (§8)
    ListDeadLetters,
    /// `DELETE /streams/{path}/-/dead-letters?subscriptionKey=` (§8)
    DiscardDeadLetters,
    /// `DELETE /streams/{path}/-/dead-letters/{id}` (§8)
    DiscardDeadLetter(u64),
    /// `POST /streams/{path}/-/dead-letters/{id}/replay` (§8), served by the object's shell
    ReplayDeadLetter(u64),
    /// `GET /streams/{path}/-/live` (§10): SSE or a WebSocket, served by the object's shell
    Live,
    /// `GET /streams/{path}/-/processors/{name}` (§9), served by the object's shell
    ProcessorState(String),
    /// `POST /streams/{path}/-/fork` `{"from", "at"?}` (§18), served by the object's shell
    Fork,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub path: StreamPath,
    pub action: Action,
}

fn pick(method: &str, choices: &[(&str, Action)], allowed: &'static str) -> Result<Action, RouteError> {
    choices
        .iter()
        .find(|(m, _)| *m == method)
        .map(|(_, action)| action.clone())
        .ok_or(RouteError::MethodNotAllowed(allowed))
}

/// Parses a public request's method and URL path (without query).
pub fn parse(method: &str, url_path: &str) -> Result<Route, RouteError> {
    let rest = url_path.strip_prefix(STREAMS_PREFIX).ok_or(RouteError::NotFound)?;
    if !rest.starts_with('/') {
        return Err(RouteError::NotFound);
    }
    let (raw_path, action) = match rest.split_once("/-/") {
        Some((path, action)) => (path, Some(action)),
        None => (rest, None),
    };
    let path = StreamPath::parse(raw_path)?;
    let action = match action {
        None => pick(
            method,
            &[("GET", Action::Info), ("DELETE", Action::Destroy)],
            "GET, DELETE",
        )?,
        Some("events") => pick(
            method,
            &[("GET", Action::ReadRange), ("POST", Action::Append)],
            "GET, POST",
        )?,
        Some("metrics") => pick(method, &[("GET", Action::Metrics)], "GET")?,
        Some("live") => pick(method, &[("GET", Action::Live)], "GET")?,
        Some("subscriptions") => pick(method, &[("GET", Action::Subscriptions)], "GET")?,
        Some("subscribe-from") => pick(method, &[("POST", Action::SubscribeFrom)], "POST")?,
        Some("fork") => pick(method, &[("POST", Action::Fork)], "POST")?,
        Some("dead-letters") => pick(
            method,
            &[("GET", Action::ListDeadLetters), ("DELETE", Action::DiscardDeadLetters)],
            "GET, DELETE",
        )?,
        Some(other) if other.starts_with("dead-letters/") => {
            let rest = other.trim_start_matches("dead-letters/");
            let (raw_id, replay) = match rest.strip_suffix("/replay") {
                Some(id) => (id, true),
                None => (rest, false),
            };
            let id = crate::stream::read::parse_offset("id", raw_id).map_err(RouteError::Offset)?;
            if replay {
                pick(method, &[("POST", Action::ReplayDeadLetter(id))], "POST")?
            } else {
                pick(method, &[("DELETE", Action::DiscardDeadLetter(id))], "DELETE")?
            }
        }
        Some(other) if other.starts_with("processors/") => {
            let name = percent_decode(other.trim_start_matches("processors/")).ok_or(RouteError::NotFound)?;
            pick(method, &[("GET", Action::ProcessorState(name))], "GET")?
        }
        Some(other) if other.starts_with("subscriptions/") && other.ends_with("/signing-secret") => {
            let encoded = other
                .trim_start_matches("subscriptions/")
                .trim_end_matches("/signing-secret");
            let key = percent_decode(encoded).ok_or(RouteError::NotFound)?;
            pick(method, &[("GET", Action::SigningSecret(key))], "GET")?
        }
        Some(other) => match other.strip_prefix("events/") {
            Some(offset) => {
                let offset = crate::stream::read::parse_offset("offset", offset).map_err(RouteError::Offset)?;
                pick(method, &[("GET", Action::ReadOne(offset))], "GET")?
            }
            None => return Err(RouteError::NotFound),
        },
    };
    Ok(Route { path, action })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::BodyLimit;

    fn route(method: &str, url: &str) -> Result<Route, RouteError> {
        parse(method, url)
    }

    #[test]
    fn separates_path_from_action() {
        let r = route("POST", "/v1/streams/app/events/-/events").ok();
        assert_eq!(r.as_ref().map(|r| r.path.as_str()), Some("/app/events"));
        assert_eq!(r.map(|r| r.action), Some(Action::Append));
        assert_eq!(
            route("GET", "/v1/streams/a/b").ok().map(|r| r.action),
            Some(Action::Info)
        );
        assert_eq!(
            route("DELETE", "/v1/streams/a").ok().map(|r| r.action),
            Some(Action::Destroy)
        );
        assert_eq!(
            route("GET", "/v1/streams/a/-/events/7").ok().map(|r| r.action),
            Some(Action::ReadOne(7))
        );
    }

    #[test]
    fn every_stream_route_section_3() {
        let action = |method: &str, url: &str| route(method, url).ok().map(|r| r.action);
        for (method, url, expected) in [
            ("GET", "/v1/streams/a", Action::Info),
            ("DELETE", "/v1/streams/a", Action::Destroy),
            ("POST", "/v1/streams/a/-/events", Action::Append),
            ("GET", "/v1/streams/a/-/events", Action::ReadRange),
            ("GET", "/v1/streams/a/-/events/0", Action::ReadOne(0)),
            ("GET", "/v1/streams/a/-/metrics", Action::Metrics),
            ("GET", "/v1/streams/a/-/subscriptions", Action::Subscriptions),
            ("POST", "/v1/streams/a/-/subscribe-from", Action::SubscribeFrom),
            (
                "GET",
                "/v1/streams/a/-/subscriptions/hook%201/signing-secret",
                Action::SigningSecret("hook 1".to_owned()),
            ),
            ("GET", "/v1/streams/a/-/live", Action::Live),
            (
                "GET",
                "/v1/streams/a/-/processors/totals",
                Action::ProcessorState("totals".to_owned()),
            ),
        ] {
            assert_eq!(action(method, url), Some(expected), "{method} {url}");
        }
        for (method, url) in [
            ("POST", "/v1/streams/a/-/metrics"),
            ("POST", "/v1/streams/a/-/live"),
            ("GET", "/v1/streams/a/-/subscribe-from"),
            ("DELETE", "/v1/streams/a/-/processors/totals"),
            ("POST", "/v1/streams/a"),
        ] {
            assert!(
                matches!(route(method, url), Err(RouteError::MethodNotAllowed(_))),
                "{method} {url}"
            );
        }
        assert!(matches!(
            route("GET", "/v1/streams/a/-/processors/%zz"),
            Err(RouteError::NotFound)
        ));
    }

    #[test]
    fn routes_dead_letters() {
        let action = |method: &str, url: &str| route(method, url).ok().map(|r| r.action);
        assert_eq!(
            action("GET", "/v1/streams/a/-/dead-letters"),
            Some(Action::ListDeadLetters)
        );
        assert_eq!(
            action("DELETE", "/v1/streams/a/-/dead-letters"),
            Some(Action::DiscardDeadLetters)
        );
        assert_eq!(
            action("DELETE", "/v1/streams/a/-/dead-letters/7"),
            Some(Action::DiscardDeadLetter(7))
        );
        assert_eq!(
            action("POST", "/v1/streams/a/-/dead-letters/7/replay"),
            Some(Action::ReplayDeadLetter(7))
        );
        assert!(matches!(
            route("POST", "/v1/streams/a/-/dead-letters/x/replay"),
            Err(RouteError::Offset(_))
        ));
        assert!(matches!(
            route("GET", "/v1/streams/a/-/dead-letters/7"),
            Err(RouteError::MethodNotAllowed(_))
        ));
    }

    #[test]
    fn body_limits_follow_the_route_section_12() {
        let limit = |method: &str, url: &str| route(method, url).ok().map(|r| BodyLimit::of(&r.action));
        assert_eq!(limit("POST", "/v1/streams/a/-/events"), Some(BodyLimit::APPEND));
        assert_eq!(
            limit("POST", "/v1/streams/a/-/subscribe-from"),
            Some(BodyLimit::SUBSCRIBE_FROM)
        );
        assert_eq!(
            limit("POST", "/v1/streams/a/-/dead-letters/1/replay"),
            Some(BodyLimit::UNUSED)
        );
        assert_eq!(BodyLimit::APPEND.bytes, 2 * 1024 * 1024);
        assert!(BodyLimit::APPEND.refuses_declared(Some("2097153")));
        assert!(!BodyLimit::APPEND.refuses_declared(Some("2097152")));
        assert!(!BodyLimit::APPEND.refuses_declared(None));
        assert!(BodyLimit::UNUSED.refuses_declared(Some("99999999999999999999999")));
        assert!(!BodyLimit::UNUSED.refuses_declared(Some("12x")));
        let error = BodyLimit::JSONATA_EVALUATE.too_large();
        assert_eq!((error.status, error.code()), (413, "body_too_large"));
        assert_eq!(
            error.body.error.details.get("limitBytes"),
            Some(&serde_json::json!(256 * 1024))
        );
    }

    #[test]
    fn refuses_bad_urls() {
        assert!(matches!(route("GET", "/v2/streams/a"), Err(RouteError::NotFound)));
        assert!(matches!(route("GET", "/v1/streamsx/a"), Err(RouteError::NotFound)));
        assert!(matches!(
            route("GET", "/v1/streams/a/-/nope"),
            Err(RouteError::NotFound)
        ));
        assert!(matches!(
            route("PUT", "/v1/streams/a/-/events"),
            Err(RouteError::MethodNotAllowed(_))
        ));
        assert!(matches!(
            route("GET", "/v1/streams/a/-/events/x"),
            Err(RouteError::Offset(_))
        ));
        assert!(matches!(route("GET", "/v1/streams/a/../b"), Err(RouteError::Path(_))));
        assert!(matches!(route("GET", "/v1/streams/a/-"), Err(RouteError::Path(_))));
    }
}
