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
use crate::error::{Error, ErrorCode};
use crate::memory::Memory as Core;
use crate::store::{RecordOp, SessionMeta, StoredSizes};
use js_sys::Function;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod sync_side;

#[derive(Default)]
struct Flow {
    queue: Vec<RecordOp>,
    /// Changes to store and to sync that did not come from the memory's change log (the
    /// records a session held before it first synced).
    unsynced: Vec<RecordOp>,
    running: bool,
    waiters: Vec<(Function, Function)>,
    error: Option<Error>,
}

pub struct Store {
    pub backend: Backend,
    pub meta: RefCell<SessionMeta>,
    /// Sizes of the stored records, for the meta's `bytes`: measured at the first write, not
    /// when the session opens (measuring serializes every record).
    sizes: RefCell<Option<StoredSizes>>,
    /// The session was deleted while open (see `detach`).
    gone: std::cell::Cell<bool>,
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
    if matches!(backend, Backend::Memory(_)) {
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
        if matches!(backend, Backend::Memory(_)) {
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
                sizes: RefCell::new(None),
                gone: Default::default(),
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
        let Ok(mut ops) = serde_json::from_str::<Vec<RecordOp>>(&text) else {
            return;
        };
        ops.retain(|op| !is_sync_op(op));
        let Some(core) = self.core.upgrade() else {
            return;
        };
        if let Some(sizes) = self.sizes.borrow_mut().as_mut() {
            sizes.apply(&ops);
        }
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
        let e = Error::new(
            ErrorCode::NotFound,
            format!(
                "session {session:?} was deleted (Memory.delete or its ttlMs) while open here: \
                 changes are no longer stored; Memory.open it again to start it anew"
            ),
        );
        {
            let mut flow = self.flow.borrow_mut();
            flow.queue.clear();
            flow.error = Some(e.clone());
        }
        self.gone.set(true);
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
            let mut fresh = std::mem::take(&mut self.flow.borrow_mut().unsynced);
            if let Some(core) = self.core.upgrade() {
                fresh.extend(core.borrow_mut().take_changes());
            }
            let outbox = self.pack_for_sync(&fresh).await;
            fresh.extend(outbox);
            let ops = {
                let mut flow = self.flow.borrow_mut();
                flow.queue.extend(fresh);
                crate::store::records::compact(std::mem::take(&mut flow.queue))
            };
            if ops.is_empty() {
                break;
            }
            if self.gone.get() {
                break;
            }
            let meta = self.next_meta(&ops);
            let written = match &self.cipher {
                Some(c) => match c.seal_ops(&meta.session, &ops).await {
                    Ok(sealed) => self.backend.write(&meta, &sealed).await,
                    Err(e) => Err(e),
                },
                None => self.backend.write(&meta, &ops).await,
            };
            match written {
                Ok(()) => {
                    *self.meta.borrow_mut() = meta;
                    self.flow.borrow_mut().error = None;
                    self.broadcast(&ops);
                    self.hand_to_sync(&ops);
                }
                Err(e) => {
                    {
                        let mut flow = self.flow.borrow_mut();
                        let newer = std::mem::take(&mut flow.queue);
                        flow.queue = ops;
                        flow.queue.extend(newer);
                        flow.error = Some(e.clone());
                    }
                    self.report(&e);
                    break;
                }
            }
        }
        let (waiters, error) = {
            let mut flow = self.flow.borrow_mut();
            flow.running = false;
            (std::mem::take(&mut flow.waiters), flow.error.clone())
        };
        for (resolve, reject) in waiters {
            let _ = match &error {
                None => resolve.call0(&JsValue::NULL),
                Some(e) => reject.call1(&JsValue::NULL, &js_error(e.code, &e.message)),
            };
        }
    }

    fn next_meta(&self, ops: &[RecordOp]) -> SessionMeta {
        let mut meta = self.meta.borrow().clone();
        meta.updated_at = js_sys::Date::now();
        let core = self.core.upgrade();
        if let Some(core) = &core {
            meta.turns = core.borrow().entries().len();
        }
        // Applied before the write is known to succeed: a failed write keeps its changes
        // queued and applies them again with the next, which gives the same sizes. Measured
        // first from the memory as it is now, which holds these changes already.
        let mut sizes = self.sizes.borrow_mut();
        let sizes = sizes.get_or_insert_with(|| {
            core.map_or_else(StoredSizes::default, |c| {
                StoredSizes::of(&c.borrow().records())
            })
        });
        sizes.apply(ops);
        meta.bytes = sizes.total();
        meta
    }

    fn broadcast(&self, ops: &[RecordOp]) {
        let ops: Vec<&RecordOp> = ops.iter().filter(|op| !is_sync_op(op)).collect();
        if ops.is_empty() {
            return;
        }
        if let (Some(ch), Ok(text)) = (&self.channel, serde_json::to_string(&ops)) {
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

/// A change to the sync bookkeeping, which stays out of the memory and other tabs.
fn is_sync_op(op: &RecordOp) -> bool {
    match op {
        RecordOp::Put(r) => crate::store::records::is_sync_kind(&r.kind),
        RecordOp::Delete { kind, .. } => crate::store::records::is_sync_kind(kind),
        RecordOp::DeleteKinds { kinds } => {
            kinds.iter().any(|k| crate::store::records::is_sync_kind(k))
        }
    }
}

/// The error for writes to a session that a newer version stored.
pub fn read_only_error(session: &str) -> JsValue {
    js_error(
        ErrorCode::ReadOnly,
        &format!(
            "session {session:?} was stored by a newer llm-memory; it is open read-only so \
             that its data is not damaged: update the package to change it"
        ),
    )
}
