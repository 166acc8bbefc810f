//! Runs a session's sync cycles (`crate::sync::cycle`): on open, after each local write,
//! every `intervalMs`, on `mem.sync()`, and after a failure with backoff. One cycle runs at a
//! time; requests that arrive meanwhile share the next one. What a cycle does and what comes
//! after it is decided in `crate::sync`; this file makes the requests, runs the crypto and
//! the timers, and answers the callers.

use super::counts;
use crate::bindings::cipher::Cipher;
use crate::bindings::errors::thrown;
use crate::error::{Error, Result};
use crate::store::{Record, RecordOp};
use crate::sync::cycle::{stopped_error, HttpReply, Io, Link, Next, Tally};
use crate::sync::{SyncEngine, SyncOptions};
use js_sys::Function;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/bindings/sync/http.js")]
extern "C" {
    #[wasm_bindgen(js_name = syncRequest)]
    async fn sync_request(method: &str, url: &str, token: &str, body: Option<String>) -> JsValue;
    #[wasm_bindgen(js_name = startTimer)]
    fn start_timer(f: &Function, ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = cancelTimer)]
    fn cancel_timer(handle: &JsValue);
}

/// One request to the sync server.
pub async fn call(method: &str, url: &str, token: &str, body: Option<String>) -> HttpReply {
    let r = sync_request(method, url, token, body).await;
    let get = |k: &str| js_sys::Reflect::get(&r, &k.into()).unwrap_or(JsValue::UNDEFINED);
    HttpReply {
        status: get("status").as_f64().unwrap_or(0.0) as u16,
        text: get("text").as_string().unwrap_or_default(),
        retry_after: get("retryAfter").as_f64(),
    }
}

type Waiter = (Function, Function);

/// What the link needs from the session's local store (the writer implements it): the link
/// never writes storage itself.
pub trait LocalStore {
    /// Stores sync bookkeeping (acknowledged records leaving the outbox, the cursor).
    fn enqueue_local(self: Rc<Self>, ops: Vec<RecordOp>);
    /// Applies other devices' changes to the memory and stores them with `local`.
    fn apply_pulled(self: Rc<Self>, apply: Vec<RecordOp>, local: Vec<RecordOp>);
    /// Tells the app (`onError`).
    fn report(&self, e: &Error);
    /// The memory's records that merge on arrival (its vault), for a compaction.
    fn merged_records(&self) -> Vec<Record>;
    /// The server deleted the session: remove the local copy and stop storing.
    fn deleted_on_server(self: Rc<Self>)
        -> Pin<Box<dyn Future<Output = crate::error::Result<()>>>>;
}

/// A caller of `mem.sync()`: told how many records moved since it asked (a cycle already
/// running when it asked counts too: it carries that caller's changes).
struct Asking {
    resolve: Function,
    reject: Function,
    before: Tally,
}

pub struct SyncLink {
    pub options: SyncOptions,
    session: String,
    cipher: Cipher,
    pub engine: RefCell<SyncEngine>,
    store: RefCell<Option<Weak<dyn LocalStore>>>,
    running: Cell<bool>,
    wanted: Cell<bool>,
    stopped: Cell<bool>,
    waiters: RefCell<Vec<Asking>>,
    failures: Cell<u32>,
    tally: Cell<Tally>,
    timer: RefCell<Option<JsValue>>,
    tick: RefCell<Option<Closure<dyn FnMut()>>>,
}

impl SyncLink {
    pub fn new(
        options: SyncOptions,
        session: &str,
        cipher: Cipher,
        engine: SyncEngine,
    ) -> Rc<SyncLink> {
        let link = Rc::new(SyncLink {
            options,
            session: session.to_string(),
            cipher,
            engine: RefCell::new(engine),
            store: RefCell::new(None),
            running: Cell::new(false),
            wanted: Cell::new(false),
            stopped: Cell::new(false),
            waiters: RefCell::new(Vec::new()),
            failures: Cell::new(0),
            tally: Cell::new(Tally::default()),
            timer: RefCell::new(None),
            tick: RefCell::new(None),
        });
        let weak = Rc::downgrade(&link);
        let tick = Closure::<dyn FnMut()>::new(move || {
            if let Some(link) = weak.upgrade() {
                link.timer.borrow_mut().take();
                link.request(None);
            }
        });
        *link.tick.borrow_mut() = Some(tick);
        link
    }

    pub fn set_store(&self, store: Weak<dyn LocalStore>) {
        *self.store.borrow_mut() = Some(store);
    }

    pub fn cipher(&self) -> &Cipher {
        &self.cipher
    }

    fn store(&self) -> Option<Rc<dyn LocalStore>> {
        self.store.borrow().as_ref()?.upgrade()
    }

