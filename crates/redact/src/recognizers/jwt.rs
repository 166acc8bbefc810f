//! JSON web tokens: three base64url parts whose first two decode to JSON.

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::validate as v;

fn jwt(text: &str, s: usize, e: usize) -> Option<Hit> {
    v::jwt(&text[s..e]).then_some(Hit {
        start: s,
        end: e,
        score: 0.95,
    })
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![Spec::new(
        Jwt,
        r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        jwt,
    )
    .gate(
        Gate::runs(RunShape {
            alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "_.-"]),
            seeds: &["."],
            min_seeds: 2,
            min_len: 30,
        })
        .containing(&["eyJ"]),
    )]
}
