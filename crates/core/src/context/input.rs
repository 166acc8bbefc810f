//! What the builder is given: the budget knobs, the sections' contents (pinned facts, the
//! summary, ranked memories) and the history with its cached token counts.

use super::retrieved::RetrievalInput;
use super::strategy::Strategy;
use crate::history::Entry;
use crate::summary::SummaryRecord;
use crate::tokens::{MessageOverhead, TokenCounter};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PinnedFact {
    pub id: String,
    pub text: String,
}

/// How much of the history the report lists one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    /// The entries sent, one by one; the rest as ranges.
    #[default]
    Sent,
    /// Every entry, one by one.
    All,
}

/// An entry's outgoing form, `None` when it is sent as it is.
pub type SentForm<'a> = &'a dyn Fn(&Entry) -> Option<Entry>;

/// Budget knobs, validated by the engine's config.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub max_tokens: Option<usize>,
    pub reserve_tokens: usize,
    pub max_turns: Option<usize>,
    /// Upper bounds per section, in tokens; the rest of the budget goes to recent turns.
    pub pinned_max: Option<usize>,
    pub summary_max: Option<usize>,
}

pub struct SummaryInput<'a> {
    pub record: &'a SummaryRecord,
    /// `entries[..covered]` are folded into the summary.
    pub covered: usize,
}

pub struct BuildInput<'a> {
    pub strategy: Strategy,
    pub limits: &'a Limits,
    pub overhead: MessageOverhead,
    pub counter: &'a dyn TokenCounter,
    /// The system prompt and its message tokens (cached by the engine).
    pub system_prompt: Option<(&'a str, usize)>,
    pub pinned: &'a [PinnedFact],
    pub summary: Option<SummaryInput<'a>>,
    pub entries: &'a [Entry],
    /// An entry as it is sent, when that differs from the history (a redactor is set): asked
    /// only for the entries sent, so a turn does not copy the whole history.
    pub sent_form: Option<SentForm<'a>>,
    /// Message tokens of each entry, overhead included (cached by the engine).
    pub entry_tokens: &'a [usize],
    pub dedup: bool,
    pub notes: Vec<String>,
    /// Ranked memories for strategy "retrieval" (ignored by the others).
    pub retrieval: Option<RetrievalInput>,
    /// Tool schemas sent with the request: their tokens and how many tools.
    pub tools: Option<(usize, usize)>,
    /// Whether the report lists every entry or only those sent (the rest as ranges).
    pub detail: Detail,
}
