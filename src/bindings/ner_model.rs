//! `NerModel`: the PII model file (`models/pii-ner.bin`) loaded once and shared by any number
//! of `Redactor`s and `Memory`s. The file is never inside the wasm: apps host it and load it
//! with `fromUrl` (downloaded once, then kept in IndexedDB) or hand its bytes to `fromBytes`.

use super::errors::{invalid_option, js_error};
use super::options::{describe, Opts};
use super::storage::idb::{self, IdbBackend};
use crate::error::ErrorCode;
use crate::ner::Tagger;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const NER_TYPES: &'static str = r#"
/** Options of `NerModel.fromUrl`. */
export interface NerModelLoadOptions {
  /** Called as the file downloads (`total` is undefined when the server does not say). */
  onProgress?: (progress: { loaded: number; total?: number }) => void;
  /** Keep the file in IndexedDB under its URL and load it from there next time (default true).
   *  Give a new model file a new URL (a version in the path). */
  cache?: boolean;
}
"#;

#[wasm_bindgen(module = "/src/bindings/ner_fetch.js")]
extern "C" {
    #[wasm_bindgen(js_name = fetchModel, catch)]
    async fn fetch_model(url: &str, on_progress: &JsValue) -> Result<JsValue, JsValue>;
}

thread_local! {
    /// Lets `new Redactor({ model })` find the Rust side of a JS `NerModel` without taking
    /// ownership of it (wasm-bindgen cannot borrow a class instance out of an options object).
    static REGISTRY: RefCell<(u32, HashMap<u32, Weak<Tagger>>)> = RefCell::new((0, HashMap::new()));
}

/// The PII token classifier (Rampart, a MiniLM-L6 BERT; CC BY 4.0, see `attribution`). Give
/// it to a redactor to find lower-case names, addresses without a cue word and numbers after a
/// label that the rules miss. Runs on the device, in this module's own code.
///
/// @example
/// ```js
/// const model = await NerModel.fromUrl("/models/pii-ner.bin", {
///   onProgress: ({ loaded, total }) => console.log(loaded, total),
/// });
/// const redactor = new Redactor({ model });
/// redactor.redact("i'm seeing maria gonzalez at 1420 elm street").text;
/// // "i'm seeing [PERSON_1] at [ADDRESS_1]"
/// ```
#[wasm_bindgen(js_name = NerModel)]
pub struct JsNerModel {
    tagger: Arc<Tagger>,
    handle: u32,
    from_cache: bool,
}

impl JsNerModel {
    fn register(tagger: Arc<Tagger>, from_cache: bool) -> JsNerModel {
        let handle = REGISTRY.with(|r| {
            let mut r = r.borrow_mut();
            r.0 += 1;
            let id = r.0;
            r.1.retain(|_, w| w.strong_count() > 0);
            r.1.insert(id, Arc::downgrade(&tagger));
            id
        });
        JsNerModel {
            tagger,
            handle,
            from_cache,
        }
    }

    /// The model behind a JS `NerModel` object, if `value` is one that is still alive.
    pub(crate) fn tagger_of(value: &JsValue) -> Result<Arc<Tagger>, JsValue> {
        let handle = js_sys::Reflect::get(value, &"__llmMemoryNerHandle".into())
            .ok()
            .and_then(|h| h.as_f64());
        let found = handle
            .and_then(|h| REGISTRY.with(|r| r.borrow().1.get(&(h as u32)).and_then(Weak::upgrade)));
        found.ok_or_else(|| {
            invalid_option(format!(
                "model must be a NerModel from NerModel.fromBytes() or NerModel.fromUrl() that \
                 has not been freed, got {}",
                describe(value)
            ))
        })
    }
}

/// The bytes of a model given as `Uint8Array` or `ArrayBuffer`.
fn model_bytes(bytes: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(a) = bytes.dyn_ref::<js_sys::Uint8Array>() {
        Ok(a.to_vec())
    } else if let Some(b) = bytes.dyn_ref::<js_sys::ArrayBuffer>() {
        Ok(js_sys::Uint8Array::new(b).to_vec())
    } else {
        Err(js_error(
            ErrorCode::InvalidModel,
            &format!(
                "a model file must be given as a Uint8Array or an ArrayBuffer, got {}",
                describe(bytes)
            ),
        ))
    }
}

