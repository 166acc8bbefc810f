//! Hard negatives: messages with no personal data that a redactor is likely to flag anyway —
//! brands and places named after people, public figures in essay questions, sample data in
//! code, month names in tables, version strings, loopback and reserved IPs, SKUs and part
//! numbers, lotto draws, HTTP status lines, `.env.example` placeholders, order and tracking
//! numbers, timestamps, hex hashes and UUIDs. One file per class in `tests/data/hard_negatives/`
//! (messages written for this test, separated by lines holding only `%%`).
//!
//! Each class may cost at most a few findings, and all of them together at most
//! [`PER_1000_RULES`] per 1 000 messages with the rules alone. With the PII model
//! (`models/pii-ner.bin`, `make model`) the same texts run again against their own limits;
//! that half runs optimized only (`cargo test --profile server --test hard_negatives`, in `make
//! test`), is skipped without the model file unless `CI` is set, and fails without it in CI.

use llm_memory::redact::{Finding, Redactor, RedactorConfig};
use std::path::PathBuf;

#[cfg(not(debug_assertions))]
#[path = "support/pii_model.rs"]
mod pii_model;
#[cfg(not(debug_assertions))]
#[path = "hard_negatives/with_model.rs"]
mod with_model;

/// Classes and the most findings the rules alone may make on each one's messages.
const RULES_LIMITS: &[(&str, usize)] = &[
    ("brand", 0),
    ("place", 0),
    // "Was Michelangelo a better engineer than Leonardo?": no word says it is about history.
    ("public_figure", 1),
    ("code_sample", 0),
    ("month_table", 0),
    ("version", 0),
    // "The RFC examples use … 2001:db8::1": the IPv6 documentation prefix stays a finding,
    // since examples of real configurations put it in place of the real prefix.
    ("local_ip", 1),
    ("sku", 0),
    ("lotto", 0),
    ("http_status", 0),
    ("env_example", 0),
    ("order_number", 0),
    ("tracking_number", 0),
    ("timestamp", 0),
    ("hex_hash", 0),
    ("uuid", 0),
];

/// Findings per 1 000 hard-negative messages, all classes together, rules alone.
const PER_1000_RULES: usize = 8;

/// The goal for every redactor, per 1 000 hard negatives: the limits above are ceilings pinned at
/// what the code gives today, so a regression fails; they are not the goal, and each message
/// names both.
const GOAL_PER_1000: usize = 20;

fn messages(class: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hard_negatives")
        .join(format!("{class}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.split("\n%%\n")
        .map(|m| m.trim_end_matches('\n').to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

/// Every class's findings under `redactor`, printed for `cargo test -- --nocapture`.
fn findings_by_class(
    redactor: &Redactor,
    limits: &[(&str, usize)],
) -> Vec<(String, usize, Vec<String>)> {
    limits
        .iter()
        .map(|(class, _)| {
            let texts = messages(class);
            assert!(
                texts.len() >= 15,
                "{class}: {} messages, want 15 or more",
                texts.len()
            );
            let mut found = Vec::new();
            for text in &texts {
                let redaction = redactor.clone().redact(text);
                for f in &redaction.findings {
                    found.push(describe(text, f));
                }
            }
            for f in &found {
                println!("{class}: {f}");
            }
            (class.to_string(), texts.len(), found)
        })
        .collect()
}

/// `TYPE "value"` of a finding (UTF-16 offsets into `text`).
fn describe(text: &str, f: &Finding) -> String {
    let units: Vec<u16> = text.encode_utf16().collect();
    let value = String::from_utf16_lossy(&units[f.start..f.end]);
    format!("{} {value:?} ({:?})", f.kind, f.source)
}

/// Fails listing every class over its limit and the total over `per_1000`.
fn check(found: &[(String, usize, Vec<String>)], limits: &[(&str, usize)], per_1000: usize) {
    let mut over = Vec::new();
    for ((class, _, f), (_, limit)) in found.iter().zip(limits) {
        if f.len() > *limit {
            over.push(format!(
                "{class}: {} findings, over the ceiling of {limit} pinned against regressions \
                 (the goal is none): {f:?}",
                f.len()
            ));
        }
    }
    let messages: usize = found.iter().map(|(_, n, _)| n).sum();
    let findings: usize = found.iter().map(|(_, _, f)| f.len()).sum();
    let rate = findings as f64 * 1000.0 / messages as f64;
    println!(
        "{findings} findings on {messages} messages: {rate:.0} per 1 000 \
         (ceiling {per_1000}, goal {GOAL_PER_1000})"
    );
    if findings * 1000 > per_1000 * messages {
        over.push(format!(
            "{findings} findings on {messages} messages ({rate:.0} per 1 000): over the ceiling \
             of {per_1000} per 1 000 pinned against regressions; the goal is {GOAL_PER_1000}"
        ));
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}

#[test]
fn rules_leave_hard_negatives_alone() {
    let redactor = Redactor::new(RedactorConfig::default()).unwrap();
    let found = findings_by_class(&redactor, RULES_LIMITS);
    check(&found, RULES_LIMITS, PER_1000_RULES);
}
