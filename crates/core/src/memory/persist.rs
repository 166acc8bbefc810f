//! The engine's side of persistence: it reports what changed as `RecordOp`s (so a backend
//! writes only that), snapshots itself as records, loads from records, and applies another
//! tab's changes. Storage itself is the bindings' business.

use super::{Memory, Persistence};
use crate::context::PinnedFact;
use crate::error::{Error, ErrorCode, Result};
use crate::history::steps::StepRecord;
use crate::history::Entry;
use crate::store::records::kind;
use crate::store::records::Stored;
use crate::store::{Record, RecordOp};
use crate::summary::SummaryRecord;
use serde::Serialize;

fn to_value<T: Serialize>(v: &T) -> serde_json::Value {
    // Our own types always serialize; Null would only mark a bug, never lose the turn itself.
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

fn corrupt(r: &Record, e: serde_json::Error) -> Error {
    Error::new(
        ErrorCode::CorruptStorage,
        format!("stored {} {:?} cannot be read: {e}", r.kind, r.id),
    )
}

/// What opening a stored session does to the memory (`store::open_job`).
impl crate::store::open_job::Reload for Memory {
    fn reload(&mut self, records: Vec<Stored>) -> Result<()> {
        self.load_stored(records)
    }

    fn all_records(&self) -> Vec<Record> {
        self.records()
    }

    fn turns(&self) -> usize {
        self.entries().len()
    }

    fn track_changes(&mut self) {
        Persistence::track_changes(self);
    }
}

impl Memory {
    /// Storage order of a new entry: after every existing one, and near its time so that two
    /// tabs' turns interleave by time on the next load.
    pub(super) fn next_order(&self, now: f64) -> f64 {
        let last = self.entry_order.last().copied().unwrap_or(f64::MIN);
        let by_time = if now.is_finite() { now * 1000.0 } else { 0.0 };
        by_time.max(last + 1.0)
    }

    fn emit(&mut self, op: RecordOp) {
        if let Some(c) = &mut self.changes {
            c.push(op);
        }
    }

    /// The key of stored token counts this memory may reuse: its counter and chat overhead.
    /// None with a redactor (counts are of the redacted form, which depends on the vault) or a
    /// counter without a fingerprint.
    pub(super) fn count_key(&self) -> Option<String> {
        if self.egress.is_some() {
            return None;
        }
        let print = self.counter.fingerprint()?;
        let overhead = self.config.overhead.fingerprint_bytes();
        Some(format!(
            "{:016x}",
            crate::tokens::fnv1a(&[&print.to_le_bytes(), &overhead])
        ))
    }

    /// A stored count when it was made by this counter and overhead, else a fresh count.
    pub(super) fn stored_or_counted(
        &self,
        e: &Entry,
        stored: Option<crate::store::records::TokenCount>,
        key: Option<&str>,
    ) -> usize {
        match stored {
            Some(c) if key == Some(c.key.as_str()) => c.n,
            _ => self.message_tokens(e),
        }
    }

    fn entry_record(&self, i: usize) -> Record {
        let e = &self.history.entries()[i];
        let mut data = to_value(e);
        if let (Some(key), serde_json::Value::Object(map)) = (self.count_key(), &mut data) {
            let count = crate::store::records::TokenCount {
                key,
                n: self.entry_tokens[i],
            };
            map.insert(
                crate::store::records::TOKEN_COUNT_FIELD.into(),
                to_value(&count),
            );
        }
        Record {
            kind: kind::ENTRY.into(),
            id: e.id.clone(),
            order: self.entry_order[i],
            data,
        }
    }

    fn summary_record(s: &SummaryRecord) -> Record {
        Record {
            kind: kind::SUMMARY.into(),
            id: s.id.clone(),
            order: s.created_at,
            data: to_value(s),
        }
    }

    fn step_record(i: usize, s: &StepRecord) -> Record {
        Record {
            kind: kind::STEP.into(),
            id: s.id.clone(),
            order: i as f64,
            data: to_value(s),
        }
    }

    fn pinned_record(p: &PinnedFact) -> Record {
        let seq = crate::history::ids::trailing_number(&p.id);
        Record {
            kind: kind::PINNED.into(),
            id: p.id.clone(),
            order: seq.unwrap_or(0) as f64,
            data: to_value(p),
        }
    }

    pub(super) fn emit_entry(&mut self, i: usize) {
        if self.changes.is_some() {
            let r = self.entry_record(i);
            self.emit(RecordOp::Put(r));
        }
    }

    pub(super) fn emit_summary(&mut self, i: usize) {
        if self.changes.is_some() {
            let r = Self::summary_record(&self.summaries[i]);
            self.emit(RecordOp::Put(r));
        }
    }

    pub(super) fn emit_step(&mut self, i: usize) {
        if self.changes.is_some() {
            let r = Self::step_record(i, &self.steps.records()[i]);
            self.emit(RecordOp::Put(r));
        }
    }

    pub(super) fn emit_pinned(&mut self, i: usize) {
        if self.changes.is_some() {
            let r = Self::pinned_record(&self.pinned[i]);
            self.emit(RecordOp::Put(r));
        }
    }

    pub(super) fn emit_delete(&mut self, kind: &str, id: &str) {
        self.emit(RecordOp::Delete {
            kind: kind.into(),
            id: id.into(),
        });
    }

    pub(super) fn emit_clear(&mut self) {
        self.emit(RecordOp::DeleteKinds {
            kinds: vec![kind::ENTRY.into(), kind::SUMMARY.into(), kind::STEP.into()],
        });
    }

    /// Everything this memory holds, as records (export, first write of an import).
    pub fn records(&self) -> Vec<Record> {
        let mut out: Vec<Record> = (0..self.history.len())
            .map(|i| self.entry_record(i))
            .collect();
        out.extend(self.summaries.iter().map(Self::summary_record));
        out.extend(
            self.steps
                .records()
                .iter()
                .enumerate()
                .map(|(i, s)| Self::step_record(i, s)),
        );
        out.extend(self.pinned.iter().map(Self::pinned_record));
        out.extend(self.foreign.iter().cloned());
        out
    }

    fn reload_entry(
        &mut self,
        e: Entry,
        order: f64,
        stored: Option<crate::store::records::TokenCount>,
        key: Option<&str>,
    ) -> Result<()> {
        let tokens = self.stored_or_counted(&e, stored, key);
        self.history.reload(e)?;
        self.entry_tokens.push(tokens);
        self.entry_order.push(order);
        Ok(())
    }

    pub(super) fn load_sorted(&mut self, records: Vec<Stored>) -> Result<()> {
        let key = self.count_key();
        let key = key.as_deref();
        for stored in records {
            let r = match stored {
                Stored::Entry {
                    entry,
                    order,
                    tokens,
                    ..
                } => {
                    self.reload_entry(entry, order, tokens, key)?;
                    continue;
                }
                Stored::Other(r) => r,
            };
            match r.kind.as_str() {
                kind::ENTRY => {
                    let e: Entry =
                        serde_json::from_value(r.data.clone()).map_err(|e| corrupt(&r, e))?;
                    let stored = crate::store::records::token_count(&r.data);
                    self.reload_entry(e, r.order, stored, key)?;
                }
                kind::SUMMARY => {
                    let s: SummaryRecord =
                        serde_json::from_value(r.data.clone()).map_err(|e| corrupt(&r, e))?;
                    self.summaries.retain(|x| x.id != s.id);
                    self.summaries.push(s);
                }
                kind::STEP => {
                    let s: StepRecord =
                        serde_json::from_value(r.data.clone()).map_err(|e| corrupt(&r, e))?;
                    self.steps.reload(s);
                }
                kind::PINNED => {
                    let p: PinnedFact =
                        serde_json::from_value(r.data.clone()).map_err(|e| corrupt(&r, e))?;
                    if let Some(n) = crate::history::ids::seq_of(&p.id, &self.id_prefix, "p") {
                        self.pinned_seq = self.pinned_seq.max(n);
                    }
                    self.pinned.retain(|x| x.id != p.id);
                    self.pinned.push(p);
                }
                _ => {
                    if r.kind == kind::VAULT {
                        self.merge_remote_vault(&r);
                    }
                    self.foreign.retain(|x| !(x.kind == r.kind && x.id == r.id));
                    self.foreign.push(r);
                }
            }
        }
        self.summaries
            .sort_by(|a, b| a.created_at.total_cmp(&b.created_at));
        // Summary ids continue after the stored ones.
        for s in &self.summaries {
            if let Some(n) = crate::history::ids::seq_of(&s.id, &self.id_prefix, "sum") {
                self.next_request = self.next_request.max(n + 1);
            }
        }
        Ok(())
    }

    pub(super) fn apply_one(&mut self, op: RecordOp) -> Result<()> {
        match op {
            RecordOp::Put(r) if r.kind == kind::ENTRY => {
                if self.history.index_of(&r.id).is_some() {
                    return Ok(());
                }
                let e: Entry =
                    serde_json::from_value(r.data.clone()).map_err(|e| corrupt(&r, e))?;
                // Storage order, ties by id, as `load_stored` sorts: two devices that wrote
                // in the same millisecond list the turns the same way.
                let lo = self.entry_order.partition_point(|o| *o < r.order);
                let hi = self.entry_order.partition_point(|o| *o <= r.order);
                let entries = self.history.entries();
                let at = (lo..hi)
                    .find(|&i| entries[i].id.as_str() > r.id.as_str())
                    .unwrap_or(hi);
                let key = self.count_key();
                let stored = crate::store::records::token_count(&r.data);
                let tokens = self.stored_or_counted(&e, stored, key.as_deref());
                let appended = at == self.history.len();
                self.history.insert(at, e)?;
                self.entry_tokens.insert(at, tokens);
                self.entry_order.insert(at, r.order);
                // A turn at the end joins the index as a new one would; anywhere else the
                // index is built again by `sync_recall`.
                if appended && self.recall.entries_seen + 1 == self.history.len() {
                    self.recall_index_last();
                } else {
                    self.recall.clear_turns();
                }
                Ok(())
            }
            RecordOp::Put(r) => self.load_sorted(vec![Stored::Other(r)]),
            RecordOp::Delete { kind: k, id } => {
                match k.as_str() {
                    kind::ENTRY => {
                        if let Some(i) = self.history.index_of(&id) {
                            self.history.remove(&id)?;
                            self.entry_tokens.remove(i);
                            self.entry_order.remove(i);
                            self.recall.remove_entry(&id);
                        }
                    }
                    kind::SUMMARY => self.summaries.retain(|s| s.id != id),
                    kind::PINNED => self.pinned.retain(|p| p.id != id),
                    _ => self.foreign.retain(|x| !(x.kind == k && x.id == id)),
                }
                Ok(())
            }
            RecordOp::DeleteKinds { kinds } => {
                for k in kinds {
                    match k.as_str() {
                        kind::ENTRY => {
                            self.history.clear();
                            self.entry_tokens.clear();
                            self.entry_order.clear();
                            self.recall.clear_turns();
                        }
                        kind::SUMMARY => self.summaries.clear(),
                        kind::STEP => self.steps.clear(),
                        kind::PINNED => self.pinned.clear(),
                        _ => self.foreign.retain(|x| x.kind != k),
                    }
                }
                Ok(())
            }
        }
    }
}
