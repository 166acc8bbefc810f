//! Gates: where in a text a recognizer's regex can match at all, found in one cheap byte pass,
//! so the regex runs only over those windows instead of the whole text.
//!
//! A gate never changes what a regex finds. Each one describes a superset of every matching
//! substring (for example "only bytes of `[0-9 -]`, with at least 13 digits"), windows that
//! satisfy it are disjoint, and the regex searches each window with the whole text as context
//! (`Input::range`), so look-around such as `\b` sees the real neighbours. A leftmost-first
//! search confined to disjoint windows that contain every possible match returns exactly the
//! matches of a search over the whole text, in the same order.
//!
//! We measured why this matters: in wasm the regex engines run 5–30× slower than natively
//! (no SIMD prefilters for most patterns, a lazy DFA that re-walks every byte per pattern), and
//! running ~30 patterns over every byte cost more than everything else together.

use super::near::near_windows;
pub(crate) use super::near::{push_window, NearTest};
use super::prescan::{extension_at, find_ci, floor_boundary, in_numbers, Needs, Prescan, LONG};
use regex_automata::meta::Regex;
use regex_automata::{Input, Span};
use std::sync::OnceLock;

/// A set of bytes, as a lookup table.
#[derive(Clone)]
pub(crate) struct ByteSet([bool; 256]);

impl ByteSet {
    pub(crate) fn of(classes: &[&str]) -> ByteSet {
        let mut set = [false; 256];
        for class in classes {
            match *class {
                "0-9" => (b'0'..=b'9').for_each(|b| set[b as usize] = true),
                "A-Z" => (b'A'..=b'Z').for_each(|b| set[b as usize] = true),
                "a-z" => (b'a'..=b'z').for_each(|b| set[b as usize] = true),
                "a-f" => (b'a'..=b'f').for_each(|b| set[b as usize] = true),
                "A-F" => (b'A'..=b'F').for_each(|b| set[b as usize] = true),
                // ASCII white space and every byte of a multi-byte character (Unicode `\s`).
                "space" => b" \t\n\r\x0b\x0c"
                    .iter()
                    .for_each(|&b| set[b as usize] = true),
                "non-ascii" => (0x80..=0xff).for_each(|b| set[b as usize] = true),
                other => other.bytes().for_each(|b| set[b as usize] = true),
            }
        }
        ByteSet(set)
    }

    /// Every byte but these.
    pub(crate) fn all_but(bytes: &[u8]) -> ByteSet {
        let mut set = [true; 256];
        bytes.iter().for_each(|&b| set[b as usize] = false);
        ByteSet(set)
    }

    #[inline]
    pub(crate) fn has(&self, b: u8) -> bool {
        self.0[b as usize]
    }
}

/// See [`Runs::seeded_where`].
pub(crate) type SeedTest = fn(&[u8], usize) -> bool;

/// Where a regex may match.
pub(crate) enum Gate {
    /// Anywhere: custom patterns, whose shape we do not know.
    Always,
    Runs(Runs),
    /// Every match starts with one of these words (ASCII case-insensitive).
    Starts(&'static [&'static str]),
    /// Dates: a numeric date (digits and `/.-`, four digits at least), or a four-digit year
    /// with at most `before` bytes of day and month words in front of it.
    Dates {
        numeric: Runs,
        before: usize,
    },
    /// Every match holds one of `words` (ASCII case-insensitive) where a word starts (after a
    /// byte other than an ASCII letter, digit or `_`: "bearer" follows `\b`, "pin" white space)
    /// and spans at most `back` white-space-separated words before the one holding it and
    /// `ahead` after.
    Near {
        words: &'static [&'static str],
        back: usize,
        ahead: usize,
        /// A test every match's occurrence passes (given the text and where the occurrence
        /// starts), such as the colon after "user": the others hold no match and open no
        /// window. Most occurrences of "user" and "pass" in prose fail it.
        test: Option<NearTest>,
    },
}

/// What every match of a run gate is made of (see [`Runs`]), by name:
/// `RunShape { alphabet: ByteSet::of(&["0-9", " -"]), seeds: &["0-9"], min_seeds: 13, min_len: 13 }`
/// reads "digits, spaces and dashes, holding 13 digits at least, 13 bytes long at least".
pub(crate) struct RunShape {
    /// The bytes a match is made of.
    pub alphabet: ByteSet,
    /// The bytes every match holds some of: `["0-9"]` (found from the prescan's digit groups)
    /// or up to three bytes (found with memchr).
    pub seeds: &'static [&'static str],
    /// How many seed bytes a match holds at least.
    pub min_seeds: usize,
    /// How long a match is at least (bytes).
    pub min_len: usize,
}

