//! Keeps a `Memory` and its stored session in step. Changes the core records are written in
//! the background, batched: every change made in one synchronous stretch of JS (a burst of
//! `add` calls) lands in one write. `flush()` resolves once everything is stored, or rejects
//! with the error, and unwritten changes stay queued for the next attempt: nothing is dropped.
//! After each write, other tabs on the same session hear of it on a BroadcastChannel.
//! With a key, every record is encrypted before it is stored; with sync, each burst of changes
//! is also packed into sync records, stored in the same write, and handed to the sync link.

use super::Backend;
use crate::bindings::cipher::Cipher;
use crate::bindings::errors::js_error;
use crate::bindings::sync::link::SyncLink;
use crate::error::Error;
use crate::memory::Memory as Core;
use crate::store::{RecordOp, SessionMeta, WriteQueue};
use js_sys::Function;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod sync_side;

/// A write runs at a time; `flush()` callers wait for the queue to empty.
#[derive(Default)]
struct Flow {
    queue: WriteQueue,
    running: bool,
    waiters: Vec<(Function, Function)>,
}

pub struct Store {
    pub backend: Backend,
    pub meta: RefCell<SessionMeta>,
    core: Weak<RefCell<Core>>,
    flow: RefCell<Flow>,
    channel: Option<web_sys::BroadcastChannel>,
    on_error: Option<Function>,
    on_change: RefCell<Option<Function>>,
    _listener: Option<Listener>,
    /// Encrypts records at rest (the `encrypt` or `sync` key).
    cipher: Option<Cipher>,
    pub sync: RefCell<Option<Rc<SyncLink>>>,
}

type Listener = Closure<dyn FnMut(web_sys::MessageEvent)>;

/// What `Memory.delete` (or expiry) says on a session's channel: open tabs stop storing, so
/// a later change does not bring back a partial session.
const DELETED: &str = "{\"deleted\":true}";

fn channel_of(session: &str) -> Option<web_sys::BroadcastChannel> {
    web_sys::BroadcastChannel::new(&format!("llm-memory/{session}")).ok()
}

/// Tells every tab that has `session` open (this one included) that it was deleted.
pub fn announce_deleted(backend: &Backend, session: &str) {
    if backend.kind() == super::StorageKind::Memory {
        return;
    }
    if let Some(ch) = channel_of(session) {
        let _ = ch.post_message(&JsValue::from_str(DELETED));
        ch.close();
    }
}

/// A session's channel between tabs, opened before the session is read: what another tab
/// stores while this one loads is kept here and applied once the store exists, not missed.
pub struct Inbox {
    /// Taken by the store; still here if opening failed, and then closed on drop.
    channel: Option<web_sys::BroadcastChannel>,
    early: Rc<RefCell<Vec<JsValue>>>,
    _buffer: Listener,
}

impl Inbox {
    /// The channel and what it heard so far, for the store that takes over.
    fn take(mut self) -> (Option<web_sys::BroadcastChannel>, Vec<JsValue>) {
        (self.channel.take(), self.early.take())
    }
}

impl Drop for Inbox {
    /// Opening failed: stop listening, or the next message would call a dropped closure.
    fn drop(&mut self) {
        if let Some(ch) = self.channel.take() {
            ch.set_onmessage(None);
            ch.close();
        }
    }
}

impl Inbox {
    /// None for the memory backend (nothing to share) or without BroadcastChannel.
    pub fn open(backend: &Backend, session: &str) -> Option<Inbox> {
        if backend.kind() == super::StorageKind::Memory {
            return None;
        }
        let channel = channel_of(session)?;
        let early = Rc::new(RefCell::new(Vec::new()));
        let keep = early.clone();
        let buffer =
            Listener::new(move |e: web_sys::MessageEvent| keep.borrow_mut().push(e.data()));
        channel.set_onmessage(Some(buffer.as_ref().unchecked_ref()));
        Some(Inbox {
            channel: Some(channel),
            early,
            _buffer: buffer,
        })
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
        let (channel, early) = inbox.map_or((None, Vec::new()), Inbox::take);
        let store = Rc::new_cyclic(|weak: &Weak<Store>| {
            let listener = channel.as_ref().map(|ch| {
                let store = weak.clone();
                let l = Listener::new(move |e: web_sys::MessageEvent| {
                    if let Some(store) = store.upgrade() {
                        store.receive(e.data());
                    }
                });
                ch.set_onmessage(Some(l.as_ref().unchecked_ref()));
                l
            });
            Store {
                backend,
                meta: RefCell::new(meta),
                core: Rc::downgrade(core),
                flow: RefCell::new(Flow::default()),
                channel,
                on_error,
                on_change: RefCell::new(on_change),
                _listener: listener,
                cipher,
                sync: RefCell::new(None),
            }
        });
        for message in early {
            store.receive(message);
        }
        store
    }

