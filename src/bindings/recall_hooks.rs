//! The app's recall hooks as `Memory` keeps them: the recall options (`extract`, `embed` or
//! `embedder`, `tools`, `retrieval`), and the JS calls of `extract` and `embed` (or the
//! in-page `EmbedModel`'s work). What to ask and what an
//! answer or a failure means is the core's (`memory::extraction`, `memory::embedding`); this
//! file only makes the calls. No `RefCell` borrow of the core is held while JS runs.

use super::build_parts::InPageEmbedder as EmbedModel;
use super::callbacks::{error_text, Callback, DEFAULT_CALLBACK_TIMEOUT_MS};
use super::option_tree::JsOptions;
use super::options::{describe, json_string};
use super::to_js;
use crate::bindings::errors::OrThrow;
use crate::context::BuiltContext;
use crate::memory::{
    ContextExtras, EmbedRound, ExtractAnswer, ExtractOutcome, Memory as Core,
    IN_PAGE_ITEMS_PER_SEARCH,
};
use crate::options::Handle;
use js_sys::{Array, Function};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The recall options of `MemoryOptions`: the core's parse, its handles resolved.
pub struct RecallOptions {
    extract: Option<Function>,
    llm: Option<Function>,
    embed: Option<Function>,
    embedder: Option<Rc<EmbedModel>>,
    summarize: Option<Function>,
    parsed: crate::options::memory::RecallOptions,
}

/// The app's callbacks for recall, kept on the JS side.
#[derive(Clone)]
pub struct RecallHooks {
    pub(super) extract: Option<Function>,
    /// The app's `llm(messages, info)`: summaries, facts and episodes when their own hooks
    /// are not given.
    pub(super) llm: Option<Function>,
    pub(super) embed: Option<Function>,
    /// The in-page model that embeds instead of `embed` (`embedder`).
    pub(super) embedder: Option<Rc<EmbedModel>>,
    pub(super) summarize: Option<Function>,
    /// Count the memory tools' schemas in every context.
    tools: bool,
    /// How long `extract`, `embed` and an episode's `summarize` may take per call.
    pub(super) timeout_ms: f64,
}

impl Default for RecallHooks {
    fn default() -> Self {
        RecallHooks {
            extract: None,
            llm: None,
            embed: None,
            embedder: None,
            summarize: None,
            tools: false,
            timeout_ms: DEFAULT_CALLBACK_TIMEOUT_MS,
        }
    }
}

