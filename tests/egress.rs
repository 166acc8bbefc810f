//! The egress rule: with a redactor, no PII value from the history appears in anything a
//! context sends (turns, tool arguments, system prompt, pinned facts, memories, the summary
//! prompt), budgets hold on the redacted text, and replies are restored to the real values.
#![cfg(not(target_arch = "wasm32"))]

use llm_memory::driver::summarize_now;
use llm_memory::history::{FunctionCall, ToolCall};
use llm_memory::memory::Persistence as _;
use llm_memory::redact::{Redactor, RedactorConfig};
use llm_memory::store::RecordOp;
use llm_memory::{ApproximateCounter, Memory, MemoryConfig, NewEntry, Role, Strategy};
use std::sync::Arc;

const VALUES: [&str; 7] = [
    "riley.jones@example.com",
    "+1 415 555 0132",
    "4111 1111 1111 1111",
    "GB82 WEST 1234 5698 7654 32",
    "078-05-1120",
    "sk-proj-4f9Qm2Lk8Zx7Vb3Nc6Hd1Js5Tr0Yw8Pq2Ks7Lm4Nx9Rb3Tc6Vd1Wf5Yh8Za2",
    "10.23.45.67",
];

fn memory(strategy: Strategy) -> Memory {
    let mut c = MemoryConfig {
        strategy,
        system_prompt: Some("Escalate to ops@example.org when stuck.".into()),
        ..Default::default()
    };
    c.limits.max_tokens = Some(2000);
    c.summary.trigger.messages = Some(4);
    c.summary.keep_recent = 2;
    let mut m = Memory::new(c, Arc::new(ApproximateCounter::default())).unwrap();
    m.set_redactor(Some(Box::new(
        Redactor::new(RedactorConfig::default()).unwrap(),
    )));
    m
}

fn fill(m: &mut Memory) {
    for (i, v) in VALUES.iter().enumerate() {
        m.add(
            Role::User,
            &format!("turn {i}: my detail is {v}, keep it safe"),
            NewEntry::default(),
            i as f64,
        )
        .unwrap();
        m.add(
            Role::Assistant,
            &format!("Noted detail {i}."),
            NewEntry::default(),
            i as f64,
        )
        .unwrap();
    }
    let call = ToolCall {
        id: "c1".into(),
        kind: "function".into(),
        function: FunctionCall {
            name: "send_mail".into(),
            arguments: format!("{{\"to\":\"{}\"}}", VALUES[0]),
        },
    };
    m.add(
        Role::Assistant,
        "",
        NewEntry {
            tool_calls: vec![call],
            ..Default::default()
        },
        50.0,
    )
    .unwrap();
    m.add(
        Role::Tool,
        &format!("sent to {}", VALUES[0]),
        NewEntry {
            tool_call_id: Some("c1".into()),
            ..Default::default()
        },
        51.0,
    )
    .unwrap();
    m.pin(&format!("The user's card is {}", VALUES[2])).unwrap();
    m.add(
        Role::User,
        &format!("Email me at {} about it", VALUES[0]),
        NewEntry::default(),
        60.0,
    )
    .unwrap();
}

fn assert_clean(text: &str) {
    for v in VALUES.iter().chain(["ops@example.org"].iter()) {
        assert!(!text.contains(v), "{v:?} leaked in {text}");
    }
}

#[test]
fn nothing_sent_holds_a_value_under_any_strategy() {
    for strategy in [
        Strategy::Full,
        Strategy::Tokens,
        Strategy::Summary,
        Strategy::Window,
    ] {
        let mut m = memory(strategy);
        fill(&mut m);
        summarize_now(&mut m, 99.0, |req| {
            assert_clean(&req.prompt);
            assert!(req.prompt.contains("[EMAIL_2]"));
            "User shared [EMAIL_1] and a card.".to_string()
        });
        let built = m.context(None).unwrap();
        let sent = serde_json::to_string(&built.messages).unwrap();
        assert_clean(&sent);
        assert!(
            sent.contains("[EMAIL_2]") && sent.contains("[CREDIT_CARD_1]"),
            "{sent}"
        );
        let report = serde_json::to_string(&built.report).unwrap();
        assert_clean(&report);
        assert!(built.report.redactions.get("EMAIL").copied().unwrap_or(0) >= 2);
        // The budget was measured on what is sent.
        let recount: usize = 3 + built
            .messages
            .iter()
            .map(|msg| {
                m.config()
                    .overhead
                    .message_tokens(&ApproximateCounter::default(), msg)
            })
            .sum::<usize>();
        assert_eq!(built.report.total_tokens, recount);
        // The history itself keeps the real text.
        assert!(m.entries().iter().any(|e| e.content.contains(VALUES[0])));
    }
}

