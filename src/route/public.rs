//! What the Worker entry serves (docs/design.md §2, §3): every public URL, parsed
//! once into a [`PublicRoute`]. The entry authenticates (all but the bench
//! baseline; the console page needs no token), then matches on the route.

use super::{
    internal, stream, Route, RouteError, BENCH_PREFIX, CONSOLE_PREFIX, JSONATA_EVALUATE_ROUTE, METRICS_ROUTE,
    SECRETS_PREFIX, SOURCES_PREFIX, STREAMS_PREFIX, TOKEN_ROUTE,
};
use crate::source::config::check_name;

/// `GET /v1/openapi.json`: the API's OpenAPI 3.1 document (§2, issue 22).
pub const OPENAPI_ROUTE: &str = "/v1/openapi.json";

/// The kinds of public URL: three served without a token, and the API.
#[derive(Debug)]
pub enum PublicRoute {
    /// `/bench/...`: the bench-only baseline object named by what follows
    /// `/bench/baseline/` (no token, no check at all).
    Bench { name: String },
    /// `/console` and `/console/...` (§13): static assets, no token.
    Console,
    /// `GET /v1/openapi.json` (§2): the OpenAPI document, no token (it
    /// describes the API and holds no project's data).
    OpenApi,
    /// `OPTIONS` on any API URL: a CORS preflight (§17 "Browsers"),
    /// answered without a token (browsers send none).
    Preflight,
    /// Everything else needs a token (§2); a URL with no route is answered
    /// only after the token is checked.
    Api(Result<ApiRoute, RouteError>),
}

/// A route of the token-guarded API.
#[derive(Debug, Clone, PartialEq)]
pub enum ApiRoute {
    /// `POST /v1/jsonata/evaluate`.
    JsonataEvaluate,
    /// `GET /v1/streams` (and `/v1/streams/`), the project's catalog (§14).
    Catalog,
    /// `GET /v1/metrics`, the project's Prometheus scrape (§11).
    Metrics,
    /// `/v1/processors[/{name}]` (§9), any method: the project object's
    /// store answers the methods it takes.
    Processors { name: Option<String> },
    /// `GET /v1/sources` (and `/v1/sources/`), the source directory (§15).
    SourceDirectory,
    /// `PUT|GET|DELETE /v1/sources/{name}` (§15).
    Source { name: String, method: SourceMethod },
    /// `GET /v1/secrets` (§9): the project's secrets, names and versions.
    SecretList,
    /// `PUT|DELETE /v1/secrets/{name}` (§9): write-only.
    Secret { name: String, method: SecretMethod },
    /// `/v1/streams/{path}[/-/{action}]` (§3).
    Stream(Route),
    /// `GET /v1/token` (§2 Scopes): what the presented token grants.
    Token,
    /// `/v1/stream/{path}` (§17): the Durable Streams face of the stream.
    Protocol {
        path: crate::path::StreamPath,
        method: crate::durable_streams::face::Method,
    },
}

/// The methods `/v1/sources/{name}` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceMethod {
    Put,
    Get,
    Delete,
}

/// The methods `/v1/secrets/{name}` takes: a secret is never read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretMethod {
    Put,
    Delete,
}

impl SecretMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            SecretMethod::Put => "PUT",
            SecretMethod::Delete => "DELETE",
        }
    }
}

/// `/`: the console's front door, redirected to `/console/` (§14).
pub const ROOT_PATH: &str = "/";

/// Parses a public request's method and URL path (without query).
pub fn parse(method: &str, url_path: &str) -> PublicRoute {
    if url_path.starts_with(BENCH_PREFIX) {
        let name = url_path.trim_start_matches("/bench/baseline/").to_owned();
        return PublicRoute::Bench { name };
    }
    if url_path == ROOT_PATH || is_console_path(url_path) {
        return PublicRoute::Console;
    }
    if url_path == OPENAPI_ROUTE && method == "GET" {
        return PublicRoute::OpenApi;
    }
    if method == "OPTIONS" && url_path.starts_with("/v1/") {
        return PublicRoute::Preflight;
    }
    PublicRoute::Api(parse_api(method, url_path))
}

