//! The loop that keeps a stored session in step with its memory, without I/O: one write at a
//! time, whatever changed meanwhile going into the next; a failed write reported, its batch
//! kept in front of newer changes and the loop stopped until the next change or `flush()`;
//! `flush()` callers answered once the loop stops, with the error while anything is left
//! unstored; and what other tabs and devices send. The JS face (`src/bindings/storage/writer.rs`)
//! runs it: it packs changes for sync, seals, writes, tells the tabs and settles the promises,
//! in the order this says. `W` is the face's handle on a `flush()` caller (a promise's
//! functions there, a number in the tests).

use super::write_queue::WriteQueue;
use super::{Record, RecordOp, SessionMeta};
use crate::error::{Error, Result};

/// What `Memory.delete` (or expiry) says on a session's channel: open tabs stop storing, so a
/// later change does not bring back a partial session.
pub const DELETED_MESSAGE: &str = "{\"deleted\":true}";

/// One write to run: the batch, and the session's bookkeeping once it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Write {
    pub meta: SessionMeta,
    pub ops: Vec<RecordOp>,
}

/// What a write's outcome asks of the face.
#[derive(Debug, Clone, PartialEq)]
pub enum Written {
    /// Stored: keep `meta`, tell the other tabs `broadcast` (none when only sync bookkeeping
    /// changed), hand `ops` to the sync link, and go on with the next write.
    Stored {
        meta: SessionMeta,
        broadcast: Option<String>,
        ops: Vec<RecordOp>,
    },
    /// Failed: tell `onError`, and stop the loop (`idle`): its batch waits in front of newer
    /// changes for the next attempt, and the `flush()` callers hear the error.
    Failed(Error),
}

/// What became of changes that arrived from another tab or device.
#[derive(Debug, Clone, PartialEq)]
pub enum Arrived {
    /// Nothing to do: not a change list, or the session or the memory is gone.
    Nothing,
    /// Another tab deleted the session: stop storing here (`deleted_elsewhere`).
    Deleted,
    /// The memory refused them: tell `onError`; nothing is stored.
    Failed(Error),
    /// Applied: tell `onChange` when `changed`, and start the loop when `write`.
    Applied { changed: bool, write: bool },
}

/// The memory's answer to changes from elsewhere: `None` when it is gone (freed).
pub type Applied = Option<Result<()>>;

#[derive(Debug)]
pub struct Writer<W> {
    queue: WriteQueue,
    /// The face's loop runs (a write, or the sealing before it, is under way).
    running: bool,
    /// `flush()` callers, answered when the loop stops.
    waiters: Vec<W>,
}

impl<W> Default for Writer<W> {
    fn default() -> Self {
        Writer {
            queue: WriteQueue::default(),
            running: false,
            waiters: Vec::new(),
        }
    }
}

impl<W> Writer<W> {
    /// The memory changed, or a caller wants what is queued stored: true when the face must
    /// start the loop (none runs; a running one picks the changes up before it stops).
    pub fn start(&mut self) -> bool {
        !std::mem::replace(&mut self.running, true)
    }

    /// A `flush()` caller, answered when the loop stops: true when the face must start it.
    pub fn flush_requested(&mut self, waiter: W) -> bool {
        self.waiters.push(waiter);
        self.start()
    }

    /// Records to store, and to sync, as if the memory had just made them: true when the face
    /// should `start` the loop.
    pub fn add_changes(&mut self, ops: Vec<RecordOp>) -> bool {
        self.queue.add_changes(ops)
    }

    /// Records to store only (sync bookkeeping): true when the face should `start` the loop.
    pub fn add_local(&mut self, ops: Vec<RecordOp>) -> bool {
        self.queue.add_local(ops)
    }

    /// The changes added with `add_changes` since the last write, to pack for sync with the
    /// memory's own.
    pub fn take_unsynced(&mut self) -> Vec<RecordOp> {
        self.queue.take_unsynced()
    }

    /// The next write, `fresh` changes (and their sync records) included, or `None` when there
    /// is nothing to store: the loop stops (`idle`). `turns` is the memory's count (`None`:
    /// the memory is gone, the stored count stays); `records` measures the session the first
    /// time.
    pub fn next_write(
        &mut self,
        fresh: Vec<RecordOp>,
        meta: &SessionMeta,
        turns: Option<usize>,
        records: impl FnOnce() -> Vec<Record>,
        now: f64,
    ) -> Option<Write> {
        let ops = self.queue.next_batch(fresh)?;
        let turns = turns.unwrap_or(meta.turns);
        let meta = self.queue.next_meta(meta, &ops, turns, records, now);
        Some(Write { meta, ops })
    }

    /// A write's outcome, and what the face does about it.
    pub fn written(&mut self, write: Write, outcome: Result<()>) -> Written {
        match outcome {
            Ok(()) => {
                self.queue.written(Vec::new(), Ok(()));
                Written::Stored {
                    broadcast: WriteQueue::broadcast(&write.ops),
                    meta: write.meta,
                    ops: write.ops,
                }
            }
            Err(e) => {
                self.queue.written(write.ops, Err(e.clone()));
                Written::Failed(e)
            }
        }
    }

    /// The loop stopped (nothing left, or a write failed): every `flush()` caller so far, with
    /// what it hears: done, or the error that left changes unstored (or stopped the storing).
    pub fn idle(&mut self) -> Vec<(W, Result<()>)> {
        self.running = false;
        let outcome = match self.queue.error() {
            None => Ok(()),
            Some(e) => Err(e.clone()),
        };
        let waiters = std::mem::take(&mut self.waiters);
        waiters.into_iter().map(|w| (w, outcome.clone())).collect()
    }

    /// Another tab's message on the session's channel: its deletion, or the changes it stored
    /// (applied here with `memory`; sync bookkeeping stays with the tab that syncs).
    pub fn heard(&mut self, text: &str, memory: impl FnOnce(Vec<RecordOp>) -> Applied) -> Arrived {
        if text == DELETED_MESSAGE {
            return Arrived::Deleted;
        }
        let Some(ops) = self.queue.received(text) else {
            return Arrived::Nothing;
        };
        match memory(ops) {
            None => Arrived::Nothing,
            Some(Ok(())) => Arrived::Applied {
                changed: true,
                write: false,
            },
            Some(Err(e)) => Arrived::Failed(e),
        }
    }

    /// Another device's changes, pulled: `apply` goes to the memory (when there is any), then
    /// is stored with the sync bookkeeping `local`. A session deleted while open takes nothing.
    pub fn pulled(
        &mut self,
        apply: Vec<RecordOp>,
        local: Vec<RecordOp>,
        memory: impl FnOnce(Vec<RecordOp>) -> Applied,
    ) -> Arrived {
        if self.queue.is_gone() {
            return Arrived::Nothing;
        }
        let changed = !apply.is_empty();
        if changed {
            match memory(apply.clone()) {
                None => return Arrived::Nothing,
                Some(Err(e)) => return Arrived::Failed(e),
                Some(Ok(())) => {}
            }
        }
        let mut ops = apply;
        ops.extend(local);
        self.queue.add_local(ops);
        Arrived::Applied {
            changed,
            write: true,
        }
    }

    /// The session was deleted while open (another tab, its ttl): see `WriteQueue`.
    pub fn deleted_elsewhere(&mut self, session: &str) -> Error {
        self.queue.deleted_elsewhere(session)
    }

    /// The session was deleted on the server: as `deleted_elsewhere`.
    pub fn deleted_on_server(&mut self, session: &str) -> Error {
        self.queue.deleted_on_server(session)
    }
}

#[cfg(test)]
mod tests;
