//! The `localstorage` and `memory` backends: one key per record (`store::layout`), so a turn
//! is written whole or not at all and a burst of turns never rewrites the history. What a
//! write, a replace, a load and a delete do is here, over a `KeyValue` store the face gives
//! (the browser's `localStorage`, or `MemoryMap`, this realm's map), and tested natively.

use crate::storage::Storage;
use llm_memory_core::error::Result;
use llm_memory_core::store::layout::{
    meta_key, op_rows, parse_loaded, parse_metas, records_prefix, session_prefix, Loaded,
    StorageKind, META_KEYS,
};
use llm_memory_core::store::{RecordOp, SessionMeta, StorageFailure};
use std::cell::RefCell;
use std::rc::Rc;

/// Text by key, as the Storage API has it.
pub trait KeyValue {
    /// Every `(key, text)` under `prefix`. One call: the Storage API has no prefix query, and
    /// a read per key dominated a long reopen.
    fn entries(&self, prefix: &str) -> Vec<(String, String)>;
    fn get(&self, key: &str) -> Option<String>;
    /// Fails as the store reports it (`QuotaExceededError` when full), by the error's name
    /// and message.
    fn set(&self, key: &str, text: &str) -> std::result::Result<(), (String, String)>;
    fn remove(&self, key: &str);
}

/// A boxed store is a store (one backend type for every kind, one copy of its code).
impl<K: KeyValue + ?Sized> KeyValue for Box<K> {
    fn entries(&self, prefix: &str) -> Vec<(String, String)> {
        (**self).entries(prefix)
    }
    fn get(&self, key: &str) -> Option<String> {
        (**self).get(key)
    }
    fn set(&self, key: &str, text: &str) -> std::result::Result<(), (String, String)> {
        (**self).set(key, text)
    }
    fn remove(&self, key: &str) {
        (**self).remove(key)
    }
}

/// A session store over a key-value store.
pub struct KeyValueStorage<K> {
    kind: StorageKind,
    store: K,
    /// Tells the other tabs of a deleted session (BroadcastChannel in the face).
    announce: Box<dyn Fn(&str)>,
}

impl<K: KeyValue> KeyValueStorage<K> {
    pub fn new(kind: StorageKind, store: K, announce: Box<dyn Fn(&str)>) -> Self {
        KeyValueStorage {
            kind,
            store,
            announce,
        }
    }

    fn set(&self, session: &str, key: &str, text: &str) -> Result<()> {
        self.store.set(key, text).map_err(|(name, message)| {
            let step = "write".to_string();
            let bytes = text.len();
            let failure = StorageFailure {
                step,
                name,
                message,
                bytes,
            };
            failure.error(self.kind, session)
        })
    }

    fn remove_under(&self, prefix: &str) {
        for (key, _) in self.store.entries(prefix) {
            self.store.remove(&key);
        }
    }

    fn apply(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        let session = &meta.session;
        for [verb, _, _, text, key] in op_rows(session, ops) {
            match verb.as_str() {
                "put" => self.set(session, &key, &text)?,
                "del" => self.store.remove(&key),
                _ => self.remove_under(&key),
            }
        }
        let text = serde_json::to_string(meta).unwrap_or_default();
        self.set(session, &meta_key(session), &text)
    }
}

impl<K: KeyValue> Storage for KeyValueStorage<K> {
    fn kind(&self) -> StorageKind {
        self.kind
    }

    async fn metas(&self) -> Result<Vec<Result<SessionMeta>>> {
        let (prefix, suffix) = META_KEYS;
        let metas = self.store.entries(prefix).into_iter();
        let texts: Vec<String> = metas
            .filter(|(k, _)| k.ends_with(suffix))
            .flat_map(|(k, v)| [k, v])
            .collect();
        Ok(parse_metas(&texts, true))
    }

    async fn load(&self, session: &str) -> Result<Option<Loaded>> {
        let Some(meta) = self.store.get(&meta_key(session)) else {
            return Ok(None);
        };
        let records = self.store.entries(&records_prefix(session, None));
        let texts: Vec<String> = std::iter::once(meta)
            .chain(records.into_iter().flat_map(|(k, v)| [k, v]))
            .collect();
        parse_loaded(session, &texts)
    }

    /// Applies the ops in order, then the bookkeeping. A failure (the quota) stops there: the
    /// writer keeps the whole batch queued and writes it again, and a put is idempotent.
    async fn write(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        self.apply(meta, ops)
    }

    /// An import: on failure the session is put back as it was, nothing of the new one kept.
    async fn replace(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        let all = session_prefix(&meta.session);
        let before = self.store.entries(&all);
        self.remove_under(&all);
        let written = self.apply(meta, ops);
        if written.is_err() {
            self.remove_under(&all);
            for (key, text) in &before {
                // It fitted before; a failure here has nowhere better to go.
                let _ = self.store.set(key, text);
            }
        }
        written
    }

    async fn delete(&self, session: &str) -> Result<()> {
        self.remove_under(&session_prefix(session));
        Ok(())
    }

    fn announce_deleted(&self, session: &str) {
        (self.announce)(session);
    }
}

/// A map of this realm (the `memory` storage): shared by every memory that opens it, gone
/// with the page. `with_quota` bounds it, as a browser bounds localStorage.
#[derive(Clone, Default)]
pub struct MemoryMap {
    /// Sorted by key.
    map: Rc<RefCell<Vec<(String, String)>>>,
    quota: Option<usize>,
}

impl MemoryMap {
    /// A map that refuses a write taking its keys and texts past `bytes`.
    pub fn with_quota(bytes: usize) -> Self {
        MemoryMap {
            quota: Some(bytes),
            ..Default::default()
        }
    }

    fn used(&self) -> usize {
        self.map
            .borrow()
            .iter()
            .map(|(k, v)| k.len() + v.len())
            .sum()
    }

    /// Where `key` is, or would go.
    fn at(&self, key: &str) -> std::result::Result<usize, usize> {
        self.map
            .borrow()
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
    }
}

impl KeyValue for MemoryMap {
    fn entries(&self, prefix: &str) -> Vec<(String, String)> {
        let from = self.at(prefix).unwrap_or_else(|i| i);
        let map = self.map.borrow();
        let under = map[from..]
            .iter()
            .take_while(|(k, _)| k.starts_with(prefix));
        under.cloned().collect()
    }

    fn get(&self, key: &str) -> Option<String> {
        let i = self.at(key).ok()?;
        Some(self.map.borrow()[i].1.clone())
    }

    fn set(&self, key: &str, text: &str) -> std::result::Result<(), (String, String)> {
        if let Some(quota) = self.quota {
            let old = KeyValue::get(self, key).map_or(0, |v| key.len() + v.len());
            if self.used() - old + key.len() + text.len() > quota {
                let name = "QuotaExceededError".to_string();
                return Err((name, "the map's quota is used up".to_string()));
            }
        }
        let entry = (key.to_string(), text.to_string());
        match self.at(key) {
            Ok(i) => self.map.borrow_mut()[i] = entry,
            Err(i) => self.map.borrow_mut().insert(i, entry),
        }
        Ok(())
    }

    fn remove(&self, key: &str) {
        if let Ok(i) = self.at(key) {
            self.map.borrow_mut().remove(i);
        }
    }
}
