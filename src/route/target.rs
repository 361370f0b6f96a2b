//! A request's path and query (docs/design.md §2), read from the URL the
//! platform hands the Worker and its Durable Objects. The platform has
//! already parsed and serialized that URL; a plain one (an http(s) origin,
//! then only characters no URL parser encodes or normalizes) is read as it
//! stands, and any other goes through the full WHATWG parser (`url`), so
//! the answer is the parser's in every case. A parse was a visible share of
//! a single append's CPU in wasm, and every request was parsed twice (the
//! entry, then the object).

use url::Url;

/// The path and query of one request URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    path: String,
    query: Option<String>,
    without_query: String,
}

impl Target {
    /// The path and query of `url`, an absolute URL; `Err` when it is not
    /// one (the parser's message).
    pub fn of(url: &str) -> Result<Target, String> {
        if let Some(target) = Self::plain(url) {
            return Ok(target);
        }
        let mut parsed = Url::parse(url).map_err(|error| error.to_string())?;
        let (path, query) = (parsed.path().to_owned(), parsed.query().map(str::to_owned));
        parsed.set_query(None);
        parsed.set_fragment(None);
        Ok(Target {
            path,
            query,
            without_query: parsed.to_string(),
        })
    }

    /// `/v1/streams/...`: always begins with `/`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What follows `?`, without it; `None` when there is no `?`.
    pub fn query(&self) -> Option<&str> {
        self.query.as_deref()
    }

    /// The whole URL without its query (and fragment), as the parser writes it.
    pub fn without_query(&self) -> &str {
        &self.without_query
    }

    /// `http(s)://host[:port]/path[?query]` whose host the parser reads as
    /// it stands ([`plain_host`]), and whose path and query hold only characters
    /// the parser keeps as they are (no `.` in the path, so no dot segment;
    /// no `%`, so nothing to decode or re-encode). `None` for anything else.
    fn plain(url: &str) -> Option<Target> {
        let (rest, default_port) = match url.strip_prefix("https://") {
            Some(rest) => (rest, "443"),
            None => (url.strip_prefix("http://")?, "80"),
        };
        let authority_end = rest.find('/')?;
        let (authority, path_and_query) = rest.split_at(authority_end);
        let (host, port) = match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        };
        let port_plain = port.is_none_or(|port| {
            port.len() <= 5
                && port != default_port
                && !port.starts_with('0')
                && port.bytes().all(|byte| byte.is_ascii_digit())
                && port.parse::<u32>().is_ok_and(|n| n <= 65_535)
        });
        let host_plain = plain_host(host);
        if !host_plain || !port_plain {
            return None;
        }
        let (path, query) = match path_and_query.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (path_and_query, None),
        };
        if !path.bytes().all(plain_in_path) || !query.is_none_or(|query| query.bytes().all(plain_in_query)) {
            return None;
        }
        Some(Target {
            path: path.to_owned(),
            query: query.map(str::to_owned),
            without_query: url
                .get(..url.len() - query.map_or(0, |query| query.len() + 1))?
                .to_owned(),
        })
    }
}

/// A dotted-decimal IPv4 address, or a name of non-empty labels of
/// lowercase letters, digits and `-`, none of which the parser would read
/// as a number or decode (no all-digit or `0x` last label, no `xn--` label).
fn plain_host(host: &str) -> bool {
    let labels: Vec<&str> = host.split('.').collect();
    let decimal = |label: &str| {
        !label.is_empty()
            && label.len() <= 3
            && label.bytes().all(|byte| byte.is_ascii_digit())
            && (label == "0" || !label.starts_with('0'))
            && label.parse::<u16>().is_ok_and(|n| n <= 255)
    };
    if labels.len() == 4 && labels.iter().all(|label| decimal(label)) {
        return true;
    }
    let names_plain = labels.iter().all(|label| {
        !label.is_empty()
            && !label.starts_with("xn--")
            && label
                .bytes()
                .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
    });
    let last = labels.last().copied().unwrap_or_default();
    names_plain && !last.bytes().all(|byte| byte.is_ascii_digit()) && !last.starts_with("0x")
}

