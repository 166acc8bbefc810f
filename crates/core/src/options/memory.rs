//! `MemoryOptions`: what `new Memory()`, `configure()`, `Memory.open` and `Memory.import`
//! take. The parse lays the options over a base config (absent keys keep the base's values)
//! and hands back the callbacks and class instances as handles for the face to resolve.

use super::reader::Opts;
use super::value::{Handle, OptValue};
use super::{not_in_build, BuildParts};
use crate::context::Strategy;
use crate::driver::{Embedder, Hooks};
use crate::error::{Error, Result};
use crate::memory::{Memory, MemoryConfig};

js_options! {
    /// When to summarize.
    pub struct SummaryTriggerSpec inline {
        /// Unsummarized messages that trigger a summary.
        messages: "number",
        /// Unsummarized tokens that trigger a summary.
        tokens: "number",
    }
}

js_options! {
    /// What the chat format adds per message.
    pub struct MessageOverheadSpec inline {
        perMessage: "number",
        perName: "number",
        perRequest: "number",
        perToolCall: "number",
    }
}

js_options! {
    /// Upper bounds per section.
    pub struct SectionLimitsSpec inline {
        pinned: "number",
        summary: "number",
    }
}

js_options! {
    /// The knobs of strategy "retrieval".
    pub struct RetrievalSpec inline {
        /// Part of the budget after the mandatory messages that the newest turns get before
        /// memories at least (default 0.1); the previous exchange goes first whenever it fits in
        /// half of it, and the newest turns also get whatever the memories leave. A history that
        /// fits the budget is sent whole.
        recentShare: "number",
        /// 0..1, the relevance below which a memory is not sent to fill the budget (the newest
        /// turns fill it instead); relevance is measured against the query's best find.
        minRelevance: "number",
        /// Most memories per context (default 200; the budget is the usual limit).
        maxItems: "number",
        /// Age at which recency has halved, in days (default 30).
        halfLifeDays: "number",
        /// 0..1, how much recency weighs (default 0.05: it breaks near-ties, it does not bury
        /// the past).
        recencyWeight: "number",
        /// 0..1, how much importance weighs (default 0.5).
        importanceWeight: "number",
        /// 0..1, the words' share of the relevance when an item has both signals; meaning gets
        /// the rest (default 0.7).
        lexicalWeight: "number",
        /// Score vectors in int8 first and re-score the best exactly.
        quantize: "boolean",
    }
}