/// Every match consists of `alphabet` bytes only and holds at least `min_seeds` bytes of
/// `seeds` (a subset of the alphabet) and `min_len` bytes; a maximal run of the alphabet that
/// cannot satisfy this holds no match. The builders below narrow that further.
pub(crate) struct Runs {
    alphabet: Box<ByteSet>,
    seeds: Box<ByteSet>,
    /// The seed bytes when there are at most three (else empty, meaning digits).
    seed_bytes: Vec<u8>,
    min_seeds: usize,
    min_len: usize,
    /// Runs longer than this hold no match (when a match must be a whole run: [`Runs::max_len`]).
    max_len: usize,
    /// One of these must occur in the run (none: no condition).
    contains: &'static [&'static str],
    /// The run must start with one of these (none: no condition).
    starts: &'static [&'static str],
    /// A last, format-specific test of the run (three dots for an IPv4 address).
    accept: Option<fn(&[u8]) -> bool>,
    /// When set, a match may go on past the run into a phone extension (" ext. 12", where
    /// [`extension_at`] finds one), over white space and these bytes.
    tail: Option<Box<ByteSet>>,
    /// Runs this long never hold white space: only the text's long runs need a look.
    long: bool,
    /// Digit seeds and an alphabet of number bytes: runs lie inside the text's number
    /// clusters ([`Prescan::clusters`]).
    numeric: bool,
    /// A test every match has a seed passing (a digit group right after two capitals for an
    /// IBAN): runs whose seeds all fail it hold no match and are not walked.
    seed_test: Option<SeedTest>,
    /// For long runs: the bits of `contains` and `starts` among the prescan's key literals
    /// ([`Prescan::long_literals`]); `None` when one has no bit there.
    literal_bits: OnceLock<Option<(u64, u64)>>,
}

impl From<Runs> for Gate {
    fn from(runs: Runs) -> Gate {
        Gate::Runs(runs)
    }
}

impl Gate {
    /// A gate over the runs of `shape`; the builders of [`Runs`] narrow it further.
    pub(crate) fn runs(shape: RunShape) -> Runs {
        let RunShape {
            alphabet,
            seeds,
            min_seeds,
            min_len,
        } = shape;
        let seed_bytes = if seeds == ["0-9"] {
            Vec::new()
        } else {
            seeds.concat().into_bytes()
        };
        debug_assert!(seed_bytes.len() <= 3);
        let long = min_len >= LONG && !b" \n\t".iter().any(|&b| alphabet.has(b));
        let numeric = seed_bytes.is_empty() && (0..=255).all(|c| !alphabet.has(c) || in_numbers(c));
        Runs {
            alphabet: Box::new(alphabet),
            seeds: Box::new(ByteSet::of(seeds)),
            seed_bytes,
            min_seeds,
            min_len,
            max_len: usize::MAX,
            contains: &[],
            starts: &[],
            accept: None,
            tail: None,
            long,
            numeric,
            seed_test: None,
            literal_bits: OnceLock::new(),
        }
    }

    /// What this gate reads of the prescan.
    pub(crate) fn needs(&self) -> Needs {
        match self {
            Gate::Runs(runs) | Gate::Dates { numeric: runs, .. } => Needs {
                long: runs.long,
                numbers: runs.numeric,
                ..Needs::NONE
            },
            Gate::Near { .. } => Needs {
                starts: true,
                ..Needs::NONE
            },
            Gate::Always | Gate::Starts(_) => Needs::NONE,
        }
    }

    pub(crate) fn windows(&self, text: &str, pre: &Prescan, out: &mut Vec<Span>) {
        out.clear();
        match self {
            Gate::Always => out.push(Span::from(0..text.len())),
            Gate::Starts(words) => {
                if let Some(first) = words.iter().filter_map(|w| first_ci(text, w)).min() {
                    out.push(Span::from(first..text.len()));
                }
            }
            Gate::Dates { numeric, before } => {
                let mut numbers = Vec::new();
                numeric.windows(text, pre, &mut numbers);
                let mut found: Vec<(usize, usize)> =
                    numbers.iter().map(|w| (w.start, w.end)).collect();
                let b = text.as_bytes();
                // A year: four digits after a space (`MONTH\.?,? \d{4}\b`) or a dash
                // ("03-May-1995"), one a birth could fall in (the check's range; other years
                // cannot make a date of birth).
                for g in &pre.groups {
                    if g.end - g.start == 4
                        && g.start > 0
                        && matches!(b[g.start - 1], b' ' | b'-')
                        && (&b"1900"[..]..=&b"2030"[..]).contains(&&b[g.start..g.end])
                    {
                        let from = floor_boundary(text, g.start.saturating_sub(*before));
                        found.push((from, g.end));
                    }
                }
                found.sort_unstable();
                for (s, e) in found {
                    push_window(out, s, e);
                }
            }
            Gate::Near {
                words,
                back,
                ahead,
                test,
            } => near_windows(text, pre, words, (*back, *ahead), *test, out),
            Gate::Runs(runs) => runs.windows(text, pre, out),
        }
    }
}

