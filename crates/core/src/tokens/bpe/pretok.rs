//! The split regexes of the byte-level BPE vocabularies, matched by hand in one forward pass.
//!
//! Each `piece_end` reproduces what a backtracking engine (fancy-regex in the `tokenizers`
//! crate, Oniguruma in Python) returns for the pattern at that position, alternative by
//! alternative, without backtracking: every decision looks at most at the current run of one
//! character class, so the whole split is linear in the text. Character classes follow the
//! Rust `regex` crate: `\s` is Unicode `White_Space`, `\p{L}`/`\p{N}`/`\p{M}` are general
//! categories.

use std::sync::OnceLock;
use unicode_general_category::{get_general_category, GeneralCategory as G};

/// The split patterns implemented here, recognized by their exact text in tokenizer.json.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// cl100k / llama3 (`digits` = 3) and qwen2/qwen3 (`digits` = 1): contractions first,
    /// then `[^\r\n\p{L}\p{N}]?\p{L}+`, digit groups, punctuation runs, whitespace.
    Cl100k { digits: u8 },
    /// o200k (gpt-4o): case-aware letter runs with trailing contractions.
    O200k,
}

const CL100K: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const QWEN: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const O200K: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+";

impl Pattern {
    /// The pattern whose regex text is exactly `regex`, if it is one implemented here.
    pub fn recognize(regex: &str) -> Option<Pattern> {
        match regex {
            CL100K => Some(Pattern::Cl100k { digits: 3 }),
            QWEN => Some(Pattern::Cl100k { digits: 1 }),
            O200K => Some(Pattern::O200k),
            _ => None,
        }
    }

    /// The regex text of this pattern (what tokenizer.json spells).
    pub fn regex(self) -> &'static str {
        match self {
            Pattern::Cl100k { digits: 3 } => CL100K,
            Pattern::Cl100k { .. } => QWEN,
            Pattern::O200k => O200K,
        }
    }

    /// Calls `f` with each piece of `text`, in order. The pieces cover the text exactly.
    pub fn split<'t>(self, text: &'t str, mut f: impl FnMut(&'t str)) {
        let s = Scan {
            b: text.as_bytes(),
            table: table(),
        };
        let mut i = 0;
        while i < s.b.len() {
            let e = match self {
                Pattern::Cl100k { digits } => s.cl100k(i, digits as usize),
                Pattern::O200k => s.o200k(i),
            };
            debug_assert!(e > i && text.is_char_boundary(e));
            f(&text[i..e]);
            i = e;
        }
    }
}

// Character classes. `LU`: Lu/Lt; `LL`: Ll; `LB`: Lm/Lo (in both of o200k's case sets);
// `MK`: marks (not letters, but in both case sets); `NUM`: \p{N}; `WS`: White_Space but \r\n;
// `NL`: \r or \n; `OTH`: anything else.
const LU: u8 = 0;
const LL: u8 = 1;
const LB: u8 = 2;
const MK: u8 = 3;
const NUM: u8 = 4;
const WS: u8 = 5;
const NL: u8 = 6;
const OTH: u8 = 7;

fn classify(c: char) -> u8 {
    match c {
        '\r' | '\n' => return NL,
        '\t'
        | '\u{0B}'
        | '\u{0C}'
        | ' '
        | '\u{85}'
        | '\u{A0}'
        | '\u{1680}'
        | '\u{2000}'..='\u{200A}'
        | '\u{2028}'
        | '\u{2029}'
        | '\u{202F}'
        | '\u{205F}'
        | '\u{3000}' => return WS,
        _ => {}
    }
    match get_general_category(c) {
        G::UppercaseLetter | G::TitlecaseLetter => LU,
        G::LowercaseLetter => LL,
        G::ModifierLetter | G::OtherLetter => LB,
        G::NonspacingMark | G::SpacingMark | G::EnclosingMark => MK,
        G::DecimalNumber | G::LetterNumber | G::OtherNumber => NUM,
        _ => OTH,
    }
}

/// Classes of the Basic Multilingual Plane, one byte each, built once (64 KiB).
fn table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0u32..0x10000)
            .map(|u| char::from_u32(u).map_or(OTH, classify))
            .collect()
    })
}

