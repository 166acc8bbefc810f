//! Client-side redaction of personal data and secrets, reversible through an on-device vault.
//!
//! [`Redactor::redact`] finds sensitive spans (see [`recognizers`]), resolves overlaps, and
//! replaces each with a placeholder such as `[EMAIL_1]` that the [`Vault`] maps back to the
//! value. [`Redactor::restore`] and [`StreamRestorer`] put the values back into model replies.
//! The module is sans-IO and JS-free: the binding in `bindings/redactor.rs` only converts types.
//!
//! Guarantee: for any input `x`, `restore(redact(x).text) == x` with the same redactor. User text
//! that already looks like a placeholder is escaped (see [`placeholder`]) so it is never confused
//! with one.

pub mod config;
mod egress;
pub mod entity;
mod lexicon;
pub mod model;
mod packed;
mod pipeline;
mod recipient;
pub mod recognizers;
mod repeats;
mod scan;
mod suppress;
pub mod text_context;
mod utf16;
pub mod validate;
pub mod vault;
pub mod word_lists;

/// The TypeScript of the Redactor's options and results, for the JS face's `.d.ts`.
pub const TYPESCRIPT_API: &str = include_str!("redactor.d.ts");
#[cfg(test)]
mod typescript_tests;

pub use config::{CustomPattern, Mode, ModelOption, RedactorConfig, DEFAULT_MIN_SCORE};
pub use egress::Counts;
pub use entity::EntityType;
pub use model::DEFAULT_MODEL_THRESHOLD;
pub use utf16::utf16_len;
pub use vault::placeholder;
pub use vault::placeholder::StreamRestorer;
pub use vault::{KnownValues, Vault, VaultEntry};
pub use word_lists::WordLists;

/// The stored records redaction owns, checked when a session document is imported: a vault
/// that restores wrong or empty values is worse than none, so it is refused whole.
pub const RECORD_CHECKS: &[llm_memory_core::store::document::RecordCheck] = &[(
    llm_memory_core::store::records::kind::VAULT,
    Vault::check_value,
)];

use llm_memory_core::error::Result;
use placeholder::Grammar;
use recognizers::{Candidate, Recognizers};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use utf16::Utf16Cursor;

/// One redacted span. Offsets are UTF-16 code units into the *input*, as JS strings index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    #[serde(rename = "type")]
    pub kind: EntityType,
    pub start: usize,
    pub end: usize,
    /// What replaced the value: `[EMAIL_1]`, or `[EMAIL]` in mask mode.
    pub placeholder: String,
    pub score: f32,
    /// What found the value: the rules or the PII model.
    pub source: Source,
    /// Where the placeholder starts in the redacted text (UTF-16), so a binding can hand it
    /// out as a slice of that text instead of a string of its own.
    #[serde(skip)]
    pub output_start: usize,
}

/// What found a value: a rule (a recognizer, or the vault knowing the value) or the PII model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Rule,
    Model,
}

/// A candidate with what found it.
#[derive(Debug, Clone, PartialEq)]
pub struct Detected {
    pub candidate: Candidate,
    pub source: Source,
}

/// The result of [`Redactor::redact`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Redaction {
    pub text: String,
    pub findings: Vec<Finding>,
    /// Whether text that looked like a placeholder was escaped: when not, `text` is the input
    /// with each finding's span replaced by its placeholder.
    #[serde(skip)]
    pub escaped: bool,
}

impl Redaction {
    /// How many values of each type were redacted: what a context report may show (never the
    /// values themselves).
    pub fn counts(&self) -> BTreeMap<String, usize> {
        let mut counts = BTreeMap::new();
        for f in &self.findings {
            *counts.entry(f.kind.to_string()).or_insert(0) += 1;
        }
        counts
    }
}

