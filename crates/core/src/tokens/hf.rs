//! A Hugging Face `tokenizer.json`. BPE files whose every step `bpe` reproduces exactly (byte
//! level: gpt-4o, llama3, qwen3; SentencePiece style: Llama 2, Mistral, Gemma) take that fast
//! path. Any other file (WordPiece, Unigram, WordLevel, BPE with other pre-tokenizers) needs the
//! `tokenizers` crate, which only the full build has (cargo feature `all-tokenizers`, about
//! 250 KiB gzip of wasm); the default build says so with UNSUPPORTED_TOKENIZER. Counts exclude
//! special tokens the post-processor would add (BOS/EOS): the chat overhead accounts for the
//! framing of each message.

use super::bpe::FastBpe;
use super::TokenCounter;
use crate::error::{Error, ErrorCode, Result};

pub struct HfTokenizer {
    inner: Engine,
    kind: String,
    /// The ids of `PROBE` (see `fingerprint`).
    fingerprint: u64,
}

/// Text whose token ids tell tokenizers apart: prose, code, digits, whitespace runs, accents,
/// CJK and emoji. The same file loaded as JSON or prepared gives the same ids, and so the same
/// fingerprint; another vocabulary or merge list almost surely does not.
const PROBE: &str = "The quick brown fox, 1234567 jumps!  \n\tdef f(x): return x**2 #                      naïve café Ünïcödé 東京都の天気は晴れ 🙂👍🏽 https://example.com/a?b=c";

enum Engine {
    Fast(Box<FastBpe>),
    #[cfg(feature = "all-tokenizers")]
    Crate(Box<tokenizers::Tokenizer>),
}