#[test]
fn a_summary_holding_real_values_is_redacted_when_sent() {
    // A summarizer may write real values (one that runs on the device and restores its input,
    // or a summary written before redaction was turned on); the summary goes out redacted.
    let mut m = memory(Strategy::Summary);
    fill(&mut m);
    let summary = format!("User shared {} and the card {}.", VALUES[0], VALUES[2]);
    assert!(
        summarize_now(&mut m, 99.0, |_| summary.clone()),
        "a summary is due"
    );
    let built = m.context(None).unwrap();
    let sent = serde_json::to_string(&built.messages).unwrap();
    assert_clean(&sent);
    let email = m.restore_text("[EMAIL_2]");
    assert_eq!(email, VALUES[0], "the turns' placeholder for the value");
    assert!(
        sent.contains("User shared [EMAIL_2] and the card [CREDIT_CARD_1]."),
        "{sent}"
    );
    assert_eq!(
        built.report.summary.as_ref().map(|s| s.included),
        Some(true)
    );
    let report = serde_json::to_string(&built.report).unwrap();
    assert_clean(&report);
    // The history and the stored summary keep the real text.
    assert!(m.summaries().last().unwrap().text.contains(VALUES[0]));
}

#[test]
fn the_next_summary_prompt_gets_the_previous_summary_redacted() {
    // The previous summary is handed back to the summarizer (an LLM call) with the new turns:
    // a summary holding real values must not carry them there.
    let mut m = memory(Strategy::Summary);
    fill(&mut m);
    let summary = format!("User shared {} and the card {}.", VALUES[0], VALUES[2]);
    assert!(
        summarize_now(&mut m, 99.0, |_| summary.clone()),
        "a summary is due"
    );
    for i in 0..8 {
        m.add(
            Role::User,
            &format!("more turn {i}"),
            NewEntry::default(),
            100.0 + i as f64,
        )
        .unwrap();
    }
    let due = summarize_now(&mut m, 120.0, |next| {
        assert!(next.previous_summary.is_some());
        assert_clean(&next.prompt);
        assert_clean(next.previous_summary.as_deref().unwrap());
        "And more turns.".to_string()
    });
    assert!(due, "a second summary is due");
}

#[test]
fn replies_are_restored_and_the_vault_is_stored_with_the_session() {
    let mut m = memory(Strategy::Full);
    m.track_changes();
    fill(&mut m);
    // [EMAIL_1] is the system prompt's address; the user's is the second one seen.
    let reply = "I will write to [EMAIL_2] and charge [credit_card_1].";
    assert_eq!(
        m.restore_text(reply),
        format!("I will write to {} and charge {}.", VALUES[0], VALUES[2])
    );
    let ops = m.take_changes();
    let vault_puts = ops
        .iter()
        .filter(|op| matches!(op, RecordOp::Put(r) if r.kind == "vault"))
        .count();
    assert!(vault_puts >= 1);
    // A reloaded session with a fresh redactor restores the old placeholders.
    let mut reloaded = memory(Strategy::Full);
    reloaded.set_redactor(None);
    reloaded.load_records(m.records()).unwrap();
    reloaded.set_redactor(Some(Box::new(
        Redactor::new(RedactorConfig::default()).unwrap(),
    )));
    assert_eq!(reloaded.restore_text("[EMAIL_2]"), VALUES[0]);
    let built = reloaded.context(None).unwrap();
    let sent = serde_json::to_string(&built.messages).unwrap();
    assert_clean(&sent);
    assert!(!sent.contains("vault"));
}

