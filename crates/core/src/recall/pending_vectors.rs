//! The vector half of recall's state: turning vector search on, which items still wait for an
//! embedding and in what order they are handed out, taking vectors in, and reading them back
//! from the chunks stored with the session (so nothing is embedded twice across reloads).

use super::vectors::VectorIndex;
use super::{chunks, find_entry, ItemKind, RecallState};
use crate::history::Entry;

impl RecallState {
    /// Turns vector search on: every live item is queued for embedding.
    pub fn enable_vectors(&mut self, quantize: bool) {
        if !self.vectors_on || self.config.quantize != quantize {
            self.vectors_on = true;
            self.config.quantize = quantize;
            self.vectors = VectorIndex::new(quantize);
            self.open_chunk.clear();
            // Stored vector chunks are read again on the next sync.
            self.persisted.retain(|k| !k.starts_with("vectors:"));
            self.foreign_print.clear();
            self.unembedded = (0..self.items.len() as u32)
                .filter(|&n| self.items[n as usize].alive)
                .collect();
        }
    }

    pub fn vectors_enabled(&self) -> bool {
        self.vectors_on
    }

    /// How many live items wait for an embedding (0 when vectors are off).
    pub fn pending_count(&self) -> usize {
        self.unembedded
            .iter()
            .filter(|&&n| self.items[n as usize].alive)
            .count()
    }

    /// Items waiting for an embedding: `(item, text)`, at most `max`. Turn texts come from
    /// `entries`.
    pub fn pending_embeddings(&self, entries: &[Entry], max: usize) -> Vec<(u32, String)> {
        let mut out = Vec::new();
        for &n in &self.unembedded {
            if out.len() >= max {
                break;
            }
            let it = &self.items[n as usize];
            if !it.alive {
                continue;
            }
            if let Some(t) = self.item_text(it.kind, &it.id, entries) {
                out.push((n, t));
            }
        }
        out
    }

    /// Stores the app's embeddings for items from `pending_embeddings` (`texts` are the texts
    /// embedded). Returns the vector records to store, by id: the chunks that filled up and
    /// the open chunk as it now stands, so that a reload re-embeds nothing.
    pub fn set_embeddings(
        &mut self,
        items: &[u32],
        texts: &[String],
        vectors: &[Vec<f32>],
    ) -> Result<Vec<(String, chunks::VectorChunk)>, String> {
        if items.len() != vectors.len() || items.len() != texts.len() {
            return Err(format!(
                "embed returned {} vectors for {} texts",
                vectors.len(),
                items.len()
            ));
        }
        let mut records = Vec::new();
        let mut open_changed = false;
        for ((&n, v), text) in items.iter().zip(vectors).zip(texts) {
            let Some(it) = self.items.get(n as usize).filter(|it| it.alive) else {
                continue;
            };
            let id = it.id.clone();
            self.vectors.insert(n, v)?;
            self.open_chunk
                .push((id, chunks::text_hash(text), v.clone()));
            open_changed = true;
            if self.open_chunk.len() >= chunks::CHUNK {
                let full = std::mem::take(&mut self.open_chunk);
                records.push((
                    format!("v{}", self.next_chunk),
                    chunks::VectorChunk::new(self.vectors.dim(), &full),
                ));
                self.next_chunk += 1;
                open_changed = false;
            }
        }
        if open_changed {
            records.push((
                format!("v{}", self.next_chunk),
                chunks::VectorChunk::new(self.vectors.dim(), &self.open_chunk),
            ));
        }
        let done: std::collections::HashSet<u32> = items.iter().copied().collect();
        self.unembedded.retain(|n| !done.contains(n));
        Ok(records)
    }

    /// Takes the embeddings of forgotten items out of the chunk being filled, so that the next
    /// rewrite of its record does not bring them back.
    pub fn drop_open_vectors(&mut self, gone: &rustc_hash::FxHashSet<String>) {
        self.open_chunk.retain(|(id, _, _)| !gone.contains(id));
    }

    /// The text an item embeds (turn texts come from `entries`).
    fn item_text(&self, kind: ItemKind, id: &str, entries: &[Entry]) -> Option<String> {
        match kind {
            ItemKind::Turn => find_entry(entries, id).map(|e| e.content.clone()),
            ItemKind::Fact => self.facts.get(id).map(|f| f.text.clone()),
            ItemKind::Episode => self.episodes.get(id).map(|e| e.text()),
        }
    }

    /// Puts stored vectors back on items whose text is unchanged since they were embedded.
    /// Returns how many were used.
    pub fn reload_vectors(&mut self, chunk: &chunks::VectorChunk, entries: &[Entry]) -> usize {
        self.reload_chunk(chunk, entries).len()
    }

    /// As `reload_vectors` for the newest stored chunk (number `number`): when it is not
    /// full, it becomes the open chunk again, so new vectors fill it instead of starting
    /// another record.
    pub fn reload_last_chunk(
        &mut self,
        number: u64,
        chunk: &chunks::VectorChunk,
        entries: &[Entry],
    ) -> usize {
        let used = self.reload_chunk(chunk, entries);
        let same_dim = self.vectors.dim() == chunk.dim || self.vectors.dim() == 0;
        if chunk.ids.len() < chunks::CHUNK && self.open_chunk.is_empty() && same_dim {
            if let Some(flat) = chunk.vectors() {
                self.open_chunk = chunk
                    .ids
                    .iter()
                    .zip(&chunk.hashes)
                    .zip(flat.chunks_exact(chunk.dim))
                    .map(|((id, hash), v)| (id.clone(), hash.clone(), v.to_vec()))
                    .collect();
                self.next_chunk = number;
            }
        }
        used.len()
    }

    fn reload_chunk(&mut self, chunk: &chunks::VectorChunk, entries: &[Entry]) -> Vec<u32> {
        let Some(flat) = chunk.vectors() else {
            return Vec::new();
        };
        let mut used = Vec::new();
        for ((id, hash), v) in chunk
            .ids
            .iter()
            .zip(&chunk.hashes)
            .zip(flat.chunks_exact(chunk.dim))
        {
            let Some(&n) = self.by_id.get(id) else {
                continue;
            };
            let text = self.item_text(self.items[n as usize].kind, id, entries);
            if text.is_some_and(|t| &chunks::text_hash(&t) == hash)
                && self.vectors.insert(n, v).is_ok()
            {
                used.push(n);
            }
        }
        let done: std::collections::HashSet<u32> = used.iter().copied().collect();
        self.unembedded.retain(|n| !done.contains(n));
        used
    }

    /// Forgets which vector records were read, so the next sync reads them again (after the
    /// turns were indexed anew).
    pub(crate) fn reread_vectors(&mut self) {
        self.persisted.retain(|k| !k.starts_with("vectors:"));
        self.foreign_print.clear();
        self.open_chunk.clear();
    }
}
