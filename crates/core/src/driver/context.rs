//! A context turn: the summary first (when one is due; waited for at most
//! `summaryTimeoutMs`), then the facts of the last exchange (`extract`, else `llm`), then the
//! embedding of the search (strategy "retrieval"), then the build. Each step's failures become
//! notes in the report; none stops the turn.

use super::embed::EmbedJob;
use super::extract::ExtractJob;
use super::summary::SummaryJob;
use super::{Answer, Call, Hooks, Job};
use crate::context::{BuiltContext, Detail};
use crate::error::Result;
use crate::memory::{ContextExtras, Memory};

/// What `context()` was asked for.
#[derive(Debug, Clone, Default)]
pub struct ContextAsk {
    pub query: Option<String>,
    /// Count the memory tools' schemas (default: the memory's `tools` option).
    pub tools: Option<bool>,
    pub detail: Detail,
}

pub struct ContextJob {
    hooks: Hooks,
    ask: ContextAsk,
    step: Step,
    notes: Vec<String>,
    query_vector: Option<Vec<f32>>,
}

enum Step {
    Start,
    Summary(SummaryJob),
    Extract(ExtractJob),
    Embed(EmbedJob),
    Built,
}

impl ContextJob {
    pub fn new(hooks: &Hooks, ask: ContextAsk) -> ContextJob {
        ContextJob {
            hooks: *hooks,
            ask,
            step: Step::Start,
            notes: Vec::new(),
            query_vector: None,
        }
    }

    /// Builds the context once every call is answered; vault values learned while redacting
    /// it are kept with the session.
    pub fn finish(self, mem: &mut Memory) -> Result<BuiltContext> {
        let extras = ContextExtras {
            query_vector: self.query_vector,
            tools: self.ask.tools.unwrap_or(self.hooks.tools),
            detail: self.ask.detail,
        };
        let mut built = mem.context_with(self.ask.query.as_deref(), &extras)?;
        built.report.notes.extend(self.notes);
        mem.save_vault();
        Ok(built)
    }

    /// Moves to the step after the current one, which has no more calls to make.
    fn advance(&mut self, mem: &mut Memory) {
        let done = std::mem::replace(&mut self.step, Step::Built);
        self.step = match done {
            Step::Start => match SummaryJob::begin(mem, &self.hooks) {
                Some(job) => Step::Summary(job),
                None => self.extract_step(mem),
            },
            Step::Summary(_) => self.extract_step(mem),
            Step::Extract(job) => {
                self.notes.extend(job.outcome().notes);
                self.embed_step(mem)
            }
            Step::Embed(job) => {
                let (vector, notes) = job.finish();
                self.query_vector = vector;
                self.notes.extend(notes);
                Step::Built
            }
            Step::Built => Step::Built,
        };
    }

    fn extract_step(&mut self, mem: &mut Memory) -> Step {
        match ExtractJob::begin(mem, &self.hooks) {
            Some(job) => Step::Extract(job),
            None => self.embed_step(mem),
        }
    }

    fn embed_step(&mut self, mem: &mut Memory) -> Step {
        mem.sync_recall();
        Step::Embed(EmbedJob::context(
            mem,
            &self.hooks,
            self.ask.query.as_deref(),
        ))
    }
}

impl Job for ContextJob {
    fn next(&mut self, mem: &mut Memory, now: f64) -> Option<Call> {
        loop {
            let call = match &mut self.step {
                Step::Start => None,
                Step::Summary(job) => job.next(mem, now),
                Step::Extract(job) => job.next(mem, now),
                Step::Embed(job) => job.next(mem, now),
                Step::Built => return None,
            };
            if call.is_some() {
                return call;
            }
            self.advance(mem);
        }
    }

    fn answer(&mut self, mem: &mut Memory, answer: Answer, now: f64) {
        match &mut self.step {
            Step::Summary(job) => job.answer(mem, answer, now),
            Step::Extract(job) => job.answer(mem, answer, now),
            Step::Embed(job) => job.answer(mem, answer, now),
            Step::Start | Step::Built => {}
        }
    }
}
