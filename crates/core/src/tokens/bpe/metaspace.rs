//! SentencePiece-style BPE (Llama 2, Mistral, Gemma, Gemini): spaces become `▁` (and a `▁` is
//! prepended where the file says so), the model's symbols start as characters, characters
//! outside the vocabulary fall back to their `<0xXX>` byte tokens (or the unknown token), and
//! merges run over the whole text, as the `tokenizers` crate's `merge_word` does.
//!
//! Such files have no pre-tokenizer, so a 2 kB message is one piece for the merges. Pieces are
//! cut before each `▁` that follows another character, which changes nothing as long as no
//! vocabulary entry holds a character followed by `▁`: no merge can then join across the cut.
//! The few files with such entries (Gemma 3 has `>▁</`) list them as `crossing`, and a cut is
//! skipped where one of them occurs; files with too many keep the whole text as one piece.

use super::bytes::{put, Reader};
use rustc_hash::FxHashMap;

/// `▁` (U+2581), what SentencePiece writes for a space.
pub const METASPACE: &str = "\u{2581}";
const METASPACE_BYTES: &[u8] = METASPACE.as_bytes();

/// More entries than this with a character before `▁`, and cutting is not worth it.
const MAX_CROSSING: usize = 64;

/// The first symbols of a piece: characters looked up in the vocabulary.
pub struct Symbols {
    ascii: [u32; 128],
    chars: FxHashMap<char, u32>,
    /// The `<0xXX>` token of each byte (`NONE` where the vocabulary lacks it), when the model
    /// falls back to bytes.
    bytes: Option<Box<[u32; 256]>>,
    unk: Option<u32>,
    fuse_unk: bool,
    /// Entries with a character right before a `▁`, with the offset of each such `▁` in them;
    /// `None` when cutting is off.
    crossing: Option<Vec<(Box<[u8]>, usize)>>,
    /// `Prepend("▁")`: each text segment starts with a `▁`.
    pub prepend: bool,
}

const NONE: u32 = u32::MAX;

impl Symbols {
    /// From the vocabulary (token, id) pairs and the model's options.
    pub fn new<'a>(
        vocab: impl Iterator<Item = (&'a str, u32)>,
        byte_fallback: bool,
        unk: Option<u32>,
        fuse_unk: bool,
        prepend: bool,
    ) -> Symbols {
        let mut ascii = [NONE; 128];
        let mut chars = FxHashMap::default();
        let mut bytes = [NONE; 256];
        let mut crossing = Vec::new();
        for (token, id) in vocab {
            let mut it = token.chars();
            if let (Some(c), None) = (it.next(), it.next()) {
                if c.is_ascii() {
                    ascii[c as usize] = id;
                } else {
                    chars.insert(c, id);
                }
                continue;
            }
            if let Some(b) = byte_token(token) {
                bytes[b as usize] = id;
            }
            let t = token.as_bytes();
            let mut prev_is_meta = true;
            let mut at = 0;
            while at < t.len() {
                let is_meta = t[at..].starts_with(METASPACE_BYTES);
                if is_meta && !prev_is_meta {
                    crossing.push((t.into(), at));
                }
                prev_is_meta = is_meta;
                at += if is_meta { 3 } else { 1 };
            }
        }
        Symbols {
            ascii,
            chars,
            bytes: byte_fallback.then(|| Box::new(bytes)),
            unk,
            fuse_unk,
            // A character with no token, no byte tokens and no unknown token is dropped before
            // merging, so the `▁`s around it may merge: no cuts then.
            crossing: (crossing.len() <= MAX_CROSSING
                && (unk.is_some() || byte_fallback && bytes.iter().all(|&id| id != NONE)))
            .then_some(crossing),
            prepend,
        }
    }

    fn char_id(&self, c: char) -> u32 {
        if c.is_ascii() {
            self.ascii[c as usize]
        } else {
            self.chars.get(&c).copied().unwrap_or(NONE)
        }
    }

