//! What one `context()` costs natively as the history grows, per strategy: the profile behind
//! `bench/growth.mjs` without the wasm boundary (approximate counter, maxTokens 4000).
//!
//!   cargo run --release --example context_scale [-- 1000,10000,100000 [tokenizer.json]]
use llm_memory::tokens::SharedCounter;
use llm_memory::{ApproximateCounter, HfTokenizer, Memory, MemoryConfig, NewEntry, Role, Strategy};
use std::sync::Arc;
use std::time::Instant;

fn text(rng: &mut u64, words: &[&str]) -> String {
    let mut next = || {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    };
    let n = 5 + next() % 60;
    (0..n)
        .map(|_| words[(next() % words.len() as u64) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    let readme = include_str!("../README.md");
    let words: Vec<&str> = readme.split_whitespace().collect();
    let sizes: Vec<usize> = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "1000,10000,100000".into())
        .split(',')
        .map(|s| s.parse().expect("sizes"))
        .collect();
    let counter: SharedCounter = match std::env::args().nth(2) {
        Some(path) => {
            Arc::new(HfTokenizer::from_bytes(&std::fs::read(path).expect("tokenizer")).unwrap())
        }
        None => Arc::new(ApproximateCounter::default()),
    };
    let only: Option<String> = std::env::args().nth(3);
    let strategies = [
        Strategy::None,
        Strategy::Full,
        Strategy::Window,
        Strategy::Tokens,
        Strategy::Summary,
        Strategy::Retrieval,
    ];
    for strategy in strategies {
        if only.as_deref().is_some_and(|o| o != strategy.as_str()) {
            continue;
        }
        for &size in &sizes {
            let mut config = MemoryConfig {
                strategy,
                system_prompt: Some("You are a helpful assistant.".into()),
                ..Default::default()
            };
            config.limits.max_tokens = Some(4000);
            config.limits.max_turns = Some(20);
            let mut m = Memory::new(config, counter.clone()).unwrap();
            let mut rng = 7u64;
            let t0 = Instant::now();
            for i in 0..size {
                let role = if i % 2 == 0 {
                    Role::User
                } else {
                    Role::Assistant
                };
                m.add(role, &text(&mut rng, &words), NewEntry::default(), i as f64)
                    .unwrap();
            }
            let add = t0.elapsed().as_secs_f64() * 1e6 / size as f64;
            let mut times = Vec::new();
            for i in 0..20 {
                let now = (size + i) as f64;
                m.add(
                    Role::User,
                    &text(&mut rng, &words),
                    NewEntry::default(),
                    now,
                )
                .unwrap();
                let t = Instant::now();
                let built = m.context(None).unwrap();
                times.push(t.elapsed().as_secs_f64() * 1e3);
                std::hint::black_box(built);
                m.add(
                    Role::Assistant,
                    &text(&mut rng, &words),
                    NewEntry::default(),
                    now,
                )
                .unwrap();
            }
            times.sort_by(f64::total_cmp);
            println!(
                "{:>9} {size:>7}: context p50 {:.3} ms, add {add:.1} µs",
                strategy.as_str(),
                times[times.len() / 2]
            );
        }
    }
}
