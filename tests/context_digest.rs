#![cfg(not(target_arch = "wasm32"))]
//! A fingerprint of what the memory sends: chats built from the project's labeled corpora, run
//! through every strategy at several budgets, with and without redaction, with facts recalled;
//! every message sent (role, content, tool calls) and the report's token total go into one
//! hash. A restructure (moving code between crates, a driver replacing the bindings' glue)
//! must leave it unchanged; a change that means to alter the context updates the expected
//! value together with the figures that justify it (the recall bench, the redaction tables).
//!
//! To print the current value: `cargo test --test context_digest -- --nocapture`.

use llm_memory::recall::facts::NewFact;
use llm_memory::redact::{Redactor, RedactorConfig, WordLists};
use llm_memory::{ApproximateCounter, Memory, MemoryConfig, NewEntry, Role, Strategy};
use std::sync::Arc;

/// FNV-1a, 64 bits: stable across platforms and Rust versions (`DefaultHasher` is not).
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
        // A separator, so ("ab", "c") and ("a", "bc") differ.
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x100_0000_01b3);
    }
    fn num(&mut self, n: u64) {
        self.bytes(&n.to_le_bytes());
    }
}

/// The first `n` texts of a corpus file in `tests/data`.
fn texts(file: &str, n: usize) -> Vec<String> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let corpus = std::fs::read_to_string(&path).expect("corpus file; run its generator");
    corpus
        .lines()
        .take(n)
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("corpus line");
            v["text"].as_str().unwrap_or_default().to_string()
        })
        .collect()
}

/// (strategy, maxTokens, maxTurns) of each run.
const RUNS: &[(Strategy, Option<usize>, Option<usize>)] = &[
    (Strategy::Full, Some(1500), None),
    (Strategy::Window, None, Some(12)),
    (Strategy::Tokens, Some(800), None),
    (Strategy::Tokens, Some(2000), None),
    (Strategy::Summary, Some(1200), None),
    (Strategy::Retrieval, Some(1000), None),
    (Strategy::Retrieval, Some(2500), None),
];

const TURNS: usize = 80;

fn memory(strategy: Strategy, max_tokens: Option<usize>, max_turns: Option<usize>) -> Memory {
    let mut config = MemoryConfig {
        strategy,
        system_prompt: Some("You are a careful assistant.".into()),
        ..Default::default()
    };
    config.limits.max_tokens = max_tokens;
    config.limits.max_turns = max_turns;
    Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap()
}

/// The digest and how many messages went into it.
fn digest() -> (u64, usize) {
    let mut corpus = texts("redact_corpus.jsonl", 480);
    corpus.extend(texts("redact_national.jsonl", 160));
    let chats: Vec<&[String]> = corpus.chunks(TURNS).collect();
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let mut sent = 0;
    for (c, chat) in chats.iter().enumerate() {
        for &(strategy, max_tokens, max_turns) in RUNS {
            let mut m = memory(strategy, max_tokens, max_turns);
            if c % 2 == 0 {
                // With the word lists the model file carries: what a memory redacting with the
                // model's rules sends.
                let redactor = Redactor::new(RedactorConfig::default()).unwrap();
                m.set_redactor(Some(Box::new(
                    redactor.with_word_lists(WordLists::of_this_repository()),
                )));
            }
            for (t, text) in chat.iter().enumerate() {
                let now = 1_700_000_000_000.0 + (t as f64) * 60_000.0;
                let role = if t % 2 == 0 {
                    Role::User
                } else {
                    Role::Assistant
                };
                m.add(role, text, NewEntry::default(), now).unwrap();
                if t % 10 == 0 {
                    let fact = text.lines().next().unwrap_or_default();
                    if !fact.trim().is_empty() {
                        m.remember(fact, NewFact::default(), now).unwrap();
                    }
                }
                if t % 20 != 19 {
                    continue;
                }
                let built = match m.context(None) {
                    Ok(b) => b,
                    Err(e) => {
                        // A mandatory part over the budget is an answer too.
                        h.bytes(e.code.as_str().as_bytes());
                        continue;
                    }
                };
                h.num(built.report.total_tokens as u64);
                for msg in &built.messages {
                    sent += 1;
                    h.bytes(format!("{:?}", msg.role).as_bytes());
                    h.bytes(msg.content.as_bytes());
                    for call in &msg.tool_calls {
                        h.bytes(call.id.as_bytes());
                        h.bytes(call.function.arguments.as_bytes());
                    }
                }
            }
        }
    }
    (h.0, sent)
}

#[test]
fn what_the_memory_sends_is_unchanged() {
    let (value, sent) = digest();
    println!("context digest: {value:#018x} over {sent} messages");
    assert!(sent > 1000, "the digest covers too little: {sent} messages");
    assert_eq!(
        (value, sent),
        (0xad0c_b3a7_c336_3d07, 6133),
        "what the memory sends changed; if that is meant, update the value with its figures"
    );
}