fn plain_in_path(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'/' | b'-' | b'_' | b'~')
}

fn plain_in_query(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'~' | b'.' | b'=' | b'&' | b'/' | b',' | b':')
}

#[cfg(test)]
mod tests {
    use super::*;

    type Read = Option<(String, Option<String>, String)>;

    fn parser(url: &str) -> Read {
        Url::parse(url).ok().map(|mut parsed| {
            let (path, query) = (parsed.path().to_owned(), parsed.query().map(str::to_owned));
            parsed.set_query(None);
            parsed.set_fragment(None);
            (path, query, parsed.to_string())
        })
    }

    fn read(url: &str) -> Read {
        Target::of(url).ok().map(|target| {
            (
                target.path().to_owned(),
                target.query().map(str::to_owned),
                target.without_query().to_owned(),
            )
        })
    }

    /// `url` is read as it stands (`plain`) or by the parser, and either way
    /// gives the parser's answer.
    fn agrees(urls: &[&str], plain: bool) {
        for url in urls {
            assert_eq!(Target::plain(url).is_some(), plain, "{url}");
            assert_eq!(read(url), parser(url), "{url}");
        }
    }

    #[test]
    fn plain_urls_are_read_as_they_stand() {
        agrees(
            &[
                "https://tributary.example/v1/streams/orders/-/events",
                "http://localhost:8787/v1/streams/a/b?after=5&limit=10",
                "https://stream.internal/v1/stream/x?offset=-1&live=long-poll",
                "http://127.0.0.1:8787/v1/streams?prefix=/a/b&cursor=c1",
                "https://h/",
                "https://h/?",
                "http://10.0.0.255:65535/v1/streams",
                "https://a-b.c9.example/v1",
            ],
            true,
        );
    }

    #[test]
    fn anything_else_is_the_parsers_answer() {
        agrees(
            &[
                "https://h/v1/streams/a/../b",
                "https://h/v1/streams/a/./b",
                "https://h/v1/streams/%2e%2e/b",
                "https://h/v1/streams/a%2Fb?x=%41",
                "https://H/v1/streams/a",
                "https://user:pass@h/v1/streams/a",
                "https://h/v1/streams/a b",
                "https://h/v1/streams/a#frag",
                "https://h/v1/streams/a?b#frag",
                "https://h/v1/streams/é",
                "https://h:99999/v1",
                "https://h\\v1\\streams",
                "HTTPS://h/v1/streams/a",
                "https://h?q",
                "https://a.1/v1",
                "https://1.2.3.4.5/v1",
                "https://0x7f.1/v1",
                "https://01.2.3.4/v1",
                "https://xn--a/v1",
                "https://a..b/v1",
                "https://h:65536/v1",
                "https://h:/v1",
                "https://h:443/v1",
                "http://h:80/v1",
                "http://h:08080/v1",
                "https://h.example./v1",
            ],
            false,
        );
    }

    #[test]
    fn what_is_not_a_url_is_an_error() {
        for url in ["", "/v1/streams/a", "v1/streams", "https://"] {
            assert!(Target::of(url).is_err(), "{url:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Whatever the URL, the path and query are the parser's.
        #[test]
        fn the_answer_is_always_the_parsers(
            host in "[a-zA-Z0-9.:@x-]{0,14}|[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}(:[0-9]{1,5})?",
            rest in "[a-zA-Z0-9/._~%?&=#:,;+!$'()*@ \\\\-]{0,40}",
            secure in proptest::bool::ANY,
        ) {
            let url = format!("{}://{host}/{rest}", if secure { "https" } else { "http" });
            proptest::prop_assert_eq!(read(&url), parser(&url), "{}", url);
        }
    }
}
