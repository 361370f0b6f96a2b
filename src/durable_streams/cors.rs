//! Browsers (docs/design.md §17 "Browsers"): which origins may call Tributary
//! from a page, set by the deployment as `CORS_ALLOWED_ORIGINS` — unset or
//! empty for none, `*` for any, or a comma-separated list of origins
//! (`https://app.example.com, http://localhost:5173`). Tokens are bearer
//! headers, never cookies, so credentials are never allowed. A malformed
//! setting is 500 `misconfigured`, never silently open or closed.

use super::names::{ORIGIN, VARY};
use crate::error::{ApiFailure, ErrorCode};
use crate::limits::{CORS_PREFLIGHT_MAX_AGE_SECONDS, MAX_CORS_ORIGINS, MAX_CORS_ORIGIN_BYTES};
use crate::text::name_excerpt;

const ALLOW_ORIGIN: &str = "Access-Control-Allow-Origin";

/// Methods a page may use (both faces).
pub const ALLOWED_METHODS: &str = "GET, HEAD, POST, PUT, DELETE, OPTIONS";
/// Request headers a page may send (both faces: the protocol's, and the
/// native face's `Last-Event-ID`).
pub const ALLOWED_HEADERS: &str = "Authorization, Content-Type, If-None-Match, Last-Event-ID, Stream-TTL, \
Stream-Expires-At, Stream-Seq, Stream-Closed, Stream-Forked-From, Stream-Fork-Offset, Stream-Fork-Sub-Offset, \
Producer-Id, Producer-Epoch, Producer-Seq, Tributary-Message-Type";
/// Response headers a page may read (PROTOCOL §5, §12.7).
pub const EXPOSED_HEADERS: &str = "Stream-Next-Offset, Stream-Cursor, Stream-Up-To-Date, Stream-Closed, \
Stream-TTL, Stream-Expires-At, Stream-SSE-Data-Encoding, Producer-Epoch, Producer-Seq, Producer-Expected-Seq, \
Producer-Received-Seq, ETag, Location, Retry-After, Content-Type";

