//! WordPiece as BERT models read text (the `BertNormalizer` + `BertPreTokenizer` + `WordPiece`
//! triple of a tokenizer.json), with every token's byte offsets in the original text.
//!
//! One forward pass, no intermediate normalized string: each character of the text goes through
//! the normalizer's stages in the reference's order (clean-up, spaces around CJK ideographs, NFD
//! with non-spacing marks removed, lower case), then straight into the pre-tokenizer (split on
//! white space, each punctuation character a word of its own), and each finished word into the
//! greedy longest-match-first WordPiece. A normalized character carries the byte range of the
//! original character it came from, exactly as the `tokenizers` crate's alignments do, so tokens
//! from one character (a Hangul syllable decomposed into jamo, `ß`) share its offsets.
//!
//! Linear in the text: a word longer than `max_chars_per_word` characters is one unknown token
//! without being matched, and a shorter word's matching tries at most as many bytes as the
//! longest vocabulary entry. ASCII letters and digits skip the Unicode tables.

use llm_memory_core::error::{Error, ErrorCode, Result};
use rustc_hash::FxHashMap;
use unicode_normalization_alignments::UnicodeNormalization;

mod json;
pub mod tables;

/// The `BertNormalizer` options of a tokenizer.json. `strip_accents: null` there means "as
/// `lowercase`": resolve it before building these flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NormalizerFlags {
    pub lowercase: bool,
    pub strip_accents: bool,
    pub handle_chinese_chars: bool,
    pub clean_text: bool,
}

impl NormalizerFlags {
    /// Uncased BERT vocabularies (Rampart, all-MiniLM-L6-v2): everything on.
    pub const UNCASED: NormalizerFlags = NormalizerFlags {
        lowercase: true,
        strip_accents: true,
        handle_chinese_chars: true,
        clean_text: true,
    };
}

/// Tokens of one text, without special tokens.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Encoding {
    pub ids: Vec<u32>,
    /// Byte range of each token in the original text.
    pub offsets: Vec<(usize, usize)>,
    /// Which pre-tokenizer word (counted from 0) each token belongs to.
    pub word_index: Vec<u32>,
}

/// A WordPiece vocabulary with its normalizer flags.
#[derive(Debug, Clone)]
pub struct WordPiece {
    /// Every vocabulary entry: a word's first piece.
    whole: FxHashMap<Box<str>, u32>,
    /// Entries that start with the continuation prefix, prefix removed: later pieces.
    continuation: FxHashMap<Box<str>, u32>,
    /// Longest key of each map in bytes: no longer piece can match.
    longest_whole: usize,
    longest_continuation: usize,
    unk_id: u32,
    flags: NormalizerFlags,
    max_chars_per_word: usize,
}

impl WordPiece {
    /// `vocab[i]` is the token with id `i`. When a token is listed twice the later id wins, as
    /// when the `tokenizers` crate reads a vocab.txt.
    pub fn new(
        vocab: Vec<String>,
        flags: NormalizerFlags,
        unk: &str,
        prefix: &str,
        max_chars_per_word: usize,
    ) -> Result<WordPiece> {
        let bad = |m: String| Error::new(ErrorCode::InvalidTokenizer, m);
        if vocab.len() > u32::MAX as usize {
            return Err(bad(
                "the WordPiece vocabulary has more than 2^32 entries".into()
            ));
        }
        let mut whole = FxHashMap::default();
        let mut continuation = FxHashMap::default();
        let (mut longest_whole, mut longest_continuation) = (0, 0);
        for (id, token) in vocab.into_iter().enumerate() {
            let id = id as u32;
            if !prefix.is_empty() {
                if let Some(rest) = token.strip_prefix(prefix) {
                    longest_continuation = longest_continuation.max(rest.len());
                    continuation.insert(rest.into(), id);
                }
            }
            longest_whole = longest_whole.max(token.len());
            whole.insert(token.into_boxed_str(), id);
        }
        let unk_id = *whole.get(unk).ok_or_else(|| {
            bad(format!(
                "the unknown token {unk:?} is not in the vocabulary"
            ))
        })?;
        Ok(WordPiece {
            whole,
            continuation,
            longest_whole,
            longest_continuation,
            unk_id,
            flags,
            max_chars_per_word,
        })
    }

    /// The id of a vocabulary entry (`[CLS]`, `[SEP]`, ...).
    pub fn token_id(&self, token: &str) -> Option<u32> {
        self.whole.get(token).copied()
    }

    pub fn unk_id(&self) -> u32 {
        self.unk_id
    }

