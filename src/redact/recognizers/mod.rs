//! Recognizers: everything that turns text into scored candidate spans. Regex recognizers
//! ([`patterns`]) cover formats with a shape and a checksum; [`person`] and [`address`] read
//! words for names and street addresses, which have no fixed shape.
//!
//! Built-in regexes are compiled once per process, custom ones once per redactor, one `Regex`
//! per spec. We measured a single `RegexSet` pre-pass over all of them and dropped it: with ~30
//! patterns its lazy DFA overflows its cache and falls back to the slow engine (0.8 MB/s).
//! Instead each regex has a [`gate`]: a cheap byte scan (memchr for `@`, `_`, `-`; the shared
//! list of digit positions) finds the few windows where it can match, and the regex searches
//! only those. The engine guarantees linear-time matching and the gates are linear too, so
//! 1 MB without a space or 100 kB of digits cannot blow up.

pub mod address;
mod address_cues;
mod address_lookalikes;
mod classes;
mod code;
mod context;
mod credentials;
mod email;
mod gate;
#[cfg(test)]
mod gate_texts;
mod labeled;
mod literals;
pub mod names;
mod national;
mod national_formats;
mod national_shape;
mod near;
mod patterns;
pub mod person;
mod phone;
mod po_box;
mod prescan;
mod runs;
mod skip;
mod starts;
mod values;

use super::config::{invalid_pattern, RedactorConfig, Validator, DEFAULT_MIN_SCORE};
use super::entity::EntityType;
use crate::error::Result;
pub(crate) use classes::classify;
pub(crate) use context::has_context;
use context::{cued, line_window, Pairs};
use gate::{find_in, Gate};
use prescan::{Needs, Prescan};
use regex::RegexBuilder;
use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input, Span};

/// Whether the vector byte classifier of this build agrees with the byte-by-byte one for every
/// byte value in every lane: the wasm tests run it where simd128 is compiled in.
#[doc(hidden)]
pub fn byte_classes_agree() -> bool {
    (0..16).all(|lane| {
        (0..=255u8).all(|b| {
            let mut block = [b'a'; 16];
            block[lane] = b;
            block[(lane + 7) % 16] = 0xff - b;
            classes::classify(&block) == classes::classify_bytes(&block)
        })
    })
}

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

/// The span of a match's sensitive part, from the text and the match's span.
type Value = fn(&str, usize, usize) -> Option<(usize, usize)>;

/// Pushes the value span of every match in a text, in order.
type Finder = fn(&str, &mut Vec<(usize, usize)>);

type Check = Box<dyn Fn(&str, usize, usize) -> Option<Hit> + Send + Sync>;

/// One regex recognizer.
pub(crate) struct Spec {
    kind: EntityType,
    pattern: String,
    check: Check,
    /// Words that, found near a match, raise its score by `boost`.
    context: &'static [&'static str],
    /// The context words' first two bytes, for [`cued`].
    pairs: Pairs,
    boost: f32,
    /// Capture group holding the sensitive part (0 = the whole match; otherwise the first
    /// group that participated, counting from this one, for alternatives like quoted values).
    group: usize,
    /// Finds that group by reading the match (see [`values`]); the regex resolves it when this
    /// gives `None`.
    value: Option<Value>,
    /// Finds the values of every match without the regex (see [`values`]), in place of the
    /// gate and the regex; the regex stays the reference the tests compare it with.
    finder: Option<Finder>,
    /// How far (bytes) before and after the match context words count. Some cues only work
    /// close and in front: a date followed by someone else's "I was born" is just a date.
    window: (usize, usize),
    /// Context words count only on the match's own line (log lines are separate records).
    own_line: bool,
    /// Where in a text the regex can match; the rest is not searched.
    gate: Gate,
    /// The highest score the check gives without context words. When it is below the
    /// redactor's minimum, only windows with a context word nearby are searched.
    weak: f32,
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
            pairs: Pairs::of(&[]),
            boost: 0.35,
            group: 0,
            value: None,
            finder: None,
            window: (CONTEXT_BEFORE, CONTEXT_AFTER),
            own_line: false,
            gate: Gate::Always,
            weak: 1.0,
        }
    }

    /// The check never scores above `score` without context (see [`Spec::weak`]).
    pub(crate) fn weak(mut self, score: f32) -> Spec {
        self.weak = score;
        self
    }

    pub(crate) fn gate(mut self, gate: impl Into<Gate>) -> Spec {
        self.gate = gate.into();
        self
    }

    /// Only context words within `before` bytes in front of the match count.
    pub(crate) fn context_before_only(mut self, before: usize) -> Spec {
        self.window = (before, 0);
        self
    }

    /// Only context words on the match's line count.
    pub(crate) fn context_on_its_line(mut self) -> Spec {
        self.own_line = true;
        self
    }

    pub(crate) fn context(mut self, words: &'static [&'static str]) -> Spec {
        self.context = words;
        self.pairs = Pairs::of(words);
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

    pub(crate) fn finder(mut self, finder: Finder) -> Spec {
        self.finder = Some(finder);
        self
    }

    pub(crate) fn value(mut self, value: Value) -> Spec {
        self.value = Some(value);
        self
    }
}

