//! `Tokenizer`: a Hugging Face tokenizer.json or the approximate counter, shared by any number
//! of `Memory` instances.

use super::errors::{invalid_option, js_error};
#[cfg(feature = "chat-template")]
use super::option_tree::JsOptions;
use super::options::{describe, string_arg, text_or_json};
use crate::bindings::errors::OrThrow;
use crate::error::ErrorCode;
#[cfg(feature = "chat-template")]
use crate::tokens::chat_template::{ChatTemplate, RenderOptions};
use crate::tokens::{ApproximateCounter, HfTokenizer, SharedCounter};
#[cfg(feature = "chat-template")]
use std::cell::RefCell;
use std::sync::{Arc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[cfg(feature = "chat-template")]
#[wasm_bindgen(typescript_custom_section)]
const CHAT_TEMPLATE_OPTIONS_TS: &str = crate::options::assets::ChatTemplateOptionsSpec::TS;

#[wasm_bindgen]
pub struct Tokenizer {
    counter: SharedCounter,
    hf: Option<Arc<HfTokenizer>>,
    handle: u32,
    /// Loaded from the prepared form cached in IndexedDB (`fromJsonCached`).
    pub(super) from_cache: bool,
    #[cfg(feature = "chat-template")]
    /// The last chat template compiled, keyed by its config text: apps pass the same config
    /// every turn, and compiling costs far more than comparing.
    chat: RefCell<Option<(String, Arc<ChatTemplate>)>>,
}

impl Tokenizer {
    pub(super) fn register(counter: SharedCounter, hf: Option<Arc<HfTokenizer>>) -> Tokenizer {
        let handle = super::handles::register(Arc::downgrade(&counter));
        Tokenizer {
            counter,
            hf,
            handle,
            from_cache: false,
            #[cfg(feature = "chat-template")]
            chat: RefCell::new(None),
        }
    }

    /// The counter behind a JS `Tokenizer` object, if `value` is one that is still alive.
    pub fn counter_of(value: &JsValue) -> Result<SharedCounter, JsValue> {
        let found = super::handles::find::<Weak<dyn crate::tokens::TokenCounter>>(value);
        found.ok_or_else(|| {
            invalid_option(
                "tokenizer must be a Tokenizer from Tokenizer.fromJson() or \
                 Tokenizer.approximate() that has not been freed",
            )
        })
    }
}

#[wasm_bindgen]
impl Tokenizer {
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | ArrayBuffer | object")]
        json: JsValue,
    ) -> Result<Tokenizer, JsValue> {
        let hf = Arc::new(HfTokenizer::from_bytes(&json_bytes(&json)?).js()?);
        Ok(Tokenizer::register(hf.clone(), Some(hf)))
    }
}

/// The bytes of a tokenizer.json given as text, bytes or the parsed object.
pub(super) fn json_bytes(json: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(a) = json.dyn_ref::<js_sys::Uint8Array>() {
        return Ok(a.to_vec());
    }
    if let Some(b) = json.dyn_ref::<js_sys::ArrayBuffer>() {
        return Ok(js_sys::Uint8Array::new(b).to_vec());
    }
    let takes = "Tokenizer.fromJson takes the tokenizer.json text, its bytes, or the parsed object";
    Ok(text_or_json(json, ErrorCode::InvalidTokenizer, takes)?.into_bytes())
}

#[wasm_bindgen]
impl Tokenizer {
    pub fn approximate(
        #[wasm_bindgen(js_name = charsPerToken, unchecked_param_type = "number | undefined")]
        chars_per_token: Option<JsValue>,
    ) -> Result<Tokenizer, JsValue> {
        // A JsValue, not Option<f64>: the number glue throws an uncoded TypeError on a
        // Symbol, a BigInt or an object.
        let chars = match chars_per_token {
            None => 4.0,
            Some(v) => v.as_f64().ok_or_else(|| {
                invalid_option(format!(
                    "charsPerToken must be a positive number, got {}",
                    describe(&v)
                ))
            })?,
        };
        let c = ApproximateCounter::new(chars).js()?;
        Ok(Tokenizer::register(Arc::new(c), None))
    }

