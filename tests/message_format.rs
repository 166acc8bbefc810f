#![cfg(not(target_arch = "wasm32"))]
//! The wire shape of what is sent: OpenAI refuses `content: null` on every message but an
//! assistant message that carries tool calls, so empty text must go out as `""`.

use llm_memory::history::steps::{Step, StepView};
use llm_memory::history::{FunctionCall, ToolCall};
use llm_memory::{ApproximateCounter, Memory, MemoryConfig, NewEntry, Role};
use serde_json::{json, Value};
use std::sync::Arc;

fn memory() -> Memory {
    Memory::new(
        MemoryConfig::default(),
        Arc::new(ApproximateCounter::default()),
    )
    .unwrap()
}

fn call(id: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        kind: "function".into(),
        function: FunctionCall {
            name: "lookup".into(),
            arguments: "{}".into(),
        },
    }
}

fn content_of(messages: &Value, i: usize) -> &Value {
    &messages[i]["content"]
}

#[test]
fn empty_content_is_an_empty_string_except_for_an_assistant_tool_call() {
    let mut m = memory();
    m.add(Role::User, "", NewEntry::default(), 0.0).unwrap();
    let calls = NewEntry {
        tool_calls: vec![call("c1")],
        ..Default::default()
    };
    m.add(Role::Assistant, "", calls, 1.0).unwrap();
    let result = NewEntry {
        tool_call_id: Some("c1".into()),
        ..Default::default()
    };
    m.add(Role::Tool, "", result, 2.0).unwrap();
    m.add(Role::Assistant, "", NewEntry::default(), 3.0)
        .unwrap();
    m.add(Role::User, "and now?", NewEntry::default(), 4.0)
        .unwrap();
    let messages = serde_json::to_value(&m.context(None).unwrap().messages).unwrap();
    assert_eq!(messages.as_array().unwrap().len(), 5, "{messages}");
    assert_eq!(content_of(&messages, 0), &json!(""), "user: {messages}");
    assert_eq!(
        content_of(&messages, 1),
        &Value::Null,
        "tool call: {messages}"
    );
    assert_eq!(
        content_of(&messages, 2),
        &json!(""),
        "tool result: {messages}"
    );
    assert_eq!(
        content_of(&messages, 3),
        &json!(""),
        "assistant: {messages}"
    );
}

#[test]
fn an_action_step_with_empty_model_output_sends_an_empty_string() {
    let mut m = memory();
    m.add_step(
        Step::Action {
            model_output: Some(String::new()),
            tool_calls: vec![],
            observations: None,
            error: None,
        },
        0.0,
    );
    let messages = serde_json::to_value(m.step_messages(StepView::Full)).unwrap();
    assert_eq!(content_of(&messages, 0), &json!(""), "{messages}");
}
