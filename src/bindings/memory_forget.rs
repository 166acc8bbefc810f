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
use crate::session::receipt_after;
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
    let opts = options::forget::forget_options(&js.tree).js()?;
    let now = Some(js_sys::Date::now());
    Ok(ForgetOptions { now, ..opts })
}

#[wasm_bindgen]
impl Memory {
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
        let erasure = self.change(|core| core.forget(&id, opts))?;
        self.receipt(&erasure)
    }

    #[wasm_bindgen(unchecked_return_type = "Promise<ForgetReceipt>")]
    pub fn clear(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ForgetOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<Promise, JsValue> {
        let opts = forget_options(options)?;
        let erasure = self.change(|core| Ok(core.clear(opts)))?;
        self.receipt(&erasure)
    }

    /// The receipt, resolved after the next write: `stored` says whether storage took it.
    fn receipt(&self, erasure: &Erasure) -> Result<Promise, JsValue> {
        let receipt = to_js(erasure)?;
        let flush = self.flush();
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            let flushed = receipt_after(JsFuture::from(flush)).await;
            let set = |k: &str, v: &JsValue| Reflect::set(&receipt, &JsValue::from_str(k), v);
            set("stored", &JsValue::from_bool(flushed.stored))?;
            if let Some(e) = flushed.error {
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
