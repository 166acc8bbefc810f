//! `Memory.open` and `Memory.import`: the core's open job (`store::open_job`) run to its end
//! with the caller's I/O, then the session started in its order.
//!
//! Starting: the records the job wants sealed again are queued for storage first (stored
//! only, never pushed); then, with sync, the link is made from the stored sync records, the
//! first push is queued through it, and the first pull is awaited. A pull that says the
//! session is gone or the key is wrong refuses the open and stops the link; any other pull
//! failure (offline, a server error) leaves the session open, the link retrying later.

use crate::keys::{resolve_keys, Keys};
use crate::storage::Storage;
use llm_memory_core::error::Error;
use llm_memory_core::store::open_job::{
    first_pull_refuses, Bound, OpenAnswer, OpenJob, OpenStep, Reload,
};
use llm_memory_core::store::records::Stored;
use llm_memory_core::store::{Record, RecordOp};

/// What opening needs besides storage: the memory, the keys, the other tabs and sync.
#[allow(async_fn_in_trait)]
pub trait OpenIo {
    type Memory: Reload;
    type Key: Clone;
    type Error: From<Error>;
    type Storage: Storage;
    fn storage(&self) -> &Self::Storage;
    /// An empty memory with the caller's options.
    fn make_memory(&mut self) -> Result<Self::Memory, Self::Error>;
    /// Whether the session syncs (then it has a sync key).
    fn syncs(&self) -> bool;
    /// Whether `encrypt.key` was given.
    fn encrypts(&self) -> bool;
    async fn sync_key(&self) -> Result<Self::Key, Self::Error>;
    async fn encrypt_key(&self) -> Result<Self::Key, Self::Error>;
    /// Starts hearing the other tabs on the session's channel; what they store from now on is
    /// kept for the opened session.
    fn listen(&mut self);
    /// Decrypts loaded records with the rest key.
    async fn unseal(
        &self,
        key: &Self::Key,
        records: Vec<Stored>,
    ) -> llm_memory_core::error::Result<Vec<Stored>>;
    /// What a session sends first to sync (the sync crate's `first_push`).
    fn first_push(&self, records: Vec<Record>, now: f64) -> Vec<RecordOp>;
}

/// Runs the job's steps with `io` until the memory is bound to its stored session. An I/O
/// failure ends the job with that error, as it is.
pub async fn open_session<I: OpenIo>(
    mut job: OpenJob<I::Memory>,
    io: &mut I,
) -> Result<(Bound<I::Memory>, Keys<I::Key>), I::Error> {
    let mut keys = Keys {
        rest: None,
        sync: None,
    };
    let mut answer = OpenAnswer::Start;
    loop {
        answer = match job.step(answer)? {
            OpenStep::ListMetas => OpenAnswer::Metas(io.storage().metas().await),
            OpenStep::Delete(s) => OpenAnswer::Done(io.storage().delete(&s).await),
            OpenStep::Announce(s) => {
                io.storage().announce_deleted(&s);
                OpenAnswer::Done(Ok(()))
            }
            OpenStep::Prepare => {
                let memory = io.make_memory()?;
                let sync = io.syncs().then(|| io.sync_key());
                keys = resolve_keys(sync, io.encrypts().then(|| io.encrypt_key())).await?;
                let keyed = keys.rest.is_some();
                OpenAnswer::Prepared { memory, keyed }
            }
            OpenStep::Listen => {
                io.listen();
                OpenAnswer::Done(Ok(()))
            }
            OpenStep::Load => OpenAnswer::Loaded(io.storage().load(job.session()).await),
            OpenStep::OpenSealed(records) => OpenAnswer::Opened(match &keys.rest {
                Some(key) => io.unseal(key, records).await,
                None => Ok(records),
            }),
            OpenStep::WriteMeta(meta) => OpenAnswer::Done(io.storage().write(&meta, &[]).await),
            OpenStep::FirstPush(records, now) => OpenAnswer::Pushed(io.first_push(records, now)),
            OpenStep::Replace(meta, ops) => {
                OpenAnswer::Done(io.storage().replace(&meta, &ops).await)
            }
            OpenStep::Bind(bound) => return Ok((bound, keys)),
        };
    }
}

/// The opened session's writer and sync link, as starting needs them.
#[allow(async_fn_in_trait)]
pub trait Started {
    type Key;
    type Error;
    /// Queues records to store here only (sync bookkeeping, records sealed again).
    fn store_local(&self, ops: Vec<RecordOp>);
    /// Makes the sync link, its engine restored from the stored sync records.
    fn link(&self, key: Self::Key, stored: &[Record]);
    /// Queues records to store and push as if the memory had just made them.
    fn store_changes(&self, ops: Vec<RecordOp>);
    /// A sync cycle, awaited.
    async fn first_pull(&self) -> Result<(), Self::Error>;
    /// The coded error's code, if it has one.
    fn code(e: &Self::Error) -> Option<String>;
    /// Stops the link's timers and cycles.
    fn stop_link(&self);
}

/// Starts an opened session in its order (see the module's comment). `Err` is a refused
/// open: the caller drops the session.
pub async fn start_session<S: Started>(
    session: &S,
    reseal: Vec<RecordOp>,
    link: Option<Vec<Record>>,
    push: Vec<RecordOp>,
    sync_key: Option<S::Key>,
) -> Result<(), S::Error> {
    session.store_local(reseal);
    let (Some(stored), Some(key)) = (link, sync_key) else {
        return Ok(());
    };
    session.link(key, &stored);
    session.store_changes(push);
    match session.first_pull().await {
        Err(e) if first_pull_refuses(S::code(&e).as_deref()) => {
            session.stop_link();
            Err(e)
        }
        _ => Ok(()),
    }
}