    /// Tokens of `text` without special tokens. Text that looks like a special token (`[SEP]`)
    /// is read as text: user input cannot place separators in the model's input.
    pub fn encode(&self, text: &str) -> Encoding {
        let mut state = Pass {
            model: self,
            out: Encoding::default(),
            word: String::new(),
            char_starts: Vec::new(),
            spans: Vec::new(),
            words: 0,
            pending: Vec::new(),
            previous_span: (0, 0),
        };
        // About one token per four bytes of English.
        let guess = text.len() / 4 + 1;
        state.out.ids.reserve(guess);
        state.out.offsets.reserve(guess);
        state.out.word_index.reserve(guess);
        for (i, c) in text.char_indices() {
            let span = (i, i + c.len_utf8());
            if c.is_ascii_alphanumeric() && state.pending.is_empty() {
                // No stage changes an ASCII letter or digit except lower case.
                state.previous_span = span;
                let c = if self.flags.lowercase {
                    c.to_ascii_lowercase()
                } else {
                    c
                };
                state.push_char(c, span);
            } else {
                state.clean(c, span);
            }
        }
        state.flush_pending();
        state.end_word();
        state.out
    }
}

/// Whether `c` lies in one of `table`'s inclusive ranges.
pub fn in_table(table: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The BERT pre-tokenizer's punctuation: ASCII symbols and Unicode P* categories.
fn is_punctuation(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_punctuation()
    } else {
        in_table(tables::PUNCTUATION, c)
    }
}

/// The CJK ideograph blocks the BERT normalizer puts spaces around (not kana, not Hangul).
fn is_chinese(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

/// The state of one `encode` call: the current word and the output.
struct Pass<'a> {
    model: &'a WordPiece,
    out: Encoding,
    /// Normalized characters of the current word.
    word: String,
    /// Byte start of each character in `word`.
    char_starts: Vec<usize>,
    /// Original byte range of each character in `word`.
    spans: Vec<(usize, usize)>,
    words: u32,
    /// Non-ASCII characters waiting for NFD: canonical reordering can move a mark across
    /// the characters of one run, never across an ASCII character (a starter).
    pending: Vec<(char, (usize, usize))>,
    /// Span of the last character that entered the NFD stage: the reference gives characters
    /// that a decomposition adds the alignment of the character read before them.
    previous_span: (usize, usize),
}

