//! Forgetting completely. `forget` removes a turn, a fact or an episode and every copy derived
//! from it: the summaries and episodes that hold its words, the facts extracted from it (unless
//! kept on purpose), its index postings and its vector (in memory and in the stored chunks), its
//! cached outgoing form and token count, and the vault values nothing kept holds any more.
//! `clear` does the same for the whole conversation. Both return an [`Erasure`], the receipt:
//! what went, by kind, and which vault values stayed because a kept record still holds them.

use super::Memory;
use crate::error::Result;
use crate::recall::chunks::{self, VectorChunk};
use crate::store::records::kind;
use rustc_hash::FxHashSet;
use serde::Serialize;

/// The receipt of `forget` or `clear`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Erasure {
    pub removed: Removed,
    pub kept: Kept,
}

/// What went, by kind (ids, or placeholders for vault values).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Removed {
    pub turns: Vec<String>,
    pub summaries: Vec<String>,
    pub steps: Vec<String>,
    pub facts: Vec<String>,
    pub episodes: Vec<String>,
    /// Embeddings removed from the stored vector chunks.
    pub vectors: usize,
    /// Placeholders whose values left the vault.
    pub vault_values: Vec<String>,
}

/// What stayed because something kept still refers to it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Kept {
    /// Placeholders of values the erased records held that stay: a kept turn, fact, pinned
    /// fact, summary, episode, step or the system prompt holds the value or the placeholder.
    pub vault_values: Vec<String>,
}

/// How far `forget` and `clear` reach, and when they happen.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ForgetOptions {
    /// Keep the facts extracted from a forgotten turn (they are forgotten with it by default).
    pub keep_derived: bool,
    /// The caller's clock (ms): it dates a forgotten fact's trail. Default: the memory's
    /// newest time (its last turn or fact change).
    pub now: Option<f64>,
}

impl Memory {
    /// Forgets a turn, a fact or an episode by id, with every copy derived from it; the
    /// receipt says what went.
    pub fn forget(&mut self, id: &str, opts: ForgetOptions) -> Result<Erasure> {
        let now = opts.now.unwrap_or_else(|| self.recall_now());
        let mut out = Erasure::default();
        let mut removed: Vec<String> = Vec::new();
        if let Some(e) = self.recall.episodes.get(id) {
            removed.push(e.text());
            self.forget_memory(id, now)?;
            out.removed.episodes.push(id.to_string());
        } else if self.recall.facts.contains(id) {
            removed.extend(self.fact_texts(id));
            self.forget_memory(id, now)?;
            out.removed.facts.push(id.to_string());
        } else {
            if let Some(e) = self.history.entries().iter().find(|e| e.id == id) {
                entry_texts(e, &mut |t| removed.push(t.to_string()));
            }
            for s in self.forget_entry(id)? {
                removed.push(s.text);
                out.removed.summaries.push(s.id);
            }
            out.removed.turns.push(id.to_string());
            self.erase_derived(opts, now, &mut out, &mut removed)?;
        }
        let removed: Vec<&str> = removed.iter().map(String::as_str).collect();
        self.finish_erasure(&mut out, Some(&removed));
        Ok(out)
    }

    /// Clears the conversation (turns, summaries, steps) and what was derived from it
    /// (episodes; extracted facts unless `keep_derived`). Pinned facts, facts the app stored
    /// itself and options stay.
    pub fn clear(&mut self, opts: ForgetOptions) -> Erasure {
        let now = opts.now.unwrap_or_else(|| self.recall_now());
        let mut out = Erasure {
            removed: Removed {
                turns: self
                    .history
                    .entries()
                    .iter()
                    .map(|e| e.id.clone())
                    .collect(),
                summaries: self.summaries.iter().map(|s| s.id.clone()).collect(),
                steps: self.steps.records().iter().map(|s| s.id.clone()).collect(),
                ..Removed::default()
            },
            kept: Kept::default(),
        };
        self.clear_conversation();
        // Only ids this memory holds: the forgets below cannot fail.
        let _ = self.erase_derived(opts, now, &mut out, &mut Vec::new());
        // Every value is a candidate: what is kept is little (pinned facts, the app's facts).
        self.finish_erasure(&mut out, None);
        out
    }

    /// Episodes that cover a forgotten turn, and the facts extracted from one; their texts go
    /// to `removed`.
    fn erase_derived(
        &mut self,
        opts: ForgetOptions,
        now: f64,
        out: &mut Erasure,
        removed: &mut Vec<String>,
    ) -> Result<()> {
        let turns: FxHashSet<&str> = out.removed.turns.iter().map(String::as_str).collect();
        let episodes: Vec<(String, String)> = self
            .recall
            .episodes
            .all()
            .iter()
            .filter(|e| e.entry_ids.iter().any(|t| turns.contains(t.as_str())))
            .map(|e| (e.id.clone(), e.text()))
            .collect();
        let facts = if opts.keep_derived {
            Vec::new()
        } else {
            self.recall.facts.derived_from(&turns)
        };
        for (id, text) in episodes {
            self.forget_memory(&id, now)?;
            removed.push(text);
            out.removed.episodes.push(id);
        }
        for id in facts {
            removed.extend(self.fact_texts(&id));
            self.forget_memory(&id, now)?;
            out.removed.facts.push(id);
        }
        Ok(())
    }

