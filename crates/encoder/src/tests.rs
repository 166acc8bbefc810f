//! Tests of the model file and the encoder on a tiny random BERT written here with the same
//! tensor names as the converter: the parser refuses every truncated or altered file with
//! `INVALID_MODEL`, and the encoder equals a plain dense f64 forward pass written from BERT's
//! definition (so the wiring is checked without the real model; tests/ner_reference.rs checks the
//! real one against onnxruntime).

use super::format::{write_model_file, ModelFile};
use super::NerModel;
use llm_memory_core::error::ErrorCode;
use serde_json::json;

const HIDDEN: usize = 64;
const HEADS: usize = 4;
const LAYERS: usize = 2;
const INTER: usize = 128;
const VOCAB: usize = 40;
const POSITIONS: usize = 16;
const LABELS: usize = 5;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn unit(&mut self) -> f32 {
        (self.next() % 20001) as f32 / 10000.0 - 1.0
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    fn floats(&mut self, n: usize, scale: f32, offset: f32) -> Vec<u8> {
        (0..n)
            .flat_map(|_| (self.unit() * scale + offset).to_le_bytes())
            .collect()
    }
}

type Tensor = (String, &'static str, Vec<usize>, Vec<u8>);

fn tiny_tensors(rng: &mut Rng) -> Vec<Tensor> {
    let mut t: Vec<Tensor> = Vec::new();
    for (table, rows) in [
        ("word_embeddings", VOCAB),
        ("position_embeddings", POSITIONS),
        ("token_type_embeddings", 2),
    ] {
        let base = format!("bert.embeddings.{table}.weight");
        t.push((
            format!("{base}.q8"),
            "u8",
            vec![rows, HIDDEN],
            rng.bytes(rows * HIDDEN),
        ));
        t.push((
            format!("{base}.scale"),
            "f32",
            vec![1],
            0.01f32.to_le_bytes().to_vec(),
        ));
        t.push((format!("{base}.zero_point"), "u8", vec![1], vec![120]));
    }
    let norm = |t: &mut Vec<Tensor>, rng: &mut Rng, prefix: &str| {
        t.push((
            format!("{prefix}.weight"),
            "f32",
            vec![HIDDEN],
            rng.floats(HIDDEN, 0.2, 1.0),
        ));
        t.push((
            format!("{prefix}.bias"),
            "f32",
            vec![HIDDEN],
            rng.floats(HIDDEN, 0.1, 0.0),
        ));
    };
    let linear = |t: &mut Vec<Tensor>, rng: &mut Rng, prefix: &str, n: usize, k: usize| {
        t.push((
            format!("{prefix}.weight.q4"),
            "u8",
            vec![n, k / 32, 16],
            rng.bytes(n * k / 2),
        ));
        t.push((
            format!("{prefix}.weight.scales"),
            "f32",
            vec![n, k / 32],
            rng.floats(n * k / 32, 0.01, 0.02),
        ));
        t.push((
            format!("{prefix}.bias"),
            "f32",
            vec![n],
            rng.floats(n, 0.1, 0.0),
        ));
    };
    norm(&mut t, rng, "bert.embeddings.LayerNorm");
    for l in 0..LAYERS {
        let p = format!("bert.encoder.layer.{l}");
        for part in ["query", "key", "value"] {
            linear(
                &mut t,
                rng,
                &format!("{p}.attention.self.{part}"),
                HIDDEN,
                HIDDEN,
            );
        }
        linear(
            &mut t,
            rng,
            &format!("{p}.attention.output.dense"),
            HIDDEN,
            HIDDEN,
        );
        norm(&mut t, rng, &format!("{p}.attention.output.LayerNorm"));
        linear(
            &mut t,
            rng,
            &format!("{p}.intermediate.dense"),
            INTER,
            HIDDEN,
        );
        linear(&mut t, rng, &format!("{p}.output.dense"), HIDDEN, INTER);
        norm(&mut t, rng, &format!("{p}.output.LayerNorm"));
    }
    linear(&mut t, rng, "classifier", LABELS, HIDDEN);
    t
}

fn tiny_header() -> serde_json::Value {
    json!({
        "architecture": "bert-token-classification", "hidden_size": HIDDEN,
        "num_attention_heads": HEADS, "num_hidden_layers": LAYERS, "intermediate_size": INTER,
        "max_position_embeddings": POSITIONS, "type_vocab_size": 2, "vocab_size": VOCAB,
        "layer_norm_eps": 1e-12, "labels": ["O", "B-A", "I-A", "B-B", "I-B"],
        "normalizer": {"lowercase": true, "strip_accents": true, "handle_chinese_chars": true, "clean_text": true},
        "wordpiece": {"continuing_subword_prefix": "##", "max_input_chars_per_word": 100},
        "special_tokens": {"pad": 0, "unk": 1, "cls": 2, "sep": 3, "mask": 4},
        "vocab": (0..VOCAB).map(|i| format!("t{i}")).collect::<Vec<_>>(),
        "license": "CC0-1.0", "attribution": "test", "source": {"package": "p", "version": "0", "file": "f"}
    })
}

fn tiny_model_bytes() -> (Vec<u8>, Vec<Tensor>) {
    let tensors = tiny_tensors(&mut Rng(42));
    let refs: Vec<(&str, &str, Vec<usize>, Vec<u8>)> = tensors
        .iter()
        .map(|(n, d, s, b)| (n.as_str(), *d, s.clone(), b.clone()))
        .collect();
    (write_model_file(tiny_header(), &refs), tensors)
}

/// BERT's forward pass from its definition, in f64 on fully dequantized weights.
fn dense_reference(tensors: &[Tensor], ids: &[u32]) -> Vec<f64> {
    let get = |name: &str| {
        &tensors
            .iter()
            .find(|t| t.0 == name)
            .unwrap_or_else(|| panic!("{name}"))
            .3
    };
    let f32s = |name: &str| -> Vec<f64> {
        get(name)
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64)
            .collect()
    };
    let embed = |table: &str, row: usize| -> Vec<f64> {
        let base = format!("bert.embeddings.{table}.weight");
        let (scale, zero) = (
            f32s(&format!("{base}.scale"))[0],
            get(&format!("{base}.zero_point"))[0] as f64,
        );
        get(&format!("{base}.q8"))[row * HIDDEN..][..HIDDEN]
            .iter()
            .map(|&q| (q as f64 - zero) * scale)
            .collect()
    };
    let linear = |x: &[Vec<f64>], prefix: &str| -> Vec<Vec<f64>> {
        let (q4, scales, bias) = (
            get(&format!("{prefix}.weight.q4")),
            f32s(&format!("{prefix}.weight.scales")),
            f32s(&format!("{prefix}.bias")),
        );
        let k = x[0].len();
        x.iter()
            .map(|row| {
                (0..bias.len())
                    .map(|j| {
                        bias[j]
                            + (0..k)
                                .map(|kk| {
                                    let byte = q4[j * k / 2 + kk / 2];
                                    let q = if kk % 2 == 0 { byte & 15 } else { byte >> 4 };
                                    (q as f64 - 8.0) * scales[j * k / 32 + kk / 32] * row[kk]
                                })
                                .sum::<f64>()
                    })
                    .collect()
            })
            .collect()
    };
    let norm = |x: &mut [Vec<f64>], prefix: &str| {
        let (g, b) = (
            f32s(&format!("{prefix}.weight")),
            f32s(&format!("{prefix}.bias")),
        );
        for row in x.iter_mut() {
            let mean = row.iter().sum::<f64>() / HIDDEN as f64;
            let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / HIDDEN as f64;
            for (i, v) in row.iter_mut().enumerate() {
                *v = (*v - mean) / (var + 1e-12).sqrt() * g[i] + b[i];
            }
        }
    };
    let mut x: Vec<Vec<f64>> = ids
        .iter()
        .enumerate()
        .map(|(i, &id)| {
            let (w, t, p) = (
                embed("word_embeddings", id as usize),
                embed("token_type_embeddings", 0),
                embed("position_embeddings", i),
            );
            (0..HIDDEN).map(|h| w[h] + t[h] + p[h]).collect()
        })
        .collect();
    norm(&mut x, "bert.embeddings.LayerNorm");
    let d = HIDDEN / HEADS;
    for l in 0..LAYERS {
        let p = format!("bert.encoder.layer.{l}");
        let (q, k, v) = (
            linear(&x, &format!("{p}.attention.self.query")),
            linear(&x, &format!("{p}.attention.self.key")),
            linear(&x, &format!("{p}.attention.self.value")),
        );
        let mut ctx = vec![vec![0.0; HIDDEN]; ids.len()];
        for h in 0..HEADS {
            for i in 0..ids.len() {
                let s: Vec<f64> = (0..ids.len())
                    .map(|j| {
                        (0..d)
                            .map(|e| q[i][h * d + e] * k[j][h * d + e])
                            .sum::<f64>()
                            / (d as f64).sqrt()
                    })
                    .collect();
                let max = s.iter().cloned().fold(f64::MIN, f64::max);
                let z: f64 = s.iter().map(|v| (v - max).exp()).sum();
                for (j, sj) in s.iter().enumerate() {
                    for e in 0..d {
                        ctx[i][h * d + e] += (sj - max).exp() / z * v[j][h * d + e];
                    }
                }
            }
        }
        let attn = linear(&ctx, &format!("{p}.attention.output.dense"));
        x.iter_mut()
            .zip(&attn)
            .for_each(|(r, a)| r.iter_mut().zip(a).for_each(|(r, a)| *r += a));
        norm(&mut x, &format!("{p}.attention.output.LayerNorm"));
        let inter: Vec<Vec<f64>> = linear(&x, &format!("{p}.intermediate.dense"))
            .into_iter()
            .map(|r| {
                r.into_iter()
                    .map(|v| v * 0.5 * (1.0 + libm::erf(v / 2f64.sqrt())))
                    .collect()
            })
            .collect();
        let out = linear(&inter, &format!("{p}.output.dense"));
        x.iter_mut()
            .zip(&out)
            .for_each(|(r, a)| r.iter_mut().zip(a).for_each(|(r, a)| *r += a));
        norm(&mut x, &format!("{p}.output.LayerNorm"));
    }
    linear(&x, "classifier").concat()
}