js_options! {
    pub struct MemoryOptionsSpec as "MemoryOptions" {
        /// Default "full". "tokens" and "summary" need maxTokens.
        strategy: "StrategyName",
        /// The context budget in tokens, reply reserve included.
        maxTokens: "number",
        /// Tokens kept free for the reply (default 0).
        reserveTokens: "number",
        /// Turns kept by strategy "window" (default 20).
        maxTurns: "number",
        systemPrompt: "string",
        /// Default: Tokenizer.approximate().
        tokenizer: "Tokenizer",
        /// One chat-completion call that powers summaries, fact extraction and episodes with the
        /// built-in prompts: receives OpenAI-style messages, resolves to the reply text. Redacted
        /// like everything sent when `redact` is on. `summarize` and `extract` override it.
        llm: "(messages: LlmMessage[], info: LlmCallInfo) => Promise<string> | string",
        /// Writes a summary; receives the prompt, resolves to the summary text.
        summarize: "(prompt: string, info: SummarizeInfo) => Promise<string> | string",
        /// When to summarize (default: unsummarized turns over 3/4 of the budget).
        summaryTrigger: (SummaryTriggerSpec::TS_INLINE),
        /// Messages always sent verbatim after the summary (default 6).
        keepRecent: "number",
        /// Template with {summary} and {turns}.
        summaryPrompt: "string",
        /// How long context() waits for the summarizer before trimming instead (default 20000).
        summaryTimeoutMs: "number",
        /// Tokens the chat format adds (OpenAI defaults: 3 per message, 1 per name, 3 per
        /// request, 3 per tool call).
        messageOverhead: (MessageOverheadSpec::TS_INLINE),
        /// Upper bounds per section in tokens; the rest goes to recent turns.
        sectionLimits: (SectionLimitsSpec::TS_INLINE),
        /// Largest message accepted, in characters (default 1 048 576).
        maxEntryChars: "number",
        /// Drop a message identical to the next one (default true).
        dedup: "boolean",
        /// Redact personal data and secrets from everything sent (turns, tool arguments, system
        /// prompt, pinned facts, memories, the summarizer's prompt): true, or Redactor options.
        /// Restore replies with mem.restore() / mem.streamRestorer().
        redact: "boolean | RedactorInit",
        /// Called after each exchange (by context(), or by extractFacts()) with the turns it has
        /// not seen; resolves to fact operations, e.g. an LLM call that reads the turns.
        extract: "(turns: Entry[]) => Promise<ExtractOp[]> | ExtractOp[]",
        /// Embeds texts for hybrid retrieval (any embedding API or in-browser model).
        embed: "(texts: string[]) => Promise<(number[] | Float32Array)[]> | (number[] | Float32Array)[]",
        /// Embeds texts in this page with our own model (`EmbedModel.fromBytes`): recall by
        /// meaning with nothing sent anywhere. Use it or `embed`, not both.
        embedder: "EmbedModel",
        /// How long `extract`, `embed` and the `summarize` call of recordEpisode() may take, in
        /// ms (default 30 000). Past it, context() goes on without them (a note says so) and
        /// recordEpisode() rejects with CALLBACK_FAILED.
        callbackTimeoutMs: "number",
        /// Count the memory tools' schemas (mem.tools()) against every context's budget.
        tools: "boolean",
        /// Strategy "retrieval" knobs. The defaults were chosen on public long-conversation data
        /// (see BENCHMARKS.md, "Evidence recall").
        retrieval: (RetrievalSpec::TS_INLINE),
    }
}

/// The face's check of a `tokenizer` says the same for a value that is no instance at all.
pub const TOKENIZER_EXPECTED: &str = "tokenizer must be a Tokenizer from Tokenizer.fromJson() or \
                                      Tokenizer.approximate() that has not been freed";
/// As `TOKENIZER_EXPECTED`, for `embedder`.
pub const EMBEDDER_EXPECTED: &str =
    "embedder must be an EmbedModel from EmbedModel.fromBytes() that has not been freed";

/// The Memory options, parsed; `None` leaves a value as it is (for `configure`).
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryOptions {
    /// The base config with the given options laid over it, not yet checked as a whole
    /// (`MemoryConfig::finish` does that when the memory takes it).
    pub config: MemoryConfig,
    /// A `Tokenizer`, for the face to check and count with.
    pub tokenizer: Option<Handle>,
    pub summarize: Option<Handle>,
    pub summary_timeout_ms: Option<f64>,
    pub recall: HookOptions,
    pub redact: Option<Redact>,
}

/// What `redact` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redact {
    Off,
    /// `redact: true`: the default Redactor.
    Default,
    /// `redact: { ... }`: a Redactor with these options (the face reads them).
    With(Handle),
}

/// The hook and retrieval part of `MemoryOptions` (not `recall()`'s options, which are
/// `facts::RecallOptions`): the hooks as handles, and the retrieval knobs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookOptions {
    pub extract: Option<Handle>,
    pub llm: Option<Handle>,
    pub embed: Option<Handle>,
    /// An `EmbedModel`, for the face to check.
    pub embedder: Option<Handle>,
    pub tools: Option<bool>,
    pub callback_timeout_ms: Option<f64>,
    pub recent_share: Option<f32>,
    pub min_relevance: Option<f32>,
    pub max_items: Option<usize>,
    pub half_life_days: Option<f64>,
    pub recency_weight: Option<f32>,
    pub importance_weight: Option<f32>,
    pub lexical_weight: Option<f32>,
    pub quantize: Option<bool>,
}

impl MemoryOptions {
    /// Lays `value` over `base`: absent keys keep the base's values.
    pub fn parse(value: &OptValue, base: &MemoryConfig, parts: BuildParts) -> Result<Self> {
        let o = Opts::new(value, "Memory options")?;
        o.check_keys(MemoryOptionsSpec::KEYS)?;
        Self::read(&o, base, parts)
    }

