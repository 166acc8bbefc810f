//! The regex recognizers: each family lists its formats as [`Spec`]s (a pattern, the check that
//! confirms a match, context words, a gate), and one [`Recognizer`] runs them all.
//!
//! Built-in regexes are compiled once per process, custom ones once per redactor, one `Regex`
//! per spec. We measured a single `RegexSet` pre-pass over all of them and dropped it: with ~30
//! patterns its lazy DFA overflows its cache and falls back to the slow engine (0.8 MB/s).
//! Instead each regex has a gate ([`crate::scan::gate`]): a cheap byte scan (memchr for
//! `@`, `_`, `-`; the shared list of digit positions) finds the few windows where it can match,
//! and the regex searches only those. The engine guarantees linear-time matching and the gates
//! are linear too, so 1 MB without a space or 100 kB of digits cannot blow up.

use super::{Candidate, Hit, Recognizer};
use crate::config::{invalid_pattern, RedactorConfig, Validator};
use crate::entity::EntityType;
use crate::scan::context::{cued, has_context, line_window, Pairs};
use crate::scan::gate::{find_in, Gate};
use crate::scan::literals::Literals;
use crate::scan::prescan::{Needs, Prescan};
use llm_memory_core::error::Result;
use regex::RegexBuilder;
use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input, Span};

/// The span of a match's sensitive part, from the text and the match's span.
type Value = fn(&str, usize, usize) -> Option<(usize, usize)>;

/// Pushes the value span of every match in a text, in order.
type Finder = fn(&str, &mut Vec<(usize, usize)>);

type Check = Box<dyn Fn(&str, usize, usize) -> Option<Hit> + Send + Sync>;

/// One regex recognizer.
pub(crate) struct Spec {
    pub(super) kind: EntityType,
    pub(super) pattern: String,
    pub(super) check: Check,
    /// Words that, found near a match, raise its score by `boost`.
    pub(super) context: &'static [&'static str],
    /// The context words' first two bytes, for [`cued`].
    pub(super) pairs: Pairs,
    pub(super) boost: f32,
    /// Capture group holding the sensitive part (0 = the whole match; otherwise the first
    /// group that participated, counting from this one, for alternatives like quoted values).
    pub(super) group: usize,
    /// Finds that group by reading the match (see `password/values.rs`); the regex resolves it when this
    /// gives `None`.
    pub(super) value: Option<Value>,
    /// Finds the values of every match without the regex (see `password/values.rs`), in place of the
    /// gate and the regex; the regex stays the reference the tests compare it with.
    pub(super) finder: Option<Finder>,
    /// How far (bytes) before and after the match context words count. Some cues only work
    /// close and in front: a date followed by someone else's "I was born" is just a date.
    pub(super) window: (usize, usize),
    /// Context words count only on the match's own line (log lines are separate records).
    pub(super) own_line: bool,
    /// Where in a text the regex can match; the rest is not searched.
    pub(super) gate: Gate,
    /// The highest score the check gives without context words. When it is below the
    /// redactor's minimum, only windows with a context word nearby are searched.
    pub(super) weak: f32,
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
    pub(super) spec: Spec,
    pub(super) regex: Regex,
}

impl Compiled {
    /// Compiles a built-in spec. The patterns are constants; a failure here is a bug caught by
    /// the unit tests.
    pub(crate) fn built_in(spec: Spec) -> Compiled {
        Compiled {
            regex: Regex::new(&spec.pattern)
                .unwrap_or_else(|e| panic!("{} pattern: {e}", spec.kind)),
            spec,
        }
    }
}

/// Every literal the gates over long runs of `compiled` need, so the prescan finds them all in
/// one pass over each long run (see [`crate::scan::literals`]).
pub(crate) fn run_literals(compiled: &[Compiled]) -> Literals {
    let runs = compiled.iter().filter_map(|c| match &c.spec.gate {
        Gate::Runs(runs) => Some(runs),
        _ => None,
    });
    Literals::of(runs.flat_map(|r| r.long_literals()))
}

/// How far around a match context words are looked for (bytes), about five words each side.
const CONTEXT_BEFORE: usize = 48;
const CONTEXT_AFTER: usize = 24;

/// The enabled regex specs of one redactor: built-in and custom.
pub(crate) struct Regexes {
    /// Built-in patterns are compiled once per process and shared: a new session then starts
    /// with warm lazy-DFA caches instead of rebuilding them turn by turn.
    built_in: Vec<&'static Compiled>,
    custom: Vec<Compiled>,
    min_score: f32,
}

impl Regexes {
    /// `built_in`: the registry's specs, compiled once per process.
    pub(crate) fn new(
        config: &RedactorConfig,
        min_score: f32,
        built_in: &'static [Compiled],
    ) -> Result<Regexes> {
        let built_in: Vec<&'static Compiled> = built_in
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
        Ok(Regexes {
            built_in,
            custom,
            min_score,
        })
    }

    fn compiled(&self) -> impl Iterator<Item = (&Spec, &Regex)> {
        let built_in = self.built_in.iter().copied();
        built_in.chain(&self.custom).map(|c| (&c.spec, &c.regex))
    }

    /// `gated: false` searches every regex over the whole text: what the gates must equal.
    fn scan_with(&self, text: &str, pre: &Prescan, gated: bool, out: &mut Vec<Candidate>) {
        let mut windows: Vec<Span> = Vec::new();
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
            gate.windows(text, pre, &mut windows);
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
    }
}

impl Recognizer for Regexes {
    fn kinds(&self) -> Vec<EntityType> {
        let mut kinds: Vec<EntityType> = self.compiled().map(|(s, _)| s.kind.clone()).collect();
        kinds.dedup();
        kinds
    }

    fn needs(&self) -> Needs {
        let gates = self.built_in.iter().map(|c| c.spec.gate.needs());
        gates.fold(Needs::NONE, Needs::or)
    }

    fn scan(&self, text: &str, pre: &Prescan, out: &mut Vec<Candidate>) {
        self.scan_with(text, pre, true, out);
    }

    fn scan_reference(&self, text: &str, pre: &Prescan, out: &mut Vec<Candidate>) {
        self.scan_with(text, pre, false, out);
    }
}
