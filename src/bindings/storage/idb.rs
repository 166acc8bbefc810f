//! The `indexeddb` backend. One database, `llm-memory`, with two object stores: `records`
//! (key `[session, kind, id]`, value the record's JSON) and `sessions` (key session, value the
//! meta's JSON). A batch of changes is one transaction with relaxed durability: a turn is
//! stored whole or not at all, and a burst of turns costs one commit.

use super::{to_json, Loaded, RecordOp};
use crate::error::{Error, ErrorCode, Result};
use crate::store::layout::{parse_meta, parse_record};
use crate::store::SessionMeta;
use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    IdbDatabase, IdbFactory, IdbKeyRange, IdbObjectStore, IdbOpenDbRequest, IdbRequest,
    IdbTransaction, IdbTransactionMode,
};

const DB_NAME: &str = "llm-memory";
/// Version 2 added `prepared` (tokenizers' compact form, keyed by the file's hash).
const DB_VERSION: u32 = 2;
const RECORDS: &str = "records";
const SESSIONS: &str = "sessions";
const PREPARED: &str = "prepared";

fn factory() -> Option<IdbFactory> {
    Reflect::get(&js_sys::global(), &"indexedDB".into())
        .ok()
        .and_then(|f| f.dyn_into::<IdbFactory>().ok())
}

pub fn available() -> bool {
    factory().is_some()
}

fn failed(what: &str, e: &JsValue) -> Error {
    let name = Reflect::get(e, &"name".into())
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default();
    let message = Reflect::get(e, &"message".into())
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default();
    let code = if name.contains("Quota") {
        ErrorCode::QuotaExceeded
    } else {
        ErrorCode::StorageFailed
    };
    let hint = if code == ErrorCode::QuotaExceeded {
        "; the browser's storage quota is used up (what was stored before is intact)"
    } else {
        ""
    };
    Error::new(
        code,
        format!("IndexedDB {what} failed: {name} {message}{hint}"),
    )
}

/// Resolves with the request's result once it succeeds.
async fn request(req: &IdbRequest, what: &str) -> Result<JsValue> {
    let r_ok = req.clone();
    let r_err = req.clone();
    let promise = Promise::new(&mut |resolve: Function, reject: Function| {
        let (r_ok, r_err) = (r_ok.clone(), r_err.clone());
        let ok = Closure::once_into_js(move || {
            let _ = resolve.call1(&JsValue::NULL, &r_ok.result().unwrap_or(JsValue::UNDEFINED));
        });
        let err = Closure::once_into_js(move || {
            let e = r_err.error().ok().flatten().map(JsValue::from);
            let _ = reject.call1(&JsValue::NULL, &e.unwrap_or(JsValue::UNDEFINED));
        });
        req.set_onsuccess(Some(ok.unchecked_ref()));
        req.set_onerror(Some(err.unchecked_ref()));
    });
    JsFuture::from(promise).await.map_err(|e| failed(what, &e))
}

/// Resolves when the transaction commits; rejects when it aborts.
async fn committed(tx: &IdbTransaction, what: &str) -> Result<()> {
    let t_err = tx.clone();
    let promise = Promise::new(&mut |resolve: Function, reject: Function| {
        let reject2 = reject.clone();
        let t_err = t_err.clone();
        let t_abort = t_err.clone();
        let done = Closure::once_into_js(move || {
            let _ = resolve.call0(&JsValue::NULL);
        });
        let error = Closure::once_into_js(move || {
            let e = t_err
                .error()
                .map(JsValue::from)
                .unwrap_or(JsValue::UNDEFINED);
            let _ = reject.call1(&JsValue::NULL, &e);
        });
        let abort = Closure::once_into_js(move || {
            let e = t_abort
                .error()
                .map(JsValue::from)
                .unwrap_or(JsValue::UNDEFINED);
            let _ = reject2.call1(&JsValue::NULL, &e);
        });
        tx.set_oncomplete(Some(done.unchecked_ref()));
        tx.set_onerror(Some(error.unchecked_ref()));
        tx.set_onabort(Some(abort.unchecked_ref()));
    });
    JsFuture::from(promise)
        .await
        .map(drop)
        .map_err(|e| failed(what, &e))
}

fn key(session: &str, kind: &str, id: &str) -> JsValue {
    Array::of3(&session.into(), &kind.into(), &id.into()).into()
}

