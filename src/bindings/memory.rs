//! `Memory`: the conversation memory of one chat, as JS sees it. The core engine sits in an
//! `Rc<RefCell<_>>` so the async `context()` can await the app's summarizer; no borrow is held
//! while JS code runs, so callbacks may call back into this object.

use super::entry_input::{content_or_calls, parse_extra, parse_message, parse_step};
use super::errors::js_error;
use super::memory_options::{self, ParsedOptions};
use super::option_tree::JsOptions;
use super::options::string_arg;
use super::storage::writer::Store;
use super::to_js;
use crate::bindings::errors::OrThrow;
use crate::driver::{ContextJob, Job};
use crate::error::ErrorCode;
use crate::history::steps::StepView;
use crate::history::Role;
use crate::memory::{Memory as Core, MemoryConfig};
use crate::options::context::{ContextOptions, ContextOptionsSpec};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Memory {
    pub(super) core: Rc<RefCell<Core>>,
    /// The stored session, for memories from `Memory.open` / `Memory.import`.
    pub(super) store: Option<Rc<Store>>,
    /// Set when the stored session was written by a newer schema: writes are refused.
    pub(super) read_only: bool,
    /// The app's recall callbacks (`extract`, `embed`) and defaults.
    pub(super) hooks: super::recall_hooks::RecallHooks,
    /// `recordEpisode` calls, one at a time.
    pub(super) episode_turns: crate::session::OneAtATime,
}

#[wasm_bindgen(typescript_custom_section)]
const CONTEXT_OPTIONS_TS: &str = ContextOptionsSpec::TS;

fn now() -> f64 {
    js_sys::Date::now()
}

impl Memory {
    /// A memory over `core`, configured by `parsed` (shared by `new` and `Memory.open`).
    pub(super) fn from_parts(core: Core, parsed: ParsedOptions) -> Memory {
        let mut m = Memory {
            core: Rc::new(RefCell::new(core)),
            store: None,
            read_only: false,
            hooks: Default::default(),
            episode_turns: Default::default(),
        };
        m.apply(parsed);
        m
    }

    /// Refuses changes to a read-only session before anything is changed.
    pub(super) fn writable(&self) -> Result<(), JsValue> {
        match (&self.store, self.read_only) {
            (Some(store), true) => Err(super::storage::writer::read_only_error(
                &store.meta.borrow().session,
            )),
            _ => Ok(()),
        }
    }

    /// The hooks this memory's jobs see: which callbacks it has, its options, read-only.
    pub(super) fn job_hooks(&self) -> crate::driver::Hooks {
        self.hooks.job_hooks(self.read_only)
    }

    pub(super) fn callbacks(&self) -> super::driver::Callbacks {
        self.hooks.callbacks()
    }

    /// Runs `job` with this memory's callbacks, then `finish` on the core; queues a write of
    /// what they changed and resolves to what `finish` returns.
    pub(super) fn run_job<J: Job + 'static>(
        &self,
        mut job: J,
        finish: impl FnOnce(J, &RefCell<Core>) -> Result<JsValue, JsValue> + 'static,
    ) -> js_sys::Promise {
        let (core, callbacks, store) = (self.core.clone(), self.callbacks(), self.store.clone());
        wasm_bindgen_futures::future_to_promise(async move {
            let thrown = super::driver::run(&core, &callbacks, &mut job).await;
            let out = super::driver::with_cause(finish(job, &core), thrown);
            if let Some(store) = &store {
                store.schedule();
            }
            out
        })
    }

    /// Queues a background write of what just changed.
    pub(super) fn changed(&self) {
        if let Some(store) = &self.store {
            store.schedule();
        }
    }

    /// Every synchronous change goes through here: refused on a read-only session before
    /// anything changes, then a background write of what `change` did.
    pub(super) fn change<T>(
        &self,
        change: impl FnOnce(&mut Core) -> crate::error::Result<T>,
    ) -> Result<T, JsValue> {
        self.writable()?;
        let out = change(&mut self.core.borrow_mut());
        self.changed();
        out.js()
    }

    fn apply(&mut self, parsed: ParsedOptions) {
        self.hooks.apply(&self.core, &parsed.recall, &parsed.parsed);
        if let Some(r) = parsed.redact {
            self.core.borrow_mut().set_redactor(r);
            self.changed();
        }
    }
}

