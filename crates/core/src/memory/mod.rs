//! The sans-IO memory engine: the history with cached token counts, pinned facts, the agent
//! step log and the summary state, and `context()` which hands them to the builder. It reads no
//! clock and calls nothing: time comes in as arguments, and what the app's callbacks compute
//! goes out as requests the caller answers (`SummaryRequest`, `ExtractRequest`, `EmbedRequest`).

pub mod config;
mod egress;
mod embedding;
mod erasure;
mod extraction;
mod llm_requests;
mod persist;
mod persistence;
mod recall;
mod redacting;
mod retrieval;
mod summaries;
#[cfg(test)]
mod test_chat;

use crate::context::{self, BuiltContext, ChatMessage, PinnedFact, Strategy, SummaryInput};
use crate::error::{Error, ErrorCode, Result};
use crate::history::steps::{Step, StepLog, StepRecord};
use crate::history::{Entry, History, NewEntry, Role};
use crate::summary::SummaryRecord;
use crate::tokens::SharedCounter;

pub use config::MemoryConfig;
pub use embedding::{EmbedRequest, EmbedRound, EMBED_BATCH, IN_PAGE_ITEMS_PER_SEARCH};
pub use erasure::{Erasure, ForgetOptions, Kept, Removed};
pub use extraction::{ExtractAnswer, ExtractOutcome, ExtractRequest};
pub use llm_requests::{episode_answer, ExtractExchange};
pub use persistence::Persistence;
pub use recall::{ContextExtras, ExtractOp, Recalled};
pub use redacting::{Counts, Redacting, StreamRestore, VaultErasure};

pub struct Memory {
    config: MemoryConfig,
    counter: SharedCounter,
    history: History,
    /// Message tokens per entry (overhead included), parallel to `history`.
    entry_tokens: Vec<usize>,
    system_tokens: usize,
    pinned: Vec<PinnedFact>,
    pinned_seq: u64,
    /// This tab's prefix for the ids of pinned facts and summaries (see `history::ids`).
    id_prefix: String,
    steps: StepLog,
    summaries: Vec<SummaryRecord>,
    pending: Option<summaries::PendingFold>,
    /// Requests given up on whose answers may still arrive (see `summaries`).
    late: Vec<summaries::PendingFold>,
    next_request: u64,
    last_summary_error: Option<String>,
    /// The latest summary was deleted by `forget`; the report says so until one replaces it.
    summary_forgotten: bool,
    /// Storage sort key per entry, parallel to `history` (see `persist`).
    entry_order: Vec<f64>,
    /// Records changed since the last `take_changes`, when a store is attached.
    changes: Option<Vec<crate::store::RecordOp>>,
    /// Stored records of kinds this engine does not own, kept so nothing is lost.
    foreign: Vec<crate::store::Record>,
    /// The redactor and the outgoing forms of entries (see `egress`).
    egress: Option<egress::Egress>,
    /// The system prompt as sent, and what was redacted from it.
    system_sent: Option<(String, redacting::Counts)>,
    /// The lexical/vector index, long-term facts and episodes (see `recall`).
    recall: crate::recall::RecallState,
}

impl Memory {
    pub fn new(config: MemoryConfig, counter: SharedCounter) -> Result<Memory> {
        let config = config.finish()?;
        let mut history = History::new();
        history.set_max_entry_chars(config.max_entry_chars);
        let mut m = Memory {
            config,
            counter,
            history,
            entry_tokens: Vec::new(),
            system_tokens: 0,
            pinned: Vec::new(),
            pinned_seq: 0,
            id_prefix: String::new(),
            steps: StepLog::default(),
            summaries: Vec::new(),
            pending: None,
            late: Vec::new(),
            next_request: 1,
            last_summary_error: None,
            summary_forgotten: false,
            entry_order: Vec::new(),
            changes: None,
            foreign: Vec::new(),
            egress: None,
            system_sent: None,
            recall: crate::recall::RecallState::new(),
        };
        m.count_system_prompt();
        Ok(m)
    }

    pub fn config(&self) -> &MemoryConfig {
        &self.config
    }

    /// Replaces the configuration (budget, strategy, prompt...). History is untouched.
    pub fn reconfigure(&mut self, config: MemoryConfig) -> Result<()> {
        let config = config.finish()?;
        let recount = config.overhead != self.config.overhead;
        self.history.set_max_entry_chars(config.max_entry_chars);
        self.config = config;
        self.count_system_prompt();
        if recount {
            self.recount();
        }
        Ok(())
    }

