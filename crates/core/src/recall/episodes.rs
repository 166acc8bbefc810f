//! Episodic memory: what happened in a stretch of the conversation (summary, actions, outcome,
//! importance), written by the app's summarizer as JSON and kept with its time span and the
//! ids of the turns it came from, so that a similar situation later can recall it.

use crate::error::{Error, ErrorCode, Result};
use crate::history::Entry;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Episode {
    pub id: String,
    pub summary: String,
    #[serde(default)]
    pub actions: Vec<String>,
    #[serde(default)]
    pub outcome: String,
    /// 0..1.
    pub importance: f64,
    /// Timestamps of the first and last turn covered.
    pub start_time: f64,
    pub end_time: f64,
    pub entry_ids: Vec<String>,
    pub created_at: f64,
}

impl Episode {
    /// The text indexed and sent for this episode.
    pub fn text(&self) -> String {
        let mut s = self.summary.clone();
        if !self.actions.is_empty() {
            s.push_str(" Actions: ");
            s.push_str(&self.actions.join("; "));
            s.push('.');
        }
        if !self.outcome.is_empty() {
            s.push_str(" Outcome: ");
            s.push_str(&self.outcome);
        }
        s
    }
}

/// What the binding asks the summarizer; answered with `complete`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeRequest {
    pub request_id: u64,
    pub prompt: String,
    pub entry_ids: Vec<String>,
    pub start_time: f64,
    pub end_time: f64,
}

/// The episode prompt (it lives with the other prompts, in `llm::prompts`).
pub use crate::llm::prompts::EPISODE_PROMPT;

#[derive(Debug, Clone, Default)]
pub struct EpisodeStore {
    episodes: Vec<Episode>,
    next_request: u64,
    pending: Option<EpisodeRequest>,
    /// Last turn covered by an episode, by id and time (the id may be forgotten later).
    covered_id: Option<String>,
    covered_time: f64,
    /// See [`crate::history::ids`].
    prefix: String,
}

#[derive(Deserialize)]
pub(crate) struct Answer {
    pub(crate) summary: String,
    #[serde(default)]
    actions: Vec<serde_json::Value>,
    #[serde(default)]
    outcome: Option<serde_json::Value>,
    #[serde(default)]
    importance: Option<f64>,
}

impl EpisodeStore {
    pub fn new() -> Self {
        EpisodeStore {
            next_request: 1,
            covered_time: f64::NEG_INFINITY,
            ..Default::default()
        }
    }

    pub fn all(&self) -> &[Episode] {
        &self.episodes
    }

    pub fn get(&self, id: &str) -> Option<&Episode> {
        self.episodes.iter().find(|e| e.id == id)
    }

    /// The turns since the last episode, rendered into the prompt; `None` when there are none.
    pub fn begin(&mut self, entries: &[Entry]) -> Option<EpisodeRequest> {
        let from = match &self.covered_id {
            Some(id) => match entries.iter().position(|e| &e.id == id) {
                Some(i) => i + 1,
                None => entries.partition_point(|e| e.timestamp <= self.covered_time),
            },
            None => 0,
        };
        let turns: Vec<&Entry> = entries[from.min(entries.len())..]
            .iter()
            // An assistant message without text may still have acted through tool calls.
            .filter(|e| !e.content.trim().is_empty() || !e.tool_calls.is_empty())
            .collect();
        let (first, last) = (turns.first()?, turns.last()?);
        let mut rendered = String::new();
        for e in &turns {
            rendered.push_str(e.role.as_str());
            rendered.push_str(": ");
            rendered.push_str(&e.content);
            crate::summary::push_tool_calls(&mut rendered, &e.tool_calls);
            rendered.push('\n');
        }
        let request = EpisodeRequest {
            request_id: self.next_request.max(1),
            prompt: EPISODE_PROMPT.replace("{turns}", rendered.trim_end()),
            entry_ids: turns.iter().map(|e| e.id.clone()).collect(),
            start_time: first.timestamp,
            end_time: last.timestamp,
        };
        self.next_request = request.request_id + 1;
        self.pending = Some(request.clone());
        Some(request)
    }

    /// Parses the summarizer's answer (JSON, possibly inside a code fence or prose) and
    /// stores the episode.
    pub fn complete(&mut self, request_id: u64, answer: &str, now: f64) -> Result<Episode> {
        let req = self
            .pending
            .take_if(|p| p.request_id == request_id)
            .ok_or_else(|| {
                Error::new(
                    ErrorCode::NotFound,
                    format!("no episode request {request_id} is outstanding"),
                )
            })?;
        let parsed = parse_answer(answer)?;
        let episode = Episode {
            id: crate::history::ids::mint(&self.prefix, "ep", request_id),
            summary: parsed.summary.trim().to_string(),
            actions: parsed
                .actions
                .iter()
                .map(|a| a.as_str().map_or_else(|| a.to_string(), str::to_string))
                .collect(),
            outcome: match parsed.outcome {
                Some(serde_json::Value::String(s)) => s,
                Some(serde_json::Value::Null) | None => String::new(),
                Some(v) => v.to_string(),
            },
            importance: parsed.importance.unwrap_or(0.5).clamp(0.0, 1.0),
            start_time: req.start_time,
            end_time: req.end_time,
            entry_ids: req.entry_ids,
            created_at: now,
        };
        self.covered_id = episode.entry_ids.last().cloned();
        self.covered_time = episode.end_time;
        self.episodes.push(episode.clone());
        Ok(episode)
    }

