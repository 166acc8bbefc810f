//! The engine's recall operations: it keeps the index in step with the history and runs the
//! fact, episode, extraction and tool operations (the ranked memories a context sends are in
//! `retrieval`). Facts and episodes are persisted as records of their own kinds
//! (`fact`, `episode`) next to the entries.

use super::Memory;
use crate::error::{Error, ErrorCode, Result};
use crate::history::{Entry, Role};
use crate::recall::chunks::VectorChunk;
use crate::recall::episodes::{Episode, EpisodeRequest};
use crate::recall::facts::{Fact, FactChange, NewFact, Remembered, StoredFact};
use crate::recall::{find_entry, find_entry_index, tools, ItemKind, RecallQuery, RecallState};
use crate::store::{Record, RecordOp};
use serde::Serialize;

pub const FACT_KIND: &str = crate::store::records::kind::FACT;
pub const EPISODE_KIND: &str = crate::store::records::kind::EPISODE;
/// Embeddings packed by the hundred per record (see `recall::chunks`).
pub const VECTORS_KIND: &str = crate::store::records::kind::VECTORS;

/// An episode as `recallEpisodes` gives it: with its score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoredEpisode<'a> {
    #[serde(flatten)]
    pub episode: &'a Episode,
    pub score: f64,
}

/// Per-call inputs of `context_with` that are not configuration.
#[derive(Debug, Clone, Default)]
pub struct ContextExtras {
    /// The query's embedding, when the app embeds.
    pub query_vector: Option<Vec<f32>>,
    /// Count the memory tools' schemas against the budget (they are sent with the request).
    pub tools: bool,
    /// List every entry in the report, not only those sent.
    pub detail: crate::context::Detail,
}

/// One operation from the app's `extract` hook or an `llm` answer.
pub use crate::llm::extract::ExtractOp;
/// A search result with its text.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recalled {
    pub id: String,
    pub kind: ItemKind,
    pub text: String,
    pub score: f64,
    /// When it was said or last changed (ms since the epoch).
    pub timestamp: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

fn record_key(kind: &str, id: &str) -> String {
    format!("{kind}:{id}")
}

/// Changes when records are added, removed or replaced (a replaced record moves to the end).
fn foreign_print(foreign: &[Record]) -> String {
    match foreign.last() {
        Some(r) => format!(
            "{}|{}|{}|{}",
            foreign.len(),
            r.kind,
            r.id,
            r.data["fact"]["updatedAt"].as_f64().unwrap_or(r.order)
        ),
        None => String::new(),
    }
}

impl Memory {
    pub fn recall_state(&self) -> &RecallState {
        &self.recall
    }

    /// Retrieval knobs (share of the budget, ranking weights, item cap).
    pub fn recall_config_mut(&mut self) -> &mut crate::recall::RecallConfig {
        &mut self.recall.config
    }

    /// Turns vector search on (the app embeds); every item is queued for `set_embeddings`,
    /// and the vectors stored with the session are read back.
    pub fn enable_vectors(&mut self, quantize: bool) {
        self.recall.enable_vectors(quantize);
        self.sync_recall();
    }

    /// Stores embeddings of items from `pending_embeddings` (`texts`: what was embedded);
    /// the chunks they went into become stored records, so a reload embeds nothing again.
    pub fn set_embeddings(
        &mut self,
        items: &[u32],
        texts: &[String],
        vectors: &[Vec<f32>],
    ) -> std::result::Result<(), String> {
        for (id, chunk) in self.recall.set_embeddings(items, texts, vectors)? {
            if let Ok(data) = serde_json::to_value(&chunk) {
                self.persist_record(VECTORS_KIND, &id, data);
            }
        }
        Ok(())
    }

    /// Items (turns, facts, episodes) still waiting for a vector: searches rank them by
    /// words only until they have one.
    pub fn pending_embeddings(&mut self) -> usize {
        self.sync_recall();
        self.recall.pending_count()
    }

    /// The newest user message: the default query of strategy "retrieval".
    pub(crate) fn latest_user_text(&self) -> Option<String> {
        self.history
            .entries()
            .iter()
            .rev()
            .find(|e| e.role == Role::User)
            .map(|e| e.content.clone())
    }

    pub(super) fn recall_index_last(&mut self) {
        if let Some(e) = self.history.entries().last() {
            self.recall.add_entry(e);
        }
    }

