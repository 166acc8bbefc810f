//! The `localstorage` backend, through gloo-storage. One key per record
//! (`llm-memory/<session>/r/<kind>/<id>`) so a turn is written whole or not at all and a burst
//! of turns never rewrites the history; the session's meta under `llm-memory/<session>/meta`.
//! The key layout is `crate::store::layout`'s.

use super::{to_json, Loaded, RecordOp};
use crate::error::{Error, ErrorCode, Result};
use crate::store::layout::{
    meta_key, parse_meta, parse_record, record_key, records_prefix, session_of_meta_key,
    session_prefix,
};
use crate::store::SessionMeta;
use gloo_storage::{LocalStorage, Storage};
use wasm_bindgen::JsValue;

pub struct LocalBackend;

/// Every key in localStorage, read in one call (the Storage API has no prefix query).
fn all_keys() -> Vec<String> {
    js_sys::Object::keys(&LocalStorage::raw())
        .iter()
        .filter_map(|k| k.as_string())
        .collect()
}

fn read_raw(key: &str) -> Option<String> {
    LocalStorage::raw().get_item(key).ok().flatten()
}

fn storage_error(session: &str, e: &JsValue, bytes: usize) -> Error {
    let name = js_sys::Reflect::get(e, &"name".into())
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default();
    if name.contains("Quota") {
        return Error::new(
            ErrorCode::QuotaExceeded,
            format!(
                "localStorage is full: session {session:?} needs about {bytes} more bytes; \
                 what was stored before is intact. Delete old sessions, or use storage \
                 \"indexeddb\", which allows far more"
            ),
        );
    }
    Error::new(
        ErrorCode::StorageFailed,
        format!("localStorage write for session {session:?} failed ({name})"),
    )
}

/// `setItem`, with its failure described.
fn set_raw(session: &str, key: &str, text: &str) -> Result<()> {
    LocalStorage::raw()
        .set_item(key, text)
        .map_err(|e| storage_error(session, &e, text.len()))
}

impl LocalBackend {
    pub fn connect() -> Result<LocalBackend> {
        // gloo-storage throws when there is no window or storage is blocked; check first.
        let usable = web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .is_some();
        if !usable {
            return Err(Error::new(
                ErrorCode::StorageUnavailable,
                "localStorage is not available here (no window, or blocked by the browser's \
                 privacy settings): use storage \"indexeddb\" or \"memory\"",
            ));
        }
        Ok(LocalBackend)
    }

    pub fn load(&self, session: &str) -> Result<Option<Loaded>> {
        let Some(meta_text) = read_raw(&meta_key(session)) else {
            return Ok(None);
        };
        let meta = parse_meta(session, &meta_text)?;
        let prefix = records_prefix(session, None);
        let mut records = Vec::new();
        // One call for every key and value: per-key getItem calls dominate a long reopen.
        for pair in js_sys::Object::entries(&LocalStorage::raw()).iter() {
            let pair = js_sys::Array::from(&pair);
            let Some(key) = pair.get(0).as_string().filter(|k| k.starts_with(&prefix)) else {
                continue;
            };
            let text = pair.get(1).as_string().unwrap_or_default();
            records.push(parse_record(session, &key, &text)?);
        }
        Ok(Some(Loaded { meta, records }))
    }

    pub fn write(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        let s = &meta.session;
        for op in ops {
            match op {
                RecordOp::Put(r) => {
                    set_raw(s, &record_key(s, &r.kind, &r.id), &to_json(r))?;
                }
                RecordOp::Delete { kind, id } => LocalStorage::delete(record_key(s, kind, id)),
                RecordOp::DeleteKinds { kinds } => {
                    for kind in kinds {
                        let prefix = records_prefix(s, Some(kind));
                        for key in all_keys().into_iter().filter(|k| k.starts_with(&prefix)) {
                            LocalStorage::delete(key);
                        }
                    }
                }
            }
        }
        set_raw(s, &meta_key(s), &to_json(meta))
    }

    /// Deletes the session and writes these records instead. On failure (the quota) the
    /// session is put back as it was: nothing of the new records stays, nothing old is lost.
    pub fn replace(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        let s = &meta.session;
        let prefix = session_prefix(s);
        let before: Vec<(String, String)> = all_keys()
            .into_iter()
            .filter(|k| k.starts_with(&prefix))
            .filter_map(|k| read_raw(&k).map(|v| (k, v)))
            .collect();
        self.delete(s)?;
        let written = self.write(meta, ops);
        if written.is_err() {
            self.delete(s)?;
            for (key, text) in &before {
                set_raw(s, key, text)?;
            }
        }
        written
    }

    pub fn metas(&self) -> Result<Vec<Result<SessionMeta>>> {
        let mut out = Vec::new();
        for key in all_keys() {
            let Some(session) = session_of_meta_key(&key) else {
                continue;
            };
            if let Some(text) = read_raw(&key) {
                out.push(parse_meta(&session, &text));
            }
        }
        Ok(out)
    }

    pub fn delete(&self, session: &str) -> Result<()> {
        let prefix = session_prefix(session);
        for key in all_keys().into_iter().filter(|k| k.starts_with(&prefix)) {
            LocalStorage::delete(key);
        }
        Ok(())
    }
}
