//! Writing an episode over the turns since the last one: through the app's
//! `summarize(prompt, info)`, else through `llm` (its answer checked, and asked about once more
//! when unusable). The call, or the exchange with its retry, takes at most `callbackTimeoutMs`.
//! A failure is the caller's error: `CALLBACK_FAILED` when the call failed,
//! `INVALID_DOCUMENT` when its answer could not be used.

use super::{
    left, not_text, timed_out, unusable, Answer, Call, CallArgs, Expect, Hook, Hooks, Job,
};
use crate::error::{Error, ErrorCode, Result};
use crate::llm::{LlmExchange, Step};
use crate::memory::{episode_answer, Memory};
use crate::recall::episodes::{Episode, EpisodeRequest};

pub struct EpisodeJob {
    request: EpisodeRequest,
    /// `None`: the app's `summarize`.
    exchange: Option<LlmExchange>,
    timeout_ms: f64,
    deadline: Option<f64>,
    result: Option<Result<Episode>>,
}

impl EpisodeJob {
    /// Refuses `recordEpisode()` when no hook can write an episode.
    pub fn check(hooks: &Hooks) -> Result<()> {
        match hooks.summarize || hooks.llm {
            true => Ok(()),
            false => Err(Error::new(
                ErrorCode::InvalidOption,
                "recordEpisode needs the llm option or the summarize option: it writes the episode",
            )),
        }
    }

    /// The episode to write now (`None`: no new turns).
    pub fn begin(mem: &mut Memory, hooks: &Hooks) -> Result<Option<EpisodeJob>> {
        EpisodeJob::check(hooks)?;
        let Some(request) = mem.begin_episode() else {
            return Ok(None);
        };
        let exchange = (!hooks.summarize).then(|| mem.episode_exchange(&request));
        Ok(Some(EpisodeJob {
            request,
            exchange,
            timeout_ms: hooks.callback_timeout_ms,
            deadline: None,
            result: None,
        }))
    }

    /// The stored episode, or why there is none.
    pub fn finish(self) -> Result<Episode> {
        self.result.unwrap_or_else(|| {
            Err(Error::new(
                ErrorCode::CallbackFailed,
                "the episode was not written",
            ))
        })
    }

    fn fail(&mut self, mem: &mut Memory, code: ErrorCode, message: String) {
        mem.fail_episode(self.request.request_id);
        self.result = Some(Err(Error::new(code, message)));
    }

    fn hook(&self) -> Hook {
        match self.exchange {
            None => Hook::Summarize,
            Some(_) => Hook::Llm,
        }
    }
}

/// Records an episode over the turns since the last one with `write` answering the prompt (as
/// the app's `summarize` would), on this thread: `recordEpisode()` for native callers (a
/// server, a bench, a test). `Ok(None)`: no new turns.
pub fn record_episode_now(
    mem: &mut Memory,
    now: f64,
    mut write: impl FnMut(&EpisodeRequest) -> String,
) -> Result<Option<Episode>> {
    let hooks = Hooks {
        summarize: true,
        ..Hooks::default()
    };
    let Some(mut job) = EpisodeJob::begin(mem, &hooks)? else {
        return Ok(None);
    };
    super::run_native(&mut job, mem, now, |call| match &call.args {
        CallArgs::Episode(request) => Answer::Text(write(request)),
        _ => Answer::Failed("only summarize is asked".to_string()),
    });
    job.finish().map(Some)
}

impl Job for EpisodeJob {
    fn next(&mut self, mem: &mut Memory, now: f64) -> Option<Call> {
        if self.result.is_some() {
            return None;
        }
        let deadline = *self.deadline.get_or_insert(now + self.timeout_ms);
        let wait_ms = left(deadline, now);
        if wait_ms == 0.0 {
            let reason = timed_out(self.hook(), self.timeout_ms);
            self.fail(mem, ErrorCode::CallbackFailed, reason);
            return None;
        }
        let (hook, args) = match &self.exchange {
            None => (Hook::Summarize, CallArgs::Episode(self.request.clone())),
            Some(x) => (Hook::Llm, CallArgs::Llm(x.request().clone())),
        };
        Some(Call {
            hook,
            args,
            expects: Expect::Text,
            wait_ms,
            late: None,
        })
    }

    fn answer(&mut self, mem: &mut Memory, answer: Answer, now: f64) {
        let text = match (&mut self.exchange, answer) {
            (None, Answer::Text(text)) => text,
            (None, Answer::Wrong(_)) => {
                let why = "summarize must resolve to a string (the episode as JSON)";
                return self.fail(mem, ErrorCode::InvalidDocument, why.to_string());
            }
            (Some(x), Answer::Text(text)) => match x.answer(&text, episode_answer) {
                Step::Done(checked) => checked,
                Step::Retry(_) => return,
                Step::GaveUp(reason) => {
                    return self.fail(mem, ErrorCode::InvalidDocument, unusable(&reason))
                }
            },
            (_, other) => {
                let reason = not_text(self.hook(), &other, self.timeout_ms);
                return self.fail(mem, ErrorCode::CallbackFailed, reason);
            }
        };
        let id = self.request.request_id;
        self.result = Some(mem.complete_episode(id, &text, now));
    }
}
