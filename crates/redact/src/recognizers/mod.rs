//! Recognizers: everything that turns text into scored candidate spans. Each family (a file or
//! a folder here) knows one kind of value; the engine they share, which knows none, is in
//! [`crate::scan`]. [`registry`] lists them all, and [`Recognizers`] runs the ones a
//! redactor enables.
//!
//! Most families are regex formats with a shape and a checksum (`email`, `phone`, `card`, …):
//! they list [`regexes::Spec`]s, which one table runs. [`person`], [`address`] and
//! [`national`] read words, shapes and checksums their own way and implement [`Recognizer`]
//! themselves. `README.md` here shows how to add one.

pub mod address;
mod api_key;
mod birth_date;
mod card;
mod crypto;
mod email;
mod iban;
mod ip;
mod jwt;
mod labeled;
mod mac;
pub(crate) mod national;
mod password;
pub mod person;
mod phone;
mod phone_plans;
mod private_key;
pub(crate) mod regexes;
pub(crate) mod registry;
mod ssn;
mod url;

use super::config::{RedactorConfig, DEFAULT_MIN_SCORE};
use super::entity::EntityType;
pub use crate::scan::byte_classes_agree;
pub(crate) use crate::scan::classes::classify;
pub(crate) use crate::scan::context::has_context;
use crate::scan::prescan::{Needs, Prescan};
pub use crate::scan::text::Hit;
use llm_memory_core::error::Result;
use regexes::Regexes;
pub(crate) use regexes::Spec;
pub(crate) use registry::key_literals;
use registry::{Entry, REGISTRY};

/// One family of recognizers, made for the entity types a redactor enables.
pub(crate) trait Recognizer: Send + Sync {
    /// The entity types it can report.
    fn kinds(&self) -> Vec<EntityType>;

    /// What it reads of each text's [`Prescan`]; the rest is not computed for it, so a
    /// disabled type costs nothing.
    fn needs(&self) -> Needs;

    /// Pushes its candidates in `text` (scored, context applied) onto `out`.
    fn scan(&self, text: &str, pre: &Prescan, out: &mut Vec<Candidate>);

    /// [`Recognizer::scan`] without shortcuts (gates, value readers), over a whole prescan:
    /// what `scan` must equal, for the tests.
    fn scan_reference(&self, text: &str, pre: &Prescan, out: &mut Vec<Candidate>) {
        self.scan(text, pre, out);
    }
}

/// A candidate finding before overlaps are resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub kind: EntityType,
    pub start: usize,
    pub end: usize,
    pub score: f32,
}

/// The recognizers of one redactor.
pub struct Recognizers {
    /// The regex table first, then the registry's other families in order.
    families: Vec<Box<dyn Recognizer>>,
    /// What the enabled recognizers read of each text's prescan.
    needs: Needs,
}

impl Recognizers {
    pub fn new(config: &RedactorConfig) -> Result<Recognizers> {
        let min_score = config.min_score.unwrap_or(DEFAULT_MIN_SCORE);
        let regexes: Box<dyn Recognizer> =
            Box::new(Regexes::new(config, min_score, registry::built_in())?);
        let enabled = |kind: &EntityType| config.enables(kind);
        let others = REGISTRY.iter().filter_map(|entry| match entry {
            Entry::Family(make) => make(&enabled),
            Entry::Specs(_) => None,
        });
        let families: Vec<Box<dyn Recognizer>> = std::iter::once(regexes).chain(others).collect();
        let needs = families
            .iter()
            .map(|f| f.needs())
            .fold(Needs::NONE, Needs::or);
        Ok(Recognizers { families, needs })
    }

