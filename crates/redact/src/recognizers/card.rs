//! Credit card numbers: 12 to 19 digits, optionally grouped by spaces or dashes, passing
//! the Luhn check and a known issuer prefix.

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::scan::text::{embedded_in_token, hit};
use crate::validate as v;

fn credit_card(text: &str, s: usize, e: usize) -> Option<Hit> {
    if embedded_in_token(text, s, e) {
        return None;
    }
    if !v::credit_card(&text[s..e]) {
        // Maestro (12 to 19 digits) and the 15-digit JCB, which the issuer table leaves out.
        return other_issuer(&text[s..e]).then_some(Hit {
            start: s,
            end: e,
            score: 0.8,
        });
    }
    // Thirteen digits is an old Visa length: a number labeled as something else ("Account
    // number: 4427604555210") outweighs its one-in-ten Luhn pass.
    let digits = text[s..e].bytes().filter(u8::is_ascii_digit).count();
    hit(s, e, if digits == 13 { 0.9 } else { 1.0 })
}

/// A Maestro (50, 56–58, 6304, 6390, 67) or 15-digit JCB (1800, 2131) number passing Luhn,
/// bare or grouped in fours from the start.
fn other_issuer(m: &str) -> bool {
    let seps: Vec<u8> = m.bytes().filter(|b| !b.is_ascii_digit()).collect();
    if seps.windows(2).any(|w| w[0] != w[1])
        || (!seps.is_empty() && m.bytes().position(|b| !b.is_ascii_digit()) != Some(4))
    {
        return false;
    }
    let d: Vec<u8> = m
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let prefix = |n: usize| d[..n].iter().fold(0u32, |a, &x| a * 10 + x as u32);
    let maestro = (12..=19).contains(&d.len())
        && (matches!(prefix(2), 50 | 56..=58 | 67) || matches!(prefix(4), 6304 | 6390));
    let jcb15 = d.len() == 15 && matches!(prefix(4), 1800 | 2131);
    (maestro || jcb15) && v::luhn(&d) && d.iter().any(|&x| x != d[0])
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(CreditCard, r"\b(?:\d[ -]?){11,18}\d\b", credit_card).gate(Gate::runs(
            RunShape {
                alphabet: ByteSet::of(&["0-9", " -"]),
                seeds: &["0-9"],
                min_seeds: 12,
                min_len: 12,
            },
        )),
    ]
}

#[cfg(test)]
mod tests {
    use super::other_issuer;

    #[test]
    fn maestro_and_jcb_15() {
        assert!(other_issuer("501800000009"));
        assert!(other_issuer("6759 6498 2643 8453"));
        assert!(other_issuer("180000000000002"));
        assert!(!other_issuer("501800000008"), "Luhn");
        assert!(!other_issuer("412345678903"), "no such issuer");
    }
}
