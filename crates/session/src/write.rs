//! The writer's pump: what a stored session does after its memory changes. Each pass takes the
//! fresh changes (those handed in to store and sync first, then the memory's own), packs them
//! for sync, asks the core's `Writer` for the next write and stores it. A stored write keeps
//! its bookkeeping, then tells the other tabs, then hands its sync records to the link; a
//! failed one is reported and stops the pump (its batch waits for the next start). When the
//! pump stops, every `flush()` caller so far hears how it ended. The core's `Writer` decides
//! what goes into a write; this decides the order of the I/O around it. Changes from another
//! tab or device (`arrived`) are stored before the app hears of them.

use llm_memory_core::error::{Error, Result};
use llm_memory_core::store::writer::{Arrived, Write, Written};
use llm_memory_core::store::{Record, RecordOp, SessionMeta, Writer};
use std::cell::RefCell;

/// The I/O around the writes of one session.
#[allow(async_fn_in_trait)]
pub trait WriterIo {
    /// A `flush()` caller: the promise to settle in JS.
    type Waiter;

    /// The memory's changes since the last write (none once the memory is freed).
    fn memory_changes(&self) -> Vec<RecordOp>;
    /// The memory's turn count (`None`: freed, the stored count stays).
    fn turns(&self) -> Option<usize>;
    /// Every record of the memory: the first write measures the session with them.
    fn records(&self) -> Vec<Record>;
    /// The session's bookkeeping as last stored.
    fn meta(&self) -> SessionMeta;
    fn now(&self) -> f64;
    /// The sync records of `fresh`, stored with them (none without sync; a sealing failure is
    /// reported by the implementation and the changes are still stored here).
    async fn pack_for_sync(&self, fresh: &[RecordOp]) -> Vec<RecordOp>;
    /// Stores one write (sealed first with a key).
    async fn store(&self, write: &Write) -> Result<()>;
    /// A write was stored: this is now the session's bookkeeping.
    fn keep(&self, meta: SessionMeta);
    /// Tells the other tabs on the session what was stored.
    fn tell_tabs(&self, message: &str);
    /// Stored sync records wait for the server: the link pushes them.
    fn hand_to_sync(&self, ops: &[RecordOp]);
    /// A write failed (`onError`, or the console).
    fn report(&self, e: &Error);
    /// Settles a `flush()` caller.
    fn answer(&self, waiter: Self::Waiter, outcome: Result<()>);
    /// Starts `pump` in the background.
    fn start_pump(&self);
    /// Stops the sync link (the session was deleted elsewhere).
    fn stop_sync(&self);
    /// Tells the app its memory changed from elsewhere (`onChange`).
    fn tell_app(&self);
}

/// Runs writes until nothing is left or one fails, then answers the `flush()` callers. Call
/// it when `Writer::start` or `Writer::flush_requested` says so. No borrow of `writer` is held
/// while `io` runs, so a callback may change the memory or call `flush()` again.
pub async fn pump<I: WriterIo>(io: &I, writer: &RefCell<Writer<I::Waiter>>) {
    loop {
        let mut fresh = writer.borrow_mut().take_unsynced();
        fresh.extend(io.memory_changes());
        let packed = io.pack_for_sync(&fresh).await;
        fresh.extend(packed);
        let (meta, turns, now) = (io.meta(), io.turns(), io.now());
        let next = (writer.borrow_mut()).next_write(fresh, &meta, turns, || io.records(), now);
        let Some(write) = next else {
            break;
        };
        let outcome = io.store(&write).await;
        let written = writer.borrow_mut().written(write, outcome);
        match written {
            Written::Stored {
                meta,
                broadcast,
                ops,
            } => {
                io.keep(meta);
                if let Some(text) = broadcast {
                    io.tell_tabs(&text);
                }
                io.hand_to_sync(&ops);
            }
            Written::Failed(e) => {
                io.report(&e);
                break;
            }
        }
    }
    let answers = writer.borrow_mut().idle();
    for (waiter, outcome) in answers {
        io.answer(waiter, outcome);
    }
}

/// Does what the core's `Writer` said of changes from another tab or device: a deletion stops
/// the sync link, then the storing (writing would bring back a part of the session), and is
/// reported to `onError` and every later `flush()`; a refusal is reported; applied changes are
/// stored (the pump started) before the app is told.
pub fn arrived<I: WriterIo>(io: &I, writer: &RefCell<Writer<I::Waiter>>, arrived: Arrived) {
    match arrived {
        Arrived::Nothing => {}
        Arrived::Deleted => {
            io.stop_sync();
            let e = writer.borrow_mut().deleted_elsewhere(&io.meta().session);
            io.report(&e);
        }
        Arrived::Failed(e) => io.report(&e),
        Arrived::Applied { changed, write } => {
            if write && writer.borrow_mut().start() {
                io.start_pump();
            }
            if changed {
                io.tell_app();
            }
        }
    }
}
