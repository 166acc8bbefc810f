//! IP addresses: dotted IPv4 (but not versions or section numbers) and IPv6.
//!
//! Addresses that name no one's machine are left alone: loopback, unspecified, link-local,
//! LAN multicast and broadcast addresses, IPv4's documentation ranges, netmasks and the public DNS
//! resolvers everyone types (`127.0.0.1`, `0.0.0.0`, `::1`, `192.0.2.10`, `255.255.255.0`,
//! `8.8.8.8`). Private LAN ranges stay findings: they are someone's network.

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::scan::text::{before, embedded_in_token, hit};

fn ipv4(text: &str, s: usize, e: usize) -> Option<Hit> {
    let addr = text[s..e].parse::<std::net::Ipv4Addr>().ok()?;
    if embedded_in_token(text, s, e) || names_no_machine_v4(addr) || in_version_talk(text, s) {
        return None;
    }
    let prev = String::from_utf8_lossy(before(text, s)).to_ascii_lowercase();
    let prev = prev.trim_end();
    // A version requirement: "== 1.2.3.0", "~=1.4.5.0", ">= 2.0.0.1".
    if ["==", "~=", ">=", "<=", "!="]
        .iter()
        .any(|op| prev.ends_with(op))
    {
        return None;
    }
    // "version 1.2.3.4", "ver 1.2.3.4", "v 1.2.3.4", `version="1.0.0.0"`: a version; but
    // "Server 10.0.0.1" is an IP.
    let prev = prev.trim_end_matches(|c: char| c.is_whitespace() || "\"'=:[(".contains(c));
    let last_word = prev
        .rsplit(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("");
    // Section numbers read like addresses too: "ECMA262 sections [11.6.2.1]".
    if matches!(
        last_word,
        "version" | "ver" | "v" | "section" | "sections" | "sec" | "clause" | "chapter"
    ) {
        return None;
    }
    hit(s, e, 0.9)
}

fn ipv6(text: &str, s: usize, mut e: usize) -> Option<Hit> {
    while e > s && text.as_bytes()[e - 1] == b':' && !text[s..e].ends_with("::") {
        e -= 1;
    }
    let m = &text[s..e];
    let addr = m.parse::<std::net::Ipv6Addr>().ok()?;
    if names_no_machine_v6(addr) {
        return None;
    }
    let colons = m.bytes().filter(|&b| b == b':').count();
    let hexdigits = m.bytes().filter(u8::is_ascii_hexdigit).count();
    // `a::b` and `std::io` style paths are not addresses.
    if colons < 2 || hexdigits < 4 || !m.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    if text
        .as_bytes()
        .get(e)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b':')
    {
        return None;
    }
    hit(s, e, 0.9)
}

/// Loopback, unspecified, link-local and broadcast addresses, the multicast groups of a
/// LAN's own protocols, the documentation ranges (RFC 5737), netmasks and the well-known
/// public resolvers.
fn names_no_machine_v4(addr: std::net::Ipv4Addr) -> bool {
    const RESOLVERS: [[u8; 4]; 8] = [
        [1, 1, 1, 1],
        [1, 0, 0, 1],
        [8, 8, 8, 8],
        [8, 8, 4, 4],
        [9, 9, 9, 9],
        [149, 112, 112, 112],
        [208, 67, 222, 222],
        [208, 67, 220, 220],
    ];
    let o = addr.octets();
    let bits = u32::from(addr);
    // A netmask is ones then zeros: 255.255.255.0, 255.255.240.0.
    let netmask = o[0] == 255 && bits.leading_ones() + bits.trailing_zeros() == 32;
    // Only the multicast groups a LAN's own protocols use (224.0.0.x: mDNS, routers; SSDP)
    // and the broadcast address: other addresses in those blocks are rare enough in chat
    // that one is more likely a mistyped real address than a protocol's.
    bits == 0
        // Loopback as machines use it (127.0.0.1, 127.0.0.53, 127.0.1.1); the rest of 127/8
        // appears in chat only as random test data.
        || (o[0] == 127 && o[1] == 0)
        || matches!(o[..3], [224, 0, 0])
        || o == [239, 255, 255, 250]
        || bits == u32::MAX
        || (o[0] == 169 && o[1] == 254)
        || matches!(o[..3], [192, 0, 2] | [198, 51, 100] | [203, 0, 113])
        || netmask
        || RESOLVERS.contains(&o)
}

/// `::`, `::1`, link-local `fe80::/16` (where link-local addresses are) and link-local
/// multicast `ff02::/16`. The documentation prefix `2001:db8::/32` stays a finding: examples
/// of real configurations use it in place of the real prefix.
fn names_no_machine_v6(addr: std::net::Ipv6Addr) -> bool {
    let s = addr.segments();
    addr.is_unspecified() || addr.is_loopback() || s[0] == 0xfe80 || s[0] == 0xff02
}

