//! What a store does with a memory, apart from what an app does: record its changes for a
//! write, load what was stored, apply what another tab or device stored, and give the merged
//! records a sync compaction writes. Grouped in one trait so `Memory`'s own methods are the
//! app's; `records()` (export) stays on `Memory`.

use super::Memory;
use crate::error::Result;
use crate::store::records::Stored;
use crate::store::{Record, RecordOp};

/// A memory as its store sees it.
pub trait Persistence {
    /// Starts recording changes for a store; `take_changes` drains them.
    fn track_changes(&mut self);
    /// The changes made since the last call, to write.
    fn take_changes(&mut self) -> Vec<RecordOp>;
    /// Entry ids become `prefix + n`, and the other ids `prefix + tag + n` (`prefix + "f3"`):
    /// a per-tab prefix keeps two tabs' ids apart.
    fn set_id_prefix(&mut self, prefix: &str);
    /// This memory's records of the kinds that merge on arrival (`kind::MERGED`: the vault), as
    /// merged here: a sync compaction writes them in place of every older copy. Without a
    /// redactor nothing here merges vaults (the last one pulled is kept as it came), so there is
    /// nothing to give, and the compaction keeps every copy.
    fn merged_records(&self) -> Vec<Record>;
    /// Loads stored records into this (empty) memory, in storage order. Records of kinds it
    /// does not know are kept as they are and written back on export.
    fn load_records(&mut self, records: Vec<Record>) -> Result<()>;
    /// `load_records` for records as a backend reads them (entries already typed).
    fn load_stored(&mut self, records: Vec<Stored>) -> Result<()>;
    /// Applies changes another tab stored, without recording them as ours.
    fn apply_remote(&mut self, ops: Vec<RecordOp>) -> Result<()>;
}

impl Persistence for Memory {
    fn track_changes(&mut self) {
        self.changes.get_or_insert_with(Vec::new);
    }

    fn take_changes(&mut self) -> Vec<RecordOp> {
        self.changes
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    fn set_id_prefix(&mut self, prefix: &str) {
        self.history.set_id_prefix(prefix);
        self.id_prefix = prefix.to_string();
        self.steps.set_prefix(prefix);
        self.recall.facts.set_prefix(prefix);
        self.recall.episodes.set_prefix(prefix);
    }

    fn merged_records(&self) -> Vec<Record> {
        self.merged_vault_record().into_iter().collect()
    }

    fn load_records(&mut self, records: Vec<Record>) -> Result<()> {
        self.load_stored(records.into_iter().map(Stored::Other).collect())
    }

    fn load_stored(&mut self, mut records: Vec<Stored>) -> Result<()> {
        records.sort_by(|a, b| {
            a.order()
                .total_cmp(&b.order())
                .then_with(|| a.id().cmp(b.id()))
        });
        let tracking = self.changes.take();
        let result = self.load_sorted(records);
        self.changes = tracking;
        self.sync_recall();
        result
    }

    fn apply_remote(&mut self, ops: Vec<RecordOp>) -> Result<()> {
        let tracking = self.changes.take();
        let result = ops.into_iter().try_for_each(|op| self.apply_one(op));
        self.changes = tracking;
        self.sync_recall();
        result
    }
}
