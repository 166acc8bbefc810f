//! What every gate needs to know about a text, found once per text instead of once per
//! recognizer: where the digits are and which stretches without white space are long enough to
//! hold a key, a token or a wallet address. Plus the small text helpers the gates share.

use regex_automata::Span;

/// Runs without white space shorter than this hold no key, token or wallet address: the gates
/// of those recognizers (`min_len >= LONG`) only look inside longer runs. Fifteen bytes is the
/// shortest run sure to cover an aligned eight-byte block, which is how they are found.
pub(crate) const LONG: usize = 15;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that is an ASCII digit.
fn digits_in(x: u64) -> u64 {
    let low = x & !HIGH;
    let at_least_0 = low + (0x80 - b'0' as u64) * ONES;
    let above_9 = low + (0x80 - b'9' as u64 - 1) * ONES;
    at_least_0 & !above_9 & !x & HIGH
}

/// Whether a byte of `x` equals `c`.
fn has_byte(x: u64, c: u8) -> bool {
    let y = x ^ (c as u64 * ONES);
    y.wrapping_sub(ONES) & !y & HIGH != 0
}

/// The bytes that end runs: space, tab and newline.
fn is_separator(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\t')
}

fn has_separator(x: u64) -> bool {
    has_byte(x, b' ') || has_byte(x, b'\n') || has_byte(x, b'\t')
}

/// Whether `ſ` or `K` (which `(?i)` matches to ASCII letters) starts at byte `i`.
fn folds_at(b: &[u8], i: usize) -> bool {
    b[i..].starts_with("ſ".as_bytes()) || b[i..].starts_with("\u{212a}".as_bytes())
}

/// The shared facts about one text.
#[derive(Default)]
pub(crate) struct Prescan {
    /// Positions of the ASCII digits.
    pub digits: Vec<usize>,
    /// Maximal runs of bytes other than space, tab and newline that are at least [`LONG`]
    /// bytes long (and some a little shorter). Other white space stays inside runs, which only
    /// makes them longer.
    pub long: Vec<Span>,
    /// Whether the text holds a character that `(?i)` matches to an ASCII letter.
    pub folds: bool,
}

impl Prescan {
    pub(crate) fn new(text: &str) -> Prescan {
        let b = text.as_bytes();
        let mut pre = Prescan {
            digits: b
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_ascii_digit())
                .map(|(i, _)| i)
                .collect(),
            ..Prescan::default()
        };
        // Eight bytes at a time (SWAR): most blocks hold no digit and no non-ASCII byte, and a
        // run of at least LONG bytes covers a whole block without a separator. Byte by byte,
        // this pass cost more than the rest of a short text's scan.
        let blocks = b.chunks_exact(8);
        let rest = blocks.remainder().len();
        let mut clean_before = false;
        for (k, block) in blocks.enumerate() {
            let x = u64::from_le_bytes(block.try_into().unwrap_or([0; 8]));
            let at = k * 8;
            if x & HIGH != 0 && !pre.folds {
                pre.folds = (at..at + 8).any(|i| folds_at(b, i));
            }
            let clean = !has_separator(x);
            if clean && !clean_before && pre.long.last().is_none_or(|l| l.end < at) {
                let start = b[..at]
                    .iter()
                    .rposition(|&c| is_separator(c))
                    .map_or(0, |p| p + 1);
                let end = b[at..]
                    .iter()
                    .position(|&c| is_separator(c))
                    .map_or(b.len(), |p| at + p);
                if end - start >= LONG {
                    pre.long.push(Span::from(start..end));
                }
            }
            clean_before = clean;
        }
        for i in b.len() - rest..b.len() {
            pre.folds = pre.folds || folds_at(b, i);
        }
        pre
    }

    /// The digits inside `span`.
    pub(crate) fn digits_in(&self, span: Span) -> &[usize] {
        let lo = self.digits.partition_point(|&d| d < span.start);
        let hi = self.digits.partition_point(|&d| d < span.end);
        &self.digits[lo..hi]
    }
}

/// Start positions of `word` (lower-case ASCII) in `text`, ignoring ASCII case.
pub(crate) fn find_ci<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let w = word.as_bytes();
    let (first_lo, first_up) = (w[0], w[0].to_ascii_uppercase());
    let b = text.as_bytes();
    memchr::memchr2_iter(first_lo, first_up, b)
        .filter(move |&i| b.len() - i >= w.len() && b[i..i + w.len()].eq_ignore_ascii_case(w))
}

/// The end of the white space (Unicode `\s`) starting at `i`.
pub(crate) fn skip_space(text: &str, mut i: usize) -> usize {
    while let Some(c) = text.get(i..).and_then(|t| t.chars().next()) {
        if !c.is_whitespace() {
            break;
        }
        i += c.len_utf8();
    }
    i
}

/// The start of the white space (Unicode `\s`) ending at `i`.
pub(crate) fn skip_space_back(text: &str, mut i: usize) -> usize {
    while let Some(c) = text[..i].chars().next_back() {
        if !c.is_whitespace() {
            break;
        }
        i -= c.len_utf8();
    }
    i
}

/// The end of the run of non-white-space characters starting at `i`.
pub(crate) fn skip_word(text: &str, mut i: usize) -> usize {
    while let Some(c) = text.get(i..).and_then(|t| t.chars().next()) {
        if c.is_whitespace() {
            break;
        }
        i += c.len_utf8();
    }
    i
}

/// The start of the run of non-white-space characters ending at `i`.
pub(crate) fn skip_word_back(text: &str, mut i: usize) -> usize {
    while let Some(c) = text[..i].chars().next_back() {
        if c.is_whitespace() {
            break;
        }
        i -= c.len_utf8();
    }
    i
}

/// The first char boundary at or after `i` (clamped to the text).
pub(crate) fn ceil_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The last char boundary at or before `i`.
pub(crate) fn floor_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
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

#[cfg(test)]
mod tests {
    /// Every run of at least LONG bytes without a separator is found, whatever its alignment.
    #[test]
    fn long_runs_at_every_offset() {
        for pad in 0..9 {
            for len in [LONG - 1, LONG, LONG + 1, 30] {
                let text = format!("{} {} tail", "p".repeat(pad), "k".repeat(len));
                let p = Prescan::new(&text);
                let want = Span::from(pad + 1..pad + 1 + len);
                assert_eq!(p.long.contains(&want), len >= LONG, "pad {pad} len {len}");
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
        assert_eq!(p.digits, digits);
        assert_eq!(
            p.digits_in(Span::from(0..12)),
            &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
        );
        for c in 0..=255u8 {
            let x = u64::from_le_bytes([b'a', c, b'z', 0x80, 0xff, b'/', b':', b' ']);
            assert_eq!(digits_in(x) != 0, c.is_ascii_digit(), "{c}");
        }
    }

    #[test]
    fn unicode_space_skips() {
        let t = "ab \u{a0}\u{2003}cd";
        assert_eq!(skip_space(t, 2), 8);
        assert_eq!(skip_space_back(t, 8), 2);
        assert_eq!(skip_word(t, 8), t.len());
        assert_eq!(skip_word_back(t, 2), 0);
    }
}
