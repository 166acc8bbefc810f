//! A sync cycle against a scripted server: what it sends, what each answer makes it do next
//! (backoff, reports, one record at a time after a refusal, a deleted session), and that a
//! cycle over a reachable server leaves nothing unsent.

use super::{Device, Log};
use crate::cycle::{deleted_on_server, HttpReply, Io, Link, LinkState, Local, Next, Tally};
use crate::schedule::Schedule;
use crate::task::{run_task, TaskIo};
use crate::{SyncEngine, SyncOptions};
use llm_memory_core::error::{Error, ErrorCode, Result};
use llm_memory_core::memory::Persistence as _;
use llm_memory_core::store::{Record, RecordOp};
use llm_memory_core::{NewEntry, Role};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};

/// A server that answers from a script first, then as the protocol's log does.
#[derive(Default)]
struct Server {
    script: RefCell<VecDeque<HttpReply>>,
    log: RefCell<Log>,
    requests: RefCell<Vec<(String, Option<String>)>>,
    stored: RefCell<Vec<RecordOp>>,
    reports: RefCell<Vec<Error>>,
    /// What the link's task did, in order (timers, deletion, reports, answers).
    events: RefCell<Vec<String>>,
}

fn reply(status: u16, text: &str) -> HttpReply {
    HttpReply {
        status,
        text: text.into(),
        retry_after: None,
    }
}

impl Io for Server {
    async fn http(&self, method: &'static str, url: &str, body: Option<String>) -> HttpReply {
        self.requests
            .borrow_mut()
            .push((format!("{method} {url}"), body.clone()));
        if let Some(r) = self.script.borrow_mut().pop_front() {
            return r;
        }
        let mut log = self.log.borrow_mut();
        match (method, body) {
            ("POST", Some(body)) => {
                let acked: Vec<_> = log
                    .push(&body)
                    .into_iter()
                    .map(|a| serde_json::json!({ "id": a.id, "seq": a.seq }))
                    .collect();
                reply(200, &serde_json::json!({ "acked": acked }).to_string())
            }
            _ => {
                let after: u64 = url.rsplit('=').next().unwrap().parse().unwrap_or(0);
                let records: Vec<_> = log.records.iter().filter(|r| r.seq > after).collect();
                let page = serde_json::json!({ "records": records, "seq": log.records.len(), "more": false });
                reply(200, &page.to_string())
            }
        }
    }

    async fn open(
        &self,
        _aads: Vec<String>,
        datas: Vec<String>,
        _place: &str,
    ) -> Result<Vec<String>> {
        Ok(datas)
    }

    async fn seal(&self, _aads: Vec<String>, plains: Vec<String>) -> Result<Vec<String>> {
        Ok(plains)
    }

    fn now(&self) -> f64 {
        1.0
    }
}

impl Local for Server {
    fn store_local(&self, ops: Vec<RecordOp>) {
        self.stored.borrow_mut().extend(ops);
    }

    fn apply_pulled(&self, _apply: Vec<RecordOp>, local: Vec<RecordOp>) {
        self.stored.borrow_mut().extend(local);
    }

    fn report(&self, e: &Error) {
        self.events
            .borrow_mut()
            .push(format!("report {:?}", e.code));
        self.reports.borrow_mut().push(e.clone());
    }

    fn merged_records(&self) -> Vec<Record> {
        Vec::new()
    }

    fn deleted_on_server(&self) -> std::pin::Pin<Box<dyn Future<Output = ()>>> {
        self.events.borrow_mut().push("delete here".into());
        Box::pin(async {})
    }
}

/// Runs a future whose I/O is all answered at once (the scripted server never waits).
fn block_on<F: Future>(f: F) -> F::Output {
    fn noop(_: *const ()) {}
    fn clone(p: *const ()) -> RawWaker {
        RawWaker::new(p, &VTABLE)
    }
    static VTABLE: RawWakerVTable = RawWakerVTable::new(clone, noop, noop, noop);
    // SAFETY: the vtable's functions ignore the data pointer.
    let waker = unsafe { Waker::from_raw(RawWaker::new(std::ptr::null(), &VTABLE)) };
    let mut f = std::pin::pin!(f);
    match f.as_mut().poll(&mut Context::from_waker(&waker)) {
        Poll::Ready(v) => v,
        Poll::Pending => panic!("the scripted server answers at once"),
    }
}

