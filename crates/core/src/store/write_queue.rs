//! What a stored session's writer has to store, and what a write's outcome does to it. Changes
//! wait in one queue and go out in one compacted batch per write; a failed write puts its batch
//! back in front of what came since, so nothing is dropped and nothing is reordered. The
//! session's `bytes` are kept up to date from the records' sizes. A session deleted while
//! open stops storing for good. `Writer` (`writer.rs`) runs the loop around it.

use super::records::{compact, is_sync_kind};
use super::{Record, RecordOp, SessionMeta, StoredSizes};
use crate::error::{Error, ErrorCode};

#[derive(Debug, Default)]
pub struct WriteQueue {
    queue: Vec<RecordOp>,
    /// Changes to store and to sync that did not come from the memory's change log (the
    /// records a session held before it first synced).
    unsynced: Vec<RecordOp>,
    /// The last write's error, until a write succeeds.
    error: Option<Error>,
    /// Sizes of the stored records: measured at the first write, not when the session opens
    /// (measuring serializes every record).
    sizes: Option<StoredSizes>,
    /// The session was deleted while open.
    gone: bool,
}

impl WriteQueue {
    /// Records to store, and to sync, as if the memory had just made them.
    pub fn add_changes(&mut self, ops: Vec<RecordOp>) -> bool {
        let wanted = !ops.is_empty() && !self.gone;
        if wanted {
            self.unsynced.extend(ops);
        }
        wanted
    }

    /// Records to store only (sync bookkeeping, pulled changes).
    pub fn add_local(&mut self, ops: Vec<RecordOp>) -> bool {
        let wanted = !ops.is_empty() && !self.gone;
        if wanted {
            self.queue.extend(ops);
        }
        wanted
    }

    /// The changes added with `add_changes` since the last batch, to pack for sync.
    pub fn take_unsynced(&mut self) -> Vec<RecordOp> {
        std::mem::take(&mut self.unsynced)
    }

    /// The next write, `fresh` changes included: `None` when there is nothing to store (or the
    /// session is gone).
    pub fn next_batch(&mut self, fresh: Vec<RecordOp>) -> Option<Vec<RecordOp>> {
        self.queue.extend(fresh);
        let ops = compact(std::mem::take(&mut self.queue));
        (!ops.is_empty() && !self.gone).then_some(ops)
    }

    /// The session's bookkeeping once `ops` are stored. Sizes are applied before the write is
    /// known to succeed: a failed write keeps its changes queued and applies them again with
    /// the next, which gives the same sizes. Measured first from `records` (the memory as it
    /// is now, which holds these changes already).
    pub fn next_meta(
        &mut self,
        meta: &SessionMeta,
        ops: &[RecordOp],
        turns: usize,
        records: impl FnOnce() -> Vec<Record>,
        now: f64,
    ) -> SessionMeta {
        let mut meta = meta.clone();
        meta.updated_at = now;
        meta.turns = turns;
        let sizes = self
            .sizes
            .get_or_insert_with(|| StoredSizes::of(&records()));
        sizes.apply(ops);
        meta.bytes = sizes.total();
        meta
    }

    /// Records a write's outcome: a failed batch goes back in front of what came since. A
    /// write that ends after the session was deleted changes nothing: the deletion's error
    /// stays, for every later `flush()`.
    pub fn written(&mut self, ops: Vec<RecordOp>, outcome: Result<(), Error>) {
        if self.gone {
            return;
        }
        match outcome {
            Ok(()) => self.error = None,
            Err(e) => {
                let newer = std::mem::replace(&mut self.queue, ops);
                self.queue.extend(newer);
                self.error = Some(e);
            }
        }
    }

    /// The error a `flush()` waiting now rejects with.
    pub fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// Another tab's message: the changes it stored, for this memory (sync bookkeeping
    /// stays with the tab that syncs). `None` for a message that is not a change list.
    pub fn received(&mut self, text: &str) -> Option<Vec<RecordOp>> {
        let mut ops = serde_json::from_str::<Vec<RecordOp>>(text).ok()?;
        ops.retain(|op| !is_sync_op(op));
        if let Some(sizes) = self.sizes.as_mut() {
            sizes.apply(&ops);
        }
        Some(ops)
    }

