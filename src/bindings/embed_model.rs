//! `EmbedModel`: the sentence embedder (`crate::ner::EmbedModel`) for JS. Apps load the model
//! file (`make embed-model` writes `models/embed.bin`) as bytes, embed texts, and hand the
//! model to `new Memory({ strategy: "retrieval", embedder })` for recall by meaning without
//! sending text anywhere. A registry lets `Memory` find the Rust side of the JS object, as
//! `Tokenizer` does.

use super::errors::{invalid_option, js_error};
use crate::error::ErrorCode;
use crate::ner::EmbedModel as Core;
use js_sys::{Array, Float32Array};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;

thread_local! {
    /// Live models by handle; an entry dies with its JS object.
    static REGISTRY: RefCell<(u32, HashMap<u32, Weak<Core>>)> = RefCell::new((0, HashMap::new()));
}

/// A sentence embedder running in this page: all-MiniLM-L6-v2 (384 dimensions, English-first)
/// or another BERT model converted to the same file. Vectors have length 1, so a dot product is
/// their cosine.
///
/// @example
/// ```js
/// const bytes = new Uint8Array(await (await fetch("/models/embed.bin")).arrayBuffer());
/// const embedder = await EmbedModel.fromBytes(bytes);
/// const [a, b] = embedder.embed(["I moved to Porto.", "Where am I based?"]);
/// ```
#[wasm_bindgen]
pub struct EmbedModel {
    model: Rc<Core>,
    handle: u32,
}

impl EmbedModel {
    /// The model behind a JS `EmbedModel`, if `value` is one that has not been freed.
    pub fn model_of(value: &JsValue) -> Result<Rc<Core>, JsValue> {
        let handle = js_sys::Reflect::get(value, &"__llmMemoryHandle".into())
            .ok()
            .and_then(|h| h.as_f64());
        handle
            .and_then(|h| REGISTRY.with(|r| r.borrow().1.get(&(h as u32)).and_then(Weak::upgrade)))
            .ok_or_else(|| {
                invalid_option(
                    "embedder must be an EmbedModel from EmbedModel.fromBytes() that has not been freed",
                )
            })
    }
}

#[wasm_bindgen]
impl EmbedModel {
    /// Loads a model file (`models/embed.bin` from `make embed-model`), given as `Uint8Array`
    /// or `ArrayBuffer`. Throws `INVALID_MODEL` for a file that is truncated, corrupt, of
    /// another version, or not a sentence embedder.
    ///
    /// @example
    /// ```js
    /// const embedder = await EmbedModel.fromBytes(await (await fetch("/models/embed.bin")).arrayBuffer());
    /// const mem = new Memory({ strategy: "retrieval", maxTokens: 2000, embedder });
    /// ```
    #[wasm_bindgen(js_name = fromBytes, unchecked_return_type = "EmbedModel")]
    pub async fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer")] bytes: JsValue,
    ) -> Result<EmbedModel, JsValue> {
        let bytes = if let Some(a) = bytes.dyn_ref::<js_sys::Uint8Array>() {
            a.to_vec()
        } else if let Some(b) = bytes.dyn_ref::<js_sys::ArrayBuffer>() {
            js_sys::Uint8Array::new(b).to_vec()
        } else {
            return Err(js_error(
                ErrorCode::InvalidModel,
                "EmbedModel.fromBytes takes the model file as a Uint8Array or an ArrayBuffer",
            ));
        };
        let model = Rc::new(Core::from_bytes(&bytes)?);
        let handle = REGISTRY.with(|r| {
            let mut r = r.borrow_mut();
            r.0 += 1;
            let id = r.0;
            r.1.retain(|_, w| w.strong_count() > 0);
            r.1.insert(id, Rc::downgrade(&model));
            id
        });
        Ok(EmbedModel { model, handle })
    }

    /// One vector per text, in order: `Float32Array`s of `dimensions` values, length 1. Texts
    /// longer than `maxTokens` are embedded in windows whose vectors are averaged.
    ///
    /// @example
    /// ```js
    /// const [fact, question] = embedder.embed(["I moved to Porto.", "Where am I based?"]);
    /// let cosine = 0;
    /// for (let i = 0; i < fact.length; i++) cosine += fact[i] * question[i];
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Float32Array[]")]
    pub fn embed(&self, texts: Vec<String>) -> Array {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        self.model
            .embed(&refs)
            .iter()
            .map(|v| JsValue::from(Float32Array::from(v.as_slice())))
            .collect()
    }

    /// Length of every vector (384 for all-MiniLM-L6-v2).
    ///
    /// @example
    /// ```js
    /// new Float32Array(embedder.dimensions); // room for one vector
    /// ```
    #[wasm_bindgen(getter)]
    pub fn dimensions(&self) -> usize {
        self.model.dimensions()
    }

    /// Tokens one window holds, `[CLS]` and `[SEP]` included (256 for all-MiniLM-L6-v2).
    ///
    /// @example
    /// ```js
    /// embedder.maxTokens; // 256
    /// ```
    #[wasm_bindgen(getter, js_name = maxTokens)]
    pub fn max_tokens(&self) -> usize {
        self.model.max_tokens()
    }

    /// SPDX id of the weights' licence (`"Apache-2.0"` for all-MiniLM-L6-v2).
    ///
    /// @example
    /// ```js
    /// embedder.license; // "Apache-2.0"
    /// ```
    #[wasm_bindgen(getter)]
    pub fn license(&self) -> String {
        self.model.license().to_string()
    }

    /// Who made the weights and where this copy came from: show it where the model is credited.
    ///
    /// @example
    /// ```js
    /// ui.textContent = embedder.attribution;
    /// ```
    #[wasm_bindgen(getter)]
    pub fn attribution(&self) -> String {
        self.model.attribution().to_string()
    }

    #[wasm_bindgen(getter, js_name = "__llmMemoryHandle", skip_typescript)]
    pub fn handle(&self) -> u32 {
        self.handle
    }
}
