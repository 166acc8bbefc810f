//! Which key seals a session's records at rest. `encrypt.key` when given; otherwise the sync
//! key, so a synced session is never stored in the clear on a device that has its key. Each
//! key is resolved once: a passphrase costs a PBKDF2 derivation.

use std::future::Future;

/// The resolved keys of an opened session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keys<K> {
    /// Seals records at rest.
    pub rest: Option<K>,
    /// Seals sync records.
    pub sync: Option<K>,
}

/// Resolves the sync key (when syncing), then `encrypt.key` (when given); the rest key falls
/// back to the sync key. A failure of either ends the open with its error.
pub async fn resolve_keys<K: Clone, E>(
    sync: Option<impl Future<Output = Result<K, E>>>,
    encrypt: Option<impl Future<Output = Result<K, E>>>,
) -> Result<Keys<K>, E> {
    let sync = match sync {
        Some(resolving) => Some(resolving.await?),
        None => None,
    };
    let rest = match encrypt {
        Some(resolving) => Some(resolving.await?),
        None => sync.clone(),
    };
    Ok(Keys { rest, sync })
}
