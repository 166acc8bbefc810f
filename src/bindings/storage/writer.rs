//! Keeps a `Memory` and its stored session in step. Changes the core records are written in
//! the background, batched: every change made in one synchronous stretch of JS (a burst of
//! `add` calls) lands in one write. `flush()` resolves once everything is stored, or rejects
//! with the error, and unwritten changes stay queued for the next attempt: nothing is dropped.
//! After each write, other tabs on the same session hear of it on a BroadcastChannel.
//! With a key, every record is encrypted before it is stored; with sync, each burst of changes
//! is also packed into sync records, stored in the same write, and handed to the sync link.
//! What goes into a write is decided by the core's `store::Writer`, the order of the I/O around
//! it by `crate::session::pump`; this file runs that I/O and settles the promises.

use super::Backend;
use crate::bindings::cipher::Cipher;
use crate::bindings::errors::js_error;
use crate::bindings::sync::link::SyncLink;
use crate::error::{Error, Result};
use crate::memory::Memory as Core;
use crate::memory::Persistence as _;
use crate::session::{Mailbox, Storage as _, WriterIo};
use crate::store::writer::{Applied, Arrived, Write, DELETED_MESSAGE};
use crate::store::{Record, RecordOp, SessionMeta, Writer};
use js_sys::Function;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod sync_side;

/// A `flush()` caller: its promise's resolve and reject.
type Waiter = (Function, Function);

pub struct Store {
    /// Itself, for the writes it starts when the sync link calls it (`&self`).
    me: Weak<Store>,
    pub backend: Backend,
    pub meta: RefCell<SessionMeta>,
    core: Weak<RefCell<Core>>,
    writer: RefCell<Writer<Waiter>>,
    /// The session's channel between tabs (none for the memory backend).
    inbox: Option<Inbox>,
    on_error: Option<Function>,
    on_change: Option<Function>,
    /// Encrypts records at rest (the `encrypt` or `sync` key).
    cipher: Option<Cipher>,
    pub sync: RefCell<Option<Rc<SyncLink>>>,
}

type Listener = Closure<dyn FnMut(web_sys::MessageEvent)>;

fn channel_of(session: &str) -> Option<web_sys::BroadcastChannel> {
    web_sys::BroadcastChannel::new(&format!("llm-memory/{session}")).ok()
}

/// Posts the deletion of `session` on its channel between tabs.
pub fn announce_deleted_to_tabs(session: &str) {
    if let Some(ch) = channel_of(session) {
        let _ = ch.post_message(&JsValue::from_str(DELETED_MESSAGE));
        ch.close();
    }
}

/// A session's channel between tabs, opened before the session is read; what comes before
/// the store exists waits in its mailbox (`crate::session::Mailbox`).
pub struct Inbox {
    channel: web_sys::BroadcastChannel,
    mailbox: Rc<Mailbox<JsValue, Store>>,
    _listener: Listener,
}

impl Inbox {
    /// None for storage no other tab shares, or without BroadcastChannel.
    pub fn open(backend: &Backend, session: &str) -> Option<Inbox> {
        if !crate::session::shared_with_tabs(backend.kind()) {
            return None;
        }
        let channel = channel_of(session)?;
        let mailbox: Rc<Mailbox<JsValue, Store>> = Rc::default();
        let hear = mailbox.clone();
        let listener = Listener::new(move |e: web_sys::MessageEvent| {
            if let Some((store, message)) = hear.arrived(e.data()) {
                store.receive(message);
            }
        });
        channel.set_onmessage(Some(listener.as_ref().unchecked_ref()));
        Some(Inbox {
            channel,
            mailbox,
            _listener: listener,
        })
    }

    /// The store takes over: it hears what came so far, then each message as it comes.
    fn hand_to(&self, store: &Rc<Store>) {
        for message in self.mailbox.hand_to(store) {
            store.receive(message);
        }
    }

    /// Stops listening (closing, or opening failed), or the next message would call a
    /// dropped closure.
    fn close(&self) {
        self.channel.set_onmessage(None);
        self.channel.close();
    }
}

impl Drop for Inbox {
    fn drop(&mut self) {
        self.close();
    }
}

impl Store {
    pub fn new(
        backend: Backend,
        meta: SessionMeta,
        core: &Rc<RefCell<Core>>,
        on_error: Option<Function>,
        on_change: Option<Function>,
        inbox: Option<Inbox>,
        cipher: Option<Cipher>,
    ) -> Rc<Store> {
        let store = Rc::new_cyclic(|me| Store {
            me: me.clone(),
            backend,
            meta: RefCell::new(meta),
            core: Rc::downgrade(core),
            writer: RefCell::new(Writer::default()),
            inbox,
            on_error,
            on_change,
            cipher,
            sync: RefCell::new(None),
        });
        if let Some(inbox) = &store.inbox {
            inbox.hand_to(&store);
        }
        store
    }