#[test]
fn encoder_equals_a_dense_reference_forward_pass() {
    let (bytes, tensors) = tiny_model_bytes();
    let model = NerModel::from_bytes(&bytes).expect("tiny model loads");
    for ids in [
        vec![2, 3],
        vec![2, 17, 5, 39, 3],
        (0..POSITIONS as u32)
            .map(|i| (i * 7) % VOCAB as u32)
            .collect(),
    ] {
        let ours = model.logits(&ids).unwrap();
        let reference = dense_reference(&tensors, &ids);
        assert_eq!(ours.len(), ids.len() * LABELS);
        let diff = ours
            .iter()
            .zip(&reference)
            .map(|(a, b)| (*a as f64 - b).abs())
            .fold(0.0, f64::max);
        assert!(diff < 1e-3, "{} tokens: logits differ by {diff}", ids.len());
    }
}

#[test]
fn encoder_refuses_inputs_it_cannot_read() {
    let model = NerModel::from_bytes(&tiny_model_bytes().0).unwrap();
    assert_eq!(
        model.logits(&[2; POSITIONS + 1]).unwrap_err().code,
        ErrorCode::InvalidOption
    );
    assert_eq!(
        model.logits(&[2, VOCAB as u32, 3]).unwrap_err().code,
        ErrorCode::InvalidOption
    );
    assert_eq!(model.logits(&[]).unwrap(), Vec::<f32>::new());
    assert_eq!(model.max_positions(), POSITIONS);
    assert_eq!(model.labels().len(), LABELS);
}

