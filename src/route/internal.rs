//! Object-to-object routes (docs/design.md §7 copies, §9 processors, §14 the
//! catalog, §15 sources): their URLs, the header names the router and the
//! objects set, and what each Durable Object's `fetch` serves, parsed into
//! one typed route per object. Only the Worker and its objects reach these
//! URLs; the public router never forwards to an `/internal/` path.

use super::{stream, Route, RouteError, METRICS_ROUTE, PROCESSORS_PREFIX, SECRETS_PREFIX, STREAMS_PREFIX};

/// Set by the router on every request it forwards; an object trusts it
/// because only this Worker can reach the object.
pub const PROJECT_HEADER: &str = "x-tributary-project";
/// Names the receiving stream on the copy route (§7).
pub const PATH_HEADER: &str = "x-tributary-path";
/// Names the source on the source route (§15).
pub const SOURCE_NAME_HEADER: &str = "x-tributary-source";
/// The SHA-256 of the token a live connection presented (§10 re-authentication).
pub const TOKEN_HASH_HEADER: &str = "x-tributary-token-hash";
/// The prefix the caller's token is limited to (§2 Scopes), set by the
/// router on a stream route when the token has one: the stream checks
/// what it alone knows (which stream a subscription copies into) against it.
pub const TOKEN_PREFIX_HEADER: &str = "x-tributary-token-prefix";
/// The target lifetime a source's append answers with (§15).
pub const STREAM_ID_HEADER: &str = "x-tributary-stream-id";
/// The target lifetime a source's append expects (§15).
pub const IF_STREAM_ID_HEADER: &str = "x-tributary-if-stream-id";

/// `POST /internal/fork/{acquire|read|events|page|release}` on a fork's source (§18);
/// the [`PATH_HEADER`] names the source.
pub const FORK_ROUTE: &str = "/internal/fork/";
/// The offset a fork's prefix page ends at (on the read's response).
pub const FORK_NEXT_HEADER: &str = "x-tributary-fork-next";
/// Whether that page holds any message (`1`/`0`).
pub const FORK_ANY_HEADER: &str = "x-tributary-fork-any";
/// How many events a fork's JSON page holds (§18).
pub const FORK_COUNT_HEADER: &str = "x-tributary-fork-count";

/// `POST /internal/copy` on the receiving stream (§7 rule 1).
pub const COPY_ROUTE: &str = "/internal/copy";
/// The catalog's public list on the project object (§14).
pub const CATALOG_ROUTE: &str = STREAMS_PREFIX;
/// `POST /internal/catalog`: a stream's registration (§14).
pub const CATALOG_CHANGE_ROUTE: &str = "/internal/catalog";
/// `POST /internal/metrics`: a stream's metrics snapshot (§11).
pub const METRICS_REPORT_ROUTE: &str = "/internal/metrics";
/// `POST /internal/metrics/source`: a source's progress (§11, §15).
pub const SOURCE_METRICS_ROUTE: &str = "/internal/metrics/source";
/// `POST /internal/processor/{wake|fold}`, `GET /internal/processor/state` (§9).
pub const INSTANCE_ROUTE: &str = "/internal/processor/";
/// `POST /internal/secrets/resolve` on the project object (§9): the
/// router's configure-time check and a stream's send-time resolution.
pub const SECRETS_RESOLVE_ROUTE: &str = "/internal/secrets/resolve";
/// Router → one source object (the [`SOURCE_NAME_HEADER`] names it).
pub const SOURCE_ROUTE: &str = "/internal/source";
/// Router and sources → the project's source directory (§15).
pub const DIRECTORY_ROUTE: &str = "/internal/sources";

/// The object classes an internal URL is addressed to; the host only makes
/// the URL absolute (the stub decides which object receives it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    Stream,
    Project,
    Processor,
    Source,
}

impl Host {
    /// The absolute URL of `path_and_query` on this class of object.
    pub fn url(self, path_and_query: &str) -> String {
        let host = match self {
            Host::Stream => "stream",
            Host::Project => "project",
            Host::Processor => "processor",
            Host::Source => "source",
        };
        format!("https://{host}.internal{path_and_query}")
    }
}

/// What the stream object serves.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamObjectRoute {
    /// The copy route (§7); the [`PATH_HEADER`] names the stream.
    Copy,
    /// A stream route the router forwarded (§3).
    Public(Route),
    /// A Durable Streams request the router forwarded (§17).
    Protocol {
        path: crate::path::StreamPath,
        method: crate::durable_streams::face::Method,
    },
    /// A fork asking its source (§18); the [`PATH_HEADER`] names the source.
    Fork(ForkCall),
}

