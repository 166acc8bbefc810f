//! The PII model's part in redaction. The model reads what rules cannot: lower-case names,
//! addresses without a cue word, numbers stated after a label in a format no rule knows. Rules
//! keep what has a shape and a checksum (e-mail, phone, card, IBAN, national formats): their
//! validators are more precise than a model, so the model's e-mails, phones and URLs are not
//! used, and a model span that overlaps such a rule finding gives way to it.
//!
//! The model reads words, not what they are doing in the text, so its spans pass checks for
//! classes of false finding first ([`model_spans`]): names in code, brands written `X & Y`,
//! numbers without an identity label before them, "addresses" without a street or a number,
//! lower-case common words the model takes for a first name. Public figures are the
//! suppression stage's to drop, for every finder alike ([`super::text_context`]).
//!
//! Tagging costs milliseconds where rules cost microseconds, so each text's model spans are
//! kept: a memory sends the same pinned facts, summary and step log with every request.

use super::entity::EntityType;
use super::recognizers::Candidate;
use crate::scan::code_lines::code_zones;
use checks::false_finding;
use llm_memory_core::error::Result;
use llm_memory_encoder::decode::{Meaning, Span};
use llm_memory_encoder::Tagger;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

pub use llm_memory_encoder::decode::DEFAULT_THRESHOLD as DEFAULT_MODEL_THRESHOLD;

/// The entity type a model value is redacted as, or `None` for what rules own.
pub fn entity_of(meaning: Meaning) -> Option<EntityType> {
    match meaning {
        Meaning::Person => Some(EntityType::Person),
        Meaning::Address => Some(EntityType::Address),
        Meaning::IdNumber => Some(EntityType::IdNumber),
        // Account and routing numbers: the existing bank-number type.
        Meaning::BankNumber => Some(EntityType::UsBankNumber),
        Meaning::Email | Meaning::Phone | Meaning::Url => None,
    }
}

/// Whether a rule finding of this type is a shape with a validator, which a model span must
/// not cut into. Names and addresses are read from words by rules too; there the longer of
/// the two wins.
pub fn is_structured(kind: &EntityType) -> bool {
    !matches!(kind, EntityType::Person | EntityType::Address)
}

/// The model's spans in `text` (byte offsets) that pass the checks below: what the redactor
/// uses, and what `examples/redact_eval.rs --model-only` scores.
pub fn model_spans(tagger: &Tagger, text: &str, threshold: f32) -> Result<Vec<Span>> {
    let mut spans = tagger.spans(text, threshold)?;
    if spans.is_empty() {
        return Ok(spans);
    }
    complete::complete_names(text, &mut spans);
    let zones = code_zones(text);
    // A street asked about as a place takes the names read inside it along ("Lombard" of
    // "Is Lombard Street that crooked?"): its words name the street, not a person.
    let places: Vec<(usize, usize)> = spans
        .iter()
        .filter(|s| {
            s.meaning == Meaning::Address
                && places::asked_about_street(text, s, &text[s.start..s.end])
        })
        .map(|s| (s.start, s.end))
        .collect();
    let in_a_place = |s: &Span| places.iter().any(|&(a, b)| a <= s.start && s.end <= b);
    spans.retain(|s| !false_finding(text, s, &zones) && !in_a_place(s));
    Ok(spans)
}

/// Texts kept; past this the oldest go first.
const CACHE_TEXTS: usize = 512;
/// Bytes of text kept, so a few huge texts do not pin memory.
const CACHE_BYTES: usize = 4 << 20;

/// The model with its threshold and the spans of the texts it tagged lately.
pub(super) struct ModelPass {
    tagger: Arc<Tagger>,
    threshold: f32,
    cache: Mutex<SpanCache>,
}

#[derive(Default)]
struct SpanCache {
    spans: HashMap<Arc<str>, Arc<[Candidate]>>,
    order: VecDeque<Arc<str>>,
    bytes: usize,
}

impl ModelPass {
    pub(super) fn new(tagger: Arc<Tagger>, threshold: f32) -> ModelPass {
        ModelPass {
            tagger,
            threshold,
            cache: Mutex::new(SpanCache::default()),
        }
    }

    pub(super) fn tagger(&self) -> &Arc<Tagger> {
        &self.tagger
    }

    /// The model's candidates in `text` (byte offsets), every type it can give; tagged once
    /// per distinct text while the text stays in the cache.
    pub(super) fn candidates(&self, text: &str) -> Arc<[Candidate]> {
        if let Some(found) = self.lock().spans.get(text) {
            return found.clone();
        }
        // A model that cannot run on a text (it never happens with a valid file: windows fit
        // the model by construction) leaves the text to the rules.
        let spans = model_spans(&self.tagger, text, self.threshold).unwrap_or_default();
        let found: Arc<[Candidate]> = spans
            .into_iter()
            .filter_map(|s| {
                Some(Candidate {
                    kind: entity_of(s.meaning)?,
                    start: s.start,
                    end: s.end,
                    score: s.score,
                })
            })
            .collect();
        if text.len() <= CACHE_BYTES / 4 {
            let mut cache = self.lock();
            let key: Arc<str> = text.into();
            cache.bytes += key.len();
            cache.order.push_back(key.clone());
            cache.spans.insert(key, found.clone());
            while cache.order.len() > CACHE_TEXTS || cache.bytes > CACHE_BYTES {
                let Some(old) = cache.order.pop_front() else {
                    break;
                };
                cache.bytes -= old.len();
                cache.spans.remove(&old);
            }
        }
        found
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, SpanCache> {
        // A panic while holding the lock (none can happen) would only have left a cache.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }
}

mod address_shape;
mod checks;
pub(crate) mod complete;
mod places;
#[cfg(test)]
mod test_spans;
