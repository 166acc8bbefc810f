//! Pushes a session's unsent sync records to the server and pulls the other devices' ones: on
//! open, after each local write, every `intervalMs`, on `mem.sync()`, and after a failure with
//! backoff. One cycle runs at a time (push, then pull); requests that arrive meanwhile share
//! the next one. Decisions come from `crate::sync`; this file only does the I/O.

use super::counts;
use crate::bindings::cipher::Cipher;
use crate::bindings::errors::js_error;
use crate::error::{Error, ErrorCode};
use crate::store::RecordOp;
use crate::sync::backoff::retry_delay_ms;
use crate::sync::protocol::{aad, classify, classify_pull, PushReply};
use crate::sync::{Response, SyncEngine, SyncOptions};
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

struct Answer {
    status: u16,
    text: String,
    retry_after: Option<f64>,
}

async fn call(method: &str, url: &str, token: &str, body: Option<String>) -> Answer {
    let r = sync_request(method, url, token, body).await;
    let get = |k: &str| js_sys::Reflect::get(&r, &k.into()).unwrap_or(JsValue::UNDEFINED);
    Answer {
        status: get("status").as_f64().unwrap_or(0.0) as u16,
        text: get("text").as_string().unwrap_or_default(),
        retry_after: get("retryAfter").as_f64(),
    }
}

/// Why a cycle stopped.
enum Failure {
    /// Try again after a delay (offline, server error, rate limit).
    Retry(Error, Option<f64>),
    /// Trying again cannot help (refused token, wrong key): reported, no timer.
    Stop(Error),
    /// The session was deleted on the server.
    Deleted,
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
    fn merged_records(&self) -> Vec<crate::store::Record>;
    /// The server deleted the session: remove the local copy and stop storing.
    fn deleted_on_server(self: Rc<Self>)
        -> Pin<Box<dyn Future<Output = crate::error::Result<()>>>>;
}

