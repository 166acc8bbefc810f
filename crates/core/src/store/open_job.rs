//! `Memory.open` and `Memory.import` as a job without I/O: it yields what it needs done next
//! (read the stored sessions' bookkeeping, delete one, load, decrypt, write, replace) and
//! decides from the answers what follows, up to the memory bound to its stored session. The
//! JS face (`src/bindings/memory_store.rs`) is a loop that runs each step and hands back the
//! answer; an I/O failure it answers with ends the job with that error, as it is.
//!
//! Opening removes the expired sessions first, then makes the memory and resolves the keys,
//! listens to the other tabs before loading (what they store meanwhile is not missed), loads,
//! decrypts, and lets `Opening` decide the rest: a new session's bookkeeping written once, a
//! first push to sync, clear records sealed again, the link. Importing loads to learn whether
//! the name is taken, stores the document in one step, and tells the tabs of the session it
//! replaced before it listens (or it would hear its own message).

use super::layout::Loaded;
use super::opening::{expired_sessions, split_sync, stored_already, Import, Opening};
use super::records::Stored;
use super::{Record, RecordOp, SessionDocument, SessionMeta};
use crate::error::{Error, ErrorCode, Result};

/// The memory a session opens into (the engine, `crate::memory::Memory`).
pub trait Reload {
    /// Loads stored records (sealed ones opened) into the empty memory.
    fn reload(&mut self, records: Vec<Stored>) -> Result<()>;
    /// Everything it holds, as records (a first push, a reseal, an import).
    fn all_records(&self) -> Vec<Record>;
    /// How many turns it holds (an import's bookkeeping).
    fn turns(&self) -> usize;
    /// From now on, record what changes, for the store to write.
    fn track_changes(&mut self);
}

/// What the job needs done next.
#[derive(Debug)]
pub enum OpenStep<M> {
    /// Read every stored session's bookkeeping (answer `Metas`).
    ListMetas,
    /// Delete a stored session (answer `Done`).
    Delete(String),
    /// Tell the tabs that have this session open that it was deleted (answer `Done`).
    Announce(String),
    /// Make the memory and resolve the keys (answer `Prepared`).
    Prepare,
    /// Listen to the other tabs on the session's channel (answer `Done`).
    Listen,
    /// Load the session (answer `Loaded`).
    Load,
    /// Decrypt what was loaded (answer `Opened`).
    OpenSealed(Vec<Stored>),
    /// Write a session's bookkeeping, without records (answer `Done`).
    WriteMeta(SessionMeta),
    /// What a session sends first to sync, from every record it holds and the time (answer
    /// `Pushed`, the sync crate's `first_push`).
    FirstPush(Vec<Record>, f64),
    /// Store a session in place of any stored under its name, in one step (answer `Done`).
    Replace(SessionMeta, Vec<RecordOp>),
    /// The end: bind the memory to its stored session.
    Bind(Bound<M>),
}

/// How the opened memory is bound to its stored session.
#[derive(Debug)]
pub struct Bound<M> {
    pub memory: M,
    pub meta: SessionMeta,
    /// Stored by a newer schema: readable, never written (the memory must record no changes).
    pub read_only: bool,
    /// Records to store again, sealed (stored only, not pushed).
    pub reseal: Vec<RecordOp>,
    /// With sync: link to the server, the engine reloaded from these sync records.
    pub link: Option<Vec<Record>>,
    /// Records to store and push as if the memory had just made them (the first push).
    pub push: Vec<RecordOp>,
}

/// The answer to the last step (`Start` before the first).
pub enum OpenAnswer<M> {
    Start,
    Done(Result<()>),
    Metas(Result<Vec<Result<SessionMeta>>>),
    /// The memory, and whether records are sealed at rest (a key was given).
    Prepared {
        memory: M,
        keyed: bool,
    },
    Loaded(Result<Option<Loaded>>),
    Opened(Result<Vec<Stored>>),
    Pushed(Vec<RecordOp>),
}