/// Whether the dotted number at `start` is talked about as a version: "firmware 3.4.12.7",
/// "latest is …", "AssemblyVersion 1.0.0.0", "v2.14.0.1 and … 2.13.9.4", "10.4.2.1 -> 10.5.0.0",
/// earlier on its line. An address word there ("IP", "address", "host") keeps it an address.
fn in_version_talk(text: &str, start: usize) -> bool {
    const VERSION_WORDS: [&str; 9] = [
        "version",
        "firmware",
        "release",
        "build",
        "patch",
        "latest",
        "changelog",
        "upgrade",
        "->",
    ];
    const ADDRESS_WORDS: [&str; 6] = ["ip", "address", "host", "server", "client ip", "from"];
    let lo = start.saturating_sub(48);
    let line = text[..start].rfind('\n').map_or(0, |i| i + 1).max(lo);
    let window = String::from_utf8_lossy(&text.as_bytes()[line..start]).to_ascii_lowercase();
    let words: Vec<&str> = window
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.iter().any(|w| ADDRESS_WORDS.contains(w)) {
        return false;
    }
    let glued_v = window.as_bytes().windows(2).enumerate().any(|(i, w)| {
        w[0] == b'v'
            && w[1].is_ascii_digit()
            && (i == 0 || !window.as_bytes()[i - 1].is_ascii_alphanumeric())
    });
    glued_v
        || window.contains("->")
        || window.contains('→')
        || VERSION_WORDS.iter().any(|v| window.contains(v))
}

// What a gate run (or seed) must look like to hold a match, looking only at its bytes
// (see `Runs::accepting` and `Runs::seeded_where` in `scan/gate.rs`).

/// Three dots between digits: `(?:[0-9]{1,3}\.){3}[0-9]{1,3}`.
fn ipv4_run(run: &[u8]) -> bool {
    memchr::memchr_iter(b'.', run).nth(2).is_some()
}

/// An IPv6 address has `::` or at least six colons (seven, or six before an IPv4 tail); no
/// part of a run with neither parses as one.
fn ipv6_run(run: &[u8]) -> bool {
    run.windows(2).any(|w| w == b"::") || memchr::memchr_iter(b':', run).nth(5).is_some()
}

/// `(?:[0-9]{1,3}\.){3}[0-9]{1,3}`: the first group of the address is followed by a dot and a
/// digit.
fn ipv4_seed(b: &[u8], p: usize) -> bool {
    let end = p + b[p..].iter().take_while(|c| c.is_ascii_digit()).count();
    b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(u8::is_ascii_digit)
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(IpAddress, r"\b(?:[0-9]{1,3}\.){3}[0-9]{1,3}\b", ipv4)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["0-9", "."]), seeds: &["0-9"], min_seeds: 4, min_len: 7 }).accepting(ipv4_run).seeded_where(ipv4_seed)),
        Spec::new(IpAddress, r"(?:\b[0-9A-Fa-f]{1,4}|::)(?::{1,2}[0-9A-Fa-f]{1,4}){1,7}(?:::)?(?:(?:\.[0-9]{1,3}){3})?", ipv6)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["0-9", "a-f", "A-F", ":."]), seeds: &[":"], min_seeds: 2, min_len: 5 }).accepting(ipv6_run)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_tests_hold_for_matches() {
        assert!(ipv4_run(b"10.0.0.1") && !ipv4_run(b"3.14159"));
    }

    /// Whether the last dotted number in `text` is an address finding.
    fn v4(text: &str) -> bool {
        let e = text.trim_end_matches(|c: char| !c.is_ascii_digit()).len();
        let s = text[..e]
            .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map_or(0, |i| i + 1);
        ipv4(text, s, e).is_some()
    }

    #[test]
    fn addresses_of_no_machine_are_not_findings() {
        for t in [
            "on 127.0.0.1:8080",
            "bind 0.0.0.0",
            "mask 255.255.255.0",
            "dns 8.8.8.8",
            "docs use 192.0.2.10",
            "got 169.254.3.4",
            "mdns 224.0.0.251",
        ] {
            assert!(!v4(t), "{t}");
        }
        for t in [
            "my IP is 86.134.22.197",
            "router at 192.168.1.1",
            "from 10.1.2.3",
        ] {
            assert!(v4(t), "{t}");
        }
        for t in ["::1", "fe80::1ff:fe23:4567:890a", "::"] {
            assert!(names_no_machine_v6(t.parse().unwrap()), "{t}");
        }
        assert!(!names_no_machine_v6("2a02:8070:1:2::3".parse().unwrap()));
    }

    #[test]
    fn versions_are_not_addresses_unless_an_address_word_says_so() {
        assert!(!v4("Firmware 3.4.12.7 on the router, latest is 3.4.14.2"));
        assert!(!v4("the API is at v2.14.0.1 and the client is 2.13.9.4"));
        assert!(!v4("AssemblyVersion 1.0.0.0"));
        assert!(!v4("path: 10.4.2.1 -> 10.5.0.0"));
        assert!(v4("after the firmware update my public IP is 81.2.69.142"));
    }
}
