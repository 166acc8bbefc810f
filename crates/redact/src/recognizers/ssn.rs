//! US social security numbers: `123-45-6789` on its own, nine bare digits only next to the
//! word "SSN" (or a like context word).

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::scan::text::{embedded_in_token, hit};
use crate::validate as v;

fn us_ssn(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    if !v::us_ssn(m) || embedded_in_token(text, s, e) {
        return None;
    }
    // Dashed 3-2-4 is the SSN shape; bare nine digits need the word "SSN" nearby.
    hit(s, e, if m.contains('-') { 0.85 } else { 0.3 })
}

// What a gate run (or seed) must look like to hold a match, looking only at its bytes
// (see `Runs::accepting` and `Runs::seeded_where` in `scan/gate.rs`).

/// The lengths of the digit groups of `run`, with the separator byte that follows each.
fn groups(run: &[u8]) -> impl Iterator<Item = (usize, Option<u8>)> + '_ {
    run.split_inclusive(|c| !c.is_ascii_digit())
        .filter_map(|g| {
            let digits = g.iter().take_while(|c| c.is_ascii_digit()).count();
            (digits > 0).then(|| (digits, g.get(digits).copied()))
        })
}

/// `\d{3}-\d{2}-\d{4}`, `\d{3} \d{2} \d{4}` or `\d{9}`.
fn ssn_run(run: &[u8]) -> bool {
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

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![Spec::new(
        UsSsn,
        r"\b(?:\d{3}-\d{2}-\d{4}|\d{3} \d{2} \d{4}|\d{9})\b",
        us_ssn,
    )
    .gate(
        Gate::runs(RunShape {
            alphabet: ByteSet::of(&["0-9", " -"]),
            seeds: &["0-9"],
            min_seeds: 9,
            min_len: 9,
        })
        .accepting(ssn_run),
    )
    .context(&[
        "ssn",
        "social security",
        "social-security",
        "ss#",
        "ss #",
        "taxpayer",
        "tin",
    ])
    .boost(0.5)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_tests_hold_for_matches() {
        assert!(ssn_run(b"536-22-8726") && ssn_run(b"536 22 8726") && ssn_run(b"536228726"));
        assert!(!ssn_run(b"536-228-726") && !ssn_run(b"536-22 8726") && !ssn_run(b"12345678"));
    }
}
