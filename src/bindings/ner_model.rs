//! `NerModel`: the PII model file (`models/pii-ner.bin`) loaded once and shared by any number
//! of `Redactor`s and `Memory`s. The file is never inside the wasm: apps host it and load it
//! with `fromUrl` (downloaded once, then kept in IndexedDB) or hand its bytes to `fromBytes`.

use super::asset::{self, LoadOptions};
use super::errors::invalid_option;
use super::options::describe;
use crate::bindings::errors::OrThrow;
use crate::error::ErrorCode;
use crate::ner::Tagger;
use std::sync::{Arc, Weak};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(js_name = NerModel)]
pub struct JsNerModel {
    tagger: Arc<Tagger>,
    handle: u32,
    from_cache: bool,
}

impl JsNerModel {
    fn register(tagger: Arc<Tagger>, from_cache: bool) -> JsNerModel {
        let handle = super::handles::register(Arc::downgrade(&tagger));
        JsNerModel {
            tagger,
            handle,
            from_cache,
        }
    }

    /// The model behind a JS `NerModel` object, if `value` is one that is still alive.
    pub(crate) fn tagger_of(value: &JsValue) -> Result<Arc<Tagger>, JsValue> {
        let found = super::handles::find::<Weak<Tagger>>(value);
        found.ok_or_else(|| {
            invalid_option(format!(
                "model must be a NerModel from NerModel.fromBytes() or NerModel.fromUrl() that \
                 has not been freed, got {}",
                describe(value)
            ))
        })
    }
}

#[wasm_bindgen(js_class = NerModel)]
impl JsNerModel {
    #[wasm_bindgen(js_name = fromBytes, unchecked_return_type = "NerModel")]
    pub async fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer")] bytes: JsValue,
    ) -> Result<JsNerModel, JsValue> {
        let tagger = Tagger::from_bytes(&asset::bytes_of(
            &bytes,
            "NerModel.fromBytes",
            ErrorCode::InvalidModel,
        )?)
        .js()?;
        Ok(JsNerModel::register(Arc::new(tagger), false))
    }

    #[wasm_bindgen(js_name = fromUrl, unchecked_return_type = "NerModel")]
    pub async fn from_url(
        #[wasm_bindgen(unchecked_param_type = "string")] url: JsValue,
        #[wasm_bindgen(unchecked_param_type = "LoadOptions | undefined")] options: JsValue,
    ) -> Result<JsNerModel, JsValue> {
        let url = super::options::string_arg(&url, "url")?;
        let options = LoadOptions::read(&options, "NerModel.fromUrl options")?;
        let loaded = asset::load(
            &url,
            "ner-model",
            &options,
            |kept| Tagger::from_bytes(kept).ok(),
            |bytes| Ok((Tagger::from_bytes(&bytes).js()?, Some(bytes))),
        )
        .await?;
        Ok(JsNerModel::register(
            Arc::new(loaded.value),
            loaded.from_cache,
        ))
    }

    #[wasm_bindgen(getter, unchecked_return_type = "string[]")]
    pub fn labels(&self) -> JsValue {
        let out = js_sys::Array::new();
        for l in self.tagger.labels() {
            out.push(&JsValue::from_str(l));
        }
        out.into()
    }

    #[wasm_bindgen(getter)]
    pub fn attribution(&self) -> String {
        self.tagger.model().attribution().to_string()
    }

    #[wasm_bindgen(getter)]
    pub fn license(&self) -> String {
        self.tagger.model().license().to_string()
    }

    #[wasm_bindgen(getter, js_name = fromCache)]
    pub fn cached(&self) -> bool {
        self.from_cache
    }

    #[wasm_bindgen(js_name = tokenIds)]
    pub fn token_ids(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<Vec<u32>, JsValue> {
        let text = super::options::string_arg(&text, "text")?;
        Ok(self.tagger.token_ids(&text))
    }

    pub fn logits(&self, ids: &[u32]) -> Result<Vec<f32>, JsValue> {
        self.tagger.model().logits(ids).js()
    }

    #[wasm_bindgen(getter, js_name = "__llmMemoryHandle", skip_typescript)]
    pub fn handle(&self) -> u32 {
        self.handle
    }
}