/// What a fork asks its source (§18).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForkCall {
    /// Grant the prefix and record the edge.
    Acquire,
    /// A page of the prefix, as protocol messages.
    Read,
    /// A page of the prefix's data events, for the fork's subscriptions.
    Events,
    /// A page of the prefix's data events as JSON, for a native read.
    Page,
    /// Drop the edge (the fork is gone).
    Release,
}

/// What the project object serves.
#[derive(Debug, Clone, PartialEq)]
pub enum ProjectObjectRoute {
    /// `GET /v1/streams` (§14).
    CatalogList,
    /// `POST /internal/catalog` (§14).
    CatalogChange,
    /// `/v1/processors[/{name}]` (§9); a name that does not decode is empty
    /// (the store refuses it).
    Processors { name: Option<String> },
    /// `GET /v1/metrics` (§11).
    MetricsScrape,
    /// `POST /internal/metrics` (§11).
    MetricsReport,
    /// `POST /internal/metrics/source` (§11, §15).
    SourceMetricsReport,
    /// `/v1/secrets[/{name}]` (§9); the router checked the name.
    Secrets { name: Option<String> },
    /// `POST /internal/secrets/resolve` (§9).
    SecretsResolve,
}

impl ProjectObjectRoute {
    /// The catalog's own name for its route (`Catalog::handle`).
    pub fn catalog_route(&self) -> Option<&'static str> {
        match self {
            ProjectObjectRoute::CatalogList => Some("list"),
            ProjectObjectRoute::CatalogChange => Some("change"),
            _ => None,
        }
    }

    /// The metrics' own name for its route (`Catalog::handle_metrics`).
    pub fn metrics_route(&self) -> Option<&'static str> {
        match self {
            ProjectObjectRoute::MetricsScrape => Some("scrape"),
            ProjectObjectRoute::MetricsReport => Some("report"),
            ProjectObjectRoute::SourceMetricsReport => Some("source"),
            _ => None,
        }
    }
}

/// What the source object serves (the directory is the instance named by
/// the project alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceObjectRoute {
    Directory,
    Source,
}

/// The stream object's route.
pub fn stream_object(method: &str, url_path: &str) -> Result<StreamObjectRoute, RouteError> {
    if url_path == COPY_ROUTE {
        return Ok(StreamObjectRoute::Copy);
    }
    if let Some(call) = url_path.strip_prefix(FORK_ROUTE) {
        return match call {
            "acquire" => Ok(StreamObjectRoute::Fork(ForkCall::Acquire)),
            "read" => Ok(StreamObjectRoute::Fork(ForkCall::Read)),
            "events" => Ok(StreamObjectRoute::Fork(ForkCall::Events)),
            "page" => Ok(StreamObjectRoute::Fork(ForkCall::Page)),
            "release" => Ok(StreamObjectRoute::Fork(ForkCall::Release)),
            _ => Err(RouteError::NotFound),
        };
    }
    if let Some(raw_path) = super::protocol_path(url_path) {
        let method = crate::durable_streams::face::Method::parse(method)
            .ok_or(RouteError::MethodNotAllowed("GET, HEAD, PUT, POST, DELETE"))?;
        let path = crate::path::StreamPath::parse(raw_path)?;
        return Ok(StreamObjectRoute::Protocol { path, method });
    }
    stream::parse(method, url_path).map(StreamObjectRoute::Public)
}

/// The project object's route.
pub fn project_object(url_path: &str) -> Result<ProjectObjectRoute, RouteError> {
    match url_path {
        CATALOG_ROUTE => Ok(ProjectObjectRoute::CatalogList),
        CATALOG_CHANGE_ROUTE => Ok(ProjectObjectRoute::CatalogChange),
        METRICS_ROUTE => Ok(ProjectObjectRoute::MetricsScrape),
        METRICS_REPORT_ROUTE => Ok(ProjectObjectRoute::MetricsReport),
        SOURCE_METRICS_ROUTE => Ok(ProjectObjectRoute::SourceMetricsReport),
        SECRETS_RESOLVE_ROUTE => Ok(ProjectObjectRoute::SecretsResolve),
        SECRETS_PREFIX => Ok(ProjectObjectRoute::Secrets { name: None }),
        _ if url_path.starts_with("/v1/secrets/") => Ok(ProjectObjectRoute::Secrets {
            name: url_path
                .strip_prefix("/v1/secrets/")
                .map(|name| super::decode_segment(name).unwrap_or_default()),
        }),
        _ => processor_name(url_path)
            .map(|name| ProjectObjectRoute::Processors { name })
            .ok_or(RouteError::NotFound),
    }
}

/// The processor instance object's route: the action after
/// [`INSTANCE_ROUTE`] (the instance answers the actions it takes).
pub fn processor_object(url_path: &str) -> Result<&str, RouteError> {
    url_path.strip_prefix(INSTANCE_ROUTE).ok_or(RouteError::NotFound)
}

