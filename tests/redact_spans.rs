//! Redaction changes who, never what was said. Over every corpus at hand (the committed
//! evaluation sets, the generated corpus, and the public PII corpora in `../shared/corpora/pii`
//! when present), with the rules and with rules + the PII model (`models/pii-ner.bin`):
//!
//! - every PERSON finding is a whole-word slice: it never starts or ends inside a word, never
//!   takes the letter of a contraction (`I'm`, `'s`, `'re`, `'ll`, `'d`, `n't`, typographic
//!   apostrophes too) and never ends on a possessive;
//! - the redacted text reads as the original with each value swapped for its placeholder.
//!
//! Optimized only (`make test` runs it with `--profile server`): the model over these texts
//! takes minutes unoptimized.
#![cfg(all(not(target_arch = "wasm32"), not(debug_assertions)))]

use llm_memory::ner::Tagger;
use llm_memory::redact::{EntityType, ModelOption, Redaction, Redactor, RedactorConfig};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[path = "support/pii_model.rs"]
mod pii_model;

/// The words a contraction or a possessive adds after an apostrophe.
const CLITICS: [&str; 7] = ["m", "s", "re", "ll", "d", "ve", "t"];

fn is_apostrophe(c: char) -> bool {
    c == '\'' || c == '\u{2019}'
}

/// Why `value` (at `start..end` in UTF-16 units of `text`) is not a whole-word name, if it is
/// not.
fn broken_edge(text: &[u16], start: usize, end: usize) -> Option<&'static str> {
    let at = |i: usize| char::decode_utf16([text[i]]).next()?.ok();
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let value = String::from_utf16_lossy(&text[start..end]);
    let before = start.checked_sub(1).and_then(at);
    let after = (end < text.len()).then(|| at(end)).flatten();
    if word(before) {
        return Some("starts inside a word");
    }
    if word(after) {
        return Some("ends inside a word");
    }
    let first_word: String = value.chars().take_while(|c| c.is_alphanumeric()).collect();
    if before.is_some_and(is_apostrophe)
        && word(start.checked_sub(2).and_then(at))
        && CLITICS.contains(&first_word.to_lowercase().as_str())
    {
        return Some("starts with a contraction's letter");
    }
    if value.ends_with(is_apostrophe) {
        return Some("ends on an apostrophe");
    }
    let lower = value.to_lowercase();
    if CLITICS
        .iter()
        .any(|c| lower.ends_with(&format!("'{c}")) || lower.ends_with(&format!("\u{2019}{c}")))
    {
        return Some("ends with a contraction or a possessive");
    }
    // "Don't": a name ending on the `n` of `n't`.
    if after.is_some_and(is_apostrophe) {
        let next: String = char::decode_utf16(text[end + 1..].iter().copied().take(2))
            .map_while(Result::ok)
            .collect();
        if lower.ends_with('n')
            && next.starts_with(['t', 'T'])
            && !next[1..].starts_with(char::is_alphanumeric)
        {
            return Some("ends on the n of n't");
        }
    }
    None
}

/// The redacted text rebuilt from the input: each finding's span swapped for its placeholder.
fn swapped(text: &[u16], red: &Redaction) -> String {
    let mut out = Vec::new();
    let mut at = 0;
    for f in &red.findings {
        out.extend_from_slice(&text[at..f.start]);
        out.extend(f.placeholder.encode_utf16());
        at = f.end;
    }
    out.extend_from_slice(&text[at..]);
    String::from_utf16_lossy(&out)
}

/// The texts of the corpora: (corpus, text). `all`: the generated corpora of structured
/// values and the long court judgments too, which the rules read in a second but the model in
/// minutes, and which hold few names written next to a contraction.
fn corpora(all: bool) -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut texts = Vec::new();
    let jsonl = [
        "tests/data/eval/chat.tune.jsonl",
        "tests/data/eval/presidio-templates.tune.jsonl",
        "tests/data/eval/holdout/chat.holdout.jsonl",
        "tests/data/eval/holdout/presidio-templates.holdout.jsonl",
        "tests/data/redact_corpus.jsonl",
        "tests/data/redact_national.jsonl",
    ];
    for name in jsonl.into_iter().filter(|n| all || n.contains("/eval/")) {
        let body = std::fs::read_to_string(root.join(name)).unwrap();
        for line in body.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            texts.push((name.to_string(), v["text"].as_str().unwrap().to_string()));
        }
    }
    // The public corpora beside the project: short social posts and court judgments (the
    // Spanish clinical cases are long and add nothing English contractions would test).
    let shared = root.join("../shared/corpora/pii");
    for name in ["wnut17_train.json", "wnut17_dev.json", "tab_train.json"]
        .into_iter()
        .filter(|n| all || n.starts_with("wnut"))
    {
        let path: &Path = &shared.join(name);
        let Ok(body) = std::fs::read_to_string(path) else {
            eprintln!("not measured: {} is not here", path.display());
            continue;
        };
        let v: Value = serde_json::from_str(&body).unwrap();
        for r in v["records"].as_array().unwrap() {
            texts.push((name.to_string(), r["text"].as_str().unwrap().to_string()));
        }
    }
    texts
}

/// Redacts every text with a fresh redactor and returns the broken PERSON edges found.
fn broken_edges(model: Option<&Arc<Tagger>>) -> Vec<String> {
    let mut config = RedactorConfig::default();
    config.model = model.map(|t| ModelOption(t.clone()));
    let proto = Redactor::new(config).unwrap();
    let mut broken = Vec::new();
    let mut people = 0;
    for (corpus, text) in corpora(model.is_none()) {
        let mut r = proto.clone();
        let red = r.redact(&text);
        let units: Vec<u16> = text.encode_utf16().collect();
        assert_eq!(
            swapped(&units, &red),
            red.text,
            "{corpus}: the redacted text is not the input with its values swapped: {text:?}"
        );
        for f in red.findings.iter().filter(|f| f.kind == EntityType::Person) {
            people += 1;
            if let Some(why) = broken_edge(&units, f.start, f.end) {
                let value = String::from_utf16_lossy(&units[f.start..f.end]);
                broken.push(format!("{corpus}: {value:?} {why} in {text:?}"));
            }
        }
    }
    eprintln!(
        "{} PERSON findings, {} with a broken edge ({})",
        people,
        broken.len(),
        if model.is_some() {
            "rules + model"
        } else {
            "rules"
        }
    );
    broken
}

#[test]
fn person_findings_are_whole_words_with_the_rules() {
    let broken = broken_edges(None);
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn person_findings_are_whole_words_with_the_model() {
    let Some(t) = pii_model::tagger() else { return };
    let broken = broken_edges(Some(&t));
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_edge_check_catches_what_it_must() {
    let cases = [
        ("Hi, I'm Dana Reyes.", "m Dana Reyes", true),
        ("Hi, I’m Priya.", "m Priya", true),
        ("I'm Amanda's daughter", "Amanda's", true),
        ("Call Dana Reyes now", "ana Reyes", true),
        ("Call Dana Reyes now", "Dana Reyes", false),
        ("I'm Amanda's daughter", "Amanda", false),
        ("Ask O'Brien", "O'Brien", false),
        ("Jan't", "Jan", true),
    ];
    for (text, value, broken) in cases {
        let units: Vec<u16> = text.encode_utf16().collect();
        let v: Vec<u16> = value.encode_utf16().collect();
        let start = units.windows(v.len()).position(|w| w == v).unwrap();
        assert_eq!(
            broken_edge(&units, start, start + v.len()).is_some(),
            broken,
            "{value:?} in {text:?}"
        );
    }
}
