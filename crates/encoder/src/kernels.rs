//! The arithmetic of the encoder: 4-bit block-quantized matrix products, attention, LayerNorm,
//! exact GELU. Weights stay 4-bit in memory; each product unpacks a panel of 8 output columns
//! to i16 once and multiplies it with every input row (4 rows at a time, rows rounded to i16,
//! see `qgemm`), so unpacking costs 1/rows of the products. The f32 loops are written on
//! `simd::F32x4`: wasm `simd128` in our build, SSE2 natively on x86_64 (where the tests run
//! them), plain arrays elsewhere.

use super::qgemm::{fast::kernels as int, quantize_block, NR, PANEL_BLOCK};
use super::simd::{F32x4, ROUND_MAGIC};

pub use super::qgemm::BLOCK;
/// Input rows per micro-tile.
const MR: usize = 4;

/// A weight matrix `W` (`n` outputs × `k` inputs) as 4-bit blocks with its bias, repacked at load
/// from the ONNX `MatMulNBits` layout (row `j` holds output `j`; byte `t` of a block holds
/// values `2t` in its low and `2t + 1` in its high nibble; value = (q − 8)·scale) so that a panel
/// of 8 columns unpacks to i16 with contiguous vector loads in the order `pmaddwd` /
/// `i32x4_dot_i16x8` take. Per panel and block: 8 scales, and 8 chunks of 16 bytes, chunk `c`
/// holding input pairs `2c` (low nibbles) and `2c + 1` (high nibbles); within a pair `P`, byte
/// `m` is column `m / 2` at input `2P + m % 2`.
#[derive(Debug, Clone)]
pub struct Q4Matrix {
    pub n: usize,
    pub k: usize,
    /// `⌈n/8⌉ × k/32 × 128` bytes.
    packed: Vec<u8>,
    /// `⌈n/8⌉ × k/32 × 8` scales (zero for the padding columns of the last panel).
    scales: Vec<f32>,
    /// `n` biases.
    pub bias: Vec<f32>,
}

impl Q4Matrix {
    /// Repacks a matrix given in the ONNX layout: `q4` is `n × k/32 × 16` bytes, `scales`
    /// `n × k/32` (the caller has checked both lengths).
    pub fn from_onnx(n: usize, k: usize, q4: &[u8], scales: &[f32], bias: Vec<f32>) -> Q4Matrix {
        let blocks = k / BLOCK;
        let panels = n.div_ceil(NR);
        let mut packed = vec![0x88u8; panels * blocks * 128];
        let mut packed_scales = vec![0f32; panels * blocks * NR];
        let nibble = |j: usize, kk: usize| {
            let byte = q4[(j * blocks + kk / BLOCK) * 16 + (kk % BLOCK) / 2];
            if kk % 2 == 0 {
                byte & 15
            } else {
                byte >> 4
            }
        };
        for j in 0..n {
            let (panel, l) = (j / NR, j % NR);
            for b in 0..blocks {
                packed_scales[(panel * blocks + b) * NR + l] = scales[j * blocks + b];
                let chunks = &mut packed[(panel * blocks + b) * 128..][..128];
                for c in 0..BLOCK / 4 {
                    for odd in 0..2 {
                        let m = 2 * l + odd;
                        let lo = nibble(j, b * BLOCK + 4 * c + odd);
                        let hi = nibble(j, b * BLOCK + 4 * c + 2 + odd);
                        chunks[c * 16 + m] = lo | (hi << 4);
                    }
                }
            }
        }
        Q4Matrix {
            n,
            k,
            packed,
            scales: packed_scales,
            bias,
        }
    }

    fn panel(&self, p: usize) -> (&[u8], &[f32]) {
        let blocks = self.k / BLOCK;
        (
            &self.packed[p * blocks * 128..][..blocks * 128],
            &self.scales[p * blocks * NR..][..blocks * NR],
        )
    }
}

/// Working memory of `matmul_q4`, grown on first use and reused by every product of a call.
#[derive(Default)]
pub struct MatmulScratch {
    /// One panel's weights as i16.
    panel: Vec<i16>,
    /// The input rows rounded to i16, as packed pairs.
    x: Vec<u32>,
    /// The scale of each block of 32 input values.
    x_scales: Vec<f32>,
}

