//! The query of a live connection and of a long-poll (docs/design.md §10):
//! `?after=N&types=a,b&connectionKey=K` and `?after=N&waitMs=W`. Every bad
//! value is a 400 before anything opens or upgrades.

use super::LiveError;
use crate::limits::{MAX_CONNECTION_KEY_BYTES, MAX_LIVE_TYPES_BYTES, MAX_TYPE_BYTES, MAX_WAIT_MS};
use crate::route::percent_decode;
use crate::stream::read::parse_offset;
use crate::subscription::GENERATED_KEY_PREFIX;

/// `GET /-/live?after=&types=&connectionKey=` (and `Last-Event-ID`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LiveQuery {
    /// Exclusive: events after this offset are replayed, then live ones follow.
    pub after: u64,
    /// `after=earliest` or no `after` (§16): from the first retained event.
    /// An explicit `after` (or `Last-Event-ID`) before `firstOffset − 1` is
    /// 410 `trimmed` when the connection opens.
    pub from_earliest: bool,
    /// Only these event types (exact match); `None` is every type.
    pub types: Option<Vec<String>>,
    /// The caller's key; `None` generates `connection:<random>`.
    pub connection_key: Option<String>,
}

fn invalid(name: &'static str, problem: impl Into<String>) -> LiveError {
    LiveError::InvalidParameter {
        name,
        problem: problem.into(),
    }
}

fn decoded(name: &'static str, raw: &str) -> Result<String, LiveError> {
    percent_decode(&raw.replace('+', " ")).ok_or_else(|| invalid(name, "is not valid percent-encoding"))
}

impl LiveQuery {
    /// Parses the query string (no leading `?`). A reconnecting EventSource's
    /// `Last-Event-ID` (an offset) resumes after it and wins over `after`.
    pub fn parse(query: &str, last_event_id: Option<&str>) -> Result<Self, LiveError> {
        let mut live = LiveQuery {
            from_earliest: true,
            ..LiveQuery::default()
        };
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            match name {
                "after" if value == "earliest" => live.from_earliest = true,
                "after" => {
                    live.after = parse_offset("after", value)
                        .map_err(|_| invalid("after", "must be a non-negative integer, or earliest"))?;
                    live.from_earliest = false;
                }
                "types" => live.types = Some(parse_types(&decoded("types", value)?)?),
                "connectionKey" => live.connection_key = Some(check_key(decoded("connectionKey", value)?)?),
                _ => {
                    return Err(invalid(
                        "query",
                        format!("has unknown parameter '{}'", crate::text::name_excerpt(name)),
                    ))
                }
            }
        }
        if let Some(id) = last_event_id.map(str::trim).filter(|id| !id.is_empty()) {
            live.after =
                parse_offset("Last-Event-ID", id).map_err(|_| invalid("Last-Event-ID", "must be an event offset"))?;
            live.from_earliest = false;
        }
        Ok(live)
    }
}

fn parse_types(raw: &str) -> Result<Vec<String>, LiveError> {
    if raw.len() > MAX_LIVE_TYPES_BYTES {
        return Err(invalid(
            "types",
            format!("may name at most {MAX_LIVE_TYPES_BYTES} bytes of types"),
        ));
    }
    let types: Vec<String> = raw.split(',').map(str::to_owned).collect();
    if types.iter().any(|name| {
        name.is_empty() || name.len() > MAX_TYPE_BYTES || name.chars().any(|c| c.is_whitespace() || c.is_control())
    }) {
        return Err(invalid("types", "must be a comma-separated list of event types"));
    }
    Ok(types)
}

/// A caller-chosen connection key (§10): 1–256 bytes, no control
/// characters, and never in the space of generated subscription keys.
fn check_key(key: String) -> Result<String, LiveError> {
    if key.is_empty() || key.len() > MAX_CONNECTION_KEY_BYTES {
        return Err(invalid(
            "connectionKey",
            format!("must be 1-{MAX_CONNECTION_KEY_BYTES} bytes"),
        ));
    }
    if key.chars().any(char::is_control) {
        return Err(invalid("connectionKey", "must not contain control characters"));
    }
    if key.starts_with(GENERATED_KEY_PREFIX) {
        return Err(invalid(
            "connectionKey",
            format!("must not start with '{GENERATED_KEY_PREFIX}' (reserved for subscription keys)"),
        ));
    }
    Ok(key)
}

/// `waitMs` of a long-poll range read (§10); `None` when absent. The rest
/// of the query is the range read's, parsed there.
pub fn split_wait(query: &str) -> Result<(String, Option<u64>), LiveError> {
    let mut wait = None;
    let mut rest = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        match pair.split_once('=') {
            Some(("waitMs", value)) => {
                let ms =
                    parse_offset("waitMs", value).map_err(|_| invalid("waitMs", "must be a non-negative integer"))?;
                if ms > MAX_WAIT_MS {
                    return Err(invalid("waitMs", format!("must be at most {MAX_WAIT_MS}")));
                }
                wait = Some(ms);
            }
            _ => rest.push(pair),
        }
    }
    Ok((rest.join("&"), wait))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        let query = LiveQuery::parse("after=5&types=a,b%2Fc&connectionKey=tail%201", None).unwrap_or_default();
        assert_eq!(query.after, 5);
        assert_eq!(query.types, Some(vec!["a".to_owned(), "b/c".to_owned()]));
        assert_eq!(query.connection_key.as_deref(), Some("tail 1"));
        assert_eq!(LiveQuery::parse("after=5", Some("9")).map(|q| q.after).ok(), Some(9));
        for bad in [
            "after=-1",
            "types=",
            "types=a,,b",
            "connectionKey=",
            "connectionKey=subscription:1",
            "nope=1",
        ] {
            assert!(LiveQuery::parse(bad, None).is_err(), "{bad}");
        }
        assert!(LiveQuery::parse("", Some("x")).is_err());
        assert_eq!(
            split_wait("after=1&waitMs=10").ok(),
            Some(("after=1".to_owned(), Some(10)))
        );
        assert!(split_wait("waitMs=30001").is_err());
    }
}