#[wasm_bindgen(js_class = NerModel)]
impl JsNerModel {
    /// Loads a model file (`models/pii-ner.bin`, from `make model`). Throws `INVALID_MODEL`
    /// for bytes that are not one (truncated, another format version, unknown labels).
    ///
    /// @example
    /// ```js
    /// const ner = await NerModel.fromBytes(new Uint8Array(await file.arrayBuffer()));
    /// new Redactor({ model: ner }).redact("tell dmitri petrov").text; // "tell [PERSON_1]"
    /// ```
    #[wasm_bindgen(js_name = fromBytes, unchecked_return_type = "NerModel")]
    pub async fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer")] bytes: JsValue,
    ) -> Result<JsNerModel, JsValue> {
        let tagger = Tagger::from_bytes(&model_bytes(&bytes)?)?;
        Ok(JsNerModel::register(Arc::new(tagger), false))
    }

    /// Downloads a model file with progress, or takes it from IndexedDB where an earlier
    /// `fromUrl` of the same URL kept it. Throws `MODEL_UNAVAILABLE` when the download fails
    /// and `INVALID_MODEL` when the file is not a model.
    ///
    /// @example
    /// ```js
    /// const ner = await NerModel.fromUrl("/models/pii-ner.bin", {
    ///   onProgress: ({ loaded, total }) => ui.append(`${loaded} of ${total ?? "?"} bytes`),
    /// });
    /// ner.fromCache; // false on the first visit, true after a reload
    /// ```
    #[wasm_bindgen(js_name = fromUrl, unchecked_return_type = "NerModel")]
    pub async fn from_url(
        url: String,
        #[wasm_bindgen(unchecked_param_type = "NerModelLoadOptions | undefined")] options: JsValue,
    ) -> Result<JsNerModel, JsValue> {
        let o = Opts::new(&options, "NerModel.fromUrl options")?;
        o.check_keys(&["onProgress", "cache"])?;
        let on_progress = o.function("onProgress")?;
        let cache = o.boolean("cache")?.unwrap_or(true);
        let key = format!("ner-model:{url}");
        let db = match cache && idb::available() {
            true => IdbBackend::connect().await.ok(),
            false => None,
        };
        if let Some(db) = &db {
            if let Ok(Some(bytes)) = db.get_prepared(&key).await {
                // A damaged entry is downloaded again.
                if let Ok(tagger) = Tagger::from_bytes(&bytes) {
                    if let Some(f) = &on_progress {
                        let _ = f.call1(&JsValue::NULL, &progress(bytes.len(), bytes.len()));
                    }
                    return Ok(JsNerModel::register(Arc::new(tagger), true));
                }
            }
        }
        let callback = on_progress.map(JsValue::from).unwrap_or(JsValue::UNDEFINED);
        let downloaded = fetch_model(&url, &callback).await?;
        let bytes = model_bytes(&downloaded)?;
        let tagger = Tagger::from_bytes(&bytes)?;
        if let Some(db) = &db {
            // A failed cache write (quota) costs the next load a download, nothing more.
            let _ = db.put_prepared(&key, &bytes).await;
        }
        Ok(JsNerModel::register(Arc::new(tagger), false))
    }

    /// The model's labels (`O`, `B-GIVEN_NAME`, ...), as its classifier orders them.
    #[wasm_bindgen(getter, unchecked_return_type = "string[]")]
    pub fn labels(&self) -> JsValue {
        let out = js_sys::Array::new();
        for l in self.tagger.labels() {
            out.push(&JsValue::from_str(l));
        }
        out.into()
    }

    /// Who made the weights and under which licence: show it where the model is used.
    #[wasm_bindgen(getter)]
    pub fn attribution(&self) -> String {
        self.tagger.model().attribution().to_string()
    }

    /// SPDX id of the weights' licence (`CC-BY-4.0`).
    #[wasm_bindgen(getter)]
    pub fn license(&self) -> String {
        self.tagger.model().license().to_string()
    }

    /// Whether `fromUrl` took the file from IndexedDB instead of downloading it.
    #[wasm_bindgen(getter, js_name = fromCache)]
    pub fn cached(&self) -> bool {
        self.from_cache
    }

    /// The model's input for `text`: `[CLS]`, the WordPiece token ids, `[SEP]` (for tests and
    /// benchmarks against other runtimes).
    ///
    /// @example
    /// ```js
    /// const ner = await NerModel.fromUrl(url);
    /// ner.tokenIds("maria gonzalez"); // Uint32Array: [CLS], the pieces, [SEP]
    /// ```
    #[wasm_bindgen(js_name = tokenIds)]
    pub fn token_ids(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<Vec<u32>, JsValue> {
        let text = super::options::string_arg(&text, "text")?;
        Ok(self.tagger.token_ids(&text))
    }

    /// The classifier's scores for token ids as `tokenIds` gives them (at most 512): one row of
    /// `labels.length` logits per token. For tests and benchmarks; redactors call the model
    /// themselves.
    ///
    /// @example
    /// ```js
    /// const ner = await NerModel.fromUrl(url);
    /// const ids = ner.tokenIds("maria gonzalez");
    /// const scores = ner.logits(ids); // ids.length × ner.labels.length numbers
    /// ```
    pub fn logits(&self, ids: &[u32]) -> Result<Vec<f32>, JsValue> {
        Ok(self.tagger.model().logits(ids)?)
    }

    #[wasm_bindgen(getter, js_name = "__llmMemoryNerHandle", skip_typescript)]
    pub fn handle(&self) -> u32 {
        self.handle
    }
}

/// `{ loaded, total }` for `onProgress`.
fn progress(loaded: usize, total: usize) -> JsValue {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &"loaded".into(), &(loaded as f64).into());
    let _ = js_sys::Reflect::set(&o, &"total".into(), &(total as f64).into());
    o.into()
}