impl Runs {
    /// The regex is `\b…\b` over exactly the run's alphabet (plus `_` as a word byte outside
    /// it), so a match is a whole run: runs outside `min..=max` bytes hold none.
    pub(crate) fn max_len(mut self, max: usize) -> Runs {
        self.max_len = max;
        self
    }

    /// Runs must contain one of `words`.
    pub(crate) fn containing(mut self, words: &'static [&'static str]) -> Runs {
        self.contains = words;
        self
    }

    /// Runs must start with one of `words`.
    pub(crate) fn starting(mut self, words: &'static [&'static str]) -> Runs {
        self.starts = words;
        self
    }

    /// The literals a long run must hold for this gate (none for other gates).
    pub(crate) fn long_literals(&self) -> impl Iterator<Item = &'static str> {
        let words: [&'static [&'static str]; 2] = if self.long {
            [self.contains, self.starts]
        } else {
            [&[], &[]]
        };
        words.into_iter().flatten().copied()
    }

    /// Runs must pass `test`.
    pub(crate) fn accepting(mut self, test: fn(&[u8]) -> bool) -> Runs {
        self.accept = Some(test);
        self
    }

    /// Only seeds passing `test` (given the text's bytes up to the range's end and the seed's
    /// position; for digits, the start of a group) are walked from.
    pub(crate) fn seeded_where(mut self, test: SeedTest) -> Runs {
        self.seed_test = Some(test);
        self
    }

    /// Lets matches continue past a run into a phone extension, over white space and `bytes`.
    pub(crate) fn with_tail(mut self, bytes: &[&str]) -> Runs {
        self.tail = Some(Box::new(ByteSet::of(bytes)));
        self
    }

    fn windows(&self, text: &str, pre: &Prescan, out: &mut Vec<Span>) {
        let b = text.as_bytes();
        if self.long {
            let bits = self.literal_bits.get_or_init(|| {
                // Every prescan holds the same process-wide key set (see [`Prescan::keys`]).
                let keys = pre.keys?;
                Some((keys.mask(self.contains)?, keys.mask(self.starts)?))
            });
            for (chunk, &present) in pre.long.iter().zip(&pre.long_literals) {
                let holds = match bits {
                    Some((contains, starts)) => {
                        (self.contains.is_empty() || contains & present != 0)
                            && (self.starts.is_empty() || starts & present != 0)
                    }
                    None => self.may_hold(&b[chunk.range()]),
                };
                if holds {
                    self.runs_within(text, pre.groups_in(*chunk), *chunk, out);
                }
            }
            return;
        }
        if !self.may_hold(b) {
            return;
        }
        if self.numeric {
            // An extension can bring the seeds a short cluster lacks.
            let enough = |c: &&super::prescan::Cluster| {
                c.digits >= self.min_seeds || (self.tail.is_some() && c.extension)
            };
            for c in pre.clusters.iter().filter(enough) {
                self.runs_within(text, &pre.groups[c.groups.clone()], c.span, out);
            }
        } else {
            self.runs_within(text, &pre.groups, Span::from(0..text.len()), out)
        }
    }

    /// Whether `hay` holds the literals every run must contain or start with: most long chunks
    /// of a text hold no key prefix, and are not walked seed by seed.
    fn may_hold(&self, hay: &[u8]) -> bool {
        let holds = |lit: &&str| holds_literal(hay, lit.as_bytes());
        (self.contains.is_empty() || self.contains.iter().any(holds))
            && (self.starts.is_empty() || self.starts.iter().any(holds))
    }

    /// The windows inside `range`, whose ends are not in the alphabet.
    fn runs_within(&self, text: &str, groups: &[Span], range: Span, out: &mut Vec<Span>) {
        let Runs {
            alphabet,
            seeds,
            seed_bytes,
            min_seeds,
            min_len,
            max_len,
            contains,
            starts,
            accept,
            tail,
            seed_test,
            ..
        } = self;
        let b = &text.as_bytes()[..range.end];
        let mut i = range.start;
        let mut seeds_at = Seeds {
            groups: groups.iter(),
            bytes: seed_bytes,
            set: seeds,
            hay: b,
            test: *seed_test,
            next: range.start,
        };
        while i < b.len() {
            // The next seed; runs before it hold none. (A digit group never straddles `i`: the
            // run before `i` took in every digit next to it.)
            let Some(p) = seeds_at.first_from(i) else {
                break;
            };
            let mut start = p;
            while start > i && alphabet.has(b[start - 1]) {
                start -= 1;
            }
            let mut end = p;
            let mut n = 0;
            while end < b.len() && alphabet.has(b[end]) {
                n += seeds.has(b[end]) as usize;
                end += 1;
            }
            let run = &b[start..end];
            // A match goes on past the run only into an extension, whose seeds count too: a
            // match that its check rejects still hides what it spans from the search that
            // follows, so its window must be searched ("2024 ext. 4111.4111" holds no phone
            // number).
            let mut stop = end;
            if let Some(tail) = tail.as_ref().filter(|_| extension_at(text, end)) {
                while let Some(c) = text[stop..].chars().next() {
                    if !(c.is_whitespace() || (c.is_ascii() && tail.has(c as u8))) {
                        break;
                    }
                    n += (c.is_ascii() && seeds.has(c as u8)) as usize;
                    stop += c.len_utf8();
                }
            }
            if n >= *min_seeds
                && (*min_len..=*max_len).contains(&(stop - start))
                && (starts.is_empty() || starts.iter().any(|w| run.starts_with(w.as_bytes())))
                && (contains.is_empty()
                    || contains.iter().any(|w| holds_literal(run, w.as_bytes())))
                && accept.is_none_or(|test| test(run))
            {
                push_window(out, start, stop);
            }
            i = end + 1;
        }
    }
}