    /// The first symbols of `piece`, as the `tokenizers` crate's `merge_word` forms them.
    pub fn initial(&self, piece: &str, out: &mut Vec<u32>) {
        // A run of unknown characters not yet written (fused into one unknown token).
        let mut unk_pending = false;
        for c in piece.chars() {
            let id = self.char_id(c);
            if id != NONE {
                if unk_pending {
                    out.extend(self.unk);
                    unk_pending = false;
                }
                out.push(id);
                continue;
            }
            if let Some(bytes) = &self.bytes {
                // Byte tokens go straight in, before a pending unknown token, as the crate does;
                // only when every byte of the character has one.
                let mut buf = [0u8; 4];
                let utf8 = c.encode_utf8(&mut buf).as_bytes();
                if utf8.iter().all(|&b| bytes[b as usize] != NONE) {
                    out.extend(utf8.iter().map(|&b| bytes[b as usize]));
                    continue;
                }
            }
            if self.unk.is_some() {
                if unk_pending && !self.fuse_unk {
                    out.extend(self.unk);
                }
                unk_pending = true;
            }
        }
        if unk_pending {
            out.extend(self.unk);
        }
    }

    /// Appends the prepared form: u8 flags (1 byte fallback, 2 unknown token, 4 fuse, 8 cuts),
    /// 128 × u32 ASCII ids, u32 n + n × (u32 char, u32 id), [256 × u32 byte ids], [u32 unknown
    /// id], [u32 n + n × (u32 offset of `▁`, u32 len, bytes) crossing entries].
    pub fn write(&self, out: &mut Vec<u8>) {
        let flags = self.bytes.is_some() as u8
            | (self.unk.is_some() as u8) << 1
            | (self.fuse_unk as u8) << 2
            | (self.crossing.is_some() as u8) << 3;
        out.push(flags);
        for id in self.ascii {
            put(out, id);
        }
        let mut chars: Vec<_> = self.chars.iter().collect();
        chars.sort_unstable();
        put(out, chars.len() as u32);
        for (&c, &id) in chars {
            put(out, c as u32);
            put(out, id);
        }
        for id in self.bytes.iter().flat_map(|b| b.iter()) {
            put(out, *id);
        }
        if let Some(unk) = self.unk {
            put(out, unk);
        }
        if let Some(crossing) = &self.crossing {
            put(out, crossing.len() as u32);
            for (t, at) in crossing {
                put(out, *at as u32);
                put(out, t.len() as u32);
                out.extend_from_slice(t);
            }
        }
    }

    /// Reads what [`Symbols::write`] wrote; `None` when the data is not that.
    pub(super) fn read(r: &mut Reader, prepend: bool) -> Option<Symbols> {
        let flags = r.bytes(1)?[0];
        if flags > 15 {
            return None;
        }
        let mut ascii = [NONE; 128];
        for id in ascii.iter_mut() {
            *id = r.u32()?;
        }
        let n = r.u32()? as usize;
        if n > r.left() / 8 {
            return None;
        }
        let mut chars = FxHashMap::default();
        chars.reserve(n);
        for _ in 0..n {
            let c = char::from_u32(r.u32()?)?;
            chars.insert(c, r.u32()?);
        }
        let bytes = if flags & 1 != 0 {
            let mut b = Box::new([NONE; 256]);
            for id in b.iter_mut() {
                *id = r.u32()?;
            }
            Some(b)
        } else {
            None
        };
        let unk = if flags & 2 != 0 { Some(r.u32()?) } else { None };
        let crossing = if flags & 8 != 0 {
            let n = r.u32()? as usize;
            if n > MAX_CROSSING {
                return None;
            }
            let mut list = Vec::with_capacity(n);
            for _ in 0..n {
                let at = r.u32()? as usize;
                let len = r.u32()? as usize;
                list.push((r.bytes(len)?.into(), at));
            }
            Some(list)
        } else {
            None
        };
        Some(Symbols {
            ascii,
            chars,
            bytes,
            unk,
            fuse_unk: flags & 4 != 0,
            crossing,
            prepend,
        })
    }

    /// Calls `f` with the pieces of a normalized segment, in order; they cover it exactly.
    pub fn split<'t>(&self, text: &'t str, mut f: impl FnMut(&'t str)) {
        let Some(crossing) = &self.crossing else {
            return f(text);
        };
        let b = text.as_bytes();
        let mut start = 0;
        let mut at = 0;
        while let Some(k) = memchr::memmem::find(&b[at..], METASPACE_BYTES) {
            let i = at + k;
            // A `▁` right after another one stays with it: runs of spaces are one piece.
            if i > start && !b[..i].ends_with(METASPACE_BYTES) && !crosses(b, i, crossing) {
                f(&text[start..i]);
                start = i;
            }
            at = i + METASPACE_BYTES.len();
        }
        if start < b.len() {
            f(&text[start..]);
        }
    }
}

