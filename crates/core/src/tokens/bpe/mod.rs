//! Exact, fast counting for byte-level BPE vocabularies (gpt-4o, llama3, qwen2/3 and others
//! with the same split patterns): added tokens, optional NFC, a hand-written pre-tokenizer
//! (`pretok`), then byte-pair merges over ids with a rank table (`merge`). SentencePiece-style
//! BPE files (Llama 2, Mistral, Gemma, Gemini) take the same merges after their own
//! normalization and first symbols (`metaspace`). Counting builds no token strings. `load`
//! decides from a tokenizer.json whether this path applies; the `tokenizers` crate, where the
//! build has it, handles every other file.

mod bytes;
mod load;
pub mod merge;
pub mod metaspace;
pub mod prepared;
pub mod pretok;

use aho_corasick::{AhoCorasick, MatchKind};
use merge::MergeTable;
use pretok::Pattern;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::sync::Mutex;

pub use load::{byte_chars, from_json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalizer {
    None,
    Nfc,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedToken {
    pub id: u32,
    pub content: String,
    /// Matched after normalization (only allowed here when there is no normalizer).
    pub normalized: bool,
}

/// A piece of the input: an added token's id, or text for the model.
enum Segment<'t> {
    Added(u32),
    Text(&'t str),
}

/// Added tokens are found the way the `tokenizers` crate finds them: leftmost-longest, first
/// those matched on the raw text, then, in what is left, those matched on normalized text.
struct AddedMatcher {
    raw: Option<(AhoCorasick, Vec<u32>)>,
    normalized: Option<(AhoCorasick, Vec<u32>)>,
}

impl AddedMatcher {
    fn new(tokens: &[AddedToken]) -> Self {
        let build = |normalized: bool| {
            let (pats, ids): (Vec<&str>, Vec<u32>) = tokens
                .iter()
                .filter(|t| t.normalized == normalized)
                .map(|t| (t.content.as_str(), t.id))
                .unzip();
            if pats.is_empty() {
                return None;
            }
            let ac = AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(&pats)
                .ok()?;
            Some((ac, ids))
        };
        AddedMatcher {
            raw: build(false),
            normalized: build(true),
        }
    }

    fn split<'t>(
        m: &Option<(AhoCorasick, Vec<u32>)>,
        text: &'t str,
        f: &mut dyn FnMut(Segment<'t>),
    ) {
        let Some((ac, ids)) = m else {
            return f(Segment::Text(text));
        };
        let mut last = 0;
        for hit in ac.find_iter(text) {
            if hit.start() > last {
                f(Segment::Text(&text[last..hit.start()]));
            }
            f(Segment::Added(ids[hit.pattern().as_usize()]));
            last = hit.end();
        }
        if last < text.len() {
            f(Segment::Text(&text[last..]));
        }
    }

    fn each<'t>(&self, text: &'t str, f: &mut dyn FnMut(Segment<'t>)) {
        if self.normalized.is_none() {
            return Self::split(&self.raw, text, f);
        }
        Self::split(&self.raw, text, &mut |seg| match seg {
            Segment::Text(t) => Self::split(&self.normalized, t, f),
            added => f(added),
        });
    }
}

/// Counts of short pieces seen before (common words): a direct-mapped table, so a hit costs one
/// hash and one comparison and the memory stays fixed (16 384 slots, 512 KiB).
struct PieceCache {
    slots: Vec<(u128, u32)>,
    /// Pieces of 16 to 64 bytes (emoji sequences, long words, punctuation runs), cleared when
    /// full.
    long: FxHashMap<Box<[u8]>, u32>,
}

const LONG_MAX: usize = 64;
const LONG_ENTRIES: usize = 1 << 15;

const CACHE_SLOTS: usize = 1 << 14;
/// Pieces up to 15 bytes are cached, packed with their length into the key.
const CACHE_MAX: usize = 15;

impl PieceCache {
    fn key(bytes: &[u8]) -> u128 {
        let mut k = [0u8; 16];
        k[..bytes.len()].copy_from_slice(bytes);
        k[15] = bytes.len() as u8; // never u128::MAX, the empty slot
        u128::from_le_bytes(k)
    }
    fn slot(key: u128) -> usize {
        let h = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - 14)) as usize
    }
}

/// How text is cut into pieces and a piece into its first symbols.
pub enum Pieces {
    /// Byte-level BPE: the split pattern, then one symbol per byte.
    ByteLevel(Pattern),
    /// SentencePiece-style BPE: spaces as `▁`, one symbol per character.
    Metaspace(Box<metaspace::Symbols>),
}

