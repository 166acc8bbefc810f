//! The writer's side of sync: packing fresh changes into encrypted sync records stored with
//! them, handing stored ones to the link, and storing what the link pulls or acknowledges.

use super::Store;
use crate::bindings::cipher::Cipher;
use crate::bindings::sync::{link::SyncLink, SyncSpec};
use crate::store::{Record, RecordOp};
use std::rc::Rc;
#[cfg(feature = "sync")]
use {
    crate::error::Error, crate::memory::Persistence as _, crate::sync::cycle::Local,
    std::future::Future, std::pin::Pin,
};

impl Store {
    /// Links the session to the sync server, both ways: the writer hands the link stored sync
    /// records, and the link stores what it pulls through the writer (held weakly: the link of
    /// a freed memory stores and tells nothing).
    #[cfg(feature = "sync")]
    pub fn attach_sync(
        self: &Rc<Self>,
        spec: &SyncSpec,
        session: &str,
        cipher: Cipher,
        stored: &[Record],
    ) -> Rc<SyncLink> {
        let local = Box::new(Rc::downgrade(self));
        let link = spec.link(session, cipher, stored, local);
        *self.sync.borrow_mut() = Some(link.clone());
        link
    }

    /// Without sync there is no link to attach.
    #[cfg(not(feature = "sync"))]
    pub fn attach_sync(&self, spec: &SyncSpec, _: &str, _: Cipher, _: &[Record]) -> Rc<SyncLink> {
        match *spec {}
    }

    /// Packs fresh changes into encrypted sync records, as local records to store with them.
    /// A sealing failure (never expected with a valid key) is reported; the changes are still
    /// stored here.
    pub(super) async fn pack_sync_records(&self, fresh: &[RecordOp]) -> Vec<RecordOp> {
        let link = self.sync.borrow().clone();
        let Some(link) = link else {
            return Vec::new();
        };
        link.pack(fresh).await.unwrap_or_else(|e| {
            self.report(&e);
            Vec::new()
        })
    }

    /// After a write: stored sync records wait for the server, which the link is asked to do.
    pub(super) fn hand_sync_records(&self, ops: &[RecordOp]) {
        let link = self.sync.borrow().clone();
        if let Some(link) = link {
            link.stored(ops);
        }
    }

    /// Records to store and push as if the memory had just made them.
    pub fn enqueue_changes(&self, ops: Vec<RecordOp>) {
        if self.writer.borrow_mut().add_changes(ops) {
            self.schedule();
        }
    }

    /// Sync bookkeeping to store locally (acknowledged records leaving the outbox, the cursor).
    pub fn enqueue_local(&self, ops: Vec<RecordOp>) {
        if self.writer.borrow_mut().add_local(ops) {
            self.schedule();
        }
    }
}

#[cfg(feature = "sync")]
impl Local for Store {
    fn store_local(&self, ops: Vec<RecordOp>) {
        self.enqueue_local(ops);
    }

    /// Another device's changes: applied to the memory, stored, and told to the app.
    fn apply_pulled(&self, apply: Vec<RecordOp>, local: Vec<RecordOp>) {
        let arrived = (self.writer.borrow_mut()).pulled(apply, local, |ops| self.to_memory(ops));
        self.arrived(arrived);
    }

    fn report(&self, e: &Error) {
        Store::report(self, e);
    }

    fn merged_records(&self) -> Vec<Record> {
        self.core
            .upgrade()
            .map(|core| core.borrow().merged_records())
            .unwrap_or_default()
    }

    /// The session was deleted on the server: remove it from local storage, tell the other
    /// tabs, and stop storing here.
    fn deleted_on_server(&self) -> Pin<Box<dyn Future<Output = ()>>> {
        let store = self.me.upgrade();
        Box::pin(async move {
            let Some(store) = store else {
                return;
            };
            let session = store.meta.borrow().session.clone();
            let gone = crate::session::deleted_on_server(&store.backend, &store.writer, &session);
            if let Err(e) = gone.await {
                store.report(&e);
            }
        })
    }
}