/// One spec with its compiled regex.
pub(crate) struct Compiled {
    spec: Spec,
    regex: Regex,
}

/// The compiled recognizers of one redactor.
pub struct Recognizers {
    /// Built-in patterns are compiled once per process and shared: a new session then starts
    /// with warm lazy-DFA caches instead of rebuilding them turn by turn.
    built_in: Vec<&'static Compiled>,
    custom: Vec<Compiled>,
    person: bool,
    address: bool,
    /// The enabled national identifier formats (see [`national`]).
    national: national::Enabled,
    /// The enabled classes of values stated with their label (see [`labeled`]).
    labeled: labeled::Enabled,
    min_score: f32,
    /// What the enabled recognizers read of each text's prescan.
    needs: Needs,
}

fn built_in() -> &'static [Compiled] {
    static BUILT_IN: std::sync::OnceLock<Vec<Compiled>> = std::sync::OnceLock::new();
    BUILT_IN.get_or_init(|| {
        patterns::built_in()
            .into_iter()
            .chain(credentials::specs())
            .chain([po_box::spec()])
            .map(|spec| Compiled {
                // The patterns are constants; a failure here is a bug caught by the unit tests.
                regex: Regex::new(&spec.pattern)
                    .unwrap_or_else(|e| panic!("{} pattern: {e}", spec.kind)),
                spec,
            })
            .collect()
    })
}

/// Every literal a built-in gate over long runs needs, so the prescan finds them all in one
/// pass over each long run (see [`literals`]).
fn key_literals() -> &'static literals::Literals {
    static SET: std::sync::OnceLock<literals::Literals> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let runs = built_in().iter().filter_map(|c| match &c.spec.gate {
            Gate::Runs(runs) => Some(runs),
            _ => None,
        });
        literals::Literals::of(runs.flat_map(|r| r.long_literals()))
    })
}

/// How far around a match context words are looked for (bytes), about five words each side.
const CONTEXT_BEFORE: usize = 48;
const CONTEXT_AFTER: usize = 24;