/// Whether `lit` occurs in `hay`: short haystacks and literals, where a memchr for the first
/// byte beats building a substring searcher per call.
fn holds_literal(hay: &[u8], lit: &[u8]) -> bool {
    memchr::memchr_iter(lit[0], hay).any(|i| hay[i..].starts_with(lit))
}

/// Where seeds are: the shared digit groups, or up to three bytes found with memchr (SIMD in
/// wasm too). Both only move forward: one table-driven pass per pattern cost more than the
/// regexes, and restarting memchr at every run cost more than the runs.
struct Seeds<'a> {
    groups: std::slice::Iter<'a, Span>,
    /// Empty: digits (the groups).
    bytes: &'a [u8],
    set: &'a ByteSet,
    hay: &'a [u8],
    /// Which seeds can be part of a match (none: all).
    test: Option<SeedTest>,
    /// Where the byte search goes on.
    next: usize,
}

impl Seeds<'_> {
    /// The first seed at or after `i` that passes the gate's seed test.
    fn first_from(&mut self, i: usize) -> Option<usize> {
        loop {
            let p = self.next_from(i)?;
            if self.test.is_none_or(|test| test(self.hay, p)) {
                return Some(p);
            }
        }
    }

    fn next_from(&mut self, i: usize) -> Option<usize> {
        if self.bytes.is_empty() {
            return self.groups.by_ref().map(|g| g.start).find(|&p| p >= i);
        }
        let from = self.next.max(i);
        let rest = self.hay.get(from..)?;
        let found = match *self.bytes {
            [a] => memchr::memchr(a, rest),
            [a, c] => memchr::memchr2(a, c, rest),
            [a, c, d] => memchr::memchr3(a, c, d, rest),
            _ => rest.iter().position(|&c| self.set.has(c)),
        }?;
        self.next = from + found + 1;
        Some(from + found)
    }
}

/// Where `word` first occurs in `text`, ASCII case-insensitively. A word that starts with
/// bytes case cannot change ("-----BEGIN ") is looked for by that prefix with a substring
/// search: its first byte alone is common ("-" in dates and lists).
fn first_ci(text: &str, word: &str) -> Option<usize> {
    let w = word.as_bytes();
    let fixed = w.iter().take_while(|c| !c.is_ascii_alphabetic()).count();
    if fixed < 2 {
        return find_ci(text, word).next();
    }
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, &w[..fixed]).find(|&i| {
        b.len() - i >= w.len() && b[i + fixed..i + w.len()].eq_ignore_ascii_case(&w[fixed..])
    })
}

/// Every match of `re` inside the windows, with the whole text as context.
pub(crate) fn find_in<'a>(
    re: &'a Regex,
    text: &'a str,
    windows: &'a [Span],
) -> impl Iterator<Item = (usize, usize)> + 'a {
    windows.iter().flat_map(move |w| {
        re.find_iter(Input::new(text).span(*w))
            .map(|m| (m.start(), m.end()))
    })
}
