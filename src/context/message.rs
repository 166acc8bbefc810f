//! The OpenAI chat-completions message shape: what `context()` returns and what is sent.

use crate::history::{Entry, Role, ToolCall};
use serde::{Serialize, Serializer};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChatMessage {
    pub role: Role,
    /// `null` only for an assistant message that carries tool calls and no text, as OpenAI does.
    #[serde(serialize_with = "content_or_null")]
    pub content: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

fn content_or_null<S: Serializer>(content: &str, s: S) -> Result<S::Ok, S::Error> {
    if content.is_empty() {
        s.serialize_none()
    } else {
        s.serialize_str(content)
    }
}

impl ChatMessage {
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        ChatMessage {
            role,
            content: content.into(),
            name: None,
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }

    pub fn from_entry(e: &Entry) -> Self {
        ChatMessage {
            role: e.role,
            content: e.content.clone(),
            name: e.name.clone(),
            tool_calls: e.tool_calls.clone(),
            tool_call_id: e.tool_call_id.clone(),
        }
    }
}
