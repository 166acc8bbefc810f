//! Storage backends behind one small interface: `memory` (this JS realm only; Node and tests),
//! `localstorage` and `indexeddb`. Each stores a session's records and its meta. The core
//! decides what to write, the key layout, how answers read and what a failure means
//! (`crate::store::layout`, `crate::store::failure`); backends.js only does the I/O.

pub mod idb;
pub mod writer;

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
    async fn open_backend(kind: &str) -> std::result::Result<JsValue, JsValue>;
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
    js: JsValue,
}

impl Backend {
    pub async fn connect(kind: StorageKind) -> Result<Backend> {
        let js = open_backend(kind.as_str()).await;
        let js = js.map_err(|e| failed(kind, "", e))?;
        Ok(Backend { kind, js })
    }

    pub fn kind(&self) -> StorageKind {
        self.kind
    }

    pub async fn load(&self, session: &str) -> Result<Option<Loaded>> {
        let texts = self.texts("load", session, &[place(session)]).await?;
        parse_loaded(session, &texts)
    }

    /// Applies `ops` and stores `meta`; a backend with transactions does it atomically.
    pub async fn write(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        self.store(meta, ops, false).await
    }

    /// Replaces the whole session with `ops` (an import): on failure the session is as it
    /// was before, with nothing of the new records in it.
    pub async fn replace(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        self.store(meta, ops, true).await
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

    /// Every stored session's bookkeeping, each read on its own: one damaged session does
    /// not hide the others.
    pub async fn metas(&self) -> Result<Vec<Result<SessionMeta>>> {
        let (prefix, suffix) = layout::META_KEYS;
        let texts = self
            .texts("metas", "", &[prefix.into(), suffix.into()])
            .await?;
        // IndexedDB answers with session names, the key-value stores with their meta keys.
        let by_key = self.kind != StorageKind::IndexedDb;
        Ok(parse_metas(&texts, by_key))
    }

    pub async fn delete(&self, session: &str) -> Result<()> {
        self.call("delete", session, &[place(session)])
            .await
            .map(drop)
    }

    /// Calls the backend's `method`; a failure is worded by the core.
    async fn call(&self, method: &str, session: &str, args: &[JsValue]) -> Result<JsValue> {
        let answer = run(&self.js, method, args.iter().collect()).await;
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

/// A backend's rejection, worded by the core.
fn failed(kind: StorageKind, session: &str, e: JsValue) -> crate::error::Error {
    let failure: StorageFailure = serde_wasm_bindgen::from_value(e).unwrap_or_default();
    failure.error(kind, session)
}

/// The backend as the session crate's operations use it.
impl crate::session::Storage for Backend {
    fn kind(&self) -> StorageKind {
        self.kind
    }
    async fn metas(&self) -> Result<Vec<Result<SessionMeta>>> {
        Backend::metas(self).await
    }
    async fn load(&self, session: &str) -> Result<Option<Loaded>> {
        Backend::load(self, session).await
    }
    async fn write(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        Backend::write(self, meta, ops).await
    }
    async fn replace(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        Backend::replace(self, meta, ops).await
    }
    async fn delete(&self, session: &str) -> Result<()> {
        Backend::delete(self, session).await
    }
    fn announce_deleted(&self, session: &str) {
        writer::announce_deleted(self, session);
    }
}
