//! What every gate needs to know about a text, found once per text instead of once per
//! recognizer: where the digits are and which stretches without white space are long enough to
//! hold a key, a token or a wallet address. Plus the small text helpers the gates share.

use super::classes::classify;
use super::literals::Literals;
pub(crate) use super::skip::{skip_space, skip_space_back, skip_word, skip_word_back};
use super::starts::{push_starts, WordStarts};
use regex_automata::Span;

/// Runs without white space shorter than this hold no key, token, wallet or MAC address: the
/// gates of those recognizers (`min_len >= LONG`) only look inside longer runs.
pub(crate) const LONG: usize = 14;

/// Pushes `at + i` for each bit `i` set in `mask`.
#[inline]
fn push_bits(mut mask: u16, at: usize, out: &mut Vec<usize>) {
    while mask != 0 {
        out.push(at + mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
}

/// Adds the bytes whose bit is set in `mask` (at `at + i`) to the digit groups: each extends
/// the last group or starts one.
#[inline]
fn push_groups(mut mask: u16, at: usize, groups: &mut Vec<Span>) {
    while mask != 0 {
        let d = at + mask.trailing_zeros() as usize;
        match groups.last_mut() {
            Some(g) if g.end == d => g.end = d + 1,
            _ => groups.push(Span::from(d..d + 1)),
        }
        mask &= mask - 1;
    }
}

/// Whether `ſ` or `K` (which `(?i)` matches to ASCII letters) starts at byte `i`.
fn folds_at(b: &[u8], i: usize) -> bool {
    b[i..].starts_with("ſ".as_bytes()) || b[i..].starts_with("\u{212a}".as_bytes())
}

/// The shared facts about one text.
#[derive(Default)]
pub(crate) struct Prescan {
    /// Maximal runs of ASCII digits.
    pub groups: Vec<Span>,
    /// Positions of the ASCII capitals.
    pub upper: Vec<usize>,
    /// Where the non-ASCII characters start (their lead bytes).
    pub leads: Vec<usize>,
    /// Positions of ASCII white space (space, tab, line feed, carriage return, vertical tab,
    /// form feed).
    pub spaces: Vec<usize>,
    /// Maximal runs of bytes other than space, tab and newline that are at least [`LONG`]
    /// bytes long. Other white space stays inside runs, which only makes them longer.
    pub long: Vec<Span>,
    /// The key literals of the gates ([`Literals`]), as given to [`Prescan::with`].
    pub keys: Option<&'static Literals>,
    /// Which key literals each long run holds (bits of [`Prescan::keys`]), so a gate can
    /// tell that a run lacks its key's prefix without searching it.
    pub long_literals: Vec<u64>,
    /// Maximal runs of digits and number punctuation ([`in_numbers`]) holding a digit, with
    /// their digit count. A number-shaped match (phone, card, SSN, IPv4, numeric date) lies
    /// inside one, so a gate only looks into clusters with enough digits.
    pub clusters: Vec<Cluster>,
    /// Whether the text holds a character that `(?i)` matches to an ASCII letter. Only the
    /// Germanic street endings fold case in Unicode; every other keyword folds ASCII only,
    /// which is why their gates can search ASCII case-insensitively.
    pub folds: bool,
    /// Where the words start, by first letter (keyword gates, the uncased-name cues).
    pub starts: Option<WordStarts>,
}

/// Which parts of a [`Prescan`] the enabled recognizers read; the rest is left empty. Digit
/// groups are always found. A redactor limited to a few types (e-mail and phones, say) then
/// skips the capitals, the white space and the long runs, which cost most of the pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Needs {
    /// Capitals, non-ASCII lead bytes and case folds (names, street words).
    pub words: bool,
    /// White-space positions (street-address windows).
    pub spaces: bool,
    /// Long runs and the key literals in them (keys, tokens, wallets).
    pub long: bool,
    /// Number clusters (number-shaped matches).
    pub numbers: bool,
    /// Word starts (keyword gates, the uncased-name cues).
    pub starts: bool,
}

impl Needs {
    pub(crate) const ALL: Needs = Needs {
        words: true,
        spaces: true,
        long: true,
        numbers: true,
        starts: true,
    };
    pub(crate) const NONE: Needs = Needs {
        words: false,
        spaces: false,
        long: false,
        numbers: false,
        starts: false,
    };

    pub(crate) fn or(self, other: Needs) -> Needs {
        Needs {
            words: self.words || other.words,
            spaces: self.spaces || other.spaces,
            long: self.long || other.long,
            numbers: self.numbers || other.numbers,
            starts: self.starts || other.starts,
        }
    }
}

impl Prescan {
    /// Everything about `text`.
    #[cfg(test)]
    pub(crate) fn new(text: &str) -> Prescan {
        Prescan::with(text, Needs::ALL, crate::recognizers::key_literals())
    }

    /// What `needs` asks for about `text`; `keys` are the literals looked for in long runs.
    pub(crate) fn with(text: &str, needs: Needs, keys: &'static Literals) -> Prescan {
        let b = text.as_bytes();
        // Room for a digit-heavy text up front: growing these one push at a time cost more than
        // the pass that fills them.
        let room = |need: bool, n: usize| if need { n } else { 0 };
        let mut pre = Prescan {
            groups: Vec::with_capacity(b.len() / 8),
            upper: Vec::with_capacity(room(needs.words, b.len() / 8)),
            spaces: Vec::with_capacity(room(needs.spaces, b.len() / 4)),
            long: Vec::with_capacity(room(needs.long, b.len() / LONG + 1)),
            keys: Some(keys),
            ..Prescan::default()
        };
        // Sixteen bytes at a time (see [`classify`]): most blocks hold no capital and no
        // non-ASCII byte, and white space is found for a whole block at once. Byte by byte,
        // this pass cost more than the rest of a short text's scan. The last block is padded
        // with spaces.
        let mut run_start = 0;
        let mut starts = Vec::with_capacity(room(needs.starts, b.len() / 4));
        let mut word_before = false;
        for at in (0..b.len()).step_by(16) {
            let n = (b.len() - at).min(16);
            let block: [u8; 16] = match b[at..].first_chunk::<16>() {
                Some(full) => *full,
                None => {
                    let mut last = [b' '; 16];
                    last[..n].copy_from_slice(&b[at..]);
                    last
                }
            };
            let c = classify(&block);
            push_groups(c.digit, at, &mut pre.groups);
            if needs.words {
                push_bits(c.upper, at, &mut pre.upper);
                if c.high != 0 {
                    push_bits(c.lead, at, &mut pre.leads);
                    if !pre.folds {
                        pre.folds = (at..at + n).any(|i| folds_at(b, i));
                    }
                }
            }
            // Not the padding.
            let real = if n < 16 { (1u16 << n) - 1 } else { u16::MAX };
            if needs.spaces {
                push_bits(c.blank & real, at, &mut pre.spaces);
            }
            if needs.starts {
                push_starts(&c, at, &mut word_before, &mut starts);
            }
            if !needs.long {
                continue;
            }
            // Each separator ends a run (a block can hold a whole long one).
            let mut seps = c.seps & real;
            while seps != 0 {
                let end = at + seps.trailing_zeros() as usize;
                if end - run_start >= LONG {
                    pre.long.push(Span::from(run_start..end));
                }
                run_start = end + 1;
                seps &= seps - 1;
            }
        }
        if needs.starts {
            pre.starts = Some(WordStarts::of(b, starts));
        }
        if needs.long && b.len() >= run_start + LONG {
            pre.long.push(Span::from(run_start..b.len()));
        }
        pre.long_literals = pre
            .long
            .iter()
            .map(|r| keys.present(&b[r.range()]))
            .collect();
        if !needs.numbers {
            return pre;
        }
        pre.clusters = number_clusters(b, &pre.groups);
        for c in &mut pre.clusters {
            c.extension = extension_at(text, c.span.end);
        }
        pre
    }

    /// The digit groups inside `span` (whose ends are not digits).
    pub(crate) fn groups_in(&self, span: Span) -> &[Span] {
        let lo = self.groups.partition_point(|g| g.start < span.start);
        let hi = self.groups.partition_point(|g| g.start < span.end);
        &self.groups[lo..hi]
    }
}

/// Digit groups joined by number punctuation ([`in_numbers`]) into maximal clusters.
fn number_clusters(b: &[u8], groups: &[Span]) -> Vec<Cluster> {
    let mut clusters: Vec<Cluster> = Vec::with_capacity(groups.len());
    let mut last_end = 0;
    for (k, g) in groups.iter().enumerate() {
        let digits = g.end - g.start;
        match clusters.last_mut() {
            Some(c) if b[last_end..g.start].iter().all(|&x| in_numbers(x)) => {
                c.span.end = g.end;
                c.digits += digits;
                c.groups.end = k + 1;
            }
            _ => {
                let mut start = g.start;
                while start > last_end && in_numbers(b[start - 1]) {
                    start -= 1;
                }
                clusters.push(Cluster {
                    span: Span::from(start..g.end),
                    digits,
                    groups: k..k + 1,
                    extension: false,
                });
            }
        }
        last_end = g.end;
    }
    for c in &mut clusters {
        while c.span.end < b.len() && in_numbers(b[c.span.end]) {
            c.span.end += 1;
        }
    }
    clusters
}

/// See [`Prescan::clusters`].
pub(crate) struct Cluster {
    pub span: Span,
    pub digits: usize,
    /// Its digit groups, as indices into [`Prescan::groups`].
    pub groups: std::ops::Range<usize>,
    /// Whether a phone extension follows (see [`extension_at`]).
    pub extension: bool,
}

/// Whether an extension starts at `i`: white space, `x`, `ext`, `ext.`, `extension` (in
/// either case) or `#`, or a comma and one of the words; then white space and a digit. The
/// only way a phone pattern goes on past its number ("415-555-0132, Ext. 12",
/// "415-555-0132x459").
pub(crate) fn extension_at(text: &str, i: usize) -> bool {
    let b = text.as_bytes();
    // Asked at the end of every number: most are followed by a byte that can start neither
    // white space nor an extension.
    match b.get(i) {
        None => return false,
        Some(&c)
            if c < 0x80
                && !matches!(
                    c.to_ascii_lowercase(),
                    b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | b'x' | b'e' | b'#' | b','
                ) =>
        {
            return false
        }
        _ => {}
    }
    // After a comma only a word says extension: "2003-2013, x264 project" is a copyright.
    let comma = b[i] == b',';
    let j = skip_blank(text, i + comma as usize);
    if !matches!(
        b.get(j).map(u8::to_ascii_lowercase),
        Some(b'x' | b'e' | b'#')
    ) {
        return false;
    }
    let rest = &b[j..];
    let words: &[&[u8]] = if comma {
        &[b"extension", b"ext.", b"ext"]
    } else {
        &[b"extension", b"ext.", b"ext", b"x", b"#"]
    };
    let word = words
        .iter()
        .find(|w| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w));
    word.is_some_and(|w| {
        b.get(skip_blank(text, j + w.len()))
            .is_some_and(u8::is_ascii_digit)
    })
}

