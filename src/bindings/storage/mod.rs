//! Storage backends behind one small interface: `memory` (this JS realm only; Node and tests),
//! `localstorage` (through gloo-storage) and `indexeddb`. Each stores a session's records and
//! its meta; the core decides what to write, a backend only how.

pub mod idb;
mod local;
mod memory_backend;
pub mod writer;

use crate::error::Result;
use crate::store::records::Stored;
use crate::store::{RecordOp, SessionMeta};

pub use crate::store::layout::StorageKind;

/// IndexedDB where the realm has it (browsers, workers), otherwise memory (Node).
pub fn default_here() -> StorageKind {
    match idb::available() {
        true => StorageKind::IndexedDb,
        false => StorageKind::Memory,
    }
}

/// A session as loaded: its meta and every record.
pub struct Loaded {
    pub meta: SessionMeta,
    pub records: Vec<Stored>,
}

pub enum Backend {
    Memory(memory_backend::MemoryBackend),
    Local(local::LocalBackend),
    Idb(idb::IdbBackend),
}

impl Backend {
    pub async fn connect(kind: StorageKind) -> Result<Backend> {
        Ok(match kind {
            StorageKind::Memory => Backend::Memory(memory_backend::MemoryBackend),
            StorageKind::LocalStorage => Backend::Local(local::LocalBackend::connect()?),
            StorageKind::IndexedDb => Backend::Idb(idb::IdbBackend::connect().await?),
        })
    }

    pub async fn load(&self, session: &str) -> Result<Option<Loaded>> {
        match self {
            Backend::Memory(b) => b.load(session),
            Backend::Local(b) => b.load(session),
            Backend::Idb(b) => b.load(session).await,
        }
    }

    /// Applies `ops` and stores `meta`; a backend with transactions does it atomically.
    pub async fn write(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        match self {
            Backend::Memory(b) => b.write(meta, ops),
            Backend::Local(b) => b.write(meta, ops),
            Backend::Idb(b) => b.write(meta, ops).await,
        }
    }

    /// Replaces the whole session with `ops` (an import): on failure the session is as it
    /// was before, with nothing of the new records in it.
    pub async fn replace(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        match self {
            Backend::Memory(b) => b.replace(meta, ops),
            Backend::Local(b) => b.replace(meta, ops),
            Backend::Idb(b) => b.replace(meta, ops).await,
        }
    }

    /// Every stored session's bookkeeping; the first damaged one is an error naming it.
    pub async fn sessions(&self) -> Result<Vec<SessionMeta>> {
        self.metas().await?.into_iter().collect()
    }

    /// Every stored session's bookkeeping, each read on its own: one damaged session does
    /// not hide the others.
    pub async fn metas(&self) -> Result<Vec<Result<SessionMeta>>> {
        match self {
            Backend::Memory(b) => b.metas(),
            Backend::Local(b) => b.metas(),
            Backend::Idb(b) => b.metas().await,
        }
    }

    pub async fn delete(&self, session: &str) -> Result<()> {
        match self {
            Backend::Memory(b) => b.delete(session),
            Backend::Local(b) => b.delete(session),
            Backend::Idb(b) => b.delete(session).await,
        }
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}
