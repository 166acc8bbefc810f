//! `forget` and `clear`: the core erases every derived copy and says what went; this face
//! parses the options, queues the write and resolves the receipt once storage has it.

use super::errors::js_error;
use super::memory::Memory;
use super::option_tree::JsOptions;
use super::options::string_arg;
use super::to_js;
use crate::bindings::errors::OrThrow;
use crate::error::ErrorCode;
use crate::memory::{Erasure, ForgetOptions};
use crate::options::{self, forget::ForgetOptionsSpec};
use js_sys::{Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(typescript_custom_section)]
const FORGET_TYPES: &str = crate::js_types::FORGET;

#[wasm_bindgen(typescript_custom_section)]
const FORGET_OPTIONS_TS: &str = ForgetOptionsSpec::TS;

fn forget_options(v: Option<JsValue>) -> Result<ForgetOptions, JsValue> {
    let js = JsOptions::read(&v.unwrap_or(JsValue::UNDEFINED), "forget options")?;
    options::forget::forget_options(&js.tree).js()
}

#[wasm_bindgen]
impl Memory {
    /// Forgets a turn, a fact or an episode by id, and every copy derived from it: the
    /// summaries and episodes that hold its words, the facts extracted from it (`keepDerived:
    /// true` keeps those), its search index entry and embedding (stored ones included), and
    /// the redaction vault's values that nothing kept holds any more. Resolves, once storage
    /// holds the erasure, to a receipt: `{ removed: { turns, summaries, steps, facts, episodes,
    /// vectors, vaultValues }, kept: { vaultValues }, stored }` (ids; placeholders for vault
    /// values; `kept` lists the erased records' values a kept record still holds). A failed
    /// write resolves with `stored: false` and the coded `error` (the erasure is queued and
    /// written by the next `flush()`); an unknown id throws `NOT_FOUND` at once.
    #[wasm_bindgen(unchecked_return_type = "Promise<ForgetReceipt>")]
    pub fn forget(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ForgetOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<Promise, JsValue> {
        let id = string_arg(&id, "id")?;
        let opts = forget_options(options)?;
        self.writable()?;
        let now = js_sys::Date::now();
        let erasure = self.core.borrow_mut().erase(&id, opts, now).js()?;
        self.changed();
        self.receipt(&erasure)
    }

    /// Clears the conversation (turns, summaries, steps) and what was derived from it:
    /// episodes, facts extracted from its turns (`keepDerived: true` keeps those), embeddings
    /// and vault values nothing kept holds. Pinned facts, facts the app stored itself and
    /// options stay. Resolves to the same receipt as `forget`.
    #[wasm_bindgen(unchecked_return_type = "Promise<ForgetReceipt>")]
    pub fn clear(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ForgetOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<Promise, JsValue> {
        let opts = forget_options(options)?;
        self.writable()?;
        let now = js_sys::Date::now();
        let erasure = self.core.borrow_mut().clear_with(opts, now);
        self.changed();
        self.receipt(&erasure)
    }

    /// The receipt, resolved after the next write: `stored` says whether storage took it.
    fn receipt(&self, erasure: &Erasure) -> Result<Promise, JsValue> {
        let receipt = to_js(erasure)?;
        let flush = self.flush();
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            let written = JsFuture::from(flush).await;
            let set = |k: &str, v: &JsValue| Reflect::set(&receipt, &JsValue::from_str(k), v);
            set("stored", &JsValue::from_bool(written.is_ok()))?;
            if let Err(e) = written {
                let e = if e.is_instance_of::<js_sys::Error>() {
                    e
                } else {
                    js_error(ErrorCode::StorageFailed, &super::js::error_text(&e))
                };
                set("error", &e)?;
            }
            Ok(receipt)
        }))
    }
}
