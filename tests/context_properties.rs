#![cfg(not(target_arch = "wasm32"))]
//! Property tests of the context builder's promises, over random conversations, strategies and
//! budgets: never over budget, order kept, latest user turn present, tool groups whole, the
//! window exact, and the report's token total equal to a recount of what is sent.

use llm_memory::driver::summarize_now;
use llm_memory::history::{FunctionCall, ToolCall};
use llm_memory::tokens::MessageOverhead;
use llm_memory::{
    context, ApproximateCounter, ChatMessage, Entry, ErrorCode, Memory, MemoryConfig, NewEntry,
    Role,
};
use proptest::prelude::*;
use std::sync::Arc;

#[derive(Debug, Clone)]
enum Op {
    User(String),
    Assistant(String),
    ToolCalls(Vec<String>),
    Orphan(String),
}

fn op() -> impl Strategy<Value = Op> {
    let text = "[a-z ]{0,60}";
    prop_oneof![
        4 => text.prop_map(Op::User),
        4 => text.prop_map(Op::Assistant),
        1 => prop::collection::vec("[a-z]{1,12}", 1..3).prop_map(Op::ToolCalls),
        1 => "[a-z]{1,8}".prop_map(Op::Orphan),
    ]
}

fn memory(strategy: llm_memory::Strategy, max_tokens: Option<usize>, max_turns: usize) -> Memory {
    let mut config = MemoryConfig {
        strategy,
        system_prompt: Some("You are terse.".into()),
        ..Default::default()
    };
    config.limits.max_tokens = max_tokens;
    config.limits.max_turns = Some(max_turns);
    config.summary.trigger.messages = Some(4);
    config.summary.keep_recent = 3;
    Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap()
}

fn fill(m: &mut Memory, ops: &[Op]) {
    let mut call_seq = 0;
    for (t, op) in ops.iter().enumerate() {
        let now = t as f64;
        match op {
            Op::User(s) => drop(m.add(Role::User, s, NewEntry::default(), now).unwrap()),
            Op::Assistant(s) => drop(m.add(Role::Assistant, s, NewEntry::default(), now).unwrap()),
            Op::ToolCalls(results) => {
                let calls: Vec<ToolCall> = results
                    .iter()
                    .map(|_| {
                        call_seq += 1;
                        ToolCall {
                            id: format!("call{call_seq}"),
                            kind: "function".into(),
                            function: FunctionCall {
                                name: "lookup".into(),
                                arguments: "{}".into(),
                            },
                        }
                    })
                    .collect();
                let ids: Vec<String> = calls.iter().map(|c| c.id.clone()).collect();
                let extra = NewEntry {
                    tool_calls: calls,
                    ..Default::default()
                };
                m.add(Role::Assistant, "", extra, now).unwrap();
                for (id, r) in ids.iter().zip(results) {
                    let extra = NewEntry {
                        tool_call_id: Some(id.clone()),
                        ..Default::default()
                    };
                    m.add(Role::Tool, r, extra, now).unwrap();
                }
            }
            Op::Orphan(s) => {
                let extra = NewEntry {
                    tool_call_id: Some("nowhere".into()),
                    ..Default::default()
                };
                m.add(Role::Tool, s, extra, now).unwrap();
            }
        }
    }
}

fn strategy() -> impl proptest::strategy::Strategy<Value = llm_memory::Strategy> {
    prop_oneof![
        Just(llm_memory::Strategy::None),
        Just(llm_memory::Strategy::Full),
        Just(llm_memory::Strategy::Window),
        Just(llm_memory::Strategy::Tokens),
        Just(llm_memory::Strategy::Summary),
        Just(llm_memory::Strategy::Retrieval),
    ]
}

