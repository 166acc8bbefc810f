//! Reading a WordPiece vocabulary and its normalizer flags from a tokenizer.json.

use super::{NormalizerFlags, WordPiece};
use llm_memory_core::error::{Error, ErrorCode, Result};
use rustc_hash::FxHashMap;

impl WordPiece {
    /// Reads a tokenizer.json made of a `BertNormalizer`, a `BertPreTokenizer` and a
    /// `WordPiece` model (the uncased BERT family). Added tokens are not matched in the text
    /// (see [`WordPiece::encode`]).
    pub fn from_tokenizer_json(json: &[u8]) -> Result<WordPiece> {
        let bad = |m: String| Error::new(ErrorCode::InvalidTokenizer, m);
        let file: TokenizerJson =
            serde_json::from_slice(json).map_err(|e| bad(format!("tokenizer.json: {e}")))?;
        let (model, normalizer) = (file.model, file.normalizer);
        if model.kind != "WordPiece" || normalizer.kind != "BertNormalizer" {
            return Err(bad(format!(
                "expected a WordPiece model with a BertNormalizer, found {} with {}",
                model.kind, normalizer.kind
            )));
        }
        if file.pre_tokenizer.kind != "BertPreTokenizer" {
            return Err(bad(format!(
                "expected a BertPreTokenizer, found {}",
                file.pre_tokenizer.kind
            )));
        }
        let mut vocab = vec![None; model.vocab.len()];
        for (token, id) in model.vocab {
            match vocab.get_mut(id as usize) {
                Some(slot @ None) => *slot = Some(token),
                _ => return Err(bad(format!("vocabulary ids are not 0..{}", vocab.len()))),
            }
        }
        let flags = NormalizerFlags {
            lowercase: normalizer.lowercase,
            strip_accents: normalizer.strip_accents.unwrap_or(normalizer.lowercase),
            handle_chinese_chars: normalizer.handle_chinese_chars,
            clean_text: normalizer.clean_text,
        };
        WordPiece::new(
            vocab.into_iter().map(|t| t.unwrap_or_default()).collect(),
            flags,
            &model.unk_token,
            &model.continuing_subword_prefix,
            model.max_input_chars_per_word,
        )
    }
}

/// The parts of tokenizer.json that [`WordPiece::from_tokenizer_json`] reads.
#[derive(serde::Deserialize)]
struct TokenizerJson {
    model: ModelJson,
    normalizer: NormalizerJson,
    pre_tokenizer: TypeOnly,
}

#[derive(serde::Deserialize)]
struct ModelJson {
    #[serde(rename = "type")]
    kind: String,
    vocab: FxHashMap<String, u32>,
    unk_token: String,
    continuing_subword_prefix: String,
    max_input_chars_per_word: usize,
}

#[derive(serde::Deserialize)]
struct NormalizerJson {
    #[serde(rename = "type")]
    kind: String,
    clean_text: bool,
    handle_chinese_chars: bool,
    strip_accents: Option<bool>,
    lowercase: bool,
}

#[derive(serde::Deserialize)]
struct TypeOnly {
    #[serde(rename = "type")]
    kind: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(model_type: &str, vocab: &str, strip_accents: &str) -> Vec<u8> {
        format!(
            r###"{{"normalizer": {{"type": "BertNormalizer", "clean_text": true,
                "handle_chinese_chars": true, "strip_accents": {strip_accents}, "lowercase": true}},
              "pre_tokenizer": {{"type": "BertPreTokenizer"}},
              "model": {{"type": "{model_type}", "unk_token": "[UNK]",
                "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
                "vocab": {vocab}}}}}"###
        )
        .into_bytes()
    }

    #[test]
    fn reads_the_vocabulary_and_resolves_strip_accents() {
        let vocab = r###"{"[UNK]": 0, "cafe": 1, "##s": 2}"###;
        let m = WordPiece::from_tokenizer_json(&file("WordPiece", vocab, "null")).unwrap();
        assert_eq!(m.encode("Cafés").ids, vec![1, 2]);
        let kept = WordPiece::from_tokenizer_json(&file("WordPiece", vocab, "false")).unwrap();
        assert_eq!(kept.encode("Cafés").ids, vec![0]);
        assert_eq!(m.token_id("##s"), Some(2));
    }

    #[test]
    fn other_models_and_broken_ids_are_errors() {
        let vocab = r###"{"[UNK]": 0, "a": 1}"###;
        let bpe = WordPiece::from_tokenizer_json(&file("BPE", vocab, "null")).unwrap_err();
        assert_eq!(bpe.code, ErrorCode::InvalidTokenizer);
        let gap = r###"{"[UNK]": 0, "a": 2}"###;
        let e = WordPiece::from_tokenizer_json(&file("WordPiece", gap, "null")).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidTokenizer);
        assert!(WordPiece::from_tokenizer_json(b"{").is_err());
    }
}
