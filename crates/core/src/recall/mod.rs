//! Recall: the long-term half of the memory. A BM25 index over past turns, long-term facts and
//! episodes (updated as they are added, never rebuilt per query), optional embeddings searched
//! by exact cosine, hybrid ranking with recency and importance, the fact store with
//! supersession, episodes, and the memory tools a model can call. Sans-IO like the rest of the
//! core: time comes in as arguments, embeddings come in from the app.

pub mod bm25;
pub mod chunks;
pub mod dates;
pub mod episodes;
mod fact_text;
pub mod facts;
pub mod fuse;
pub mod neighbours;
mod pending_vectors;
mod restatements;
pub mod tokenize;
pub mod tools;
pub mod vectors;

use crate::history::{Entry, Role};
use bm25::Bm25;
use episodes::EpisodeStore;
use facts::{FactStatus, FactStore};
use serde::Serialize;
use std::collections::HashMap;
use vectors::VectorIndex;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ItemKind {
    Turn,
    Fact,
    Episode,
}

impl ItemKind {
    pub fn parse(s: &str) -> Option<ItemKind> {
        match s {
            "turn" => Some(ItemKind::Turn),
            "fact" => Some(ItemKind::Fact),
            "episode" => Some(ItemKind::Episode),
            _ => None,
        }
    }
}

/// One indexed thing; its position in `RecallState::items` is its number in both indexes.
#[derive(Debug, Clone)]
struct Item {
    kind: ItemKind,
    id: String,
    timestamp: f64,
    importance: f32,
    category: Option<String>,
    alive: bool,
}

/// How the retrieval strategy spends the budget and ranks.
#[derive(Debug, Clone, PartialEq)]
pub struct RecallConfig {
    pub weights: fuse::Weights,
    /// Part of the budget left after the mandatory messages that goes to recent turns first;
    /// retrieved memories get the rest, and recent turns take what they leave over.
    pub recent_share: f32,
    /// Most items a context retrieves.
    pub max_items: usize,
    /// Memories whose relevance (0..1) is below this are not sent to fill the budget: the
    /// newest turns fill it instead. A neighbour goes with its hit whatever its own.
    pub min_relevance: f32,
    /// Score vectors in int8 first and re-score the best exactly.
    pub quantize: bool,
}

impl Default for RecallConfig {
    fn default() -> Self {
        RecallConfig {
            weights: fuse::Weights::default(),
            recent_share: 0.1,
            max_items: 200,
            // Low: relevance is measured against the query's best find, and LoCoMo's tune half
            // loses up to a point of evidence from 0.1.
            min_relevance: 0.05,
            quantize: false,
        }
    }
}

/// A search request.
#[derive(Debug, Clone, Default)]
pub struct RecallQuery<'a> {
    pub text: &'a str,
    pub vector: Option<&'a [f32]>,
    pub k: usize,
    /// Kinds to search; empty = all.
    pub kinds: Vec<ItemKind>,
    pub category: Option<&'a str>,
    /// An item left out: the message the query is taken from, which would match itself best
    /// and set both signals' yardsticks.
    pub exclude: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecallHit {
    pub id: String,
    pub kind: ItemKind,
    pub score: f32,
    pub timestamp: f64,
    /// The item's BM25 score for the query's words (`None`: it shares none, or ranked below
    /// the candidates pulled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bm25: Option<f32>,
    /// The cosine of its vector with the query's (`None`: no query vector, or the item is not
    /// embedded yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cosine: Option<f32>,
    /// Its fused relevance on 0..1, before recency and importance.
    #[serde(skip)]
    pub relevance: f32,
    /// A newer candidate that says the same thing with another value (its correction).
    #[serde(skip)]
    pub restated_by: Option<String>,
    #[serde(skip)]
    pub item: u32,
}

