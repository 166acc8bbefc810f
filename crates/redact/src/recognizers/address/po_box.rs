//! Post office boxes ("PO Box 4567", "P.O. Box 123", "Post Office Box 9", "Postfach 10 12 34",
//! "Apartado de Correos 45"): an address with no street, which the street patterns of
//! [`super::address`] cannot see.

use crate::entity::EntityType::Address;
use crate::recognizers::Spec;
use crate::scan::gate::Gate;
use crate::scan::prescan::skip_space;
use crate::scan::text::hit;
use crate::scan::text::starts_ci;

/// The spec, listed with the regex recognizers.
pub(crate) fn specs() -> Vec<Spec> {
    vec![
    Spec::new(
        Address,
        r"\b(?:(?i:p\.?[^\S\n]?o\.?)[^\S\n]*(?i:box)|(?i:post[^\S\n]+office[^\S\n]+box)|(?i:postfach)|(?i:apartado)(?:[^\S\n]+(?i:de[^\S\n]+correos))?)[^\S\n]*(?:#|(?i:no\.?))?[^\S\n]*[0-9]{1,6}(?:[ ][0-9]{2}){0,2}\b",
        |_, s, e| hit(s, e, 0.85),
    )
    .gate(Gate::Near {
        words: &["p", "post", "apartado"],
        back: 0,
        ahead: 6,
        test: Some(names_box),
    })]
}

/// Whether a box's label starts at `at`, as every match of the pattern does: "p", an optional
/// dot, an optional space, "o", then "box" after white space and dots, or "post office box",
/// "postfach", "apartado". Most words starting with "p" or "post" are none of these.
fn names_box(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let is = |i: usize, w: &str| starts_ci(text, i, w);
    if is(at, "postfach") || is(at, "apartado") {
        return true;
    }
    if is(at, "post") {
        let office = skip_space(text, at + 4);
        return office > at + 4 && is(office, "office");
    }
    // "p", ".", " ", "o", ".": each optional but the letters.
    let mut i = at + 1;
    i += (b.get(i) == Some(&b'.')) as usize;
    // One white-space character of any kind but a line feed (`[^\S\n]?`).
    if let Some(c) = text.get(i..).and_then(|t| t.chars().next()) {
        i += if c.is_whitespace() && c != '\n' {
            c.len_utf8()
        } else {
            0
        };
    }
    if !b.get(i).is_some_and(|c| c.eq_ignore_ascii_case(&b'o')) {
        return false;
    }
    i += 1;
    i += (b.get(i) == Some(&b'.')) as usize;
    is(skip_space(text, i), "box")
}