    /// Brings the index and the fact/episode stores in line with what persistence loaded or
    /// another tab wrote. Loads and remote changes end with it, so reads never need it; O(1)
    /// when nothing changed.
    pub(crate) fn sync_recall(&mut self) {
        if self.recall.entries_seen != self.history.len() {
            self.recall.clear_turns();
            for e in self.history.entries() {
                self.recall.add_entry(e);
            }
            // The turns lost their vectors with their index: the stored ones are read again.
            self.recall.reread_vectors();
        }
        let print = foreign_print(&self.foreign);
        if print == self.recall.foreign_print {
            return;
        }
        let mut facts = Vec::new();
        let mut episodes = Vec::new();
        let mut vectors = Vec::new();
        for r in &self.foreign {
            match r.kind.as_str() {
                FACT_KIND => {
                    self.recall.persisted.insert(record_key(FACT_KIND, &r.id));
                    let stored_at = r.data["fact"]["updatedAt"].as_f64();
                    let ours = self.recall.facts.get(&r.id).map(|f| f.updated_at);
                    if ours.is_none() || stored_at > ours {
                        facts.push(r.data.clone());
                    }
                }
                EPISODE_KIND => {
                    self.recall
                        .persisted
                        .insert(record_key(EPISODE_KIND, &r.id));
                    if self.recall.episodes.get(&r.id).is_none() {
                        episodes.push(r.data.clone());
                    }
                }
                // Stored vectors wait until the app embeds again (the `embed` option).
                VECTORS_KIND
                    if self.recall.vectors_enabled()
                        && !self
                            .recall
                            .persisted
                            .contains(&record_key(VECTORS_KIND, &r.id)) =>
                {
                    self.recall
                        .persisted
                        .insert(record_key(VECTORS_KIND, &r.id));
                    let n = r.id.strip_prefix('v').and_then(|n| n.parse::<u64>().ok());
                    if let Some(n) = n {
                        self.recall.next_chunk = self.recall.next_chunk.max(n + 1);
                    }
                    vectors.push((n.unwrap_or(0), r.data.clone()));
                }
                _ => {}
            }
        }
        for data in facts {
            if let Ok(d) = serde_json::from_value::<StoredFact>(data) {
                let id = d.fact.id.clone();
                self.recall.facts.reload(d.fact, d.changes);
                self.recall.sync_fact(&id);
            }
        }
        for data in episodes {
            if let Ok(e) = serde_json::from_value::<Episode>(data) {
                let id = e.id.clone();
                self.recall.episodes.reload(e);
                self.recall.sync_episode(&id);
            }
        }
        // The newest chunk last: when it is not full, new vectors go on filling it.
        vectors.sort_by_key(|v| v.0);
        let newest = vectors.last().map(|v| v.0);
        let reopen = newest.is_some_and(|n| n + 1 == self.recall.next_chunk);
        for (n, data) in vectors {
            if let Ok(chunk) = serde_json::from_value::<VectorChunk>(data) {
                if reopen && Some(n) == newest {
                    self.recall
                        .reload_last_chunk(n, &chunk, self.history.entries());
                } else {
                    self.recall.reload_vectors(&chunk, self.history.entries());
                }
            }
        }
        self.recall.foreign_print = print;
    }

    /// Records a fact or episode as changed: kept among the stored records (so an export
    /// has it) and reported to the store.
    fn persist_recall(&mut self, kind: &str, id: &str) {
        let data = match kind {
            FACT_KIND => self.recall.facts.get(id).map(|f| {
                let changes = self.recall.facts.history(id).unwrap_or_default();
                serde_json::to_value(StoredFact {
                    fact: f.clone(),
                    changes,
                })
            }),
            _ => self.recall.episodes.get(id).map(serde_json::to_value),
        };
        let Some(Ok(data)) = data else {
            return;
        };
        self.persist_record(kind, id, data);
    }

    /// Keeps a record among the stored ones (so an export has it) and reports it to the store.
    pub(super) fn persist_record(&mut self, kind: &str, id: &str, data: serde_json::Value) {
        let order = id
            .trim_start_matches(|c: char| !c.is_ascii_digit())
            .parse::<f64>()
            .unwrap_or(0.0);
        let record = Record {
            kind: kind.to_string(),
            id: id.to_string(),
            order,
            data,
        };
        // Only a record stored before needs finding; a new one is appended.
        if !self.recall.persisted.insert(record_key(kind, id)) {
            self.foreign.retain(|r| !(r.kind == kind && r.id == id));
        }
        self.foreign.push(record.clone());
        self.recall.foreign_print = foreign_print(&self.foreign);
        if let Some(c) = &mut self.changes {
            c.push(RecordOp::Put(record));
        }
    }