/// Parses a route of the token-guarded API.
pub fn parse_api(method: &str, url_path: &str) -> Result<ApiRoute, RouteError> {
    if url_path == OPENAPI_ROUTE {
        return Err(RouteError::MethodRefused(
            "GET /v1/openapi.json serves the OpenAPI document",
        ));
    }
    if url_path == JSONATA_EVALUATE_ROUTE && method == "POST" {
        return Ok(ApiRoute::JsonataEvaluate);
    }
    if url_path == STREAMS_PREFIX || url_path == "/v1/streams/" {
        return match method {
            "GET" => Ok(ApiRoute::Catalog),
            _ => Err(RouteError::MethodRefused("this route accepts GET")),
        };
    }
    if url_path == TOKEN_ROUTE {
        return match method {
            "GET" => Ok(ApiRoute::Token),
            _ => Err(RouteError::MethodRefused("GET /v1/token answers what the token grants")),
        };
    }
    if url_path == METRICS_ROUTE {
        return match method {
            "GET" => Ok(ApiRoute::Metrics),
            _ => Err(RouteError::MethodRefused(
                "GET /v1/metrics answers the project's scrape",
            )),
        };
    }
    if let Some(name) = internal::processor_name(url_path) {
        return Ok(ApiRoute::Processors { name });
    }
    if let Some(rest) = sources_rest(url_path) {
        return source(method, rest);
    }
    if let Some(rest) = under(url_path, SECRETS_PREFIX) {
        return secret(method, rest);
    }
    if let Some(raw_path) = super::protocol_path(url_path) {
        return protocol(method, raw_path);
    }
    stream::parse(method, url_path).map(ApiRoute::Stream)
}

/// `/v1/stream/{path}` (§17): every segment after the prefix is the path.
fn protocol(method: &str, raw_path: &str) -> Result<ApiRoute, RouteError> {
    let method = crate::durable_streams::face::Method::parse(method)
        .ok_or(RouteError::MethodNotAllowed("GET, HEAD, PUT, POST, DELETE, OPTIONS"))?;
    let path = crate::path::StreamPath::parse(raw_path)?;
    Ok(ApiRoute::Protocol { path, method })
}

/// Whether `path` is the console's (`/console` or `/console/...`, §13).
pub fn is_console_path(path: &str) -> bool {
    path == CONSOLE_PREFIX || path.starts_with("/console/")
}

/// What follows `/v1/sources` when the path is `/v1/sources` or under it.
fn sources_rest(url_path: &str) -> Option<&str> {
    under(url_path, SOURCES_PREFIX)
}

/// What follows `prefix` when the path is `prefix` or under it.
fn under<'a>(url_path: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = url_path.strip_prefix(prefix)?;
    (rest.is_empty() || rest.starts_with('/')).then_some(rest)
}

/// `/v1/secrets[/{name}]` (§9): the name is checked before the method; a
/// secret is write-only, so `GET` of a name is refused (405).
fn secret(method: &str, rest: &str) -> Result<ApiRoute, RouteError> {
    if rest.is_empty() || rest == "/" {
        return match method {
            "GET" => Ok(ApiRoute::SecretList),
            _ => Err(RouteError::MethodRefused(
                "GET /v1/secrets lists the project's secrets; PUT /v1/secrets/{name} writes one",
            )),
        };
    }
    let name = rest
        .strip_prefix('/')
        .and_then(super::decode_segment)
        .ok_or(RouteError::NotFound)?;
    crate::secrets::check_name(&name).map_err(RouteError::SecretName)?;
    let method = match method {
        "PUT" => SecretMethod::Put,
        "DELETE" => SecretMethod::Delete,
        _ => {
            return Err(RouteError::MethodRefused(
                "a secret is write-only: PUT writes it, DELETE removes it (GET /v1/secrets lists names)",
            ))
        }
    };
    Ok(ApiRoute::Secret { name, method })
}