/// Finds the callbacks and the `EmbedModel` the core read from the Memory options.
pub fn parse_options(
    js: &JsOptions,
    summarize: Option<Handle>,
    r: crate::options::memory::RecallOptions,
) -> Result<RecallOptions, JsValue> {
    Ok(RecallOptions {
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
    fn callback(&self, f: &Option<Function>) -> Option<Callback> {
        f.clone().map(|f| Callback {
            f,
            timeout_ms: self.timeout_ms,
        })
    }

    pub(super) fn extract_cb(&self) -> Option<Callback> {
        self.callback(&self.extract)
    }

    pub(super) fn llm_cb(&self) -> Option<Callback> {
        self.callback(&self.llm)
    }

    /// What embeds texts: the in-page model, else the app's `embed` callback, else nothing.
    pub(super) fn embed_cb(&self) -> Option<EmbedSource> {
        match &self.embedder {
            Some(model) => Some(EmbedSource::Model(model.clone())),
            None => self.callback(&self.embed).map(EmbedSource::Callback),
        }
    }

    pub(super) fn summarize_cb(&self) -> Option<Callback> {
        self.callback(&self.summarize)
    }

    pub fn apply(&mut self, core: &RefCell<Core>, o: &RecallOptions) {
        if o.extract.is_some() {
            self.extract = o.extract.clone();
        }
        if o.summarize.is_some() {
            self.summarize = o.summarize.clone();
        }
        if o.llm.is_some() {
            self.llm = o.llm.clone();
        }
        if let Some(t) = o.parsed.tools {
            self.tools = t;
        }
        if let Some(t) = o.parsed.callback_timeout_ms {
            self.timeout_ms = t;
        }
        if o.parsed.gives_embedding() {
            // The one given last embeds: a callback replaces a model and the other way round.
            self.embed = o.embed.clone();
            self.embedder = o.embedder.clone();
        }
        o.parsed.apply_to(&mut core.borrow_mut());
    }
}

pub(super) fn now() -> f64 {
    js_sys::Date::now()
}

/// `embed(texts)` → one vector per text, as `number[][]` or `Float32Array[]` (the core checks
/// there is one per text).
async fn embed(f: &Callback, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
    let arr: Array = texts.iter().map(|t| JsValue::from_str(t)).collect();
    let out = f.call(&[arr.into()], "embed").await?;
    if !super::js::is_array(&out) {
        return Err(format!(
            "embed must resolve to an array of vectors, got {}",
            describe(&out)
        ));
    }
    super::js::items(&out, "embed's answer")?
        .iter()
        .map(|v| {
            if !v.is_object() {
                return Err(format!(
                    "each embedding must be an array of numbers, got {}",
                    describe(&v)
                ));
            }
            super::js::f32s(&v, "an embedding")
        })
        .collect()
}

/// Where vectors come from: the app's `embed` callback or an `EmbedModel` in this page.
pub(super) enum EmbedSource {
    Callback(Callback),
    Model(Rc<EmbedModel>),
}

impl EmbedSource {
    /// Waiting items a search embeds before it runs: the in-page model blocks this thread
    /// while it works, so only a few; a callback is awaited, so all of them.
    fn items_per_search(&self) -> Option<usize> {
        match self {
            EmbedSource::Model(_) => Some(IN_PAGE_ITEMS_PER_SEARCH),
            EmbedSource::Callback(_) => None,
        }
    }
}

/// Embeds up to `limit` waiting items (`embedPending`); resolves to how many still wait, and
/// the notes of a failure.
pub(super) async fn embed_pending(
    core: &Rc<RefCell<Core>>,
    source: &EmbedSource,
    limit: usize,
) -> (usize, Vec<String>) {
    let round = core.borrow_mut().embed_backlog(limit);
    let (_, notes) = run_embedding(core, source, round).await;
    let left = core.borrow_mut().pending_embeddings();
    (left, notes)
}

/// Makes the calls an embedding round asks for; returns the query's vector (if any) and notes
/// on failures.
pub(super) async fn run_embedding(
    core: &Rc<RefCell<Core>>,
    source: &EmbedSource,
    mut round: EmbedRound,
) -> (Option<Vec<f32>>, Vec<String>) {
    loop {
        let Some(request) = core.borrow().next_embedding(&mut round) else {
            return round.finish();
        };
        let answer = match source {
            EmbedSource::Callback(f) => embed(f, &request.texts).await,
            EmbedSource::Model(model) => {
                let texts: Vec<&str> = request.texts.iter().map(String::as_str).collect();
                Ok(model.embed(&texts))
            }
        };
        core.borrow_mut()
            .answer_embedding(&mut round, request, answer);
    }
}

/// The vector of a search for `text` when the app gave `embed` (the index is brought up to
/// date either way), and notes on embedding failures.
pub(super) async fn search_vector(
    core: &Rc<RefCell<Core>>,
    embed_fn: Option<&EmbedSource>,
    text: &str,
) -> (Option<Vec<f32>>, Vec<String>) {
    let round = core.borrow_mut().begin_embedding(text);
    match embed_fn {
        Some(f) => run_embedding(core, f, round.limit_items(f.items_per_search())).await,
        None => (None, Vec::new()),
    }
}

/// Calls the `extract` hook with the turns the core asks about and hands back its answer.
pub(super) async fn run_extract(core: &Rc<RefCell<Core>>, f: &Callback) -> ExtractOutcome {
    let Some(request) = core.borrow().begin_extraction() else {
        return ExtractOutcome::default();
    };
    let arg = match to_js(&request.turns) {
        Ok(v) => v,
        Err(e) => {
            return ExtractOutcome {
                applied: 0,
                notes: vec![format!("extract was not run: {}", error_text(&e))],
            }
        }
    };
    let answer = f.call(&[arg], "extract").await;
    let json = answer
        .as_ref()
        .map(|v| match v.is_undefined() || v.is_null() {
            true => Ok("null".to_string()),
            false => json_string(v),
        });
    let answer = match &json {
        Err(call_failed) => ExtractAnswer::Failed(call_failed),
        Ok(Ok(text)) => ExtractAnswer::Json(text),
        Ok(Err(unreadable)) => ExtractAnswer::Unreadable(unreadable),
    };
    core.borrow_mut().finish_extraction(&request, answer, now())
}

/// The async part of `context()`: extraction, embeddings, then the build itself.
pub async fn build_context(
    core: &Rc<RefCell<Core>>,
    hooks: &RecallHooks,
    query: Option<&str>,
    tools: Option<bool>,
    detail: crate::context::Detail,
) -> Result<BuiltContext, JsValue> {
    let mut notes = Vec::new();
    if let Some(f) = hooks.extract_cb() {
        notes.extend(run_extract(core, &f).await.notes);
    } else if let Some(llm) = hooks.llm_cb() {
        notes.extend(super::llm::run_llm_extract(core, &llm).await.notes);
    }
    core.borrow_mut().sync_recall();
    let mut extras = ContextExtras {
        query_vector: None,
        tools: tools.unwrap_or(hooks.tools),
        detail,
    };
    if let Some(f) = hooks.embed_cb() {
        let round = core.borrow_mut().context_embedding(query);
        if let Some(round) = round {
            let round = round.limit_items(f.items_per_search());
            let (vector, failures) = run_embedding(core, &f, round).await;
            extras.query_vector = vector;
            notes.extend(failures);
        }
    }
    let mut built = core.borrow().context_with(query, &extras).js()?;
    built.report.notes.extend(notes);
    Ok(built)
}