/// [`skip_space`] with ASCII white space passed byte by byte.
fn skip_blank(text: &str, mut i: usize) -> usize {
    let b = text.as_bytes();
    loop {
        while b
            .get(i)
            .is_some_and(|&c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
        {
            i += 1;
        }
        let next = if b.get(i).is_some_and(|&c| c >= 0x80) {
            skip_space(text, i)
        } else {
            i
        };
        if next == i {
            return i;
        }
        i = next;
    }
}

/// Digits and the punctuation numbers are written with: `0-9`, space, `.-/()+`.
pub(crate) fn in_numbers(c: u8) -> bool {
    c.is_ascii_digit() || matches!(c, b' ' | b'.' | b'-' | b'/' | b'(' | b')' | b'+')
}

/// Start positions of `word` (lower-case ASCII) in `text`, ignoring ASCII case.
pub(crate) fn find_ci<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let w = word.as_bytes();
    let (first_lo, first_up) = (w[0], w[0].to_ascii_uppercase());
    let b = text.as_bytes();
    memchr::memchr2_iter(first_lo, first_up, b)
        .filter(move |&i| b.len() - i >= w.len() && b[i..i + w.len()].eq_ignore_ascii_case(w))
}

/// The last char boundary at or before `i`.
pub(crate) fn floor_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Positions of ASCII white space ([`Prescan::spaces`]), to bound windows by a number of words.
pub(crate) struct Spaces<'a>(pub &'a [usize]);