struct Fixture {
    server: Server,
    engine: RefCell<SyncEngine>,
    options: SyncOptions,
    tally: Cell<Tally>,
    failures: Cell<u32>,
}

impl Fixture {
    /// A device with `turns` unsent turns, each in its own sync record.
    fn new(turns: usize) -> Fixture {
        let mut d = Device::new("a");
        for i in 0..turns {
            d.say(&format!("turn {i}"));
            d.store();
        }
        Fixture {
            server: Server::default(),
            engine: RefCell::new(d.sync),
            options: SyncOptions::new("https://sync.example.com", "token", Some(30_000.0), None)
                .unwrap(),
            tally: Cell::new(Tally::default()),
            failures: Cell::new(0),
        }
    }

    fn run(&self) -> Next {
        let link = Link {
            io: &self.server,
            local: &self.server,
            engine: &self.engine,
            options: &self.options,
            session: "chat",
            tally: &self.tally,
            failures: &self.failures,
        };
        block_on(link.run(0.5))
    }

    fn script(&self, replies: impl IntoIterator<Item = HttpReply>) {
        self.server.script.borrow_mut().extend(replies);
    }
}

#[test]
fn a_cycle_pushes_everything_then_pulls_and_waits_for_the_interval() {
    let f = Fixture::new(3);
    assert_eq!(f.run(), Next::Synced { ms: 30_000.0 });
    assert_eq!(f.engine.borrow().unsent(), 0);
    assert_eq!(f.tally.get().pushed, 3);
    let requests = f.server.requests.borrow();
    assert!(requests[0].0.starts_with("POST "), "{requests:?}");
    assert!(
        requests.last().unwrap().0.starts_with("GET "),
        "{requests:?}"
    );
    // The acknowledged records leave the outbox in local storage too.
    assert!(f
        .server
        .stored
        .borrow()
        .iter()
        .any(|op| matches!(op, RecordOp::Delete { .. })));
}

#[test]
fn failures_back_off_and_only_the_first_of_a_run_is_reported() {
    let f = Fixture::new(1);
    f.script([reply(503, ""), reply(0, "")]);
    let Next::Failed {
        report: true,
        retry_ms: Some(first),
        ..
    } = f.run()
    else {
        panic!("a server error is retried and reported");
    };
    let Next::Failed {
        report: false,
        retry_ms: Some(second),
        error,
    } = f.run()
    else {
        panic!("a second failure is retried, not reported again");
    };
    assert_eq!(error.code, ErrorCode::SyncFailed);
    assert!(second > first, "{first} then {second}");
    assert_eq!(f.run(), Next::Synced { ms: 30_000.0 });
    assert_eq!(f.failures.get(), 0);
}

#[test]
fn a_refused_token_stops_retrying() {
    let f = Fixture::new(1);
    f.script([reply(401, "")]);
    let Next::Failed {
        report: true,
        retry_ms: None,
        error,
    } = f.run()
    else {
        panic!("a refused token is not retried");
    };
    assert!(error.message.contains("sync.token"), "{}", error.message);
}

