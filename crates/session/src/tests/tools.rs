use crate::tools::{call_tool, Refusal};
use llm_memory_core::memory::{Memory, MemoryConfig};
use llm_memory_core::tokens::ApproximateCounter;
use std::sync::Arc;

fn memory() -> Memory {
    Memory::new(
        MemoryConfig::default(),
        Arc::new(ApproximateCounter::default()),
    )
    .unwrap()
}

fn error_of(answer: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(answer).unwrap();
    v["error"].as_str().unwrap_or_default().to_string()
}

#[test]
fn every_refusal_is_a_json_answer_and_changes_nothing() {
    let mut m = memory();
    let cases = [
        (
            Err(Refusal::ReadOnly),
            Some("remember"),
            Some("{}"),
            "read-only",
        ),
        (Err(Refusal::Busy), Some("remember"), Some("{}"), "busy"),
        (Ok(()), None, Some("{}"), "tool name"),
        (Ok(()), Some("remember"), None, "arguments"),
    ];
    for (state, name, args, says) in cases {
        let target = state.map(|()| &mut m);
        let (answer, changed) = call_tool(target, name, args, 0.0);
        assert!(error_of(&answer).contains(says), "{answer}");
        assert!(!changed);
    }
}

#[test]
fn a_call_runs_on_the_memory_and_asks_for_a_store() {
    let mut m = memory();
    let (answer, changed) = call_tool(Ok(&mut m), Some("no_such_tool"), Some("{}"), 0.0);
    assert!(changed);
    assert!(
        !error_of(&answer).is_empty(),
        "the tool itself answers: {answer}"
    );
}
