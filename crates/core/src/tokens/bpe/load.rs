//! Reads the parts of a tokenizer.json that byte-level BPE needs, and decides whether the file
//! is one the fast path reproduces exactly. Anything unrecognized answers `None` and the caller
//! keeps the `tokenizers` crate.

use super::merge::MergeTable;
use super::metaspace::{Symbols, METASPACE};
use super::pretok::Pattern;
use super::{AddedToken, FastBpe, Normalizer, Pieces};
use rustc_hash::FxHashMap;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

#[derive(Deserialize)]
struct File<'a> {
    #[serde(borrow)]
    model: Model<'a>,
    #[serde(default)]
    normalizer: Value,
    #[serde(default)]
    pre_tokenizer: Value,
    #[serde(default)]
    truncation: Value,
    #[serde(default)]
    padding: Value,
    #[serde(default)]
    added_tokens: Vec<Added>,
}

#[derive(Deserialize)]
struct Added {
    id: u32,
    content: String,
    #[serde(default)]
    single_word: bool,
    #[serde(default)]
    lstrip: bool,
    #[serde(default)]
    rstrip: bool,
    #[serde(default)]
    normalized: bool,
}

#[derive(Deserialize)]
struct Model<'a> {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    dropout: Option<f64>,
    #[serde(default)]
    continuing_subword_prefix: Option<String>,
    #[serde(default)]
    end_of_word_suffix: Option<String>,
    #[serde(default)]
    ignore_merges: bool,
    #[serde(default)]
    byte_fallback: bool,
    #[serde(default)]
    unk_token: Option<String>,
    #[serde(default)]
    fuse_unk: bool,
    #[serde(borrow)]
    vocab: Vocab<'a>,
    #[serde(borrow)]
    merges: Vec<Merge<'a>>,
}

/// The vocabulary as a list: no hashing while parsing.
struct Vocab<'a>(Vec<(Cow<'a, str>, u32)>);

impl<'de: 'a, 'a> Deserialize<'de> for Vocab<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Vocab<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map from token to id")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Vocab<'a>, M::Error> {
                let mut v = Vec::with_capacity(m.size_hint().unwrap_or(0));
                while let Some((k, id)) = m.next_entry::<Cow<'de, str>, u32>()? {
                    v.push((k, id));
                }
                Ok(Vocab(v))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// A merge, spelled `"a b"` (older files) or `["a", "b"]`.
struct Merge<'a>(Cow<'a, str>, Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Merge<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Merge<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a merge as \"a b\" or [\"a\", \"b\"]")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Merge<'a>, E> {
                let (a, b) = s
                    .split_once(' ')
                    .ok_or_else(|| E::custom("a merge without a space"))?;
                Ok(Merge(Cow::Borrowed(a), Cow::Borrowed(b)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Merge<'a>, E> {
                let (a, b) = s
                    .split_once(' ')
                    .ok_or_else(|| E::custom("a merge without a space"))?;
                Ok(Merge(Cow::Owned(a.into()), Cow::Owned(b.into())))
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut s: S) -> Result<Merge<'a>, S::Error> {
                let a: Cow<'de, str> = s
                    .next_element()?
                    .ok_or_else(|| de::Error::custom("empty merge"))?;
                let b: Cow<'de, str> = s
                    .next_element()?
                    .ok_or_else(|| de::Error::custom("short merge"))?;
                if s.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::custom("a merge of more than two tokens"));
                }
                Ok(Merge(a, b))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// The GPT-2 byte-to-character table: printable bytes stand for themselves, the others are
/// shifted to U+0100 and up, in byte order.
pub fn byte_chars() -> [char; 256] {
    let mut out = ['\0'; 256];
    let mut shifted = 0u32;
    for b in 0..256u32 {
        let printable =
            (33..=126).contains(&b) || (161..=172).contains(&b) || (174..=255).contains(&b);
        out[b as usize] = if printable {
            char::from_u32(b).unwrap()
        } else {
            shifted += 1;
            char::from_u32(255 + shifted).unwrap()
        };
    }
    out
}

