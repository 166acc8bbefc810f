//! The sessions' orderings and failure paths, against storage kept in memory and I/O that
//! writes down what it was asked, in order.

mod asset_cache;
mod delete;
mod flow;
mod key_value;
mod keys;
mod mailbox;
mod open;
mod tools;
mod turns;
mod write;

use crate::storage::Storage;
use llm_memory_core::error::{Error, ErrorCode, Result};
use llm_memory_core::store::layout::{Loaded, StorageKind};
use llm_memory_core::store::records::Stored;
use llm_memory_core::store::{RecordOp, SessionMeta};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::rc::Rc;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};

/// What was asked, in order, by every part of one test.
#[derive(Clone, Default)]
pub struct Log(Rc<RefCell<Vec<String>>>);

impl Log {
    pub fn push(&self, what: impl Into<String>) {
        self.0.borrow_mut().push(what.into());
    }
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut self.0.borrow_mut())
    }
}

/// Storage in memory: each session's bookkeeping and records; `failing` names the methods
/// that fail.
#[derive(Default)]
pub struct MemoryStorage {
    pub log: Log,
    pub sessions: RefCell<BTreeMap<String, (SessionMeta, Vec<Stored>)>>,
    pub failing: RefCell<BTreeSet<&'static str>>,
}

impl MemoryStorage {
    fn asked(&self, method: &'static str, session: &str) -> Result<()> {
        self.log.push(format!("{method} {session}"));
        match self.failing.borrow().contains(method) {
            true => Err(Error::new(
                ErrorCode::StorageFailed,
                format!("{method} failed"),
            )),
            false => Ok(()),
        }
    }
}

impl Storage for MemoryStorage {
    fn kind(&self) -> StorageKind {
        StorageKind::Memory
    }
    async fn metas(&self) -> Result<Vec<Result<SessionMeta>>> {
        self.asked("metas", "")?;
        let sessions = self.sessions.borrow();
        Ok(sessions.values().map(|(m, _)| Ok(m.clone())).collect())
    }
    async fn load(&self, session: &str) -> Result<Option<Loaded>> {
        self.asked("load", session)?;
        let sessions = self.sessions.borrow();
        Ok(sessions.get(session).map(|(meta, records)| Loaded {
            meta: meta.clone(),
            records: records.clone(),
        }))
    }
    async fn write(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        self.asked("write", &meta.session)?;
        let mut sessions = self.sessions.borrow_mut();
        let (m, records) =
            (sessions.entry(meta.session.clone())).or_insert_with(|| (meta.clone(), Vec::new()));
        *m = meta.clone();
        apply(records, ops);
        Ok(())
    }
    async fn replace(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        self.asked("replace", &meta.session)?;
        let mut records = Vec::new();
        apply(&mut records, ops);
        let mut sessions = self.sessions.borrow_mut();
        sessions.insert(meta.session.clone(), (meta.clone(), records));
        Ok(())
    }
    async fn delete(&self, session: &str) -> Result<()> {
        self.asked("delete", session)?;
        self.sessions.borrow_mut().remove(session);
        Ok(())
    }
    fn announce_deleted(&self, session: &str) {
        self.log.push(format!("announce {session}"));
    }
}

fn apply(records: &mut Vec<Stored>, ops: &[RecordOp]) {
    for op in ops {
        if let RecordOp::Put(r) = op {
            records.retain(|s| s.id() != r.id);
            records.push(Stored::Other(r.clone()));
        }
    }
}

/// Polls `f` to its end; every future here is ready or woken by another in the same test.
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let waker = noop_waker();
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

pub fn noop_waker() -> Waker {
    fn clone(p: *const ()) -> RawWaker {
        RawWaker::new(p, &VTABLE)
    }
    fn noop(_: *const ()) {}
    static VTABLE: RawWakerVTable = RawWakerVTable::new(clone, noop, noop, noop);
    // SAFETY: the vtable's functions do nothing with the null pointer.
    unsafe { Waker::from_raw(RawWaker::new(std::ptr::null(), &VTABLE)) }
}

/// A future that waits until its gate is opened.
#[derive(Clone, Default)]
pub struct Gate(Rc<std::cell::Cell<bool>>);

impl Gate {
    pub fn open(&self) {
        self.0.set(true);
    }
    pub async fn pass(&self) {
        std::future::poll_fn(|_| match self.0.get() {
            true => Poll::Ready(()),
            false => Poll::Pending,
        })
        .await
    }
}

/// Polls a future once.
pub fn poll_once<F: Future + ?Sized>(f: std::pin::Pin<&mut F>) -> Poll<F::Output> {
    let waker = noop_waker();
    f.poll(&mut Context::from_waker(&waker))
}
