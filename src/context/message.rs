//! The OpenAI chat-completions message shape: what `context()` returns and what is sent.

use crate::history::{Entry, Role, ToolCall};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

#[derive(Debug, Clone, PartialEq)]
pub struct ChatMessage {
    pub role: Role,
    /// Sent as `null` only when empty on an assistant message that carries tool calls (see
    /// the `Serialize` impl).
    pub content: String,
    pub name: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    pub tool_call_id: Option<String>,
}

impl ChatMessage {
    /// OpenAI writes `content: null` for an assistant message that only calls tools, and
    /// refuses `null` on every other message (a tool result, user or assistant text that is
    /// empty must be `""`), so null depends on the role and the calls, not on the text alone.
    fn content_is_null(&self) -> bool {
        self.content.is_empty() && self.role == Role::Assistant && !self.tool_calls.is_empty()
    }
}

impl Serialize for ChatMessage {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fields = 2
            + usize::from(self.name.is_some())
            + usize::from(!self.tool_calls.is_empty())
            + usize::from(self.tool_call_id.is_some());
        let mut out = s.serialize_struct("ChatMessage", fields)?;
        out.serialize_field("role", &self.role)?;
        if self.content_is_null() {
            out.serialize_field("content", &None::<&str>)?;
        } else {
            out.serialize_field("content", &self.content)?;
        }
        if let Some(name) = &self.name {
            out.serialize_field("name", name)?;
        }
        if !self.tool_calls.is_empty() {
            out.serialize_field("tool_calls", &self.tool_calls)?;
        }
        if let Some(id) = &self.tool_call_id {
            out.serialize_field("tool_call_id", id)?;
        }
        out.end()
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
