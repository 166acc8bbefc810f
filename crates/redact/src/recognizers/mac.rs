//! MAC addresses: six hex pairs or three dotted hex quads, not cut out of a longer run
//! (a certificate fingerprint).

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::scan::text::{embedded_in_token, hit};

fn mac(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    let seps: Vec<u8> = m.bytes().filter(|b| !b.is_ascii_hexdigit()).collect();
    if seps.windows(2).any(|w| w[0] != w[1]) || embedded_in_token(text, s, e) {
        return None;
    }
    // Six pairs cut out of a longer run of them: a certificate fingerprint or a hash
    // (`EA:8D:99:DD:36:AA:2D:07:…`), not a MAC address.
    let b = text.as_bytes();
    let sep = seps.first().copied();
    let pair_after = sep.is_some_and(|c| b.get(e) == Some(&c))
        && b.get(e + 1).is_some_and(u8::is_ascii_hexdigit);
    let pair_before = sep.is_some_and(|c| s >= 2 && b[s - 1] == c && b[s - 2].is_ascii_hexdigit());
    if pair_after || pair_before {
        return None;
    }
    hit(s, e, 0.85)
}

// What a gate run (or seed) must look like to hold a match, looking only at its bytes
// (see `Runs::accepting` and `Runs::seeded_where` in `scan/gate.rs`).

fn hex(b: &[u8], i: usize) -> bool {
    b.get(i).is_some_and(u8::is_ascii_hexdigit)
}

/// Five `:` or five `-` (`aa:bb:cc:dd:ee:ff`), or two `.` (`aabb.ccdd.eeff`).
fn mac_run(run: &[u8]) -> bool {
    let count = |c| memchr::memchr_iter(c, run).count();
    count(b':') >= 5 || count(b'-') >= 5 || count(b'.') >= 2
}

/// A MAC address's separators (`:`, `-`, or the dots of `xxxx.xxxx.xxxx`) have two hex digits
/// on each side.
fn mac_seed(b: &[u8], p: usize) -> bool {
    p >= 2 && hex(b, p - 2) && hex(b, p - 1) && hex(b, p + 1) && hex(b, p + 2)
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(MacAddress, r"\b(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}\b|\b[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\b", mac)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["0-9", "a-f", "A-F", ":.-"]), seeds: &[":.-"], min_seeds: 2, min_len: 14 }).accepting(mac_run).seeded_where(mac_seed)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_tests_hold_for_matches() {
        assert!(
            mac_run(b"aa:bb:cc:dd:ee:ff") && mac_run(b"aabb.ccdd.eeff") && !mac_run(b"2024-01-15")
        );
    }
}
