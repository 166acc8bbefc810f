//! The storage a session lives in, as the operations here need it. The core decides the key
//! layout and what a failure means (`store::layout`, `store::failure`); a backend only stores.

use llm_memory_core::error::Result;
use llm_memory_core::store::layout::{Loaded, StorageKind};
use llm_memory_core::store::{RecordOp, SessionMeta};

/// One storage backend: `memory`, `localstorage` or `indexeddb` in the JS face.
#[allow(async_fn_in_trait)]
pub trait Storage {
    fn kind(&self) -> StorageKind;
    /// Every stored session's bookkeeping, each read on its own: one damaged session does not
    /// hide the others.
    async fn metas(&self) -> Result<Vec<Result<SessionMeta>>>;
    async fn load(&self, session: &str) -> Result<Option<Loaded>>;
    /// Applies `ops` and stores `meta`, atomically where the backend has transactions.
    async fn write(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()>;
    /// Replaces the whole session (an import): on failure it is as it was.
    async fn replace(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()>;
    async fn delete(&self, session: &str) -> Result<()>;
    /// Tells every tab that has `session` open (this one too) that it was deleted; nothing to
    /// tell for storage no other tab shares.
    fn announce_deleted(&self, session: &str);
}

/// The storage of `Memory.open` without a `storage` option: IndexedDB where the realm has it
/// (browsers, workers), otherwise memory (Node, where nothing persists unless the app passes
/// `storage` or exports). README says so under "Persistence".
pub fn default_storage(indexeddb_here: bool) -> StorageKind {
    match indexeddb_here {
        true => StorageKind::IndexedDb,
        false => StorageKind::Memory,
    }
}