/// Whether an entry with a character before `▁` occurs in `b` with that `▁` at `i`.
fn crosses(b: &[u8], i: usize, crossing: &[(Box<[u8]>, usize)]) -> bool {
    crossing
        .iter()
        .any(|(t, k)| i >= *k && b.get(i - k..i - k + t.len()) == Some(&t[..]))
}

/// The byte of a `<0xXX>` token.
fn byte_token(token: &str) -> Option<u8> {
    let hex = token.strip_prefix("<0x")?.strip_suffix('>')?;
    if hex.len() != 2 || hex.bytes().any(|c| c.is_ascii_lowercase()) {
        return None;
    }
    u8::from_str_radix(hex, 16).ok()
}

/// A segment as the normalizer leaves it: spaces as `▁`, and a leading `▁` with `prepend`.
pub fn normalize(text: &str, prepend: bool) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 2 + 3);
    if prepend && !text.is_empty() {
        out.push_str(METASPACE);
    }
    let mut last = 0;
    for i in memchr::memchr_iter(b' ', text.as_bytes()) {
        out.push_str(&text[last..i]);
        out.push_str(METASPACE);
        last = i + 1;
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbols(vocab: &[(&'static str, u32)]) -> Symbols {
        Symbols::new(vocab.iter().copied(), false, Some(0), true, true)
    }

    fn pieces(s: &Symbols, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        s.split(text, |p| out.push(p.to_string()));
        out
    }

    #[test]
    fn cuts_before_a_metaspace_that_follows_a_character() {
        let s = symbols(&[("▁a", 1), ("b", 2)]);
        assert_eq!(pieces(&s, "▁a▁b"), ["▁a", "▁b"]);
        assert_eq!(pieces(&s, "▁▁▁a▁▁b▁"), ["▁▁▁a", "▁▁b", "▁"]);
        assert_eq!(pieces(&s, "ab"), ["ab"]);
        assert_eq!(pieces(&s, ""), Vec::<String>::new());
    }

    #[test]
    fn keeps_an_entry_with_a_character_before_a_metaspace_whole() {
        let s = symbols(&[(">▁</", 1), ("x", 2)]);
        assert_eq!(pieces(&s, "<b>▁</b>▁x"), ["<b>▁</b>", "▁x"]);
        assert_eq!(pieces(&s, "<b>▁<b>"), ["<b>", "▁<b>"]);
    }

    #[test]
    fn unknown_characters_fuse_and_bytes_fall_back() {
        let s = symbols(&[("a", 1)]);
        let mut out = Vec::new();
        s.initial("aéüa", &mut out);
        assert_eq!(out, [1, 0, 1]);
        let mut vocab: Vec<(String, u32)> =
            (0..256).map(|b| (format!("<0x{b:02X}>"), 10 + b)).collect();
        vocab.push(("a".into(), 1));
        let s = Symbols::new(
            vocab.iter().map(|(t, i)| (t.as_str(), *i)),
            true,
            Some(0),
            true,
            true,
        );
        let mut out = Vec::new();
        s.initial("aé", &mut out);
        assert_eq!(out, [1, 10 + 0xC3, 10 + 0xA9]);
        // Without one of its byte tokens, a character is unknown; the others still fall back.
        vocab.retain(|(t, _)| t != "<0xA9>");
        let s = Symbols::new(
            vocab.iter().map(|(t, i)| (t.as_str(), *i)),
            true,
            Some(0),
            true,
            true,
        );
        let mut out = Vec::new();
        s.initial("éa¢", &mut out);
        assert_eq!(out, [0, 1, 10 + 0xC2, 10 + 0xA2]);
    }

    #[test]
    fn normalizes_spaces_and_prepends() {
        assert_eq!(normalize("a b", true), "▁a▁b");
        assert_eq!(normalize(" a", false), "▁a");
        assert_eq!(normalize("", true), "");
    }
}