/// Where the job is: what it asked last, with what it keeps until the answer.
enum State<M> {
    /// `Memory.open`, nothing asked yet.
    Open,
    Sweeping,
    /// Deleting an expired session (`.1`); `.0` are left after it, last first.
    Deleting(Vec<String>, String),
    Announcing(Vec<String>),
    Preparing,
    Listening(M, bool),
    Loading(M, bool),
    Decrypting(M, Opening),
    WritingMeta(M, Opening, Vec<Record>),
    Pushing(M, Opening, Vec<Record>),
    /// `Memory.import` of a document created at `.2`, nothing asked yet.
    Import(M, ImportPlan, f64),
    /// Loading to learn whether the name is taken.
    Checking(M, ImportPlan, f64),
    Replacing(M, SessionMeta, bool),
    /// Replaced a stored session: its tabs hear it.
    Replaced(M, SessionMeta),
    ListeningImported(M, SessionMeta),
    Ended,
}

/// `Memory.import`'s options that decide how the document is stored.
#[derive(Debug, Clone)]
pub struct ImportPlan {
    /// Replaces the document's time to live when given.
    pub ttl_ms: Option<f64>,
    pub overwrite: bool,
    /// Where it goes, for the refusal's message.
    pub storage: String,
}

pub struct OpenJob<M> {
    session: String,
    ttl_ms: Option<f64>,
    sync: bool,
    now: f64,
    state: State<M>,
}

impl<M: Reload> OpenJob<M> {
    /// `Memory.open` of `session`, with sync or not, at `now`.
    pub fn open(session: &str, ttl_ms: Option<f64>, sync: bool, now: f64) -> Self {
        OpenJob {
            session: session.to_string(),
            ttl_ms,
            sync,
            now,
            state: State::Open,
        }
    }

    /// `Memory.import` of `doc`, its records already in `memory`.
    pub fn import(memory: M, doc: &SessionDocument, plan: ImportPlan, now: f64) -> Self {
        OpenJob {
            session: doc.session.clone(),
            ttl_ms: plan.ttl_ms.or(doc.ttl_ms),
            sync: false,
            now,
            state: State::Import(memory, plan, doc.created_at),
        }
    }

    pub fn session(&self) -> &str {
        &self.session
    }

    /// Takes the answer to the last step and says what comes next. An error ends the job:
    /// the open or import fails with it.
    pub fn step(&mut self, answer: OpenAnswer<M>) -> Result<OpenStep<M>> {
        use OpenAnswer as A;
        let state = std::mem::replace(&mut self.state, State::Ended);
        let (state, step) = match (state, answer) {
            (State::Open, A::Start) => (State::Sweeping, OpenStep::ListMetas),
            (State::Sweeping, A::Metas(metas)) => {
                let mut expired = expired_sessions(metas?, self.now);
                expired.reverse();
                next_expired(expired)
            }
            (State::Deleting(left, session), A::Done(done)) => {
                done?;
                (State::Announcing(left), OpenStep::Announce(session))
            }
            (State::Announcing(left), A::Done(_)) => next_expired(left),
            (State::Preparing, A::Prepared { memory, keyed }) => {
                (State::Listening(memory, keyed), OpenStep::Listen)
            }
            (State::Listening(memory, keyed), A::Done(_)) => {
                (State::Loading(memory, keyed), OpenStep::Load)
            }
            (State::Loading(memory, keyed), A::Loaded(loaded)) => {
                let loaded = loaded?;
                let found = loaded.as_ref().map(|l| (l.meta.clone(), &l.records[..]));
                let opening = Opening::of(found, &self.session, keyed, self.ttl_ms, self.now)?;
                let records = loaded.map(|l| l.records).unwrap_or_default();
                match keyed && !opening.new {
                    true => (
                        State::Decrypting(memory, opening),
                        OpenStep::OpenSealed(records),
                    ),
                    false => self.reload(memory, opening, records)?,
                }
            }
            (State::Decrypting(memory, opening), A::Opened(records)) => {
                self.reload(memory, opening, records?)?
            }
            (State::WritingMeta(memory, opening, sync_records), A::Done(done)) => {
                done?;
                self.push_or_bind(memory, opening, sync_records)
            }
            (State::Pushing(memory, opening, sync_records), A::Pushed(push)) => {
                self.bind(memory, opening, sync_records, push)
            }
            (State::Import(memory, plan, created_at), A::Start) => {
                (State::Checking(memory, plan, created_at), OpenStep::Load)
            }
            (State::Checking(memory, plan, created_at), A::Loaded(loaded)) => {
                let import = Import {
                    session: &self.session,
                    created_at,
                    ttl_ms: self.ttl_ms,
                    exists: stored_already(loaded.map(|l| l.is_some()))?,
                    overwrite: plan.overwrite,
                    storage: &plan.storage,
                };
                let (meta, ops) = import.plan(memory.turns(), memory.all_records(), self.now)?;
                let replacing = State::Replacing(memory, meta.clone(), import.exists);
                (replacing, OpenStep::Replace(meta, ops))
            }
            (State::Replacing(memory, meta, exists), A::Done(done)) => {
                done?;
                match exists {
                    true => {
                        let session = meta.session.clone();
                        (State::Replaced(memory, meta), OpenStep::Announce(session))
                    }
                    false => (State::ListeningImported(memory, meta), OpenStep::Listen),
                }
            }
            (State::Replaced(memory, meta), A::Done(_)) => {
                (State::ListeningImported(memory, meta), OpenStep::Listen)
            }
            (State::ListeningImported(mut memory, meta), A::Done(_)) => {
                memory.track_changes();
                let bound = Bound {
                    memory,
                    meta,
                    read_only: false,
                    reseal: Vec::new(),
                    link: None,
                    push: Vec::new(),
                };
                (State::Ended, OpenStep::Bind(bound))
            }
            _ => return Err(Error::new(ErrorCode::StorageFailed, OUT_OF_TURN)),
        };
        self.state = state;
        Ok(step)
    }

