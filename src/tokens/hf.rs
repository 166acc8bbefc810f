//! A Hugging Face `tokenizer.json` (BPE, WordPiece, Unigram, WordLevel) loaded through the
//! `tokenizers` crate. Counts exclude special tokens the post-processor would add (BOS/EOS):
//! the chat overhead accounts for the framing of each message.

use super::TokenCounter;
use crate::error::{Error, ErrorCode, Result};

pub struct HfTokenizer {
    inner: tokenizers::Tokenizer,
    kind: String,
}

impl HfTokenizer {
    /// Parses a tokenizer.json document.
    pub fn from_bytes(json: &[u8]) -> Result<Self> {
        if json.is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidTokenizer,
                "the tokenizer.json is empty: pass the file's text or bytes",
            ));
        }
        let inner = tokenizers::Tokenizer::from_bytes(json).map_err(|e| {
            Error::new(
                ErrorCode::InvalidTokenizer,
                format!("not a usable Hugging Face tokenizer.json: {e}"),
            )
        })?;
        let kind = model_kind(&inner);
        Ok(HfTokenizer { inner, kind })
    }

    /// Token ids of `text`, without special tokens.
    pub fn encode_ids(&self, text: &str) -> Result<Vec<u32>> {
        self.inner
            .encode_fast(text, false)
            .map(|e| e.get_ids().to_vec())
            .map_err(|e| Error::new(ErrorCode::InvalidTokenizer, format!("encoding failed: {e}")))
    }
}

fn model_kind(t: &tokenizers::Tokenizer) -> String {
    use tokenizers::models::ModelWrapper;
    match t.get_model() {
        ModelWrapper::BPE(_) => "BPE",
        ModelWrapper::WordPiece(_) => "WordPiece",
        ModelWrapper::Unigram(_) => "Unigram",
        ModelWrapper::WordLevel(_) => "WordLevel",
    }
    .to_string()
}

impl TokenCounter for HfTokenizer {
    fn count(&self, text: &str) -> usize {
        if text.is_empty() {
            return 0;
        }
        match self.inner.encode_fast(text, false) {
            Ok(enc) => enc.len(),
            // The crate only fails on malformed models it accepted at load; fall back to the
            // estimate rather than abort the turn.
            Err(_) => super::ApproximateCounter::default().count(text),
        }
    }
    fn kind(&self) -> &str {
        &self.kind
    }
    fn is_exact(&self) -> bool {
        true
    }
}