/// The short report accounts for every entry exactly once (listed or in one range), lists
/// exactly the entries sent, and agrees with the full report on each entry's status.
fn check_ranges(
    short: &context::ContextReport,
    all: &context::ContextReport,
    entries: &[Entry],
) -> Result<(), TestCaseError> {
    use context::report::{EntryStatus, Reason};
    prop_assert_eq!(short.entry_count, entries.len());
    prop_assert!(all.ranges.is_empty());
    let mut seen = vec![0u32; entries.len()];
    let position = |id: &str| entries.iter().position(|e| e.id == id).unwrap();
    for e in &short.entries {
        let i = position(&e.id);
        seen[i] += 1;
        prop_assert!(matches!(
            e.status,
            EntryStatus::Included | EntryStatus::Retrieved
        ));
        prop_assert_eq!(e, &all.entries[i]);
    }
    let mut over_budget = 0;
    let mut last_end = 0;
    for r in &short.ranges {
        prop_assert!(r.count > 0);
        prop_assert!(r.start >= last_end, "ranges in history order");
        last_end = r.start + r.count;
        prop_assert_eq!(&r.from, &entries[r.start].id);
        prop_assert_eq!(&r.to, &entries[r.start + r.count - 1].id);
        prop_assert!(!matches!(
            r.status,
            EntryStatus::Included | EntryStatus::Retrieved
        ));
        for (n, full) in seen[r.start..r.start + r.count]
            .iter_mut()
            .zip(&all.entries[r.start..r.start + r.count])
        {
            *n += 1;
            prop_assert_eq!(full.status, r.status);
        }
        if r.reason == Reason::OverBudget {
            over_budget += r.count;
        }
    }
    prop_assert!(seen.iter().all(|&n| n == 1), "every entry once: {:?}", seen);
    let dropped = |rep: &context::ContextReport| rep.sections.last().map(|s| s.dropped);
    prop_assert_eq!(dropped(short), Some(over_budget));
    let all_over = all
        .entries
        .iter()
        .filter(|e| e.reason == Reason::OverBudget)
        .count();
    prop_assert_eq!(dropped(all), Some(all_over));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn context_keeps_its_promises(
        ops in prop::collection::vec(op(), 0..40),
        strategy in strategy(),
        budget in 20usize..400,
        max_turns in 1usize..12,
        summarize in any::<bool>(),
        facts in prop::collection::vec("[a-z]{1,8} is [a-z ]{1,30}", 0..4),
        recent_share in 0.0f32..1.0,
    ) {
        let mut m = memory(strategy, Some(budget), max_turns);
        fill(&mut m, &ops);
        // Retrieval: long-term facts join the turns as candidates for the [Memory] section.
        m.recall_config_mut().recent_share = recent_share;
        for (i, f) in facts.iter().enumerate() {
            m.remember(f, Default::default(), i as f64).unwrap();
        }
        if summarize {
            // Under a tiny budget even a short summary (marker and overhead included) can
            // be over its cap: it is refused (and noted), and the turns stay.
            summarize_now(&mut m, 99.0, |_| "they talked".to_string());
        }
        let counter = ApproximateCounter::default();
        let overhead = MessageOverhead::default();
        let entries = m.entries().to_vec();
        let latest_user = entries.iter().rposition(|e| e.role == Role::User);
        let all = llm_memory::memory::ContextExtras {
            detail: context::Detail::All,
            ..Default::default()
        };
        let built = match m.context_with(None, &all) {
            Ok(b) => b,
            Err(e) => {
                // Only when the mandatory part alone does not fit.
                prop_assert_eq!(e.code, ErrorCode::ContextOverflow);
                let need = overhead.per_request
                    + m.entry_tokens()[latest_user.unwrap()]
                    + overhead.message_tokens(&counter, &ChatMessage::new(Role::System, "You are terse."));
                prop_assert!(need > budget);
                return Ok(());
            }
        };
        let r = &built.report;
        // The short report (entries sent, the rest as ranges) sends the same and agrees.
        let short = m.context(None).unwrap();
        prop_assert_eq!(&short.messages, &built.messages);
        prop_assert_eq!(short.report.total_tokens, r.total_tokens);
        prop_assert_eq!(&short.report.headline, &r.headline);
        check_ranges(&short.report, r, &entries)?;
        // Never over budget, and the report's total is a true recount of what is sent.
        let recount: usize = overhead.per_request
            + built.messages.iter().map(|m| overhead.message_tokens(&counter, m)).sum::<usize>();
        prop_assert_eq!(r.total_tokens, recount);
        prop_assert!(r.total_tokens <= budget);
        prop_assert_eq!(r.entries.len(), entries.len());

        // The latest user turn is present.
        let history: Vec<&ChatMessage> = built.messages.iter().filter(|m| !m.content.starts_with('[') || m.role != Role::System).skip(1).collect();
        if let Some(u) = latest_user {
            prop_assert!(r.entries[u].status == context::report::EntryStatus::Included);
        }
        // Order is preserved: included entries appear in history order.
        let included: Vec<&Entry> = entries.iter().zip(&r.entries)
            .filter(|(_, rep)| rep.status == context::report::EntryStatus::Included)
            .map(|(e, _)| e).collect();
        prop_assert_eq!(included.len(), history.len());
        for (e, msg) in included.iter().zip(&history) {
            prop_assert_eq!(&e.content, &msg.content);
            prop_assert_eq!(e.role, msg.role);
        }
        // Tool groups are whole: every call's results follow it, every result follows its call.
        for (i, msg) in history.iter().enumerate() {
            if !msg.tool_calls.is_empty() {
                for (k, call) in msg.tool_calls.iter().enumerate() {
                    let next = history.get(i + 1 + k);
                    prop_assert!(next.is_some_and(|n| n.role == Role::Tool));
                    prop_assert!(msg.tool_calls.iter().any(|c| Some(&c.id) == next.unwrap().tool_call_id.as_ref()), "result for {} missing", call.id);
                }
            }
            if msg.role == Role::Tool {
                let owner = history[..i].iter().rev().find(|m| m.role != Role::Tool);
                prop_assert!(owner.is_some_and(|o| o.tool_calls.iter().any(|c| Some(&c.id) == msg.tool_call_id.as_ref())));
            }
        }
    }

    #[test]
    fn window_keeps_exactly_the_last_n_turns(
        texts in prop::collection::vec("[a-z]{1,20}", 1..50),
        n in 1usize..20,
    ) {
        let mut m = memory(llm_memory::Strategy::Window, None, n);
        for (i, t) in texts.iter().enumerate() {
            // Alternate roles and make each message unique so dedup does not apply.
            let role = if i % 2 == 0 { Role::User } else { Role::Assistant };
            m.add(role, &format!("{i}:{t}"), NewEntry::default(), i as f64).unwrap();
        }
        let built = m.context(None).unwrap();
        let sent: Vec<&str> = built.messages[1..].iter().map(|m| m.content.as_str()).collect();
        let want_from = texts.len().saturating_sub(n);
        let latest_user = (0..texts.len()).rev().find(|i| i % 2 == 0).unwrap();
        let expected: Vec<String> = (0..texts.len())
            .filter(|&i| i >= want_from || i == latest_user)
            .map(|i| format!("{i}:{}", texts[i]))
            .collect();
        prop_assert_eq!(sent, expected.iter().map(String::as_str).collect::<Vec<_>>());
    }
}