impl Pass<'_> {
    /// Stage 1, `clean_text`: drop NUL, U+FFFD and control/format/private-use characters; any
    /// white space becomes a space.
    fn clean(&mut self, c: char, span: (usize, usize)) {
        let mut c = c;
        if self.model.flags.clean_text {
            let control = !matches!(c, '\t' | '\n' | '\r') && in_table(tables::OTHER, c);
            if c == '\0' || c == '\u{FFFD}' || control {
                return;
            }
            if c.is_whitespace() {
                c = ' ';
            }
        }
        if self.model.flags.handle_chinese_chars && is_chinese(c) {
            // Stage 2: the ideograph becomes a word of its own.
            self.strip_accents(' ', span);
            self.strip_accents(c, span);
            self.strip_accents(' ', span);
        } else {
            self.strip_accents(c, span);
        }
    }

    /// Stage 3: NFD, then non-spacing marks removed.
    fn strip_accents(&mut self, c: char, span: (usize, usize)) {
        if !self.model.flags.strip_accents {
            self.lowercase(c, span);
        } else if c.is_ascii() {
            self.flush_pending();
            self.previous_span = span;
            self.lowercase(c, span);
        } else {
            self.pending.push((c, span));
        }
    }

    /// Decomposes the pending run with the reference's NFD and alignment rule: the k-th
    /// character a decomposition yields first takes the k-th input character's span, the
    /// characters it adds take the span of the input character read last.
    fn flush_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.pending);
        let mut next = 0;
        let mut previous = self.previous_span;
        for (d, change) in pending.iter().map(|p| p.0).nfd() {
            let span = if change > 0 {
                previous
            } else {
                previous = pending[next].1;
                next += 1;
                previous
            };
            if !in_table(tables::MARK_NONSPACING, d) {
                self.lowercase(d, span);
            }
        }
        self.previous_span = previous;
        self.pending = pending;
        self.pending.clear();
    }

    /// Stage 4: lower case; every character of a multi-character lower case keeps the span.
    fn lowercase(&mut self, c: char, span: (usize, usize)) {
        if !self.model.flags.lowercase || c.is_ascii() {
            let c = if self.model.flags.lowercase {
                c.to_ascii_lowercase()
            } else {
                c
            };
            self.pre_tokenize(c, span);
        } else {
            for l in c.to_lowercase() {
                self.pre_tokenize(l, span);
            }
        }
    }

    /// The pre-tokenizer: white space ends a word, punctuation is a word of its own.
    fn pre_tokenize(&mut self, c: char, span: (usize, usize)) {
        if c.is_whitespace() {
            self.end_word();
        } else if is_punctuation(c) {
            self.end_word();
            self.push_char(c, span);
            self.end_word();
        } else {
            self.push_char(c, span);
        }
    }

    fn push_char(&mut self, c: char, span: (usize, usize)) {
        self.char_starts.push(self.word.len());
        self.spans.push(span);
        self.word.push(c);
    }

    /// WordPiece on the finished word: greedy longest match from the left, the whole word one
    /// unknown token when it is too long or some position matches nothing.
    fn end_word(&mut self) {
        let n = self.spans.len();
        if n == 0 {
            return;
        }
        let model = self.model;
        let first_token = self.out.ids.len();
        let mut matched = n <= model.max_chars_per_word;
        let mut start = 0;
        while matched && start < n {
            let (map, longest) = if start == 0 {
                (&model.whole, model.longest_whole)
            } else {
                (&model.continuation, model.longest_continuation)
            };
            let from = self.char_starts[start];
            let byte_end = |end: usize| {
                self.char_starts
                    .get(end)
                    .copied()
                    .unwrap_or(self.word.len())
            };
            let mut end = n;
            while end > start && byte_end(end) - from > longest {
                end -= 1;
            }
            let found = loop {
                if end == start {
                    break None;
                }
                if let Some(&id) = map.get(&self.word[from..byte_end(end)]) {
                    break Some(id);
                }
                end -= 1;
            };
            match found {
                Some(id) => {
                    self.out.ids.push(id);
                    self.out
                        .offsets
                        .push((self.spans[start].0, self.spans[end - 1].1));
                    self.out.word_index.push(self.words);
                    start = end;
                }
                None => matched = false,
            }
        }
        if !matched {
            self.out.ids.truncate(first_token);
            self.out.offsets.truncate(first_token);
            self.out.word_index.truncate(first_token);
            self.out.ids.push(model.unk_id);
            self.out
                .offsets
                .push((self.spans[0].0, self.spans[n - 1].1));
            self.out.word_index.push(self.words);
        }
        self.words += 1;
        self.word.clear();
        self.char_starts.clear();
        self.spans.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(tokens: &[&str]) -> WordPiece {
        let vocab = ["[UNK]"]
            .iter()
            .chain(tokens)
            .map(|t| t.to_string())
            .collect();
        WordPiece::new(vocab, NormalizerFlags::UNCASED, "[UNK]", "##", 100).unwrap()
    }

    fn tokens(m: &WordPiece, text: &str) -> Vec<(u32, (usize, usize), u32)> {
        let e = m.encode(text);
        (0..e.ids.len())
            .map(|i| (e.ids[i], e.offsets[i], e.word_index[i]))
            .collect()
    }

    #[test]
    fn longest_match_first_with_continuation_pieces() {
        let m = model(&["un", "##aff", "##able", "##a", "unaff"]);
        // "unaff" is longer than "un": the first piece takes it.
        assert_eq!(
            tokens(&m, "unaffable"),
            vec![(5, (0, 5), 0), (3, (5, 9), 0)]
        );
    }

    #[test]
    fn a_word_with_an_unmatched_rest_is_one_unknown_token() {
        let m = model(&["un", "##aff"]);
        assert_eq!(tokens(&m, "x unaffz"), vec![(0, (0, 1), 0), (0, (2, 8), 1)]);
    }

    #[test]
    fn offsets_point_into_the_original_text() {
        let m = model(&["arger", "ab", "strasse", "straße"]);
        // Ä is two bytes and loses its diaeresis; U+200B is removed; ß stays ß.
        let text = "ÄRGER a\u{200B}b STRAßE";
        assert_eq!(
            tokens(&m, text),
            vec![(1, (0, 6), 0), (2, (7, 12), 1), (4, (13, 20), 2)]
        );
    }

    #[test]
    fn pieces_of_one_character_share_its_offsets() {
        // 각 decomposes into three jamo; each piece points at the whole syllable.
        let m = model(&["\u{1100}", "##\u{1161}", "##\u{11A8}"]);
        assert_eq!(
            tokens(&m, "x각"),
            vec![(0, (0, 4), 0)],
            "a word with an unknown character is one unknown token"
        );
        assert_eq!(
            tokens(&m, "각"),
            vec![(1, (0, 3), 0), (2, (0, 3), 0), (3, (0, 3), 0)]
        );
    }

    #[test]
    fn punctuation_and_ideographs_are_words_of_their_own() {
        let m = model(&["hi", ",", "you", "東", "京"]);
        assert_eq!(
            tokens(&m, "hi, you東京"),
            vec![
                (1, (0, 2), 0),
                (2, (2, 3), 1),
                (3, (4, 7), 2),
                (4, (7, 10), 3),
                (5, (10, 13), 4)
            ]
        );
    }

    #[test]
    fn a_megabyte_word_is_one_unknown_token() {
        let m = model(&["a", "##a"]);
        let text = "a".repeat(1 << 20);
        assert_eq!(tokens(&m, &text), vec![(0, (0, 1 << 20), 0)]);
        // At the limit the word is still matched.
        assert_eq!(m.encode(&"a".repeat(100)).ids.len(), 100);
    }

    #[test]
    fn empty_and_blank_text_have_no_tokens() {
        let m = model(&["a"]);
        assert_eq!(m.encode(""), Encoding::default());
        assert_eq!(m.encode(" \t\r\n\u{200B}\u{3000}"), Encoding::default());
    }

    #[test]
    fn a_vocabulary_without_its_unknown_token_is_an_error() {
        let e = WordPiece::new(
            vec!["a".into()],
            NormalizerFlags::UNCASED,
            "[UNK]",
            "##",
            100,
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidTokenizer);
    }
}