/// All keys `[session, ...]`, or `[session, kind, ...]` with a kind: arrays sort after strings,
/// so `[session, []]` is above every `[session, "kind", "id"]`.
fn range(session: &str, kind: Option<&str>) -> Result<IdbKeyRange> {
    let (lo, hi): (JsValue, JsValue) = match kind {
        None => (
            Array::of1(&session.into()).into(),
            Array::of2(&session.into(), &Array::new()).into(),
        ),
        Some(k) => (
            Array::of2(&session.into(), &k.into()).into(),
            Array::of3(&session.into(), &k.into(), &Array::new()).into(),
        ),
    };
    IdbKeyRange::bound(&lo, &hi).map_err(|e| failed("key range", &e))
}

pub struct IdbBackend {
    db: IdbDatabase,
}

impl IdbBackend {
    pub async fn connect() -> Result<IdbBackend> {
        let f = factory().ok_or_else(|| {
            Error::new(
                ErrorCode::StorageUnavailable,
                "IndexedDB is not available here (Node, or a browser mode that disables it): \
                 use storage \"localstorage\" or \"memory\"",
            )
        })?;
        let open: IdbOpenDbRequest = f.open_with_u32(DB_NAME, DB_VERSION).map_err(|e| {
            Error::new(
                ErrorCode::StorageUnavailable,
                format!(
                    "IndexedDB cannot be opened here: {}",
                    failed("open", &e).message
                ),
            )
        })?;
        let upgrade = Closure::<dyn FnMut(web_sys::IdbVersionChangeEvent)>::new({
            let open = open.clone();
            move |_e| {
                if let Ok(db) = open.result().and_then(|d| d.dyn_into::<IdbDatabase>()) {
                    let names = db.object_store_names();
                    for store in [RECORDS, SESSIONS, PREPARED] {
                        if !names.contains(store) {
                            let _ = db.create_object_store(store);
                        }
                    }
                }
            }
        });
        open.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
        let blocked_flag = std::rc::Rc::new(std::cell::Cell::new(false));
        let blocked = Closure::<dyn FnMut()>::new({
            let flag = blocked_flag.clone();
            move || flag.set(true)
        });
        open.set_onblocked(Some(blocked.as_ref().unchecked_ref()));
        let result = request(&open, "open").await;
        open.set_onupgradeneeded(None);
        open.set_onblocked(None);
        let db = result
            .map_err(|e| {
                if blocked_flag.get() {
                    Error::new(
                        ErrorCode::StorageBlocked,
                        "IndexedDB is blocked by another tab holding an older version open: \
                         close other tabs of this app and retry",
                    )
                } else {
                    e
                }
            })?
            .dyn_into::<IdbDatabase>()
            .map_err(|_| Error::new(ErrorCode::StorageFailed, "IndexedDB open gave no database"))?;
        // Never be the tab that blocks another's upgrade.
        let close = Closure::<dyn FnMut()>::new({
            let db = db.clone();
            move || db.close()
        });
        db.set_onversionchange(Some(close.as_ref().unchecked_ref()));
        close.forget();
        Ok(IdbBackend { db })
    }

    fn transaction(&self, mode: IdbTransactionMode) -> Result<IdbTransaction> {
        let stores = Array::of2(&RECORDS.into(), &SESSIONS.into());
        if mode == IdbTransactionMode::Readonly {
            return self
                .db
                .transaction_with_str_sequence(&stores)
                .map_err(|e| failed("transaction", &e));
        }
        // `{ durability: "relaxed" }` (web-sys has it only as an unstable API): the commit
        // does not wait for the disk flush, which is what makes per-turn writes cheap.
        let options = js_sys::Object::new();
        let _ = Reflect::set(&options, &"durability".into(), &"relaxed".into());
        let transaction = Reflect::get(&self.db, &"transaction".into())
            .map_err(|e| failed("transaction", &e))?
            .unchecked_into::<Function>();
        let args = Array::of3(&stores, &"readwrite".into(), &options);
        Reflect::apply(&transaction, &self.db, &args)
            .map_err(|e| failed("transaction", &e))?
            .dyn_into::<IdbTransaction>()
            .map_err(|e| failed("transaction", &e))
    }

    fn stores(tx: &IdbTransaction) -> Result<(IdbObjectStore, IdbObjectStore)> {
        let records = tx.object_store(RECORDS).map_err(|e| failed("store", &e))?;
        let sessions = tx.object_store(SESSIONS).map_err(|e| failed("store", &e))?;
        Ok((records, sessions))
    }