pub struct FastBpe {
    pieces: Pieces,
    normalizer: Normalizer,
    table: MergeTable,
    /// Whole-entry lookups when the model sets `ignore_merges`.
    whole: Option<FxHashMap<Box<[u8]>, u32>>,
    added: Vec<AddedToken>,
    matcher: AddedMatcher,
    cache: Mutex<PieceCache>,
}

impl FastBpe {
    pub fn new(
        pieces: Pieces,
        normalizer: Normalizer,
        table: MergeTable,
        whole: Option<FxHashMap<Box<[u8]>, u32>>,
        added: Vec<AddedToken>,
    ) -> Self {
        let matcher = AddedMatcher::new(&added);
        FastBpe {
            pieces,
            normalizer,
            table,
            whole,
            added,
            matcher,
            cache: Mutex::new(PieceCache {
                slots: vec![(u128::MAX, 0); CACHE_SLOTS],
                long: FxHashMap::default(),
            }),
        }
    }

    fn normalize<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if let Pieces::Metaspace(m) = &self.pieces {
            return Cow::Owned(metaspace::normalize(text, m.prepend));
        }
        // No character below U+0300 (lead byte 0xCC) composes or decomposes under NFC.
        if self.normalizer == Normalizer::Nfc && text.bytes().any(|b| b >= 0xCC) {
            use unicode_normalization_alignments::UnicodeNormalization;
            Cow::Owned(text.nfc().map(|(c, _)| c).collect())
        } else {
            Cow::Borrowed(text)
        }
    }

    fn piece(&self, piece: &str, out: &mut Vec<u32>) {
        if let Some(whole) = &self.whole {
            if let Some(&id) = whole.get(piece.as_bytes()) {
                out.push(id);
                return;
            }
        }
        match &self.pieces {
            Pieces::ByteLevel(_) => self.table.encode(piece.as_bytes(), out),
            Pieces::Metaspace(m) => {
                let mut first = Vec::with_capacity(piece.len());
                m.initial(piece, &mut first);
                self.table.merge(&first, out);
            }
        }
    }

    /// Calls `f` with each piece of a normalized text.
    fn split<'t>(&self, text: &'t str, f: impl FnMut(&'t str)) {
        match &self.pieces {
            Pieces::ByteLevel(p) => p.split(text, f),
            Pieces::Metaspace(m) => m.split(text, f),
        }
    }

    /// Token ids of `text`, without special tokens added around it.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        self.matcher.each(text, &mut |seg| match seg {
            Segment::Added(id) => out.push(id),
            Segment::Text(t) => {
                let t = self.normalize(t);
                self.split(&t, |p| self.piece(p, &mut out));
            }
        });
        out
    }

    fn count_with(&self, text: &str, cache: &mut PieceCache, buf: &mut Vec<u32>) -> usize {
        let mut n = 0;
        self.matcher.each(text, &mut |seg| match seg {
            Segment::Added(_) => n += 1,
            Segment::Text(t) => {
                let t = self.normalize(t);
                let byte_level = matches!(self.pieces, Pieces::ByteLevel(_));
                self.split(&t, |p| {
                    let b = p.as_bytes();
                    // One byte is one token at byte level; a character may be several bytes.
                    if b.len() == 1 && byte_level {
                        n += 1;
                    } else if b.len() <= CACHE_MAX {
                        let key = PieceCache::key(b);
                        let slot = &mut cache.slots[PieceCache::slot(key)];
                        if slot.0 != key {
                            buf.clear();
                            self.piece(p, buf);
                            *slot = (key, buf.len() as u32);
                        }
                        n += slot.1 as usize;
                    } else if b.len() <= LONG_MAX {
                        if let Some(&c) = cache.long.get(b) {
                            n += c as usize;
                        } else {
                            buf.clear();
                            self.piece(p, buf);
                            if cache.long.len() >= LONG_ENTRIES {
                                cache.long.clear();
                            }
                            cache.long.insert(b.into(), buf.len() as u32);
                            n += buf.len();
                        }
                    } else {
                        buf.clear();
                        self.piece(p, buf);
                        n += buf.len();
                    }
                });
            }
        });
        n
    }

    pub fn count(&self, text: &str) -> usize {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        self.count_with(text, &mut cache, &mut Vec::new())
    }

    pub fn count_many(&self, texts: &[&str]) -> Vec<usize> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let mut buf = Vec::new();
        texts
            .iter()
            .map(|t| self.count_with(t, &mut cache, &mut buf))
            .collect()
    }

    pub fn pieces(&self) -> &Pieces {
        &self.pieces
    }
}
