//! `EmbedModel`: the sentence embedder (`crate::ner::EmbedModel`) for JS. Apps load the model
//! file (`make embed-model` writes `models/embed.bin`) as bytes, embed texts, and hand the
//! model to `new Memory({ strategy: "retrieval", embedder })` for recall by meaning without
//! sending text anywhere. A registry lets `Memory` find the Rust side of the JS object, as
//! `Tokenizer` does.

use super::asset::{self, LoadOptions};
use super::errors::invalid_option;
use super::options::string_arg;
use crate::bindings::errors::OrThrow;
use crate::error::ErrorCode;
use crate::ner::EmbedModel as Core;
use js_sys::{Array, Float32Array};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct EmbedModel {
    model: Rc<Core>,
    handle: u32,
    from_cache: bool,
}

impl EmbedModel {
    /// The model behind a JS `EmbedModel`, if `value` is one that has not been freed.
    pub fn model_of(value: &JsValue) -> Result<Rc<Core>, JsValue> {
        super::handles::find::<Weak<Core>>(value)
            .ok_or_else(|| {
                invalid_option(
                    "embedder must be an EmbedModel from EmbedModel.fromBytes() that has not been freed",
                )
            })
    }
}

#[wasm_bindgen]
impl EmbedModel {
    #[wasm_bindgen(js_name = fromBytes, unchecked_return_type = "EmbedModel")]
    pub async fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer")] bytes: JsValue,
    ) -> Result<EmbedModel, JsValue> {
        let bytes = asset::bytes_of(&bytes, "EmbedModel.fromBytes", ErrorCode::InvalidModel)?;
        Ok(EmbedModel::register(Core::from_bytes(&bytes).js()?))
    }

    #[wasm_bindgen(js_name = fromUrl, unchecked_return_type = "EmbedModel")]
    pub async fn from_url(
        #[wasm_bindgen(unchecked_param_type = "string")] url: JsValue,
        #[wasm_bindgen(unchecked_param_type = "LoadOptions | undefined")] options: JsValue,
    ) -> Result<EmbedModel, JsValue> {
        let url = string_arg(&url, "url")?;
        let options = LoadOptions::read(&options, "EmbedModel.fromUrl options")?;
        let loaded = asset::load(
            &url,
            "embed-model",
            &options,
            |kept| Core::from_bytes(kept).ok(),
            |bytes| Ok((Core::from_bytes(&bytes).js()?, Some(bytes))),
        )
        .await?;
        let mut model = EmbedModel::register(loaded.value);
        model.from_cache = loaded.from_cache;
        Ok(model)
    }

    #[wasm_bindgen(getter, js_name = fromCache)]
    pub fn from_cache(&self) -> bool {
        self.from_cache
    }
}

impl EmbedModel {
    fn register(model: Core) -> EmbedModel {
        let model = Rc::new(model);
        let handle = super::handles::register(Rc::downgrade(&model));
        EmbedModel {
            model,
            handle,
            from_cache: false,
        }
    }
}

#[wasm_bindgen]
impl EmbedModel {
    #[wasm_bindgen(unchecked_return_type = "Float32Array[]")]
    pub fn embed(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] texts: JsValue,
    ) -> Result<Array, JsValue> {
        let texts = super::js::string_items(&texts, "embed").map_err(invalid_option)?;
        let owned: Vec<String> = texts
            .iter()
            .map(|t| t.as_string().unwrap_or_default())
            .collect();
        let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
        Ok(self
            .model
            .embed(&refs)
            .iter()
            .map(|v| JsValue::from(Float32Array::from(v.as_slice())))
            .collect())
    }

    #[wasm_bindgen(getter)]
    pub fn dimensions(&self) -> usize {
        self.model.dimensions()
    }

    #[wasm_bindgen(getter, js_name = maxTokens)]
    pub fn max_tokens(&self) -> usize {
        self.model.max_tokens()
    }

    #[wasm_bindgen(getter)]
    pub fn license(&self) -> String {
        self.model.license().to_string()
    }

    #[wasm_bindgen(getter)]
    pub fn attribution(&self) -> String {
        self.model.attribution().to_string()
    }

    #[wasm_bindgen(getter, js_name = "__llmMemoryHandle", skip_typescript)]
    pub fn handle(&self) -> u32 {
        self.handle
    }
}
