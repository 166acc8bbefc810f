//! `EmbedModel`: a sentence embedder (all-MiniLM-L6-v2 as `make embed-model` writes it to
//! `models/embed.bin`) run by our own code. It is the BERT encoder of the NER model with mean
//! pooling instead of a classification head: the hidden states of every token, `[CLS]` and
//! `[SEP]` included, averaged and scaled to length 1, as sentence-transformers does.
//!
//! Weights are int8 with one f32 scale per output (`kernels_q8`), exactly as the ONNX export we
//! convert stores them, so vectors agree with onnxruntime's (tests/embed_reference.rs). A text
//! longer than the window (`max_seq_length`, 256 tokens) is cut into the windows of
//! `windows.rs`; the window vectors are averaged and normalized again.

use serde::Deserialize;

use super::format::{invalid, ModelFile, Source};
use super::kernels_q8::Q8Matrix;
use super::layers::{Buffers, Layers, Norm};
use super::windows::windows;
use super::wordpiece::{NormalizerFlags, WordPiece};
use llm_memory_core::error::Result;

/// The header fields only an embedder has (the format parser ignores them).
#[derive(Debug, Deserialize)]
struct PoolingHeader {
    pooling: String,
    normalize: bool,
    max_seq_length: usize,
}

/// An int8 table with one f32 scale per row (word and position embeddings).
#[derive(Debug, Clone)]
struct RowsQ8 {
    q: Vec<i8>,
    scales: Vec<f32>,
    dim: usize,
}

impl RowsQ8 {
    fn load(file: &ModelFile, name: &str, rows: usize, dim: usize) -> Result<Self> {
        let base = format!("bert.embeddings.{name}.weight");
        Ok(RowsQ8 {
            q: file.i8s(&format!("{base}.q8"), &[rows, dim])?,
            scales: file.f32s(&format!("{base}.scales"), &[rows])?,
            dim,
        })
    }

    fn add_row(&self, row: usize, out: &mut [f32]) {
        let scale = self.scales[row];
        for (o, &q) in out.iter_mut().zip(&self.q[row * self.dim..][..self.dim]) {
            *o += q as f32 * scale;
        }
    }
}

/// A loaded sentence embedder. `embed` takes `&self`: one model serves every caller.
#[derive(Debug, Clone)]
pub struct EmbedModel {
    tokenizer: WordPiece,
    cls: u32,
    sep: u32,
    hidden: usize,
    /// Tokens per model input, `[CLS]` and `[SEP]` included.
    window: usize,
    word: RowsQ8,
    position: RowsQ8,
    token_type: Vec<f32>,
    embedding_norm: Norm,
    layers: Layers<Q8Matrix>,
    license: String,
    attribution: String,
    source: Source,
}

/// The JSON header's own bytes (the parser has checked the prefix, its length and its hash).
fn header_json(bytes: &[u8]) -> &[u8] {
    let len = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
    &bytes[24..24 + len]
}

impl EmbedModel {
    /// Parses and validates a model file (`models/embed.bin`); a bad file is `INVALID_MODEL`.
    pub fn from_bytes(bytes: &[u8]) -> Result<EmbedModel> {
        let file = ModelFile::parse(bytes)?;
        let h = &file.header;
        if h.architecture != "bert-sentence-embedding" {
            return Err(invalid(format!(
                "this is a {} model, not a sentence embedder (make embed-model writes models/embed.bin)",
                h.architecture
            )));
        }
        let pooling: PoolingHeader = serde_json::from_slice(header_json(bytes))
            .map_err(|e| invalid(format!("model file has no pooling settings: {e}")))?;
        if pooling.pooling != "mean" || !pooling.normalize {
            return Err(invalid(format!(
                "unsupported pooling {:?} (normalize {}): only normalized mean pooling",
                pooling.pooling, pooling.normalize
            )));
        }
        if !(3..=h.max_position_embeddings).contains(&pooling.max_seq_length) {
            return Err(invalid(format!(
                "max_seq_length {} is not between 3 and the model's {} positions",
                pooling.max_seq_length, h.max_position_embeddings
            )));
        }
        let flags = NormalizerFlags {
            lowercase: h.normalizer.lowercase,
            strip_accents: h.normalizer.strip_accents,
            handle_chinese_chars: h.normalizer.handle_chinese_chars,
            clean_text: h.normalizer.clean_text,
        };
        let special = h.special_tokens;
        let tokenizer = WordPiece::new(
            h.vocab.clone(),
            flags,
            &h.vocab[special.unk as usize],
            &h.wordpiece.continuing_subword_prefix,
            h.wordpiece.max_input_chars_per_word,
        )
        .map_err(|e| invalid(format!("model vocabulary: {e}")))?;
        let hidden = h.hidden_size;
        Ok(EmbedModel {
            cls: special.cls,
            sep: special.sep,
            hidden,
            window: pooling.max_seq_length,
            word: RowsQ8::load(&file, "word_embeddings", h.vocab_size, hidden)?,
            position: RowsQ8::load(
                &file,
                "position_embeddings",
                h.max_position_embeddings,
                hidden,
            )?,
            token_type: file.f32s(
                "bert.embeddings.token_type_embeddings.weight",
                &[h.type_vocab_size, hidden],
            )?,
            embedding_norm: Norm::load(&file, "bert.embeddings.LayerNorm", hidden)?,
            layers: Layers::load(&file, h)?,
            license: h.license.clone(),
            attribution: h.attribution.clone(),
            source: h.source.clone(),
            tokenizer,
        })
    }