/// The source object's route.
pub fn source_object(url_path: &str) -> Result<SourceObjectRoute, RouteError> {
    match url_path {
        DIRECTORY_ROUTE => Ok(SourceObjectRoute::Directory),
        SOURCE_ROUTE => Ok(SourceObjectRoute::Source),
        _ => Err(RouteError::NotFound),
    }
}

/// `Some(name)` when `url_path` is `/v1/processors` (`None`) or
/// `/v1/processors/{name}`; a name that does not decode is empty.
pub(crate) fn processor_name(url_path: &str) -> Option<Option<String>> {
    match url_path.strip_prefix(PROCESSORS_PREFIX)? {
        "" => Some(None),
        rest => rest
            .strip_prefix('/')
            .map(|name| Some(super::decode_segment(name).unwrap_or_default())),
    }
}

/// `/v1/processors/{name}` for a processor name (percent-encoded).
pub fn processor_url(name: &str) -> String {
    format!("{PROCESSORS_PREFIX}/{name}")
}

/// `/v1/streams{path}/-/events`: the append route of a stream.
pub fn append_url(stream_path: &str) -> String {
    format!("{STREAMS_PREFIX}{stream_path}/-/events")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::Action;

    #[test]
    fn each_object_parses_its_own_routes_section_7_9_14_15() {
        assert_eq!(
            stream_object("POST", "/internal/copy").ok(),
            Some(StreamObjectRoute::Copy)
        );
        assert!(matches!(
            stream_object("GET", "/v1/streams/a/-/live"),
            Ok(StreamObjectRoute::Public(Route {
                action: Action::Live,
                ..
            }))
        ));
        assert_eq!(
            project_object("/v1/streams").ok(),
            Some(ProjectObjectRoute::CatalogList)
        );
        assert_eq!(
            project_object("/internal/catalog").ok(),
            Some(ProjectObjectRoute::CatalogChange)
        );
        assert_eq!(
            project_object("/v1/processors").ok(),
            Some(ProjectObjectRoute::Processors { name: None })
        );
        assert_eq!(
            project_object("/v1/processors/%zz").ok(),
            Some(ProjectObjectRoute::Processors {
                name: Some(String::new())
            })
        );
        assert_eq!(ProjectObjectRoute::CatalogList.catalog_route(), Some("list"));
        assert_eq!(ProjectObjectRoute::CatalogChange.catalog_route(), Some("change"));
        assert_eq!(
            project_object("/v1/metrics").ok(),
            Some(ProjectObjectRoute::MetricsScrape)
        );
        assert_eq!(
            project_object("/internal/metrics").ok(),
            Some(ProjectObjectRoute::MetricsReport)
        );
        assert_eq!(ProjectObjectRoute::MetricsScrape.metrics_route(), Some("scrape"));
        assert_eq!(ProjectObjectRoute::MetricsReport.metrics_route(), Some("report"));
        assert_eq!(ProjectObjectRoute::MetricsScrape.catalog_route(), None);
        assert_eq!(
            project_object("/v1/secrets").ok(),
            Some(ProjectObjectRoute::Secrets { name: None })
        );
        assert_eq!(
            project_object("/v1/secrets/HOOK").ok(),
            Some(ProjectObjectRoute::Secrets {
                name: Some("HOOK".to_owned())
            })
        );
        assert_eq!(
            project_object("/internal/secrets/resolve").ok(),
            Some(ProjectObjectRoute::SecretsResolve)
        );
        assert_eq!(processor_object("/internal/processor/wake").ok(), Some("wake"));
        assert_eq!(
            source_object("/internal/sources").ok(),
            Some(SourceObjectRoute::Directory)
        );
        assert_eq!(source_object("/internal/source").ok(), Some(SourceObjectRoute::Source));
        assert_eq!(Host::Stream.url(COPY_ROUTE), "https://stream.internal/internal/copy");
        assert_eq!(append_url("/a/b"), "/v1/streams/a/b/-/events");
        assert_eq!(processor_url("totals"), "/v1/processors/totals");
    }

    #[test]
    fn an_object_refuses_what_is_not_its_route_section_2() {
        assert!(matches!(
            stream_object("GET", "/internal/catalog"),
            Err(RouteError::NotFound)
        ));
        assert!(matches!(project_object("/v1/processorsx"), Err(RouteError::NotFound)));
        assert!(matches!(project_object("/internal/copy"), Err(RouteError::NotFound)));
        assert!(matches!(
            processor_object("/internal/process"),
            Err(RouteError::NotFound)
        ));
        assert!(matches!(source_object("/v1/sources"), Err(RouteError::NotFound)));
        assert!(matches!(
            stream_object("PUT", "/v1/streams/a/-/events"),
            Err(RouteError::MethodNotAllowed(_))
        ));
    }
}