#[test]
fn a_placeholder_the_user_typed_comes_back_as_typed() {
    // The user's own "[EMAIL_1]" is not the vault's: it goes out marked (a word joiner), so a
    // reply that quotes it restores to what the user wrote, while the model's own placeholders
    // in a summary still reach it unchanged.
    let mut m = memory(Strategy::Summary);
    let typed = "My template says [EMAIL_1] where the address goes";
    m.add(Role::User, typed, NewEntry::default(), 0.0).unwrap();
    m.add(
        Role::User,
        "and mail riley.jones@example.com",
        NewEntry::default(),
        1.0,
    )
    .unwrap();
    let built = m.context(None).unwrap();
    let sent: Vec<String> = built.messages.iter().map(|x| x.content.clone()).collect();
    let first = sent.iter().find(|c| c.contains("template")).unwrap();
    assert_ne!(first, typed, "the look-alike goes out marked");
    assert_eq!(m.restore_text(first), typed);
    assert!(sent.iter().any(|c| c.contains("[EMAIL_2]")), "{sent:?}");
    assert_eq!(m.restore_text("[EMAIL_2]"), "riley.jones@example.com");
    // Summaries, written by the model, keep their placeholders as they are.
    m.add(Role::Assistant, "ok", NewEntry::default(), 2.0)
        .unwrap();
    for i in 0..4 {
        m.add(
            Role::User,
            &format!("more {i}"),
            NewEntry::default(),
            3.0 + i as f64,
        )
        .unwrap();
    }
    let due = summarize_now(&mut m, 9.0, |_| "User mailed [EMAIL_2].".to_string());
    assert!(due, "a summary is due");
    let built = m.context(None).unwrap();
    let summary = built
        .messages
        .iter()
        .map(|x| x.content.clone())
        .find(|c| c.contains("mailed"))
        .unwrap();
    assert!(summary.contains("User mailed [EMAIL_2]."), "{summary}");
}

#[test]
fn an_ip_after_a_word_ending_in_ver_is_still_an_ip() {
    let mut r = Redactor::new(RedactorConfig::default()).unwrap();
    assert_eq!(
        r.redact_outgoing("Server 10.0.0.1 is down").0,
        "Server [IP_ADDRESS_1] is down"
    );
    assert_eq!(r.redact_outgoing("version 1.2.3.4").0, "version 1.2.3.4");
}

#[test]
fn the_step_log_views_are_redacted_like_the_context() {
    use llm_memory::history::steps::{Step, StepView};
    let mut m = memory(Strategy::Full);
    m.track_changes();
    m.add_step(
        Step::Task {
            task: format!("Book a table and confirm to {} ([EMAIL_1])", VALUES[0]),
        },
        0.0,
    );
    m.add_step(
        Step::Planning {
            plan: format!("Call the restaurant at {}", VALUES[1]),
        },
        1.0,
    );
    let call = ToolCall {
        id: "c1".into(),
        kind: "function".into(),
        function: FunctionCall {
            name: "book_table".into(),
            arguments: format!("{{\"card\":\"{}\"}}", VALUES[2]),
        },
    };
    m.add_step(
        Step::Action {
            model_output: Some("I will book it, then mail [EMAIL_1].".into()),
            tool_calls: vec![call],
            observations: Some(format!("booked; receipt sent to {}", VALUES[0])),
            error: Some(format!("card {} declined once", VALUES[2])),
        },
        2.0,
    );
    // The vault gained the steps' values as they were added, so it is stored with them.
    assert!(m
        .take_changes()
        .iter()
        .any(|op| matches!(op, RecordOp::Put(r) if r.kind == "vault")));
    for view in [StepView::Full, StepView::Summary] {
        let sent = serde_json::to_string(&m.step_messages(view)).unwrap();
        assert_clean(&sent);
    }
    let full = m.step_messages(StepView::Full);
    // The user's own "[EMAIL_1]" in the task goes out marked; the model's stays a placeholder.
    assert!(
        full[0].content.contains("[EMAIL\u{2060}_1]"),
        "{}",
        full[0].content
    );
    assert!(
        full[2].content.contains("mail [EMAIL_1]."),
        "{}",
        full[2].content
    );
    let restored = m.restore_text(&full[0].content);
    assert!(
        restored.contains(VALUES[0]) && restored.ends_with("([EMAIL_1])"),
        "{restored}"
    );
    // The step log itself keeps the real text.
    let stored = serde_json::to_string(m.steps()).unwrap();
    assert!(stored.contains(VALUES[2]));
}
