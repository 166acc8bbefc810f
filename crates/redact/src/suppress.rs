//! The one suppression stage of redaction. Every candidate, whoever found it (a recognizer,
//! the vault seeing a value it holds again, the PII model), passes the same checks here, once
//! per text: its type is one this redactor redacts, the app's `allowList` does not name it, a
//! name is not a public figure's, the one the message speaks to or a quoted sample in a message
//! about test data (the text's [`TextContext`], read once), and it clears its
//! source's threshold (`minScore` for the rules; the model's own threshold was applied when
//! it tagged). A model span that cuts into a rule's structured finding (an
//! e-mail, a card, an IBAN: a shape a validator checked) gives way to it.

use crate::config::RedactorConfig;
use crate::entity::EntityType;
use crate::model;
use crate::text_context::TextContext;
use crate::{Detected, Source};
use std::collections::HashSet;

pub(crate) struct Suppression<'a> {
    pub config: &'a RedactorConfig,
    /// The `allowList`, trimmed and lower-cased.
    pub allow: &'a HashSet<String>,
    pub min_score: f32,
}

impl Suppression<'_> {
    /// The candidates that stay, rules' first, each source in the order it gave them.
    pub fn apply(&self, text: &str, context: &TextContext, found: Vec<Detected>) -> Vec<Detected> {
        let (rules, models): (Vec<Detected>, Vec<Detected>) =
            found.into_iter().partition(|d| d.source == Source::Rule);
        let mut kept: Vec<Detected> = rules
            .into_iter()
            .filter(|d| self.passes(text, context, d) && d.candidate.score >= self.min_score)
            .collect();
        let structured: Vec<(usize, usize)> = kept
            .iter()
            .filter(|d| model::is_structured(&d.candidate.kind))
            .map(|d| (d.candidate.start, d.candidate.end))
            .collect();
        let cuts_into = |d: &Detected| {
            let c = &d.candidate;
            structured.iter().any(|&(s, e)| c.start < e && s < c.end)
        };
        kept.extend(
            models
                .into_iter()
                .filter(|d| self.passes(text, context, d) && !cuts_into(d)),
        );
        kept
    }

    /// The checks every candidate passes alike: an enabled type, not allowed by the app, not
    /// a public figure's name, the name the message speaks to or a quoted sample.
    fn passes(&self, text: &str, context: &TextContext, d: &Detected) -> bool {
        let c = &d.candidate;
        self.enabled(&c.kind)
            && (self.allow.is_empty() || !self.allow.contains(&text[c.start..c.end].to_lowercase()))
            && !(c.kind == EntityType::Person && context.clears_name(c.start, c.end))
    }

    /// Whether this redactor redacts `kind`: a custom type while its pattern is configured
    /// (a vault kept from other options may hold others), a built-in one while `types` has it.
    fn enabled(&self, kind: &EntityType) -> bool {
        match kind {
            EntityType::Custom(name) => self.config.patterns.iter().any(|p| &p.name == name),
            built_in => self.config.enables(built_in),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recognizers::Candidate;

    fn found(
        kind: EntityType,
        (start, end): (usize, usize),
        score: f32,
        source: Source,
    ) -> Detected {
        Detected {
            candidate: Candidate {
                kind,
                start,
                end,
                score,
            },
            source,
        }
    }

    fn kept(config: &RedactorConfig, text: &str, all: Vec<Detected>) -> Vec<(String, Source)> {
        let allow: HashSet<String> = config.allow_list.iter().map(|a| a.to_lowercase()).collect();
        let s = Suppression {
            config,
            allow: &allow,
            min_score: 0.5,
        };
        (s.apply(text, &TextContext::of(text), all).into_iter())
            .map(|d| {
                (
                    text[d.candidate.start..d.candidate.end].to_string(),
                    d.source,
                )
            })
            .collect()
    }

    #[test]
    fn every_source_passes_the_same_checks() {
        let text = "Ann Lee ann@x.io Bob Ray";
        let config = RedactorConfig {
            allow_list: vec!["BOB RAY".into()],
            ..Default::default()
        };
        let all = vec![
            found(EntityType::Person, (0, 7), 0.9, Source::Rule),
            found(EntityType::Email, (8, 16), 1.0, Source::Rule),
            found(EntityType::Person, (17, 24), 0.9, Source::Rule),
            found(EntityType::Person, (17, 24), 0.99, Source::Model),
            // The model's span runs into the e-mail a validator checked: it gives way.
            found(EntityType::Person, (4, 10), 0.99, Source::Model),
            // Under minScore: the rules' threshold, not the model's.
            found(EntityType::Person, (0, 3), 0.3, Source::Rule),
            found(EntityType::Person, (0, 3), 0.3, Source::Model),
        ];
        let kept = kept(&config, text, all);
        assert_eq!(
            kept,
            [
                ("Ann Lee".to_string(), Source::Rule),
                ("ann@x.io".to_string(), Source::Rule),
                ("Ann".to_string(), Source::Model),
            ]
        );
    }

    #[test]
    fn a_type_left_out_of_types_is_dropped_whoever_found_it() {
        let text = "Ann Lee at ann@x.io";
        let config = RedactorConfig {
            types: Some(vec![EntityType::Email]),
            ..Default::default()
        };
        let all = vec![
            found(EntityType::Person, (0, 7), 0.9, Source::Rule),
            found(EntityType::Person, (0, 7), 0.9, Source::Model),
            found(EntityType::Email, (11, 19), 1.0, Source::Rule),
            found(
                EntityType::Custom("TICKET".into()),
                (0, 3),
                1.0,
                Source::Rule,
            ),
        ];
        let kept = kept(&config, text, all);
        assert_eq!(kept, [("ann@x.io".to_string(), Source::Rule)]);
    }

    #[test]
    fn a_public_figure_is_dropped_whoever_found_it_and_whatever_the_cue() {
        let text = "Hi Elizabeth Bennet, tell Ann Lee about Mr. Darcy";
        let at = |w: &str| {
            let s = text.find(w).unwrap();
            (s, s + w.len())
        };
        let all = vec![
            // A cue ("Hi") does not make a listed figure private.
            found(
                EntityType::Person,
                at("Elizabeth Bennet"),
                0.7,
                Source::Rule,
            ),
            found(
                EntityType::Person,
                at("Elizabeth Bennet"),
                0.9,
                Source::Model,
            ),
            found(EntityType::Person, at("Bennet"), 1.0, Source::Rule),
            found(EntityType::Person, at("Ann Lee"), 0.7, Source::Rule),
            found(EntityType::Person, at("Mr. Darcy"), 0.85, Source::Rule),
            found(EntityType::Person, at("Darcy"), 0.9, Source::Model),
            // Only names: another type on the same words stays.
            found(EntityType::Address, at("Mr. Darcy"), 0.9, Source::Model),
        ];
        let config = RedactorConfig::default();
        let kept: Vec<String> = kept(&config, text, all).into_iter().map(|k| k.0).collect();
        assert_eq!(kept, ["Ann Lee", "Mr. Darcy"]);
    }
}
