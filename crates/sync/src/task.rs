//! A link's task: the loop the face runs while its schedule wants cycles. Before a cycle the
//! timer is cleared (the cycle is the one it would have started); after it, in this order: the
//! timer for the next one, the local copy removed when the server deleted the session, `onError`
//! told, then each caller of the cycle answered. When nothing more is wanted, or the link
//! stopped, the task ends and callers left waiting hear the stopped error. What each cycle does
//! is `LinkState::run`; when cycles run and what each caller hears is `Schedule`.

use crate::cycle::{stopped_error, Io, LinkState, Local, Tally};
use crate::schedule::{Schedule, Turn};
use llm_memory_core::error::Result;
use std::cell::RefCell;

/// The timer and the callers of a link, beside its requests and crypto (`Io`).
pub trait TaskIo: Io {
    /// A `mem.sync()` caller: the promise to settle in JS.
    type Waiter;
    /// A number in [0, 1) for the backoff's jitter.
    fn random(&self) -> f64;
    /// Starts the timer for the next cycle (one timer: it replaces any running).
    fn arm(&self, ms: f64);
    /// Clears the timer.
    fn disarm(&self);
    /// Settles a caller with what moved since it asked, or the error.
    fn answer(&self, waiter: Self::Waiter, outcome: Result<Tally>);
}

/// Runs cycles while `schedule` wants them; start it when `Schedule::request` says `Start`. No
/// borrow of `schedule` is held while `io` or `local` runs, so an answer may ask for more.
pub async fn run_task<I: TaskIo, L: Local + ?Sized>(
    io: &I,
    state: &LinkState,
    local: &L,
    schedule: &RefCell<Schedule<I::Waiter>>,
) {
    loop {
        let turn = schedule.borrow_mut().next_turn();
        if let Turn::Idle(left) = turn {
            for waiter in left {
                io.answer(waiter, Err(stopped_error(&state.session)));
            }
            return;
        }
        io.disarm();
        let next = state.run(io, local, io.random()).await;
        let after = schedule.borrow_mut().finished(next, state.tally.get());
        if let Some(ms) = after.timer_ms {
            io.arm(ms);
        }
        if after.delete_here {
            local.deleted_on_server().await;
        }
        if let Some(e) = &after.report {
            local.report(e);
        }
        for (waiter, outcome) in after.answers {
            io.answer(waiter, outcome);
        }
    }
}