fn normalizer(v: &Value) -> Option<Normalizer> {
    match v {
        Value::Null => Some(Normalizer::None),
        Value::Object(o) => match o.get("type")?.as_str()? {
            "NFC" => Some(Normalizer::Nfc),
            "Sequence" => {
                let list = o.get("normalizers")?.as_array()?;
                match list.as_slice() {
                    [] => Some(Normalizer::None),
                    [one] => normalizer(one),
                    _ => None,
                }
            }
            _ => None,
        },
        _ => None,
    }
}

/// SentencePiece's normalizer, `Replace(" " → "▁")`, alone or after `Prepend("▁")`: whether
/// it prepends.
fn metaspace_normalizer(v: &Value) -> Option<bool> {
    let is = |n: &Value, kind: &str| n.get("type").and_then(Value::as_str) == Some(kind);
    let replace = |n: &Value| {
        is(n, "Replace")
            && n.get("pattern")
                .and_then(|p| p.get("String"))
                .and_then(Value::as_str)
                == Some(" ")
            && n.get("content").and_then(Value::as_str) == Some(METASPACE)
    };
    let prepend =
        |n: &Value| is(n, "Prepend") && n.get("prepend").and_then(Value::as_str) == Some(METASPACE);
    if replace(v) {
        return Some(false);
    }
    if !is(v, "Sequence") {
        return None;
    }
    match v.get("normalizers")?.as_array()?.as_slice() {
        [one] if replace(one) => Some(false),
        [first, second] if prepend(first) && replace(second) => Some(true),
        _ => None,
    }
}

/// A pre-tokenizer that leaves SentencePiece's normalized text whole: none, or a split on
/// spaces, which that normalizer has already replaced.
fn metaspace_pre_tokenizer(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(o) => {
            o.get("type").and_then(Value::as_str) == Some("Split")
                && o.get("pattern")
                    .and_then(|p| p.get("String"))
                    .and_then(Value::as_str)
                    == Some(" ")
                && o.get("invert").and_then(Value::as_bool) == Some(false)
        }
        _ => false,
    }
}

/// The split pattern of a `Sequence[Split(regex), ByteLevel(no prefix space, no regex)]`.
fn pre_tokenizer(v: &Value) -> Option<Pattern> {
    let o = v.as_object()?;
    if o.get("type")?.as_str()? != "Sequence" {
        return None;
    }
    let [split, byte_level] = o.get("pretokenizers")?.as_array()?.as_slice() else {
        return None;
    };
    if split.get("type")?.as_str()? != "Split" {
        return None;
    }
    let regex = split.get("pattern")?.get("Regex")?.as_str()?;
    let behavior = split.get("behavior")?.as_str()?;
    let invert = split.get("invert")?.as_bool()?;
    // The implemented patterns match every character, so nothing falls between matches and
    // these two spellings give the same pieces: the matches.
    if !matches!((behavior, invert), ("Isolated", false) | ("Removed", true)) {
        return None;
    }
    if byte_level.get("type")?.as_str()? != "ByteLevel"
        || byte_level.get("add_prefix_space")?.as_bool()?
        || byte_level.get("use_regex")?.as_bool()?
    {
        return None;
    }
    Pattern::recognize(regex)
}

