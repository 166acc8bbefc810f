//! The conversation log: an append-only list of entries in the order they happened, plus the
//! agent step log (`steps`). Entries are never edited in place; `forget` removes one outright.

pub mod ids;
pub mod steps;
pub mod units;

use crate::error::{Error, ErrorCode, Result};
use crate::message::ChatMessage;
pub use crate::message::{FunctionCall, Role, ToolCall};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// One message in the conversation log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub id: String,
    pub role: Role,
    pub content: String,
    /// Milliseconds since the Unix epoch, supplied by the caller (the core reads no clock).
    pub timestamp: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Free-form app data; never sent to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Value>,
}

/// Written here rather than in `message`, which sits below `history` and knows no entries.
impl ChatMessage {
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

/// What the caller supplies for a new entry; the log assigns the id.
#[derive(Debug, Clone, Default)]
pub struct NewEntry {
    pub name: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    pub tool_call_id: Option<String>,
    pub metadata: Option<serde_json::Value>,
    pub timestamp: Option<f64>,
}

/// The append-only log. Ids are `prefix + sequence number`, so they sort by insertion and are
/// unique within a session; the persistence layer chooses the prefix.
#[derive(Debug, Clone, Default)]
pub struct History {
    entries: Vec<Entry>,
    /// Ids present, so stored entries are checked for duplicates in O(1).
    ids: HashSet<String>,
    next_seq: u64,
    id_prefix: String,
    max_entry_chars: usize,
}

/// Default cap on one entry's size: large enough for pasted documents, small enough that a
/// runaway paste cannot freeze the tab while it is tokenized.
pub const DEFAULT_MAX_ENTRY_CHARS: usize = 1 << 20;

impl History {
    pub fn new() -> Self {
        History {
            entries: Vec::new(),
            ids: HashSet::new(),
            next_seq: 1,
            id_prefix: "e".to_string(),
            max_entry_chars: DEFAULT_MAX_ENTRY_CHARS,
        }
    }

    pub fn set_max_entry_chars(&mut self, max: usize) {
        self.max_entry_chars = max;
    }

    pub fn set_id_prefix(&mut self, prefix: &str) {
        self.id_prefix = prefix.to_string();
    }

    /// Appends an entry after validating it; returns its id.
    pub fn push(&mut self, role: Role, content: &str, extra: NewEntry, now: f64) -> Result<String> {
        let chars = content.chars().count();
        if chars > self.max_entry_chars {
            return Err(Error::new(
                ErrorCode::EntryTooLarge,
                format!(
                    "the {} message has {chars} characters, over maxEntryChars = {}: split it, \
                     summarize it first, or raise maxEntryChars",
                    role.as_str(),
                    self.max_entry_chars
                ),
            ));
        }
        validate_shape(role, &extra)?;
        let timestamp = extra.timestamp.unwrap_or(now);
        if !timestamp.is_finite() {
            return Err(Error::new(
                ErrorCode::InvalidEntry,
                "timestamp must be a finite number of milliseconds since the epoch",
            ));
        }
        let mut id = format!("{}{}", self.id_prefix, self.next_seq);
        self.next_seq += 1;
        // Another tab's entries can share the prefix space only if a prefix repeats; skip on.
        while !self.ids.insert(id.clone()) {
            id = format!("{}{}", self.id_prefix, self.next_seq);
            self.next_seq += 1;
        }
        self.entries.push(Entry {
            id: id.clone(),
            role,
            content: content.to_string(),
            timestamp,
            name: extra.name,
            tool_calls: extra.tool_calls,
            tool_call_id: extra.tool_call_id,
            metadata: extra.metadata,
        });
        Ok(id)
    }

    /// Restores an entry as stored (persistence, import). Keeps the id and moves the sequence
    /// past it so later ids stay unique.
    pub fn reload(&mut self, entry: Entry) -> Result<()> {
        self.track_stored_id(&entry.id)?;
        self.entries.push(entry);
        Ok(())
    }

    /// Refuses a duplicate id and moves the sequence past a stored one.
    fn track_stored_id(&mut self, id: &str) -> Result<()> {
        if !self.ids.insert(id.to_string()) {
            return Err(Error::new(
                ErrorCode::InvalidDocument,
                format!("duplicate entry id {id:?}"),
            ));
        }
        if let Some(seq) = id
            .strip_prefix(self.id_prefix.as_str())
            .and_then(|n| n.parse::<u64>().ok())
        {
            self.next_seq = self.next_seq.max(seq + 1);
        }
        Ok(())
    }

    /// Inserts a stored entry at `index` (another tab's turn, in storage order).
    pub fn insert(&mut self, index: usize, entry: Entry) -> Result<()> {
        self.track_stored_id(&entry.id)?;
        self.entries.insert(index.min(self.entries.len()), entry);
        Ok(())
    }

    pub fn id_prefix(&self) -> &str {
        &self.id_prefix
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.id == id)
    }

    /// Removes an entry; returns its former position.
    pub fn remove(&mut self, id: &str) -> Result<usize> {
        let index = self
            .index_of(id)
            .ok_or_else(|| Error::new(ErrorCode::NotFound, format!("no entry with id {id:?}")))?;
        let e = self.entries.remove(index);
        self.ids.remove(&e.id);
        Ok(index)
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.ids.clear();
    }
}

fn validate_shape(role: Role, extra: &NewEntry) -> Result<()> {
    let invalid = |m: &str| Err(Error::new(ErrorCode::InvalidEntry, m.to_string()));
    match role {
        Role::Tool if extra.tool_call_id.as_deref().is_none_or(str::is_empty) => {
            invalid("a tool message needs toolCallId: the id of the assistant tool call it answers")
        }
        Role::Tool | Role::Assistant => {
            if role == Role::Tool && !extra.tool_calls.is_empty() {
                return invalid("only assistant messages may carry toolCalls");
            }
            if role == Role::Assistant && extra.tool_call_id.is_some() {
                return invalid("toolCallId belongs on tool messages, not assistant messages");
            }
            if extra.tool_calls.iter().any(|c| c.id.is_empty()) {
                return invalid("every tool call needs a non-empty id");
            }
            Ok(())
        }
        _ if !extra.tool_calls.is_empty() => invalid("only assistant messages may carry toolCalls"),
        _ if extra.tool_call_id.is_some() => {
            invalid("toolCallId belongs on tool messages (role \"tool\")")
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_sequential_and_survive_a_reload() {
        let mut h = History::new();
        let a = h.push(Role::User, "hi", NewEntry::default(), 1.0).unwrap();
        assert_eq!(a, "e1");
        let mut h2 = History::new();
        h2.reload(h.entries()[0].clone()).unwrap();
        let b = h2
            .push(Role::User, "again", NewEntry::default(), 2.0)
            .unwrap();
        assert_eq!(b, "e2");
        assert!(h2.reload(h.entries()[0].clone()).is_err());
    }

    #[test]
    fn tool_message_needs_call_id() {
        let mut h = History::new();
        let err = h
            .push(Role::Tool, "42", NewEntry::default(), 0.0)
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidEntry);
        let err = Role::parse("robot").unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidRole);
    }

    #[test]
    fn oversized_entry_is_refused_without_storing() {
        let mut h = History::new();
        h.set_max_entry_chars(10);
        let err = h
            .push(Role::User, &"x".repeat(11), NewEntry::default(), 0.0)
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::EntryTooLarge);
        assert!(h.is_empty());
    }
}
