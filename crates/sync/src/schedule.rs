//! When a session's sync cycles run, without I/O: one at a time; a request while one runs is
//! served by the next (its caller with it); after each cycle, the timer for the next (the
//! interval, or a backoff delay after a failure), whether to tell `onError`, whether the
//! session is to be deleted here, and what each caller hears. A stopped link (closed, freed,
//! deleted) starts no cycle and refuses new callers. The face (`src/bindings/sync/link.rs`)
//! keeps the callers' promises, the timer and the task, and runs each cycle with
//! `Link::run`. `W` is its handle on a `mem.sync()` caller.

use crate::cycle::{Next, Tally};
use llm_memory_core::error::{Error, Result};

/// A caller, with the tally when it asked: it hears what moved since.
#[derive(Debug)]
struct Asking<W> {
    waiter: W,
    before: Tally,
}

/// What a request for a cycle asks of the face.
#[derive(Debug, PartialEq)]
pub enum Requested<W> {
    /// No cycle runs: start the task (`next_turn`).
    Start,
    /// A cycle runs: the next one, which the running task runs, serves this request too.
    Joined,
    /// The link stopped: the caller, if any, hears the stopped error.
    Refused(Option<W>),
}

/// What the task does next.
#[derive(Debug, PartialEq)]
pub enum Turn<W> {
    /// Run a cycle, then say how it went (`finished`).
    Cycle,
    /// Nothing is wanted, or the link stopped: the task ends; these callers (left by a stop)
    /// hear the stopped error.
    Idle(Vec<W>),
}

/// What the face does once a cycle ended, in this order.
#[derive(Debug, PartialEq)]
pub struct AfterCycle<W> {
    /// Start the timer for the next cycle, in ms (none: only when asked).
    pub timer_ms: Option<f64>,
    /// The server deleted the session: remove it from local storage.
    pub delete_here: bool,
    /// Tell `onError`.
    pub report: Option<Error>,
    /// The callers of this cycle, with what moved since each asked, or the cycle's error.
    pub answers: Vec<(W, Result<Tally>)>,
}

#[derive(Debug)]
pub struct Schedule<W> {
    /// The task runs (a cycle, or the answers after one).
    running: bool,
    /// A cycle is wanted after the one running.
    wanted: bool,
    stopped: bool,
    /// Callers for the next cycle.
    waiting: Vec<Asking<W>>,
    /// Callers of the cycle running now.
    current: Vec<Asking<W>>,
}

impl<W> Default for Schedule<W> {
    fn default() -> Self {
        Schedule {
            running: false,
            wanted: false,
            stopped: false,
            waiting: Vec::new(),
            current: Vec::new(),
        }
    }
}

impl<W> Schedule<W> {
    /// A cycle soon (on open, after a local write, the timer, `mem.sync()`); `waiter` hears
    /// how it went. `tally` is what moved so far.
    pub fn request(&mut self, waiter: Option<W>, tally: Tally) -> Requested<W> {
        if self.stopped {
            return Requested::Refused(waiter);
        }
        if let Some(waiter) = waiter {
            self.waiting.push(Asking {
                waiter,
                before: tally,
            });
        }
        self.wanted = true;
        match std::mem::replace(&mut self.running, true) {
            true => Requested::Joined,
            false => Requested::Start,
        }
    }

    /// The task's next step: a cycle while one is wanted and the link runs, else the end.
    pub fn next_turn(&mut self) -> Turn<W> {
        let wanted = std::mem::replace(&mut self.wanted, false);
        if wanted && !self.stopped {
            self.current = std::mem::take(&mut self.waiting);
            return Turn::Cycle;
        }
        self.running = false;
        let left = std::mem::take(&mut self.waiting);
        Turn::Idle(left.into_iter().map(|a| a.waiter).collect())
    }

    /// A cycle ended with `next` (`Link::run`); `tally` is what moved so far.
    pub fn finished(&mut self, next: Next, tally: Tally) -> AfterCycle<W> {
        let (timer_ms, delete_here, report, outcome) = match next {
            Next::Synced { ms } => (Some(ms), false, None, Ok(())),
            Next::Failed {
                error,
                report,
                retry_ms,
            } => (retry_ms, false, report.then(|| error.clone()), Err(error)),
            Next::Deleted(error) => {
                self.stopped = true;
                (None, true, Some(error.clone()), Err(error))
            }
        };
        let asked = std::mem::take(&mut self.current);
        AfterCycle {
            timer_ms: timer_ms.filter(|ms| *ms > 0.0 && !self.stopped),
            delete_here,
            report,
            answers: asked
                .into_iter()
                .map(|a| (a.waiter, outcome.clone().map(|()| tally.since(a.before))))
                .collect(),
        }
    }

    /// No more cycles (close, free, deletion); a running one finishes, and its callers hear
    /// how it went.
    pub fn stop(&mut self) {
        self.stopped = true;
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped
    }
}