fn assert_invalid(bytes: &[u8], what: &str) {
    match NerModel::from_bytes(bytes) {
        Err(e) => assert_eq!(e.code, ErrorCode::InvalidModel, "{what}: {e}"),
        Ok(_) => panic!("{what}: accepted"),
    }
}

#[test]
fn truncated_files_are_invalid_model_errors() {
    let bytes = tiny_model_bytes().0;
    for eighth in 0..8 {
        assert_invalid(
            &bytes[..bytes.len() * eighth / 8],
            &format!("cut at {eighth}/8"),
        );
    }
    assert_invalid(&bytes[..bytes.len() - 1], "last byte missing");
    let mut longer = bytes.clone();
    longer.push(0);
    assert_invalid(&longer, "one byte too many");
}

#[test]
fn altered_bytes_are_invalid_model_errors() {
    let bytes = tiny_model_bytes().0;
    let header_end = 24 + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    // Every byte of the fixed prefix and a spread of header and weight bytes.
    let positions = (0..24)
        .chain((24..header_end).step_by(97))
        .chain((header_end..bytes.len()).step_by(1013));
    for at in positions {
        let mut altered = bytes.clone();
        altered[at] ^= 0x20;
        assert_invalid(&altered, &format!("byte {at} flipped"));
    }
}

