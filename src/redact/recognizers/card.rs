//! Credit card numbers: 13 to 19 digits, optionally grouped by spaces or dashes, passing
//! the Luhn check and a known issuer prefix.

use super::{Hit, Spec};
use crate::redact::entity::EntityType;
use crate::redact::scan::gate::{ByteSet, Gate, RunShape};
use crate::redact::scan::text::{embedded_in_token, hit};
use crate::redact::validate as v;

fn credit_card(text: &str, s: usize, e: usize) -> Option<Hit> {
    if !v::credit_card(&text[s..e]) || embedded_in_token(text, s, e) {
        return None;
    }
    // Thirteen digits is an old Visa length: a number labeled as something else ("Account
    // number: 4427604555210") outweighs its one-in-ten Luhn pass.
    let digits = text[s..e].bytes().filter(u8::is_ascii_digit).count();
    hit(s, e, if digits == 13 { 0.9 } else { 1.0 })
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(CreditCard, r"\b(?:\d[ -]?){12,18}\d\b", credit_card).gate(Gate::runs(
            RunShape {
                alphabet: ByteSet::of(&["0-9", " -"]),
                seeds: &["0-9"],
                min_seeds: 13,
                min_len: 13,
            },
        )),
    ]
}