#[test]
fn a_refusal_without_an_id_sends_one_record_at_a_time_and_drops_the_refused_one() {
    let f = Fixture::new(3);
    let refused = reply(413, r#"{"code":"too_large","message":"too large"}"#);
    f.script([refused.clone(), refused]);
    assert_eq!(f.run(), Next::Synced { ms: 30_000.0 });
    let requests = f.server.requests.borrow();
    let records = |i: usize| -> usize {
        let body: serde_json::Value =
            serde_json::from_str(requests[i].1.as_ref().unwrap()).unwrap();
        body["records"].as_array().unwrap().len()
    };
    assert_eq!((records(0), records(1), records(2)), (3, 1, 1));
    // The one refused alone is dropped (and reported); the other two reach the server.
    assert_eq!(f.server.reports.borrow().len(), 1);
    assert_eq!(f.tally.get().pushed, 2);
    assert_eq!(f.engine.borrow().unsent(), 0);
}

#[test]
fn a_session_deleted_on_the_server_is_deleted_here() {
    let f = Fixture::new(0);
    f.script([reply(410, "")]);
    let Next::Deleted(e) = f.run() else {
        panic!("410 means deleted");
    };
    assert_eq!(e.code, ErrorCode::NotFound);
}

#[test]
fn deleting_a_session_the_server_no_longer_has_counts_as_done() {
    assert!(deleted_on_server(&reply(404, "")).is_ok());
    assert!(deleted_on_server(&reply(204, "")).is_ok());
    assert_eq!(
        deleted_on_server(&reply(503, "")).unwrap_err().code,
        ErrorCode::SyncFailed
    );
}

#[test]
fn packing_seals_only_what_goes_to_the_server() {
    let mut d = Device::new("a");
    let options = SyncOptions::new("https://sync.example.com", "token", None, None).unwrap();
    let server = Server::default();
    d.mem
        .add(Role::User, "hi", NewEntry::default(), 1.0)
        .unwrap();
    let fresh = d.mem.take_changes();
    let state = LinkState::new(options, "chat", d.sync);
    assert!(block_on(state.pack(&server, &[])).unwrap().is_empty());
    let packed = block_on(state.pack(&server, &fresh)).unwrap();
    assert!(!packed.is_empty());
    let sealed = |op: &RecordOp| matches!(op, RecordOp::Put(r) if r.order == 1.0);
    assert!(packed.iter().all(sealed), "stamped with the io's clock");
}

#[test]
fn a_store_that_is_gone_hears_nothing() {
    let server = std::rc::Rc::new(Server::default());
    let weak = std::rc::Rc::downgrade(&server);
    let put = || {
        vec![RecordOp::Delete {
            kind: "fact".into(),
            id: "1".into(),
        }]
    };
    weak.store_local(put());
    assert_eq!(server.stored.borrow().len(), 1);
    drop(server);
    weak.store_local(put());
    weak.apply_pulled(put(), put());
    weak.report(&Error::new(ErrorCode::SyncFailed, "offline"));
    assert!(weak.merged_records().is_empty());
    block_on(weak.deleted_on_server());
}

impl TaskIo for Server {
    type Waiter = u32;

    fn random(&self) -> f64 {
        0.5
    }
    fn arm(&self, ms: f64) {
        self.events.borrow_mut().push(format!("arm {ms}"));
    }
    fn disarm(&self) {
        self.events.borrow_mut().push("disarm".into());
    }
    fn answer(&self, waiter: u32, outcome: Result<Tally>) {
        let outcome = outcome.map(|t| t.pushed).map_err(|e| e.code);
        self.events
            .borrow_mut()
            .push(format!("answer {waiter} {outcome:?}"));
    }
}

impl Fixture {
    /// The link's task over this fixture, with `callers` asking first.
    fn task(self, callers: &[u32], schedule: &RefCell<Schedule<u32>>) -> Vec<String> {
        let state = LinkState::new(self.options.clone(), "chat", self.engine.into_inner());
        for &c in callers {
            schedule.borrow_mut().request(Some(c), state.tally.get());
        }
        block_on(run_task(&self.server, &state, &self.server, schedule));
        self.server.events.take()
    }
}

#[test]
fn the_task_clears_the_timer_before_a_cycle_and_answers_after_the_next_is_set() {
    let f = Fixture::new(2);
    let schedule = RefCell::new(Schedule::default());
    let events = f.task(&[7], &schedule);
    assert_eq!(events, ["disarm", "arm 30000", "answer 7 Ok(2)"]);
}

#[test]
fn a_deletion_on_the_server_is_done_here_before_it_is_told() {
    let f = Fixture::new(0);
    f.script([reply(410, "")]);
    let schedule = RefCell::new(Schedule::default());
    let events = f.task(&[1], &schedule);
    assert_eq!(
        events,
        [
            "disarm",
            "delete here",
            "report NotFound",
            "answer 1 Err(NotFound)"
        ]
    );
    assert!(schedule.borrow().is_stopped(), "no timer, no more cycles");
}

#[test]
fn callers_of_a_stopped_link_hear_the_stopped_error() {
    let f = Fixture::new(1);
    let schedule = RefCell::new(Schedule::default());
    schedule.borrow_mut().request(Some(3), Tally::default());
    schedule.borrow_mut().stop();
    let events = f.task(&[], &schedule);
    assert_eq!(events, ["answer 3 Err(NotFound)"]);
}
