//! The embedding face of `Memory` (another `#[wasm_bindgen] impl` block): the items still
//! waiting for a vector, and `embedPending`, the idle-time work that embeds them in small
//! batches so that no search has to embed a long history first. What waits and in what order
//! is the core's (`memory::embedding`); this file runs the model or the app's `embed`.

use super::memory::Memory;
use super::option_tree::JsOptions;
use crate::bindings::errors::OrThrow;
use crate::driver::EmbedJob;
use crate::options::assets::{pending_limit, EmbedPendingOptionsSpec};
use js_sys::Promise;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const EMBED_PENDING_OPTIONS_TS: &str = EmbedPendingOptionsSpec::TS;

#[wasm_bindgen]
impl Memory {
    #[wasm_bindgen(getter, js_name = pendingEmbeddings)]
    pub fn pending_embeddings(&self) -> usize {
        self.core.borrow_mut().pending_embeddings()
    }

    #[wasm_bindgen(js_name = embedPending, unchecked_return_type = "Promise<number>")]
    pub fn embed_pending(
        &self,
        #[wasm_bindgen(unchecked_param_type = "EmbedPendingOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<Promise, JsValue> {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let js = JsOptions::read(&options, "embedPending options")?;
        let limit = pending_limit(&js.tree).js()?;
        let job = EmbedJob::backlog(&mut self.core.borrow_mut(), &self.job_hooks(), limit).js()?;
        Ok(self.run_job(job, |job, core| {
            Ok(JsValue::from(
                job.finish_backlog(&mut core.borrow_mut()).js()?,
            ))
        }))
    }
}
