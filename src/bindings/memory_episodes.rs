//! The episodic and tool face of `Memory` (another `#[wasm_bindgen] impl` block): episodes
//! written by the app's `summarize` and recalled by situation, and the memory tools a model can
//! call. `driver` runs the hooks.

use super::driver::{now, run, with_cause};
use super::memory::Memory;
use super::option_tree::JsOptions;
use super::options::{string_arg, text_or_json};
use super::to_js;
use crate::bindings::errors::OrThrow;
use crate::driver::{EmbedJob, EpisodeJob};
use crate::error::ErrorCode;
use crate::options::facts::{episode_count, EpisodeRecallOptionsSpec};
use crate::recall::tools;
use crate::session::{call_tool, Refusal};
use js_sys::Promise;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const EPISODE_RECALL_OPTIONS_TS: &str = EpisodeRecallOptionsSpec::TS;

#[wasm_bindgen]
impl Memory {
    #[wasm_bindgen(js_name = recordEpisode, unchecked_return_type = "Promise<Episode | null>")]
    pub fn record_episode(&self) -> Result<Promise, JsValue> {
        let hooks = self.job_hooks();
        EpisodeJob::check(&hooks).js()?;
        self.writable()?;
        let (core, callbacks, store) = (self.core.clone(), self.callbacks(), self.store.clone());
        // One at a time, in call order (`crate::session::turns`): the turn is taken now.
        let turn = self.episode_turns.enter();
        let promise = wasm_bindgen_futures::future_to_promise(async move {
            let _turn = turn.await;
            let job = EpisodeJob::begin(&mut core.borrow_mut(), &hooks).js()?;
            let Some(mut job) = job else {
                return Ok(JsValue::NULL);
            };
            let thrown = run(&core, &callbacks, &mut job).await;
            let episode = with_cause(job.finish().js(), thrown)?;
            if let Some(s) = &store {
                s.schedule();
            }
            to_js(&episode)
        });
        Ok(promise)
    }

    #[wasm_bindgen(js_name = recallEpisodes, unchecked_return_type = "Promise<(Episode & { score: number })[]>")]
    pub fn recall_episodes(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] situation: JsValue,
        #[wasm_bindgen(unchecked_param_type = "EpisodeRecallOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<Promise, JsValue> {
        let situation = string_arg(&situation, "situation")?;
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let k = JsOptions::read(&options, "recallEpisodes options")?;
        let k = episode_count(&k.tree).js()?;
        let job = EmbedJob::search(&mut self.core.borrow_mut(), &self.job_hooks(), &situation);
        Ok(self.run_job(job, move |job, core| {
            // A failed embed falls back to words; results have no place for its note.
            let (vector, _notes) = job.finish();
            let c = core.borrow();
            to_js(&c.recall_episodes(&situation, vector.as_deref(), k, now()))
        }))
    }

    #[wasm_bindgen(unchecked_return_type = "Episode[]")]
    pub fn episodes(&self) -> Result<JsValue, JsValue> {
        to_js(self.core.borrow().episodes())
    }

    #[wasm_bindgen(unchecked_return_type = "MemoryTool[]")]
    pub fn tools(&self) -> Result<JsValue, JsValue> {
        to_js(tools::definitions())
    }

    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "Promise<string>")]
    pub fn call_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | object")] args: JsValue,
    ) -> Promise {
        let args = match args.is_undefined() || args.is_null() {
            true => Some(String::new()),
            false => text_or_json(&args, ErrorCode::InvalidOption, "").ok(),
        };
        let (name, args) = (name.as_string(), args);
        let writable = self.writable().is_ok();
        let mut core = self.core.try_borrow_mut();
        let target = match (&mut core, writable) {
            (_, false) => Err(Refusal::ReadOnly),
            (Ok(core), true) => Ok(&mut **core),
            (Err(_), true) => Err(Refusal::Busy),
        };
        let (result, changed) = call_tool(target, name.as_deref(), args.as_deref(), now());
        drop(core);
        if changed {
            self.changed();
        }
        Promise::resolve(&JsValue::from_str(&result))
    }
}