/// The parsed `CORS_ALLOWED_ORIGINS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AllowedOrigins {
    /// No page of another origin may call.
    None,
    /// Any origin (`*`).
    Any,
    /// These serialized origins (`scheme://host[:port]`, lowercase).
    List(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CorsError {
    #[error("CORS_ALLOWED_ORIGINS lists {count} origins; the limit is {MAX_CORS_ORIGINS}")]
    TooMany { count: usize },
    #[error("CORS_ALLOWED_ORIGINS entry '{entry}' is not an origin (scheme://host[:port], no path) nor '*' alone")]
    Malformed { entry: String },
}

impl ApiFailure for CorsError {
    fn error_code(&self) -> ErrorCode {
        ErrorCode::Misconfigured
    }
}

impl AllowedOrigins {
    /// Parses the setting (the shell logs a failure loudly and answers 500).
    pub fn parse(setting: Option<&str>) -> Result<AllowedOrigins, CorsError> {
        let text = setting.map(str::trim).unwrap_or_default();
        if text.is_empty() {
            return Ok(AllowedOrigins::None);
        }
        if text == "*" {
            return Ok(AllowedOrigins::Any);
        }
        let count = text.split(',').count();
        if count > MAX_CORS_ORIGINS {
            return Err(CorsError::TooMany { count });
        }
        let origins = text
            .split(',')
            .map(|entry| origin(entry.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(AllowedOrigins::List(origins))
    }

    /// Headers for an actual (non-preflight) response to a request with
    /// this `Origin`.
    pub fn response_headers(&self, origin: Option<&str>) -> Vec<(&'static str, String)> {
        let mut headers = self.allow_origin(origin);
        if headers.iter().any(|(name, _)| *name == ALLOW_ORIGIN) {
            headers.push(("Access-Control-Expose-Headers", EXPOSED_HEADERS.to_owned()));
        }
        headers
    }

    /// The answer to a preflight (`OPTIONS` with `Origin`): always 204,
    /// without authentication; with the permissions only when the origin is
    /// allowed (a browser refuses the call otherwise).
    pub fn preflight_headers(&self, origin: Option<&str>) -> Vec<(&'static str, String)> {
        let mut headers = self.allow_origin(origin);
        if headers.iter().any(|(name, _)| *name == ALLOW_ORIGIN) {
            headers.push(("Access-Control-Allow-Methods", ALLOWED_METHODS.to_owned()));
            headers.push(("Access-Control-Allow-Headers", ALLOWED_HEADERS.to_owned()));
            headers.push(("Access-Control-Max-Age", CORS_PREFLIGHT_MAX_AGE_SECONDS.to_string()));
        }
        headers
    }

    /// `Vary: Origin` when the answer depends on it, and the allowed origin.
    fn allow_origin(&self, origin: Option<&str>) -> Vec<(&'static str, String)> {
        let mut headers = Vec::new();
        if matches!(self, AllowedOrigins::List(_)) {
            headers.push((VARY, ORIGIN.to_owned()));
        }
        let allowed = match (self, origin) {
            (AllowedOrigins::Any, _) => Some("*".to_owned()),
            (AllowedOrigins::List(allowed), Some(origin)) => {
                allowed.iter().find(|allowed| **allowed == origin).cloned()
            }
            _ => None,
        };
        headers.extend(allowed.map(|allowed| (ALLOW_ORIGIN, allowed)));
        headers
    }
}

/// One listed origin, serialized as a browser sends it in `Origin`.
fn origin(entry: &str) -> Result<String, CorsError> {
    let malformed = || CorsError::Malformed {
        entry: name_excerpt(entry),
    };
    if entry.is_empty() || entry.len() > MAX_CORS_ORIGIN_BYTES || entry == "*" {
        return Err(malformed());
    }
    let url = url::Url::parse(entry).map_err(|_| malformed())?;
    let plain = matches!(url.scheme(), "http" | "https")
        && url.username().is_empty()
        && url.password().is_none()
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none()
        && !entry.ends_with('/');
    let serialized = url.origin().ascii_serialization();
    if !plain || serialized == "null" {
        return Err(malformed());
    }
    Ok(serialized)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::error::ApiError;

    fn header<'a>(headers: &'a [(&'static str, String)], name: &str) -> Option<&'a str> {
        headers
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.as_str())
    }

    #[test]
    fn the_setting_is_none_any_or_a_list_of_origins() {
        assert_eq!(AllowedOrigins::parse(None), Ok(AllowedOrigins::None));
        assert_eq!(AllowedOrigins::parse(Some("  ")), Ok(AllowedOrigins::None));
        assert_eq!(AllowedOrigins::parse(Some(" * ")), Ok(AllowedOrigins::Any));
        let list = AllowedOrigins::parse(Some(
            "https://App.Example.com, http://localhost:5173 ,https://x.test:443",
        ));
        assert_eq!(
            list,
            Ok(AllowedOrigins::List(vec![
                "https://app.example.com".into(),
                "http://localhost:5173".into(),
                "https://x.test".into(),
            ]))
        );
    }

    #[test]
    fn a_malformed_setting_is_500_misconfigured() {
        for setting in [
            "*, https://a.test",
            "https://a.test,",
            "a.test",
            "https://a.test/",
            "https://a.test/app",
            "https://a.test?x=1",
            "https://user@a.test",
            "ftp://a.test",
            "null",
            "https://",
        ] {
            let error = AllowedOrigins::parse(Some(setting)).unwrap_err();
            let api = ApiError::from(error);
            assert_eq!((api.status, api.code()), (500, "misconfigured"), "{setting}");
        }
        let many = vec!["https://a.test"; MAX_CORS_ORIGINS + 1].join(",");
        assert_eq!(
            AllowedOrigins::parse(Some(&many)),
            Err(CorsError::TooMany {
                count: MAX_CORS_ORIGINS + 1
            })
        );
        let long = format!("https://{}.test", "a".repeat(MAX_CORS_ORIGIN_BYTES));
        assert!(AllowedOrigins::parse(Some(&long)).is_err());
    }

    #[test]
    fn only_allowed_origins_get_permissions_and_never_credentials() {
        let list = AllowedOrigins::parse(Some("https://app.example.com")).unwrap();
        let allowed = list.response_headers(Some("https://app.example.com"));
        assert_eq!(
            header(&allowed, "Access-Control-Allow-Origin"),
            Some("https://app.example.com")
        );
        assert_eq!(header(&allowed, "Vary"), Some("Origin"));
        assert!(header(&allowed, "Access-Control-Expose-Headers").is_some_and(|h| h.contains("Stream-Next-Offset")));
        let other = list.response_headers(Some("https://evil.example"));
        assert_eq!(header(&other, "Access-Control-Allow-Origin"), None);
        assert_eq!(header(&other, "Vary"), Some("Origin"));
        assert_eq!(
            header(&list.response_headers(None), "Access-Control-Allow-Origin"),
            None
        );
        let any = AllowedOrigins::Any.response_headers(Some("https://anything.test"));
        assert_eq!(header(&any, "Access-Control-Allow-Origin"), Some("*"));
        assert!(AllowedOrigins::None.response_headers(Some("https://a.test")).is_empty());
        for headers in [allowed, any] {
            assert_eq!(header(&headers, "Access-Control-Allow-Credentials"), None);
        }
    }

    #[test]
    fn a_preflight_allows_the_protocol_headers_including_if_none_match() {
        let preflight = AllowedOrigins::Any.preflight_headers(Some("https://example.com"));
        let allow_headers = header(&preflight, "Access-Control-Allow-Headers")
            .unwrap()
            .to_ascii_lowercase();
        for name in [
            "if-none-match",
            "authorization",
            "content-type",
            "producer-seq",
            "stream-closed",
        ] {
            assert!(allow_headers.contains(name), "{name}");
        }
        assert!(header(&preflight, "Access-Control-Allow-Methods").is_some_and(|m| m.contains("DELETE")));
        assert_eq!(header(&preflight, "Access-Control-Max-Age"), Some("7200"));
        let refused = AllowedOrigins::parse(Some("https://a.test"))
            .unwrap()
            .preflight_headers(Some("https://b.test"));
        assert_eq!(refused, vec![("Vary", "Origin".to_owned())]);
    }
}
