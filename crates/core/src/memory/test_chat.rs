//! What the memory's unit tests set up again and again: a memory with the approximate counter
//! and one user/assistant exchange.

use super::{Memory, MemoryConfig};
use crate::history::{NewEntry, Role};
use crate::tokens::ApproximateCounter;
use std::sync::Arc;

pub(super) fn memory() -> Memory {
    Memory::new(
        MemoryConfig::default(),
        Arc::new(ApproximateCounter::default()),
    )
    .unwrap()
}

/// A user turn at `t` and the assistant's reply a second later.
pub(super) fn exchange(m: &mut Memory, user: &str, reply: &str, t: f64) {
    m.add(Role::User, user, NewEntry::default(), t).unwrap();
    m.add(Role::Assistant, reply, NewEntry::default(), t + 1.0)
        .unwrap();
}
