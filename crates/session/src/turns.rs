//! One at a time, in call order: `recordEpisode` called while another runs waits for it, then
//! covers the turns that one did not (two at once asked the app to summarize the same turns,
//! and the first episode was lost).

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// A first-come first-served turn for async work on one thread.
#[derive(Clone, Default)]
pub struct OneAtATime {
    inner: Rc<Tickets>,
}

#[derive(Default)]
struct Tickets {
    next: Cell<u64>,
    serving: Cell<u64>,
    waiting: RefCell<Vec<Waker>>,
    /// Tickets whose callers stopped waiting before their turn.
    abandoned: RefCell<BTreeSet<u64>>,
}

/// Held while it is this caller's turn; the next caller's turn comes when it is dropped.
pub struct Turn {
    inner: Rc<Tickets>,
}

impl OneAtATime {
    /// Resolves when every call made before this one has dropped its turn.
    pub fn enter(&self) -> impl Future<Output = Turn> {
        let ticket = self.inner.next.get();
        self.inner.next.set(ticket + 1);
        Waiting {
            inner: self.inner.clone(),
            ticket,
            taken: false,
        }
    }
}

struct Waiting {
    inner: Rc<Tickets>,
    ticket: u64,
    /// Its turn was handed out (as a `Turn`, which passes it on when dropped).
    taken: bool,
}

impl Future for Waiting {
    type Output = Turn;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Turn> {
        if self.inner.serving.get() == self.ticket {
            self.taken = true;
            return Poll::Ready(Turn {
                inner: self.inner.clone(),
            });
        }
        self.inner.waiting.borrow_mut().push(cx.waker().clone());
        Poll::Pending
    }
}

impl Drop for Waiting {
    /// A caller that stops waiting would block everyone after it: its turn is skipped.
    fn drop(&mut self) {
        if self.taken {
            return;
        }
        match self.inner.serving.get() == self.ticket {
            true => self.inner.pass(),
            false => {
                self.inner.abandoned.borrow_mut().insert(self.ticket);
            }
        }
    }
}

impl Tickets {
    fn pass(&self) {
        let mut next = self.serving.get() + 1;
        while self.abandoned.borrow_mut().remove(&next) {
            next += 1;
        }
        self.serving.set(next);
        for waker in self.waiting.borrow_mut().drain(..) {
            waker.wake();
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.inner.pass();
    }
}
