#![cfg(not(target_arch = "wasm32"))]
//! Property tests of strategy "retrieval" on chats with an assistant (short questions, long
//! answers): the previous exchange is sent whole whenever it fits in half of what is left after
//! the system prompt and the latest message; never over budget; an excerpt is a slice of its
//! turn.

use llm_memory::context::report::EntryStatus;
use llm_memory::context::Detail;
use llm_memory::memory::ContextExtras;
use llm_memory::tokens::MessageOverhead;
use llm_memory::{ApproximateCounter, Memory, MemoryConfig, NewEntry, Role};
use proptest::prelude::*;
use std::sync::Arc;

const WORDS: [&str; 16] = [
    "garden", "cello", "porto", "locker", "recipe", "train", "sister", "budget", "paint", "river",
    "server", "error", "linker", "crate", "option", "table",
];

fn text(words: &[usize]) -> String {
    words
        .iter()
        .map(|&w| WORDS[w])
        .collect::<Vec<_>>()
        .join(" ")
}

#[derive(Debug, Clone)]
struct Chat {
    /// (the user's words, the answer's paragraphs)
    exchanges: Vec<(Vec<usize>, Vec<Vec<usize>>)>,
    latest: Vec<usize>,
    budget: usize,
}

fn chat() -> impl Strategy<Value = Chat> {
    let exchange = (
        prop::collection::vec(0..WORDS.len(), 1..15),
        prop::collection::vec(prop::collection::vec(0..WORDS.len(), 5..60), 1..8),
    );
    (
        prop::collection::vec(exchange, 3..40),
        prop::collection::vec(0..WORDS.len(), 1..6),
        100usize..4000,
    )
        .prop_map(|(exchanges, latest, budget)| Chat {
            exchanges,
            latest,
            budget,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_previous_exchange_is_sent_whenever_it_fits_in_half(c in chat()) {
        let mut config = MemoryConfig {
            strategy: llm_memory::Strategy::Retrieval,
            ..Default::default()
        };
        config.limits.max_tokens = Some(c.budget);
        let mut m = Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap();
        let mut now = 0.0;
        let mut answers = Vec::new();
        for (q, paragraphs) in &c.exchanges {
            now += 60_000.0;
            m.add(Role::User, &text(q), NewEntry::default(), now).unwrap();
            let answer: Vec<String> = paragraphs.iter().map(|p| text(p) + ".").collect();
            let answer = answer.join("\n\n");
            now += 60_000.0;
            m.add(Role::Assistant, &answer, NewEntry::default(), now).unwrap();
            answers.push(answer);
        }
        now += 60_000.0;
        m.add(Role::User, &text(&c.latest), NewEntry::default(), now).unwrap();
        let extras = ContextExtras { detail: Detail::All, ..Default::default() };
        let built = match m.context_with(None, &extras) {
            Ok(b) => b,
            // The latest message alone is over a small budget: a coded error, nothing sent.
            Err(_) => return Ok(()),
        };
        let r = &built.report;
        prop_assert!(r.total_tokens <= c.budget, "{} over {}", r.total_tokens, c.budget);
        let n = r.entries.len();
        let latest = r.entries[n - 1].tokens;
        let exchange = &r.entries[n - 3..n - 1];
        let cost: usize = exchange.iter().map(|e| e.tokens).sum();
        let remaining = c.budget - MessageOverhead::default().per_request - latest;
        if 2 * cost <= remaining {
            for e in exchange {
                prop_assert_eq!(e.status, EntryStatus::Included, "{} of {} left", cost, remaining);
            }
        }
        // An excerpt is a slice of the turn it names.
        for x in &r.retrieved {
            if let Some(ex) = &x.excerpt {
                let e = m.entries().iter().find(|e| e.id == x.id).unwrap();
                let len = e.content.encode_utf16().count();
                prop_assert!(ex.from < ex.to && ex.to <= ex.length && ex.length == len);
                prop_assert!(ex.to - ex.from < len);
            }
        }
    }
}