    pub fn count(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<u32, JsValue> {
        Ok(self.counter.count(&string_arg(&text, "text")?) as u32)
    }

    #[wasm_bindgen(js_name = countMany)]
    pub fn count_many(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] texts: js_sys::Array,
    ) -> Result<Vec<u32>, JsValue> {
        let texts = super::js::string_items(&texts, "countMany").map_err(invalid_option)?;
        let n = texts.length();
        let units: Vec<usize> = (texts.iter())
            .map(|t| t.unchecked_into::<js_sys::JsString>().length() as usize)
            .collect();
        let joined = String::from(texts.join(""));
        let counts = match crate::tokens::utf16::split(&joined, &units) {
            Some(parts) => self.counter.count_many(&parts),
            // A lone high surrogate that ends one text pairs with a low one starting the next
            // once joined: count those texts one by one.
            None => (0..n)
                .map(|i| {
                    self.counter
                        .count(&texts.get(i).as_string().unwrap_or_default())
                })
                .collect(),
        };
        Ok(counts.into_iter().map(|c| c as u32).collect())
    }

    #[wasm_bindgen(js_name = fromPrepared)]
    pub fn from_prepared(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    ) -> Result<Tokenizer, JsValue> {
        let Some(bytes) = bytes.dyn_ref::<js_sys::Uint8Array>() else {
            return Err(js_error(
                ErrorCode::InvalidTokenizer,
                &format!(
                    "fromPrepared takes the Uint8Array that prepared() returned, got {}",
                    describe(&bytes)
                ),
            ));
        };
        let hf = Arc::new(HfTokenizer::from_prepared(&bytes.to_vec()).js()?);
        Ok(Tokenizer::register(hf.clone(), Some(hf)))
    }

    pub fn prepared(&self) -> Option<Vec<u8>> {
        self.hf.as_ref().and_then(|h| h.prepared())
    }

    pub fn encode(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<Vec<u32>, JsValue> {
        let text = string_arg(&text, "text")?;
        match &self.hf {
            Some(hf) => Ok(hf.encode_ids(&text).js()?),
            None => Err(js_error(
                ErrorCode::InvalidTokenizer,
                "the approximate tokenizer has no vocabulary to encode with",
            )),
        }
    }

    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        self.counter.kind().to_string()
    }

    #[wasm_bindgen(getter)]
    pub fn exact(&self) -> bool {
        self.counter.is_exact()
    }

    #[wasm_bindgen(getter, js_name = "__llmMemoryHandle", skip_typescript)]
    pub fn handle(&self) -> u32 {
        self.handle
    }
}

#[cfg(feature = "chat-template")]
#[wasm_bindgen]
impl Tokenizer {
    #[wasm_bindgen(js_name = countChat)]
    pub fn count_chat(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChatMessage[]")] messages: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | object")] config: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ChatTemplateOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<u32, JsValue> {
        let text = self.render_chat(messages, config, options)?;
        Ok(self.counter.count(&text) as u32)
    }

    #[wasm_bindgen(js_name = renderChat)]
    pub fn render_chat(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChatMessage[]")] messages: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | object")] config: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ChatTemplateOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<String, JsValue> {
        let (messages, object_arguments) = super::entry_input::parse_chat(&messages)?;
        let template = self.chat_template(&config)?;
        let js = JsOptions::read(
            &options.unwrap_or(JsValue::UNDEFINED),
            "chat template options",
        )?;
        let opts = RenderOptions {
            add_generation_prompt: crate::options::assets::add_generation_prompt(&js.tree).js()?,
            now_ms: Some(js_sys::Date::now()),
            object_arguments,
        };
        template.render(&messages, &opts).js()
    }
}

#[cfg(feature = "chat-template")]
impl Tokenizer {
    fn chat_template(&self, config: &JsValue) -> Result<Arc<ChatTemplate>, JsValue> {
        let takes = "pass the model's tokenizer_config.json as its text or the parsed object";
        let text = text_or_json(config, ErrorCode::InvalidTokenizer, takes)?;
        if let Some((key, t)) = self.chat.borrow().as_ref() {
            if *key == text {
                return Ok(t.clone());
            }
        }
        let t = Arc::new(ChatTemplate::from_config_json(&text).js()?);
        *self.chat.borrow_mut() = Some((text, t.clone()));
        Ok(t)
    }
}
