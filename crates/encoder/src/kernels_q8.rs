//! 8-bit weight-only matrix products for the sentence embedder (crates/encoder/src/embedder.rs): int8
//! weights with one f32 scale per output, as the int8 ONNX export of all-MiniLM-L6-v2 stores
//! them, so our products equal onnxruntime's up to float rounding. Activations stay f32.
//!
//! Like `kernels::matmul_q4`, each call converts a panel of 8 output columns to f32 once and
//! multiplies it with every input row, 4 rows at a time; the per-output scale is applied to the
//! finished sum (it factors out of the dot product), so converting a panel is a plain widening.

use super::simd::F32x4;

/// Columns of a panel: two 4-lane vectors.
const NR: usize = 8;
/// Input rows per micro-tile.
const MR: usize = 4;

/// A weight matrix `W` (`n` outputs × `k` inputs) as int8 with a scale per output and a bias,
/// repacked at load into panels of 8 outputs: per panel, `k` groups of 8 bytes (input `kk` of
/// outputs `8p..8p+8`), zeros past `n`.
#[derive(Debug, Clone)]
pub struct Q8Matrix {
    pub n: usize,
    pub k: usize,
    packed: Vec<i8>,
    scales: Vec<f32>,
    pub bias: Vec<f32>,
}

impl Q8Matrix {
    /// Stacks the row-major int8 matrices `parts` (each `n_i × k`, with `n_i` scales and biases)
    /// side by side into one: query, key and value become one product reading its input once.
    pub fn stack(k: usize, parts: &[(Vec<i8>, Vec<f32>, Vec<f32>)]) -> Q8Matrix {
        let n: usize = parts.iter().map(|p| p.1.len()).sum();
        let panels = n.div_ceil(NR);
        let mut packed = vec![0i8; panels * k * NR];
        let (mut scales, mut bias) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut j = 0;
        for (q, s, b) in parts {
            for row in q.chunks_exact(k) {
                let (panel, lane) = (j / NR, j % NR);
                let dst = &mut packed[panel * k * NR..][..k * NR];
                for (kk, &v) in row.iter().enumerate() {
                    dst[kk * NR + lane] = v;
                }
                j += 1;
            }
            scales.extend_from_slice(s);
            bias.extend_from_slice(b);
        }
        Q8Matrix {
            n,
            k,
            packed,
            scales,
            bias,
        }
    }
}

/// `out[r][j] = bias[j] + scale[j] · Σₖ x[r][k]·q[j][k]` for `rows` rows of `x` (row-major,
/// `w.k` wide). `panel` is scratch space, grown once to `w.k × 8`.
pub fn matmul_q8(x: &[f32], rows: usize, w: &Q8Matrix, panel: &mut Vec<f32>, out: &mut [f32]) {
    let (n, k) = (w.n, w.k);
    debug_assert!(x.len() >= rows * k && out.len() >= rows * n);
    if panel.len() < k * NR {
        panel.resize(k * NR, 0.0);
    }
    let panel = &mut panel[..k * NR];
    for (p, j0) in (0..n).step_by(NR).enumerate() {
        for (d, &q) in panel.iter_mut().zip(&w.packed[p * k * NR..][..k * NR]) {
            *d = q as f32;
        }
        let width = NR.min(n - j0);
        let (bias, scale) = (&w.bias[j0..j0 + width], &w.scales[j0..j0 + width]);
        let mut r = 0;
        while r + MR <= rows {
            let acc = tile_4x8(&x[r * k..(r + MR) * k], k, panel);
            for (i, acc_row) in acc.iter().enumerate() {
                let o = &mut out[(r + i) * n + j0..][..width];
                for l in 0..width {
                    o[l] = acc_row[l] * scale[l] + bias[l];
                }
            }
            r += MR;
        }
        while r < rows {
            let acc = tile_1x8(&x[r * k..(r + 1) * k], panel);
            let o = &mut out[r * n + j0..][..width];
            for l in 0..width {
                o[l] = acc[l] * scale[l] + bias[l];
            }
            r += 1;
        }
    }
}

