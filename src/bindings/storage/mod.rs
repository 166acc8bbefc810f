//! Storage backends behind the session crate's `Storage` trait: `memory` (this JS realm only;
//! Node and tests), `localstorage` and `indexeddb`. Each stores a session's records and its
//! meta. The core decides what to write, the key layout, how answers read and what a failure
//! means (`crate::store::layout`, `crate::store::failure`); the key-value backends' logic is the
//! session crate's (`crate::session::key_value`), IndexedDB's I/O is backends.js'.

pub mod idb;
mod key_value;
pub mod writer;

use crate::session::{KeyValue, KeyValueStorage, Storage as _};
use key_value::LocalStorage;

use crate::error::Result;
use crate::store::layout::{self, parse_loaded, parse_metas};
use crate::store::{RecordOp, SessionMeta, StorageFailure};
use js_sys::Array;
use wasm_bindgen::prelude::*;

pub use crate::store::layout::{Loaded, StorageKind};

#[wasm_bindgen(module = "/src/bindings/storage/backends.js")]
extern "C" {
    #[wasm_bindgen(js_name = indexedDbHere)]
    fn indexed_db_here() -> bool;
    #[wasm_bindgen(js_name = openBackend, catch)]
    async fn open_backend() -> std::result::Result<JsValue, JsValue>;
    /// Calls the backend's `method` with `args`.
    #[wasm_bindgen(catch)]
    async fn run(
        backend: &JsValue,
        method: &str,
        args: Array,
    ) -> std::result::Result<JsValue, JsValue>;
}

/// The default storage of this realm (`crate::session::default_storage`).
pub fn default_here() -> StorageKind {
    crate::session::default_storage(indexed_db_here())
}

pub struct Backend {
    kind: StorageKind,
    inner: Inner,
}

enum Inner {
    /// backends.js' IndexedDB backend.
    IndexedDb(JsValue),
    /// `localstorage` or `memory`.
    KeyValue(KeyValueStorage<Box<dyn KeyValue>>),
}

impl Backend {
    pub async fn connect(kind: StorageKind) -> Result<Backend> {
        let unavailable = || failed(kind, "", unavailable_failure());
        let inner = match kind {
            StorageKind::IndexedDb => {
                let js = open_backend().await;
                Inner::IndexedDb(js.map_err(|e| failed(kind, "", e))?)
            }
            StorageKind::LocalStorage => {
                let store: Box<dyn KeyValue> =
                    Box::new(LocalStorage::here().ok_or_else(unavailable)?);
                let tell = Box::new(|s: &str| writer::announce_deleted_to_tabs(s));
                Inner::KeyValue(KeyValueStorage::new(kind, store, tell))
            }
            // Nothing to tell: no other tab shares this realm's map.
            StorageKind::Memory => {
                let map: Box<dyn KeyValue> = Box::new(key_value::realm_map());
                Inner::KeyValue(KeyValueStorage::new(kind, map, Box::new(|_| {})))
            }
        };
        Ok(Backend { kind, inner })
    }

    pub fn kind(&self) -> StorageKind {
        self.kind
    }

    async fn store(&self, meta: &SessionMeta, ops: &[RecordOp], replace: bool) -> Result<()> {
        let s = &meta.session;
        let rows = serde_wasm_bindgen::to_value(&layout::op_rows(s, ops)).unwrap_or_default();
        let text = serde_json::to_string(meta).unwrap_or_default();
        let args = [place(s), text.into(), rows, replace.into()];
        self.call("write", s, &args).await.map(drop)
    }

    /// Every stored session's bookkeeping; the first damaged one is an error naming it.
    pub async fn sessions(&self) -> Result<Vec<SessionMeta>> {
        self.metas().await?.into_iter().collect()
    }

    /// Calls the IndexedDB backend's `method`; a failure is worded by the core.
    async fn call(&self, method: &str, session: &str, args: &[JsValue]) -> Result<JsValue> {
        let Inner::IndexedDb(js) = &self.inner else {
            return Err(failed(self.kind, session, unavailable_failure()));
        };
        let answer = run(js, method, args.iter().collect()).await;
        answer.map_err(|e| failed(self.kind, session, e))
    }

    /// A read's answer: a flat list of texts.
    async fn texts(&self, method: &str, session: &str, args: &[JsValue]) -> Result<Vec<String>> {
        let answer = Array::from(&self.call(method, session, args).await?);
        let text = |t: JsValue| t.as_string().unwrap_or_default();
        Ok(answer.iter().map(text).collect())
    }
}

/// Where a session's things are, as backends.js takes it (`layout::session_keys`).
fn place(session: &str) -> JsValue {
    serde_wasm_bindgen::to_value(&layout::session_keys(session)).unwrap_or_default()
}

/// The failure of a storage this realm does not have.
fn unavailable_failure() -> JsValue {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &"step".into(), &"unavailable".into());
    o.into()
}

/// A backend's rejection, worded by the core.
fn failed(kind: StorageKind, session: &str, e: JsValue) -> crate::error::Error {
    let failure: StorageFailure = serde_wasm_bindgen::from_value(e).unwrap_or_default();
    failure.error(kind, session)
}

/// The backend as the session crate's operations and the writer use it.
impl crate::session::Storage for Backend {
    fn kind(&self) -> StorageKind {
        self.kind
    }

    /// Every stored session's bookkeeping, each read on its own: one damaged session does
    /// not hide the others.
    async fn metas(&self) -> Result<Vec<Result<SessionMeta>>> {
        match &self.inner {
            Inner::KeyValue(s) => s.metas().await,
            Inner::IndexedDb(_) => {
                let (prefix, suffix) = layout::META_KEYS;
                let args = [prefix.into(), suffix.into()];
                let texts = self.texts("metas", "", &args).await?;
                // IndexedDB answers with session names.
                Ok(parse_metas(&texts, false))
            }
        }
    }

    async fn load(&self, session: &str) -> Result<Option<Loaded>> {
        match &self.inner {
            Inner::KeyValue(s) => s.load(session).await,
            Inner::IndexedDb(_) => {
                let texts = self.texts("load", session, &[place(session)]).await?;
                parse_loaded(session, &texts)
            }
        }
    }

    /// Applies `ops` and stores `meta`; a backend with transactions does it atomically.
    async fn write(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        match &self.inner {
            Inner::KeyValue(s) => s.write(meta, ops).await,
            Inner::IndexedDb(_) => self.store(meta, ops, false).await,
        }
    }

    /// Replaces the whole session with `ops` (an import): on failure the session is as it
    /// was before, with nothing of the new records in it.
    async fn replace(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        match &self.inner {
            Inner::KeyValue(s) => s.replace(meta, ops).await,
            Inner::IndexedDb(_) => self.store(meta, ops, true).await,
        }
    }

    async fn delete(&self, session: &str) -> Result<()> {
        match &self.inner {
            Inner::KeyValue(s) => s.delete(session).await,
            Inner::IndexedDb(_) => self
                .call("delete", session, &[place(session)])
                .await
                .map(drop),
        }
    }

    fn announce_deleted(&self, session: &str) {
        match &self.inner {
            Inner::KeyValue(s) => s.announce_deleted(session),
            Inner::IndexedDb(_) => writer::announce_deleted_to_tabs(session),
        }
    }
}
