//! US military and diplomatic mail (USPS Publication 28): a unit and box, or a ship, then
//! APO, FPO or DPO, the "state" AA, AE or AP and a ZIP code ("PSC 2322, Box 6025 / APO AE
//! 09012", "Unit 9010 Box 4328 / DPO AP 96520", "USNS Comfort / FPO AE 09577"). Such an address
//! has no street, so neither the street patterns nor the model see it.

use crate::entity::EntityType::Address;
use crate::recognizers::Spec;
use crate::scan::gate::Gate;
use crate::scan::text::hit;

/// The spec, listed with the regex recognizers. ASCII classes only: ship names are written in
/// ASCII, and Unicode-aware case folding would cost every redactor a much larger automaton.
pub(crate) fn specs() -> Vec<Spec> {
    vec![Spec::new(
        Address,
        r"(?i-u)\b(?:(?:psc|unit|cmr)[ \t]+[0-9]{1,5},?[ \t]+box[ \t]+[0-9]{1,5}|(?:uss|usns|usnv|uscgc|usav)[ \t]+[a-z][a-z'\-]*(?:[ \t]+[a-z][a-z'\-]*){0,2}),?[ \t\r\n]*(?:apo|fpo|dpo)[ \t]+a[aep][ \t]+[0-9]{5}(?:-[0-9]{4})?\b",
        |_, s, e| hit(s, e, 0.9),
    )
    .gate(Gate::Near {
        words: &["apo", "fpo", "dpo"],
        back: 5,
        ahead: 3,
        test: None,
    })]
}
