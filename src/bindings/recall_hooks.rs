//! The app's recall hooks as `Memory` keeps them: the recall options (`extract`, `llm`,
//! `embed` or `embedder`, `summarize`, `tools`, `retrieval`). `driver` runs the calls.

use super::build_parts::InPageEmbedder as EmbedModel;
use super::driver::Callbacks;
use super::option_tree::JsOptions;
use crate::driver::Hooks;
use crate::memory::Memory as Core;
use crate::options::memory::MemoryOptions;
use crate::options::Handle;
use js_sys::Function;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The hooks of `MemoryOptions`: the core's `HookOptions`, its handles resolved to functions.
pub struct HookFunctions {
    extract: Option<Function>,
    llm: Option<Function>,
    embed: Option<Function>,
    embedder: Option<Rc<EmbedModel>>,
    summarize: Option<Function>,
    parsed: crate::options::memory::HookOptions,
}

/// The app's callbacks for recall, kept on the JS side.
#[derive(Clone, Default)]
pub struct RecallHooks {
    pub(super) extract: Option<Function>,
    /// The app's `llm(messages, info)`: summaries, facts and episodes when their own hooks
    /// are not given.
    pub(super) llm: Option<Function>,
    pub(super) embed: Option<Function>,
    /// The in-page model that embeds instead of `embed` (`embedder`).
    pub(super) embedder: Option<Rc<EmbedModel>>,
    pub(super) summarize: Option<Function>,
    /// Which hooks there are and their settings, as the core lays options over them.
    settings: Hooks,
}

/// Finds the callbacks and the `EmbedModel` the core read from the Memory options.
pub fn parse_options(
    js: &JsOptions,
    summarize: Option<Handle>,
    r: crate::options::memory::HookOptions,
) -> Result<HookFunctions, JsValue> {
    Ok(HookFunctions {
        extract: js.function(r.extract),
        llm: js.function(r.llm),
        embed: js.function(r.embed),
        embedder: match r.embedder {
            Some(h) => Some(super::build_parts::embedder_of(js.value(h))?),
            None => None,
        },
        summarize: js.function(summarize),
        parsed: r,
    })
}

impl RecallHooks {
    /// What the core's jobs are told: which hooks exist and how long each may take.
    pub fn job_hooks(&self, read_only: bool) -> Hooks {
        Hooks {
            read_only,
            ..self.settings
        }
    }

    /// The functions the jobs' calls go to (kept while a job runs: options may change).
    pub fn callbacks(&self) -> Callbacks {
        Callbacks {
            summarize: self.summarize.clone(),
            extract: self.extract.clone(),
            llm: self.llm.clone(),
            embed: self.embed.clone(),
            embedder: self.embedder.clone(),
        }
    }

    /// Keeps the functions given; the core decides what they change (`MemoryOptions::lay_hooks_over`).
    pub fn apply(&mut self, core: &RefCell<Core>, o: &HookFunctions, parsed: &MemoryOptions) {
        parsed.lay_hooks_over(&mut self.settings);
        if o.extract.is_some() {
            self.extract = o.extract.clone();
        }
        if o.summarize.is_some() {
            self.summarize = o.summarize.clone();
        }
        if o.llm.is_some() {
            self.llm = o.llm.clone();
        }
        if o.parsed.gives_embedding() {
            // Both: the one given (a callback replaces a model and the other way round).
            self.embed = o.embed.clone();
            self.embedder = o.embedder.clone();
        }
        o.parsed.apply_to(&mut core.borrow_mut());
    }
}