    /// Length of every vector `embed` returns (384 for all-MiniLM-L6-v2).
    pub fn dimensions(&self) -> usize {
        self.hidden
    }

    /// Tokens one model input holds, `[CLS]` and `[SEP]` included; longer texts are windowed.
    pub fn max_tokens(&self) -> usize {
        self.window
    }

    /// SPDX id of the weights' licence (`Apache-2.0`).
    pub fn license(&self) -> &str {
        &self.license
    }

    /// Who made the weights and where this file's copy came from.
    pub fn attribution(&self) -> &str {
        &self.attribution
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    /// WordPiece tokens of `text` (special tokens not added).
    pub fn count_tokens(&self, text: &str) -> usize {
        self.tokenizer.encode(text).ids.len()
    }

    /// One unit-length vector of `dimensions()` values per text, in order.
    pub fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        texts.iter().map(|t| self.embed_text(t)).collect()
    }

    /// The vector of one text: its windows' vectors averaged, then normalized. An empty text
    /// is `[CLS] [SEP]`, as the reference encodes it.
    pub fn embed_text(&self, text: &str) -> Vec<f32> {
        let ids = self.tokenizer.encode(text).ids;
        // `from_bytes` checked the window (≥ 3 tokens), so `windows` cannot fail here.
        let mut ranges: Vec<_> = windows(ids.len(), self.window, 0)
            .map(|w| w.map(|w| w.tokens).collect())
            .unwrap_or_default();
        if ranges.is_empty() {
            ranges.push(0..0);
        }
        let mut sum = vec![0f32; self.hidden];
        let mut b = self.layers.buffers(self.window);
        for range in ranges {
            let v = self.embed_window(&ids[range], &mut b);
            for (s, x) in sum.iter_mut().zip(v) {
                *s += x;
            }
        }
        normalize(&mut sum);
        sum
    }

    /// The normalized mean of the last hidden states of `[CLS] text_ids [SEP]`.
    fn embed_window(&self, text_ids: &[u32], b: &mut Buffers<Vec<f32>>) -> Vec<f32> {
        let h = self.hidden;
        let n = text_ids.len() + 2;
        let ids = std::iter::once(self.cls)
            .chain(text_ids.iter().copied())
            .chain(std::iter::once(self.sep));
        let x = &mut b.x[..n * h];
        for (i, (id, row)) in ids.zip(x.chunks_exact_mut(h)).enumerate() {
            row.copy_from_slice(&self.token_type[..h]);
            self.word.add_row(id as usize, row);
            self.position.add_row(i, row);
        }
        self.embedding_norm.apply(x, self.layers.eps());
        self.layers.run(n, b);
        let mut mean = vec![0f32; h];
        for row in b.x[..n * h].chunks_exact(h) {
            for (m, v) in mean.iter_mut().zip(row) {
                *m += v;
            }
        }
        normalize(&mut mean);
        mean
    }
}

/// Scales `v` to length 1 (a zero vector stays zero).
fn normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        for x in v.iter_mut() {
            *x /= norm;
        }
    }
}
