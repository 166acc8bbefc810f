//! The IndexedDB database's `prepared` store, where assets keep what they need to load again
//! (a tokenizer's compact form, a model's file) under a hash or a URL.

use super::{Backend, StorageKind};
use crate::error::Result;
use js_sys::Uint8Array;
use wasm_bindgen::JsCast;

pub fn available() -> bool {
    super::indexed_db_here()
}

pub struct IdbBackend(Backend);

impl IdbBackend {
    pub async fn connect() -> Result<IdbBackend> {
        Ok(IdbBackend(Backend::connect(StorageKind::IndexedDb).await?))
    }

    pub async fn get_prepared(&self, key: &str) -> Result<Option<Vec<u8>>> {
        let kept = self.0.call("getPrepared", "", &[key.into()]).await?;
        Ok(kept.dyn_ref::<Uint8Array>().map(Uint8Array::to_vec))
    }

    pub async fn put_prepared(&self, key: &str, bytes: &[u8]) -> Result<()> {
        let args = [key.into(), Uint8Array::from(bytes).into()];
        self.0.call("putPrepared", "", &args).await.map(drop)
    }
}
