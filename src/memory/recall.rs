//! The engine's recall operations: it keeps the index in step with the history, turns the
//! query into ranked memories for strategy "retrieval", and runs the fact, episode, extraction
//! and tool operations. Facts and episodes are persisted as records of their own kinds
//! (`fact`, `episode`) next to the entries.

use super::Memory;
use crate::context::{RetrievalInput, RetrievedItem, RetrievedSource, Strategy};
use crate::error::{Error, ErrorCode, Result};
use crate::history::{Entry, Role};
use crate::recall::chunks::VectorChunk;
use crate::recall::episodes::{Episode, EpisodeRequest};
use crate::recall::facts::{Fact, FactChange, NewFact, Remembered, StoredFact};
use crate::recall::{
    dates, find_entry, find_entry_index, neighbours, tools, ItemKind, RecallHit, RecallQuery,
    RecallState,
};
use crate::store::{Record, RecordOp};
use serde::Serialize;

pub const FACT_KIND: &str = crate::store::records::kind::FACT;
pub const EPISODE_KIND: &str = crate::store::records::kind::EPISODE;
/// Embeddings packed by the hundred per record (see `recall::chunks`).
pub const VECTORS_KIND: &str = crate::store::records::kind::VECTORS;

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

    /// Turns vector search on (the app embeds); every item is queued for `set_embeddings`.
    pub fn enable_vectors(&mut self, quantize: bool) {
        self.recall.enable_vectors(quantize);
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
    pub fn latest_user_text(&self) -> Option<String> {
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
    /// another tab wrote. O(1) when nothing changed; call before searching.
    pub fn sync_recall(&mut self) {
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
                self.recall.facts.restore(d.fact, d.changes);
                self.recall.sync_fact(&id);
            }
        }
        for data in episodes {
            if let Ok(e) = serde_json::from_value::<Episode>(data) {
                let id = e.id.clone();
                self.recall.episodes.restore(e);
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
                        .restore_last_chunk(n, &chunk, self.history.entries());
                } else {
                    self.recall.restore_vectors(&chunk, self.history.entries());
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
    pub fn forget_memory(&mut self, id: &str, now: f64) -> Result<()> {
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

    /// Whether `id` names a fact or an episode (not an entry).
    pub fn is_memory_id(&self, id: &str) -> bool {
        self.recall.facts.contains(id) || self.recall.episodes.get(id).is_some()
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
    pub fn begin_episode(&mut self) -> Option<EpisodeRequest> {
        if !self.redacts() {
            return self.recall.episodes.begin(self.history.entries());
        }
        let sent = self.sent_entries().into_owned();
        self.recall.episodes.begin(&sent)
    }

    pub fn complete_episode(&mut self, request_id: u64, answer: &str, now: f64) -> Result<Episode> {
        let e = self.recall.episodes.complete(request_id, answer, now)?;
        self.recall.sync_episode(&e.id);
        self.persist_recall(EPISODE_KIND, &e.id);
        Ok(e)
    }

    pub fn fail_episode(&mut self, request_id: u64) {
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
    pub fn tool_schema_tokens(&self) -> (usize, usize) {
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

    /// Ranked memories for strategy "retrieval"; `None` for other strategies.
    pub(super) fn retrieval_input(
        &self,
        query: Option<&str>,
        extras: &ContextExtras,
    ) -> Option<RetrievalInput> {
        if self.config.strategy != Strategy::Retrieval {
            return None;
        }
        let entries = self.history.entries();
        let latest = entries.iter().rev().find(|e| e.role == Role::User);
        let text = query.or(latest.map(|e| e.content.as_str())).unwrap_or("");
        let cfg = &self.recall.config;
        let q = RecallQuery {
            text,
            vector: extras.query_vector.as_deref(),
            k: cfg.max_items,
            exclude: latest.map(|e| e.id.as_str()),
            ..Default::default()
        };
        let now = self.recall_now();
        let hits = self.recall.search(&q, now);
        // A date in the query ("in May 2023") lifts the hits said then.
        let span = dates::named_span(text, now);
        let best = hits.iter().map(|h| h.score).fold(0.0, f32::max);
        let dated = |h: &RecallHit| span.is_some_and(|(a, b)| (a..b).contains(&h.timestamp));
        // Turn hits lift the turns around them (`neighbours`); facts and episodes stand alone.
        let mut turn_hits = Vec::new();
        let mut by_entry: std::collections::HashMap<usize, &RecallHit> = Default::default();
        let mut ranked: Vec<(Ranked, f32)> = Vec::new();
        for h in &hits {
            let score = h.score + if dated(h) { dates::SHARE * best } else { 0.0 };
            match h.kind {
                ItemKind::Turn => {
                    if let Some(i) = find_entry_index(entries, &h.id) {
                        turn_hits.push(neighbours::Hit { entry: i, score });
                        by_entry.insert(i, h);
                    }
                }
                _ => ranked.push((Ranked::Memory(h), score)),
            }
        }
        let lifted = neighbours::lift(
            &turn_hits,
            entries.len(),
            |i| entries[i].timestamp,
            |i| {
                matches!(entries[i].role, Role::User | Role::Assistant)
                    && !entries[i].content.trim().is_empty()
            },
        );
        ranked.extend(lifted.into_iter().map(|l| (Ranked::Turn(l), l.score)));
        // Nothing to say for it: no shared word, a vector at the unrelated level, no hit near.
        ranked.retain(|r| r.1 > 0.0);
        // A correction ranks just above what it corrects, whatever lifted the old one (oldest
        // first, so a chain of corrections carries over).
        let correction = |entry: usize| {
            by_entry
                .get(&entry)
                .and_then(|h| h.restated_by.as_deref())
                .and_then(|id| find_entry_index(entries, id))
        };
        let mut at: Vec<(usize, usize)> = ranked
            .iter()
            .enumerate()
            .filter_map(|(k, r)| match r.0 {
                Ranked::Turn(l) => Some((l.entry, k)),
                Ranked::Memory(_) => None,
            })
            .collect();
        at.sort_unstable();
        for &(entry, k) in &at {
            let newer = correction(entry)
                .and_then(|n| at.binary_search_by_key(&n, |p| p.0).ok())
                .map(|p| at[p].1);
            if let Some(nk) = newer {
                if ranked[nk].1 <= ranked[k].1 {
                    ranked[nk].1 = ranked[k].1 * (1.0 + 1e-4);
                }
            }
        }
        // Best first; ties: the newer first, as the search orders.
        ranked.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| b.0.timestamp(entries).total_cmp(&a.0.timestamp(entries)))
        });
        let items = ranked
            .into_iter()
            .filter_map(|(r, score)| {
                let (h, neighbour_of) = match r {
                    Ranked::Memory(h) => (Some(h), None),
                    Ranked::Turn(l) => (
                        by_entry.get(&l.entry).copied(),
                        l.lender.map(|i| (i, entries[i].id.clone())),
                    ),
                };
                let (source, id, text, start_time, timestamp) = match (r, h) {
                    (Ranked::Turn(l), _) => {
                        let i = l.entry;
                        // Memories are sent too: their text goes out redacted.
                        let e = self.sent_entry(&entries[i]);
                        let e = e.as_ref().unwrap_or(&entries[i]);
                        (
                            RetrievedSource::Entry(i),
                            entries[i].id.clone(),
                            format!("{}: {}", e.role.as_str(), e.content),
                            None,
                            entries[i].timestamp,
                        )
                    }
                    (_, Some(h)) if h.kind == ItemKind::Fact => {
                        let f = self.recall.facts.get(&h.id)?;
                        let text = self.sent_text(&f.text).0.into_owned();
                        (
                            RetrievedSource::Fact(h.id.clone()),
                            h.id.clone(),
                            text,
                            None,
                            h.timestamp,
                        )
                    }
                    (_, Some(h)) => {
                        let e = self.recall.episodes.get(&h.id)?;
                        (
                            RetrievedSource::Episode(h.id.clone()),
                            h.id.clone(),
                            self.sent_text(&e.text()).0.into_owned(),
                            Some(e.start_time),
                            h.timestamp,
                        )
                    }
                    (_, None) => return None,
                };
                Some(RetrievedItem {
                    source,
                    id,
                    text,
                    timestamp,
                    start_time,
                    score,
                    bm25: h.and_then(|h| h.bm25),
                    cosine: h.and_then(|h| h.cosine),
                    relevance: h.map_or(0.0, |h| h.relevance),
                    neighbour_of,
                    date_match: h.is_some_and(dated),
                    corrected_by: match r {
                        Ranked::Turn(l) => correction(l.entry),
                        Ranked::Memory(_) => None,
                    },
                })
            })
            .collect();
        let items = best_of_each_signal_first(items);
        Some(RetrievalInput {
            items,
            recent_share: cfg.recent_share,
            max_items: cfg.max_items,
        })
    }
}

/// A candidate memory of a context: a fact or episode as the search found it, or a turn after
/// its neighbours lifted it.
#[derive(Clone, Copy)]
enum Ranked<'a> {
    Memory(&'a RecallHit),
    Turn(neighbours::Lifted),
}

impl Ranked<'_> {
    fn timestamp(&self, entries: &[Entry]) -> f64 {
        match self {
            Ranked::Memory(h) => h.timestamp,
            Ranked::Turn(l) => entries[l.entry].timestamp,
        }
    }
}

/// Moves the best hit by words and the best by meaning to the front (in that order): each
/// signal's surest find is sent whatever the mix makes of the rest, so turning the embedder on
/// never costs the turn that BM25 alone ranks first.
fn best_of_each_signal_first(mut items: Vec<RetrievedItem>) -> Vec<RetrievedItem> {
    let best = |items: &[RetrievedItem], part: fn(&RetrievedItem) -> Option<f32>| {
        items
            .iter()
            .enumerate()
            .filter_map(|(i, it)| part(it).map(|p| (i, p)))
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|(i, _)| i)
    };
    // An old value goes with its correction, which goes just before it.
    let to_front = |items: &mut Vec<RetrievedItem>, i: usize| {
        let mut it = items.remove(i);
        // Sent for its own signal, not as a neighbour: it goes whether its neighbour does or not.
        it.neighbour_of = None;
        let newer = it.corrected_by.and_then(|e| {
            items
                .iter()
                .position(|x| x.source == RetrievedSource::Entry(e))
        });
        items.insert(0, it);
        if let Some(p) = newer {
            let c = items.remove(p + 1);
            items.insert(0, c);
        }
    };
    // For meaning, the surest find that words missed (no shared word, or under half the best
    // BM25): what words find ranks high already,
    // and a question with two sides ("where am I based, and what about gardening?") keeps the
    // side only meaning finds.
    let top_words = items.iter().filter_map(|it| it.bm25).fold(0.0, f32::max);
    let words_missed = |it: &RetrievedItem| it.bm25.is_none_or(|b| b < top_words / 2.0);
    let by_meaning = items
        .iter()
        .enumerate()
        .filter(|(_, it)| words_missed(it))
        .filter_map(|(i, it)| it.cosine.map(|c| (i, c)))
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(i, _)| i)
        .or_else(|| best(&items, |it| it.cosine));
    if let Some(i) = by_meaning {
        to_front(&mut items, i);
    }
    if let Some(i) = best(&items, |it| it.bm25) {
        to_front(&mut items, i);
    }
    items
}