impl Spaces<'_> {
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

#[cfg(test)]
mod tests {
    /// Every run of at least LONG bytes without a separator is found, whatever its alignment.
    #[test]
    fn long_runs_at_every_offset() {
        for pad in 0..17 {
            for len in [1, 7, 8, 9, LONG - 1, LONG, LONG + 1, 30] {
                let text = format!("{} {} tail", "p".repeat(pad), "k".repeat(len));
                let p = Prescan::new(&text);
                let want = Span::from(pad + 1..pad + 1 + len);
                assert_eq!(p.long.contains(&want), len >= LONG, "pad {pad} len {len}");
                assert_eq!(
                    p.long.len(),
                    (len >= LONG) as usize + (pad >= LONG) as usize
                );
                let end = format!("{} {}", "p".repeat(pad), "k".repeat(len));
                let at_end = Span::from(pad + 1..end.len());
                assert_eq!(Prescan::new(&end).long.contains(&at_end), len >= LONG);
            }
        }
    }

    use super::*;

    #[test]
    fn long_runs_and_digits() {
        let text = "a 0123456789abcdef\tb\u{a0}c 12 x\u{a0}y 9/0:1ſ";
        let p = Prescan::new(text);
        assert!(p.folds && Prescan::new("\u{212a}ey").folds);
        assert_eq!(p.long, vec![Span::from(2..18)]);
        let digits: Vec<usize> = text
            .bytes()
            .enumerate()
            .filter(|(_, c)| c.is_ascii_digit())
            .map(|(i, _)| i)
            .collect();
        let in_groups: Vec<usize> = p.groups.iter().flat_map(|g| g.range()).collect();
        assert_eq!(in_groups, digits);
        // Every ASCII white-space byte, at any alignment and at the end (not the padding).
        for t in [text, "a\r\x0b\x0c b\n", " x \t", "abcdefgh ", "abcdefg"] {
            let blank: Vec<usize> = (0..t.len())
                .filter(|&i| matches!(t.as_bytes()[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
                .collect();
            assert_eq!(Prescan::new(t).spaces, blank, "{t:?}");
        }
        assert_eq!(p.groups_in(Span::from(0..12)), &[Span::from(2..12)]);
        assert_eq!(p.groups.len(), 5);
    }
}
