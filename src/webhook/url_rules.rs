//! Webhook URL rules, checked at configure time (docs/design.md §9): `https` only,
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

/// `a.b.c.d` inside `first/len`.
fn in_v4(ip: Ipv4Addr, first: [u8; 4], len: u32) -> bool {
    let mask = u32::MAX.checked_shl(32 - len).unwrap_or(0);
    (u32::from(ip) & mask) == (u32::from(Ipv4Addr::from(first)) & mask)
}

/// IPv4 ranges no webhook or RPC call may target (IANA special-purpose
/// registry): this network, private, CGNAT, loopback, link-local (cloud
/// metadata), IETF protocol assignments, documentation, benchmarking,
/// the deprecated 6to4 relay, multicast, reserved and broadcast.
const FORBIDDEN_V4: [([u8; 4], u32); 16] = [
    ([0, 0, 0, 0], 8),
    ([10, 0, 0, 0], 8),
    ([100, 64, 0, 0], 10),
    ([127, 0, 0, 0], 8),
    ([169, 254, 0, 0], 16),
    ([172, 16, 0, 0], 12),
    ([192, 0, 0, 0], 24),
    ([192, 0, 2, 0], 24),
    ([192, 88, 99, 0], 24),
    ([192, 168, 0, 0], 16),
    ([198, 18, 0, 0], 15),
    ([198, 51, 100, 0], 24),
    ([203, 0, 113, 0], 24),
    ([224, 0, 0, 0], 4),
    ([240, 0, 0, 0], 4),
    ([255, 255, 255, 255], 32),
];

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    FORBIDDEN_V4.iter().any(|(first, len)| in_v4(ip, *first, *len))
}

/// `ip` inside `first/len`.
fn in_v6(ip: Ipv6Addr, first: [u16; 8], len: u32) -> bool {
    let mask = u128::MAX.checked_shl(128 - len).unwrap_or(0);
    (u128::from(ip) & mask) == (u128::from(Ipv6Addr::from(first)) & mask)
}

/// IPv6 ranges refused outright: unspecified, loopback and the deprecated
/// IPv4-compatible form (all in ::/96), discard-only, NAT64 (well-known
/// 64:ff9b::/96 and local-use 64:ff9b:1::/48 alike), IETF protocol
/// assignments with Teredo (2001::/23 holds 2001::/32), documentation, unique
/// local, link-local, the deprecated site-local, and multicast.
const FORBIDDEN_V6: [([u16; 8], u32); 10] = [
    ([0, 0, 0, 0, 0, 0, 0, 0], 96),
    ([0x100, 0, 0, 0, 0, 0, 0, 0], 64),
    ([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 32),
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23),
    ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32),
    ([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20),
    ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7),
    ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10),
    ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10),
    ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8),
];

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
    FORBIDDEN_V6.iter().any(|(first, len)| in_v6(ip, *first, *len))
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

    /// (URL, refused when insecure webhooks are not allowed).
    const TABLE: &[(&str, bool)] = &[
        // Shapes.
        ("http://example.com/h", true),
        ("ftp://example.com/h", true),
        ("https://user:pw@example.com/h", true),
        ("https://user@example.com/h", true),
        ("https://localhost/h", true),
        ("https://LOCALHOST./h", true),
        ("https://api.localhost/h", true),
        ("not a url", true),
        ("https://example.com/hook", false),
        ("https://example.com:8443/x?y=1", false),
        // IPv4, each spelling normalised by the WHATWG parser.
        ("https://127.0.0.1/h", true),
        ("https://127.1/h", true),
        ("https://2130706433/h", true),
        ("https://0x7f000001/h", true),
        ("https://0177.0.0.1/h", true),
        ("https://0.0.0.0/h", true),
        ("https://0.1.2.3/h", true),
        ("https://10.0.0.1/h", true),
        ("https://11.0.0.1/h", false),
        ("https://172.15.255.255/h", false),
        ("https://172.16.5.4/h", true),
        ("https://172.31.255.255/h", true),
        ("https://172.32.0.1/h", false),
        ("https://192.168.1.1/h", true),
        ("https://169.254.169.254/latest/meta-data", true),
        ("https://100.63.255.255/h", false),
        ("https://100.64.0.1/h", true),
        ("https://100.127.255.255/h", true),
        ("https://100.128.0.0/h", false),
        ("https://192.0.0.8/h", true),
        ("https://192.0.2.1/h", true),
        ("https://192.88.99.1/h", true),
        ("https://198.17.255.255/h", false),
        ("https://198.18.0.1/h", true),
        ("https://198.19.255.255/h", true),
        ("https://198.20.0.0/h", false),
        ("https://198.51.100.7/h", true),
        ("https://203.0.113.9/h", true),
        ("https://223.255.255.255/h", false),
        ("https://224.0.0.1/h", true),
        ("https://239.255.255.250/h", true),
        ("https://240.0.0.1/h", true),
        ("https://250.1.2.3/h", true),
        ("https://255.255.255.254/h", true),
        ("https://255.255.255.255/h", true),
        ("https://8.8.8.8/h", false),
        // IPv6.
        ("https://[::1]/h", true),
        ("https://[::]/h", true),
        ("https://[::a00:1]/h", true),
        ("https://[::808:808]/h", true),
        ("https://[::ffff:127.0.0.1]/h", true),
        ("https://[::ffff:a9fe:a9fe]/h", true),
        ("https://[::ffff:10.0.0.1]/h", true),
        ("https://[::ffff:8.8.8.8]/h", false),
        ("https://[::ffff:0:7f00:1]/h", true),
        ("https://[::ffff:0:a00:1]/h", true),
        ("https://[100::1]/h", true),
        ("https://[64:ff9b::7f00:1]/h", true),
        ("https://[64:ff9b::a00:1]/h", true),
        ("https://[64:ff9b::c0a8:101]/h", true),
        ("https://[64:ff9b::808:808]/h", true),
        ("https://[64:ff9b:1::1]/h", true),
        ("https://[64:ff9b:1:ffff::1]/h", true),
        ("https://[2001::1]/h", true),
        ("https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/h", true),
        ("https://[2001:db8::1]/h", true),
        ("https://[2001:1ff::1]/h", true),
        ("https://[2001:200::1]/h", false),
        ("https://[2001:4860:4860::8888]/h", false),
        ("https://[2002:7f00:1::]/h", true),
        ("https://[2002:a00:1::]/h", true),
        ("https://[2002:808:808::]/h", false),
        ("https://[3fff::1]/h", true),
        ("https://[fd00:ec2::254]/h", true),
        ("https://[fc00::1]/h", true),
        ("https://[fe80::1]/h", true),
        ("https://[febf::1]/h", true),
        ("https://[fec0::1]/h", true),
        ("https://[feff::1]/h", true),
        ("https://[ff02::1]/h", true),
        ("https://[ff0e::1]/h", true),
        ("https://[2606:4700::1111]/h", false),
    ];

    #[test]
    fn s9_url_rules_table() {
        for (url, refused) in TABLE {
            assert_eq!(check(url, false).is_err(), *refused, "{url}: {:?}", check(url, false));
        }
    }

    #[test]
    fn s9_insecure_deployments_relax_all_but_scheme_and_credentials() {
        assert_eq!(check("http://127.0.0.1:9999/h", true), Ok(()));
        assert_eq!(check("http://[fec0::1]:9999/h", true), Ok(()));
        assert!(check("ftp://127.0.0.1/h", true).is_err());
        assert!(check("http://user:pw@127.0.0.1/h", true).is_err());
    }
}