fn is_letter(c: u8) -> bool {
    c <= LB
}
/// `[^\r\n\p{L}\p{N}]`: the optional character before a letter run.
fn is_prefix(c: u8) -> bool {
    matches!(c, MK | WS | OTH)
}
/// `[^\s\p{L}\p{N}]`: punctuation, symbols, marks, controls.
fn is_punct(c: u8) -> bool {
    matches!(c, MK | OTH)
}
fn is_space(c: u8) -> bool {
    matches!(c, WS | NL)
}
/// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`
fn is_upper(c: u8) -> bool {
    matches!(c, LU | LB | MK)
}
/// `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`
fn is_lower(c: u8) -> bool {
    matches!(c, LL | LB | MK)
}

struct Scan<'a> {
    b: &'a [u8],
    table: &'a [u8],
}

impl Scan<'_> {
    /// Class of the character at byte `i` (< len) and the byte after it.
    #[inline]
    fn at(&self, i: usize) -> (u8, usize) {
        let b0 = self.b[i];
        if b0 < 0x80 {
            return (self.table[b0 as usize], i + 1);
        }
        let (u, n) = if b0 < 0xE0 {
            (((b0 as u32 & 0x1F) << 6) | (self.b[i + 1] as u32 & 0x3F), 2)
        } else if b0 < 0xF0 {
            (
                ((b0 as u32 & 0x0F) << 12)
                    | ((self.b[i + 1] as u32 & 0x3F) << 6)
                    | (self.b[i + 2] as u32 & 0x3F),
                3,
            )
        } else {
            let u = ((b0 as u32 & 0x07) << 18)
                | ((self.b[i + 1] as u32 & 0x3F) << 12)
                | ((self.b[i + 2] as u32 & 0x3F) << 6)
                | (self.b[i + 3] as u32 & 0x3F);
            return (char::from_u32(u).map_or(OTH, classify), i + 4);
        };
        (self.table[u as usize], i + n)
    }

    /// Class at `i`, or `None` at the end.
    #[inline]
    fn peek(&self, i: usize) -> Option<(u8, usize)> {
        (i < self.b.len()).then(|| self.at(i))
    }

    /// End of the run of characters from `i` whose class passes `keep`.
    #[inline]
    fn run(&self, mut i: usize, keep: impl Fn(u8) -> bool) -> usize {
        while let Some((c, n)) = self.peek(i) {
            if !keep(c) {
                break;
            }
            i = n;
        }
        i
    }

    /// `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at `i`: its end, if it matches. Case folding as in the
    /// `regex` crate, where `s` also matches U+017F (long s).
    fn contraction(&self, i: usize) -> Option<usize> {
        let b = self.b;
        if b.get(i) != Some(&b'\'') {
            return None;
        }
        let lower = |k: usize| b.get(k).map(|c| c.to_ascii_lowercase());
        match lower(i + 1)? {
            b's' | b't' | b'm' | b'd' => Some(i + 2),
            b'r' if lower(i + 2) == Some(b'e') => Some(i + 3),
            b'v' if lower(i + 2) == Some(b'e') => Some(i + 3),
            b'l' if lower(i + 2) == Some(b'l') => Some(i + 3),
            0xC5 if b.get(i + 2) == Some(&0xBF) => Some(i + 3), // ſ
            _ => None,
        }
    }

    /// The three whitespace alternatives `\s*[\r\n]+|\s+(?!\S)|\s+` at a whitespace char `i`.
    fn whitespace(&self, i: usize) -> usize {
        let mut j = i;
        let mut last_start = i;
        let mut after_newline = None;
        while let Some((c, n)) = self.peek(j) {
            if !is_space(c) {
                break;
            }
            if c == NL {
                after_newline = Some(n);
            }
            last_start = j;
            j = n;
        }
        if let Some(e) = after_newline {
            return e; // \s*[\r\n]+ backtracks to the last newline of the run
        }
        if j == self.b.len() || last_start == i {
            return j; // \s+(?!\S) at the end of the text, or a single \s+
        }
        last_start // \s+(?!\S) leaves the last space to the next piece
    }

    /// ` ?[^\s\p{L}\p{N}]+` followed by `[\r\n]*` (or `[\r\n/]*` with `slash`).
    fn punct(&self, i: usize, n: usize, slash: bool) -> Option<usize> {
        let j = if self.b[i] == b' ' { n } else { i };
        match self.peek(j) {
            Some((c2, _)) if is_punct(c2) => {}
            _ => return None,
        }
        let mut e = self.run(j, is_punct);
        while let Some(&b) = self.b.get(e) {
            if b == b'\r' || b == b'\n' || (slash && b == b'/') {
                e += 1;
            } else {
                break;
            }
        }
        Some(e)
    }

    fn digits(&self, mut i: usize, max: usize) -> usize {
        for _ in 0..max {
            match self.peek(i) {
                Some((NUM, n)) => i = n,
                _ => break,
            }
        }
        i
    }

    fn cl100k(&self, i: usize, digits: usize) -> usize {
        if let Some(e) = self.contraction(i) {
            return e;
        }
        let (c, n) = self.at(i);
        if is_letter(c) {
            return self.run(n, is_letter);
        }
        if is_prefix(c) {
            if let Some((c2, n2)) = self.peek(n) {
                if is_letter(c2) {
                    return self.run(n2, is_letter);
                }
            }
        }
        if c == NUM {
            return self.digits(i, digits);
        }
        if let Some(e) = self.punct(i, n, false) {
            return e;
        }
        self.whitespace(i)
    }

    /// `[\p{Lu}..\p{M}]*[\p{Ll}..\p{M}]+` at `j` as a backtracking engine matches it: the upper
    /// run, then a lower run; failing that, the upper run given back to its last lower-set char.
    fn upper_lower(&self, j: usize) -> Option<usize> {
        let mut k = j;
        let mut last_lower_end = None;
        while let Some((c, n)) = self.peek(k) {
            if !is_upper(c) {
                if is_lower(c) {
                    return Some(self.run(n, is_lower));
                }
                break;
            }
            if is_lower(c) {
                last_lower_end = Some(n);
            }
            k = n;
        }
        last_lower_end
    }

    fn with_contraction(&self, e: usize) -> usize {
        self.contraction(e).unwrap_or(e)
    }

    fn o200k(&self, i: usize) -> usize {
        let (c, n) = self.at(i);
        // [^\r\n\p{L}\p{N}]?[upper]*[lower]+(?i:'s|...)?
        if is_prefix(c) {
            if let Some(e) = self.upper_lower(n) {
                return self.with_contraction(e);
            }
        }
        if let Some(e) = self.upper_lower(i) {
            return self.with_contraction(e);
        }
        // [^\r\n\p{L}\p{N}]?[upper]+[lower]*(?i:'s|...)?
        if is_prefix(c) {
            if let Some((c2, n2)) = self.peek(n) {
                if is_upper(c2) {
                    let e = self.run(self.run(n2, is_upper), is_lower);
                    return self.with_contraction(e);
                }
            }
        }
        if is_upper(c) {
            let e = self.run(self.run(n, is_upper), is_lower);
            return self.with_contraction(e);
        }
        if c == NUM {
            return self.digits(i, 3);
        }
        if let Some(e) = self.punct(i, n, true) {
            return e;
        }
        self.whitespace(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(p: Pattern, s: &str) -> Vec<&str> {
        let mut v = Vec::new();
        p.split(s, |x| v.push(x));
        v
    }

    #[test]
    fn cl100k_pieces() {
        let p = Pattern::Cl100k { digits: 3 };
        assert_eq!(
            pieces(p, "Hello world's  12345 ok!!\n\n  x"),
            ["Hello", " world", "'s", " ", " ", "123", "45", " ok", "!!\n\n", " ", " x"]
        );
    }

    #[test]
    fn o200k_pieces() {
        assert_eq!(
            pieces(Pattern::O200k, "HELLOworld I'M a/b\n/"),
            ["HELLOworld", " I'M", " a", "/b", "\n", "/"]
        );
    }
}