/// Four rows of `x` (each `k` wide, one after another) times the panel.
#[inline(never)]
fn tile_4x8(x: &[f32], k: usize, panel: &[f32]) -> [[f32; NR]; MR] {
    let (x0, rest) = x.split_at(k);
    let (x1, rest) = rest.split_at(k);
    let (x2, x3) = rest.split_at(k);
    let (x3, panel) = (&x3[..k], &panel[..k * NR]);
    let zero = F32x4::splat(0.0);
    let (mut a00, mut a01, mut a10, mut a11) = (zero, zero, zero, zero);
    let (mut a20, mut a21, mut a30, mut a31) = (zero, zero, zero, zero);
    for (kk, p) in panel.chunks_exact(NR).enumerate() {
        let (p0, p1) = (F32x4::load(&p[..4]), F32x4::load(&p[4..]));
        let v = F32x4::splat(x0[kk]);
        a00 = v.mul_add(p0, a00);
        a01 = v.mul_add(p1, a01);
        let v = F32x4::splat(x1[kk]);
        a10 = v.mul_add(p0, a10);
        a11 = v.mul_add(p1, a11);
        let v = F32x4::splat(x2[kk]);
        a20 = v.mul_add(p0, a20);
        a21 = v.mul_add(p1, a21);
        let v = F32x4::splat(x3[kk]);
        a30 = v.mul_add(p0, a30);
        a31 = v.mul_add(p1, a31);
    }
    let mut out = [[0f32; NR]; MR];
    for (row, (lo, hi)) in out
        .iter_mut()
        .zip([(a00, a01), (a10, a11), (a20, a21), (a30, a31)])
    {
        lo.store(&mut row[..4]);
        hi.store(&mut row[4..]);
    }
    out
}

fn tile_1x8(x: &[f32], panel: &[f32]) -> [f32; NR] {
    let (mut lo, mut hi) = (F32x4::splat(0.0), F32x4::splat(0.0));
    for (&xi, p) in x.iter().zip(panel.chunks_exact(NR)) {
        let v = F32x4::splat(xi);
        lo = v.mul_add(F32x4::load(&p[..4]), lo);
        hi = v.mul_add(F32x4::load(&p[4..]), hi);
    }
    let mut out = [0f32; NR];
    lo.store(&mut out[..4]);
    hi.store(&mut out[4..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn stacked_product_matches_the_dense_definition_for_odd_shapes() {
        let mut seed = 11;
        for (rows, sizes, k) in [
            (1, vec![3], 5),
            (5, vec![8, 8, 8], 16),
            (9, vec![17], 40),
            (4, vec![5, 2], 7),
        ] {
            let parts: Vec<(Vec<i8>, Vec<f32>, Vec<f32>)> = sizes
                .iter()
                .map(|&n| {
                    let q = (0..n * k).map(|_| lcg(&mut seed) as i8).collect();
                    let s = (0..n)
                        .map(|_| (lcg(&mut seed) % 100) as f32 * 1e-3 + 1e-3)
                        .collect();
                    let b = (0..n)
                        .map(|_| (lcg(&mut seed) % 200) as f32 * 0.01 - 1.0)
                        .collect();
                    (q, s, b)
                })
                .collect();
            let w = Q8Matrix::stack(k, &parts);
            let x: Vec<f32> = (0..rows * k)
                .map(|_| (lcg(&mut seed) % 2000) as f32 * 1e-3 - 1.0)
                .collect();
            let mut out = vec![f32::NAN; rows * w.n];
            matmul_q8(&x, rows, &w, &mut Vec::new(), &mut out);
            let mut j = 0;
            for (q, s, b) in &parts {
                for (jj, row) in q.chunks_exact(k).enumerate() {
                    for r in 0..rows {
                        let dot: f64 = row
                            .iter()
                            .zip(&x[r * k..][..k])
                            .map(|(&qv, &xv)| qv as f64 * s[jj] as f64 * xv as f64)
                            .sum();
                        let expected = dot + b[jj] as f64;
                        let got = out[r * w.n + j] as f64;
                        assert!(
                            (got - expected).abs() < 1e-4 * (1.0 + expected.abs()),
                            "{rows}x{sizes:?}x{k} at {r},{j}: {got} vs {expected}"
                        );
                    }
                    j += 1;
                }
            }
        }
    }
}
