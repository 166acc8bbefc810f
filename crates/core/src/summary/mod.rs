//! Summary memory: when the turns older than the most recent few grow past a trigger, the
//! engine asks the app's summarizer to fold them into a running summary. The core only plans
//! (which turns, what prompt) and records the result; `crate::driver` asks for the call, and
//! making it is the JS face's I/O. A failed or late summary loses nothing: the turns stay and trimming takes over.

use crate::error::{Error, Result};
use crate::history::units::{group, UnitKind};
use crate::history::{Entry, Role, ToolCall};
use serde::{Deserialize, Serialize};

/// A running summary of the conversation from its start up to `end_id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SummaryRecord {
    pub id: String,
    pub text: String,
    /// First and last entries covered.
    pub start_id: String,
    pub end_id: String,
    /// Messages covered.
    pub count: usize,
    pub created_at: f64,
    /// An entry it covered was forgotten after it was written.
    #[serde(default)]
    pub stale: bool,
}

/// When to summarize; whichever limit is reached first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryTrigger {
    /// Unsummarized messages older than the kept recent ones.
    pub messages: Option<usize>,
    /// Tokens of all unsummarized messages.
    pub tokens: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryConfig {
    pub trigger: SummaryTrigger,
    /// Messages always left out of the summary, sent verbatim.
    pub keep_recent: usize,
    /// Prompt template with `{summary}` and `{turns}` placeholders.
    pub prompt: String,
}

/// The default `summaryPrompt` (it lives with the other prompts, in `llm::prompts`).
pub use crate::llm::prompts::SUMMARY_PROMPT as DEFAULT_PROMPT;

impl SummaryConfig {
    pub fn validate(&self) -> Result<()> {
        if !self.prompt.contains("{turns}") {
            return Err(Error::option(
                "summaryPrompt must contain {turns} (where the turns to fold in go)",
            ));
        }
        if self.trigger.messages == Some(0) || self.trigger.tokens == Some(0) {
            return Err(Error::option(
                "summaryTrigger limits must be positive integers",
            ));
        }
        Ok(())
    }
}

/// What the binding must do: call `summarize(prompt)` and report back with the request's id.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SummaryRequest {
    pub request_id: u64,
    pub prompt: String,
    pub previous_summary: Option<String>,
    /// Entries to fold in, first and last, and how many.
    pub start_id: String,
    pub end_id: String,
    pub count: usize,
}

/// Finds the turns to fold, if the trigger is reached: everything unsummarized before the last
/// `keep_recent` messages and the latest user message, cut so that no tool call is separated from its results.
/// Returns the exclusive end index of the fold.
pub fn plan_fold(
    trigger: &SummaryTrigger,
    keep_recent: usize,
    entries: &[Entry],
    entry_tokens: &[usize],
    covered: usize,
) -> Option<usize> {
    // The latest user message is always sent verbatim, so it is never folded.
    let latest_user = entries
        .iter()
        .rposition(|e| e.role == Role::User)
        .unwrap_or(entries.len());
    let keep_from = entries
        .len()
        .saturating_sub(keep_recent)
        .min(latest_user)
        .max(covered);
    // Cut at a unit boundary at or before keep_from.
    let end = group(entries, covered)
        .into_iter()
        .filter(|u| u.kind != UnitKind::Incomplete)
        .map(|u| u.range.end)
        .take_while(|&e| e <= keep_from)
        .last()?;
    let older = end - covered;
    let unsummarized_tokens: usize = entry_tokens[covered..].iter().sum();
    let by_messages = trigger.messages.is_some_and(|m| older >= m);
    let by_tokens = trigger.tokens.is_some_and(|t| unsummarized_tokens >= t);
    (older > 0 && (by_messages || by_tokens)).then_some(end)
}

/// Appends an assistant's tool calls to a prompt line as `(calls f(args))`, one per line: they
/// are often all it did, and a summarizer that never sees them cannot say what was done.
pub fn push_tool_calls(out: &mut String, calls: &[ToolCall]) {
    for call in calls {
        out.push_str(&format!(
            "\n(calls {}({}))",
            call.function.name, call.function.arguments
        ));
    }
}

/// Renders the summarizer prompt for `entries` (the turns to fold).
pub fn render_prompt(template: &str, previous: Option<&str>, entries: &[Entry]) -> String {
    let mut turns = String::new();
    for e in entries {
        let who = match e.role {
            Role::System => "System".to_string(),
            Role::User => e.name.clone().unwrap_or_else(|| "User".to_string()),
            Role::Assistant => "Assistant".to_string(),
            Role::Tool => "Tool result".to_string(),
        };
        turns.push_str(&who);
        turns.push_str(": ");
        turns.push_str(&e.content);
        push_tool_calls(&mut turns, &e.tool_calls);
        turns.push('\n');
    }
    // Placeholders are replaced in one pass so text inside the turns that happens to contain
    // "{summary}" is never substituted.
    let previous = previous.unwrap_or("(none yet)");
    let mut out = String::with_capacity(template.len() + turns.len() + previous.len());
    let mut rest = template;
    while let Some(pos) = rest.find('{') {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        if let Some(after) = tail.strip_prefix("{summary}") {
            out.push_str(previous);
            rest = after;
        } else if let Some(after) = tail.strip_prefix("{turns}") {
            out.push_str(turns.trim_end());
            rest = after;
        } else {
            out.push('{');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{History, NewEntry};

    fn by_messages(messages: usize) -> SummaryTrigger {
        SummaryTrigger {
            messages: Some(messages),
            tokens: None,
        }
    }

    #[test]
    fn folds_older_turns_once_the_trigger_is_reached() {
        let mut h = History::new();
        for i in 0..10 {
            h.push(Role::User, &format!("m{i}"), NewEntry::default(), 0.0)
                .unwrap();
        }
        let tokens = vec![5; 10];
        assert_eq!(
            plan_fold(&by_messages(4), 4, h.entries(), &tokens, 0),
            Some(6)
        );
        assert_eq!(plan_fold(&by_messages(7), 4, h.entries(), &tokens, 0), None);
        assert_eq!(plan_fold(&by_messages(2), 4, h.entries(), &tokens, 5), None);
    }

    #[test]
    fn prompt_keeps_braces_in_turns() {
        let mut h = History::new();
        h.push(Role::User, "my {summary} text", NewEntry::default(), 0.0)
            .unwrap();
        let p = render_prompt("S={summary} T={turns} {x}", Some("old"), h.entries());
        assert_eq!(p, "S=old T=User: my {summary} text {x}");
    }
}