    /// A fact's text and every text of its trail.
    fn fact_texts(&self, id: &str) -> Vec<String> {
        let mut texts: Vec<String> = self
            .recall
            .facts
            .get(id)
            .map(|f| f.text.clone())
            .into_iter()
            .collect();
        for c in self.recall.facts.history(id).unwrap_or_default() {
            texts.push(c.text);
            texts.extend(c.previous_text);
        }
        texts
    }

    /// The copies every kind of forgetting leaves: stored vectors and vault values.
    fn finish_erasure(&mut self, out: &mut Erasure, removed: Option<&[&str]>) {
        let r = &out.removed;
        let gone: FxHashSet<String> = r
            .turns
            .iter()
            .chain(&r.facts)
            .chain(&r.episodes)
            .cloned()
            .collect();
        out.removed.vectors = self.drop_stored_vectors(&gone);
        self.erase_vault_values(out, removed);
    }

    /// Rewrites the stored vector chunks that hold an embedding of a forgotten item.
    fn drop_stored_vectors(&mut self, gone: &FxHashSet<String>) -> usize {
        self.recall.drop_open_vectors(gone);
        let mut dropped = 0;
        let holding: Vec<(String, VectorChunk)> = self
            .foreign
            .iter()
            .filter(|r| r.kind == kind::VECTORS)
            // The ids are read in place first: only a chunk that holds a forgotten one is
            // decoded (each holds ~0.5 MB of base64 vectors).
            .filter(|r| {
                r.data["ids"].as_array().is_some_and(|ids| {
                    ids.iter()
                        .any(|id| id.as_str().is_some_and(|id| gone.contains(id)))
                })
            })
            .filter_map(|r| {
                let chunk: VectorChunk = serde_json::from_value(r.data.clone()).ok()?;
                chunk
                    .ids
                    .iter()
                    .any(|id| gone.contains(id))
                    .then(|| (r.id.clone(), chunk))
            })
            .collect();
        for (record_id, chunk) in holding {
            let (kept, n) = chunks::without(&chunk, gone);
            dropped += n;
            match serde_json::to_value(&kept) {
                Ok(data) => self.persist_record(kind::VECTORS, &record_id, data),
                Err(_) => continue,
            }
        }
        dropped
    }

    /// Drops the vault values the removed texts held (all values with `None`) that no kept
    /// record holds, as written or as their placeholder, and stores the vault.
    fn erase_vault_values(&mut self, out: &mut Erasure, removed: Option<&[&str]>) {
        if !self.redacts() {
            return;
        }
        // Steps are read as stored; everything else is borrowed where it lives.
        let steps: Vec<serde_json::Value> = self
            .steps
            .records()
            .iter()
            .filter_map(|s| serde_json::to_value(s).ok())
            .collect();
        let mut kept: Vec<&str> = Vec::new();
        for e in self.history.entries() {
            entry_texts(e, &mut |t| kept.push(t));
        }
        kept.extend(self.summaries.iter().map(|s| s.text.as_str()));
        kept.extend(self.pinned.iter().map(|p| p.text.as_str()));
        steps.iter().for_each(|s| string_leaves(s, &mut kept));
        for r in &self.foreign {
            if r.kind != kind::VAULT && r.kind != kind::VECTORS {
                string_leaves(&r.data, &mut kept);
            }
        }
        kept.extend(self.config.system_prompt.as_deref());
        let erased = self.erase_vault_values_in(removed, kept);
        out.removed.vault_values = erased.erased;
        out.kept.vault_values = erased.kept;
        self.save_vault();
    }
}

/// Every text an entry holds: content, name, tool call arguments and the strings of its
/// metadata.
fn entry_texts<'a>(e: &'a crate::history::Entry, f: &mut impl FnMut(&'a str)) {
    f(&e.content);
    if let Some(n) = &e.name {
        f(n);
    }
    for c in &e.tool_calls {
        f(&c.function.arguments);
    }
    if let Some(m) = &e.metadata {
        let mut leaves = Vec::new();
        string_leaves(m, &mut leaves);
        leaves.into_iter().for_each(f);
    }
}

/// Every string in a JSON value: the texts a record holds, whatever its shape.
fn string_leaves<'a>(v: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    match v {
        serde_json::Value::String(s) => out.push(s),
        serde_json::Value::Array(a) => a.iter().for_each(|x| string_leaves(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| string_leaves(x, out)),
        _ => {}
    }
}
