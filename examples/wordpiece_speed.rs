//! Tokens per second of our WordPiece (crates/encoder/src/wordpiece.rs) and of the `tokenizers` crate on
//! the same tokenizer.json, over the redaction corpus's messages one by one, then as one text.
//!
//! cargo run --release --example wordpiece_speed [-- path/to/tokenizer.json]
//! (default: `NER_TOKENIZER_JSON`, then models/rampart/tokenizer.json from `make model`)

use llm_memory::ner::wordpiece::WordPiece;
use std::time::{Duration, Instant};

fn main() {
    let path = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NER_TOKENIZER_JSON").ok())
        .unwrap_or_else(|| "models/rampart/tokenizer.json".into());
    let json = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e} (run `make model`)"));
    let ours = WordPiece::from_tokenizer_json(&json).unwrap();
    let reference = tokenizers::Tokenizer::from_bytes(&json).unwrap();

    let corpus = std::fs::read_to_string("tests/data/redact_corpus.jsonl").unwrap();
    let texts: Vec<String> = corpus
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["text"].as_str().unwrap().to_string()
        })
        .collect();
    let joined = texts.join("\n");
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    println!(
        "redact_corpus.jsonl: {} messages, {bytes} bytes",
        texts.len()
    );

    let run = |name: &str, f: &dyn Fn() -> usize| {
        f(); // warm up
        let (mut tokens, mut rounds, start) = (0, 0, Instant::now());
        while start.elapsed() < Duration::from_secs(2) {
            tokens += f();
            rounds += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name:<40} {:>7.2} M tokens/s  {:>6.1} MB/s",
            tokens as f64 / secs / 1e6,
            (bytes * rounds) as f64 / secs / 1e6
        );
    };
    run("ours, per message", &|| {
        texts.iter().map(|t| ours.encode(t).ids.len()).sum()
    });
    run("tokenizers crate, per message", &|| {
        texts
            .iter()
            .map(|t| reference.encode(t.as_str(), false).unwrap().len())
            .sum()
    });
    run("ours, whole corpus as one text", &|| {
        ours.encode(&joined).ids.len()
    });
    run("tokenizers crate, whole corpus", &|| {
        reference.encode(joined.as_str(), false).unwrap().len()
    });
}