/// Detects and replaces sensitive data. Compile once per session: construction compiles every
/// regex, and the vault it carries keeps placeholders stable across turns.
#[derive(Clone)]
pub struct Redactor {
    config: RedactorConfig,
    recognizers: Arc<Recognizers>,
    grammar: Grammar,
    allow: HashSet<String>,
    min_score: f32,
    vault: Vault,
    /// The PII model with its cache of spans per text, shared by clones.
    model: Option<Arc<model::ModelPass>>,
    /// The large word lists: the model file's, or none ([`word_lists`]).
    word_lists: Arc<WordLists>,
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redactor")
            .field("config", &self.config)
            .field("vault_entries", &self.vault.len())
            .finish()
    }
}

impl Redactor {
    /// Fails with `INVALID_OPTION` for a bad option and `INVALID_PATTERN` for a custom regex
    /// that does not compile.
    pub fn new(config: RedactorConfig) -> Result<Redactor> {
        config.check()?;
        let recognizers = Arc::new(Recognizers::new(&config)?);
        let grammar = Grammar::new(config.placeholder_stems());
        let allow = config
            .allow_list
            .iter()
            .map(|a| a.trim().to_lowercase())
            .collect();
        let min_score = config.min_score.unwrap_or(DEFAULT_MIN_SCORE);
        let model = config.model.as_ref().map(|m| {
            let threshold = config.model_threshold.unwrap_or(DEFAULT_MODEL_THRESHOLD);
            Arc::new(model::ModelPass::new(m.0.clone(), threshold))
        });
        let word_lists = match &config.model {
            Some(m) => Arc::new(WordLists::from_texts(m.0.model().word_lists())),
            None => Arc::new(WordLists::default()),
        };
        Ok(Redactor {
            config,
            recognizers,
            grammar,
            allow,
            min_score,
            vault: Vault::new(),
            model,
            word_lists,
        })
    }

    /// The same redactor reading `lists` instead of its model file's (natively: a rules-only
    /// redactor given the repository's lists, [`WordLists::of_this_repository`]).
    pub fn with_word_lists(mut self, lists: Arc<WordLists>) -> Redactor {
        self.word_lists = lists;
        self
    }

    /// The large word lists this redactor reads.
    pub fn word_lists(&self) -> &Arc<WordLists> {
        &self.word_lists
    }

    pub fn config(&self) -> &RedactorConfig {
        &self.config
    }

    /// Replaces every detected value. In placeholder mode new values are added to the vault.
    pub fn redact(&mut self, text: &str) -> Redaction {
        let lists = self.word_lists.clone();
        word_lists::using(&lists, || self.redact_with_lists_in_use(text))
    }

    fn redact_with_lists_in_use(&mut self, text: &str) -> Redaction {
        let spans = self.detect_with_source(text);
        let names: Vec<&str> = spans
            .iter()
            .filter(|d| d.candidate.kind == EntityType::Person)
            .map(|d| &text[d.candidate.start..d.candidate.end])
            .collect();
        let mut out = String::with_capacity(text.len() + spans.len() * 8);
        let mut findings = Vec::with_capacity(spans.len());
        let mut utf16 = Utf16Cursor::new(text);
        let mut copied = 0;
        let mut escaped = false;
        // The redacted text's length so far in UTF-16 (placeholders are ASCII).
        let mut out16 = 0;
        for Detected {
            candidate: c,
            source,
        } in spans
        {
            let escaped_from = out.len();
            escaped |= self.grammar.escape_into(&text[copied..c.start], &mut out);
            out16 += utf16_len(&out.as_bytes()[escaped_from..]);
            let value = &text[c.start..c.end];
            let placeholder = match self.config.mode {
                Mode::Placeholder => self.vault.placeholder_for_in_text(&c.kind, value, &names),
                Mode::Mask => format!("[{}]", c.kind),
            };
            out.push_str(&placeholder);
            let output_start = out16;
            out16 += placeholder.len();
            if self.config.mode == Mode::Placeholder
                && Grammar::mark_after(&text[c.end..], &mut out)
            {
                out16 += 1;
                escaped = true;
            }
            findings.push(Finding {
                start: utf16.at(c.start),
                end: utf16.at(c.end),
                kind: c.kind,
                placeholder,
                score: (c.score * 100.0).round() / 100.0,
                source,
                output_start,
            });
            copied = c.end;
        }
        escaped |= self.grammar.escape_into(&text[copied..], &mut out);
        Redaction {
            text: out,
            findings,
            escaped,
        }
    }