#[test]
fn wrong_version_and_wrong_shapes_are_invalid_model_errors() {
    let (bytes, tensors) = tiny_model_bytes();
    let mut newer = bytes.clone();
    newer[8..12].copy_from_slice(&2u32.to_le_bytes());
    assert_invalid(&newer, "version 2");
    let refs = |t: &[Tensor]| -> Vec<(String, &'static str, Vec<usize>, Vec<u8>)> { t.to_vec() };
    let write = |header: serde_json::Value, t: Vec<Tensor>| {
        let r: Vec<(&str, &str, Vec<usize>, Vec<u8>)> = t
            .iter()
            .map(|(n, d, s, b)| (n.as_str(), *d, s.clone(), b.clone()))
            .collect();
        write_model_file(header, &r)
    };
    let mut header = tiny_header();
    header["hidden_size"] = json!(HIDDEN * 2);
    assert_invalid(
        &write(header, refs(&tensors)),
        "header hidden size differs from the tensors",
    );
    let mut missing = refs(&tensors);
    missing.retain(|t| t.0 != "classifier.bias");
    assert_invalid(&write(tiny_header(), missing), "classifier bias missing");
    let mut reshaped = refs(&tensors);
    reshaped
        .iter_mut()
        .find(|t| t.0 == "classifier.bias")
        .unwrap()
        .2 = vec![1, LABELS];
    assert_invalid(&write(tiny_header(), reshaped), "classifier bias of rank 2");
    let mut header = tiny_header();
    header["vocab"] = json!(["only one"]);
    assert_invalid(
        &write(header, refs(&tensors)),
        "vocab shorter than vocab_size",
    );
    assert!(ModelFile::parse(&bytes).is_ok());
}

#[test]
fn a_sentence_embedder_given_as_a_pii_model_says_what_it_is() {
    let tensors = tiny_tensors(&mut Rng(42));
    let r: Vec<(&str, &str, Vec<usize>, Vec<u8>)> = tensors
        .iter()
        .filter(|(n, ..)| !n.starts_with("classifier"))
        .map(|(n, d, s, b)| (n.as_str(), *d, s.clone(), b.clone()))
        .collect();
    let mut header = tiny_header();
    header["architecture"] = json!("bert-sentence-embedding");
    header["labels"] = json!([]);
    match NerModel::from_bytes(&write_model_file(header, &r)) {
        Err(e) => {
            assert_eq!(e.code, ErrorCode::InvalidModel);
            assert!(
                e.message.contains("sentence embedder") && e.message.contains("EmbedModel"),
                "{e}"
            );
        }
        Ok(_) => panic!("an embedder was taken as a PII model"),
    }
}
