//! `NerModel`: a BERT token classifier loaded from our model file, run on token ids. It owns the
//! weights (4-bit linear layers, 8-bit embeddings) and the metadata the tokenizer and the
//! decoder need (vocab, normalizer flags, special tokens, labels). One call encodes one unpadded
//! sequence (the caller cuts long text into windows of at most `max_positions()` ids); the
//! layers themselves are `layers.rs`, shared with the sentence embedder.

use super::format::{Header, ModelFile, NormalizerFlags, Source, SpecialTokens, WordPieceConfig};
use super::kernels::Q4Matrix;
use super::layers::{Layers, Linear, Norm};
use llm_memory_core::error::{Error, ErrorCode, Result};

/// An 8-bit table with one scale and zero point: `value = (q - zero_point) · scale`.
#[derive(Debug, Clone)]
struct Embedding8 {
    q: Vec<u8>,
    scale: f32,
    zero_point: u8,
    dim: usize,
}

impl Embedding8 {
    fn load(file: &ModelFile, name: &str, rows: usize, dim: usize) -> Result<Self> {
        let base = format!("bert.embeddings.{name}.weight");
        let scale = file.f32s(&format!("{base}.scale"), &[1])?[0];
        Ok(Embedding8 {
            q: file.u8s(&format!("{base}.q8"), &[rows, dim])?.to_vec(),
            scale,
            zero_point: file.u8s(&format!("{base}.zero_point"), &[1])?[0],
            dim,
        })
    }

    fn add_row(&self, row: usize, out: &mut [f32]) {
        let zero = self.zero_point as i32;
        for (o, &q) in out.iter_mut().zip(&self.q[row * self.dim..][..self.dim]) {
            *o += (q as i32 - zero) as f32 * self.scale;
        }
    }
}

/// A loaded token-classification model. Cheap to share by reference: `logits` takes `&self`.
#[derive(Debug, Clone)]
pub struct NerModel {
    header: Header,
    word: Embedding8,
    position: Embedding8,
    token_type: Embedding8,
    embedding_norm: Norm,
    layers: Layers<Q4Matrix>,
    classifier: Q4Matrix,
}

impl NerModel {
    /// Parses and validates a model file (`models/pii-ner.bin`); a bad file is `INVALID_MODEL`.
    pub fn from_bytes(bytes: &[u8]) -> Result<NerModel> {
        let file = ModelFile::parse(bytes)?;
        let h = file.header.clone();
        // The reverse mix-up (a PII model given to EmbedModel) is named by the embedder; this
        // one used to surface as a missing tensor, which says nothing to an app.
        if h.architecture == "bert-sentence-embedding" {
            return Err(Error::new(
                ErrorCode::InvalidModel,
                "this is a sentence embedder, not a PII model: load it with EmbedModel \
                 (fromBytes / fromUrl); make model writes the PII model, models/pii-ner.bin",
            ));
        }
        let hidden = h.hidden_size;
        Ok(NerModel {
            word: Embedding8::load(&file, "word_embeddings", h.vocab_size, hidden)?,
            position: Embedding8::load(
                &file,
                "position_embeddings",
                h.max_position_embeddings,
                hidden,
            )?,
            token_type: Embedding8::load(
                &file,
                "token_type_embeddings",
                h.type_vocab_size,
                hidden,
            )?,
            embedding_norm: Norm::load(&file, "bert.embeddings.LayerNorm", hidden)?,
            classifier: Q4Matrix::load(&file, &["classifier"], h.labels.len(), hidden)?,
            layers: Layers::load(&file, &h)?,
            header: Header {
                tensors: Vec::new(),
                ..h
            },
        })
    }

    /// Label names by class index (`O`, `B-GIVEN_NAME`, ...): the columns of `logits`.
    pub fn labels(&self) -> &[String] {
        &self.header.labels
    }

    /// WordPiece vocabulary by token id.
    pub fn vocab(&self) -> &[String] {
        &self.header.vocab
    }

    /// The longest input `logits` accepts, `[CLS]` and `[SEP]` included.
    pub fn max_positions(&self) -> usize {
        self.header.max_position_embeddings
    }

    pub fn special_tokens(&self) -> SpecialTokens {
        self.header.special_tokens
    }

    pub fn normalizer(&self) -> NormalizerFlags {
        self.header.normalizer
    }

    pub fn wordpiece(&self) -> &WordPieceConfig {
        &self.header.wordpiece
    }

    /// Who made the weights and under which licence: show it wherever the model is used.
    pub fn attribution(&self) -> &str {
        &self.header.attribution
    }

    /// SPDX id of the weights' licence (`CC-BY-4.0`).
    pub fn license(&self) -> &str {
        &self.header.license
    }

    pub fn source(&self) -> &Source {
        &self.header.source
    }

    /// The word lists the file carries for the redaction, by name (text in the lists' format).
    pub fn word_lists(&self) -> impl Iterator<Item = (&str, &str)> {
        self.header
            .word_lists
            .iter()
            .map(|(name, text)| (name.as_str(), text.as_str()))
    }

    /// Class scores for each token: `token_ids.len() × labels().len()` values, row by row.
    /// The ids must include `[CLS]` first and `[SEP]` last, as the tokenizer produces them.
    pub fn logits(&self, token_ids: &[u32]) -> Result<Vec<f32>> {
        let n = token_ids.len();
        if n > self.max_positions() {
            return Err(Error::option(format!(
                "{n} tokens; the model reads at most {} at once: split the text into windows",
                self.max_positions()
            )));
        }
        if let Some(bad) = token_ids
            .iter()
            .find(|&&id| id as usize >= self.header.vocab_size)
        {
            return Err(Error::option(format!(
                "token id {bad} is outside the model's vocab of {}",
                self.header.vocab_size
            )));
        }
        let labels = self.labels().len();
        let mut logits = vec![0.0; n * labels];
        if n == 0 {
            return Ok(logits);
        }
        let mut b = self.layers.buffers(n);
        self.embed(token_ids, &mut b.x);
        self.layers.run(n, &mut b);
        self.classifier.apply(&b.x, n, &mut b.scratch, &mut logits);
        Ok(logits)
    }

    fn embed(&self, token_ids: &[u32], x: &mut [f32]) {
        let h = self.header.hidden_size;
        for (i, (&id, row)) in token_ids.iter().zip(x.chunks_exact_mut(h)).enumerate() {
            row.fill(0.0);
            self.word.add_row(id as usize, row);
            self.token_type.add_row(0, row);
            self.position.add_row(i, row);
        }
        self.embedding_norm.apply(x, self.layers.eps());
    }
}
