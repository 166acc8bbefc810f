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
    /// Placeholders whose values stay: a kept turn, fact, pinned fact, summary, episode, step
    /// or the system prompt holds the value or the placeholder.
    pub vault_values: Vec<String>,
}

/// How far `forget` reaches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ForgetOptions {
    /// Keep the facts extracted from a forgotten turn (they are forgotten with it by default).
    pub keep_derived: bool,
}

impl Memory {
    /// Forgets a turn, a fact or an episode by id, with what was derived from it. `now` (ms)
    /// dates a forgotten fact's trail.
    pub fn erase(&mut self, id: &str, opts: ForgetOptions, now: f64) -> Result<Erasure> {
        let mut out = Erasure::default();
        if self.recall.episodes.get(id).is_some() {
            self.forget_memory(id, now)?;
            out.removed.episodes.push(id.to_string());
        } else if self.recall.facts.contains(id) {
            self.forget_memory(id, now)?;
            out.removed.facts.push(id.to_string());
        } else {
            out.removed.summaries = self.forget_entry(id)?;
            out.removed.turns.push(id.to_string());
            self.erase_derived(opts, now, &mut out)?;
        }
        self.finish_erasure(&mut out);
        Ok(out)
    }

    /// Clears the conversation (turns, summaries, steps) and what was derived from it
    /// (episodes; extracted facts unless `keep_derived`). Pinned facts, facts the app stored
    /// itself and options stay.
    pub fn clear_with(&mut self, opts: ForgetOptions, now: f64) -> Erasure {
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
        let _ = self.erase_derived(opts, now, &mut out);
        self.finish_erasure(&mut out);
        out
    }

    /// Episodes that cover a forgotten turn, and the facts extracted from one.
    fn erase_derived(&mut self, opts: ForgetOptions, now: f64, out: &mut Erasure) -> Result<()> {
        let turns: FxHashSet<&str> = out.removed.turns.iter().map(String::as_str).collect();
        let episodes: Vec<String> = self
            .recall
            .episodes
            .all()
            .iter()
            .filter(|e| e.entry_ids.iter().any(|t| turns.contains(t.as_str())))
            .map(|e| e.id.clone())
            .collect();
        let facts = if opts.keep_derived {
            Vec::new()
        } else {
            self.recall.facts.derived_from(&turns)
        };
        for id in &episodes {
            self.forget_memory(id, now)?;
        }
        for id in &facts {
            self.forget_memory(id, now)?;
        }
        out.removed.episodes.extend(episodes);
        out.removed.facts.extend(facts);
        Ok(())
    }

    /// The copies every kind of forgetting leaves: stored vectors and vault values.
    fn finish_erasure(&mut self, out: &mut Erasure) {
        let r = &out.removed;
        let gone: FxHashSet<String> = r
            .turns
            .iter()
            .chain(&r.facts)
            .chain(&r.episodes)
            .cloned()
            .collect();
        out.removed.vectors = self.drop_stored_vectors(&gone);
        self.erase_vault_values(out);
    }

    /// Rewrites the stored vector chunks that hold an embedding of a forgotten item.
    fn drop_stored_vectors(&mut self, gone: &FxHashSet<String>) -> usize {
        self.recall.drop_open_vectors(gone);
        let mut dropped = 0;
        let holding: Vec<(String, VectorChunk)> = self
            .foreign
            .iter()
            .filter(|r| r.kind == kind::VECTORS)
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

    /// Drops the vault values no kept record holds (value or placeholder) and stores the vault.
    fn erase_vault_values(&mut self, out: &mut Erasure) {
        if !self.redacts() {
            return;
        }
        let records = self.records();
        let mut texts: Vec<&str> = Vec::new();
        for r in &records {
            if r.kind != kind::VAULT && r.kind != kind::VECTORS {
                string_leaves(&r.data, &mut texts);
            }
        }
        if let Some(prompt) = &self.config.system_prompt {
            texts.push(prompt);
        }
        let erased = self.erase_vault_values_in(texts);
        out.removed.vault_values = erased.erased.into_iter().map(|e| e.placeholder).collect();
        out.kept.vault_values = erased.kept;
        self.save_vault();
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