    /// Runs a cycle soon; `waiter` hears how it went (`{ pushed, pulled }` or the error).
    pub fn request(self: &Rc<Self>, waiter: Option<Waiter>) {
        if self.stopped.get() {
            if let Some((_, reject)) = waiter {
                let _ = reject.call1(&JsValue::NULL, &self.stopped_error());
            }
            return;
        }
        if let Some((resolve, reject)) = waiter {
            self.waiters.borrow_mut().push(Asking {
                resolve,
                reject,
                before: self.tally.get(),
            });
        }
        self.wanted.set(true);
        if self.running.replace(true) {
            return;
        }
        let me = self.clone();
        wasm_bindgen_futures::spawn_local(async move { me.work().await });
    }

    /// A cycle now, as a promise of `{ pushed, pulled }`.
    pub fn run_now(self: &Rc<Self>) -> js_sys::Promise {
        let mut waiter = None;
        let p = js_sys::Promise::new(&mut |resolve, reject| waiter = Some((resolve, reject)));
        self.request(waiter);
        p
    }

    fn stopped_error(&self) -> JsValue {
        thrown(stopped_error(&self.session))
    }

    /// Stops the timers and further cycles (close, free, deletion).
    pub fn stop(&self) {
        self.stopped.set(true);
        self.disarm();
    }

    fn disarm(&self) {
        if let Some(h) = self.timer.borrow_mut().take() {
            cancel_timer(&h);
        }
    }

    fn arm(&self, ms: f64) {
        self.disarm();
        if ms <= 0.0 || self.stopped.get() {
            return;
        }
        if let Some(tick) = self.tick.borrow().as_ref() {
            let f: &Function = tick.as_ref().unchecked_ref();
            *self.timer.borrow_mut() = Some(start_timer(f, ms));
        }
    }

    async fn work(self: Rc<Self>) {
        while self.wanted.replace(false) && !self.stopped.get() {
            self.disarm();
            let waiters = std::mem::take(&mut *self.waiters.borrow_mut());
            let link = Link {
                io: &*self,
                engine: &self.engine,
                options: &self.options,
                session: &self.session,
                tally: &self.tally,
                failures: &self.failures,
            };
            let outcome = match link.run(js_sys::Math::random()).await {
                Next::Synced { ms } => {
                    self.arm(ms);
                    Ok(())
                }
                Next::Failed {
                    error,
                    report,
                    retry_ms,
                } => {
                    if let Some(ms) = retry_ms {
                        self.arm(ms);
                    }
                    if report {
                        Io::report(&*self, &error);
                    }
                    Err(error)
                }
                Next::Deleted(error) => {
                    self.deleted_here(&error).await;
                    Err(error)
                }
            };
            for w in waiters {
                let _ = match &outcome {
                    Ok(()) => {
                        let done = self.tally.get().since(w.before);
                        let done = counts(done.pushed, done.pulled, done.compacted);
                        w.resolve.call1(&JsValue::NULL, &done)
                    }
                    Err(e) => w.reject.call1(&JsValue::NULL, &thrown(e.clone())),
                };
            }
        }
        let left = std::mem::take(&mut *self.waiters.borrow_mut());
        for w in left {
            let _ = w.reject.call1(&JsValue::NULL, &self.stopped_error());
        }
        self.running.set(false);
    }

    /// The server says the session was deleted: delete it here too, and stop.
    async fn deleted_here(&self, e: &Error) {
        self.stop();
        if let Some(store) = self.store() {
            if let Err(err) = store.clone().deleted_on_server().await {
                store.report(&err);
            }
            store.report(e);
        }
    }
}

impl Io for SyncLink {
    async fn http(&self, method: &'static str, url: &str, body: Option<String>) -> HttpReply {
        call(method, url, &self.options.token, body).await
    }

    async fn open(
        &self,
        aads: Vec<String>,
        datas: Vec<String>,
        place: &str,
    ) -> Result<Vec<String>> {
        self.cipher.open(aads, datas, place).await
    }

    async fn seal(&self, aads: Vec<String>, plains: Vec<String>) -> Result<Vec<String>> {
        self.cipher.seal(aads, plains).await
    }

    fn store_local(&self, ops: Vec<RecordOp>) {
        if let Some(store) = self.store() {
            store.enqueue_local(ops);
        }
    }

    fn apply_pulled(&self, apply: Vec<RecordOp>, local: Vec<RecordOp>) {
        if let Some(store) = self.store() {
            store.apply_pulled(apply, local);
        }
    }

    fn report(&self, e: &Error) {
        if let Some(store) = self.store() {
            store.report(e);
        }
    }

    fn merged_records(&self) -> Vec<Record> {
        self.store().map(|s| s.merged_records()).unwrap_or_default()
    }

    fn now(&self) -> f64 {
        js_sys::Date::now()
    }
}

impl Drop for SyncLink {
    fn drop(&mut self) {
        self.disarm();
    }
}
