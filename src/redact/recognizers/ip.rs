//! IP addresses: dotted IPv4 (but not versions or section numbers) and IPv6.

use super::{Hit, Spec};
use crate::redact::entity::EntityType;
use crate::redact::scan::gate::{ByteSet, Gate, RunShape};
use crate::redact::scan::text::{before, embedded_in_token, hit};

fn ipv4(text: &str, s: usize, e: usize) -> Option<Hit> {
    text[s..e].parse::<std::net::Ipv4Addr>().ok()?;
    if embedded_in_token(text, s, e) {
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
    m.parse::<std::net::Ipv6Addr>().ok()?;
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
}