#[derive(Debug, Clone)]
pub struct RecallState {
    pub config: RecallConfig,
    lexical: Bm25,
    vectors: VectorIndex,
    items: Vec<Item>,
    by_id: HashMap<String, u32>,
    pub facts: FactStore,
    pub episodes: EpisodeStore,
    /// Whether the app embeds: new items then queue for `embed`.
    vectors_on: bool,
    unembedded: Vec<u32>,
    /// History entries passed to `add_entry` minus those removed: when it differs from the
    /// history's length, entries changed behind the index's back (a load) and it is rebuilt.
    pub(crate) entries_seen: usize,
    /// The last entry that `extract` has seen.
    pub(crate) extracted_upto: Option<(String, f64)>,
    /// Fact and episode records already among the engine's stored records, and a fingerprint
    /// of those records to notice when persistence changed them.
    pub(crate) persisted: std::collections::HashSet<String>,
    pub(crate) foreign_print: String,
    /// Embeddings of the chunk being filled, stored as record `v{next_chunk}` and rewritten
    /// as it grows: (item id, text hash, vector).
    open_chunk: Vec<(String, String, Vec<f32>)>,
    pub(crate) next_chunk: u64,
}

impl Default for RecallState {
    fn default() -> Self {
        Self::new()
    }
}

/// Candidates pulled from each ranking before fusion, per result wanted, and at least: the
/// last vector candidate sets the cosine floor of the fusion (`fuse::Scale`), so the pool is
/// wide enough for that floor to be an unrelated item's level, whatever `k` is.
const POOL_FACTOR: usize = 2;
const MIN_POOL: usize = 300;

impl RecallState {
    pub fn new() -> Self {
        RecallState {
            config: RecallConfig::default(),
            lexical: Bm25::new(),
            vectors: VectorIndex::new(false),
            items: Vec::new(),
            by_id: HashMap::new(),
            facts: FactStore::new(),
            episodes: EpisodeStore::new(),
            vectors_on: false,
            unembedded: Vec::new(),
            entries_seen: 0,
            extracted_upto: None,
            persisted: Default::default(),
            foreign_print: String::new(),
            open_chunk: Vec::new(),
            next_chunk: 1,
        }
    }

    fn index(
        &mut self,
        kind: ItemKind,
        id: &str,
        text: &str,
        ts: f64,
        imp: f64,
        cat: Option<String>,
    ) {
        if let Some(old) = self.by_id.remove(id) {
            self.unindex_item(old);
        }
        let n = self.lexical.add(text);
        debug_assert_eq!(n as usize, self.items.len());
        self.items.push(Item {
            kind,
            id: id.to_string(),
            timestamp: ts,
            importance: imp as f32,
            category: cat,
            alive: true,
        });
        self.by_id.insert(id.to_string(), n);
        if self.vectors_on {
            self.unembedded.push(n);
        }
    }

    fn unindex_item(&mut self, n: u32) {
        self.lexical.remove(n);
        self.vectors.remove(n);
        if let Some(it) = self.items.get_mut(n as usize) {
            it.alive = false;
        }
    }

    fn unindex(&mut self, id: &str) {
        if let Some(n) = self.by_id.remove(id) {
            self.unindex_item(n);
        }
    }

    /// Indexes a conversation turn (user and assistant text; tool traffic is left out).
    pub fn add_entry(&mut self, e: &Entry) {
        self.entries_seen += 1;
        if matches!(e.role, Role::User | Role::Assistant) && !e.content.trim().is_empty() {
            self.index(ItemKind::Turn, &e.id, &e.content, e.timestamp, 0.5, None);
        }
    }

    pub fn remove_entry(&mut self, id: &str) {
        self.entries_seen = self.entries_seen.saturating_sub(1);
        self.unindex(id);
    }

    /// Forgets every turn; facts and episodes are long-term and stay.
    pub fn clear_turns(&mut self) {
        self.entries_seen = 0;
        let turns: Vec<u32> = self
            .items
            .iter()
            .enumerate()
            .filter(|(_, it)| it.alive && it.kind == ItemKind::Turn)
            .map(|(n, _)| n as u32)
            .collect();
        for n in turns {
            let id = self.items[n as usize].id.clone();
            self.by_id.remove(&id);
            self.unindex_item(n);
        }
    }

