//! One sync cycle — push what this device has not sent, pull the other devices' changes, then
//! rewrite the server's log after a forget — and what comes after it: the next cycle's timer,
//! backoff after a failure, which failures are reported, a session deleted on the server. All
//! of it over `Io` and `Local`, which the caller implements: HTTP, crypto and local storage
//! are the caller's, every decision is made here and tested natively against a scripted server.

use crate::backoff::retry_delay_ms;
use crate::protocol::{aad, classify, classify_pull, PushReply};
use crate::{Compaction, Response, SyncEngine, SyncOptions};
use llm_memory_core::error::{Error, ErrorCode, Result};
use llm_memory_core::store::{Record, RecordOp};
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Weak;

/// A server's answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpReply {
    /// 0 when the request did not reach the server.
    pub status: u16,
    pub text: String,
    /// `Retry-After`, in seconds.
    pub retry_after: Option<f64>,
}

/// What a cycle needs from the network and the key: the caller's HTTP and crypto.
#[allow(async_fn_in_trait)]
pub trait Io {
    /// One request to the sync server, with the user's token.
    async fn http(&self, method: &'static str, url: &str, body: Option<String>) -> HttpReply;
    /// Decrypts pulled records (`aads[i]` authenticates `datas[i]`); `place` says where, for
    /// a wrong key's message.
    async fn open(&self, aads: Vec<String>, datas: Vec<String>, place: &str)
        -> Result<Vec<String>>;
    /// Encrypts rewritten records.
    async fn seal(&self, aads: Vec<String>, plains: Vec<String>) -> Result<Vec<String>>;
    /// The time, in ms since the epoch.
    fn now(&self) -> f64;
}

/// What a link needs from the session's local store (the caller's writer implements it): a
/// link never writes storage itself.
pub trait Local {
    /// Stores sync bookkeeping (acknowledged records leaving the outbox, the cursor).
    fn store_local(&self, ops: Vec<RecordOp>);
    /// Applies other devices' changes to the memory and stores them with `local`.
    fn apply_pulled(&self, apply: Vec<RecordOp>, local: Vec<RecordOp>);
    /// Tells the app (`onError`).
    fn report(&self, e: &Error);
    /// The memory's records that merge on arrival (its vault), for a compaction.
    fn merged_records(&self) -> Vec<Record>;
    /// The server deleted the session (the schedule's `delete_here`): removes the local copy
    /// and stops storing; a failure is reported.
    fn deleted_on_server(&self) -> Pin<Box<dyn Future<Output = ()>>>;
}

/// A local store held weakly (a link outlives the memory it was made for): once it is gone,
/// what is asked of it is dropped and it holds no records.
impl<L: Local + ?Sized> Local for Weak<L> {
    fn store_local(&self, ops: Vec<RecordOp>) {
        if let Some(local) = self.upgrade() {
            local.store_local(ops);
        }
    }

    fn apply_pulled(&self, apply: Vec<RecordOp>, pulled: Vec<RecordOp>) {
        if let Some(local) = self.upgrade() {
            local.apply_pulled(apply, pulled);
        }
    }

    fn report(&self, e: &Error) {
        if let Some(local) = self.upgrade() {
            local.report(e);
        }
    }

    fn merged_records(&self) -> Vec<Record> {
        self.upgrade()
            .map(|local| local.merged_records())
            .unwrap_or_default()
    }

    fn deleted_on_server(&self) -> Pin<Box<dyn Future<Output = ()>>> {
        match self.upgrade() {
            Some(local) => local.deleted_on_server(),
            None => Box::pin(async {}),
        }
    }
}

/// Records moved since the instance opened: pushed, pulled, rewritten by compactions (what
/// `mem.sync()` resolves with, as `{ pushed, pulled, compacted }`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    pub pushed: usize,
    pub pulled: usize,
    pub compacted: usize,
}

impl Tally {
    /// What moved since `before`.
    pub fn since(self, before: Tally) -> Tally {
        Tally {
            pushed: self.pushed - before.pushed,
            pulled: self.pulled - before.pulled,
            compacted: self.compacted - before.compacted,
        }
    }
}