/// `out[r][j] = bias[j] + Σₖ x[r][k]·W[j][k]` for `rows` rows of `x` (row-major, `w.k` wide).
pub fn matmul_q4(
    x: &[f32],
    rows: usize,
    w: &Q4Matrix,
    scratch: &mut MatmulScratch,
    out: &mut [f32],
) {
    let (n, k) = (w.n, w.k);
    debug_assert!(x.len() >= rows * k && out.len() >= rows * n && k % BLOCK == 0);
    let half = k / 2;
    scratch.x.resize(rows * half, 0);
    let blocks = k / BLOCK;
    scratch.x_scales.resize(rows * blocks, 0.0);
    scratch.panel.resize(k / BLOCK * PANEL_BLOCK, 0);
    for ((block, q), s) in x[..rows * k]
        .chunks_exact(BLOCK)
        .zip(scratch.x.chunks_exact_mut(BLOCK / 2))
        .zip(scratch.x_scales.iter_mut())
    {
        *s = quantize_block(block, q);
    }
    let (xq, xs) = (
        &scratch.x[..rows * half],
        &scratch.x_scales[..rows * blocks],
    );
    for (p, j0) in (0..n).step_by(NR).enumerate() {
        let (packed, scales) = w.panel(p);
        int::unpack_panel(packed, &mut scratch.panel);
        let panel = &scratch.panel[..];
        let width = NR.min(n - j0);
        let bias = &w.bias[j0..j0 + width];
        let mut store = |r: usize, acc: [F32x4; 2]| {
            let mut lanes = [0f32; NR];
            acc[0].store(&mut lanes[..4]);
            acc[1].store(&mut lanes[4..]);
            let o = &mut out[r * n + j0..][..width];
            for l in 0..width {
                o[l] = lanes[l] + bias[l];
            }
        };
        let mut r = 0;
        while r + MR <= rows {
            let (x4, xs4) = (&xq[r * half..(r + MR) * half], &xs[r * blocks..]);
            let acc = int::tile_4x8(x4, xs4, k, panel, scales);
            for (i, a) in acc.into_iter().enumerate() {
                store(r + i, a);
            }
            r += MR;
        }
        while r < rows {
            let (x1, xs1) = (&xq[r * half..][..half], &xs[r * blocks..]);
            store(r, int::tile_1x8(x1, xs1, k, panel, scales));
            r += 1;
        }
    }
}

/// `Σ a[i]·b[i]` over equal-length slices: four lanes, then the tail (the tests' reference).
#[cfg(test)]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = F32x4::splat(0.0);
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        acc = F32x4::load(x).mul_add(F32x4::load(y), acc);
    }
    acc.sum() + tail
}

/// `y += a·x` over equal-length slices.
#[inline]
pub fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    let va = F32x4::splat(a);
    let mut cy = y.chunks_exact_mut(4);
    let mut cx = x.chunks_exact(4);
    for (yc, xc) in (&mut cy).zip(&mut cx) {
        va.mul_add(F32x4::load(xc), F32x4::load(yc)).store(yc);
    }
    for (yi, xi) in cy.into_remainder().iter_mut().zip(cx.remainder()) {
        *yi += a * xi;
    }
}

/// Queries attended together: their scores against a run of keys share the key loads.
const QUERIES: usize = 4;
/// Keys scored together (two vectors).
const KEYS: usize = 8;

/// Self-attention over `n` tokens. `qkv` holds per token the query, key and value, each
/// `hidden` wide; `ctx` receives `n × hidden`; `scratch` is grown as needed. Every token sees
/// every token: the input is one unpadded sequence. Per head the keys are transposed once
/// (scaled by `1/√d`, padded with zeros to a multiple of 8), so the scores of 4 queries against
/// 8 keys are 8 vector accumulators with no horizontal sums.
pub fn attention(
    qkv: &[f32],
    n: usize,
    hidden: usize,
    heads: usize,
    scratch: &mut Vec<f32>,
    ctx: &mut [f32],
) {
    let d = hidden / heads;
    let scale = 1.0 / (d as f32).sqrt();
    let stride = 3 * hidden;
    let padded = n.div_ceil(KEYS) * KEYS;
    scratch.resize(d * padded + QUERIES * padded, 0.0);
    let (keys_t, scores) = scratch.split_at_mut(d * padded);
    for h in 0..heads {
        for (j, token) in qkv.chunks_exact(stride).take(n).enumerate() {
            let key = &token[hidden + h * d..][..d];
            for (c, &v) in key.iter().enumerate() {
                keys_t[c * padded + j] = v * scale;
            }
        }
        for i0 in (0..n).step_by(QUERIES) {
            let count = QUERIES.min(n - i0);
            let query = |r: usize| &qkv[(i0 + r.min(count - 1)) * stride + h * d..][..d];
            let queries = [query(0), query(1), query(2), query(3)];
            for j0 in (0..padded).step_by(KEYS) {
                let block = scores_4x8(&queries, keys_t, padded, j0);
                for (r, row) in block.iter().enumerate().take(count) {
                    row[0].store(&mut scores[r * padded + j0..]);
                    row[1].store(&mut scores[r * padded + j0 + 4..]);
                }
            }
            for r in 0..count {
                let p = &mut scores[r * padded..][..n];
                softmax(p);
                let v = |j: usize| &qkv[j * stride + 2 * hidden + h * d..][..d];
                weighted_sum(p, v, &mut ctx[(i0 + r) * hidden + h * d..][..d]);
            }
        }
    }
}