    /// The entity types the enabled recognizers can report, each once.
    pub fn kinds(&self) -> Vec<EntityType> {
        let mut kinds: Vec<EntityType> = Vec::new();
        for kind in self.families.iter().flat_map(|f| f.kinds()) {
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        kinds
    }

    /// Every candidate in `text`, scored, context applied, overlaps not yet resolved.
    pub fn scan(&self, text: &str) -> Vec<Candidate> {
        self.scan_with(text, true)
    }

    /// `gated: false` runs each recognizer's reference scan over a whole prescan: what the
    /// gates (and the parts of the prescan they read) must equal.
    fn scan_with(&self, text: &str, gated: bool) -> Vec<Candidate> {
        let mut out = Vec::new();
        let needs = if gated { self.needs } else { Needs::ALL };
        let pre = Prescan::with(text, needs, key_literals());
        for family in &self.families {
            if gated {
                family.scan(text, &pre, &mut out);
            } else {
                family.scan_reference(text, &pre, &mut out);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(String, String)> {
        let r = Recognizers::new(&RedactorConfig::default()).unwrap();
        let mut v: Vec<(String, String)> = r
            .scan(text)
            .into_iter()
            .filter(|c| c.score >= 0.5)
            .map(|c| (c.kind.to_string(), text[c.start..c.end].to_string()))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn context_words_lift_weak_matches() {
        assert!(kinds("ref 536228726 attached")
            .iter()
            .all(|(k, _)| k != "US_SSN"));
        assert!(
            kinds("my SSN is 536228726").contains(&("US_SSN".to_string(), "536228726".to_string()))
        );
        assert!(kinds("meeting on 03/04/1987")
            .iter()
            .all(|(k, _)| k != "DATE_OF_BIRTH"));
        assert!(kinds("I was born on 03/04/1987")
            .contains(&("DATE_OF_BIRTH".to_string(), "03/04/1987".to_string())));
    }

    pub(crate) use crate::scan::gate_texts::gate_texts;

    #[test]
    fn gates_find_what_the_whole_text_finds() {
        let r = Recognizers::new(&RedactorConfig::default()).unwrap();
        for text in gate_texts() {
            let gated = kept(r.scan_with(&text, true));
            let whole = kept(r.scan_with(&text, false));
            assert_eq!(gated, whole, "{text:?}");
        }
    }

    /// A redactor limited to some types reads only part of the prescan and finds the same.
    #[test]
    fn limited_types_find_what_the_whole_prescan_finds() {
        let five = r#"{"types": ["PERSON", "EMAIL", "PHONE", "CREDIT_CARD", "US_SSN"]}"#;
        let configs = EntityType::BUILT_IN
            .iter()
            .map(|t| format!(r#"{{"types": ["{t}"]}}"#))
            .chain([five.to_string()]);
        let texts = gate_texts();
        for config in configs {
            let r = Recognizers::new(&RedactorConfig::from_json(&config).unwrap()).unwrap();
            assert_ne!(r.needs, Needs::ALL, "{config}");
            for text in &texts {
                let part = kept(r.scan_with(text, true));
                let whole = kept(r.scan_with(text, false));
                assert_eq!(part, whole, "{config} {text:?}");
            }
        }
    }

    /// The candidates a redaction keeps, in order: gates may skip matches their check rejects
    /// or scores too low to keep.
    fn kept(mut v: Vec<Candidate>) -> Vec<Candidate> {
        v.retain(|c| c.score >= DEFAULT_MIN_SCORE);
        v.sort_by(|a, b| (a.start, a.end, &a.kind).cmp(&(b.start, b.end, &b.kind)));
        v
    }

    use proptest::prelude::*;

    proptest! {
        /// Generated text made of the pieces gates and seed tests look at (digit groups,
        /// capitals before digits, separators, wallet and key prefixes, keywords, Unicode
        /// spaces): the gated scan finds what the whole-text scan finds.
        #[test]
        fn gates_agree_on_generated_text(
            parts in proptest::collection::vec(prop_oneof![
                Just("4111"), Just("1111"),
                Just("12"), Just("7"),
                Just("2024"), Just("1987"),
                Just("DE89"), Just("GB"),
                Just("3704"), Just("ab"),
                Just("0x"), Just("bc1"),
                Just("1A"), Just("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"),
                Just("fe80"), Just("::"),
                Just(":"), Just("."),
                Just("-"), Just("/"),
                Just(" "), Just("\u{a0}"),
                Just("\n"), Just("+44 "),
                Just("(555) "), Just("ext. "),
                Just("born "), Just("SSN "),
                Just("March "), Just("token="),
                Just("Bearer "), Just("my pin is "),
                Just("@x.io"), Just("Main Street"),
                Just("é"), Just("_"),
                Just("user"), Just("login"),
            ], 0..40)
        ) {
            let r = Recognizers::new(&RedactorConfig::default()).unwrap();
            let text = parts.concat();
            let gated = kept(r.scan_with(&text, true));
            let whole = kept(r.scan_with(&text, false));
            prop_assert_eq!(gated, whole, "{:?}", text);
        }
    }

    #[test]
    fn bad_custom_regex_is_invalid_pattern() {
        let config =
            RedactorConfig::from_json(r#"{"patterns":[{"name":"T","regex":"(unclosed"}]}"#)
                .unwrap();
        let err = Recognizers::new(&config).err().unwrap();
        assert_eq!(err.code, llm_memory_core::error::ErrorCode::InvalidPattern);
    }
}