    /// Brings the index in line with the fact store after a change: current facts indexed,
    /// superseded and deleted ones out.
    pub fn sync_fact(&mut self, id: &str) {
        let Some(f) = self.facts.get(id).cloned() else {
            return self.unindex(id);
        };
        if f.status == FactStatus::Active {
            self.index(
                ItemKind::Fact,
                &f.id,
                &f.text,
                f.updated_at,
                f.importance,
                f.category,
            );
        } else {
            self.unindex(id);
        }
    }

    pub fn sync_episode(&mut self, id: &str) {
        match self.episodes.get(id).cloned() {
            Some(e) => self.index(
                ItemKind::Episode,
                &e.id,
                &e.text(),
                e.end_time,
                e.importance,
                None,
            ),
            None => self.unindex(id),
        }
    }

    pub fn is_indexed(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// Number of live indexed items.
    pub fn len(&self) -> usize {
        self.lexical.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lexical.is_empty()
    }

    /// Hybrid search: BM25 and (when given a query vector) cosine, fused by calibrated score, weighted by
    /// recency against `now` and by importance. Best first.
    pub fn search(&self, q: &RecallQuery<'_>, now: f64) -> Vec<RecallHit> {
        if q.k == 0 {
            return Vec::new();
        }
        let excluded = q.exclude.and_then(|id| self.by_id.get(id).copied());
        let keep = |n: u32| {
            let it = &self.items[n as usize];
            excluded != Some(n)
                && it.alive
                && (q.kinds.is_empty() || q.kinds.contains(&it.kind))
                && q.category.is_none_or(|c| it.category.as_deref() == Some(c))
        };
        let pool = (q.k * POOL_FACTOR).max(MIN_POOL);
        let lexical_hits = self.lexical.search(q.text, pool, keep);
        let vector_hits = match q.vector {
            Some(v) if !self.vectors.is_empty() => self.vectors.search(v, pool, keep),
            _ => Vec::new(),
        };
        let scale = fuse::Scale::of(
            &lexical_hits.iter().map(|h| h.1).collect::<Vec<_>>(),
            q.vector
                .map(|_| vector_hits.iter().map(|h| h.1).collect::<Vec<_>>())
                .as_deref(),
        );
        let bm25: HashMap<u32, f32> = lexical_hits.iter().copied().collect();
        let mut cosine: HashMap<u32, f32> = vector_hits.iter().copied().collect();
        // An item found by its words alone still has a meaning to weigh.
        if let Some(v) = q.vector {
            for &(n, _) in &lexical_hits {
                if let std::collections::hash_map::Entry::Vacant(e) = cosine.entry(n) {
                    if let Some(c) = self.vectors.cosine(n, v) {
                        e.insert(c);
                    }
                }
            }
        }
        let mut seen: Vec<u32> = lexical_hits.iter().map(|h| h.0).collect();
        seen.extend(
            vector_hits
                .iter()
                .map(|h| h.0)
                .filter(|n| !bm25.contains_key(n)),
        );
        let cands: Vec<fuse::Candidate> = seen
            .into_iter()
            .map(|n| {
                let it = &self.items[n as usize];
                fuse::Candidate {
                    item: n,
                    bm25: bm25.get(&n).copied(),
                    cosine: cosine.get(&n).copied(),
                    timestamp: it.timestamp,
                    importance: it.importance,
                    seq: n,
                }
            })
            .collect();
        let mut ranked = fuse::rank(&cands, &scale, now, &self.config.weights);
        let restated = if q.vector.is_some() {
            self.prefer_restatements(&mut ranked)
        } else {
            HashMap::new()
        };
        let relevance: HashMap<u32, f32> = cands
            .iter()
            .map(|c| (c.item, fuse::relevance(c, &scale, &self.config.weights)))
            .collect();
        ranked
            .into_iter()
            .take(q.k)
            .map(|(n, score)| {
                let it = &self.items[n as usize];
                RecallHit {
                    id: it.id.clone(),
                    kind: it.kind,
                    score,
                    timestamp: it.timestamp,
                    bm25: bm25.get(&n).copied(),
                    cosine: cosine.get(&n).copied(),
                    relevance: relevance.get(&n).copied().unwrap_or(0.0),
                    restated_by: restated.get(&n).map(|&r| self.items[r as usize].id.clone()),
                    item: n,
                }
            })
            .collect()
    }
}

/// Finds an entry by id. Ids end in an increasing sequence number, so a binary search on it
/// usually lands; a linear scan covers ids of other shapes.
pub fn find_entry<'a>(entries: &'a [Entry], id: &str) -> Option<&'a Entry> {
    find_entry_index(entries, id).map(|i| &entries[i])
}

