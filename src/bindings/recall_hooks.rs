//! The app's recall hooks as `Memory` keeps them: the recall options (`extract`, `llm`,
//! `embed` or `embedder`, `summarize`, `tools`, `retrieval`). `driver` runs the calls.

use super::build_parts::InPageEmbedder as EmbedModel;
use super::driver::Callbacks;
use super::errors::invalid_option;
use super::options::{describe, Opts};
use crate::driver::{Embedder, Hooks, DEFAULT_CALLBACK_TIMEOUT_MS};
use crate::memory::Memory as Core;
use crate::recall::ItemKind;
use js_sys::Function;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The recall options of `MemoryOptions`, parsed; `None` leaves a value as it is.
#[derive(Default)]
pub struct RecallOptions {
    extract: Option<Function>,
    llm: Option<Function>,
    embed: Option<Function>,
    embedder: Option<Rc<EmbedModel>>,
    summarize: Option<Function>,
    tools: Option<bool>,
    callback_timeout_ms: Option<f64>,
    recent_share: Option<f32>,
    max_items: Option<usize>,
    half_life_days: Option<f64>,
    recency_weight: Option<f32>,
    importance_weight: Option<f32>,
    lexical_weight: Option<f32>,
    quantize: Option<bool>,
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
    pub(super) tools: bool,
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

fn unit(o: &Opts, key: &str) -> Result<Option<f32>, JsValue> {
    Ok(unit_f64(o, key)?.map(|x| x as f32))
}

/// As `unit`, kept as given: a fact's importance comes back exactly as it was set (0.9, not
/// 0.8999999761581421).
pub(super) fn unit_f64(o: &Opts, key: &str) -> Result<Option<f64>, JsValue> {
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
        "lexicalWeight",
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
    let embed = o.function("embed")?;
    let embedder = match o.get("embedder") {
        Some(v) => Some(super::build_parts::embedder_of(&v)?),
        None => None,
    };
    if embed.is_some() && embedder.is_some() {
        return Err(invalid_option(
            "give either embed (a callback) or embedder (an EmbedModel), not both",
        ));
    }
    Ok(RecallOptions {
        extract: o.function("extract")?,
        llm: o.function("llm")?,
        embed,
        embedder,
        summarize: o.function("summarize")?,
        tools: o.boolean("tools")?,
        callback_timeout_ms,
        recent_share: unit(&r, "recentShare")?,
        max_items,
        half_life_days,
        recency_weight: unit(&r, "recencyWeight")?,
        importance_weight: unit(&r, "importanceWeight")?,
        lexical_weight: unit(&r, "lexicalWeight")?,
        quantize: r.boolean("quantize")?,
    })
}

impl RecallHooks {
    /// What the core's jobs are told: which hooks exist and how long each may take.
    pub fn job_hooks(&self, summary_timeout_ms: f64, read_only: bool) -> Hooks {
        Hooks {
            summarize: self.summarize.is_some(),
            extract: self.extract.is_some(),
            llm: self.llm.is_some(),
            embed: match (&self.embedder, &self.embed) {
                (Some(_), _) => Some(Embedder::InPage),
                (None, Some(_)) => Some(Embedder::Callback),
                (None, None) => None,
            },
            tools: self.tools,
            callback_timeout_ms: self.timeout_ms,
            summary_timeout_ms,
            read_only,
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
        if let Some(t) = o.tools {
            self.tools = t;
        }
        if let Some(t) = o.callback_timeout_ms {
            self.timeout_ms = t;
        }
        let mut core = core.borrow_mut();
        if o.embed.is_some() || o.embedder.is_some() {
            // The one given last embeds: a callback replaces a model and the other way round.
            self.embed = o.embed.clone();
            self.embedder = o.embedder.clone();
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
        if let Some(x) = o.lexical_weight {
            c.weights.lexical = x;
        }
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
