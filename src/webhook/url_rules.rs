//! Webhook URL rules, checked at configure time (DESIGN.md §9): `https` only,
//! no credentials, no `localhost`, no IP-literal host in loopback, private,
//! link-local, CGNAT, unspecified, multicast or metadata ranges (IPv4 and
//! IPv6, mapped forms included; decimal/octal/hex IPv4 spellings are
//! normalised by the WHATWG parser first). Relaxed entirely when the
//! deployment sets `ALLOW_INSECURE_WEBHOOKS` (local development and tests).
//!
//! Production caveat: a hostname that *resolves* to a private address (DNS
//! rebinding) cannot be caught inside a Worker; Cloudflare's egress refuses
//! private destinations, which covers it there.

use std::net::{Ipv4Addr, Ipv6Addr};
use url::{Host, Url};

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0)
        || (a == 198 && (b == 18 || b == 19))
}

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return forbidden_v4(v4);
    }
    let segments = ip.segments();
    let embedded = |high: u16, low: u16| Ipv4Addr::from((u32::from(high) << 16) | u32::from(low));
    // IPv4-translated (::ffff:0:a.b.c.d) and 6to4 (2002:aabb:ccdd::) embed an IPv4 address.
    if let [0, 0, 0, 0, 0xffff, 0, high, low] = segments {
        return forbidden_v4(embedded(high, low));
    }
    if let [0x2002, high, low, ..] = segments {
        return forbidden_v4(embedded(high, low));
    }
    let first = ip.segments().first().copied().unwrap_or(0);
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || ip.segments().starts_with(&[0x64, 0xff9b])
        || ip.segments().starts_with(&[0, 0, 0, 0, 0, 0])
}

/// Why a URL may not receive webhooks, or `Ok(())`.
pub fn check(raw: &str, allow_insecure: bool) -> Result<(), String> {
    let url = Url::parse(raw).map_err(|error| format!("is not a valid URL: {error}"))?;
    // Never relaxed: credentials would sit in the reduced state, the debug
    // card and the logs.
    if !url.username().is_empty() || url.password().is_some() {
        return Err("must not carry credentials (user:password@); authenticate with the signature instead".to_owned());
    }
    if allow_insecure {
        return match url.scheme() {
            "https" | "http" => Ok(()),
            other => Err(format!("scheme '{other}' is not http(s)")),
        };
    }
    if url.scheme() != "https" {
        return Err("must use https".to_owned());
    }
    match url.host() {
        None => Err("must name a host".to_owned()),
        Some(Host::Domain(domain)) => {
            let domain = domain.trim_end_matches('.').to_ascii_lowercase();
            if domain == "localhost" || domain.ends_with(".localhost") {
                Err("must not point at localhost".to_owned())
            } else {
                Ok(())
            }
        }
        Some(Host::Ipv4(ip)) if forbidden_v4(ip) => Err(format!(
            "host {ip} is in a loopback, private, link-local or metadata range"
        )),
        Some(Host::Ipv6(ip)) if forbidden_v6(ip) => Err(format!(
            "host {ip} is in a loopback, private, link-local or metadata range"
        )),
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn refuses_every_unsafe_form() {
        for bad in [
            "http://example.com/h",
            "ftp://example.com/h",
            "https://user:pw@example.com/h",
            "https://user@example.com/h",
            "https://localhost/h",
            "https://LOCALHOST./h",
            "https://api.localhost/h",
            "https://127.0.0.1/h",
            "https://127.1/h",
            "https://2130706433/h",
            "https://0x7f000001/h",
            "https://0177.0.0.1/h",
            "https://10.0.0.1/h",
            "https://172.16.5.4/h",
            "https://192.168.1.1/h",
            "https://169.254.169.254/latest/meta-data",
            "https://100.64.0.1/h",
            "https://0.0.0.0/h",
            "https://[::1]/h",
            "https://[::]/h",
            "https://[::ffff:127.0.0.1]/h",
            "https://[::ffff:a9fe:a9fe]/h",
            "https://[fd00:ec2::254]/h",
            "https://[fe80::1]/h",
            "https://[::ffff:0:7f00:1]/h",
            "https://[2002:7f00:1::]/h",
            "https://[2002:a00:1::]/h",
            "not a url",
        ] {
            assert!(check(bad, false).is_err(), "{bad} was accepted");
        }
    }

    #[test]
    fn accepts_public_https_and_relaxes_when_allowed() {
        for good in [
            "https://example.com/hook",
            "https://8.8.8.8/h",
            "https://[2606:4700::1111]/h",
            "https://example.com:8443/x?y=1",
        ] {
            assert_eq!(check(good, false), Ok(()), "{good}");
        }
        assert_eq!(check("http://127.0.0.1:9999/h", true), Ok(()));
        assert!(check("ftp://127.0.0.1/h", true).is_err());
    }
}
