//! Runs a session's sync cycles (`crate::sync::cycle`): on open, after each local write,
//! every `intervalMs`, on `mem.sync()`, and after a failure with backoff. One cycle runs at a
//! time; requests that arrive meanwhile share the next one. What a cycle does, when the next
//! runs, who hears what and in which order is decided in `crate::sync` (`cycle`, `schedule`,
//! `task`); this file makes the requests, runs the crypto and the timers, and answers the
//! callers.

use crate::bindings::cipher::Cipher;
use crate::bindings::errors::thrown;
use crate::bindings::to_js;
use crate::error::Result;
use crate::store::RecordOp;
use crate::sync::cycle::{stopped_error, HttpReply, Io, LinkState, Local, Tally};
use crate::sync::schedule::{Requested, Schedule};
use crate::sync::task::{run_task, TaskIo};
use js_sys::Function;
use std::cell::RefCell;
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

pub struct SyncLink {
    state: LinkState,
    cipher: Cipher,
    /// The session's writer: what the link pulls or acknowledges is stored through it.
    local: Box<dyn Local>,
    schedule: RefCell<Schedule<Waiter>>,
    timer: RefCell<Option<JsValue>>,
    /// What the timer calls: a cycle.
    tick: Closure<dyn FnMut()>,
}

impl SyncLink {
    pub fn new(state: LinkState, cipher: Cipher, local: Box<dyn Local>) -> Rc<SyncLink> {
        Rc::new_cyclic(|weak: &Weak<SyncLink>| {
            let weak = weak.clone();
            SyncLink {
                state,
                cipher,
                local,
                schedule: RefCell::new(Schedule::default()),
                timer: RefCell::new(None),
                tick: Closure::new(move || {
                    if let Some(link) = weak.upgrade() {
                        link.timer.borrow_mut().take();
                        link.request(None);
                    }
                }),
            }
        })
    }

    /// Runs a cycle soon; `waiter` hears how it went (`{ pushed, pulled }` or the error).
    pub fn request(self: &Rc<Self>, waiter: Option<Waiter>) {
        let requested = self
            .schedule
            .borrow_mut()
            .request(waiter, self.state.tally.get());
        match requested {
            Requested::Start => {
                let me = self.clone();
                wasm_bindgen_futures::spawn_local(async move { me.work().await });
            }
            Requested::Joined => {}
            Requested::Refused(waiter) => {
                if let Some((_, reject)) = waiter {
                    let _ = reject.call1(&JsValue::NULL, &self.stopped_error());
                }
            }
        }
    }

    /// Packs fresh changes into encrypted sync records, as local records to store with them.
    pub async fn pack(&self, fresh: &[RecordOp]) -> Result<Vec<RecordOp>> {
        self.state.pack(self, fresh).await
    }

    /// Local records were stored: a cycle pushes the sync records among them.
    pub fn stored(self: &Rc<Self>, ops: &[RecordOp]) {
        let more = self.state.engine.borrow_mut().note_stored(ops);
        if more {
            self.request(None);
        }
    }

    /// A cycle now, as a promise of `{ pushed, pulled }`.
    pub fn run_now(self: &Rc<Self>) -> js_sys::Promise {
        let mut waiter = None;
        let p = js_sys::Promise::new(&mut |resolve, reject| waiter = Some((resolve, reject)));
        self.request(waiter);
        p
    }

    fn stopped_error(&self) -> JsValue {
        thrown(stopped_error(&self.state.session))
    }

    /// Stops the timers and further cycles (close, free, deletion).
    pub fn stop(&self) {
        self.schedule.borrow_mut().stop();
        self.disarm();
    }

    /// The link's task (`crate::sync::task::run_task`), over this link's I/O.
    async fn work(self: Rc<Self>) {
        run_task(&*self, &self.state, &*self.local, &self.schedule).await;
    }
}

impl TaskIo for SyncLink {
    type Waiter = Waiter;

    fn random(&self) -> f64 {
        js_sys::Math::random()
    }

    fn arm(&self, ms: f64) {
        self.disarm();
        let f: &Function = self.tick.as_ref().unchecked_ref();
        *self.timer.borrow_mut() = Some(start_timer(f, ms));
    }

    fn disarm(&self) {
        if let Some(h) = self.timer.borrow_mut().take() {
            cancel_timer(&h);
        }
    }

    fn answer(&self, (resolve, reject): Waiter, outcome: Result<Tally>) {
        let _ = match outcome.map(|moved| to_js(&moved)) {
            Ok(Ok(m)) => resolve.call1(&JsValue::NULL, &m),
            Ok(Err(e)) => reject.call1(&JsValue::NULL, &e),
            Err(e) => reject.call1(&JsValue::NULL, &thrown(e)),
        };
    }
}

impl Io for SyncLink {
    async fn http(&self, method: &'static str, url: &str, body: Option<String>) -> HttpReply {
        call(method, url, &self.state.options.token, body).await
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

    fn now(&self) -> f64 {
        js_sys::Date::now()
    }
}

impl Drop for SyncLink {
    fn drop(&mut self) {
        self.disarm();
    }
}
