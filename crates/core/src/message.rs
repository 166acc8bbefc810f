//! The OpenAI chat-completions message shape: who speaks (`Role`), tool calls, and the message
//! `context()` returns and sends. It sits below `history`, `context` and `tokens`, which all
//! speak of messages.

use crate::error::{Error, ErrorCode};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

/// Who said it, in OpenAI chat terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

impl Role {
    pub fn parse(s: &str) -> crate::error::Result<Role> {
        match s {
            "system" => Ok(Role::System),
            "user" => Ok(Role::User),
            "assistant" => Ok(Role::Assistant),
            "tool" => Ok(Role::Tool),
            other => Err(Error::new(
                ErrorCode::InvalidRole,
                format!(
                    "unknown role {:?}: use \"system\", \"user\", \"assistant\" or \"tool\"",
                    crate::error::truncate(other, 40)
                ),
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// The function part of an OpenAI tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionCall {
    pub name: String,
    /// JSON text, as the model produced it (may be invalid JSON; it is passed through as is).
    pub arguments: String,
}

/// An assistant's request to call a tool, in the OpenAI chat format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    #[serde(rename = "type", default = "function_type")]
    pub kind: String,
    pub function: FunctionCall,
}

fn function_type() -> String {
    "function".to_string()
}

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
}
