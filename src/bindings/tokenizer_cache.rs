//! Loading a tokenizer.json the way every asset loads (`fromUrl`, `fromBytes`), and
//! `fromJsonCached`: the first load parses the file and stores its compact prepared form in
//! IndexedDB (under the URL, or the file's hash); later loads (after a reload, in another tab)
//! read that instead, several times faster. Without IndexedDB it only parses. Both go through
//! the one cache policy of every asset (`asset::through_cache`).

use super::asset::{self, LoadOptions};
use super::tokenizer::{json_bytes, Tokenizer};
use crate::bindings::errors::OrThrow;
use crate::store::layout::prepared_key;
use crate::tokens::HfTokenizer;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Tokenizer {
    #[wasm_bindgen(js_name = fromJsonCached, unchecked_return_type = "Tokenizer")]
    pub async fn from_json_cached(
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | ArrayBuffer | object")]
        json: JsValue,
    ) -> Result<Tokenizer, JsValue> {
        let bytes = json_bytes(&json)?;
        let parse = async { prepared_and_kept(&bytes) };
        let loaded = asset::through_cache(&prepared_key(&bytes), true, revive, parse).await?;
        Ok(Tokenizer::cached(loaded))
    }

    #[wasm_bindgen(js_name = fromUrl, unchecked_return_type = "Tokenizer")]
    pub async fn from_url(
        #[wasm_bindgen(unchecked_param_type = "string")] url: JsValue,
        #[wasm_bindgen(unchecked_param_type = "LoadOptions | undefined")] options: JsValue,
    ) -> Result<Tokenizer, JsValue> {
        let url = super::options::string_arg(&url, "url")?;
        let options = LoadOptions::read(&options, "Tokenizer.fromUrl options")?;
        let loaded = asset::load(&url, "tokenizer-url", &options, revive, |bytes| {
            prepared_and_kept(&bytes)
        })
        .await?;
        Ok(Tokenizer::cached(loaded))
    }

    #[wasm_bindgen(js_name = fromBytes, unchecked_return_type = "Tokenizer")]
    pub async fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer")] bytes: JsValue,
    ) -> Result<Tokenizer, JsValue> {
        let bytes = asset::bytes_of(
            &bytes,
            "Tokenizer.fromBytes",
            crate::error::ErrorCode::InvalidTokenizer,
        )?;
        let hf = Arc::new(HfTokenizer::from_bytes(&bytes).js()?);
        Ok(Tokenizer::register(hf.clone(), Some(hf)))
    }

    #[wasm_bindgen(getter, js_name = fromCache)]
    pub fn from_cache(&self) -> bool {
        self.from_cache
    }
}

/// A tokenizer from its prepared form in the cache.
fn revive(kept: &[u8]) -> Option<Arc<HfTokenizer>> {
    HfTokenizer::from_prepared(kept).ok().map(Arc::new)
}

/// A tokenizer parsed from its file, and the prepared form to keep.
fn prepared_and_kept(bytes: &[u8]) -> Result<(Arc<HfTokenizer>, Option<Vec<u8>>), JsValue> {
    let hf = Arc::new(HfTokenizer::from_bytes(bytes).js()?);
    let keep = hf.prepared();
    Ok((hf, keep))
}

impl Tokenizer {
    fn cached(loaded: asset::Loaded<Arc<HfTokenizer>>) -> Tokenizer {
        let hf = loaded.value;
        let mut t = Tokenizer::register(hf.clone(), Some(hf));
        t.from_cache = loaded.from_cache;
        t
    }
}
