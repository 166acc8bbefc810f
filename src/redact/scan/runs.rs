//! Format tests for gate runs (see [`super::gate::Runs`]): each says whether a run of
//! the format's bytes can hold a match of its regex, looking only at the bytes. A run that
//! fails is not searched, so every test must hold for any run that holds a match.
//!
//! Seed tests (`*_seed`, see [`super::gate::Runs::seeded_where`]) look at one seed in its
//! text: every match must hold a seed that passes, so a run is only walked from those.

/// The lengths of the digit groups of `run`, with the separator byte that follows each.
fn groups(run: &[u8]) -> impl Iterator<Item = (usize, Option<u8>)> + '_ {
    run.split_inclusive(|c| !c.is_ascii_digit())
        .filter_map(|g| {
            let digits = g.iter().take_while(|c| c.is_ascii_digit()).count();
            (digits > 0).then(|| (digits, g.get(digits).copied()))
        })
}

/// Holds a non-ASCII byte (a letter of an internationalized e-mail address, say).
pub(crate) fn non_ascii(run: &[u8]) -> bool {
    !run.is_ascii()
}

/// `\d{3}-\d{2}-\d{4}`, `\d{3} \d{2} \d{4}` or `\d{9}`.
pub(crate) fn ssn(run: &[u8]) -> bool {
    let g: Vec<(usize, Option<u8>)> = groups(run).collect();
    g.iter().any(|&(n, _)| n == 9)
        || g.windows(3).any(|w| {
            w[0].0 == 3
                && w[1].0 == 2
                && w[2].0 == 4
                && matches!(w[0].1, Some(b'-' | b' '))
                && w[0].1 == w[1].1
        })
}

/// Two separators at least: a numeric date has three groups of digits.
pub(crate) fn date(run: &[u8]) -> bool {
    run.iter().filter(|c| !c.is_ascii_digit()).nth(1).is_some()
}

/// Three dots between digits: `(?:[0-9]{1,3}\.){3}[0-9]{1,3}`.
pub(crate) fn ipv4(run: &[u8]) -> bool {
    memchr::memchr_iter(b'.', run).nth(2).is_some()
}

/// Five `:` or five `-` (`aa:bb:cc:dd:ee:ff`), or two `.` (`aabb.ccdd.eeff`).
pub(crate) fn mac(run: &[u8]) -> bool {
    let count = |c| memchr::memchr_iter(c, run).count();
    count(b':') >= 5 || count(b'-') >= 5 || count(b'.') >= 2
}

/// Two capitals then two digits: the country code and check digits.
pub(crate) fn iban(run: &[u8]) -> bool {
    run.windows(4).any(|w| {
        w[0].is_ascii_uppercase()
            && w[1].is_ascii_uppercase()
            && w[2].is_ascii_digit()
            && w[3].is_ascii_digit()
    })
}

/// An IPv6 address has `::` or at least six colons (seven, or six before an IPv4 tail); no
/// part of a run with neither parses as one.
pub(crate) fn ipv6(run: &[u8]) -> bool {
    run.windows(2).any(|w| w == b"::") || memchr::memchr_iter(b':', run).nth(5).is_some()
}

fn hex(b: &[u8], i: usize) -> bool {
    b.get(i).is_some_and(u8::is_ascii_hexdigit)
}

fn alnum_before(b: &[u8], p: usize) -> bool {
    p > 0 && b[p - 1].is_ascii_alphanumeric()
}

/// `\b[A-Z]{2}[0-9]{2}…`: the check digits start a group right after two capitals.
pub(crate) fn iban_seed(b: &[u8], p: usize) -> bool {
    p >= 2
        && b[p - 2].is_ascii_uppercase()
        && b[p - 1].is_ascii_uppercase()
        && b.get(p + 1).is_some_and(u8::is_ascii_digit)
}

/// `\b[13]…\b`, a whole run: its first digit group starts the run with `1` or `3`.
pub(crate) fn base58_seed(b: &[u8], p: usize) -> bool {
    matches!(b[p], b'1' | b'3') && !alnum_before(b, p)
}

/// `\b(?:bc|tb)1…`: the group after `bc` or `tb` at the start of the run.
pub(crate) fn bech32_seed(b: &[u8], p: usize) -> bool {
    p >= 2 && matches!(&b[p - 2..p], b"bc" | b"tb") && b[p] == b'1' && !alnum_before(b, p - 2)
}

/// `\b0x[0-9a-fA-F]{40}\b`: the run starts with `0x`.
pub(crate) fn hex_wallet_seed(b: &[u8], p: usize) -> bool {
    b[p] == b'0' && b.get(p + 1) == Some(&b'x') && !alnum_before(b, p)
}

/// `(?:[0-9]{1,3}\.){3}[0-9]{1,3}`: the first group of the address is followed by a dot and a
/// digit.
pub(crate) fn ipv4_seed(b: &[u8], p: usize) -> bool {
    let end = p + b[p..].iter().take_while(|c| c.is_ascii_digit()).count();
    b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(u8::is_ascii_digit)
}

/// A MAC address's separators (`:`, `-`, or the dots of `xxxx.xxxx.xxxx`) have two hex digits
/// on each side.
pub(crate) fn mac_seed(b: &[u8], p: usize) -> bool {
    p >= 2 && hex(b, p - 2) && hex(b, p - 1) && hex(b, p + 1) && hex(b, p + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_hold_for_matches() {
        assert!(ssn(b"536-22-8726") && ssn(b"536 22 8726") && ssn(b"536228726"));
        assert!(!ssn(b"536-228-726") && !ssn(b"536-22 8726") && !ssn(b"12345678"));
        assert!(ipv4(b"10.0.0.1") && !ipv4(b"3.14159"));
        assert!(mac(b"aa:bb:cc:dd:ee:ff") && mac(b"aabb.ccdd.eeff") && !mac(b"2024-01-15"));
        assert!(iban(b"DE89 3704 0044 0532 0130 00") && !iban(b"1234 5678 9012 3456"));
    }
}