pub fn find_entry_index(entries: &[Entry], id: &str) -> Option<usize> {
    fn seq(id: &str) -> Option<u64> {
        let digits = id.len() - id.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        id[id.len() - digits..].parse().ok()
    }
    if let Some(s) = seq(id) {
        let i = entries.partition_point(|e| seq(&e.id).is_some_and(|x| x < s));
        if entries.get(i).is_some_and(|e| e.id == id) {
            return Some(i);
        }
    }
    entries.iter().position(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{History, NewEntry};

    #[test]
    fn turns_facts_and_episodes_are_searchable_and_forgettable() {
        let mut h = History::new();
        let mut r = RecallState::new();
        for (i, t) in ["My sister Ana lives in Porto", "Nice!", "I play the cello"]
            .iter()
            .enumerate()
        {
            h.push(Role::User, t, NewEntry::default(), i as f64)
                .unwrap();
            r.add_entry(h.entries().last().unwrap());
        }
        let rem = r
            .facts
            .remember("Ana's birthday is May 3", Default::default(), 5.0)
            .unwrap();
        r.sync_fact(&rem.id);
        let q = RecallQuery {
            text: "when is Ana's birthday",
            k: 5,
            ..Default::default()
        };
        let hits = r.search(&q, 10.0);
        assert_eq!(hits[0].id, rem.id);
        assert!(hits.iter().any(|h| h.id == "e1"));
        r.remove_entry("e1");
        assert!(!r.search(&q, 10.0).iter().any(|h| h.id == "e1"));
        let only_turns = RecallQuery {
            text: "cello Ana",
            k: 5,
            kinds: vec![ItemKind::Turn],
            ..Default::default()
        };
        assert_eq!(r.search(&only_turns, 10.0).len(), 1);
        r.clear_turns();
        assert_eq!(r.len(), 1);
        assert_eq!(find_entry_index(h.entries(), "e3"), Some(2));
        assert_eq!(find_entry_index(h.entries(), "x3"), None);
    }

    #[test]
    fn vectors_join_the_ranking() {
        let mut r = RecallState::new();
        r.enable_vectors(false);
        let a = r
            .facts
            .remember("The user drives a red bicycle", Default::default(), 1.0)
            .unwrap()
            .id;
        r.sync_fact(&a);
        let b = r
            .facts
            .remember("Prefers tea over coffee", Default::default(), 1.0)
            .unwrap()
            .id;
        r.sync_fact(&b);
        let pending = r.pending_embeddings(&[], 10);
        assert_eq!(pending.len(), 2);
        let items: Vec<u32> = pending.iter().map(|p| p.0).collect();
        let texts: Vec<String> = pending.iter().map(|p| p.1.clone()).collect();
        r.set_embeddings(&items, &texts, &[vec![1.0, 0.0], vec![0.0, 1.0]])
            .unwrap();
        assert!(r.pending_embeddings(&[], 10).is_empty());
        // No shared word, but the vector says "hot drinks" is about the tea fact.
        let q = RecallQuery {
            text: "hot drinks",
            vector: Some(&[0.1, 0.9]),
            k: 1,
            ..Default::default()
        };
        assert_eq!(r.search(&q, 1.0)[0].id, b);
    }
}