/// A caller of `mem.sync()`: told how many records moved since it asked (a cycle already
/// running when it asked counts too: it carries that caller's changes).
struct Asking {
    resolve: Function,
    reject: Function,
    pushed_before: usize,
    pulled_before: usize,
    compacted_before: usize,
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
    /// Records pushed, pulled and rewritten by a compaction since the instance opened.
    pushed: Cell<usize>,
    pulled: Cell<usize>,
    compacted: Cell<usize>,
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
            pushed: Cell::new(0),
            pulled: Cell::new(0),
            compacted: Cell::new(0),
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
                pushed_before: self.pushed.get(),
                pulled_before: self.pulled.get(),
                compacted_before: self.compacted.get(),
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
        js_error(
            ErrorCode::NotFound,
            &format!(
                "session {:?} is closed or was deleted: it no longer syncs",
                self.session
            ),
        )
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
            let outcome = match self.cycle().await {
                Ok(()) => {
                    self.failures.set(0);
                    self.arm(self.options.interval_ms);
                    Ok(())
                }
                Err(Failure::Retry(e, after)) => {
                    let n = self.failures.get() + 1;
                    self.failures.set(n);
                    self.arm(retry_delay_ms(n, js_sys::Math::random(), after));
                    if n == 1 {
                        self.report(&e);
                    }
                    Err(e)
                }
                Err(Failure::Stop(e)) => {
                    self.report(&e);
                    Err(e)
                }
                Err(Failure::Deleted) => Err(self.deleted_here().await),
            };
            for w in waiters {
                let _ = match &outcome {
                    Ok(()) => {
                        let done = counts(
                            self.pushed.get() - w.pushed_before,
                            self.pulled.get() - w.pulled_before,
                            self.compacted.get() - w.compacted_before,
                        );
                        w.resolve.call1(&JsValue::NULL, &done)
                    }
                    Err(e) => w
                        .reject
                        .call1(&JsValue::NULL, &js_error(e.code, &e.message)),
                };
            }
        }
        let left = std::mem::take(&mut *self.waiters.borrow_mut());
        for w in left {
            let _ = w.reject.call1(&JsValue::NULL, &self.stopped_error());
        }
        self.running.set(false);
    }

    fn report(&self, e: &Error) {
        if let Some(store) = self.store() {
            store.report(e);
        }
    }

    /// The server says the session was deleted: delete it here too, and stop.
    async fn deleted_here(&self) -> Error {
        self.stop();
        let e = Error::new(
            ErrorCode::NotFound,
            format!(
                "session {:?} was deleted on another device (or with Memory.delete): it was \
                 removed here too and no longer syncs",
                self.session
            ),
        );
        if let Some(store) = self.store() {
            if let Err(err) = store.clone().deleted_on_server().await {
                store.report(&err);
            }
            store.report(&e);
        }
        e
    }

    async fn cycle(self: &Rc<Self>) -> Result<(), Failure> {
        self.push_all().await?;
        self.pull_all().await?;
        self.compact_if_due().await
    }

    async fn push_all(&self) -> Result<(), Failure> {
        let url = self.options.records_url(&self.session);
        let mut one_at_a_time = false;
        loop {
            let batch = {
                let engine = self.engine.borrow();
                let b = engine.next_push();
                if one_at_a_time {
                    b.and_then(|b| engine.single(&b))
                } else {
                    b
                }
            };
            let Some(batch) = batch else {
                return Ok(());
            };
            let a = call("POST", &url, &self.options.token, Some(batch.body.clone())).await;
            match classify::<PushReply>("push", a.status, &a.text, a.retry_after) {
                Response::Ok(reply) => {
                    let done = self.engine.borrow_mut().acked(&reply.acked);
                    if done.is_empty() {
                        return Err(Failure::Retry(
                            Error::new(
                                ErrorCode::SyncFailed,
                                "push: the server acknowledged none of the records sent",
                            ),
                            None,
                        ));
                    }
                    self.pushed.set(self.pushed.get() + done.len());
                    if let Some(store) = self.store() {
                        store.enqueue_local(done);
                    }
                }
                Response::Deleted => return Err(Failure::Deleted),
                Response::Retry { error, after_ms } => return Err(Failure::Retry(error, after_ms)),
                Response::Refused { id, error } => {
                    if id.is_none() && batch.ids.len() > 1 {
                        one_at_a_time = true;
                        continue;
                    }
                    let dropped = self.engine.borrow_mut().refused(id.as_deref(), &batch);
                    if dropped.is_empty() {
                        return Err(Failure::Stop(error));
                    }
                    self.report(&error);
                    if let Some(store) = self.store() {
                        store.enqueue_local(dropped);
                    }
                }
                Response::Fatal(e) => return Err(Failure::Stop(e)),
            }
        }
    }

    /// One page of the log after `after`, decrypted: `(id, seq, plaintext)`, and whether more
    /// follow.
    async fn read_page(&self, after: u64) -> Result<(Vec<(String, u64, String)>, bool), Failure> {
        let url = self.options.pull_url(&self.session, after);
        let a = call("GET", &url, &self.options.token, None).await;
        let page = match classify_pull(a.status, &a.text, a.retry_after) {
            Response::Ok(page) => page,
            Response::Deleted => return Err(Failure::Deleted),
            Response::Retry { error, after_ms } => return Err(Failure::Retry(error, after_ms)),
            Response::Refused { error, .. } | Response::Fatal(error) => {
                return Err(Failure::Stop(error))
            }
        };
        let aads = page
            .records
            .iter()
            .map(|r| aad(&self.session, &r.id))
            .collect();
        let datas = page.records.iter().map(|r| r.data.clone()).collect();
        let place = format!("pulling session {:?} from the sync server", self.session);
        let plains = self
            .cipher
            .open(aads, datas, &place)
            .await
            .map_err(Failure::Stop)?;
        let items = page
            .records
            .iter()
            .zip(plains)
            .map(|(r, p)| (r.id.clone(), r.seq, p))
            .collect();
        Ok((items, page.more))
    }

    async fn pull_all(&self) -> Result<(), Failure> {
        loop {
            let after = self.engine.borrow().cursor();
            let (items, more) = self.read_page(after).await?;
            if items.is_empty() {
                return Ok(());
            }
            let accepted = self
                .engine
                .borrow_mut()
                .accept(&items, js_sys::Date::now())
                .map_err(Failure::Stop)?;
            self.pulled.set(self.pulled.get() + accepted.foreign);
            if let Some(store) = self.store() {
                store.apply_pulled(accepted.apply, accepted.local);
            }
            if !more || self.engine.borrow().cursor() <= after {
                return Ok(());
            }
        }
    }

    /// After a forget or clear reached the server: reads the log up to this device's cursor
    /// back, and has the server replace the batches that held superseded changes
    /// (`crate::sync::compact`). A server that cannot compact (an older one, a refused
    /// rewrite) is reported once and the compaction is given up; the sync goes on.
    async fn compact_if_due(&self) -> Result<(), Failure> {
        let (mark, upto, unsent) = {
            let e = self.engine.borrow();
            (e.due_mark(), e.cursor(), e.unsent())
        };
        if mark == 0 || upto == 0 || unsent > 0 {
            return Ok(());
        }
        let mut log = Vec::new();
        loop {
            let after = log
                .last()
                .map_or(0, |(_, seq, _): &(String, u64, String)| *seq);
            let (items, more) = self.read_page(after).await?;
            let done = items.is_empty() || !more || items.iter().any(|(_, seq, _)| *seq >= upto);
            log.extend(items);
            if done {
                break;
            }
        }
        let merged = self.store().map(|s| s.merged_records()).unwrap_or_default();
        let plan = self.engine.borrow().plan_compaction(&log, upto, &merged);
        let outcome = match plan {
            Ok(plan) => self.send_compaction(plan).await,
            Err(e) => Err(Failure::Stop(e)),
        };
        match outcome {
            Ok(()) => {}
            Err(Failure::Stop(e)) => self.report(&e),
            Err(other) => return Err(other),
        }
        let done = self.engine.borrow_mut().compacted(mark);
        if let (Some(store), false) = (self.store(), done.is_empty()) {
            store.enqueue_local(done);
        }
        Ok(())
    }

    async fn send_compaction(&self, plan: crate::sync::Compaction) -> Result<(), Failure> {
        let (ids, plains): (Vec<String>, Vec<String>) = plan.rewrites.into_iter().unzip();
        let aads = ids.iter().map(|id| aad(&self.session, id)).collect();
        let datas = self
            .cipher
            .seal(aads, plains)
            .await
            .map_err(Failure::Stop)?;
        let rewrites: Vec<(String, String)> = ids.into_iter().zip(datas).collect();
        let url = self.options.compact_url(&self.session);
        for body in crate::sync::compact::compact_bodies(plan.upto, &rewrites) {
            let a = call("POST", &url, &self.options.token, Some(body)).await;
            // Another device compacted further, from a later read: that covers this one.
            if a.status == 409 && a.text.contains("\"compact_stale\"") {
                return Ok(());
            }
            match classify::<serde_json::Value>("compact", a.status, &a.text, a.retry_after) {
                Response::Ok(reply) => {
                    let n = reply["rewritten"].as_u64().unwrap_or(0) as usize;
                    self.compacted.set(self.compacted.get() + n);
                }
                Response::Deleted => return Err(Failure::Deleted),
                Response::Retry { error, after_ms } => return Err(Failure::Retry(error, after_ms)),
                Response::Refused { error, .. } | Response::Fatal(error) => {
                    return Err(Failure::Stop(error))
                }
            }
        }
        Ok(())
    }
}

impl Drop for SyncLink {
    fn drop(&mut self) {
        self.disarm();
    }
}

/// `DELETE /v1/sessions/{sid}` (for `Memory.delete` with `sync`): gone on the server, so every
/// device deletes it at its next pull. A session already deleted there counts as done.
pub async fn delete_on_server(options: &SyncOptions, session: &str) -> Result<(), Error> {
    let a = call(
        "DELETE",
        &options.session_url(session),
        &options.token,
        None,
    )
    .await;
    if a.status == 404 || a.status == 410 {
        return Ok(());
    }
    match classify::<serde_json::Value>("delete", a.status, &a.text, a.retry_after) {
        Response::Ok(_) | Response::Deleted => Ok(()),
        Response::Retry { error, .. }
        | Response::Refused { error, .. }
        | Response::Fatal(error) => Err(error),
    }
}
