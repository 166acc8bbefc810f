//! The NER encoder against onnxruntime: `tests/fixtures/ner_reference.jsonl` (written by
//! `scripts/ner-reference.py` from the original ONNX model) holds the reference tokenizer's ids
//! for 1 000+ varied texts, the argmax label of every token and, for a subset, all logits. Our
//! encoder, on that model unchanged (`models/rampart-ner.bin`, `make model`), must pick the same
//! label for ≥ 99.5 % of the tokens; the agreement and the largest logit difference are printed.
//!
//! Without the model file the test is skipped with a message, except in CI (`CI` set), where
//! `make test` builds it first and its absence is a failure. The comparison runs in optimized
//! builds only (`cargo test --profile server --test ner_reference`, part of `make test-native`).

use llm_memory::ner::NerModel;
use std::path::PathBuf;

const MIN_AGREEMENT: f64 = 0.995;

struct Case {
    ids: Vec<u32>,
    labels: Vec<usize>,
    logits: Option<Vec<f32>>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load_model() -> Option<NerModel> {
    let path = root().join("models/rampart-ner.bin");
    match std::fs::read(&path) {
        Ok(bytes) => Some(NerModel::from_bytes(&bytes).expect("models/rampart-ner.bin loads")),
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!(
                "SKIPPED: {} not readable ({e}); run `make model` to test the NER encoder",
                path.display()
            );
            None
        }
        Err(e) => panic!(
            "{} is missing in CI ({e}): make test runs make model first",
            path.display()
        ),
    }
}

fn load_cases() -> (Vec<String>, Vec<Case>) {
    let text = std::fs::read_to_string(root().join("tests/fixtures/ner_reference.jsonl"))
        .expect("fixture");
    let mut lines = text.lines();
    let head: serde_json::Value =
        serde_json::from_str(lines.next().expect("header line")).expect("json");
    let labels = head["labels"]
        .as_array()
        .expect("labels")
        .iter()
        .map(|l| l.as_str().expect("label").to_string())
        .collect();
    let ints = |v: &serde_json::Value| -> Vec<i64> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|x| x.as_i64().expect("int"))
            .collect()
    };
    let cases = lines
        .map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).expect("fixture row");
            Case {
                ids: ints(&row["ids"]).into_iter().map(|x| x as u32).collect(),
                labels: ints(&row["labels"])
                    .into_iter()
                    .map(|x| x as usize)
                    .collect(),
                logits: row
                    .get("logits")
                    .map(|l| ints(l).into_iter().map(|x| x as f32 * 1e-4).collect()),
            }
        })
        .collect();
    (labels, cases)
}

fn argmax(row: &[f32]) -> usize {
    row.iter()
        .enumerate()
        .fold(0, |best, (i, &v)| if v > row[best] { i } else { best })
}

/// 68 000 tokens take minutes unoptimized: `make test-native` runs this file with `--release`.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow unoptimized; run with --release (make test-native does)"
)]
fn encoder_agrees_with_onnxruntime_on_the_fixture() {
    let Some(model) = load_model() else { return };
    let (labels, cases) = load_cases();
    assert_eq!(
        model.labels(),
        labels.as_slice(),
        "label order differs from the fixture's"
    );
    assert!(cases.len() >= 1000, "the fixture has {} texts", cases.len());
    let classes = labels.len();
    let (mut tokens, mut agree, mut max_diff, mut compared) = (0usize, 0usize, 0f32, 0usize);
    for (i, case) in cases.iter().enumerate() {
        let logits = model.logits(&case.ids).expect("logits");
        assert_eq!(logits.len(), case.ids.len() * classes);
        for (t, row) in logits.chunks_exact(classes).enumerate() {
            tokens += 1;
            agree += usize::from(argmax(row) == case.labels[t]);
        }
        if let Some(reference) = &case.logits {
            compared += 1;
            for (a, b) in logits.iter().zip(reference) {
                max_diff = max_diff.max((a - b).abs());
            }
            assert!(max_diff < 0.25, "text {i}: logits differ by {max_diff}");
        }
    }
    let agreement = agree as f64 / tokens as f64;
    println!(
        "NER encoder vs onnxruntime: {agree}/{tokens} token labels agree ({:.3} %) over {} texts; \
         max logit difference {max_diff:.4} over {compared} texts with full logits",
        agreement * 100.0,
        cases.len()
    );
    assert!(
        agreement >= MIN_AGREEMENT,
        "agreement {:.3} % < {} %",
        agreement * 100.0,
        MIN_AGREEMENT * 100.0
    );
}

#[test]
fn model_metadata_matches_the_source_model() {
    let Some(model) = load_model() else { return };
    assert_eq!(model.labels().len(), 35);
    assert_eq!(model.labels()[0], "O");
    assert_eq!(model.max_positions(), 512);
    assert_eq!(model.vocab().len(), 19730);
    let special = model.special_tokens();
    assert_eq!(model.vocab()[special.cls as usize], "[CLS]");
    assert_eq!(model.vocab()[special.sep as usize], "[SEP]");
    assert_eq!(model.vocab()[special.unk as usize], "[UNK]");
    assert!(model.normalizer().lowercase && model.normalizer().strip_accents);
    assert_eq!(model.license(), "CC-BY-4.0");
    assert!(model.attribution().contains("National Design Studio"));
    let too_long = vec![special.cls; model.max_positions() + 1];
    assert_eq!(
        model.logits(&too_long).unwrap_err().code,
        llm_memory::ErrorCode::InvalidOption
    );
    assert!(model.logits(&[special.cls, 19730, special.sep]).is_err());
}
