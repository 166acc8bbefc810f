//! Format tests for gate runs (see [`super::gate::Gate::Runs`]): each says whether a run of
//! the format's bytes can hold a match of its regex, looking only at the bytes. A run that
//! fails is not searched, so every test must hold for any run that holds a match.

/// The lengths of the digit groups of `run`, with the separator byte that follows each.
fn groups(run: &[u8]) -> impl Iterator<Item = (usize, Option<u8>)> + '_ {
    run.split_inclusive(|c| !c.is_ascii_digit())
        .filter_map(|g| {
            let digits = g.iter().take_while(|c| c.is_ascii_digit()).count();
            (digits > 0).then(|| (digits, g.get(digits).copied()))
        })
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
