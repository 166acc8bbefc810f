//! The order of redaction's stages, one pass per text: candidates (the recognizers, the vault
//! seeing a value it holds again, the PII model) → the suppression stage with the text's
//! context → the recipients of kept addresses → one edge rule for names → a found name's
//! parts standing again → overlaps. Each stage is its own module; this file says only what
//! comes after what, and why.

use crate::recognizers::Candidate;
use crate::{recipient, repeats, suppress, text_context};
use crate::{Detected, EntityType, Redactor, Source};
use std::collections::BTreeMap;

impl Redactor {
    /// What [`Redactor::detect_with_source`] returns, with the redactor's word lists already
    /// in use on this thread.
    pub(crate) fn detect_with_lists_in_use(&self, text: &str) -> Vec<Detected> {
        let rule = |candidate| Detected {
            candidate,
            source: Source::Rule,
        };
        let mut found: Vec<Detected> = self.recognizers.scan(text).into_iter().map(rule).collect();
        let mut known = Vec::new();
        for (start, end, entry) in self.vault.sightings(text) {
            known.push((start, end));
            let kind = EntityType::built_in(&entry.kind)
                .unwrap_or_else(|| EntityType::Custom(entry.kind.clone()));
            found.push(rule(Candidate {
                kind,
                start,
                end,
                score: 1.0,
            }));
        }
        if let Some(m) = &self.model {
            found.extend(m.candidates(text).iter().map(|c| Detected {
                candidate: c.clone(),
                source: Source::Model,
            }));
        }
        let suppression = suppress::Suppression {
            config: &self.config,
            allow: &self.allow,
            min_score: self.min_score,
        };
        let context = text_context::TextContext::of(text).knowing(known);
        let mut candidates = suppression.apply(text, &context, found);
        // A name line heading a block that holds an address is its recipient: found from the
        // kept addresses, it passes the same suppression.
        let heads = recipient::recipients(text, &candidates);
        if !heads.is_empty() {
            candidates.extend(suppression.apply(text, &context, heads));
        }
        // One edge rule for every name, whoever found it: the rules' cue "I'm Amanda's son"
        // took "Amanda's", the model the "m" of "I'm".
        for d in &mut candidates {
            let c = &mut d.candidate;
            if c.kind == EntityType::Person {
                (c.start, c.end) =
                    llm_memory_encoder::decode::without_clitics(text, c.start, c.end);
            }
        }
        // A found name's given name or surname standing again elsewhere in the text is the
        // same person ("sung by Lukáš Ryška … Ryška was influenced"), through the same stage.
        let repeats = repeats::repeated_parts(text, &candidates);
        if !repeats.is_empty() {
            candidates.extend(suppression.apply(text, &context, repeats));
        }
        resolve_overlaps(candidates)
    }
}

/// Keeps the best of overlapping candidates: the longest span (it hides the most), then the
/// highest score, then the earliest. Greedy over that order is O(n log n).
fn resolve_overlaps(mut candidates: Vec<Detected>) -> Vec<Detected> {
    candidates.sort_by(|a, b| {
        let (a, b) = (&a.candidate, &b.candidate);
        (b.end - b.start)
            .cmp(&(a.end - a.start))
            .then(b.score.total_cmp(&a.score))
            .then(a.start.cmp(&b.start))
    });
    let mut taken: BTreeMap<usize, usize> = BTreeMap::new(); // start -> end
    let mut kept = Vec::new();
    for d in candidates {
        let c = &d.candidate;
        let overlaps_before = taken
            .range(..c.end)
            .next_back()
            .is_some_and(|(_, &end)| end > c.start);
        if overlaps_before {
            continue;
        }
        taken.insert(c.start, c.end);
        kept.push(d);
    }
    kept.sort_by_key(|d| d.candidate.start);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlaps_prefer_longest_then_score() {
        let c = |s, e, score| Detected {
            candidate: Candidate {
                kind: EntityType::Phone,
                start: s,
                end: e,
                score,
            },
            source: Source::Rule,
        };
        let kept = resolve_overlaps(vec![
            c(0, 5, 0.9),
            c(3, 12, 0.6),
            c(12, 14, 1.0),
            c(3, 12, 0.7),
        ]);
        assert_eq!(kept, vec![c(3, 12, 0.7), c(12, 14, 1.0)]);
    }
}