impl HfTokenizer {
    /// Parses a tokenizer.json document.
    pub fn from_bytes(json: &[u8]) -> Result<Self> {
        // A UTF-8 byte order mark, as some editors save files, is not part of the JSON.
        let json = json.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(json);
        if json.is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidTokenizer,
                "the tokenizer.json is empty: pass the file's text or bytes",
            ));
        }
        let tokenizer = match super::bpe::from_json(json) {
            Some(fast) => HfTokenizer {
                inner: Engine::Fast(Box::new(fast)),
                kind: "BPE".into(),
                fingerprint: 0,
            }
            .fingerprinted(),
            None => Self::from_bytes_with_crate(json)?,
        };
        // A file without a vocabulary loads, then counts every text as 0 tokens: a budget
        // that could never be exceeded. No real tokenizer counts a word as nothing.
        if tokenizer.count("hello world") == 0 {
            return Err(Error::new(
                ErrorCode::InvalidTokenizer,
                "this tokenizer.json has no usable vocabulary (it counts \"hello world\" as 0 \
                 tokens)",
            ));
        }
        Ok(tokenizer)
    }

    /// Loads through the `tokenizers` crate whatever the file (the reference path).
    #[cfg(feature = "all-tokenizers")]
    pub fn from_bytes_with_crate(json: &[u8]) -> Result<Self> {
        let inner = tokenizers::Tokenizer::from_bytes(json).map_err(|e| {
            Error::new(
                ErrorCode::InvalidTokenizer,
                format!("not a usable Hugging Face tokenizer.json: {e}"),
            )
        })?;
        let kind = model_kind(&inner);
        Ok(HfTokenizer {
            inner: Engine::Crate(Box::new(inner)),
            kind,
            fingerprint: 0,
        }
        .fingerprinted())
    }

    /// Without the `tokenizers` crate: says what the file is and which build loads it.
    #[cfg(not(feature = "all-tokenizers"))]
    pub fn from_bytes_with_crate(json: &[u8]) -> Result<Self> {
        #[derive(serde::Deserialize)]
        struct File {
            model: Model,
        }
        #[derive(serde::Deserialize)]
        struct Model {
            #[serde(rename = "type", default)]
            kind: Option<String>,
            #[serde(default)]
            vocab: serde_json::Value,
        }
        let file: File = serde_json::from_slice(json).map_err(|e| {
            Error::new(
                ErrorCode::InvalidTokenizer,
                format!("not a usable Hugging Face tokenizer.json: {e}"),
            )
        })?;
        let kind = file.model.kind.unwrap_or_else(|| "BPE".into());
        // A map (BPE, WordPiece, WordLevel) or a list (Unigram) with entries: a file that the
        // full build would load, not a broken one.
        let has_vocab = match &file.model.vocab {
            serde_json::Value::Object(m) => !m.is_empty(),
            serde_json::Value::Array(a) => !a.is_empty(),
            _ => false,
        };
        if !has_vocab {
            return Err(Error::new(
                ErrorCode::InvalidTokenizer,
                "this tokenizer.json has no usable vocabulary (model.vocab)",
            ));
        }
        Err(Error::new(
            ErrorCode::UnsupportedTokenizer,
            format!(
                "this tokenizer.json ({kind} model) is not one of the kinds this build counts \
                 itself (byte-level BPE such as gpt-4o, llama3, qwen3; SentencePiece-style BPE \
                 such as Llama 2, Mistral, Gemma): load it with the full build (pkg-full/, \
                 cargo feature all-tokenizers), or count with Tokenizer.approximate()"
            ),
        ))
    }

    /// Loads the compact form made by `prepared()`.
    pub fn from_prepared(data: &[u8]) -> Result<Self> {
        let fast = FastBpe::from_prepared(data).ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidTokenizer,
                "not a prepared tokenizer from this version of llm-memory: load the \
                 tokenizer.json again and store its new prepared form",
            )
        })?;
        Ok(HfTokenizer {
            inner: Engine::Fast(Box::new(fast)),
            kind: "BPE".into(),
            fingerprint: 0,
        }
        .fingerprinted())
    }

    fn fingerprinted(mut self) -> Self {
        let ids = self.encode_ids(PROBE).unwrap_or_default();
        let bytes: Vec<u8> = ids.iter().flat_map(|i| i.to_le_bytes()).collect();
        self.fingerprint = super::fnv1a(&[self.kind.as_bytes(), &bytes]);
        self
    }

    /// The compact form for warm loads, when the fast path is in use.
    pub fn prepared(&self) -> Option<Vec<u8>> {
        match &self.inner {
            Engine::Fast(f) => f.to_prepared(),
            #[cfg(feature = "all-tokenizers")]
            Engine::Crate(_) => None,
        }
    }

    /// Whether counting takes the fast byte-level BPE path.
    pub fn is_fast(&self) -> bool {
        matches!(self.inner, Engine::Fast(_))
    }

    /// Token ids of `text`, without special tokens.
    pub fn encode_ids(&self, text: &str) -> Result<Vec<u32>> {
        match &self.inner {
            Engine::Fast(f) => Ok(f.encode(text)),
            #[cfg(feature = "all-tokenizers")]
            Engine::Crate(t) => t
                .encode_fast(text, false)
                .map(|e| e.get_ids().to_vec())
                .map_err(|e| {
                    Error::new(ErrorCode::InvalidTokenizer, format!("encoding failed: {e}"))
                }),
        }
    }
}

#[cfg(feature = "all-tokenizers")]
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
        match &self.inner {
            Engine::Fast(f) => f.count(text),
            #[cfg(feature = "all-tokenizers")]
            Engine::Crate(t) => match t.encode_fast(text, false) {
                Ok(enc) => enc.len(),
                // The crate only fails on malformed models it accepted at load; fall back to
                // the estimate rather than abort the turn.
                Err(_) => super::ApproximateCounter::default().count(text),
            },
        }
    }
    fn count_many(&self, texts: &[&str]) -> Vec<usize> {
        match &self.inner {
            Engine::Fast(f) => f.count_many(texts),
            #[cfg(feature = "all-tokenizers")]
            Engine::Crate(_) => texts.iter().map(|t| self.count(t)).collect(),
        }
    }
    fn fingerprint(&self) -> Option<u64> {
        Some(self.fingerprint)
    }
    fn kind(&self) -> &str {
        &self.kind
    }
    fn is_exact(&self) -> bool {
        true
    }
}
