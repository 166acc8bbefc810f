//! US social security numbers: `123-45-6789` on its own, nine bare digits only next to the
//! word "SSN" (or a like context word).

use super::{Hit, Spec};
use crate::redact::entity::EntityType;
use crate::redact::scan::gate::{ByteSet, Gate, RunShape};
use crate::redact::scan::runs;
use crate::redact::scan::text::{embedded_in_token, hit};
use crate::redact::validate as v;

fn us_ssn(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    if !v::us_ssn(m) || embedded_in_token(text, s, e) {
        return None;
    }
    // Dashed 3-2-4 is the SSN shape; bare nine digits need the word "SSN" nearby.
    hit(s, e, if m.contains('-') { 0.85 } else { 0.3 })
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
        .accepting(runs::ssn),
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
