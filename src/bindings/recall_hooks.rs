//! The app's recall hooks as `Memory` keeps them: the recall options (`extract`, `llm`,
//! `embed` or `embedder`, `summarize`, `tools`, `retrieval`). `driver` runs the calls.

use super::driver::Callbacks;
use super::option_tree::JsOptions;
use crate::driver::Hooks;
use crate::memory::Memory as Core;
use crate::options::memory::MemoryOptions;
use crate::options::Handle;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// The hooks of `MemoryOptions`: the core's `HookOptions`, its handles resolved to functions.
pub struct HookFunctions {
    given: Callbacks,
    parsed: crate::options::memory::HookOptions,
}

/// The app's callbacks as a memory keeps them, and what the core's jobs are told of them.
#[derive(Clone, Default)]
pub struct RecallHooks {
    callbacks: Callbacks,
    /// Which hooks there are and their settings, as the core lays options over them.
    settings: Hooks,
}

/// Finds the callbacks and the `EmbedModel` the core read from the Memory options.
pub fn parse_options(
    js: &JsOptions,
    summarize: Option<Handle>,
    r: crate::options::memory::HookOptions,
) -> Result<HookFunctions, JsValue> {
    let given = Callbacks {
        extract: js.function(r.extract),
        llm: js.function(r.llm),
        embed: js.function(r.embed),
        embedder: match r.embedder {
            Some(h) => Some(super::build_parts::embedder_of(js.value(h))?),
            None => None,
        },
        summarize: js.function(summarize),
    };
    Ok(HookFunctions { given, parsed: r })
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
        self.callbacks.clone()
    }

    /// Keeps the functions given (one left out keeps the one before); the core decides what
    /// they change (`MemoryOptions::lay_hooks_over`).
    pub fn apply(&mut self, core: &RefCell<Core>, o: &HookFunctions, parsed: &MemoryOptions) {
        parsed.lay_hooks_over(&mut self.settings);
        let (kept, given) = (&mut self.callbacks, &o.given);
        for (kept, given) in [
            (&mut kept.extract, &given.extract),
            (&mut kept.summarize, &given.summarize),
            (&mut kept.llm, &given.llm),
        ] {
            if given.is_some() {
                kept.clone_from(given);
            }
        }
        if o.parsed.gives_embedding() {
            // Both: the one given (a callback replaces a model and the other way round).
            kept.embed.clone_from(&given.embed);
            kept.embedder.clone_from(&given.embedder);
        }
        o.parsed.apply_to(&mut core.borrow_mut());
    }
}