    /// The loaded records into the memory; then a new session's bookkeeping is written.
    fn reload(
        &self,
        mut memory: M,
        opening: Opening,
        records: Vec<Stored>,
    ) -> Result<(State<M>, OpenStep<M>)> {
        let (records, sync_records) = split_sync(records);
        memory.reload(records)?;
        if opening.new {
            let write = OpenStep::WriteMeta(opening.meta.clone());
            return Ok((State::WritingMeta(memory, opening, sync_records), write));
        }
        Ok(self.push_or_bind(memory, opening, sync_records))
    }

    /// With sync, a session that never synced from this device first packs what it holds.
    fn push_or_bind(
        &self,
        memory: M,
        mut opening: Opening,
        sync_records: Vec<Record>,
    ) -> (State<M>, OpenStep<M>) {
        if opening.first_push(self.sync, &sync_records) {
            let push = OpenStep::FirstPush(memory.all_records(), self.now);
            return (State::Pushing(memory, opening, sync_records), push);
        }
        self.bind(memory, opening, sync_records, Vec::new())
    }

    fn bind(
        &self,
        mut memory: M,
        opening: Opening,
        sync_records: Vec<Record>,
        push: Vec<RecordOp>,
    ) -> (State<M>, OpenStep<M>) {
        // A session a newer version stored is never written: what the memory changes while it
        // is open (a fact extracted, a vault value a redaction learned) stays in this tab.
        if !opening.read_only {
            memory.track_changes();
        }
        let reseal = opening.resealed(memory.all_records(), &sync_records);
        let bound = Bound {
            link: opening.links(self.sync).then_some(sync_records),
            memory,
            meta: opening.meta,
            read_only: opening.read_only,
            reseal,
            push,
        };
        (State::Ended, OpenStep::Bind(bound))
    }
}

/// The next expired session to delete (`left` is last first), or on with the opening.
fn next_expired<M>(mut left: Vec<String>) -> (State<M>, OpenStep<M>) {
    match left.pop() {
        Some(session) => (
            State::Deleting(left, session.clone()),
            OpenStep::Delete(session),
        ),
        None => (State::Preparing, OpenStep::Prepare),
    }
}

const OUT_OF_TURN: &str = "opening a session was answered out of turn";

/// Whether a failed first pull refuses the open (`code`: the error's): a session deleted on
/// the server, or records this key cannot read. Offline or any other failure, the local copy
/// opens as it is and the link retries (`onError` hears of the failure).
pub fn first_pull_refuses(code: Option<&str>) -> bool {
    let refusing = [ErrorCode::NotFound, ErrorCode::WrongKey];
    refusing.iter().any(|c| Some(c.as_str()) == code)
}

#[cfg(test)]
#[path = "open_job_tests.rs"]
mod tests;
