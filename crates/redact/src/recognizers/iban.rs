//! International bank account numbers: a country code, two check digits and the country's
//! length of account characters, checked mod 97.

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::validate as v;

/// IBANs may be followed by more upper-case groups (`… 00 THEN`): keep exactly the country's
/// length and check that.
fn iban(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    let len = v::iban_length(&m.get(..2)?.to_ascii_uppercase())?;
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

// What a gate run (or seed) must look like to hold a match, looking only at its bytes
// (see `Runs::accepting` and `Runs::seeded_where` in `scan/gate.rs`).

/// Two letters of one case then two digits: the country code and check digits.
fn country_and_check(run: &[u8], case: fn(&u8) -> bool) -> bool {
    run.windows(4)
        .any(|w| case(&w[0]) && case(&w[1]) && w[2].is_ascii_digit() && w[3].is_ascii_digit())
}

/// The check digits at `p`, right after two letters of one case, with another digit after.
fn check_after_country(b: &[u8], p: usize, case: fn(&u8) -> bool) -> bool {
    p >= 2 && case(&b[p - 2]) && case(&b[p - 1]) && b.get(p + 1).is_some_and(u8::is_ascii_digit)
}

fn iban_run(run: &[u8]) -> bool {
    country_and_check(run, u8::is_ascii_uppercase)
}

/// `\b[A-Z]{2}[0-9]{2}…`: the check digits start a group right after two capitals.
fn iban_seed(b: &[u8], p: usize) -> bool {
    check_after_country(b, p, u8::is_ascii_uppercase)
}

fn lower_run(run: &[u8]) -> bool {
    country_and_check(run, u8::is_ascii_lowercase)
}

/// `\b[a-z]{2}[0-9]{2}…`: as [`iban_seed`], where the two letters also start the run.
fn lower_seed(b: &[u8], p: usize) -> bool {
    check_after_country(b, p, u8::is_ascii_lowercase)
        && (p == 2 || !b[p - 3].is_ascii_alphanumeric())
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
                .accepting(iban_run)
                .seeded_where(iban_seed),
            ),
        // An IBAN typed or pasted in lower case ("gb82west12345698765432"): compact only, since
        // lower-case words in groups of four are prose far more often than an account. The
        // mod-97 check reads letters in either case.
        Spec::new(Iban, r"\b[a-z]{2}[0-9]{2}[a-z0-9]{11,30}\b", iban).gate(
            Gate::runs(RunShape {
                alphabet: ByteSet::of(&["a-z", "0-9"]),
                seeds: &["0-9"],
                min_seeds: 2,
                min_len: 15,
            })
            .accepting(lower_run)
            .seeded_where(lower_seed),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_tests_hold_for_matches() {
        assert!(iban_run(b"DE89 3704 0044 0532 0130 00") && !iban_run(b"1234 5678 9012 3456"));
        assert!(lower_run(b"gb82west12345698765432") && !lower_run(b"GB82WEST12345698765432"));
    }
}
