//! `NerModel`: a BERT token classifier loaded from our model file, run on token ids. It owns the
//! weights (4-bit linear layers, 8-bit embeddings) and the metadata the tokenizer and the
//! decoder need (vocab, normalizer flags, special tokens, labels). One call encodes one unpadded
//! sequence (the caller cuts long text into windows of at most `max_positions()` ids); the
//! buffers of a call are allocated once and reused by every layer.

use super::format::{Header, ModelFile, NormalizerFlags, Source, SpecialTokens, WordPieceConfig};
use super::kernels::{attention, gelu, layer_norm, matmul_q4, MatmulScratch, Q4Matrix, BLOCK};
use crate::error::{Error, Result};

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

#[derive(Debug, Clone)]
struct Norm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
}

impl Norm {
    fn load(file: &ModelFile, prefix: &str, dim: usize) -> Result<Self> {
        Ok(Norm {
            gamma: file.f32s(&format!("{prefix}.weight"), &[dim])?,
            beta: file.f32s(&format!("{prefix}.bias"), &[dim])?,
        })
    }
}

/// The 4-bit weights, scales and bias of the layers `prefixes` (same input width `k`, `n` outputs
/// each), stacked side by side into one matrix: Q, K and V become one product reading its input once.
fn load_linear(file: &ModelFile, prefixes: &[&str], n: usize, k: usize) -> Result<Q4Matrix> {
    let blocks = k / BLOCK;
    let (mut q4, mut scales, mut bias) = (Vec::new(), Vec::new(), Vec::new());
    for prefix in prefixes {
        q4.extend_from_slice(file.u8s(&format!("{prefix}.weight.q4"), &[n, blocks, 16])?);
        scales.extend(file.f32s(&format!("{prefix}.weight.scales"), &[n, blocks])?);
        bias.extend(file.f32s(&format!("{prefix}.bias"), &[n])?);
    }
    Ok(Q4Matrix::from_onnx(
        n * prefixes.len(),
        k,
        &q4,
        &scales,
        bias,
    ))
}

#[derive(Debug, Clone)]
struct Layer {
    /// Query, key and value side by side (`3·hidden` outputs).
    qkv: Q4Matrix,
    attention_output: Q4Matrix,
    attention_norm: Norm,
    intermediate: Q4Matrix,
    output: Q4Matrix,
    output_norm: Norm,
}

/// A loaded token-classification model. Cheap to share by reference: `logits` takes `&self`.
#[derive(Debug, Clone)]
pub struct NerModel {
    header: Header,
    word: Embedding8,
    position: Embedding8,
    token_type: Embedding8,
    embedding_norm: Norm,
    layers: Vec<Layer>,
    classifier: Q4Matrix,
}

/// The working memory of one call, sized for its `n` tokens.
struct Buffers {
    x: Vec<f32>,
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    sum: Vec<f32>,
    inter: Vec<f32>,
    scores: Vec<f32>,
    matmul: MatmulScratch,
}

impl NerModel {
    /// Parses and validates a model file (`models/pii-ner.bin`); a bad file is `INVALID_MODEL`.
    pub fn from_bytes(bytes: &[u8]) -> Result<NerModel> {
        let file = ModelFile::parse(bytes)?;
        let h = file.header.clone();
        let (hidden, inter) = (h.hidden_size, h.intermediate_size);
        let mut layers = Vec::with_capacity(h.num_hidden_layers);
        for l in 0..h.num_hidden_layers {
            let p = format!("bert.encoder.layer.{l}");
            layers.push(Layer {
                qkv: load_linear(
                    &file,
                    &[
                        &format!("{p}.attention.self.query"),
                        &format!("{p}.attention.self.key"),
                        &format!("{p}.attention.self.value"),
                    ],
                    hidden,
                    hidden,
                )?,
                attention_output: load_linear(
                    &file,
                    &[&format!("{p}.attention.output.dense")],
                    hidden,
                    hidden,
                )?,
                attention_norm: Norm::load(
                    &file,
                    &format!("{p}.attention.output.LayerNorm"),
                    hidden,
                )?,
                intermediate: load_linear(
                    &file,
                    &[&format!("{p}.intermediate.dense")],
                    inter,
                    hidden,
                )?,
                output: load_linear(&file, &[&format!("{p}.output.dense")], hidden, inter)?,
                output_norm: Norm::load(&file, &format!("{p}.output.LayerNorm"), hidden)?,
            });
        }
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
            classifier: load_linear(&file, &["classifier"], h.labels.len(), hidden)?,
            layers,
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
        let mut b = self.buffers(n);
        self.embed(token_ids, &mut b.x);
        for layer in &self.layers {
            self.encode_layer(layer, n, &mut b);
        }
        matmul_q4(&b.x, n, &self.classifier, &mut b.matmul, &mut logits);
        Ok(logits)
    }

    fn buffers(&self, n: usize) -> Buffers {
        let h = self.header.hidden_size;
        Buffers {
            x: vec![0.0; n * h],
            qkv: vec![0.0; n * 3 * h],
            ctx: vec![0.0; n * h],
            sum: vec![0.0; n * h],
            inter: vec![0.0; n * self.header.intermediate_size],
            scores: vec![0.0; n],
            matmul: MatmulScratch::default(),
        }
    }

    fn eps(&self) -> f32 {
        self.header.layer_norm_eps as f32
    }

    fn embed(&self, token_ids: &[u32], x: &mut [f32]) {
        let h = self.header.hidden_size;
        for (i, (&id, row)) in token_ids.iter().zip(x.chunks_exact_mut(h)).enumerate() {
            row.fill(0.0);
            self.word.add_row(id as usize, row);
            self.token_type.add_row(0, row);
            self.position.add_row(i, row);
        }
        layer_norm(
            x,
            h,
            &self.embedding_norm.gamma,
            &self.embedding_norm.beta,
            self.eps(),
        );
    }

    fn encode_layer(&self, layer: &Layer, n: usize, b: &mut Buffers) {
        let h = self.header.hidden_size;
        let heads = self.header.num_attention_heads;
        matmul_q4(&b.x, n, &layer.qkv, &mut b.matmul, &mut b.qkv);
        attention(&b.qkv, n, h, heads, &mut b.scores, &mut b.ctx);
        matmul_q4(
            &b.ctx,
            n,
            &layer.attention_output,
            &mut b.matmul,
            &mut b.sum,
        );
        add_into(&mut b.x, &b.sum);
        layer_norm(
            &mut b.x,
            h,
            &layer.attention_norm.gamma,
            &layer.attention_norm.beta,
            self.eps(),
        );
        matmul_q4(&b.x, n, &layer.intermediate, &mut b.matmul, &mut b.inter);
        gelu(&mut b.inter);
        matmul_q4(&b.inter, n, &layer.output, &mut b.matmul, &mut b.sum);
        add_into(&mut b.x, &b.sum);
        layer_norm(
            &mut b.x,
            h,
            &layer.output_norm.gamma,
            &layer.output_norm.beta,
            self.eps(),
        );
    }
}

/// `residual += delta`: the residual stream keeps its own buffer, so no copy is needed.
fn add_into(residual: &mut [f32], delta: &[f32]) {
    for (r, d) in residual.iter_mut().zip(delta) {
        *r += d;
    }
}
