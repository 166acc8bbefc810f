//! The long-term facts of the JS `Memory` class (another `#[wasm_bindgen] impl` block):
//! `remember`, `recall`, `updateFact`, `facts`, `factHistory`, `extractFacts`, and the names
//! they had before (`update`, `history`), kept for one release. `driver` runs the hooks they
//! call; no `RefCell` borrow of the core is held while JS runs.

use super::driver::now;
use super::memory::Memory;
use super::option_tree::JsOptions;
use super::options::string_arg;
use super::to_js;
use crate::bindings::errors::OrThrow;
use crate::driver::{EmbedJob, ExtractJob};
use crate::memory::ExtractOutcome;
use crate::options::facts::{self, facts_all, remember_options, RecallOptions};
use crate::recall::facts::FactStatus;
use crate::recall::RecallQuery;
use js_sys::Promise;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const REMEMBER_OPTIONS_TS: &str = facts::RememberOptionsSpec::TS;
#[wasm_bindgen(typescript_custom_section)]
const FACTS_OPTIONS_TS: &str = facts::FactsOptionsSpec::TS;
#[wasm_bindgen(typescript_custom_section)]
const RECALL_OPTIONS_TS: &str = facts::RecallOptionsSpec::TS;

#[wasm_bindgen]
impl Memory {
    pub fn remember(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RememberOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<String, JsValue> {
        let text = string_arg(&text, "text")?;
        let js = JsOptions::read(&options.unwrap_or(JsValue::UNDEFINED), "remember options")?;
        let opts = remember_options(&js.tree).js()?;
        Ok(self.change(|core| core.remember(&text, opts, now()))?.id)
    }

    #[wasm_bindgen(unchecked_return_type = "Promise<RecallHit[]>")]
    pub fn recall(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RecallOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<Promise, JsValue> {
        let query = string_arg(&query, "query")?;
        let js = JsOptions::read(&options.unwrap_or(JsValue::UNDEFINED), "recall options")?;
        let RecallOptions { k, kinds, category } = RecallOptions::parse(&js.tree).js()?;
        let job = EmbedJob::search(&mut self.core.borrow_mut(), &self.job_hooks(), &query);
        Ok(self.run_job(job, move |job, core| {
            // A failed embed falls back to words; results have no place for its note.
            let (vector, _notes) = job.finish();
            let q = RecallQuery {
                text: &query,
                vector: vector.as_deref(),
                k,
                kinds,
                category: category.as_deref(),
                exclude: None,
            };
            to_js(&core.borrow().recall(&q, now()))
        }))
    }

    #[wasm_bindgen(js_name = updateFact)]
    pub fn update_fact(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<(), JsValue> {
        let id = string_arg(&id, "id")?;
        let text = string_arg(&text, "text")?;
        self.change(|core| core.update_fact(&id, &text, now()).map(drop))
    }

    #[wasm_bindgen(unchecked_return_type = "Fact[]")]
    pub fn facts(
        &self,
        #[wasm_bindgen(unchecked_param_type = "FactsOptions | undefined")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let js = JsOptions::read(&options.unwrap_or(JsValue::UNDEFINED), "facts options")?;
        let all = facts_all(&js.tree).js()?;
        let core = self.core.borrow();
        let facts: Vec<_> = core
            .facts()
            .iter()
            .filter(|f| all || f.status == FactStatus::Active)
            .collect();
        to_js(&facts)
    }

    #[wasm_bindgen(js_name = factHistory, unchecked_return_type = "FactChange[]")]
    pub fn fact_history(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<JsValue, JsValue> {
        let id = string_arg(&id, "id")?;
        let trail = self.core.borrow().fact_history(&id).js()?;
        to_js(&trail)
    }

    #[wasm_bindgen(js_name = extractFacts, unchecked_return_type = "Promise<{ applied: number; notes: string[] }>")]
    pub fn extract_facts(&self) -> Result<Promise, JsValue> {
        let hooks = self.job_hooks();
        let job = ExtractJob::asked(&self.core.borrow(), &hooks).js()?;
        self.writable()?;
        Ok(match job {
            Some(job) => self.run_job(job, |job, _| to_js(&job.outcome())),
            None => Promise::resolve(&to_js(&ExtractOutcome::default())?),
        })
    }
}