    /// What to tell the other tabs after a write: its changes without the sync bookkeeping.
    pub fn broadcast(ops: &[RecordOp]) -> Option<String> {
        let ops: Vec<&RecordOp> = ops.iter().filter(|op| !is_sync_op(op)).collect();
        match ops.is_empty() {
            true => None,
            false => serde_json::to_string(&ops).ok(),
        }
    }

    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// The session was deleted while open (`Memory.delete` in another tab, its ttl): stop
    /// storing, for good; writing would bring back a part of it. Returns the error every later
    /// `flush()` rejects with, for `onError` too.
    pub fn deleted_elsewhere(&mut self, session: &str) -> Error {
        self.stop(Error::new(
            ErrorCode::NotFound,
            format!(
                "session {session:?} was deleted (Memory.delete or its ttlMs) while open here: \
                 changes are no longer stored; Memory.open it again to start it anew"
            ),
        ))
    }

    /// The session was deleted on the server: as `deleted_elsewhere`.
    pub fn deleted_on_server(&mut self, session: &str) -> Error {
        self.stop(Error::new(
            ErrorCode::NotFound,
            format!(
                "session {session:?} was deleted on another device: changes are no longer stored"
            ),
        ))
    }

    fn stop(&mut self, e: Error) -> Error {
        self.queue.clear();
        self.unsynced.clear();
        self.error = Some(e.clone());
        self.gone = true;
        e
    }
}

/// A change to the sync bookkeeping, which stays out of the memory and other tabs.
pub fn is_sync_op(op: &RecordOp) -> bool {
    match op {
        RecordOp::Put(r) => is_sync_kind(&r.kind),
        RecordOp::Delete { kind, .. } => is_sync_kind(kind),
        RecordOp::DeleteKinds { kinds } => kinds.iter().any(|k| is_sync_kind(k)),
    }
}

/// The error for writes to a session that a newer version stored.
pub fn read_only_error(session: &str) -> Error {
    Error::new(
        ErrorCode::ReadOnly,
        format!(
            "session {session:?} was stored by a newer llm-memory; it is open read-only so \
             that its data is not damaged: update the package to change it"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(kind: &str, id: &str, data: &str) -> RecordOp {
        RecordOp::Put(Record {
            kind: kind.into(),
            id: id.into(),
            order: 0.0,
            data: serde_json::json!(data),
        })
    }

    fn meta() -> SessionMeta {
        SessionMeta::new("chat", 0.0, None)
    }

    #[test]
    fn a_failed_write_keeps_its_batch_in_front_of_newer_changes() {
        let mut q = WriteQueue::default();
        q.add_local(vec![put("entry", "a", "one")]);
        let first = q.next_batch(Vec::new()).unwrap();
        q.add_local(vec![put("entry", "b", "two")]);
        let quota = Error::new(ErrorCode::QuotaExceeded, "full");
        q.written(first, Err(quota.clone()));
        assert_eq!(q.error(), Some(&quota));
        let again = q.next_batch(Vec::new()).unwrap();
        let ids: Vec<_> = again
            .iter()
            .map(|op| match op {
                RecordOp::Put(r) => r.id.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(ids, ["a", "b"]);
        q.written(again, Ok(()));
        assert_eq!(q.error(), None);
        assert_eq!(q.next_batch(Vec::new()), None);
    }

    #[test]
    fn sizes_follow_the_writes_and_the_other_tabs() {
        let mut q = WriteQueue::default();
        let ops = vec![put("entry", "a", "hello")];
        let m = q.next_meta(&meta(), &ops, 1, Vec::new, 5.0);
        assert_eq!((m.turns, m.updated_at), (1, 5.0));
        let one = m.bytes;
        assert!(one > 0);
        let text =
            WriteQueue::broadcast(&[put("entry", "b", "hello"), put("sync-state", "cursor", "1")])
                .unwrap();
        let received = q.received(&text).unwrap();
        assert_eq!(received.len(), 1, "sync bookkeeping stays with its tab");
        let m = q.next_meta(&meta(), &[], 2, Vec::new, 6.0);
        assert_eq!(m.bytes, 2 * one);
        assert_eq!(q.received("{\"deleted\":true}"), None);
    }

    #[test]
    fn a_deleted_session_stores_nothing_more() {
        let mut q = WriteQueue::default();
        q.add_local(vec![put("entry", "a", "one")]);
        let e = q.deleted_elsewhere("chat");
        assert_eq!(e.code, ErrorCode::NotFound);
        assert!(q.is_gone());
        assert!(!q.add_changes(vec![put("entry", "b", "two")]));
        assert_eq!(q.next_batch(vec![put("entry", "c", "three")]), None);
        assert_eq!(q.error(), Some(&e));
        assert_eq!(read_only_error("chat").code, ErrorCode::ReadOnly);
    }
}
