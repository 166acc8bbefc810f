//! The memory's requests to the app's callbacks with a redactor: only redacted text leaves.

use llm_memory_core::driver::{run_native, Answer, CallArgs, EmbedJob, ExtractJob, Hooks};
use llm_memory_core::memory::{Memory, MemoryConfig};
use llm_memory_core::recall::facts::NewFact;
use llm_memory_core::{ApproximateCounter, NewEntry, Role, Strategy};
use llm_memory_redact::Redactor;
use std::sync::Arc;

fn memory(strategy: Strategy) -> Memory {
    let mut config = MemoryConfig {
        strategy,
        ..Default::default()
    };
    config.limits.max_tokens = Some(4000);
    let mut m = Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap();
    m.set_redactor(Some(Box::new(Redactor::new(Default::default()).unwrap())));
    m
}

fn vectors(texts: &[String]) -> Vec<Vec<f32>> {
    texts
        .iter()
        .map(|t| vec![t.len() as f32, 1.0, t.bytes().map(f32::from).sum()])
        .collect()
}

#[test]
fn texts_leave_redacted_and_are_stored_by_their_own_text() {
    let mut m = memory(Strategy::Retrieval);
    m.enable_vectors(false);
    m.add(
        Role::User,
        "mail me at riley@example.com",
        NewEntry::default(),
        1.0,
    )
    .unwrap();
    let question = "is riley@example.com known?";
    let mut job = EmbedJob::search(&mut m, &EmbedJob::native_hooks(), question);
    let mut asked = Vec::new();
    job.run_with(&mut m, |texts| {
        asked.push(texts.to_vec());
        vectors(texts)
    });
    assert_eq!(asked, [["mail me at [EMAIL_1]"], ["is [EMAIL_1] known?"]]);
}

#[test]
fn requests_carry_redacted_text_only() {
    let mut m = memory(MemoryConfig::default().strategy);
    m.remember(
        "The user's e-mail is ana.silva@example.com",
        NewFact::default(),
        0.5,
    )
    .unwrap();
    m.add(
        Role::User,
        "Call me on +1 415 555 0133, I'm Ana",
        NewEntry::default(),
        1.0,
    )
    .unwrap();
    m.add(Role::Assistant, "Sure", NewEntry::default(), 2.0)
        .unwrap();
    let hooks = Hooks {
        llm: true,
        ..Hooks::default()
    };
    let mut job = ExtractJob::begin(&m, &hooks).unwrap();
    let mut body = String::new();
    run_native(&mut job, &mut m, 3.0, |call| {
        if let CallArgs::Llm(request) = &call.args {
            body = serde_json::to_string(&request.messages).unwrap();
        }
        Answer::Text("[]".to_string())
    });
    assert!(body.contains("Sure"), "the exchange was sent: {body}");
    for secret in ["ana.silva@example.com", "555 0133"] {
        assert!(!body.contains(secret), "{secret} in {body}");
    }
}
