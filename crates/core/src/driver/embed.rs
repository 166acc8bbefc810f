//! Embedding, for a search (its waiting items, then its query) or for the idle-time backlog.
//! Which items wait, in what batches, and what a failure means is `memory::embedding`'s; this
//! job asks for the calls and decides how many waiting items a search embeds first: all of
//! them with an awaited `embed` callback, a few with a model that blocks this page.

use super::{timed_out, Answer, Call, CallArgs, Embedder, Expect, Hook, Hooks, Job};
use crate::error::{Error, ErrorCode, Result};
use crate::memory::{EmbedRequest, EmbedRound, Memory, IN_PAGE_ITEMS_PER_SEARCH};

pub struct EmbedJob {
    /// `None`: nothing embeds; the job makes no call.
    round: Option<EmbedRound>,
    asked: Option<EmbedRequest>,
    timeout_ms: f64,
    /// Who embeds: the hook each call names.
    hook: Hook,
}

impl EmbedJob {
    /// The embedding of a search for `text` (`recall`, `recallEpisodes`). The index is
    /// brought up to date either way.
    pub fn search(mem: &mut Memory, hooks: &Hooks, text: &str) -> EmbedJob {
        let round = mem.begin_embedding(text);
        EmbedJob::over(
            hooks,
            hooks.embed.map(|by| round.limit_items(per_search(by))),
        )
    }

    /// The embedding of a context's search: strategy "retrieval" only, for `query` or else
    /// the newest user message.
    pub fn context(mem: &mut Memory, hooks: &Hooks, query: Option<&str>) -> EmbedJob {
        let round = match hooks.embed {
            Some(by) => mem
                .context_embedding(query)
                .map(|r| r.limit_items(per_search(by))),
            None => None,
        };
        EmbedJob::over(hooks, round)
    }

    /// `embedPending({ limit })`: up to `limit` waiting items, no query.
    pub fn backlog(mem: &mut Memory, hooks: &Hooks, limit: usize) -> Result<EmbedJob> {
        if limit == 0 {
            return Err(Error::new(
                ErrorCode::InvalidOption,
                "embedPending's limit must be at least 1",
            ));
        }
        let round = hooks.embed.map(|_| mem.embed_backlog(limit));
        Ok(EmbedJob::over(hooks, round))
    }

    fn over(hooks: &Hooks, round: Option<EmbedRound>) -> EmbedJob {
        EmbedJob {
            round,
            asked: None,
            timeout_ms: hooks.callback_timeout_ms,
            hook: match hooks.embed {
                Some(Embedder::InPage) => Hook::Embedder,
                _ => Hook::Embed,
            },
        }
    }

    /// The query's vector (when it was embedded) and notes on failures.
    pub fn finish(self) -> (Option<Vec<f32>>, Vec<String>) {
        self.round.map(EmbedRound::finish).unwrap_or_default()
    }

    /// `embedPending`'s result: how many items still wait, or the first failure (the items
    /// keep waiting).
    pub fn finish_backlog(self, mem: &mut Memory) -> Result<usize> {
        let (_, notes) = self.finish();
        match notes.into_iter().next() {
            Some(note) => Err(Error::new(ErrorCode::CallbackFailed, note)),
            None => Ok(mem.pending_embeddings()),
        }
    }
}

impl EmbedJob {
    /// The hooks of a native caller that embeds with a function (`run_with`): every waiting
    /// item is embedded, as with an awaited `embed` callback.
    pub fn native_hooks() -> Hooks {
        Hooks {
            embed: Some(Embedder::Callback),
            ..Hooks::default()
        }
    }

    /// Runs the job on this thread with `embed` answering each call (one vector per text):
    /// what the JS face does with the app's `embed`, for native apps, benches and tests. Then
    /// `finish` (or `finish_backlog`) as usual.
    pub fn run_with(
        &mut self,
        mem: &mut Memory,
        mut embed: impl FnMut(&[String]) -> Vec<Vec<f32>>,
    ) {
        while let Some(call) = self.next(mem, 0.0) {
            let answer = match &call.args {
                CallArgs::Texts(texts) => Answer::Vectors(embed(texts)),
                _ => Answer::Failed("only embed is asked".to_string()),
            };
            self.answer(mem, answer, 0.0);
        }
    }
}

/// Waiting items a search embeds before it runs.
fn per_search(by: Embedder) -> Option<usize> {
    match by {
        Embedder::InPage => Some(IN_PAGE_ITEMS_PER_SEARCH),
        Embedder::Callback => None,
    }
}

impl Job for EmbedJob {
    fn next(&mut self, mem: &mut Memory, _now: f64) -> Option<Call> {
        let mut request = mem.next_embedding(self.round.as_mut()?)?;
        let texts = std::mem::take(&mut request.texts);
        self.asked = Some(request);
        Some(Call {
            hook: self.hook,
            args: CallArgs::Texts(texts),
            expects: Expect::Vectors,
            wait_ms: self.timeout_ms,
            late: None,
        })
    }

    fn answer(&mut self, mem: &mut Memory, answer: Answer, _now: f64) {
        let (Some(round), Some(request)) = (self.round.as_mut(), self.asked.take()) else {
            return;
        };
        let vectors = match answer {
            Answer::Vectors(v) => Ok(v),
            Answer::Wrong(why) | Answer::Failed(why) => Err(why),
            Answer::TimedOut => Err(timed_out(self.hook, self.timeout_ms)),
            Answer::Text(_) | Answer::Json(_) => {
                Err("embed must resolve to an array of vectors".to_string())
            }
        };
        mem.answer_embedding(round, request, vectors);
    }
}