impl Recognizers {
    pub fn new(config: &RedactorConfig) -> Result<Recognizers> {
        let built_in: Vec<&'static Compiled> = built_in()
            .iter()
            .filter(|c| config.enables(&c.spec.kind))
            .collect();
        let mut custom = Vec::new();
        for p in &config.patterns {
            let kind = EntityType::Custom(p.name.clone());
            if !config.enables(&kind) {
                continue;
            }
            let validator = p.validate.as_deref().and_then(Validator::by_name);
            let score = p.score.unwrap_or(1.0);
            let check = move |text: &str, s: usize, e: usize| {
                let ok = validator.is_none_or(|v| v.check(&text[s..e]));
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
            let spec = Spec {
                kind,
                pattern: p.regex.clone(),
                check: Box::new(check),
                context: &[],
                pairs: Pairs::of(&[]),
                boost: 0.0,
                group: 0,
                value: None,
                finder: None,
                window: (0, 0),
                own_line: false,
                gate: Gate::Always,
                weak: 1.0,
            };
            let regex = Regex::new(&spec.pattern).map_err(|e| invalid_pattern(&p.name, e))?;
            custom.push(Compiled { spec, regex });
        }
        let person = config.enables(&EntityType::Person);
        let address = config.enables(&EntityType::Address);
        let words = Needs {
            words: person || address,
            spaces: address,
            starts: person,
            ..Needs::NONE
        };
        let needs = built_in
            .iter()
            .map(|c| c.spec.gate.needs())
            .fold(words, Needs::or);
        let national = national::Enabled::new(|kind| config.enables(kind));
        let labeled = labeled::Enabled::new(|kind| config.enables(kind));
        Ok(Recognizers {
            built_in,
            custom,
            person,
            address,
            national,
            labeled,
            min_score: config.min_score.unwrap_or(DEFAULT_MIN_SCORE),
            needs,
        })
    }

    fn compiled(&self) -> impl Iterator<Item = (&Spec, &Regex)> {
        let built_in = self.built_in.iter().copied();
        built_in.chain(&self.custom).map(|c| (&c.spec, &c.regex))
    }

    /// Every candidate in `text`, scored, context applied, overlaps not yet resolved.
    pub fn scan(&self, text: &str) -> Vec<Candidate> {
        self.scan_with(text, true)
    }

    /// `gated: false` searches every regex over the whole text: what the gates (and the parts
    /// of the prescan they read) must equal.
    fn scan_with(&self, text: &str, gated: bool) -> Vec<Candidate> {
        let mut out = Vec::new();
        let mut windows: Vec<Span> = Vec::new();
        // The reference scan reads a whole prescan: what each redactor's part must equal.
        let pre = Prescan::with(text, if gated { self.needs } else { Needs::ALL });
        let mut found = Vec::new();
        for (spec, regex) in self.compiled() {
            let mut push = |s: usize, e: usize| {
                if s >= e {
                    return;
                }
                if let Some(mut hit) = (spec.check)(text, s, e) {
                    let window = if spec.own_line {
                        line_window(text, hit.start, hit.end, spec.window)
                    } else {
                        spec.window
                    };
                    if hit.score < 1.0
                        && has_context(text, hit.start, hit.end, window, spec.context)
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
            if let (true, Some(find)) = (gated, spec.finder) {
                found.clear();
                find(text, &mut found);
                for &(s, e) in &found {
                    push(s, e);
                }
                continue;
            }
            let gate = if gated { &spec.gate } else { &Gate::Always };
            gate.windows(text, &pre, &mut windows);
            if gated && spec.weak < self.min_score {
                let (before, after) = spec.window;
                windows.retain(|w| {
                    let lo = w.start.saturating_sub(before + 4);
                    cued(text, lo, w.end + after, spec.context, &spec.pairs)
                });
            }
            if windows.is_empty() {
                continue;
            }
            if spec.group == 0 {
                for (s, e) in find_in(regex, text, &windows) {
                    push(s, e);
                }
            } else {
                // Made only when a value reader does not answer.
                let mut caps = None;
                // Matches are found by the fast engines; groups are then resolved on the match
                // alone (the same leftmost-first match), where the slow engines have little
                // to read.
                for (s, e) in find_in(regex, text, &windows) {
                    if let Some((gs, ge)) = spec.value.and_then(|v| v(text, s, e)) {
                        push(gs, ge);
                        continue;
                    }
                    let caps = caps.get_or_insert_with(|| regex.create_captures());
                    let input = Input::new(text).span(s..e).anchored(Anchored::Yes);
                    regex.search_captures(&input, caps);
                    let group = (spec.group..caps.group_len()).find_map(|g| caps.get_group(g));
                    if let Some(g) = group {
                        push(g.start, g.end);
                    }
                }
            }
        }
        national::scan(text, &pre.groups, &self.national, &mut out);
        labeled::scan(text, &pre.groups, self.labeled, &mut out);
        if self.person {
            let starts = pre.starts.as_ref().map(|s| s.all());
            person::scan_from(text, &pre.upper, &pre.leads, starts, &mut out);
            person::cjk::scan(text, &pre.leads, &mut out);
        }
        if self.address {
            address::scan(text, &pre, &mut out);
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

    pub(super) use super::gate_texts::gate_texts;

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
        assert_eq!(err.code, crate::error::ErrorCode::InvalidPattern);
    }
}