    pub async fn load(&self, session: &str) -> Result<Option<Loaded>> {
        let tx = self.transaction(IdbTransactionMode::Readonly)?;
        let (records, sessions) = Self::stores(&tx)?;
        let meta_req = sessions
            .get(&session.into())
            .map_err(|e| failed("read", &e))?;
        let all_req = records
            .get_all_with_key(&range(session, None)?.into())
            .map_err(|e| failed("read", &e))?;
        let meta = request(&meta_req, "read").await?;
        let all = request(&all_req, "read").await?;
        let Some(meta_text) = meta.as_string() else {
            return Ok(None);
        };
        let meta = parse_meta(session, &meta_text)?;
        let values = Array::from(&all);
        let mut out = Vec::with_capacity(values.length() as usize);
        for (i, v) in values.iter().enumerate() {
            let text = v.as_string().unwrap_or_default();
            out.push(parse_record(session, &format!("records[{i}]"), &text)?);
        }
        Ok(Some(Loaded { meta, records: out }))
    }

    pub async fn write(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        self.write_ops(meta, ops, false).await
    }

    /// Deletes the session's records and writes these in one transaction: all or nothing.
    pub async fn replace(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        self.write_ops(meta, ops, true).await
    }

    async fn write_ops(&self, meta: &SessionMeta, ops: &[RecordOp], replace: bool) -> Result<()> {
        let s = &meta.session;
        let tx = self.transaction(IdbTransactionMode::Readwrite)?;
        let (records, sessions) = Self::stores(&tx)?;
        let queued: Result<()> = (|| {
            if replace {
                records
                    .delete(&range(s, None)?.into())
                    .map_err(|e| failed("delete", &e))?;
            }
            for op in ops {
                match op {
                    RecordOp::Put(r) => {
                        let value = JsValue::from_str(&to_json(r));
                        records.put_with_key(&value, &key(s, &r.kind, &r.id))
                    }
                    RecordOp::Delete { kind, id } => records.delete(&key(s, kind, id)),
                    RecordOp::DeleteKinds { kinds } => {
                        for kind in kinds {
                            records
                                .delete(&range(s, Some(kind))?.into())
                                .map_err(|e| failed("delete", &e))?;
                        }
                        continue;
                    }
                }
                .map_err(|e| failed("write", &e))?;
            }
            sessions
                .put_with_key(&JsValue::from_str(&to_json(meta)), &s.into())
                .map_err(|e| failed("write", &e))?;
            Ok(())
        })();
        if let Err(e) = queued {
            let _ = tx.abort();
            return Err(e);
        }
        committed(&tx, "write").await
    }

    pub async fn metas(&self) -> Result<Vec<Result<SessionMeta>>> {
        let tx = self.transaction(IdbTransactionMode::Readonly)?;
        let (_, sessions) = Self::stores(&tx)?;
        let names_req = sessions.get_all_keys().map_err(|e| failed("read", &e))?;
        let req = sessions.get_all().map_err(|e| failed("read", &e))?;
        let names = Array::from(&request(&names_req, "read").await?);
        let all = request(&req, "read").await?;
        // Both lists come in key order, so a damaged meta is named by its key.
        Ok(Array::from(&all)
            .iter()
            .zip(names.iter())
            .map(|(v, name)| {
                let name = name.as_string().unwrap_or_else(|| "?".into());
                parse_meta(&name, &v.as_string().unwrap_or_default())
            })
            .collect())
    }

    /// A tokenizer's prepared form stored under `key`, if any.
    pub async fn get_prepared(&self, key: &str) -> Result<Option<Vec<u8>>> {
        let tx = self
            .db
            .transaction_with_str(PREPARED)
            .map_err(|e| failed("transaction", &e))?;
        let store = tx.object_store(PREPARED).map_err(|e| failed("store", &e))?;
        let req = store.get(&key.into()).map_err(|e| failed("read", &e))?;
        let v = request(&req, "read").await?;
        Ok(v.dyn_ref::<js_sys::Uint8Array>().map(|a| a.to_vec()))
    }

    pub async fn put_prepared(&self, key: &str, bytes: &[u8]) -> Result<()> {
        let tx = self
            .db
            .transaction_with_str_and_mode(PREPARED, IdbTransactionMode::Readwrite)
            .map_err(|e| failed("transaction", &e))?;
        let store = tx.object_store(PREPARED).map_err(|e| failed("store", &e))?;
        store
            .put_with_key(&js_sys::Uint8Array::from(bytes).into(), &key.into())
            .map_err(|e| failed("write", &e))?;
        committed(&tx, "write").await
    }

    pub async fn delete(&self, session: &str) -> Result<()> {
        let tx = self.transaction(IdbTransactionMode::Readwrite)?;
        let (records, sessions) = Self::stores(&tx)?;
        records
            .delete(&range(session, None)?.into())
            .map_err(|e| failed("delete", &e))?;
        sessions
            .delete(&session.into())
            .map_err(|e| failed("delete", &e))?;
        committed(&tx, "delete").await
    }
}