    fn fact_changed(&mut self, ids: &[String]) {
        for id in ids {
            self.recall.sync_fact(id);
            self.persist_recall(FACT_KIND, id);
        }
    }

    /// Stores a long-term fact; a newer fact on the same subject supersedes older ones.
    pub fn remember(&mut self, text: &str, opts: NewFact, now: f64) -> Result<Remembered> {
        let r = self.recall.facts.remember(text, opts, now)?;
        let mut changed = vec![r.id.clone()];
        changed.extend(r.superseded.iter().cloned());
        self.fact_changed(&changed);
        Ok(r)
    }

    pub fn update_fact(&mut self, id: &str, text: &str, now: f64) -> Result<Vec<String>> {
        let superseded = self.recall.facts.update(id, text, now)?;
        let mut changed = vec![id.to_string()];
        changed.extend(superseded.iter().cloned());
        self.fact_changed(&changed);
        Ok(superseded)
    }

    /// Records the turns a fact was extracted from, and stores it again with them.
    fn fact_came_from(&mut self, id: &str, from: &[String]) {
        if !from.is_empty() {
            self.recall.facts.add_sources(id, from);
            self.fact_changed(&[id.to_string()]);
        }
    }

    /// Deletes a fact (kept in its history) or an episode.
    pub(crate) fn forget_memory(&mut self, id: &str, now: f64) -> Result<()> {
        if self.recall.episodes.remove(id) {
            self.recall.sync_episode(id);
            self.foreign
                .retain(|r| !(r.kind == EPISODE_KIND && r.id == id));
            if let Some(c) = &mut self.changes {
                c.push(RecordOp::Delete {
                    kind: EPISODE_KIND.into(),
                    id: id.into(),
                });
            }
            return Ok(());
        }
        self.recall.facts.delete(id, now)?;
        self.fact_changed(&[id.to_string()]);
        Ok(())
    }

    pub fn facts(&self) -> &[Fact] {
        self.recall.facts.all()
    }

    pub fn fact_history(&self, id: &str) -> Result<Vec<FactChange>> {
        self.recall.facts.history(id)
    }

    pub fn episodes(&self) -> &[Episode] {
        self.recall.episodes.all()
    }