    /// Reads the Memory options from `o`, whose keys the caller checked (`Memory.open` takes
    /// these and its own).
    pub fn read(o: &Opts, base: &MemoryConfig, parts: BuildParts) -> Result<Self> {
        let config = read_config(o, base)?;
        let tokenizer = o.instance("tokenizer", TOKENIZER_EXPECTED)?;
        let summary_timeout_ms = o.positive(
            "summaryTimeoutMs",
            "summaryTimeoutMs must be a positive number of milliseconds",
        )?;
        Ok(MemoryOptions {
            config,
            tokenizer,
            summarize: o.function("summarize")?,
            summary_timeout_ms,
            recall: HookOptions::read(o, parts)?,
            redact: read_redact(o, parts)?,
        })
    }
}

impl MemoryOptions {
    /// Lays the hooks and settings of these options (the Memory options, or a `configure`
    /// call) over `hooks`: a hook given replaces the one held, an absent key keeps it. Of
    /// `embed` and `embedder`, the one given last embeds, and the model wins when both come
    /// at once.
    pub fn lay_hooks_over(&self, hooks: &mut Hooks) {
        let r = &self.recall;
        hooks.summarize |= self.summarize.is_some();
        hooks.extract |= r.extract.is_some();
        hooks.llm |= r.llm.is_some();
        if r.gives_embedding() {
            hooks.embed = match r.embedder {
                Some(_) => Some(Embedder::InPage),
                None => Some(Embedder::Callback),
            };
        }
        hooks.tools = r.tools.unwrap_or(hooks.tools);
        hooks.callback_timeout_ms = r.callback_timeout_ms.unwrap_or(hooks.callback_timeout_ms);
        hooks.summary_timeout_ms = self.summary_timeout_ms.unwrap_or(hooks.summary_timeout_ms);
    }
}

fn read_config(o: &Opts, base: &MemoryConfig) -> Result<MemoryConfig> {
    let mut c = base.clone();
    if let Some(s) = o.string("strategy")? {
        c.strategy = Strategy::parse(&s)?;
    }
    if o.has("maxTokens") {
        c.limits.max_tokens = o.uint("maxTokens")?;
    }
    if let Some(r) = o.uint("reserveTokens")? {
        c.limits.reserve_tokens = r;
    }
    if o.has("maxTurns") {
        c.limits.max_turns = o.uint("maxTurns")?;
    }
    if let Some(p) = o.string("systemPrompt")? {
        c.system_prompt = (!p.is_empty()).then_some(p);
    }
    let t = o.object("summaryTrigger")?;
    t.check_keys(SummaryTriggerSpec::KEYS)?;
    if !t.is_empty() {
        c.summary.trigger.messages = t.uint("messages")?;
        c.summary.trigger.tokens = t.uint("tokens")?;
        if c.summary.trigger.messages.is_none() && c.summary.trigger.tokens.is_none() {
            return Err(Error::option(
                "summaryTrigger needs messages or tokens (or both)",
            ));
        }
    }
    if let Some(k) = o.uint("keepRecent")? {
        c.summary.keep_recent = k;
    }
    if let Some(p) = o.string("summaryPrompt")? {
        c.summary.prompt = p;
    }
    let ov = o.object("messageOverhead")?;
    ov.check_keys(MessageOverheadSpec::KEYS)?;
    let per = &mut c.overhead;
    for (key, field) in [
        ("perMessage", &mut per.per_message),
        ("perName", &mut per.per_name),
        ("perRequest", &mut per.per_request),
        ("perToolCall", &mut per.per_tool_call),
    ] {
        if let Some(n) = ov.uint(key)? {
            *field = n;
        }
    }
    let sl = o.object("sectionLimits")?;
    sl.check_keys(SectionLimitsSpec::KEYS)?;
    if sl.has("pinned") {
        c.limits.pinned_max = sl.uint("pinned")?;
    }
    if sl.has("summary") {
        c.limits.summary_max = sl.uint("summary")?;
    }
    if let Some(n) = o.uint("maxEntryChars")? {
        c.max_entry_chars = n;
    }
    if let Some(d) = o.boolean("dedup")? {
        c.dedup = d;
    }
    Ok(c)
}

