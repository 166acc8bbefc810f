#![cfg(not(target_arch = "wasm32"))]
//! Property tests of strategy "retrieval" over random long chats, with and without vectors:
//! never over budget; the budget used when there is more to send; the turn BM25 alone ranks
//! first is still sent when vectors join; memories in history order, a neighbour sent with the
//! hit it is a neighbour of.

use llm_memory::context::report::EntryStatus;
use llm_memory::driver::EmbedJob;
use llm_memory::memory::ContextExtras;
use llm_memory::recall::RecallQuery;
use llm_memory::tokens::fnv1a;
use llm_memory::{ApproximateCounter, BuiltContext, Memory, MemoryConfig, NewEntry, Role};
use proptest::prelude::*;
use std::sync::Arc;

const MINUTE: f64 = 60_000.0;
const WORDS: [&str; 24] = [
    "garden", "cello", "porto", "locker", "recipe", "train", "sister", "budget", "paint", "river",
    "movie", "coffee", "hiking", "laptop", "violin", "market", "school", "beach", "museum",
    "pottery", "camping", "novel", "soccer", "guitar",
];

/// A pseudo-random unit vector per text: the vectors carry no meaning, so nothing here can
/// lean on them agreeing with the words.
fn vector(text: &str) -> Vec<f32> {
    let mut h = fnv1a(&[text.as_bytes()]);
    let v: Vec<f32> = (0..8)
        .map(|_| {
            h = h
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((h >> 33) as f32 / (1u64 << 31) as f32) - 0.5
        })
        .collect();
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
    v.into_iter().map(|x| x / n).collect()
}

#[derive(Debug, Clone)]
struct Chat {
    /// (words of the turn, minutes since the previous turn)
    turns: Vec<(Vec<usize>, u32)>,
    query: Vec<usize>,
    budget: usize,
}

fn chat() -> impl proptest::strategy::Strategy<Value = Chat> {
    let turn = (
        prop::collection::vec(0..WORDS.len(), 1..12),
        prop_oneof![4 => 0u32..3, 1 => 60u32..3000],
    );
    (
        prop::collection::vec(turn, 30..160),
        prop::collection::vec(0..WORDS.len(), 1..5),
        60usize..1500,
    )
        .prop_map(|(turns, query, budget)| Chat {
            turns,
            query,
            budget,
        })
}

fn text(words: &[usize]) -> String {
    words
        .iter()
        .map(|&w| WORDS[w])
        .collect::<Vec<_>>()
        .join(" ")
}

fn run(c: &Chat, vectors: bool) -> (Memory, BuiltContext) {
    let mut config = MemoryConfig {
        strategy: llm_memory::Strategy::Retrieval,
        ..Default::default()
    };
    config.limits.max_tokens = Some(c.budget);
    let mut m = Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap();
    if vectors {
        m.enable_vectors(false);
    }
    let mut t = 0.0;
    for (i, (words, gap)) in c.turns.iter().enumerate() {
        t += f64::from(*gap) * MINUTE + 1.0;
        let role = if i % 2 == 0 {
            Role::User
        } else {
            Role::Assistant
        };
        m.add(
            role,
            &format!("{} turn {i}", text(words)),
            NewEntry::default(),
            t,
        )
        .unwrap();
    }
    m.add(Role::User, &text(&c.query), NewEntry::default(), t + MINUTE)
        .unwrap();
    let mut extras = ContextExtras::default();
    if vectors {
        let mut job = EmbedJob::context(&mut m, &EmbedJob::native_hooks(), None);
        job.run_with(&mut m, |texts| texts.iter().map(|t| vector(t)).collect());
        extras.query_vector = job.finish().0;
        assert!(extras.query_vector.is_some());
    }
    let built = m.context_with(None, &extras).unwrap();
    (m, built)
}

fn sent(b: &BuiltContext) -> Vec<&str> {
    b.report
        .entries
        .iter()
        .filter(|e| matches!(e.status, EntryStatus::Included | EntryStatus::Retrieved))
        .map(|e| e.id.as_str())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn retrieval_keeps_its_promises(c in chat()) {
        let (m, words) = run(&c, false);
        let (_, both) = run(&c, true);
        for b in [&words, &both] {
            prop_assert!(b.report.total_tokens <= c.budget, "{}", b.report.headline);
            // With vectors every turn is a candidate: while some are left unsent, the budget
            // is used, up to lines that no longer fit.
            let unsent = m.entries().len() - sent(b).len();
            if unsent > 0 && std::ptr::eq(b, &both) {
                // What is left is at most about two lines (the longest here: up to 11 words,
                // a date, a role, about 30 tokens): memories fill what they are given to the
                // token, then the newest turns take the rest going back in time and stop at
                // the first turn that does not fit or is sent as a memory already (recent turns
                // stay contiguous), which can leave a line or so unused.
                let longest = b.report.retrieved.iter().map(|r| r.tokens).max().unwrap_or(0).max(32);
                let left = c.budget - b.report.total_tokens;
                prop_assert!(
                    left * 100 <= c.budget * 3 || left <= 2 * longest,
                    "{} with {unsent} entries unsent",
                    b.report.headline
                );
            }
            // Memories are listed in history order; a neighbour's hit is sent with it.
            let order: Vec<usize> = b.report.retrieved.iter().filter(|r| r.kind == "turn").map(|r| {
                m.entries().iter().position(|e| e.id == r.id).unwrap()
            }).collect();
            prop_assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
            let ids = sent(b);
            for r in &b.report.retrieved {
                if let Some(hit) = &r.neighbour_of {
                    prop_assert!(ids.contains(&hit.as_str()), "{} sent without its hit {hit}", r.id);
                }
            }
        }
        // The turn BM25 alone ranks first stays when vectors join the ranking.
        let q = RecallQuery { text: &text(&c.query), k: 1000, ..Default::default() };
        let hits = m.recall_state().search(&q, f64::MAX);
        let best = hits.iter().filter(|h| h.bm25.is_some()).max_by(|a, b| {
            a.bm25.partial_cmp(&b.bm25).unwrap().then(a.item.cmp(&b.item))
        });
        if let Some(best) = best {
            if sent(&words).contains(&best.id.as_str()) {
                prop_assert!(sent(&both).contains(&best.id.as_str()), "{} lost with vectors", best.id);
            }
        }
    }
}