/// Scores of 4 queries against keys `j0..j0+8` of the transposed keys (`d` rows of `padded`).
#[inline(never)]
fn scores_4x8(q: &[&[f32]; QUERIES], keys_t: &[f32], padded: usize, j0: usize) -> [[F32x4; 2]; 4] {
    let zero = F32x4::splat(0.0);
    let (mut a00, mut a01, mut a10, mut a11) = (zero, zero, zero, zero);
    let (mut a20, mut a21, mut a30, mut a31) = (zero, zero, zero, zero);
    let (q0, q1, q2, q3) = (q[0], q[1], q[2], q[3]);
    let d = q0.len();
    for c in 0..d {
        let k = &keys_t[c * padded + j0..][..KEYS];
        let (k0, k1) = (F32x4::load(&k[..4]), F32x4::load(&k[4..]));
        let v = F32x4::splat(q0[c]);
        a00 = v.mul_add(k0, a00);
        a01 = v.mul_add(k1, a01);
        let v = F32x4::splat(q1[c]);
        a10 = v.mul_add(k0, a10);
        a11 = v.mul_add(k1, a11);
        let v = F32x4::splat(q2[c]);
        a20 = v.mul_add(k0, a20);
        a21 = v.mul_add(k1, a21);
        let v = F32x4::splat(q3[c]);
        a30 = v.mul_add(k0, a30);
        a31 = v.mul_add(k1, a31);
    }
    [[a00, a01], [a10, a11], [a20, a21], [a30, a31]]
}

/// `out = Σⱼ p[j]·v(j)`: 32 lanes of `out` at a time stay in registers over all `j`.
fn weighted_sum<'a>(p: &[f32], v: impl Fn(usize) -> &'a [f32], out: &mut [f32]) {
    let d = out.len();
    let mut c0 = 0;
    while c0 + 32 <= d {
        let mut acc = [F32x4::splat(0.0); 8];
        for (j, &pj) in p.iter().enumerate() {
            let row = &v(j)[c0..c0 + 32];
            let s = F32x4::splat(pj);
            for (a, x) in acc.iter_mut().zip(row.chunks_exact(4)) {
                *a = s.mul_add(F32x4::load(x), *a);
            }
        }
        for (a, o) in acc.iter().zip(out[c0..c0 + 32].chunks_exact_mut(4)) {
            a.store(o);
        }
        c0 += 32;
    }
    if c0 < d {
        let rest = &mut out[c0..];
        rest.fill(0.0);
        for (j, &pj) in p.iter().enumerate() {
            axpy(rest, pj, &v(j)[c0..]);
        }
    }
}

/// In-place softmax, shifted by the maximum so large scores cannot overflow.
pub fn softmax(x: &mut [f32]) {
    let max = x.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    let shift = F32x4::splat(max);
    let mut sum4 = F32x4::splat(0.0);
    let mut chunks = x.chunks_exact_mut(4);
    for c in &mut chunks {
        let e = exp4(F32x4::load(c).sub(shift));
        sum4 = sum4.add(e);
        e.store(c);
    }
    let mut sum = sum4.sum();
    for v in chunks.into_remainder() {
        let mut lanes = [0f32; 4];
        exp4(F32x4::splat(*v - max)).store(&mut lanes);
        *v = lanes[0];
        sum += *v;
    }
    let inv = F32x4::splat(1.0 / sum);
    let mut chunks = x.chunks_exact_mut(4);
    for c in &mut chunks {
        F32x4::load(c).mul(inv).store(c);
    }
    for v in chunks.into_remainder() {
        *v *= 1.0 / sum;
    }
}

