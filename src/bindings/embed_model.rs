//! `EmbedModel`: the sentence embedder (`crate::ner::EmbedModel`) for JS. Apps load the model
//! file (`make embed-model` writes `models/embed.bin`) as bytes, embed texts, and hand the
//! model to `new Memory({ strategy: "retrieval", embedder })` for recall by meaning without
//! sending text anywhere. A registry lets `Memory` find the Rust side of the JS object, as
//! `Tokenizer` does.

use super::callbacks::error_text;
use super::errors::{invalid_option, js_error};
use super::options::{describe, string_arg, Opts};
use super::storage::idb::{self, IdbBackend};
use crate::error::ErrorCode;
use crate::ner::EmbedModel as Core;
use js_sys::{Array, Float32Array};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/bindings/fetch_bytes.js")]
extern "C" {
    #[wasm_bindgen(js_name = fetchBytes, catch)]
    async fn fetch_bytes(url: &str, on_progress: &JsValue) -> Result<JsValue, JsValue>;
}

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
    from_cache: bool,
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
        Ok(EmbedModel::register(Core::from_bytes(&bytes)?))
    }

    /// Downloads a model file from `url` (reporting `onProgress(loaded, total)` as bytes
    /// arrive) and loads it; the file is kept in IndexedDB under its URL, so the next page load
    /// reads it from there instead of the network (`fromCache`). Where IndexedDB is unavailable
    /// it only downloads. Throws `INVALID_MODEL` when the download fails or the file is bad.
    ///
    /// @example
    /// ```js
    /// const embedder = await EmbedModel.fromUrl("/models/embed.bin", {
    ///   onProgress: (loaded, total) => ui.append(`${Math.round((100 * loaded) / total)} %`),
    /// });
    /// embedder.fromCache; // false on the first visit, true after a reload
    /// ```
    #[wasm_bindgen(js_name = fromUrl, unchecked_return_type = "EmbedModel")]
    pub async fn from_url(
        #[wasm_bindgen(unchecked_param_type = "string")] url: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "{ onProgress?: (loaded: number, total: number) => void }"
        )]
        options: JsValue,
    ) -> Result<EmbedModel, JsValue> {
        let url = string_arg(&url, "url")?;
        let on_progress = match options.is_undefined() || options.is_null() {
            true => None,
            false => {
                let o = Opts::new(&options, "EmbedModel.fromUrl options")?;
                o.check_keys(&["onProgress"])?;
                o.function("onProgress")?
            }
        };
        let db = match idb::available() {
            true => IdbBackend::connect().await.ok(),
            false => None,
        };
        let key = format!("embed-model:{url}");
        if let Some(db) = &db {
            if let Ok(Some(bytes)) = db.get_prepared(&key).await {
                // A damaged entry is downloaded again below.
                if let Ok(model) = Core::from_bytes(&bytes) {
                    let mut m = EmbedModel::register(model);
                    m.from_cache = true;
                    return Ok(m);
                }
            }
        }
        let progress = on_progress.map(JsValue::from).unwrap_or(JsValue::UNDEFINED);
        let fetched = fetch_bytes(&url, &progress).await.map_err(|e| {
            js_error(
                ErrorCode::InvalidModel,
                &format!("could not download the model: {}", error_text(&e)),
            )
        })?;
        let bytes = js_sys::Uint8Array::new(&fetched).to_vec();
        let model = EmbedModel::register(Core::from_bytes(&bytes)?);
        if let Some(db) = &db {
            // A failed cache write (quota) costs the next load its head start, nothing more.
            let _ = db.put_prepared(&key, &bytes).await;
        }
        Ok(model)
    }

    /// Whether this model came from the IndexedDB copy (`fromUrl`).
    #[wasm_bindgen(getter, js_name = fromCache)]
    pub fn from_cache(&self) -> bool {
        self.from_cache
    }
}

impl EmbedModel {
    fn register(model: Core) -> EmbedModel {
        let model = Rc::new(model);
        let handle = REGISTRY.with(|r| {
            let mut r = r.borrow_mut();
            r.0 += 1;
            let id = r.0;
            r.1.retain(|_, w| w.strong_count() > 0);
            r.1.insert(id, Rc::downgrade(&model));
            id
        });
        EmbedModel {
            model,
            handle,
            from_cache: false,
        }
    }
}

#[wasm_bindgen]
impl EmbedModel {
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
    pub fn embed(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] texts: JsValue,
    ) -> Result<Array, JsValue> {
        if !super::js::is_array(&texts) {
            return Err(invalid_option(format!(
                "embed takes an array of strings, got {}",
                describe(&texts)
            )));
        }
        let items = super::js::items(&texts, "embed's texts").map_err(invalid_option)?;
        let mut owned = Vec::with_capacity(items.length() as usize);
        for (i, t) in items.iter().enumerate() {
            owned.push(t.as_string().ok_or_else(|| {
                invalid_option(format!(
                    "embed takes an array of strings; item {i} is not a string"
                ))
            })?);
        }
        let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
        Ok(self
            .model
            .embed(&refs)
            .iter()
            .map(|v| JsValue::from(Float32Array::from(v.as_slice())))
            .collect())
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