/// Why a cycle stopped.
#[derive(Debug, Clone, PartialEq)]
enum Failure {
    /// Try again after a delay (offline, server error, rate limit).
    Retry(Error, Option<f64>),
    /// Trying again cannot help (refused token, wrong key).
    Stop(Error),
    /// The session was deleted on the server.
    Deleted,
}

/// What to do after a cycle.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Synced: the next cycle in `ms` (0: only when asked).
    Synced { ms: f64 },
    /// Failed: the error for whoever asked, whether to tell `onError` (the first of a run of
    /// failures only), and when to try again (`None`: not by itself).
    Failed {
        error: Error,
        report: bool,
        retry_ms: Option<f64>,
    },
    /// The session was deleted on the server: delete it here too, and stop.
    Deleted(Error),
}

/// What a session's link keeps from one cycle to the next: its engine, what moved since the
/// instance opened and how many cycles failed in a row.
pub struct LinkState {
    pub engine: RefCell<SyncEngine>,
    pub options: SyncOptions,
    pub session: String,
    pub tally: Cell<Tally>,
    failures: Cell<u32>,
}

impl LinkState {
    pub fn new(options: SyncOptions, session: &str, engine: SyncEngine) -> LinkState {
        LinkState {
            engine: RefCell::new(engine),
            options,
            session: session.to_string(),
            tally: Cell::new(Tally::default()),
            failures: Cell::new(0),
        }
    }

    /// Packs fresh changes into encrypted sync records, as local records to store with them;
    /// nothing is sealed when none of them goes to the server.
    pub async fn pack<I: Io>(&self, io: &I, fresh: &[RecordOp]) -> Result<Vec<RecordOp>> {
        let outs = self.engine.borrow_mut().plan(fresh);
        if outs.is_empty() {
            return Ok(Vec::new());
        }
        let (aads, plains) = SyncEngine::to_seal(&self.session, &outs);
        let datas = io.seal(aads, plains).await?;
        Ok(self.engine.borrow().packed(&outs, datas, io.now()))
    }

    /// Runs one cycle over the caller's `io` and `local` (`Link::run`).
    pub async fn run<I: Io, L: Local + ?Sized>(&self, io: &I, local: &L, random: f64) -> Next {
        let link = Link {
            io,
            local,
            engine: &self.engine,
            options: &self.options,
            session: &self.session,
            tally: &self.tally,
            failures: &self.failures,
        };
        link.run(random).await
    }
}

/// A session's link to the server, as the cycle sees it.
pub struct Link<'a, I: Io, L: Local + ?Sized> {
    pub io: &'a I,
    pub local: &'a L,
    pub engine: &'a RefCell<SyncEngine>,
    pub options: &'a SyncOptions,
    pub session: &'a str,
    pub tally: &'a Cell<Tally>,
    /// Failed cycles in a row.
    pub failures: &'a Cell<u32>,
}

