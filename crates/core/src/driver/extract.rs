//! Extracting facts from the turns not seen yet: through the app's `extract(turns)`, else
//! through `llm` with the built-in request (asked once more after an unusable answer). The
//! exchange takes at most `callbackTimeoutMs`, retry included. What an answer or a failure
//! does to the facts is `Memory::finish_extraction`'s.

use super::{left, not_text, timed_out, Answer, Call, CallArgs, Expect, Hook, Hooks, Job};
use crate::error::{Error, ErrorCode, Result};
use crate::llm::Step;
use crate::memory::{ExtractAnswer, ExtractExchange, ExtractOutcome, ExtractRequest, Memory};

pub struct ExtractJob {
    request: ExtractRequest,
    /// `None`: the app's `extract`.
    exchange: Option<ExtractExchange>,
    timeout_ms: f64,
    deadline: Option<f64>,
    outcome: Option<ExtractOutcome>,
}

impl ExtractJob {
    /// The extraction a context runs first, if a hook can do it and there are unseen turns.
    pub fn begin(mem: &Memory, hooks: &Hooks) -> Option<ExtractJob> {
        if !(hooks.extract || hooks.llm) {
            return None;
        }
        let request = mem.begin_extraction()?;
        let exchange = (!hooks.extract).then(|| mem.extraction_exchange(&request));
        Some(ExtractJob {
            request,
            exchange,
            timeout_ms: hooks.callback_timeout_ms,
            deadline: None,
            outcome: None,
        })
    }

    /// `extractFacts()`: as `begin`, refused when no hook can extract.
    pub fn asked(mem: &Memory, hooks: &Hooks) -> Result<Option<ExtractJob>> {
        if !(hooks.extract || hooks.llm) {
            return Err(Error::new(
                ErrorCode::InvalidOption,
                "extractFacts needs the llm option (llm: async (messages, info) => text) or the \
                 extract option (extract: async (turns) => [{ op, text, id? }])",
            ));
        }
        Ok(ExtractJob::begin(mem, hooks))
    }

    /// What was applied, and notes for the report.
    pub fn outcome(self) -> ExtractOutcome {
        self.outcome.unwrap_or_default()
    }

    fn finish(&mut self, mem: &mut Memory, answer: ExtractAnswer<'_>, now: f64) {
        self.outcome = Some(mem.finish_extraction(&self.request, answer, now));
    }
}

impl Job for ExtractJob {
    fn next(&mut self, mem: &mut Memory, now: f64) -> Option<Call> {
        if self.outcome.is_some() {
            return None;
        }
        let deadline = *self.deadline.get_or_insert(now + self.timeout_ms);
        let (hook, args, expects) = match &self.exchange {
            None => (
                Hook::Extract,
                CallArgs::Turns(self.request.turns.clone()),
                Expect::Json,
            ),
            Some(x) => (Hook::Llm, CallArgs::Llm(x.request().clone()), Expect::Text),
        };
        let wait_ms = left(deadline, now);
        if wait_ms == 0.0 {
            let reason = timed_out(hook, self.timeout_ms);
            self.finish(mem, ExtractAnswer::Failed(&reason), now);
            return None;
        }
        Some(Call {
            hook,
            args,
            expects,
            wait_ms,
            late: None,
        })
    }

    fn answer(&mut self, mem: &mut Memory, answer: Answer, now: f64) {
        let hook = match self.exchange {
            None => Hook::Extract,
            Some(_) => Hook::Llm,
        };
        match (&mut self.exchange, &answer) {
            (None, Answer::Json(text)) => self.finish(mem, ExtractAnswer::Json(text), now),
            (None, Answer::Wrong(why)) => self.finish(mem, ExtractAnswer::Unreadable(why), now),
            (Some(x), Answer::Text(text)) => match x.answer(text) {
                Step::Done(ops) => self.finish(mem, ExtractAnswer::Ops(&ops), now),
                Step::Retry(_) => {}
                Step::GaveUp(reason) => self.finish(mem, ExtractAnswer::Unusable(&reason), now),
            },
            (_, other) => {
                let reason = not_text(hook, other, self.timeout_ms);
                self.finish(mem, ExtractAnswer::Failed(&reason), now)
            }
        }
    }
}
