//! Tests of the kernels in `kernels.rs`.

use super::*;

fn lcg(seed: &mut u64) -> f32 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}

/// A random matrix in the ONNX layout.
struct Raw {
    n: usize,
    k: usize,
    q4: Vec<u8>,
    scales: Vec<f32>,
    bias: Vec<f32>,
}

impl Raw {
    fn random(n: usize, k: usize, seed: &mut u64) -> Raw {
        let blocks = k / BLOCK;
        Raw {
            n,
            k,
            q4: (0..n * blocks * 16)
                .map(|_| ((lcg(seed) + 1.0) * 127.9) as u8)
                .collect(),
            scales: (0..n * blocks)
                .map(|_| lcg(seed).abs() * 0.1 + 0.01)
                .collect(),
            bias: (0..n).map(|_| lcg(seed)).collect(),
        }
    }

    fn packed(&self) -> Q4Matrix {
        Q4Matrix::from_onnx(self.n, self.k, &self.q4, &self.scales, self.bias.clone())
    }

    /// Every weight, value by value, straight from the ONNX layout's definition.
    fn dense(&self) -> Vec<f32> {
        let blocks = self.k / BLOCK;
        let mut out = vec![0.0; self.n * self.k];
        for j in 0..self.n {
            for kk in 0..self.k {
                let (b, t) = (kk / BLOCK, kk % BLOCK);
                let byte = self.q4[(j * blocks + b) * 16 + t / 2];
                let q = if t % 2 == 0 { byte & 15 } else { byte >> 4 };
                out[j * self.k + kk] = (q as f32 - 8.0) * self.scales[j * blocks + b];
            }
        }
        out
    }
}

#[test]
fn quantized_product_matches_the_dense_product_for_odd_shapes() {
    let mut seed = 7;
    for (rows, n, k) in [(1, 3, 32), (5, 35, 64), (9, 17, 96), (4, 8, 32)] {
        let w = Raw::random(n, k, &mut seed);
        let x: Vec<f32> = (0..rows * k).map(|_| lcg(&mut seed)).collect();
        let mut out = vec![f32::NAN; rows * n];
        matmul_q4(
            &x,
            rows,
            &w.packed(),
            &mut MatmulScratch::default(),
            &mut out,
        );
        let wd = w.dense();
        for r in 0..rows {
            let xr = &x[r * k..][..k];
            // Rows are rounded to i16 in blocks: each value moves by at most half a step of
            // its row's largest magnitude.
            let step = xr.iter().fold(0f32, |m, v| m.max(v.abs())) / 32767.0;
            for j in 0..n {
                let wj = &wd[j * k..][..k];
                let expected = w.bias[j] + dot(xr, wj);
                let bound = step / 2.0 * wj.iter().map(|v| v.abs()).sum::<f32>() + 1e-5;
                let got = out[r * n + j];
                assert!(
                    (got - expected).abs() <= bound,
                    "{rows}x{n}x{k} at {r},{j}: {got} vs {expected} (bound {bound})"
                );
            }
        }
    }
}