impl<I: Io, L: Local + ?Sized> Link<'_, I, L> {
    /// Runs one cycle and says what comes next; `random` in [0, 1) spreads the retries of
    /// many devices.
    pub async fn run(&self, random: f64) -> Next {
        let outcome = self.cycle().await;
        match outcome {
            Ok(()) => {
                self.failures.set(0);
                Next::Synced {
                    ms: self.options.interval_ms.max(0.0),
                }
            }
            Err(Failure::Retry(error, after)) => {
                let n = self.failures.get() + 1;
                self.failures.set(n);
                Next::Failed {
                    error,
                    report: n == 1,
                    retry_ms: Some(retry_delay_ms(n, random, after)),
                }
            }
            Err(Failure::Stop(error)) => Next::Failed {
                error,
                report: true,
                retry_ms: None,
            },
            Err(Failure::Deleted) => Next::Deleted(deleted_error(self.session)),
        }
    }

    async fn cycle(&self) -> std::result::Result<(), Failure> {
        self.push_all().await?;
        self.pull_all().await?;
        self.compact_if_due().await
    }

    fn count(&self, f: impl FnOnce(&mut Tally)) {
        let mut t = self.tally.get();
        f(&mut t);
        self.tally.set(t);
    }

    /// Pushes every unsent record, in batches; after a refusal without the refused record's
    /// id, one record at a time, so the one the server refuses is found and dropped.
    async fn push_all(&self) -> std::result::Result<(), Failure> {
        let url = self.options.records_url(self.session);
        let mut one_at_a_time = false;
        loop {
            let batch = {
                let engine = self.engine.borrow();
                let b = engine.next_push();
                match one_at_a_time {
                    true => b.and_then(|b| engine.single(&b)),
                    false => b,
                }
            };
            let Some(batch) = batch else {
                return Ok(());
            };
            let a = self.io.http("POST", &url, Some(batch.body.clone())).await;
            match classify::<PushReply>("push", a.status, &a.text, a.retry_after) {
                Response::Ok(reply) => {
                    let done = self.engine.borrow_mut().acked(&reply.acked);
                    if done.is_empty() {
                        let why = "push: the server acknowledged none of the records sent";
                        return Err(Failure::Retry(Error::new(ErrorCode::SyncFailed, why), None));
                    }
                    self.count(|t| t.pushed += done.len());
                    self.local.store_local(done);
                }
                Response::Deleted => return Err(Failure::Deleted),
                Response::Retry { error, after_ms } => return Err(Failure::Retry(error, after_ms)),
                Response::Refused { id, error } => {
                    if id.is_none() && batch.ids.len() > 1 {
                        one_at_a_time = true;
                        continue;
                    }
                    let dropped = self.engine.borrow_mut().refused(id.as_deref(), &batch);
                    if dropped.is_empty() {
                        return Err(Failure::Stop(error));
                    }
                    self.local.report(&error);
                    self.local.store_local(dropped);
                }
                Response::Fatal(e) => return Err(Failure::Stop(e)),
            }
        }
    }

    /// One page of the log after `after`, decrypted: `(id, seq, plaintext)`, and whether more
    /// follow.
    async fn read_page(
        &self,
        after: u64,
    ) -> std::result::Result<(Vec<(String, u64, String)>, bool), Failure> {
        let url = self.options.pull_url(self.session, after);
        let a = self.io.http("GET", &url, None).await;
        let page = match classify_pull(a.status, &a.text, a.retry_after) {
            Response::Ok(page) => page,
            Response::Deleted => return Err(Failure::Deleted),
            Response::Retry { error, after_ms } => return Err(Failure::Retry(error, after_ms)),
            Response::Refused { error, .. } | Response::Fatal(error) => {
                return Err(Failure::Stop(error))
            }
        };
        let aads = page
            .records
            .iter()
            .map(|r| aad(self.session, &r.id))
            .collect();
        let datas = page.records.iter().map(|r| r.data.clone()).collect();
        let place = format!("pulling session {:?} from the sync server", self.session);
        let plains = self
            .io
            .open(aads, datas, &place)
            .await
            .map_err(Failure::Stop)?;
        let items = page
            .records
            .iter()
            .zip(plains)
            .map(|(r, p)| (r.id.clone(), r.seq, p))
            .collect();
        Ok((items, page.more))
    }

    async fn pull_all(&self) -> std::result::Result<(), Failure> {
        loop {
            let after = self.engine.borrow().cursor();
            let (items, more) = self.read_page(after).await?;
            if items.is_empty() {
                return Ok(());
            }
            // Pulled records are stored in the order they arrive, after everything here.
            let accepted = self
                .engine
                .borrow_mut()
                .accept(&items, self.io.now())
                .map_err(Failure::Stop)?;
            self.count(|t| t.pulled += accepted.foreign);
            self.local.apply_pulled(accepted.apply, accepted.local);
            if !more || self.engine.borrow().cursor() <= after {
                return Ok(());
            }
        }
    }

    /// After a forget or clear reached the server: reads the log up to this device's cursor
    /// back, and has the server replace the batches that held superseded changes
    /// (`crate::compact`). A server that cannot compact (an older one, a refused rewrite) is
    /// reported once and the compaction is given up; the sync goes on.
    async fn compact_if_due(&self) -> std::result::Result<(), Failure> {
        let (mark, upto, unsent) = {
            let e = self.engine.borrow();
            (e.due_mark(), e.cursor(), e.unsent())
        };
        if mark == 0 || upto == 0 || unsent > 0 {
            return Ok(());
        }
        let mut log: Vec<(String, u64, String)> = Vec::new();
        loop {
            let after = log.last().map_or(0, |(_, seq, _)| *seq);
            let (items, more) = self.read_page(after).await?;
            let done = items.is_empty() || !more || items.iter().any(|(_, seq, _)| *seq >= upto);
            log.extend(items);
            if done {
                break;
            }
        }
        let merged = self.local.merged_records();
        let plan = self.engine.borrow().plan_compaction(&log, upto, &merged);
        let outcome = match plan {
            Ok(plan) => self.send_compaction(plan).await,
            Err(e) => Err(Failure::Stop(e)),
        };
        match outcome {
            Ok(()) => {}
            Err(Failure::Stop(e)) => self.local.report(&e),
            Err(other) => return Err(other),
        }
        let done = self.engine.borrow_mut().compacted(mark);
        if !done.is_empty() {
            self.local.store_local(done);
        }
        Ok(())
    }

    async fn send_compaction(&self, plan: Compaction) -> std::result::Result<(), Failure> {
        let (ids, plains): (Vec<String>, Vec<String>) = plan.rewrites.into_iter().unzip();
        let aads = ids.iter().map(|id| aad(self.session, id)).collect();
        let datas = self.io.seal(aads, plains).await.map_err(Failure::Stop)?;
        let rewrites: Vec<(String, String)> = ids.into_iter().zip(datas).collect();
        let url = self.options.compact_url(self.session);
        for body in crate::compact::compact_bodies(plan.upto, &rewrites) {
            let a = self.io.http("POST", &url, Some(body)).await;
            // Another device compacted further, from a later read: that covers this one.
            if a.status == 409 && a.text.contains("\"compact_stale\"") {
                return Ok(());
            }
            match classify::<serde_json::Value>("compact", a.status, &a.text, a.retry_after) {
                Response::Ok(reply) => {
                    let n = reply["rewritten"].as_u64().unwrap_or(0) as usize;
                    self.count(|t| t.compacted += n);
                }
                Response::Deleted => return Err(Failure::Deleted),
                Response::Retry { error, after_ms } => return Err(Failure::Retry(error, after_ms)),
                Response::Refused { error, .. } | Response::Fatal(error) => {
                    return Err(Failure::Stop(error))
                }
            }
        }
        Ok(())
    }
}

/// What the server's answer to `DELETE /v1/sessions/{sid}` (`Memory.delete` with `sync`)
/// means: gone on the server, so every device deletes it at its next pull. A session already
/// deleted there counts as done.
pub fn deleted_on_server(a: &HttpReply) -> Result<()> {
    if a.status == 404 || a.status == 410 {
        return Ok(());
    }
    match classify::<serde_json::Value>("delete", a.status, &a.text, a.retry_after) {
        Response::Ok(_) | Response::Deleted => Ok(()),
        Response::Retry { error, .. }
        | Response::Refused { error, .. }
        | Response::Fatal(error) => Err(error),
    }
}

/// The error of a session deleted on another device, for whoever waits on this one.
pub fn deleted_error(session: &str) -> Error {
    Error::new(
        ErrorCode::NotFound,
        format!(
            "session {session:?} was deleted on another device (or with Memory.delete): it was \
             removed here too and no longer syncs"
        ),
    )
}

/// The error for a sync asked of a link that stopped (closed, or the session deleted).
pub fn stopped_error(session: &str) -> Error {
    Error::new(
        ErrorCode::NotFound,
        format!("session {session:?} is closed or was deleted: it no longer syncs"),
    )
}