    /// The non-overlapping spans that will be replaced, in text order (byte offsets): what the
    /// recognizers find, and values the vault already holds wherever they occur again.
    pub fn detect(&self, text: &str) -> Vec<Candidate> {
        self.detect_with_source(text)
            .into_iter()
            .map(|d| d.candidate)
            .collect()
    }

    /// [`Redactor::detect`] with what found each span. The candidates of every source (the
    /// recognizers, the vault's values seen again, the model's names, addresses and numbers)
    /// pass one suppression stage (`suppress.rs`); a name line heading a kept address is
    /// added (`recipient.rs`, through the same stage); then one edge rule for names; the
    /// parts of a found name standing again are added (`repeats.rs`, through the same stage);
    /// then overlaps are resolved.
    pub fn detect_with_source(&self, text: &str) -> Vec<Detected> {
        word_lists::using(&self.word_lists, || self.detect_with_lists_in_use(text))
    }

    /// The PII model this redactor runs, if any.
    pub fn model(&self) -> Option<&Arc<llm_memory_encoder::Tagger>> {
        self.model.as_ref().map(|m| m.tagger())
    }

    /// Puts vault values back in place of placeholders (tolerating `email_1`, missing brackets)
    /// and un-escapes user text that looked like a placeholder.
    pub fn restore(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        self.grammar
            .restore_into(text, true, false, &self.vault, &mut out);
        out
    }

    /// A restorer for a reply streamed in chunks, against a snapshot of the current vault.
    pub fn stream_restorer(&self) -> StreamRestorer {
        StreamRestorer::new(self.grammar.clone(), self.vault.clone())
    }

    pub fn vault(&self) -> &Vault {
        &self.vault
    }

