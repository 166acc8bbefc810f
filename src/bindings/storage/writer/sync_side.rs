//! The writer's side of sync: packing fresh changes into encrypted sync records stored with
//! them, handing stored ones to the link, and storing what the link pulls or acknowledges.

use super::Store;
use crate::bindings::sync::link::SyncLink;
use crate::store::RecordOp;
use std::rc::Rc;
#[cfg(feature = "sync")]
use {
    super::announce_deleted, crate::bindings::sync::link::LocalStore, crate::error::Error,
    wasm_bindgen::prelude::*,
};

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

    /// Without sync, nothing to pack.
    #[cfg(not(feature = "sync"))]
    pub(super) async fn pack_for_sync(&self, _fresh: &[RecordOp]) -> Vec<RecordOp> {
        Vec::new()
    }

    /// Without sync, nothing to hand on.
    #[cfg(not(feature = "sync"))]
    pub(super) fn hand_to_sync(&self, _ops: &[RecordOp]) {}

    /// Packs fresh changes into encrypted sync records, as local records to store with them.
    /// A sealing failure (never expected with a valid key) is reported; the changes are still
    /// stored here.
    #[cfg(feature = "sync")]
    pub(super) async fn pack_for_sync(&self, fresh: &[RecordOp]) -> Vec<RecordOp> {
        let link = self.sync.borrow().clone();
        let Some(link) = link else {
            return Vec::new();
        };
        let outs = link.engine.borrow_mut().plan(fresh);
        if outs.is_empty() {
            return Vec::new();
        }
        let session = self.meta.borrow().session.clone();
        let aads = outs
            .iter()
            .map(|o| crate::sync::protocol::aad(&session, &o.id))
            .collect();
        let plains = outs.iter().map(|o| o.plain.clone()).collect();
        match link.cipher().seal(aads, plains).await {
            Ok(datas) => {
                let now = js_sys::Date::now();
                let engine = link.engine.borrow();
                outs.iter()
                    .zip(datas)
                    .enumerate()
                    .flat_map(|(i, (o, d))| engine.stored_records(o, d, now + i as f64 / 1000.0))
                    .collect()
            }
            Err(e) => {
                self.report(&e);
                Vec::new()
            }
        }
    }

    /// After a write: stored sync records wait for the server, which the link is asked to do.
    #[cfg(feature = "sync")]
    pub(super) fn hand_to_sync(&self, ops: &[RecordOp]) {
        let link = self.sync.borrow().clone();
        if let Some(link) = link {
            let before = link.engine.borrow().unsent();
            link.engine.borrow_mut().note_stored(ops);
            if link.engine.borrow().unsent() > before {
                link.request(None);
            }
        }
    }

    /// Records to store and push as if the memory had just made them.
    pub fn enqueue_changes(self: &Rc<Self>, ops: Vec<RecordOp>) {
        if self.flow.borrow_mut().queue.add_changes(ops) {
            self.schedule();
        }
    }

    /// Sync bookkeeping to store locally (acknowledged records leaving the outbox, the cursor).
    pub fn enqueue_local(self: &Rc<Self>, ops: Vec<RecordOp>) {
        if self.flow.borrow_mut().queue.add_local(ops) {
            self.schedule();
        }
    }

    /// Another device's changes: applied to the memory, stored, and told to the app.
    #[cfg(feature = "sync")]
    pub fn apply_pulled(self: &Rc<Self>, apply: Vec<RecordOp>, local: Vec<RecordOp>) {
        if self.flow.borrow().queue.is_gone() {
            return;
        }
        let changed = !apply.is_empty();
        if changed {
            let Some(core) = self.core.upgrade() else {
                return;
            };
            let result = core.borrow_mut().apply_remote(apply.clone());
            if let Err(e) = result {
                self.report(&e);
                return;
            }
        }
        let mut ops = apply;
        ops.extend(local);
        self.flow.borrow_mut().queue.add_local(ops);
        self.schedule();
        if changed {
            let f = self.on_change.borrow().clone();
            if let Some(f) = f {
                let _ = f.call0(&JsValue::NULL);
            }
        }
    }

    /// The session was deleted on the server: remove it from local storage, tell the other
    /// tabs, and stop storing here.
    #[cfg(feature = "sync")]
    pub async fn delete_everywhere_here(&self) -> crate::error::Result<()> {
        let session = self.meta.borrow().session.clone();
        self.flow.borrow_mut().queue.deleted_on_server(&session);
        self.backend.delete(&session).await?;
        announce_deleted(&self.backend, &session);
        Ok(())
    }
}

#[cfg(feature = "sync")]
impl LocalStore for Store {
    fn enqueue_local(self: Rc<Self>, ops: Vec<RecordOp>) {
        Store::enqueue_local(&self, ops);
    }

    fn apply_pulled(self: Rc<Self>, apply: Vec<RecordOp>, local: Vec<RecordOp>) {
        Store::apply_pulled(&self, apply, local);
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

    fn deleted_on_server(
        self: Rc<Self>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = crate::error::Result<()>>>> {
        Box::pin(async move { self.delete_everywhere_here().await })
    }
}
