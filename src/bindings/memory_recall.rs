//! The recall half of the JS `Memory` class (a second `#[wasm_bindgen] impl` block): long-term
//! facts (`remember`, `recall`, `update`, `facts`, `history`), the `extract` hook, episodes,
//! the memory tools, and the async parts of strategy "retrieval" (embedding the query and new
//! items with the app's `embed`). No `RefCell` borrow of the core is held while JS runs.

use super::callbacks::{error_text, Callback, DEFAULT_CALLBACK_TIMEOUT_MS};
use super::errors::invalid_option;
use super::memory::Memory;
use super::options::{describe, string_arg, Opts};
use super::to_js;
use crate::context::{BuiltContext, Strategy};
use crate::memory::{ContextExtras, ExtractOp, Memory as Core};
use crate::recall::facts::{FactStatus, NewFact};
use crate::recall::{ItemKind, RecallQuery};
use js_sys::{Array, Function, Promise};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Texts sent to `embed` per call.
const EMBED_BATCH: usize = 128;

/// The recall options of `MemoryOptions`, parsed; `None` leaves a value as it is.
#[derive(Default)]
pub struct RecallOptions {
    extract: Option<Function>,
    embed: Option<Function>,
    summarize: Option<Function>,
    tools: Option<bool>,
    callback_timeout_ms: Option<f64>,
    recent_share: Option<f32>,
    max_items: Option<usize>,
    half_life_days: Option<f64>,
    recency_weight: Option<f32>,
    importance_weight: Option<f32>,
    quantize: Option<bool>,
}

/// The app's callbacks for recall, kept on the JS side.
#[derive(Clone)]
pub struct RecallHooks {
    pub(super) extract: Option<Function>,
    pub(super) embed: Option<Function>,
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
            embed: None,
            summarize: None,
            tools: false,
            timeout_ms: DEFAULT_CALLBACK_TIMEOUT_MS,
        }
    }
}

fn unit(o: &Opts, key: &str) -> Result<Option<f32>, JsValue> {
    Ok(unit_f64(o, key)?.map(|x| x as f32))
}

/// As `unit`, kept as given: a fact's importance comes back exactly as it was set (0.9, not
/// 0.8999999761581421).
fn unit_f64(o: &Opts, key: &str) -> Result<Option<f64>, JsValue> {
    match o.number(key)? {
        Some(x) if !(0.0..=1.0).contains(&x) => Err(invalid_option(format!(
            "{key} must be between 0 and 1, got {x}"
        ))),
        x => Ok(x),
    }
}