    /// Another tab stored changes: apply them here and tell the app.
    fn receive(&self, data: JsValue) {
        let Some(text) = data.as_string() else {
            return;
        };
        if text == DELETED {
            self.detach();
            return;
        }
        let Some(ops) = self.flow.borrow_mut().queue.received(&text) else {
            return;
        };
        let Some(core) = self.core.upgrade() else {
            return;
        };
        let result = core.borrow_mut().apply_remote(ops);
        match result {
            Ok(()) => {
                let f = self.on_change.borrow().clone();
                if let Some(f) = f {
                    let _ = f.call0(&JsValue::NULL);
                }
            }
            Err(e) => self.report(&e),
        }
    }

    /// The session was deleted elsewhere: stop storing (writing would bring back a part of
    /// it), keep the memory as it is, and say so to `onError` and to every later `flush()`.
    pub fn detach(&self) {
        if let Some(link) = self.sync.borrow().as_ref() {
            link.stop();
        }
        let session = self.meta.borrow().session.clone();
        let e = self.flow.borrow_mut().queue.deleted_elsewhere(&session);
        self.report(&e);
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
    pub fn schedule(self: &Rc<Self>) {
        {
            let mut flow = self.flow.borrow_mut();
            if flow.running {
                return;
            }
            flow.running = true;
        }
        let store = self.clone();
        wasm_bindgen_futures::spawn_local(async move { store.pump().await });
    }

    async fn pump(self: Rc<Self>) {
        loop {
            let mut fresh = self.flow.borrow_mut().queue.take_unsynced();
            if let Some(core) = self.core.upgrade() {
                fresh.extend(core.borrow_mut().take_changes());
            }
            let outbox = self.pack_for_sync(&fresh).await;
            fresh.extend(outbox);
            let Some(ops) = self.flow.borrow_mut().queue.next_batch(fresh) else {
                break;
            };
            let meta = self.next_meta(&ops);
            let written = match &self.cipher {
                Some(c) => match c.seal_ops(&meta.session, &ops).await {
                    Ok(sealed) => self.backend.write(&meta, &sealed).await,
                    Err(e) => Err(e),
                },
                None => self.backend.write(&meta, &ops).await,
            };
            if let Err(e) = &written {
                self.report(e);
            } else {
                *self.meta.borrow_mut() = meta;
                self.broadcast(&ops);
                self.hand_to_sync(&ops);
            }
            let failed = written.is_err();
            self.flow.borrow_mut().queue.written(ops, written);
            if failed {
                break;
            }
        }
        let (waiters, error) = {
            let mut flow = self.flow.borrow_mut();
            flow.running = false;
            (
                std::mem::take(&mut flow.waiters),
                flow.queue.error().cloned(),
            )
        };
        for (resolve, reject) in waiters {
            let _ = match &error {
                None => resolve.call0(&JsValue::NULL),
                Some(e) => reject.call1(&JsValue::NULL, &js_error(e.code, &e.message)),
            };
        }
    }

    fn next_meta(&self, ops: &[RecordOp]) -> SessionMeta {
        let core = self.core.upgrade();
        let turns = core.as_ref().map(|c| c.borrow().entries().len());
        let meta = self.meta.borrow();
        let turns = turns.unwrap_or(meta.turns);
        let records = || core.map_or_else(Vec::new, |c| c.borrow().records());
        let mut flow = self.flow.borrow_mut();
        flow.queue
            .next_meta(&meta, ops, turns, records, js_sys::Date::now())
    }

    fn broadcast(&self, ops: &[RecordOp]) {
        if let (Some(ch), Some(text)) = (&self.channel, WriteQueue::broadcast(ops)) {
            let _ = ch.post_message(&JsValue::from_str(&text));
        }
    }

    /// Resolves when every change so far is stored; rejects with the write error otherwise.
    pub fn flush(self: &Rc<Self>) -> js_sys::Promise {
        let mut waiter = None;
        let promise = js_sys::Promise::new(&mut |resolve, reject| waiter = Some((resolve, reject)));
        if let Some(w) = waiter {
            self.flow.borrow_mut().waiters.push(w);
        }
        let running = self.flow.borrow().running;
        if !running {
            self.schedule();
        }
        promise
    }

    pub fn close(&self) {
        if let Some(link) = self.sync.borrow().as_ref() {
            link.stop();
        }
        if let Some(ch) = &self.channel {
            ch.set_onmessage(None);
            ch.close();
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