#[wasm_bindgen]
impl Memory {
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "MemoryOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<Memory, JsValue> {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let parsed = memory_options::parse(&options, &MemoryConfig::default())?;
        Ok(Memory::from_parts(parsed.core()?, parsed))
    }

    pub fn configure(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "MemoryOptions")] options: JsValue,
    ) -> Result<(), JsValue> {
        let base = self.core.borrow().config().clone();
        let parsed = memory_options::parse(&options, &base)?;
        {
            let mut core = self.core.borrow_mut();
            core.reconfigure(parsed.config.clone()).js()?;
            if let Some(c) = parsed.counter.clone() {
                core.set_counter(c);
            }
        }
        self.apply(parsed);
        Ok(())
    }

    pub fn add(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Role")] role: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] content: JsValue,
        #[wasm_bindgen(unchecked_param_type = "AddExtra | undefined")] extra: Option<JsValue>,
    ) -> Result<String, JsValue> {
        let role = Role::parse(&role.as_string().unwrap_or_default()).js()?;
        let text =
            match content.as_string() {
                Some(s) => Some(s),
                None if content.is_null() || content.is_undefined() => None,
                None => return Err(js_error(
                    ErrorCode::InvalidEntry,
                    "content must be a string (or null for an assistant message with toolCalls)",
                )),
            };
        let extra = parse_extra(&extra.unwrap_or(JsValue::UNDEFINED))?;
        let content = content_or_calls(role, text, &extra).js()?;
        self.change(|core| core.add(role, &content, extra, now()))
    }

    #[wasm_bindgen(js_name = addMessage)]
    pub fn add_message(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChatMessage")] message: JsValue,
    ) -> Result<String, JsValue> {
        let (role, content, extra) = parse_message(&message)?;
        self.change(|core| core.add(role, &content, extra, now()))
    }

    #[wasm_bindgen(unchecked_return_type = "Promise<ContextResult>")]
    pub fn context(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ContextOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<js_sys::Promise, JsValue> {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let js = JsOptions::read(&options, "context options")?;
        let ask = ContextOptions::parse(&js.tree).js()?.into();
        let job = ContextJob::new(&self.job_hooks(), ask);
        Ok(self.run_job(job, |job, core| {
            to_js(&job.finish(&mut core.borrow_mut()).js()?)
        }))
    }

    #[wasm_bindgen(unchecked_return_type = "Entry[]")]
    pub fn entries(&self) -> Result<JsValue, JsValue> {
        let core = self.core.borrow();
        let arr = js_sys::Array::new();
        for (e, t) in core.entries().iter().zip(core.entry_tokens()) {
            let v = to_js(e)?;
            js_sys::Reflect::set(&v, &"tokens".into(), &(*t as f64).into())?;
            arr.push(&v);
        }
        Ok(arr.into())
    }

    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.core.borrow().entries().len()
    }

    pub fn pin(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<String, JsValue> {
        let text = string_arg(&text, "text")?;
        self.change(|core| core.pin(&text))
    }

    pub fn unpin(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<(), JsValue> {
        let id = string_arg(&id, "id")?;
        self.change(|core| core.unpin(&id))
    }

    #[wasm_bindgen(unchecked_return_type = "PinnedFact[]")]
    pub fn pinned(&self) -> Result<JsValue, JsValue> {
        to_js(self.core.borrow().pinned())
    }

    #[wasm_bindgen(unchecked_return_type = "Summary[]")]
    pub fn summaries(&self) -> Result<JsValue, JsValue> {
        to_js(self.core.borrow().summaries())
    }

    #[wasm_bindgen(js_name = addStep)]
    pub fn add_step(
        &self,
        #[wasm_bindgen(unchecked_param_type = "StepInput")] step: JsValue,
    ) -> Result<String, JsValue> {
        let step = parse_step(&step)?;
        self.change(|core| Ok(core.add_step(step, now())))
    }

    #[wasm_bindgen(unchecked_return_type = "StepRecord[]")]
    pub fn steps(&self) -> Result<JsValue, JsValue> {
        to_js(self.core.borrow().steps())
    }

    #[wasm_bindgen(js_name = stepMessages, unchecked_return_type = "ChatMessage[]")]
    pub fn step_messages(
        &self,
        #[wasm_bindgen(unchecked_param_type = "StepView | undefined")] view: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let view = match view {
            None => StepView::Full,
            Some(v) => StepView::parse(&string_arg(&v, "view")?).js()?,
        };
        to_js(&self.core.borrow().step_messages(view))
    }
}
