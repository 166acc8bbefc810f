//! Two orders a caller could get wrong: `sync()` stores first (what the memory holds but has
//! not stored yet would otherwise miss the cycle, being packed for sync only when stored), and
//! a forget receipt resolves only after the store (its `stored` says whether storage has the
//! erasure, which is what a user deleting personal data needs to know).

use std::future::Future;

/// Stores, then runs a sync cycle; a failed store ends it with that error, no cycle run.
pub async fn sync_now<F, T, E, C: Future<Output = Result<T, E>>>(
    flush: impl Future<Output = Result<F, E>>,
    cycle: impl FnOnce() -> C,
) -> Result<T, E> {
    flush.await?;
    cycle().await
}

/// Whether the store after an erasure took it.
#[derive(Debug, PartialEq, Eq)]
pub struct Stored<E> {
    pub stored: bool,
    pub error: Option<E>,
}

/// Waits for the store that follows an erasure; its failure is part of the receipt, not an
/// error of `forget` (the memory has already forgotten).
pub async fn receipt_after<T, E>(flush: impl Future<Output = Result<T, E>>) -> Stored<E> {
    match flush.await {
        Ok(_) => Stored {
            stored: true,
            error: None,
        },
        Err(e) => Stored {
            stored: false,
            error: Some(e),
        },
    }
}