    /// Removes the vault values `removed_texts` held (all with `None`) that none of
    /// `kept_texts` holds (see [`Vault::erase_unreferenced`]).
    pub fn erase_vault_values<'a>(
        &mut self,
        removed_texts: Option<&[&str]>,
        kept_texts: impl IntoIterator<Item = &'a str>,
    ) -> vault::Erased {
        self.vault.erase_unreferenced(removed_texts, kept_texts)
    }

    /// Takes over the erasures recorded in another tab's copy of the vault; returns the entries
    /// removed here.
    pub fn adopt_vault_erasures(&mut self, other: &Vault) -> Vec<VaultEntry> {
        self.vault.adopt_erasures(other)
    }

    /// Takes the new entries of another tab's vault of the same session (see [`Vault::merge`]);
    /// returns how many.
    pub fn merge_vault(&mut self, other: &Vault) -> usize {
        let mut vault = std::mem::take(&mut self.vault);
        let added = vault.merge(other);
        self.set_vault(vault);
        added
    }

    /// Replaces the vault, e.g. with one loaded from storage for a resumed session. Types it
    /// holds that this redactor does not detect (a custom pattern since removed) join the
    /// placeholder grammar, so their placeholders still restore.
    pub fn set_vault(&mut self, vault: Vault) {
        let mut stems = self.config.placeholder_stems();
        let known = stems.len();
        for kind in vault.kinds() {
            if !stems[..known].iter().any(|s| s == kind) {
                stems.push(kind.to_string());
            }
        }
        stems.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        self.grammar = Grammar::new(stems);
        self.vault = vault;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redactor() -> Redactor {
        Redactor::new(RedactorConfig::default()).unwrap()
    }

    #[test]
    fn a_vault_with_types_the_redactor_lacks_still_restores() {
        // A vault saved by a redactor with a custom pattern, loaded into one without it: its
        // placeholders still come back, and look-alikes of them still round-trip.
        let mut with = Redactor::new(
            RedactorConfig::from_json(r#"{"patterns":[{"name":"TICKET","regex":"TCK-\\d{6}"}]}"#)
                .unwrap(),
        )
        .unwrap();
        with.redact("see TCK-123456");
        let mut r = redactor();
        r.set_vault(with.vault().clone());
        assert_eq!(r.restore("about [TICKET_1]"), "about TCK-123456");
        let typed = "I typed [TICKET_1] myself";
        let sent = r.redact(typed).text;
        assert_eq!(r.restore(&sent), typed);
    }

    #[test]
    fn the_name_a_message_speaks_to_is_not_redacted_unless_the_vault_holds_it() {
        let mut r = redactor();
        let spoken_to = "hey Dana what's the weather tomorrow?";
        assert_eq!(r.redact(spoken_to).text, spoken_to);
        // With a comma it opens a letter or a draft for Dana: she is redacted.
        assert_eq!(
            r.redact("Hey Dana, what's the plan for tomorrow?").text,
            "Hey [PERSON_1], what's the plan for tomorrow?"
        );
        // Now the vault holds Dana as someone's name: it stays hers wherever it stands.
        assert_eq!(
            r.redact(spoken_to).text,
            "hey [PERSON_1] what's the weather tomorrow?"
        );
    }

    #[test]
    fn a_quoted_sample_in_a_question_about_test_data_is_not_redacted_by_any_finder() {
        let mut r = redactor();
        let asked = r#"Explain this regex: ^[A-Z][a-z]+ [A-Z][a-z]+$ - does it match "Mary Ann"?"#;
        assert_eq!(r.redact(asked).text, asked);
        // Once the vault holds Mary Ann as someone's name, she stays redacted.
        r.redact("My sister is Mary Ann Lopez. Mary Ann lives in Lyon.");
        assert!(!r.vault().is_empty());
        let again = r.redact(asked).text;
        assert!(!again.contains("Mary Ann"), "{again}");
    }

    #[test]
    fn redacts_and_restores() {
        let mut r = redactor();
        let input = "Mail ann@example.com or call +44 20 7946 0958, card 4111 1111 1111 1111.";
        let out = r.redact(input);
        assert_eq!(
            out.text,
            "Mail [EMAIL_1] or call [PHONE_1], card [CREDIT_CARD_1]."
        );
        assert_eq!(r.restore(&out.text), input);
        assert_eq!(out.findings[0].start, 5);
        assert_eq!(out.findings[0].end, 20);
        let again = r.redact("again: ann@example.com");
        assert_eq!(again.text, "again: [EMAIL_1]");
    }

    #[test]
    fn offsets_are_utf16() {
        let mut r = redactor();
        let out = r.redact("😀 é ann@example.com");
        assert_eq!((out.findings[0].start, out.findings[0].end), (5, 20));
    }

    #[test]
    fn allow_list_and_mask_mode() {
        let mut r = Redactor::new(
            RedactorConfig::from_json(r#"{"allowList":["Help@Acme.com"],"mode":"mask"}"#).unwrap(),
        )
        .unwrap();
        let out = r.redact("write help@acme.com or bob@acme.com");
        assert_eq!(out.text, "write help@acme.com or [EMAIL]");
        assert!(r.vault().is_empty());
    }

    #[test]
    fn custom_patterns_and_type_selection() {
        let mut r = Redactor::new(
            RedactorConfig::from_json(
                r#"{"types":["TICKET","EMAIL"],"patterns":[{"name":"TICKET","regex":"TCK-\\d{6}"},{"name":"CARDISH","regex":"\\d{16}","validate":"luhn"}]}"#,
            )
            .unwrap(),
        )
        .unwrap();
        let out = r.redact("TCK-123456 from a@b.io, call +1 415 555 0100, 4111111111111111");
        assert_eq!(
            out.text,
            "[TICKET_1] from [EMAIL_1], call +1 415 555 0100, 4111111111111111"
        );
    }

    #[test]
    fn placeholder_lookalikes_survive_the_round_trip() {
        let mut r = redactor();
        let input = "literal [EMAIL_1] and email_1 then real ann@example.com";
        let out = r.redact(input);
        assert!(out.text.ends_with("real [EMAIL_1]"));
        assert_eq!(r.restore(&out.text), input);
    }
}