#[test]
fn softmax_is_stable_for_large_scores_and_sums_to_one() {
    // Five values: four go through the vector path, one through the tail.
    let mut x = [1000.0, 999.0, -1e30, 998.0, 1000.0];
    softmax(&mut x);
    assert!(x.iter().all(|v| v.is_finite()));
    assert!((x.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    assert!(x[0] > x[1] && x[1] > x[3] && x[2] < 1e-30 && x[4] == x[0]);
    let e = std::f32::consts::E;
    assert!((x[0] / x[1] - e).abs() < 1e-5 && (x[1] / x[3] - e).abs() < 1e-5);
}

#[test]
fn layer_norm_gives_zero_mean_unit_variance_before_the_affine_part() {
    let mut x: Vec<f32> = (0..64).map(|i| (i as f32).powi(2) * 0.01 + 3.0).collect();
    layer_norm(&mut x, 32, &[1.0; 32], &[0.0; 32], 1e-12);
    for row in x.chunks(32) {
        let mean = row.iter().sum::<f32>() / 32.0;
        let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / 32.0;
        assert!(
            mean.abs() < 1e-5 && (var - 1.0).abs() < 1e-4,
            "{mean} {var}"
        );
    }
}

#[test]
fn gelu_matches_reference_values() {
    // x·Φ(x) from the normal CDF, to 7 digits.
    let cases = [
        (-3.0, -0.004_049_694),
        (-1.0, -0.158_655_25),
        (0.0, 0.0),
        (0.5, 0.345_731_3),
        (2.0, 1.954_499_7),
    ];
    for (x, expected) in cases {
        let mut v = [x];
        gelu(&mut v);
        assert!(
            (v[0] - expected).abs() < 1e-6,
            "gelu({x}) = {} not {expected}",
            v[0]
        );
    }
}

#[test]
fn erf_is_within_half_a_millionth_of_the_true_erf() {
    let mut worst = 0f64;
    for i in -60_000..=60_000 {
        let x = i as f32 * 1e-4;
        let mut lanes = [0f32; 4];
        erf4(F32x4::splat(x)).store(&mut lanes);
        worst = worst.max((lanes[0] as f64 - libm::erf(x as f64)).abs());
    }
    assert!(worst < 5e-7, "max |erf error| {worst}");
}

#[test]
fn exp_is_within_two_ulp_for_softmax_inputs() {
    for i in 0..=870_000 {
        let x = -(i as f32) * 1e-4;
        let mut lanes = [0f32; 4];
        exp4(F32x4::splat(x)).store(&mut lanes);
        let exact = (x as f64).exp();
        let ulp = (exact as f32).to_bits().abs_diff(lanes[0].to_bits());
        assert!(
            ulp <= 2 || exact < 1e-37,
            "exp({x}) = {} not {exact}",
            lanes[0]
        );
    }
}

#[test]
fn attention_with_one_token_returns_its_value() {
    let hidden = 8;
    let qkv: Vec<f32> = (0..3 * hidden).map(|i| i as f32).collect();
    let mut ctx = vec![0.0; hidden];
    attention(&qkv, 1, hidden, 2, &mut Vec::new(), &mut ctx);
    assert_eq!(ctx, &qkv[2 * hidden..]);
}

/// Attention written out from its definition, in f64.
fn attention_by_definition(qkv: &[f32], n: usize, hidden: usize, heads: usize) -> Vec<f64> {
    let d = hidden / heads;
    let mut out = vec![0f64; n * hidden];
    for h in 0..heads {
        for i in 0..n {
            let at = |t: usize, part: usize, c: usize| {
                qkv[t * 3 * hidden + part * hidden + h * d + c] as f64
            };
            let scores: Vec<f64> = (0..n)
                .map(|j| (0..d).map(|c| at(i, 0, c) * at(j, 1, c)).sum::<f64>() / (d as f64).sqrt())
                .collect();
            let max = scores.iter().cloned().fold(f64::MIN, f64::max);
            let e: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
            let total: f64 = e.iter().sum();
            for c in 0..d {
                out[i * hidden + h * d + c] =
                    (0..n).map(|j| e[j] / total * at(j, 2, c)).sum::<f64>();
            }
        }
    }
    out
}

#[test]
fn attention_matches_its_definition_for_odd_lengths_and_head_sizes() {
    let mut seed = 3;
    for (n, hidden, heads) in [(1, 64, 2), (5, 64, 2), (13, 96, 3), (9, 24, 2), (33, 64, 1)] {
        let qkv: Vec<f32> = (0..n * 3 * hidden).map(|_| lcg(&mut seed) * 3.0).collect();
        let mut ctx = vec![f32::NAN; n * hidden];
        attention(&qkv, n, hidden, heads, &mut Vec::new(), &mut ctx);
        let expected = attention_by_definition(&qkv, n, hidden, heads);
        for (i, (&got, &want)) in ctx.iter().zip(&expected).enumerate() {
            assert!(
                (got as f64 - want).abs() < 1e-5,
                "n {n} hidden {hidden} heads {heads} at {i}: {got} vs {want}"
            );
        }
    }
}
