//! Messages from the other tabs on a session, heard from before the session is read: what
//! another tab stores while this one loads is kept and handed, in order, to the session's
//! store once it exists; after that each message goes straight to it, and once the store is
//! freed messages are dropped. Only storage that other tabs share has a mailbox.

use llm_memory_core::store::layout::StorageKind;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

/// Whether other tabs share `kind`'s sessions (the `memory` backend is this realm's alone).
pub fn shared_with_tabs(kind: StorageKind) -> bool {
    kind != StorageKind::Memory
}

/// Who hears the messages: nobody yet (they wait), then the store.
pub struct Mailbox<M, L> {
    to: RefCell<Listening<M, L>>,
}

enum Listening<M, L> {
    Early(Vec<M>),
    Store(Weak<L>),
}

impl<M, L> Default for Mailbox<M, L> {
    fn default() -> Self {
        Mailbox {
            to: RefCell::new(Listening::Early(Vec::new())),
        }
    }
}

impl<M, L> Mailbox<M, L> {
    /// A message came: kept while nobody listens; else the store to hand it to (`None`: it
    /// was freed, the message is dropped).
    pub fn arrived(&self, message: M) -> Option<(Rc<L>, M)> {
        match &mut *self.to.borrow_mut() {
            Listening::Early(early) => {
                early.push(message);
                None
            }
            Listening::Store(store) => Some((store.upgrade()?, message)),
        }
    }

    /// The store takes over: the messages kept so far, in the order they came.
    pub fn hand_to(&self, store: &Rc<L>) -> Vec<M> {
        match self.to.replace(Listening::Store(Rc::downgrade(store))) {
            Listening::Early(early) => early,
            Listening::Store(_) => Vec::new(),
        }
    }
}