/// `redact: true | false | RedactorInit`.
fn read_redact(o: &Opts, parts: BuildParts) -> Result<Option<Redact>> {
    let choice = match o.get("redact") {
        None => return Ok(None),
        Some(OptValue::Bool(false)) => return Ok(Some(Redact::Off)),
        Some(OptValue::Bool(true)) => Redact::Default,
        Some(OptValue::Object(h, _)) => Redact::With(*h),
        Some(_) => {
            return Err(Error::option(
                "redact must be true, false, or Redactor options ({ types, allowList, patterns, mode })",
            ))
        }
    };
    match parts.redact {
        true => Ok(Some(choice)),
        false => Err(not_in_build("redact")),
    }
}

impl HookOptions {
    /// Reads `extract`, `llm`, `embed` or `embedder`, `tools`, `callbackTimeoutMs` and
    /// `retrieval: { ... }`.
    fn read(o: &Opts, parts: BuildParts) -> Result<Self> {
        let r = o.object("retrieval")?;
        r.check_keys(RetrievalSpec::KEYS)?;
        let half_life_days = r.positive(
            "halfLifeDays",
            "retrieval.halfLifeDays must be a positive number of days",
        )?;
        let callback_timeout_ms = o.positive(
            "callbackTimeoutMs",
            "callbackTimeoutMs must be a positive number of milliseconds",
        )?;
        let max_items = r.uint("maxItems")?;
        if max_items == Some(0) {
            return Err(Error::option("retrieval.maxItems must be at least 1"));
        }
        let embed = o.function("embed")?;
        if o.has("embedder") && !parts.embedder {
            return Err(not_in_build("embedder (an EmbedModel)"));
        }
        let embedder = o.instance("embedder", EMBEDDER_EXPECTED)?;
        if embed.is_some() && embedder.is_some() {
            return Err(Error::option(
                "give either embed (a callback) or embedder (an EmbedModel), not both",
            ));
        }
        let unit = |key| Ok::<_, Error>(r.unit(key)?.map(|x| x as f32));
        Ok(HookOptions {
            extract: o.function("extract")?,
            llm: o.function("llm")?,
            embed,
            embedder,
            tools: o.boolean("tools")?,
            callback_timeout_ms,
            recent_share: unit("recentShare")?,
            min_relevance: unit("minRelevance")?,
            max_items,
            half_life_days,
            recency_weight: unit("recencyWeight")?,
            importance_weight: unit("importanceWeight")?,
            lexical_weight: unit("lexicalWeight")?,
            quantize: r.boolean("quantize")?,
        })
    }

    /// Whether these options name what embeds texts (a callback or a model).
    pub fn gives_embedding(&self) -> bool {
        self.embed.is_some() || self.embedder.is_some()
    }

    /// Sets the retrieval knobs on `memory`, and turns vectors on when an embedding source
    /// was given (`quantize` alone changes how they are scored once they are on).
    pub fn apply_to(&self, memory: &mut Memory) {
        if self.gives_embedding() {
            let quantize = self
                .quantize
                .unwrap_or(memory.recall_state().config.quantize);
            memory.enable_vectors(quantize);
        } else if let Some(q) = self.quantize {
            if memory.recall_state().vectors_enabled() {
                memory.enable_vectors(q);
            }
        }
        let c = memory.recall_config_mut();
        if let Some(x) = self.recent_share {
            c.recent_share = x;
        }
        if let Some(x) = self.min_relevance {
            c.min_relevance = x;
        }
        if let Some(x) = self.max_items {
            c.max_items = x;
        }
        if let Some(x) = self.half_life_days {
            c.weights.half_life_days = x;
        }
        if let Some(x) = self.recency_weight {
            c.weights.recency = x;
        }
        if let Some(x) = self.importance_weight {
            c.weights.importance = x;
        }
        if let Some(x) = self.lexical_weight {
            c.weights.lexical = x;
        }
    }
}

#[cfg(test)]
#[path = "memory_tests.rs"]
mod tests;