    /// Another tab's message: the changes it stored, or the session's deletion.
    fn receive(self: &Rc<Self>, data: JsValue) {
        let Some(text) = data.as_string() else {
            return;
        };
        let arrived = self
            .writer
            .borrow_mut()
            .heard(&text, |ops| self.to_memory(ops));
        self.arrived(arrived);
    }

    /// Applies changes made elsewhere to the memory (`None`: it was freed).
    fn to_memory(&self, ops: Vec<RecordOp>) -> Applied {
        Some(self.core.upgrade()?.borrow_mut().apply_remote(ops))
    }

    /// Does what the writer says of changes from another tab or device
    /// (`crate::session::arrived`).
    fn arrived(&self, arrived: Arrived) {
        crate::session::arrived(self, &self.writer, arrived);
    }

    pub fn report(&self, e: &Error) {
        match &self.on_error {
            Some(f) => {
                let _ = f.call1(&JsValue::NULL, &js_error(e.code, &e.message));
            }
            None => web_sys::console::error_1(&js_error(e.code, &e.message)),
        }
    }

    /// Starts a background write of whatever the core changed, unless one is running (it
    /// picks the new changes up before it stops).
    pub fn schedule(&self) {
        if self.writer.borrow_mut().start() {
            self.spawn_pump();
        }
    }

    fn spawn_pump(&self) {
        if let Some(store) = self.me.upgrade() {
            wasm_bindgen_futures::spawn_local(async move { store.pump().await });
        }
    }

    /// The writer's loop (`crate::session::pump`), over this store's I/O.
    async fn pump(self: Rc<Self>) {
        crate::session::pump(&*self, &self.writer).await;
    }

    /// Resolves when every change so far is stored; rejects with the write error otherwise.
    pub fn flush(self: &Rc<Self>) -> js_sys::Promise {
        let mut waiter = None;
        let promise = js_sys::Promise::new(&mut |resolve, reject| waiter = Some((resolve, reject)));
        if let Some(w) = waiter {
            if self.writer.borrow_mut().flush_requested(w) {
                self.spawn_pump();
            }
        }
        promise
    }

    pub fn close(&self) {
        if let Some(link) = self.sync.borrow().as_ref() {
            link.stop();
        }
        if let Some(inbox) = &self.inbox {
            inbox.close();
        }
    }
}

impl WriterIo for Store {
    type Waiter = Waiter;

    fn memory_changes(&self) -> Vec<RecordOp> {
        let core = self.core.upgrade();
        core.map(|c| c.borrow_mut().take_changes())
            .unwrap_or_default()
    }

    fn turns(&self) -> Option<usize> {
        Some(self.core.upgrade()?.borrow().entries().len())
    }

    fn records(&self) -> Vec<Record> {
        let core = self.core.upgrade();
        core.map(|c| c.borrow().records()).unwrap_or_default()
    }

    fn meta(&self) -> SessionMeta {
        self.meta.borrow().clone()
    }

    fn now(&self) -> f64 {
        js_sys::Date::now()
    }

    async fn pack_for_sync(&self, fresh: &[RecordOp]) -> Vec<RecordOp> {
        self.pack_sync_records(fresh).await
    }

    /// Stores a write, encrypted first with a key.
    async fn store(&self, write: &Write) -> Result<()> {
        match &self.cipher {
            Some(c) => {
                let sealed = c.seal_ops(&write.meta.session, &write.ops).await?;
                self.backend.write(&write.meta, &sealed).await
            }
            None => self.backend.write(&write.meta, &write.ops).await,
        }
    }

    fn keep(&self, meta: SessionMeta) {
        *self.meta.borrow_mut() = meta;
    }

    fn tell_tabs(&self, message: &str) {
        if let Some(inbox) = &self.inbox {
            let _ = inbox.channel.post_message(&JsValue::from_str(message));
        }
    }

    fn hand_to_sync(&self, ops: &[RecordOp]) {
        self.hand_sync_records(ops);
    }

    fn report(&self, e: &Error) {
        Store::report(self, e);
    }

    fn answer(&self, (resolve, reject): Waiter, outcome: Result<()>) {
        let _ = match outcome {
            Ok(()) => resolve.call0(&JsValue::NULL),
            Err(e) => reject.call1(&JsValue::NULL, &js_error(e.code, &e.message)),
        };
    }

    fn start_pump(&self) {
        self.spawn_pump();
    }

    fn stop_sync(&self) {
        if let Some(link) = self.sync.borrow().as_ref() {
            link.stop();
        }
    }

    fn tell_app(&self) {
        if let Some(f) = &self.on_change {
            let _ = f.call0(&JsValue::NULL);
        }
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        self.close();
    }
}

/// The error for writes to a session that a newer version stored.
pub fn read_only_error(session: &str) -> JsValue {
    crate::bindings::errors::thrown(crate::store::write_queue::read_only_error(session))
}