/// Reads `extract`, `embed`, `tools` and `retrieval: { ... }` from the Memory options.
pub fn parse_options(o: &Opts) -> Result<RecallOptions, JsValue> {
    let r = o.object("retrieval")?;
    r.check_keys(&[
        "recentShare",
        "maxItems",
        "halfLifeDays",
        "recencyWeight",
        "importanceWeight",
        "quantize",
    ])?;
    let half_life_days = r.number("halfLifeDays")?;
    if half_life_days.is_some_and(|d| d <= 0.0) {
        return Err(invalid_option(
            "retrieval.halfLifeDays must be a positive number of days",
        ));
    }
    let callback_timeout_ms = o.number("callbackTimeoutMs")?;
    if callback_timeout_ms.is_some_and(|t| t <= 0.0) {
        return Err(invalid_option(
            "callbackTimeoutMs must be a positive number of milliseconds",
        ));
    }
    let max_items = r.uint("maxItems")?;
    if max_items == Some(0) {
        return Err(invalid_option("retrieval.maxItems must be at least 1"));
    }
    Ok(RecallOptions {
        extract: o.function("extract")?,
        embed: o.function("embed")?,
        summarize: o.function("summarize")?,
        tools: o.boolean("tools")?,
        callback_timeout_ms,
        recent_share: unit(&r, "recentShare")?,
        max_items,
        half_life_days,
        recency_weight: unit(&r, "recencyWeight")?,
        importance_weight: unit(&r, "importanceWeight")?,
        quantize: r.boolean("quantize")?,
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

    pub(super) fn embed_cb(&self) -> Option<Callback> {
        self.callback(&self.embed)
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
        if let Some(t) = o.tools {
            self.tools = t;
        }
        if let Some(t) = o.callback_timeout_ms {
            self.timeout_ms = t;
        }
        let mut core = core.borrow_mut();
        if o.embed.is_some() {
            self.embed = o.embed.clone();
            let quantize = o.quantize.unwrap_or(core.recall_state().config.quantize);
            core.enable_vectors(quantize);
        } else if let Some(q) = o.quantize {
            if core.recall_state().vectors_enabled() {
                core.enable_vectors(q);
            }
        }
        let c = core.recall_config_mut();
        if let Some(x) = o.recent_share {
            c.recent_share = x;
        }
        if let Some(x) = o.max_items {
            c.max_items = x;
        }
        if let Some(x) = o.half_life_days {
            c.weights.half_life_days = x;
        }
        if let Some(x) = o.recency_weight {
            c.weights.recency = x;
        }
        if let Some(x) = o.importance_weight {
            c.weights.importance = x;
        }
    }
}

pub(super) fn now() -> f64 {
    js_sys::Date::now()
}

/// `embed(texts)` → one vector per text, as `number[][]` or `Float32Array[]`.
async fn embed(f: &Callback, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
    let arr: Array = texts.iter().map(|t| JsValue::from_str(t)).collect();
    let out = f.call(&[arr.into()], "embed").await?;
    if !super::js::is_array(&out) {
        return Err(format!(
            "embed must resolve to an array of vectors, got {}",
            describe(&out)
        ));
    }
    let out = super::js::items(&out, "embed's answer")?;
    if out.length() as usize != texts.len() {
        return Err(format!(
            "embed returned {} vectors for {} texts",
            out.length(),
            texts.len()
        ));
    }
    out.iter()
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

/// Embeds every item still waiting for a vector, in batches.
async fn embed_pending(core: &Rc<RefCell<Core>>, f: &Callback) -> Result<(), String> {
    loop {
        let batch = {
            let c = core.borrow();
            c.recall_state()
                .pending_embeddings(c.entries(), EMBED_BATCH)
        };
        if batch.is_empty() {
            return Ok(());
        }
        let texts: Vec<String> = batch.iter().map(|b| b.1.clone()).collect();
        // `embed` often calls an embedding API: it gets the texts as they may leave.
        let sent: Vec<String> = {
            let c = core.borrow();
            texts.iter().map(|t| c.outgoing_text(t)).collect()
        };
        let vectors = embed(f, &sent).await?;
        let items: Vec<u32> = batch.iter().map(|b| b.0).collect();
        core.borrow_mut().set_embeddings(&items, &texts, &vectors)?;
    }
}

/// Brings the index up to date, then embeds `text` when the app gave `embed`: what every
/// search needs first. Returns the vector (if any) and notes on embedding failures.
pub(super) async fn search_vector(
    core: &Rc<RefCell<Core>>,
    embed_fn: Option<&Callback>,
    text: &str,
) -> (Option<Vec<f32>>, Vec<String>) {
    core.borrow_mut().sync_recall();
    let mut notes = Vec::new();
    let vector = match embed_fn {
        Some(f) => query_vector(core, f, text, &mut notes).await,
        None => None,
    };
    (vector, notes)
}

/// The query's vector, after the pending items are embedded; errors become notes.
pub(super) async fn query_vector(
    core: &Rc<RefCell<Core>>,
    f: &Callback,
    text: &str,
    notes: &mut Vec<String>,
) -> Option<Vec<f32>> {
    if let Err(e) = embed_pending(core, f).await {
        notes.push(format!(
            "embed failed ({e}); memories were ranked by words only"
        ));
        return None;
    }
    if text.trim().is_empty() {
        return None;
    }
    let sent = core.borrow().outgoing_text(text);
    match embed(f, &[sent]).await {
        Ok(mut v) => v.pop(),
        Err(e) => {
            notes.push(format!(
                "embed failed ({e}); memories were ranked by words only"
            ));
            None
        }
    }
}

/// Runs the `extract` hook over the turns it has not seen; returns (operations applied, notes).
async fn run_extract(core: &Rc<RefCell<Core>>, f: &Callback) -> (usize, Vec<String>) {
    let turns = core.borrow().extraction_turns();
    let Some(last) = turns.last().map(|e| e.id.clone()) else {
        return (0, Vec::new());
    };
    let arg = match to_js(&turns) {
        Ok(v) => v,
        Err(e) => return (0, vec![format!("extract was not run: {}", error_text(&e))]),
    };
    let answer = match f.call(&[arg], "extract").await {
        Ok(v) => v,
        // The turns stay unextracted, so the next exchange retries them.
        Err(e) => {
            return (
                0,
                vec![format!(
                    "extract failed ({e}); it runs again after the next exchange"
                )],
            )
        }
    };
    let ops: Vec<ExtractOp> = if answer.is_undefined() || answer.is_null() {
        Vec::new()
    } else {
        match super::options::json_data(&answer) {
            Ok(ops) => ops,
            Err(e) => {
                let note = format!(
                    "extract must resolve to [{{ op, text, id? }}] ({e}); nothing was stored"
                );
                core.borrow_mut().apply_extraction(&[], Some(&last), now());
                return (0, vec![note]);
            }
        }
    };
    let notes = core.borrow_mut().apply_extraction(&ops, Some(&last), now());
    (ops.len() - notes.len().min(ops.len()), notes)
}

/// The async part of `context()`: extraction, embeddings, then the build itself.
pub async fn build_context(
    core: &Rc<RefCell<Core>>,
    hooks: &RecallHooks,
    query: Option<&str>,
    tools: Option<bool>,
) -> Result<BuiltContext, JsValue> {
    let mut notes = Vec::new();
    if let Some(f) = hooks.extract_cb() {
        notes.extend(run_extract(core, &f).await.1);
    }
    core.borrow_mut().sync_recall();
    let retrieval = core.borrow().config().strategy == Strategy::Retrieval;
    let mut extras = ContextExtras {
        query_vector: None,
        tools: tools.unwrap_or(hooks.tools),
    };
    if let (true, Some(f)) = (retrieval, hooks.embed_cb()) {
        let text = match query {
            Some(q) => q.to_string(),
            None => core.borrow().latest_user_text().unwrap_or_default(),
        };
        extras.query_vector = query_vector(core, &f, &text, &mut notes).await;
    }
    let mut built = core.borrow().context_with(query, &extras)?;
    built.report.notes.extend(notes);
    Ok(built)
}

/// `forget(id)`: a fact or episode id forgets that memory, anything else an entry.
pub fn forget_any(core: &RefCell<Core>, id: &str) -> Result<(), JsValue> {
    let mut c = core.borrow_mut();
    if c.is_memory_id(id) {
        Ok(c.forget_memory(id, now())?)
    } else {
        Ok(c.forget(id)?)
    }
}

#[wasm_bindgen]
impl Memory {
    /// Stores a long-term fact and returns its id (`"f1"`, ...). A fact on the same subject as
    /// an older one ("my favorite color is green" after "... is blue") supersedes it: the old
    /// one stays in `history(id)` but is no longer recalled. The same words twice return the
    /// existing id.
    ///
    /// @example
    /// ```js
    /// const id = mem.remember("The user is allergic to peanuts", { category: "health", importance: 0.9 });
    /// const hits = await mem.recall("what allergies?", { k: 3 });
    /// ```
    pub fn remember(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RememberOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<String, JsValue> {
        let text = string_arg(&text, "text")?;
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let o = Opts::new(&options, "remember options")?;
        o.check_keys(&["category", "importance", "subject"])?;
        let opts = NewFact {
            category: o.string("category")?,
            importance: unit_f64(&o, "importance")?,
            subject: o.string("subject")?,
        };
        self.writable()?;
        let r = self.core.borrow_mut().remember(&text, opts, now())?;
        self.changed();
        Ok(r.id)
    }

    /// Searches past turns, current facts and episodes: BM25, plus cosine when `embed` is set,
    /// fused by rank with recency and importance. Best first.
    #[wasm_bindgen(unchecked_return_type = "Promise<RecallHit[]>")]
    pub fn recall(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RecallOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<Promise, JsValue> {
        let query = string_arg(&query, "query")?;
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let o = Opts::new(&options, "recall options")?;
        o.check_keys(&["k", "kinds", "category"])?;
        let k = o.uint("k")?.unwrap_or(5);
        let category = o.string("category")?;
        let kinds = parse_kinds(o.get("kinds"))?;
        let core = self.core.clone();
        let embed_fn = self.hooks.embed_cb();
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            // A failed embed falls back to words; results have no place for its note.
            let (vector, _notes) = search_vector(&core, embed_fn.as_ref(), &query).await;
            let q = RecallQuery {
                text: &query,
                vector: vector.as_deref(),
                k,
                kinds,
                category: category.as_deref(),
            };
            let hits = core.borrow().recall(&q, now());
            to_js(&hits)
        }))
    }

    /// Rewrites a fact (its old text stays in `history(id)`).
    pub fn update(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<(), JsValue> {
        let id = string_arg(&id, "id")?;
        let text = string_arg(&text, "text")?;
        self.writable()?;
        self.core.borrow_mut().update_fact(&id, &text, now())?;
        self.changed();
        Ok(())
    }

    /// The current facts, oldest first; `{ all: true }` adds superseded and deleted ones.
    #[wasm_bindgen(unchecked_return_type = "Fact[]")]
    pub fn facts(
        &self,
        #[wasm_bindgen(unchecked_param_type = "FactsOptions | undefined")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let o = Opts::new(&options, "facts options")?;
        o.check_keys(&["all"])?;
        let all = o.boolean("all")?.unwrap_or(false);
        self.core.borrow_mut().sync_recall();
        let core = self.core.borrow();
        let facts: Vec<_> = core
            .facts()
            .iter()
            .filter(|f| all || f.status == FactStatus::Active)
            .collect();
        to_js(&facts)
    }

    /// A fact's change trail: added, updated, superseded (with `by`), deleted.
    #[wasm_bindgen(unchecked_return_type = "FactChange[]")]
    pub fn history(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<JsValue, JsValue> {
        let id = string_arg(&id, "id")?;
        self.core.borrow_mut().sync_recall();
        let trail = self.core.borrow().fact_history(&id)?;
        to_js(&trail)
    }

    /// Runs the `extract` option's hook over the turns it has not seen yet and applies its
    /// operations. `context()` does this by itself after each assistant reply.
    #[wasm_bindgen(js_name = extractFacts, unchecked_return_type = "Promise<{ applied: number; notes: string[] }>")]
    pub fn extract_facts(&self) -> Result<Promise, JsValue> {
        let Some(f) = self.hooks.extract_cb() else {
            return Err(invalid_option(
                "extractFacts needs the extract option: extract: async (turns) => [{ op, text, id? }]",
            ));
        };
        self.writable()?;
        let core = self.core.clone();
        let store = self.store.clone();
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            let (applied, notes) = run_extract(&core, &f).await;
            if let Some(s) = &store {
                s.schedule();
            }
            let out = js_sys::Object::new();
            js_sys::Reflect::set(&out, &"applied".into(), &(applied as f64).into())?;
            js_sys::Reflect::set(&out, &"notes".into(), &to_js(&notes)?)?;
            Ok(out.into())
        }))
    }
}

pub(super) fn parse_kinds(v: Option<JsValue>) -> Result<Vec<ItemKind>, JsValue> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    if !super::js::is_array(&v) {
        return Err(invalid_option(
            "kinds must be an array of \"turn\", \"fact\", \"episode\"",
        ));
    }
    super::js::items(&v, "kinds")
        .map_err(invalid_option)?
        .iter()
        .map(|k| {
            k.as_string()
                .as_deref()
                .and_then(ItemKind::parse)
                .ok_or_else(|| {
                    invalid_option(format!(
                        "kinds must hold \"turn\", \"fact\" or \"episode\", got {}",
                        describe(&k)
                    ))
                })
        })
        .collect()
}