/// eˣ on four lanes for `x ≤ 0` (what softmax needs; below −87 it returns about 0): Cephes'
/// expf, `x = n·ln2 + r` with `|r| ≤ ln2/2`, a degree-6 polynomial for eʳ, then 2ⁿ added to
/// the exponent. Within 2 ulp of the true value (checked in the tests).
#[inline(always)]
fn exp4(x: F32x4) -> F32x4 {
    const P: [f32; 6] = [
        1.987_569_1e-4,
        1.398_199_9e-3,
        8.333_452e-3,
        4.166_579_6e-2,
        0.166_666_66,
        0.5,
    ];
    let x = x.clamp(-87.0, 0.0);
    let rounded = x
        .mul(F32x4::splat(std::f32::consts::LOG2_E))
        .add(F32x4::splat(ROUND_MAGIC));
    let n = rounded.sub(F32x4::splat(ROUND_MAGIC));
    let r = x
        .sub(n.mul(F32x4::splat(0.693_359_4)))
        .sub(n.mul(F32x4::splat(-2.121_944_4e-4)));
    let mut p = F32x4::splat(P[0]);
    for &c in &P[1..] {
        p = p.mul_add(r, F32x4::splat(c));
    }
    let e = p.mul(r.mul(r)).add(r).add(F32x4::splat(1.0));
    e.scale_by_pow2(rounded)
}

/// LayerNorm of each `dim`-wide row of `x`, in place: mean and variance in two passes.
pub fn layer_norm(x: &mut [f32], dim: usize, gamma: &[f32], beta: &[f32], eps: f32) {
    for row in x.chunks_exact_mut(dim) {
        let mean = row.iter().sum::<f32>() / dim as f32;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / dim as f32;
        let inv = 1.0 / (var + eps).sqrt();
        for ((v, g), b) in row.iter_mut().zip(gamma).zip(beta) {
            *v = (*v - mean) * inv * g + b;
        }
    }
}

/// `x·½·(1 + erf(x/√2))`, the exact GELU BERT was trained with, four values at a time.
pub fn gelu(x: &mut [f32]) {
    let half = F32x4::splat(0.5);
    let one = F32x4::splat(1.0);
    let inv_sqrt2 = F32x4::splat(std::f32::consts::FRAC_1_SQRT_2);
    let mut chunks = x.chunks_exact_mut(4);
    for c in &mut chunks {
        let v = F32x4::load(c);
        v.mul(erf4(v.mul(inv_sqrt2)).add(one)).mul(half).store(c);
    }
    for v in chunks.into_remainder() {
        let mut lanes = [*v, 0.0, 0.0, 0.0];
        gelu(&mut lanes);
        *v = lanes[0];
    }
}

/// erf on four lanes: an odd rational function (degree 13 over degree 8) on `[-4, 4]`, where
/// f32 erf reaches ±1; at most 4.5e-7 from the true erf (checked against f64 erf in the tests).
/// Branch-free, so it vectorizes; musl's `erff` branches on five ranges.
#[inline(always)]
fn erf4(x: F32x4) -> F32x4 {
    const P: [f32; 7] = [
        -0.016_096_033,
        -0.002_954_6,
        -0.000_734_990_64,
        -5.692_506_2e-5,
        -2.101_024e-6,
        2.770_681_5e-8,
        -2.726_142_4e-10,
    ];
    const Q: [f32; 5] = [
        -0.014_264_739,
        -0.007_373_329_3,
        -0.001_682_827,
        -0.000_213_374_05,
        -1.456_607_15e-5,
    ];
    let x = x.clamp(-4.0, 4.0);
    let x2 = x.mul(x);
    let mut p = F32x4::splat(P[6]);
    for &c in P[..6].iter().rev() {
        p = p.mul_add(x2, F32x4::splat(c));
    }
    let mut q = F32x4::splat(Q[4]);
    for &c in Q[..4].iter().rev() {
        q = q.mul_add(x2, F32x4::splat(c));
    }
    x.mul(p).div(q)
}

#[cfg(test)]
mod tests;
