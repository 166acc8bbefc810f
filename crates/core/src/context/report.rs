//! The per-turn account of what was sent and why: tokens per section, every history entry's
//! fate with a reason (the entries sent one by one, the rest as ranges), totals against the
//! budget. This is what the demo's inspector shows.

use crate::history::Role;
use serde::Serialize;

/// What happened to one history entry in this turn's context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum EntryStatus {
    Included,
    Dropped,
    /// Not sent itself: the summary that covers it was sent (or would be, see notes).
    Summarized,
    /// Sent as part of the retrieved-memory section rather than as a recent turn.
    Retrieved,
}

/// Why an entry has its status. Stable strings: apps switch on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Reason {
    /// The newest user message: always sent.
    LatestUser,
    /// Fits the budget (or no budget applies).
    WithinBudget,
    /// Newer turns used the budget.
    OverBudget,
    /// Older than the last `maxTurns` turns.
    OutsideWindow,
    /// Strategy `none` sends only the latest user turn.
    StrategyNone,
    /// Covered by the summary.
    Summarized,
    /// Same role and content as the message right after it.
    Duplicate,
    /// A tool result whose assistant tool call is not in the history: APIs reject it.
    OrphanToolResult,
    /// Part of a tool call / result group that could not be sent whole.
    ToolPairIncomplete,
    /// Found relevant to the query by retrieval.
    Relevant,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryReport {
    pub id: String,
    pub role: Role,
    /// Tokens this entry costs as a message, overhead included.
    pub tokens: usize,
    pub status: EntryStatus,
    pub reason: Reason,
    /// Relevance score, for entries sent as retrieved memories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Values redacted from this entry as sent, by type (never the values themselves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redacted: Option<std::collections::BTreeMap<String, usize>>,
}

/// Consecutive entries that share a fate and were not sent, in one line of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryRange {
    /// Id of the first entry.
    pub from: String,
    /// Id of the last entry.
    pub to: String,
    /// Position of the first entry in the history (for paging through `entries()`).
    #[serde(rename = "fromIndex")]
    pub start: usize,
    #[serde(skip)]
    pub end: usize,
    pub count: usize,
    pub status: EntryStatus,
    /// For entries the builder never reached (older than where the budget ran out, outside the
    /// window, ...), the reason that decided them as a block; `detail: "all"` judges each.
    pub reason: Reason,
}

/// The sections of a context, in the order they appear and by priority.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SectionKind {
    System,
    Pinned,
    Summary,
    Retrieved,
    /// Past episodes recalled by strategy "retrieval" (`[Past episode]`).
    Episodes,
    /// The memory tools' JSON schemas, sent in the request's `tools` field.
    Tools,
    History,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SectionReport {
    pub name: SectionKind,
    /// The source marker the section's text starts with (`[Summary]`, ...); none for turns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marker: Option<&'static str>,
    pub tokens: usize,
    /// Messages this section contributes.
    pub messages: usize,
    /// Items in it (pinned facts, retrieved memories, turns).
    pub items: usize,
    /// Items left out for lack of budget.
    pub dropped: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetReport {
    /// `maxTokens`, when a budget applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<usize>,
    pub reserve_tokens: usize,
    /// What messages may use: maxTokens - reserveTokens (none without a budget).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SummaryReport {
    pub id: String,
    pub start_id: String,
    pub end_id: String,
    /// Messages the summary covers.
    pub count: usize,
    pub tokens: usize,
    /// Whether it was sent in this context.
    pub included: bool,
    /// An entry it covered was forgotten since it was written.
    pub stale: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenizerReport {
    pub kind: String,
    pub exact: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextReport {
    pub strategy: &'static str,
    /// One line for a status bar: "Sending 6 of 40 messages (1234 / 2000 tokens)".
    pub headline: String,
    pub budget: BudgetReport,
    /// Tokens of the messages as sent, overhead and reply priming included (not the reserve).
    pub total_tokens: usize,
    pub messages_sent: usize,
    pub sections: Vec<SectionReport>,
    /// The entries sent (or, with `detail: "all"`, every entry), in history order.
    pub entries: Vec<EntryReport>,
    /// The entries not listed in `entries`, as ranges in history order: with `entries`, every
    /// entry of the history appears exactly once.
    pub ranges: Vec<EntryRange>,
    /// Entries in the history.
    pub entry_count: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<SummaryReport>,
    /// Memories sent by strategy "retrieval" (turns, facts, episodes), with their scores.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub retrieved: Vec<RetrievedReport>,
    pub tokenizer: TokenizerReport,
    /// Things the app should know: a summarizer that failed, a fallback taken, ...
    pub notes: Vec<String>,
    /// Values redacted from everything sent, by type (empty without a redactor).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub redactions: std::collections::BTreeMap<String, usize>,
}

impl ContextReport {
    pub fn make_headline(&mut self) {
        let turns_sent = self
            .entries
            .iter()
            .filter(|e| e.status == EntryStatus::Included)
            .count();
        let budget = match (self.budget.available, self.budget.reserve_tokens) {
            (Some(a), 0) => format!("{} / {a} tokens", self.total_tokens),
            (Some(a), r) => format!("{} / {a} tokens, {r} reserved", self.total_tokens),
            (None, _) => format!("{} tokens, no budget", self.total_tokens),
        };
        let memories = match self.retrieved.len() {
            0 => String::new(),
            1 => " + 1 memory".to_string(),
            n => format!(" + {n} memories"),
        };
        self.headline = format!(
            "Sending {} of {} messages{memories} ({budget})",
            turns_sent, self.entry_count
        );
    }
}

/// One retrieved item as the report lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RetrievedReport {
    pub id: String,
    /// "turn", "fact" or "episode".
    pub kind: &'static str,
    /// The score it was ranked by: its relevance weighted by recency and importance, plus a
    /// share of a neighbouring hit's score.
    pub score: f64,
    /// How well it answers the query on 0..1: BM25 over the query's best, and the cosine
    /// between the query's floor and best, mixed (words alone without vectors).
    pub relevance: f64,
    /// Its BM25 score for the query's words; absent when it shares none with the query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bm25: Option<f64>,
    /// The cosine of its vector with the query's; absent without an embedder or before the
    /// item is embedded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cosine: Option<f64>,
    /// Tokens of its line in the section.
    pub tokens: usize,
    pub date: String,
    /// The entry id of the hit it was sent beside: a turn said just before or after a hit, in
    /// the same sitting, that ranks mostly for being its neighbour.
    #[serde(rename = "neighborOf", skip_serializing_if = "Option::is_none")]
    pub neighbour_of: Option<String>,
    /// Present (true) when it was said within the span of a date the query names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_match: Option<bool>,
    /// Present when only a part of a long turn was sent: which part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<ExcerptReport>,
}

/// The part of a turn sent as an excerpt, in UTF-16 code units of the turn's text (what
/// `text.slice(from, to)` takes in JS); the line sent marks each cut with `[…]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExcerptReport {
    pub from: usize,
    pub to: usize,
    /// The whole turn's length: what was cut is `[0, from)` and `[to, length)`.
    pub length: usize,
}
