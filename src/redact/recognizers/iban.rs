//! International bank account numbers: a country code, two check digits and the country's
//! length of account characters, checked mod 97.

use super::{Hit, Spec};
use crate::redact::entity::EntityType;
use crate::redact::scan::gate::{ByteSet, Gate, RunShape};
use crate::redact::scan::runs;
use crate::redact::validate as v;

/// IBANs may be followed by more upper-case groups (`… 00 THEN`): keep exactly the country's
/// length and check that.
fn iban(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    let len = v::iban_length(m.get(..2)?)?;
    let mut seen = 0;
    let mut end = s;
    for (i, c) in m.char_indices() {
        if c != ' ' {
            seen += 1;
        }
        if seen == len {
            end = s + i + c.len_utf8();
            break;
        }
    }
    if seen < len
        || text
            .as_bytes()
            .get(end)
            .is_some_and(u8::is_ascii_alphanumeric)
    {
        return None;
    }
    v::iban(&text[s..end]).then_some(Hit {
        start: s,
        end,
        score: 1.0,
    })
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(Iban, r"\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{1,4}){3,9}\b", iban)
            // The shortest IBAN (Norway) has 15 characters; the check wants the full length.
            .gate(
                Gate::runs(RunShape {
                    alphabet: ByteSet::of(&["A-Z", "0-9", " "]),
                    seeds: &["0-9"],
                    min_seeds: 2,
                    min_len: 15,
                })
                .accepting(runs::iban)
                .seeded_where(runs::iban_seed),
            ),
    ]
}