/// `/v1/sources[/{name}]`: the name is checked (§15) before the method.
fn source(method: &str, rest: &str) -> Result<ApiRoute, RouteError> {
    if rest.is_empty() || rest == "/" {
        return match method {
            "GET" => Ok(ApiRoute::SourceDirectory),
            _ => Err(RouteError::MethodRefused("GET /v1/sources lists the project's sources")),
        };
    }
    let name = rest
        .strip_prefix('/')
        .and_then(super::decode_segment)
        .ok_or(RouteError::NotFound)?;
    check_name(&name).map_err(RouteError::SourceName)?;
    let method = match method {
        "PUT" => SourceMethod::Put,
        "GET" => SourceMethod::Get,
        "DELETE" => SourceMethod::Delete,
        _ => return Err(RouteError::MethodRefused("a source accepts PUT, GET and DELETE")),
    };
    Ok(ApiRoute::Source { name, method })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiError;
    use crate::route::Action;

    fn ok(method: &str, url: &str) -> Option<ApiRoute> {
        parse_api(method, url).ok()
    }

    /// The §2 status and code a refused URL answers with.
    fn refused(method: &str, url: &str) -> Option<(u16, String)> {
        let PublicRoute::Api(Err(error)) = parse(method, url) else {
            return None;
        };
        let error = ApiError::from(error);
        Some((error.status, error.code().to_owned()))
    }

    fn refusal(status: u16, code: &str) -> Option<(u16, String)> {
        Some((status, code.to_owned()))
    }

    #[test]
    fn every_public_route_section_2() {
        assert!(matches!(parse("POST", "/bench/baseline/x"), PublicRoute::Bench { name } if name == "x"));
        assert!(matches!(parse("GET", "/console"), PublicRoute::Console));
        assert!(matches!(parse("GET", "/"), PublicRoute::Console));
        assert!(matches!(parse("DELETE", "/console/app.js"), PublicRoute::Console));
        assert!(matches!(parse("GET", "/v1/openapi.json"), PublicRoute::OpenApi));
        assert!(matches!(
            parse("GET", "/consolex"),
            PublicRoute::Api(Err(RouteError::NotFound))
        ));
        assert_eq!(ok("POST", "/v1/jsonata/evaluate"), Some(ApiRoute::JsonataEvaluate));
        assert_eq!(ok("GET", "/v1/streams"), Some(ApiRoute::Catalog));
        assert_eq!(ok("GET", "/v1/streams/"), Some(ApiRoute::Catalog));
        assert_eq!(ok("GET", "/v1/metrics"), Some(ApiRoute::Metrics));
        assert_eq!(refused("POST", "/v1/metrics"), refusal(405, "method_not_allowed"));
        assert_eq!(ok("GET", "/v1/processors"), Some(ApiRoute::Processors { name: None }));
        assert_eq!(
            ok("PUT", "/v1/processors/totals%20x"),
            Some(ApiRoute::Processors {
                name: Some("totals x".to_owned())
            })
        );
        assert_eq!(ok("GET", "/v1/token"), Some(ApiRoute::Token));
        assert_eq!(ok("GET", "/v1/sources"), Some(ApiRoute::SourceDirectory));
        assert_eq!(ok("GET", "/v1/sources/"), Some(ApiRoute::SourceDirectory));
        for (method, typed) in [
            ("PUT", SourceMethod::Put),
            ("GET", SourceMethod::Get),
            ("DELETE", SourceMethod::Delete),
        ] {
            assert_eq!(
                ok(method, "/v1/sources/usdc.transfers"),
                Some(ApiRoute::Source {
                    name: "usdc.transfers".to_owned(),
                    method: typed
                })
            );
        }
        assert_eq!(ok("GET", "/v1/secrets"), Some(ApiRoute::SecretList));
        assert_eq!(ok("GET", "/v1/secrets/"), Some(ApiRoute::SecretList));
        for (method, typed) in [("PUT", SecretMethod::Put), ("DELETE", SecretMethod::Delete)] {
            assert_eq!(
                ok(method, "/v1/secrets/ALERTS_WEBHOOK_URL"),
                Some(ApiRoute::Secret {
                    name: "ALERTS_WEBHOOK_URL".to_owned(),
                    method: typed
                })
            );
        }
        let stream = ok("POST", "/v1/streams/app/-/events");
        assert!(matches!(
            stream,
            Some(ApiRoute::Stream(Route {
                action: Action::Append,
                ..
            }))
        ));
    }

    #[test]
    fn unknown_urls_are_404_section_2() {
        for (method, url) in [
            ("GET", "/v1"),
            ("GET", "/v1/jsonata/evaluate"),
            ("GET", "/v1/processorsx"),
            ("GET", "/v1/sourcesx"),
            ("GET", "/v1/secretsx"),
            ("PUT", "/v1/secrets/%zz"),
            ("GET", "/v1/sources/%zz"),
            ("GET", "/v1/streamsx/a"),
            ("GET", "/consolex"),
            ("GET", "/v1/streams/a/-/nope"),
        ] {
            assert_eq!(refused(method, url), refusal(404, "route_not_found"), "{method} {url}");
        }
    }

    #[test]
    fn wrong_methods_are_405_section_2() {
        for (method, url) in [
            ("POST", "/v1/streams"),
            ("DELETE", "/v1/streams/"),
            ("POST", "/v1/sources"),
            ("POST", "/v1/token"),
            ("POST", "/v1/sources/a"),
            ("GET", "/v1/secrets/a"),
            ("POST", "/v1/secrets/a"),
            ("PUT", "/v1/secrets"),
            ("PATCH", "/v1/streams/a/-/events"),
            ("POST", "/v1/openapi.json"),
        ] {
            assert_eq!(
                refused(method, url),
                refusal(405, "method_not_allowed"),
                "{method} {url}"
            );
        }
        let catalog = parse_api("POST", "/v1/streams").err().map(|error| error.to_string());
        assert_eq!(catalog.as_deref(), Some("this route accepts GET"));
    }

    #[test]
    fn bad_segments_are_400_section_3_section_15() {
        assert_eq!(refused("PUT", "/v1/sources/a%20b"), refusal(400, "invalid_source_name"));
        // The name is checked before the method.
        assert_eq!(refused("POST", "/v1/sources/a/b"), refusal(400, "invalid_source_name"));
        assert_eq!(refused("GET", "/v1/streams/a/../b"), refusal(400, "invalid_path"));
        assert_eq!(refused("PUT", "/v1/secrets/a%20b"), refusal(400, "invalid_secret_name"));
        assert_eq!(refused("GET", "/v1/secrets/a/b"), refusal(400, "invalid_secret_name"));
        assert_eq!(
            refused("GET", "/v1/streams/a/-/events/x"),
            refusal(400, "invalid_parameter")
        );
    }
}