    /// Swaps the tokenizer; every cached count is recomputed once.
    pub fn set_counter(&mut self, counter: SharedCounter) {
        self.counter = counter;
        self.count_system_prompt();
        self.recount();
    }

    pub fn counter(&self) -> &SharedCounter {
        &self.counter
    }

    fn count_system_prompt(&mut self) {
        let sent = self
            .config
            .system_prompt
            .as_deref()
            .map(|s| self.sent_text(s));
        self.system_tokens = sent.as_ref().map_or(0, |(s, _)| {
            self.config
                .overhead
                .message_tokens(&*self.counter, &ChatMessage::new(Role::System, s.as_ref()))
        });
        self.system_sent = sent.map(|(s, c)| (s.into_owned(), c));
    }

    fn recount(&mut self) {
        self.entry_tokens = self
            .history
            .entries()
            .iter()
            .map(|e| self.message_tokens(e))
            .collect();
    }

    /// What an entry costs as sent (its redacted form when a redactor is set).
    pub(super) fn message_tokens(&self, e: &Entry) -> usize {
        let sent = self.sent_entry(e);
        self.config.overhead.message_tokens(
            &*self.counter,
            &ChatMessage::from_entry(sent.as_ref().unwrap_or(e)),
        )
    }

    /// Appends a message; `now` is the caller's clock in ms. Returns the new entry's id.
    pub fn add(&mut self, role: Role, content: &str, extra: NewEntry, now: f64) -> Result<String> {
        if let Some(m) = &extra.metadata {
            crate::store::document::check_keys(m, "metadata")
                .map_err(|e| Error::new(ErrorCode::InvalidEntry, e.message))?;
        }
        let id = self.history.push(role, content, extra, now)?;
        let vault_before = self.vault_len();
        let tokens = self
            .history
            .entries()
            .last()
            .map_or(0, |e| self.message_tokens(e));
        self.entry_tokens.push(tokens);
        if self.vault_len() > vault_before {
            self.redact_again_for_values_since(vault_before);
        }
        let order = self.next_order(now);
        self.entry_order.push(order);
        self.emit_entry(self.history.len() - 1);
        self.recall_index_last();
        self.save_vault();
        Ok(id)
    }

    pub fn entries(&self) -> &[Entry] {
        self.history.entries()
    }

    pub fn entry_tokens(&self) -> &[usize] {
        &self.entry_tokens
    }

    /// Removes an entry from the log, and every summary that covered it (its text may hold the
    /// forgotten words, so it leaves `summaries()`, exports and storage too); returns those
    /// summaries. The turns it covered are sent as turns until the next summary folds them in
    /// again.
    fn forget_entry(&mut self, id: &str) -> Result<Vec<SummaryRecord>> {
        let index = self.history.remove(id)?;
        self.entry_tokens.remove(index);
        self.entry_order.remove(index);
        self.emit_delete(crate::store::records::kind::ENTRY, id);
        self.drop_sent_entry(id);
        self.recall.remove_entry(id);
        let entries = self.history.entries();
        // Positions are after the removal: the forgotten entry was at `index`.
        let position = |x: &str| entries.iter().position(|e| e.id == x);
        let covers = |s: &SummaryRecord| {
            s.start_id == id
                || s.end_id == id
                || (position(&s.end_id) >= Some(index)
                    && position(&s.start_id).is_none_or(|start| start < index))
        };
        let (gone, kept): (Vec<SummaryRecord>, Vec<SummaryRecord>) =
            std::mem::take(&mut self.summaries)
                .into_iter()
                .partition(covers);
        self.summaries = kept;
        if !gone.is_empty() {
            self.summary_forgotten = true;
        }
        for g in &gone {
            self.emit_delete(crate::store::records::kind::SUMMARY, &g.id);
        }
        self.drop_requests_covering(id, index);
        Ok(gone)
    }

    /// Empties the log, summaries and steps. Pinned facts and options stay.
    fn clear_conversation(&mut self) {
        self.history.clear();
        self.entry_tokens.clear();
        self.entry_order.clear();
        self.emit_clear();
        if let Some(e) = &self.egress {
            e.forget_entries();
        }
        self.recall.clear_turns();
        self.summaries.clear();
        self.steps.clear();
        self.pending = None;
        self.late.clear();
        self.last_summary_error = None;
        self.summary_forgotten = false;
    }

