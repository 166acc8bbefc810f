//! The writer's side of sync: packing fresh changes into encrypted sync records stored with
//! them, handing stored ones to the link, and storing what the link pulls or acknowledges.

use super::Store;
use crate::bindings::sync::link::SyncLink;
use crate::store::RecordOp;
use std::rc::Rc;
#[cfg(feature = "sync")]
use {super::announce_deleted, crate::bindings::sync::link::LocalStore, crate::error::Error};

impl Store {
    /// Connects a sync link and this writer both ways: the writer hands it stored sync records,
    /// and it stores what it pulls through the writer.
    #[cfg(feature = "sync")]
    pub fn attach_sync(self: &Rc<Self>, link: &Rc<SyncLink>) {
        let local: Rc<dyn LocalStore> = self.clone();
        link.set_store(Rc::downgrade(&local));
        *self.sync.borrow_mut() = Some(link.clone());
    }

    /// Without sync there is no link to attach.
    #[cfg(not(feature = "sync"))]
    pub fn attach_sync(self: &Rc<Self>, link: &Rc<SyncLink>) {
        match **link {}
    }

    /// Packs fresh changes into encrypted sync records, as local records to store with them.
    /// A sealing failure (never expected with a valid key) is reported; the changes are still
    /// stored here.
    pub(super) async fn pack_for_sync(&self, fresh: &[RecordOp]) -> Vec<RecordOp> {
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
    pub(super) fn hand_to_sync(&self, ops: &[RecordOp]) {
        let link = self.sync.borrow().clone();
        if let Some(link) = link {
            link.stored(ops);
        }
    }

    /// Records to store and push as if the memory had just made them.
    pub fn enqueue_changes(self: &Rc<Self>, ops: Vec<RecordOp>) {
        if self.writer.borrow_mut().add_changes(ops) {
            self.schedule();
        }
    }

    /// Sync bookkeeping to store locally (acknowledged records leaving the outbox, the cursor).
    pub fn enqueue_local(self: &Rc<Self>, ops: Vec<RecordOp>) {
        if self.writer.borrow_mut().add_local(ops) {
            self.schedule();
        }
    }
}

#[cfg(feature = "sync")]
impl LocalStore for Store {
    fn enqueue_local(self: Rc<Self>, ops: Vec<RecordOp>) {
        Store::enqueue_local(&self, ops);
    }

    /// Another device's changes: applied to the memory, stored, and told to the app.
    fn apply_pulled(self: Rc<Self>, apply: Vec<RecordOp>, local: Vec<RecordOp>) {
        let arrived = self
            .writer
            .borrow_mut()
            .pulled(apply, local, |ops| self.to_memory(ops));
        self.arrived(arrived);
    }

    fn report(&self, e: &Error) {
        Store::report(self, e);
    }

    fn merged_records(&self) -> Vec<crate::store::Record> {
        self.core
            .upgrade()
            .map(|core| core.borrow().merged_records())
            .unwrap_or_default()
    }

    /// The session was deleted on the server: remove it from local storage, tell the other
    /// tabs, and stop storing here.
    fn deleted_on_server(
        self: Rc<Self>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = crate::error::Result<()>>>> {
        Box::pin(async move {
            let session = self.meta.borrow().session.clone();
            self.writer.borrow_mut().deleted_on_server(&session);
            self.backend.delete(&session).await?;
            announce_deleted(&self.backend, &session);
            Ok(())
        })
    }
}
