//! Writing a summary: through the app's `summarize(prompt, info)`, else through `llm` with the
//! built-in request (an unusable answer is asked about once more). The context waits at most
//! `summaryTimeoutMs` for it; the call is then given up on but its answer still counts when it
//! comes (`settle_late`), from the next turn on. Every request ends exactly once: completed,
//! failed, or timed out and kept as late.

use super::{left, not_text, unusable, Answer, Call, CallArgs, Expect, Hook, Hooks, Job, Late};
use crate::llm::{parse_summary, LlmExchange, Step};
use crate::memory::Memory;
use crate::summary::SummaryRequest;

pub struct SummaryJob {
    request: SummaryRequest,
    /// `None`: the app's `summarize`.
    exchange: Option<LlmExchange>,
    wait_ms: f64,
    deadline: Option<f64>,
    settled: bool,
}

impl SummaryJob {
    /// The summary a context should ask for first, if one is due and someone can write it.
    pub fn begin(mem: &mut Memory, hooks: &Hooks) -> Option<SummaryJob> {
        if hooks.read_only || !(hooks.summarize || hooks.llm) {
            return None;
        }
        let request = mem.begin_summary()?;
        let exchange = (!hooks.summarize).then(|| mem.summary_exchange(&request));
        Some(SummaryJob {
            request,
            exchange,
            wait_ms: hooks.summary_timeout_ms,
            deadline: None,
            settled: false,
        })
    }

    fn late(&self) -> Late {
        Late {
            request_id: self.request.request_id,
            via_llm: self.exchange.is_some(),
        }
    }
}

impl Job for SummaryJob {
    fn next(&mut self, mem: &mut Memory, now: f64) -> Option<Call> {
        if self.settled {
            return None;
        }
        let deadline = *self.deadline.get_or_insert(now + self.wait_ms);
        let wait_ms = left(deadline, now);
        if wait_ms == 0.0 {
            // A retry with no time left: given up on, like a call that timed out.
            mem.summary_timed_out(self.request.request_id);
            self.settled = true;
            return None;
        }
        let (hook, args) = match &self.exchange {
            None => (Hook::Summarize, CallArgs::Summary(self.request.clone())),
            Some(x) => (Hook::Llm, CallArgs::Llm(x.request().clone())),
        };
        Some(Call {
            hook,
            args,
            expects: Expect::Text,
            wait_ms,
            late: Some(self.late()),
        })
    }

    fn answer(&mut self, mem: &mut Memory, answer: Answer, now: f64) {
        let id = self.request.request_id;
        if answer == Answer::TimedOut {
            mem.summary_timed_out(id);
            self.settled = true;
            return;
        }
        match &mut self.exchange {
            Some(x) => match &answer {
                Answer::Text(text) => match x.answer(text, parse_summary) {
                    Step::Done(summary) => complete(mem, id, &summary, now),
                    Step::Retry(_) => return,
                    Step::GaveUp(reason) => mem.fail_summary(id, &unusable(&reason)),
                },
                other => mem.fail_summary(id, &not_text(Hook::Llm, other, 0.0)),
            },
            None => settle(mem, self.late(), answer, now),
        }
        self.settled = true;
    }
}

/// Hands the answer of a summary call given up on (`Call::late`) to the memory: used from the
/// next turn on if it still adds turns to the summary. A late `llm` answer is not retried.
pub fn settle_late(mem: &mut Memory, late: Late, answer: Answer, now: f64) {
    settle(mem, late, answer, now);
}

fn settle(mem: &mut Memory, late: Late, answer: Answer, now: f64) {
    let id = late.request_id;
    match answer {
        Answer::Text(text) if late.via_llm => match parse_summary(&text) {
            Ok(summary) => complete(mem, id, &summary, now),
            Err(reason) => mem.fail_summary(id, &unusable(&reason)),
        },
        Answer::Text(text) => complete(mem, id, &text, now),
        Answer::Wrong(_) if !late.via_llm => {
            mem.fail_summary(id, "summarize must resolve to a string")
        }
        other => {
            let hook = if late.via_llm {
                Hook::Llm
            } else {
                Hook::Summarize
            };
            mem.fail_summary(id, &not_text(hook, &other, 0.0))
        }
    }
}

fn complete(mem: &mut Memory, id: u64, text: &str, now: f64) {
    if let Err(e) = mem.complete_summary(id, text, now) {
        mem.fail_summary(id, &e.message);
    }
}

/// Writes the summary due now, if one is, with `write` as the app's `summarize`, on this
/// thread: a context turn's whole summary protocol for native callers (a server, a bench, a
/// test), where the JS face runs `SummaryJob` with the app's callback. Returns whether one was
/// due; what became of it (used, or refused and noted) reads as a context turn's would.
pub fn summarize_now(
    mem: &mut Memory,
    now: f64,
    mut write: impl FnMut(&SummaryRequest) -> String,
) -> bool {
    let hooks = Hooks {
        summarize: true,
        ..Hooks::default()
    };
    let Some(mut job) = SummaryJob::begin(mem, &hooks) else {
        return false;
    };
    while let Some(call) = job.next(mem, now) {
        let answer = match &call.args {
            CallArgs::Summary(request) => Answer::Text(write(request)),
            _ => Answer::Failed("only summarize is asked".to_string()),
        };
        job.answer(mem, answer, now);
    }
    true
}
