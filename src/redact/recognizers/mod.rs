//! Recognizers: everything that turns text into scored candidate spans. Regex recognizers
//! ([`patterns`]) cover formats with a shape and a checksum; [`person`] and [`address`] read
//! words for names and street addresses, which have no fixed shape.
//!
//! All regexes, built-in and custom, are compiled once per redactor, one `Regex` per spec. We
//! measured a single `RegexSet` pre-pass over all of them and dropped it: with ~30 patterns its
//! lazy DFA overflows its cache and falls back to the slow engine (0.8 MB/s), while separate
//! regexes each keep their literal prefilter and DFA. The `regex` crate guarantees linear-time
//! matching, so 1 MB without a space or 100 kB of digits cannot blow up.

pub mod address;
pub mod names;
mod patterns;
pub mod person;

use super::config::{invalid_pattern, RedactorConfig, Validator};
use super::entity::EntityType;
use crate::error::Result;
use regex::{Regex, RegexBuilder};

/// A validated match: byte offsets into the scanned text and a confidence in 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    pub score: f32,
}

/// A candidate finding before overlaps are resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub kind: EntityType,
    pub start: usize,
    pub end: usize,
    pub score: f32,
}

type Check = Box<dyn Fn(&str, usize, usize) -> Option<Hit> + Send + Sync>;

/// One regex recognizer.
pub(crate) struct Spec {
    kind: EntityType,
    pattern: String,
    check: Check,
    /// Words that, found near a match, raise its score by `boost`.
    context: &'static [&'static str],
    boost: f32,
    /// Capture group holding the sensitive part (0 = the whole match; otherwise the first
    /// group that participated, counting from this one, for alternatives like quoted values).
    group: usize,
    /// How far (bytes) before and after the match context words count. Some cues only work
    /// close and in front: a date followed by someone else's "I was born" is just a date.
    window: (usize, usize),
}

impl Spec {
    pub(crate) fn new(
        kind: EntityType,
        pattern: &str,
        check: impl Fn(&str, usize, usize) -> Option<Hit> + Send + Sync + 'static,
    ) -> Spec {
        // ASCII-only boundaries and digits keep each regex on the fast DFA: Unicode `\b` does not.
        let pattern = pattern.replace(r"\b", r"(?-u:\b)").replace(r"\d", "[0-9]");
        Spec {
            kind,
            pattern,
            check: Box::new(check),
            context: &[],
            boost: 0.35,
            group: 0,
            window: (CONTEXT_BEFORE, CONTEXT_AFTER),
        }
    }

    /// Only context words within `before` bytes in front of the match count.
    pub(crate) fn context_before_only(mut self, before: usize) -> Spec {
        self.window = (before, 0);
        self
    }

    pub(crate) fn context(mut self, words: &'static [&'static str]) -> Spec {
        self.context = words;
        self
    }

    pub(crate) fn boost(mut self, boost: f32) -> Spec {
        self.boost = boost;
        self
    }

    pub(crate) fn group(mut self, group: usize) -> Spec {
        self.group = group;
        self
    }
}

/// The compiled recognizers of one redactor.
pub struct Recognizers {
    specs: Vec<Spec>,
    regexes: Vec<Regex>,
    person: bool,
    address: bool,
}

/// How far around a match context words are looked for (bytes), about five words each side.
const CONTEXT_BEFORE: usize = 48;
const CONTEXT_AFTER: usize = 24;

impl Recognizers {
    pub fn new(config: &RedactorConfig) -> Result<Recognizers> {
        let mut specs: Vec<Spec> = patterns::built_in()
            .into_iter()
            .filter(|s| config.enables(&s.kind))
            .collect();
        for p in &config.patterns {
            let kind = EntityType::Custom(p.name.clone());
            if !config.enables(&kind) {
                continue;
            }
            let validator = p.validate.as_deref().and_then(Validator::by_name);
            let score = p.score.unwrap_or(1.0);
            let check = move |text: &str, s: usize, e: usize| {
                let ok = validator.map_or(true, |v| v.check(&text[s..e]));
                ok.then_some(Hit {
                    start: s,
                    end: e,
                    score,
                })
            };
            // Compile alone first so the error names the pattern that is wrong.
            RegexBuilder::new(&p.regex)
                .build()
                .map_err(|e| invalid_pattern(&p.name, e))?;
            specs.push(Spec {
                kind,
                pattern: p.regex.clone(),
                check: Box::new(check),
                context: &[],
                boost: 0.0,
                group: 0,
                window: (0, 0),
            });
        }
        let mut regexes = Vec::with_capacity(specs.len());
        for s in &specs {
            regexes.push(
                RegexBuilder::new(&s.pattern)
                    .build()
                    .map_err(|e| invalid_pattern(s.kind.as_str(), e))?,
            );
        }
        Ok(Recognizers {
            specs,
            regexes,
            person: config.enables(&EntityType::Person),
            address: config.enables(&EntityType::Address),
        })
    }

    /// Every candidate in `text`, scored, context applied, overlaps not yet resolved.
    pub fn scan(&self, text: &str) -> Vec<Candidate> {
        let mut out = Vec::new();
        for (spec, regex) in self.specs.iter().zip(&self.regexes) {
            let mut push = |s: usize, e: usize| {
                if s >= e {
                    return;
                }
                if let Some(mut hit) = (spec.check)(text, s, e) {
                    if hit.score < 1.0
                        && has_context(text, hit.start, hit.end, spec.window, spec.context)
                    {
                        hit.score = (hit.score + spec.boost).min(1.0);
                    }
                    out.push(Candidate {
                        kind: spec.kind.clone(),
                        start: hit.start,
                        end: hit.end,
                        score: hit.score,
                    });
                }
            };
            if spec.group == 0 {
                for m in regex.find_iter(text) {
                    push(m.start(), m.end());
                }
            } else {
                for c in regex.captures_iter(text) {
                    if let Some(m) = c.iter().skip(spec.group).flatten().next() {
                        push(m.start(), m.end());
                    }
                }
            }
        }
        if self.person {
            person::scan(text, &mut out);
        }
        if self.address {
            address::scan(text, &mut out);
        }
        out
    }
}

/// Whether one of `words` occurs, starting a word, within the context window around a match.
pub(crate) fn has_context(
    text: &str,
    start: usize,
    end: usize,
    (before, after): (usize, usize),
    words: &[&str],
) -> bool {
    if words.is_empty() {
        return false;
    }
    let mut lo = start.saturating_sub(before);
    while !text.is_char_boundary(lo) {
        lo += 1;
    }
    let mut hi = (end + after).min(text.len());
    while !text.is_char_boundary(hi) {
        hi -= 1;
    }
    let window = format!("{} {}", &text[lo..start], &text[end..hi]).to_lowercase();
    words.iter().any(|w| {
        window.match_indices(w).any(|(i, _)| {
            i == 0
                || !window[..i]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric)
        })
    })
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

    #[test]
    fn bad_custom_regex_is_invalid_pattern() {
        let config =
            RedactorConfig::from_json(r#"{"patterns":[{"name":"T","regex":"(unclosed"}]}"#)
                .unwrap();
        let err = Recognizers::new(&config).err().unwrap();
        assert_eq!(err.code, crate::error::ErrorCode::InvalidPattern);
    }
}