    pub fn fail(&mut self, request_id: u64) {
        self.pending.take_if(|p| p.request_id == request_id);
    }

    pub fn remove(&mut self, id: &str) -> bool {
        let before = self.episodes.len();
        self.episodes.retain(|e| e.id != id);
        self.episodes.len() != before
    }

    /// Ids from now on are `prefix + "ep" + n` (see [`crate::history::ids`]).
    pub fn set_prefix(&mut self, prefix: &str) {
        self.prefix = prefix.to_string();
    }

    /// Puts back a stored episode (persistence, import).
    pub fn reload(&mut self, episode: Episode) {
        if let Some(seq) = crate::history::ids::seq_of(&episode.id, &self.prefix, "ep") {
            self.next_request = self.next_request.max(seq + 1);
        }
        if episode.end_time >= self.covered_time {
            self.covered_time = episode.end_time;
            self.covered_id = episode.entry_ids.last().cloned();
        }
        self.episodes.push(episode);
    }
}

/// Reads an episode answer (JSON, possibly inside a code fence or prose).
pub(crate) fn parse_answer(answer: &str) -> Result<Answer> {
    let bad = |why: String| {
        Error::new(
            ErrorCode::InvalidDocument,
            format!("the episode answer is not the JSON asked for ({why}); expected {{\"summary\": ..., \"actions\": [...], \"outcome\": ..., \"importance\": 0..1}}"),
        )
    };
    // Tolerant of what models wrap JSON in (fences, prose, single quotes, trailing commas).
    let value = crate::llm::json::parse_json(answer).map_err(bad)?;
    let a: Answer = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
    if a.summary.trim().is_empty() {
        return Err(bad("empty summary".into()));
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{History, NewEntry, Role};

    #[test]
    fn episodes_cover_the_turns_since_the_last_one() {
        let mut h = History::new();
        h.push(
            Role::User,
            "Book a table for two",
            NewEntry::default(),
            10.0,
        )
        .unwrap();
        h.push(
            Role::Assistant,
            "Booked at Rosa, 8pm",
            NewEntry::default(),
            11.0,
        )
        .unwrap();
        let mut s = EpisodeStore::new();
        let req = s.begin(h.entries()).unwrap();
        assert!(req.prompt.contains("user: Book a table for two"));
        let answer = "Sure!\n```json\n{\"summary\": \"Booked dinner\", \"actions\": [\"searched\", 2], \"outcome\": \"table at Rosa\", \"importance\": 3}\n```";
        let ep = s.complete(req.request_id, answer, 12.0).unwrap();
        assert_eq!(ep.actions, vec!["searched", "2"]);
        assert_eq!(ep.importance, 1.0);
        assert_eq!(ep.entry_ids, vec!["e1", "e2"]);
        assert!(s.begin(h.entries()).is_none());
        h.push(Role::User, "Thanks", NewEntry::default(), 13.0)
            .unwrap();
        let req = s.begin(h.entries()).unwrap();
        assert_eq!(req.entry_ids, vec!["e3"]);
        assert_eq!(
            s.complete(req.request_id, "no json", 14.0)
                .unwrap_err()
                .code,
            ErrorCode::InvalidDocument
        );
        assert!(
            s.complete(req.request_id, "{}", 14.0).is_err(),
            "request is consumed"
        );
    }

    #[test]
    fn the_prompt_shows_tool_calls_as_actions() {
        use crate::history::{FunctionCall, ToolCall};
        let mut h = History::new();
        h.push(Role::User, "Book Rosa for two", NewEntry::default(), 1.0)
            .unwrap();
        let call = ToolCall {
            id: "c1".into(),
            kind: "function".into(),
            function: FunctionCall {
                name: "book_table".into(),
                arguments: "{\"place\":\"Rosa\",\"people\":2}".into(),
            },
        };
        let calls = NewEntry {
            tool_calls: vec![call],
            ..Default::default()
        };
        h.push(Role::Assistant, "", calls, 2.0).unwrap();
        let result = NewEntry {
            tool_call_id: Some("c1".into()),
            ..Default::default()
        };
        h.push(Role::Tool, "booked 20:00", result, 3.0).unwrap();
        let req = EpisodeStore::new().begin(h.entries()).unwrap();
        assert!(
            req.prompt
                .contains("(calls book_table({\"place\":\"Rosa\",\"people\":2}))"),
            "{}",
            req.prompt
        );
        assert_eq!(req.entry_ids, vec!["e1", "e2", "e3"]);
    }
}
