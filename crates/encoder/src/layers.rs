//! The transformer layers both models run: self-attention, feed-forward, residuals and
//! LayerNorms of a BERT encoder, generic over how the linear weights are stored. The PII model
//! keeps them as 4-bit blocks (`Q4Matrix`), the sentence embedder as int8 per output
//! (`Q8Matrix`); everything around the matrix products is the same code, so a fix to the layer
//! arithmetic reaches both models.

use super::format::{Header, ModelFile};
use super::kernels::{attention, gelu, layer_norm, matmul_q4, MatmulScratch, Q4Matrix, BLOCK};
use super::kernels_q8::{matmul_q8, Q8Matrix};
use llm_memory_core::error::Result;

/// A linear layer's weights in one storage format, with its product kernel.
pub(super) trait Linear: Sized {
    /// Working memory of the product, grown on first use and reused by every layer of a call.
    type Scratch: Default;

    /// The layers `prefixes` (each `n` outputs of `k` inputs) stacked side by side into one
    /// matrix: query, key and value become one product reading its input once.
    fn load(file: &ModelFile, prefixes: &[&str], n: usize, k: usize) -> Result<Self>;

    /// `out[r][j] = bias[j] + Σₖ x[r][k]·W[j][k]` for `rows` rows of `x`.
    fn apply(&self, x: &[f32], rows: usize, scratch: &mut Self::Scratch, out: &mut [f32]);
}

impl Linear for Q4Matrix {
    type Scratch = MatmulScratch;

    fn load(file: &ModelFile, prefixes: &[&str], n: usize, k: usize) -> Result<Self> {
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

    fn apply(&self, x: &[f32], rows: usize, scratch: &mut MatmulScratch, out: &mut [f32]) {
        matmul_q4(x, rows, self, scratch, out);
    }
}

impl Linear for Q8Matrix {
    type Scratch = Vec<f32>;

    fn load(file: &ModelFile, prefixes: &[&str], n: usize, k: usize) -> Result<Self> {
        let mut parts = Vec::with_capacity(prefixes.len());
        for prefix in prefixes {
            parts.push((
                file.i8s(&format!("{prefix}.weight.q8"), &[n, k])?,
                file.f32s(&format!("{prefix}.weight.scales"), &[n])?,
                file.f32s(&format!("{prefix}.bias"), &[n])?,
            ));
        }
        Ok(Q8Matrix::stack(k, &parts))
    }

    fn apply(&self, x: &[f32], rows: usize, panel: &mut Vec<f32>, out: &mut [f32]) {
        matmul_q8(x, rows, self, panel, out);
    }
}

/// LayerNorm weights.
#[derive(Debug, Clone)]
pub(super) struct Norm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
}

impl Norm {
    pub(super) fn load(file: &ModelFile, prefix: &str, dim: usize) -> Result<Self> {
        Ok(Norm {
            gamma: file.f32s(&format!("{prefix}.weight"), &[dim])?,
            beta: file.f32s(&format!("{prefix}.bias"), &[dim])?,
        })
    }

    /// Normalizes every row of `x` (rows of `gamma.len()` values).
    pub(super) fn apply(&self, x: &mut [f32], eps: f32) {
        layer_norm(x, self.gamma.len(), &self.gamma, &self.beta, eps);
    }
}

#[derive(Debug, Clone)]
struct Layer<W> {
    /// Query, key and value side by side (`3·hidden` outputs).
    qkv: W,
    attention_output: W,
    attention_norm: Norm,
    intermediate: W,
    output: W,
    output_norm: Norm,
}

/// The encoder layers of a model and the sizes they run at.
#[derive(Debug, Clone)]
pub(super) struct Layers<W> {
    layers: Vec<Layer<W>>,
    hidden: usize,
    heads: usize,
    intermediate: usize,
    eps: f32,
}

/// The working memory of one call, sized for at most `n` tokens; every layer reuses it.
/// `x` holds the hidden states: the embeddings going in, the last layer's output coming out.
pub(super) struct Buffers<S> {
    pub x: Vec<f32>,
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    sum: Vec<f32>,
    inter: Vec<f32>,
    scores: Vec<f32>,
    pub scratch: S,
}

impl<W: Linear> Layers<W> {
    /// Reads `bert.encoder.layer.{0..}` as the header sizes them.
    pub(super) fn load(file: &ModelFile, h: &Header) -> Result<Self> {
        let (hidden, inter) = (h.hidden_size, h.intermediate_size);
        let mut layers = Vec::with_capacity(h.num_hidden_layers);
        for l in 0..h.num_hidden_layers {
            let name = |s: &str| format!("bert.encoder.layer.{l}.{s}");
            let (q, k, v) = (
                name("attention.self.query"),
                name("attention.self.key"),
                name("attention.self.value"),
            );
            layers.push(Layer {
                qkv: W::load(file, &[&q, &k, &v], hidden, hidden)?,
                attention_output: W::load(
                    file,
                    &[&name("attention.output.dense")],
                    hidden,
                    hidden,
                )?,
                attention_norm: Norm::load(file, &name("attention.output.LayerNorm"), hidden)?,
                intermediate: W::load(file, &[&name("intermediate.dense")], inter, hidden)?,
                output: W::load(file, &[&name("output.dense")], hidden, inter)?,
                output_norm: Norm::load(file, &name("output.LayerNorm"), hidden)?,
            });
        }
        Ok(Layers {
            layers,
            hidden,
            heads: h.num_attention_heads,
            intermediate: inter,
            eps: h.layer_norm_eps as f32,
        })
    }

    pub(super) fn eps(&self) -> f32 {
        self.eps
    }

    pub(super) fn buffers(&self, n: usize) -> Buffers<W::Scratch> {
        let h = self.hidden;
        Buffers {
            x: vec![0.0; n * h],
            qkv: vec![0.0; n * 3 * h],
            ctx: vec![0.0; n * h],
            sum: vec![0.0; n * h],
            inter: vec![0.0; n * self.intermediate],
            scores: vec![0.0; n],
            scratch: W::Scratch::default(),
        }
    }

    /// Runs every layer over the first `n` rows of `b.x`, in place.
    pub(super) fn run(&self, n: usize, b: &mut Buffers<W::Scratch>) {
        let h = self.hidden;
        let (x, qkv, ctx) = (
            &mut b.x[..n * h],
            &mut b.qkv[..n * 3 * h],
            &mut b.ctx[..n * h],
        );
        let (sum, inter) = (&mut b.sum[..n * h], &mut b.inter[..n * self.intermediate]);
        for layer in &self.layers {
            layer.qkv.apply(x, n, &mut b.scratch, qkv);
            attention(qkv, n, h, self.heads, &mut b.scores, ctx);
            layer.attention_output.apply(ctx, n, &mut b.scratch, sum);
            add_into(x, sum);
            layer.attention_norm.apply(x, self.eps);
            layer.intermediate.apply(x, n, &mut b.scratch, inter);
            gelu(inter);
            layer.output.apply(inter, n, &mut b.scratch, sum);
            add_into(x, sum);
            layer.output_norm.apply(x, self.eps);
        }
    }
}

/// `residual += delta`: the residual stream keeps its own buffer, so no copy is needed.
fn add_into(residual: &mut [f32], delta: &[f32]) {
    for (r, d) in residual.iter_mut().zip(delta) {
        *r += d;
    }
}
