//! The key-value stores under the `localstorage` and `memory` backends: the browser's
//! `localStorage` through web-sys, and this realm's map. What the backends do with them is the
//! session crate's (`crate::session::key_value`).

use crate::session::{KeyValue, MemoryMap};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/bindings/storage/backends.js")]
extern "C" {
    /// `[key, text, ...]` of the keys under `prefix`, in one call.
    #[wasm_bindgen(js_name = entriesOf)]
    fn entries_of(storage: &web_sys::Storage, prefix: &str) -> Vec<String>;
}

thread_local! {
    /// The `memory` storage: one map per realm, shared by every memory that opens it.
    static REALM: MemoryMap = MemoryMap::default();
}

pub fn realm_map() -> MemoryMap {
    REALM.with(MemoryMap::clone)
}

/// The page's `localStorage`: `None` where there is none (Node, a worker) or where privacy
/// settings make the getter throw.
pub struct LocalStorage(web_sys::Storage);

impl LocalStorage {
    pub fn here() -> Option<LocalStorage> {
        let window = web_sys::window()?;
        window.local_storage().ok().flatten().map(LocalStorage)
    }
}

impl KeyValue for LocalStorage {
    fn entries(&self, prefix: &str) -> Vec<(String, String)> {
        let flat = entries_of(&self.0, prefix);
        flat.chunks_exact(2)
            .map(|kv| (kv[0].clone(), kv[1].clone()))
            .collect()
    }

    fn get(&self, key: &str) -> Option<String> {
        self.0.get_item(key).ok().flatten()
    }

    fn set(&self, key: &str, text: &str) -> Result<(), (String, String)> {
        self.0.set_item(key, text).map_err(|e| {
            let get = |k: &str| js_sys::Reflect::get(&e, &k.into()).ok();
            let text = |v: Option<JsValue>| v.and_then(|v| v.as_string()).unwrap_or_default();
            (text(get("name")), text(get("message")))
        })
    }

    fn remove(&self, key: &str) {
        let _ = self.0.remove_item(key);
    }
}
