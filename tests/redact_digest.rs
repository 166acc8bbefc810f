//! A fingerprint of everything the default recognizers find on both labeled corpora: every raw
//! candidate (type, span, score bits, before overlaps are resolved) and every finding a
//! redaction keeps. Refactors of the recognizers must leave it unchanged; a change that means to
//! alter what is found updates the expected value together with its accuracy figures.
//!
//! To print the current value: `cargo test --test redact_digest -- --nocapture`.

use llm_memory::redact::recognizers::Recognizers;
use llm_memory::redact::{word_lists, Redactor, RedactorConfig, WordLists};

/// FNV-1a, 64 bits: stable across platforms and Rust versions (`DefaultHasher` is not).
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
    fn num(&mut self, n: u64) {
        self.bytes(&n.to_le_bytes());
    }
}

/// The texts of a corpus file in `tests/data`.
fn texts(file: &str) -> Vec<String> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let corpus = std::fs::read_to_string(&path).expect("corpus file; run its generator");
    corpus
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("corpus line");
            v["text"].as_str().unwrap_or_default().to_string()
        })
        .collect()
}

/// The digest of the raw candidates and of the resolved findings, and how many of each, with
/// the large word lists the model file carries (`crates/redact/word-lists`).
fn digest(files: &[&str]) -> (u64, usize, usize) {
    let lists = WordLists::of_this_repository();
    let recognizers = Recognizers::new(&RedactorConfig::default()).unwrap();
    let redactor = Redactor::new(RedactorConfig::default())
        .unwrap()
        .with_word_lists(lists.clone());
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let (mut raw, mut kept) = (0, 0);
    for file in files {
        for text in texts(file) {
            // Recognizers may list candidates in any order; the set is what must not change.
            let scanned = word_lists::using(&lists, || recognizers.scan(&text));
            let mut found: Vec<(usize, usize, String, u32)> = scanned
                .into_iter()
                .map(|c| (c.start, c.end, c.kind.to_string(), c.score.to_bits()))
                .collect();
            found.sort();
            raw += found.len();
            for (start, end, kind, score) in found {
                h.bytes(kind.as_bytes());
                h.num(start as u64);
                h.num(end as u64);
                h.num(score as u64);
            }
            h.bytes(b"|");
            for c in redactor.detect(&text) {
                kept += 1;
                h.bytes(c.kind.to_string().as_bytes());
                h.num(c.start as u64);
                h.num(c.end as u64);
                h.num(c.score.to_bits() as u64);
            }
            h.bytes(b"\n");
        }
    }
    (h.0, raw, kept)
}

#[test]
fn corpus_findings_are_unchanged() {
    let got = digest(&["redact_corpus.jsonl", "redact_national.jsonl"]);
    println!("corpus findings digest: {got:?}");
    assert_eq!(got, EXPECTED);
}

/// `(digest, raw candidates, kept findings)` of both corpora.
const EXPECTED: (u64, usize, usize) = (7_656_389_244_474_071_728, 20_688, 9_869);