/// A fast byte-level BPE for `json`, or `None` when the file is not one it reproduces exactly
/// (or not valid: the `tokenizers` crate then reports why).
pub fn from_json(json: &[u8]) -> Option<FastBpe> {
    let file: File = serde_json::from_slice(json).ok()?;
    let m = &file.model;
    if m.kind.as_deref().is_some_and(|k| k != "BPE")
        || m.dropout.is_some_and(|d| d != 0.0)
        || m.continuing_subword_prefix
            .as_deref()
            .is_some_and(|s| !s.is_empty())
        || m.end_of_word_suffix
            .as_deref()
            .is_some_and(|s| !s.is_empty())
        || !file.truncation.is_null()
        || !file.padding.is_null()
    {
        return None;
    }
    let metaspace = metaspace_normalizer(&file.normalizer);
    let (normalizer, pattern) = match metaspace {
        // Whole-entry look-ups would apply to the whole text, which is cut here: not covered.
        Some(_) if m.ignore_merges || !metaspace_pre_tokenizer(&file.pre_tokenizer) => return None,
        Some(_) => (Normalizer::None, None),
        None => (
            normalizer(&file.normalizer)?,
            Some(pre_tokenizer(&file.pre_tokenizer)?),
        ),
    };
    let mut added = Vec::with_capacity(file.added_tokens.len());
    for a in &file.added_tokens {
        if a.single_word || a.lstrip || a.rstrip || a.content.is_empty() {
            return None;
        }
        // Tokens matched after normalization would need the normalized text's offsets.
        if a.normalized && (normalizer != Normalizer::None || metaspace.is_some()) {
            return None;
        }
        added.push(AddedToken {
            id: a.id,
            content: a.content.clone(),
            normalized: a.normalized,
        });
    }

    let vocab: FxHashMap<&str, u32> = m.vocab.0.iter().map(|(k, v)| (k.as_ref(), *v)).collect();
    // An added token the vocabulary also has keeps the vocabulary's id, as the crate does
    // (warning about a file whose ids disagree).
    for a in &mut added {
        if let Some(&id) = vocab.get(a.content.as_str()) {
            a.id = id;
        }
    }
    let table = merge_table(&vocab, &m.merges, [u32::MAX; 256])?;
    let Some(pattern) = pattern else {
        let unk = match &m.unk_token {
            Some(t) => Some(*vocab.get(t.as_str())?),
            None => None,
        };
        let entries = m.vocab.0.iter().map(|(k, v)| (k.as_ref(), *v));
        let symbols = Symbols::new(
            entries,
            m.byte_fallback,
            unk,
            m.fuse_unk,
            metaspace == Some(true),
        );
        let pieces = Pieces::Metaspace(Box::new(symbols));
        return Some(FastBpe::new(pieces, normalizer, table, None, added));
    };
    let chars = byte_chars();
    let mut byte_ids = [0u32; 256];
    let mut buf = [0u8; 4];
    for (b, c) in chars.iter().enumerate() {
        byte_ids[b] = *vocab.get(&*c.encode_utf8(&mut buf))?;
    }
    let mut table = table;
    table.byte_ids = byte_ids;
    // `ignore_merges`: a piece that is a whole vocabulary entry is that one token. Keyed by
    // the entry's bytes (the byte-level characters mapped back).
    let whole = if m.ignore_merges {
        let mut back: FxHashMap<char, u8> = FxHashMap::default();
        for (b, c) in chars.iter().enumerate() {
            back.insert(*c, b as u8);
        }
        let mut whole = FxHashMap::default();
        'tokens: for (k, id) in &m.vocab.0 {
            let mut bytes = Vec::with_capacity(k.len());
            for c in k.chars() {
                match back.get(&c) {
                    Some(&b) => bytes.push(b),
                    None => continue 'tokens,
                }
            }
            whole.insert(bytes.into_boxed_slice(), *id);
        }
        Some(whole)
    } else {
        None
    };
    Some(FastBpe::new(
        Pieces::ByteLevel(pattern),
        normalizer,
        table,
        whole,
        added,
    ))
}

/// The merge ranks over vocabulary ids; `None` when a merge names a token the vocabulary lacks.
fn merge_table(
    vocab: &FxHashMap<&str, u32>,
    merges: &[Merge],
    byte_ids: [u32; 256],
) -> Option<MergeTable> {
    let mut table = MergeTable::new(byte_ids, merges.len());
    let mut joined = String::new();
    for (rank, Merge(a, b)) in merges.iter().enumerate() {
        let (Some(&l), Some(&r)) = (vocab.get(a.as_ref()), vocab.get(b.as_ref())) else {
            return None;
        };
        joined.clear();
        joined.push_str(a);
        joined.push_str(b);
        let &merged = vocab.get(joined.as_str())?;
        table.insert(l, r, rank as u32, merged);
    }
    Some(table)
}