    /// The `k` episodes most like `situation`, best first, each with its score.
    pub fn recall_episodes(
        &self,
        situation: &str,
        vector: Option<&[f32]>,
        k: usize,
        now: f64,
    ) -> Vec<ScoredEpisode<'_>> {
        let q = RecallQuery {
            text: situation,
            vector,
            k,
            kinds: vec![ItemKind::Episode],
            category: None,
            exclude: None,
        };
        let hits = self.recall(&q, now).into_iter();
        hits.filter_map(|hit| {
            let episode = self.recall.episodes.get(&hit.id)?;
            Some(ScoredEpisode {
                episode,
                score: hit.score,
            })
        })
        .collect()
    }

    /// Hybrid search over turns, current facts and episodes.
    pub fn recall(&self, q: &RecallQuery<'_>, now: f64) -> Vec<Recalled> {
        self.recall
            .search(q, now)
            .into_iter()
            .filter_map(|h| {
                let (text, role, category) = match h.kind {
                    ItemKind::Turn => {
                        let e = find_entry(self.history.entries(), &h.id)?;
                        (e.content.clone(), Some(e.role), None)
                    }
                    ItemKind::Fact => {
                        let f = self.recall.facts.get(&h.id)?;
                        (f.text.clone(), None, f.category.clone())
                    }
                    ItemKind::Episode => (self.recall.episodes.get(&h.id)?.text(), None, None),
                };
                Some(Recalled {
                    id: h.id,
                    kind: h.kind,
                    text,
                    score: crate::context::retrieved::round_score(h.score),
                    timestamp: h.timestamp,
                    role,
                    category,
                })
            })
            .collect()
    }

    /// Asks for an episode over the turns since the last one (`None`: no new turns).
    /// The summarizer writing it is an LLM call: it sees the turns as sent, redacted.
    pub(crate) fn begin_episode(&mut self) -> Option<EpisodeRequest> {
        if !self.redacts() {
            return self.recall.episodes.begin(self.history.entries());
        }
        let sent = self.sent_entries().into_owned();
        self.recall.episodes.begin(&sent)
    }

    pub(crate) fn complete_episode(
        &mut self,
        request_id: u64,
        answer: &str,
        now: f64,
    ) -> Result<Episode> {
        let e = self.recall.episodes.complete(request_id, answer, now)?;
        self.recall.sync_episode(&e.id);
        self.persist_recall(EPISODE_KIND, &e.id);
        Ok(e)
    }

    pub(crate) fn fail_episode(&mut self, request_id: u64) {
        self.recall.episodes.fail(request_id);
    }

    /// Runs a memory tool call; always returns a tool-result string.
    pub fn call_tool(&mut self, name: &str, args: &str, now: f64) -> String {
        let before = self.recall.facts.changes().len();
        let out = tools::call(&mut self.recall, self.history.entries(), name, args, now);
        let mut changed: Vec<String> = self.recall.facts.changes()[before..]
            .iter()
            .map(|c| c.fact_id.clone())
            .collect();
        changed.dedup();
        for id in changed {
            self.persist_recall(FACT_KIND, &id);
        }
        out
    }

    /// Tokens of the memory tools' schemas as sent (their JSON text) and how many there are.
    pub(crate) fn tool_schema_tokens(&self) -> (usize, usize) {
        (
            self.counter.count(tools::definitions_text()),
            tools::TOOL_NAMES.len(),
        )
    }

    /// The turns of completed exchanges the `extract` hook has not seen: everything unseen up
    /// to the newest assistant reply (a user message still waiting for its reply waits).
    pub(super) fn extraction_turns(&self) -> Vec<Entry> {
        let entries = self.history.entries();
        let Some(end) = entries.iter().rposition(|e| e.role == Role::Assistant) else {
            return Vec::new();
        };
        let from = match &self.recall.extracted_upto {
            Some((id, ts)) => match find_entry_index(entries, id) {
                Some(i) => i + 1,
                None => entries.partition_point(|e| e.timestamp <= *ts),
            },
            None => 0,
        };
        entries[from.min(end + 1)..=end]
            .iter()
            .filter(|e| matches!(e.role, Role::User | Role::Assistant) && !e.content.is_empty())
            // `extract` is usually an LLM call: it gets the turns as sent, redacted.
            .map(|e| self.sent_entry(e).unwrap_or_else(|| e.clone()))
            .collect()
    }

    /// Applies the `extract` hook's operations for turns up to `upto` (an entry id). Bad
    /// operations are skipped and described in the returned notes.
    pub(super) fn apply_extraction(
        &mut self,
        ops: &[ExtractOp],
        upto: Option<&str>,
        from: &[String],
        now: f64,
    ) -> Vec<String> {
        let mut notes = Vec::new();
        for op in ops {
            let text = op.text.as_deref().unwrap_or("");
            let result = match (op.op.as_str(), op.id.as_deref()) {
                ("add", _) | ("update", None) => self
                    .remember(
                        text,
                        NewFact {
                            category: op.category.clone(),
                            importance: op.importance,
                            subject: None,
                        },
                        now,
                    )
                    .map(|r| self.fact_came_from(&r.id, from)),
                ("update", Some(id)) => self
                    .update_fact(id, text, now)
                    .map(|_| self.fact_came_from(id, from)),
                ("delete", Some(id)) => self.forget_memory(id, now),
                ("delete", None) => {
                    Err(Error::new(ErrorCode::InvalidDocument, "delete needs an id"))
                }
                (other, _) => Err(Error::new(
                    ErrorCode::InvalidDocument,
                    format!("unknown op {other:?}: use \"add\", \"update\" or \"delete\""),
                )),
            };
            if let Err(e) = result {
                notes.push(format!("extract: {} skipped: {}", op.op, e.message));
            }
        }
        if let Some(id) = upto {
            let ts = find_entry(self.history.entries(), id).map_or(now, |e| e.timestamp);
            self.recall.extracted_upto = Some((id.to_string(), ts));
        }
        notes
    }

    /// The clock of a context: the newest thing in memory (the core reads no clock).
    pub(super) fn recall_now(&self) -> f64 {
        let last = self.history.entries().last().map_or(0.0, |e| e.timestamp);
        self.recall
            .facts
            .all()
            .iter()
            .fold(last, |m, f| m.max(f.updated_at))
    }
}