    pub fn pin(&mut self, text: &str) -> Result<String> {
        if text.trim().is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidEntry,
                "a pinned fact needs text",
            ));
        }
        self.pinned_seq += 1;
        let id = crate::history::ids::mint(&self.id_prefix, "p", self.pinned_seq);
        self.pinned.push(PinnedFact {
            id: id.clone(),
            text: text.to_string(),
        });
        self.emit_pinned(self.pinned.len() - 1);
        Ok(id)
    }

    pub fn unpin(&mut self, id: &str) -> Result<()> {
        let before = self.pinned.len();
        self.pinned.retain(|p| p.id != id);
        if self.pinned.len() == before {
            return Err(Error::new(
                ErrorCode::NotFound,
                format!("no pinned fact with id {id:?}"),
            ));
        }
        self.emit_delete(crate::store::records::kind::PINNED, id);
        Ok(())
    }

    pub fn pinned(&self) -> &[PinnedFact] {
        &self.pinned
    }

    pub fn add_step(&mut self, step: Step, now: f64) -> String {
        // Redacting it once now puts its values in the vault, which is stored with the step:
        // `step_messages` cannot store it, and a reply quoting a placeholder must restore.
        self.sent_step(&step);
        let id = self.steps.push(step, now);
        self.emit_step(self.steps.records().len() - 1);
        self.save_vault();
        id
    }

    pub fn steps(&self) -> &[StepRecord] {
        self.steps.records()
    }

    pub fn summaries(&self) -> &[SummaryRecord] {
        &self.summaries
    }

    /// Builds this turn's context. `query` is what strategy "retrieval" looks for (default: the
    /// latest user message).
    pub fn context(&self, query: Option<&str>) -> Result<BuiltContext> {
        self.context_with(query, &ContextExtras::default())
    }

    /// `context` with a query embedding and the memory tools' schemas in the budget.
    pub fn context_with(
        &self,
        query: Option<&str>,
        extras: &ContextExtras,
    ) -> Result<BuiltContext> {
        let mut notes = Vec::new();
        if self.config.strategy == Strategy::Summary {
            if self.summary_in_progress() {
                notes.push(
                    "a summary is still being written; older turns were trimmed to fit this time"
                        .to_string(),
                );
            }
            if self.summary_forgotten || self.summaries.last().is_some_and(|s| s.stale) {
                notes.push(
                    "the summary covered a forgotten entry and was deleted; its turns are sent \
                     as they are until a new summary is written"
                        .to_string(),
                );
            }
            if let Some(err) = &self.last_summary_error {
                notes.push(format!(
                    "the summarizer failed ({err}); older turns were trimmed to fit instead, \
                     and none were lost"
                ));
            }
        }
        let (summary, covered) = self.covered();
        let (summary, summary_redactions) = match summary {
            Some(s) => {
                let (sent, counts) = self.sent_summary(s);
                (Some(sent), counts)
            }
            None => (None, Default::default()),
        };
        let sent_form = |e: &Entry| self.sent_entry(e);
        let (pinned, mut other_redactions) = self.sent_pinned();
        let mut built = context::build(context::BuildInput {
            strategy: self.config.strategy,
            limits: &self.config.limits,
            overhead: self.config.overhead,
            counter: &*self.counter,
            system_prompt: self
                .system_sent
                .as_ref()
                .map(|(s, _)| (s.as_str(), self.system_tokens)),
            pinned: &pinned,
            summary: summary
                .as_deref()
                .map(|record| SummaryInput { record, covered }),
            entries: self.history.entries(),
            sent_form: self
                .egress
                .is_some()
                .then_some(&sent_form as &dyn Fn(&Entry) -> Option<Entry>),
            entry_tokens: &self.entry_tokens,
            dedup: self.config.dedup,
            notes,
            retrieval: self.retrieval_input(query, extras),
            tools: extras.tools.then(|| self.tool_schema_tokens()),
            detail: extras.detail,
        })?;
        if built.report.summary.as_ref().is_some_and(|s| s.included) {
            egress::merge(&mut other_redactions, &summary_redactions);
        }
        self.report_redactions(&mut built, &other_redactions);
        Ok(built)
    }
}
