//! The one sans-IO driver for the work that needs the app's callbacks: a context turn
//! (summary, fact extraction, embedding, then the build), an explicit fact extraction, an
//! episode, a search's embedding and the idle-time embedding backlog. Each is a `Job`: a state
//! machine that says which call to make next (`Call`: which hook, with what, how long to wait
//! for it) and takes its answer back (`Answer`). Which hook is asked, in what order, what an
//! answer or a failure means, when to ask once more and how long each may take is decided here
//! and tested natively; the JS face only makes the calls (`src/bindings/driver.rs`).

pub mod context;
pub mod embed;
pub mod episode;
pub mod extract;
pub mod summary;
#[cfg(test)]
mod tests;

pub use context::{ContextAsk, ContextJob};
pub use embed::EmbedJob;
pub use episode::{record_episode_now, EpisodeJob};
pub use extract::ExtractJob;
pub use summary::{settle_late, summarize_now};

use crate::history::Entry;
use crate::llm::LlmRequest;
use crate::memory::Memory;
use crate::recall::episodes::EpisodeRequest;
use crate::summary::SummaryRequest;

/// Default for `callbackTimeoutMs`: how long `extract`, `embed`, `llm` (an exchange, retry
/// included) and an episode's `summarize` may take, so that a callback that never settles
/// cannot freeze `context()` for good.
pub const DEFAULT_CALLBACK_TIMEOUT_MS: f64 = 30_000.0;

/// Default for `summaryTimeoutMs`: how long a context waits for its summary before trimming
/// instead (the summary may still come later and is then used from the next turn on).
pub const DEFAULT_SUMMARY_TIMEOUT_MS: f64 = 20_000.0;

/// Which of the app's hooks a memory has, and how long each may take.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hooks {
    pub summarize: bool,
    pub extract: bool,
    pub llm: bool,
    pub embed: Option<Embedder>,
    /// Count the memory tools' schemas in every context.
    pub tools: bool,
    pub callback_timeout_ms: f64,
    pub summary_timeout_ms: f64,
    /// The session was stored by a newer schema: nothing may be written, so no summary.
    pub read_only: bool,
}

impl Default for Hooks {
    fn default() -> Self {
        Hooks {
            summarize: false,
            extract: false,
            llm: false,
            embed: None,
            tools: false,
            callback_timeout_ms: DEFAULT_CALLBACK_TIMEOUT_MS,
            summary_timeout_ms: DEFAULT_SUMMARY_TIMEOUT_MS,
            read_only: false,
        }
    }
}

/// Runs `job` to its end on this thread at `now`, with `answer` making each call: what the JS
/// face does with the app's callbacks, for native apps, benches and tests.
pub fn run_native(
    job: &mut dyn Job,
    mem: &mut Memory,
    now: f64,
    mut answer: impl FnMut(&Call) -> Answer,
) {
    while let Some(call) = job.next(mem, now) {
        let answered = answer(&call);
        job.answer(mem, answered, now);
    }
}

/// What embeds: the app's `embed` callback, awaited, or a model in this page, which blocks
/// the thread while it works (so a search embeds only a few waiting items with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Embedder {
    Callback,
    InPage,
}

/// The app's callback a call goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hook {
    /// `summarize(prompt, info)`.
    Summarize,
    /// `extract(turns)`.
    Extract,
    /// `llm(messages, info)`.
    Llm,
    /// `embed(texts)`.
    Embed,
    /// The in-page model (`embedder`), which embeds instead of `embed` when given; the call
    /// names which so the face does not choose again.
    Embedder,
}

impl Hook {
    pub fn name(self) -> &'static str {
        match self {
            Hook::Summarize => "summarize",
            Hook::Extract => "extract",
            Hook::Llm => "llm",
            Hook::Embed => "embed",
            Hook::Embedder => "embedder",
        }
    }
}

/// What a call hands over.
#[derive(Debug, Clone)]
pub enum CallArgs {
    /// `summarize(request.prompt, request)`.
    Summary(SummaryRequest),
    /// `summarize(request.prompt, request)`, for an episode.
    Episode(EpisodeRequest),
    /// `llm(request.messages, request)`.
    Llm(LlmRequest),
    /// `extract(turns)`.
    Turns(Vec<Entry>),
    /// `embed(texts)`.
    Texts(Vec<String>),
}

/// What the answer should be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Text,
    /// Any JSON value, handed back as its text (`null` for nothing).
    Json,
    /// One vector per text.
    Vectors,
}

/// One call to make.
#[derive(Debug, Clone)]
pub struct Call {
    pub hook: Hook,
    pub args: CallArgs,
    pub expects: Expect,
    /// How long to wait for the answer before answering `TimedOut`.
    pub wait_ms: f64,
    /// After `TimedOut`, the answer is still worth having: hand it to `settle_late` when it
    /// comes (a summary is used from the next turn on).
    pub late: Option<Late>,
}

/// A call given up on whose answer is still used: a summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Late {
    request_id: u64,
    via_llm: bool,
}

/// What came back from a call.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Text(String),
    /// JSON text of the resolved value (`null` when it resolved to nothing).
    Json(String),
    Vectors(Vec<Vec<f32>>),
    /// It resolved to something of the wrong kind: what it was, in words.
    Wrong(String),
    /// It threw or rejected: the error's text.
    Failed(String),
    /// It did not settle within the call's `wait_ms`.
    TimedOut,
}

/// A piece of work driven by calls. `next` says what to call (`None`: done, read the result
/// from the job); each call is answered exactly once with `answer` before `next` is asked again.
pub trait Job {
    fn next(&mut self, mem: &mut Memory, now: f64) -> Option<Call>;
    fn answer(&mut self, mem: &mut Memory, answer: Answer, now: f64);
}

/// An answer that is not text, as the reason a text hook's call failed.
fn not_text(hook: Hook, answer: &Answer, timeout_ms: f64) -> String {
    match answer {
        Answer::Failed(e) => e.clone(),
        Answer::TimedOut => timed_out(hook, timeout_ms),
        Answer::Wrong(got) => match hook {
            Hook::Llm => format!("llm must resolve to a string (the reply text), got {got}"),
            _ => format!("{} must resolve to a string, got {got}", hook.name()),
        },
        Answer::Text(_) | Answer::Json(_) | Answer::Vectors(_) => {
            format!("{} answered with something other than text", hook.name())
        }
    }
}

fn timed_out(hook: Hook, timeout_ms: f64) -> String {
    format!(
        "{} did not answer within {timeout_ms} ms (callbackTimeoutMs)",
        hook.name()
    )
}

/// An `llm` exchange that gave up after its retry, in words.
fn unusable(reason: &str) -> String {
    format!("the llm answer could not be used after a retry ({reason})")
}

/// The time left before `deadline`, as a call's wait (at least 0).
fn left(deadline: f64, now: f64) -> f64 {
    (deadline - now).max(0.0)
}
