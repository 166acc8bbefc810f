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

use regex_automata::meta::Regex;
use regex_automata::{Input, Span};

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

/// Where a regex may match.
pub(crate) enum Gate {
    /// Anywhere: custom patterns, whose shape we do not know.
    Always,
    /// Every match consists of `alphabet` bytes only and holds at least `min_seeds` bytes of
    /// `seeds` (a subset of the alphabet) and `min_len` bytes; a maximal run of the alphabet
    /// that cannot satisfy this holds no match. `contains`, when set, must occur in the run.
    Runs {
        alphabet: Box<ByteSet>,
        seeds: Box<ByteSet>,
        /// The seed bytes when there are at most three (else empty, meaning digits).
        seed_bytes: Vec<u8>,
        min_seeds: usize,
        min_len: usize,
        contains: Option<&'static str>,
    },
    /// Every match contains one of these words (ASCII case-insensitive; the text is searched in
    /// full when it contains a character that case-folds onto ASCII, `ſ` or the Kelvin sign).
    Mentions(&'static [&'static str]),
}

impl Gate {
    pub(crate) fn runs(
        alphabet: &[&str],
        seeds: &[&str],
        min_seeds: usize,
        min_len: usize,
    ) -> Gate {
        Gate::runs_in(ByteSet::of(alphabet), seeds, min_seeds, min_len, None)
    }

    /// Seeds are `["0-9"]` or up to three bytes.
    pub(crate) fn runs_in(
        alphabet: ByteSet,
        seeds: &[&str],
        min_seeds: usize,
        min_len: usize,
        contains: Option<&'static str>,
    ) -> Gate {
        let seed_bytes = if seeds == ["0-9"] {
            Vec::new()
        } else {
            seeds.concat().into_bytes()
        };
        debug_assert!(seed_bytes.len() <= 3);
        Gate::Runs {
            alphabet: Box::new(alphabet),
            seeds: Box::new(ByteSet::of(seeds)),
            seed_bytes,
            min_seeds,
            min_len,
            contains,
        }
    }

    /// `digits` are the positions of the ASCII digits in `text`.
    pub(crate) fn windows(&self, text: &str, digits: &[usize], out: &mut Vec<Span>) {
        out.clear();
        match self {
            Gate::Always => out.push(Span::from(0..text.len())),
            Gate::Mentions(words) => {
                if folds_onto_ascii(text) || words.iter().any(|w| contains_ci(text, w)) {
                    out.push(Span::from(0..text.len()));
                }
            }
            Gate::Runs {
                alphabet,
                seeds,
                seed_bytes,
                min_seeds,
                min_len,
                contains,
            } => {
                let b = text.as_bytes();
                let mut i = 0;
                // Seeds are found with memchr (SIMD in wasm too) or from the shared list of
                // digit positions: one table-driven pass per pattern cost more than the regexes.
                let mut found: Box<dyn Iterator<Item = usize>> = match seed_bytes.as_slice() {
                    [] => Box::new(digits.iter().copied()),
                    [a] => Box::new(memchr::memchr_iter(*a, b)),
                    [a, c] => Box::new(memchr::memchr2_iter(*a, *c, b)),
                    [a, c, d] => Box::new(memchr::memchr3_iter(*a, *c, *d, b)),
                    _ => Box::new((0..b.len()).filter(|&k| seeds.has(b[k]))),
                };
                while i < b.len() {
                    // The next seed; runs before it hold none.
                    let Some(p) = found.by_ref().find(|&p| p >= i) else {
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
                    if n >= *min_seeds
                        && end - start >= *min_len
                        && contains.is_none_or(|c| {
                            memchr::memmem::find(&b[start..end], c.as_bytes()).is_some()
                        })
                    {
                        out.push(Span::from(start..end));
                    }
                    i = end + 1;
                }
            }
        }
    }
}

/// Characters outside ASCII that `(?i)` matches to ASCII letters: `ſ` (s) and `K` (k).
pub(crate) fn folds_onto_ascii(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memmem::find(b, "ſ".as_bytes()).is_some()
        || memchr::memmem::find(b, "\u{212a}".as_bytes()).is_some()
}

/// ASCII case-insensitive substring test; `word` is lower case.
pub(crate) fn contains_ci(text: &str, word: &str) -> bool {
    let w = word.as_bytes();
    let (first_lo, first_up) = (w[0], w[0].to_ascii_uppercase());
    let b = text.as_bytes();
    memchr::memchr2_iter(first_lo, first_up, b)
        .any(|i| b.len() - i >= w.len() && b[i..i + w.len()].eq_ignore_ascii_case(w))
}

/// Positions of the ASCII digits in `text`, shared by the gates seeded on digits.
pub(crate) fn digit_positions(text: &str, out: &mut Vec<usize>) {
    out.clear();
    out.extend(
        text.bytes()
            .enumerate()
            .filter(|(_, c)| c.is_ascii_digit())
            .map(|(i, _)| i),
    );
}

/// Positions of ASCII white space, to bound windows by a number of words.
pub(crate) struct Spaces(Vec<usize>);

impl Spaces {
    pub(crate) fn new(text: &str) -> Spaces {
        Spaces(
            text.bytes()
                .enumerate()
                .filter(|&(_, c)| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c'))
                .map(|(i, _)| i)
                .collect(),
        )
    }

    /// The earliest start of a match that ends at or after `p` and holds at most `k` white-space
    /// characters before `p`. Unicode spaces are not counted, which only widens the window.
    pub(crate) fn back(&self, p: usize, k: usize) -> usize {
        let i = self.0.partition_point(|&x| x < p);
        if i > k {
            self.0[i - k - 1] + 1
        } else {
            0
        }
    }

    /// The latest end of a match that starts at or before `p` and holds at most `k` white-space
    /// characters from `p` on.
    pub(crate) fn forward(&self, p: usize, k: usize, len: usize) -> usize {
        let j = self.0.partition_point(|&x| x < p);
        self.0.get(j + k).copied().unwrap_or(len)
    }
}

/// Adds a window, merging it with the previous one when they overlap. Windows must come in
/// order of their start.
pub(crate) fn push_window(out: &mut Vec<Span>, start: usize, end: usize) {
    if let Some(last) = out.last_mut() {
        if start <= last.end {
            last.end = last.end.max(end);
            return;
        }
    }
    out.push(Span::from(start..end));
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
