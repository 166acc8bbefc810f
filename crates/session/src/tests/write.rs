use super::{block_on, Log};
use crate::write::{arrived, pump, WriterIo};
use llm_memory_core::error::{Error, ErrorCode, Result};
use llm_memory_core::store::writer::Arrived;
use llm_memory_core::store::writer::Write;
use llm_memory_core::store::{Record, RecordOp, SessionMeta, Writer};
use std::cell::RefCell;
use std::collections::VecDeque;

fn put(id: &str) -> RecordOp {
    RecordOp::Put(Record {
        kind: "entry".into(),
        id: id.into(),
        order: 1.0,
        data: serde_json::json!({ "id": id }),
    })
}

fn ids(ops: &[RecordOp]) -> String {
    let ids: Vec<&str> = ops
        .iter()
        .filter_map(|op| match op {
            RecordOp::Put(r) => Some(r.id.as_str()),
            _ => None,
        })
        .collect();
    ids.join(",")
}

/// A memory whose changes come in the batches of `changes` (one batch per ask), storage whose
/// writes fail while `failing`, and a sync link when `syncs`.
struct Session {
    log: Log,
    changes: RefCell<VecDeque<Vec<RecordOp>>>,
    /// Changes the memory makes while a write is under way (a burst during the await).
    during_store: RefCell<Vec<RecordOp>>,
    meta: RefCell<SessionMeta>,
    failing: RefCell<bool>,
    syncs: bool,
}

impl Session {
    fn new(changes: Vec<Vec<RecordOp>>, syncs: bool) -> Session {
        Session {
            log: Log::default(),
            changes: RefCell::new(changes.into()),
            during_store: RefCell::default(),
            meta: RefCell::new(SessionMeta::new("s", 0.0, None)),
            failing: RefCell::new(false),
            syncs,
        }
    }
}

impl WriterIo for Session {
    type Waiter = &'static str;

    fn memory_changes(&self) -> Vec<RecordOp> {
        self.changes.borrow_mut().pop_front().unwrap_or_default()
    }
    fn turns(&self) -> Option<usize> {
        Some(1)
    }
    fn records(&self) -> Vec<Record> {
        Vec::new()
    }
    fn meta(&self) -> SessionMeta {
        self.meta.borrow().clone()
    }
    fn now(&self) -> f64 {
        5.0
    }
    async fn pack_for_sync(&self, fresh: &[RecordOp]) -> Vec<RecordOp> {
        if !self.syncs || fresh.is_empty() {
            return Vec::new();
        }
        self.log.push(format!("pack {}", ids(fresh)));
        vec![RecordOp::Put(Record {
            kind: "sync-out".into(),
            id: format!("o-{}", ids(fresh)),
            order: 2.0,
            data: serde_json::json!({}),
        })]
    }
    async fn store(&self, write: &Write) -> Result<()> {
        self.log.push(format!("store {}", ids(&write.ops)));
        let during = std::mem::take(&mut *self.during_store.borrow_mut());
        if !during.is_empty() {
            self.changes.borrow_mut().push_back(during);
        }
        match *self.failing.borrow() {
            true => Err(Error::new(ErrorCode::StorageFailed, "disk full")),
            false => Ok(()),
        }
    }
    fn keep(&self, meta: SessionMeta) {
        self.log
            .push(format!("keep updated_at={}", meta.updated_at));
        *self.meta.borrow_mut() = meta;
    }
    fn tell_tabs(&self, message: &str) {
        let ops: Vec<RecordOp> = serde_json::from_str(message).unwrap();
        self.log.push(format!("tell tabs {}", ids(&ops)));
    }
    fn hand_to_sync(&self, ops: &[RecordOp]) {
        if self.syncs {
            self.log.push(format!("to sync {}", ids(ops)));
        }
    }
    fn report(&self, e: &Error) {
        self.log.push(format!("report {}", e.message));
    }
    fn answer(&self, waiter: &'static str, outcome: Result<()>) {
        let outcome = outcome.map_err(|e| e.message);
        self.log.push(format!("answer {waiter} {outcome:?}"));
    }
    fn start_pump(&self) {
        self.log.push("start pump");
    }
    fn stop_sync(&self) {
        self.log.push("stop sync");
    }
    fn tell_app(&self) {
        self.log.push("tell app");
    }
}

#[test]
fn each_write_is_stored_then_kept_then_told_then_synced() {
    let io = Session::new(vec![vec![put("e1"), put("e2")]], true);
    let writer = RefCell::new(Writer::default());
    assert!(writer.borrow_mut().flush_requested("flush"));
    block_on(pump(&io, &writer));
    assert_eq!(
        io.log.take(),
        [
            "pack e1,e2",
            "store e1,e2,o-e1,e2",
            "keep updated_at=5",
            "tell tabs e1,e2",
            "to sync e1,e2,o-e1,e2",
            "answer flush Ok(())",
        ]
    );
}

#[test]
fn changes_made_during_a_write_go_into_the_next_one() {
    let io = Session::new(vec![vec![put("e1")]], false);
    *io.during_store.borrow_mut() = vec![put("e2")];
    let writer = RefCell::new(Writer::<&str>::default());
    assert!(writer.borrow_mut().start());
    block_on(pump(&io, &writer));
    let log = io.log.take();
    let stores: Vec<&String> = log.iter().filter(|l| l.starts_with("store")).collect();
    assert_eq!(stores, ["store e1", "store e2"]);
    // The pump stopped: the next change starts it again.
    assert!(writer.borrow_mut().start());
}

#[test]
fn a_failed_write_is_reported_stops_the_pump_and_is_stored_first_next_time() {
    let io = Session::new(vec![vec![put("e1")], vec![put("e2")]], false);
    *io.failing.borrow_mut() = true;
    let writer = RefCell::new(Writer::default());
    assert!(writer.borrow_mut().flush_requested("first"));
    block_on(pump(&io, &writer));
    assert_eq!(
        io.log.take(),
        [
            "store e1",
            "report disk full",
            "answer first Err(\"disk full\")"
        ]
    );
    *io.failing.borrow_mut() = false;
    assert!(writer.borrow_mut().flush_requested("second"));
    block_on(pump(&io, &writer));
    assert_eq!(
        io.log.take(),
        [
            "store e1,e2",
            "keep updated_at=5",
            "tell tabs e1,e2",
            "answer second Ok(())"
        ]
    );
}

#[test]
fn changes_handed_in_are_packed_for_sync_before_the_memorys_own() {
    let io = Session::new(vec![vec![put("e2")]], true);
    let writer = RefCell::new(Writer::<&str>::default());
    assert!(writer.borrow_mut().add_changes(vec![put("e1")]));
    assert!(writer.borrow_mut().start());
    block_on(pump(&io, &writer));
    assert_eq!(io.log.take()[0], "pack e1,e2");
}

#[test]
fn nothing_to_store_answers_the_callers_at_once() {
    let io = Session::new(Vec::new(), true);
    let writer = RefCell::new(Writer::default());
    writer.borrow_mut().flush_requested("a");
    writer.borrow_mut().flush_requested("b");
    block_on(pump(&io, &writer));
    assert_eq!(io.log.take(), ["answer a Ok(())", "answer b Ok(())"]);
}

#[test]
fn a_deletion_elsewhere_stops_sync_then_storing_and_is_reported() {
    let io = Session::new(vec![vec![put("e1")]], true);
    let writer = RefCell::new(Writer::default());
    arrived(&io, &writer, Arrived::Deleted);
    let log = io.log.take();
    assert_eq!(log[0], "stop sync");
    assert!(
        log[1].starts_with("report ") && log[1].contains("deleted"),
        "{log:?}"
    );
    // Nothing is stored any more, and a flush hears why.
    assert!(writer.borrow_mut().flush_requested("flush"));
    block_on(pump(&io, &writer));
    let log = io.log.take();
    assert!(!log.iter().any(|l| l.starts_with("store")), "{log:?}");
    assert!(
        log.last().unwrap().starts_with("answer flush Err("),
        "{log:?}"
    );
}

#[test]
fn changes_from_elsewhere_are_stored_before_the_app_is_told() {
    let io = Session::new(Vec::new(), false);
    let writer = RefCell::new(Writer::<&str>::default());
    let applied = Arrived::Applied {
        changed: true,
        write: true,
    };
    arrived(&io, &writer, applied.clone());
    assert_eq!(io.log.take(), ["start pump", "tell app"]);
    // A pump runs already: it picks the changes up; the app is still told.
    arrived(&io, &writer, applied);
    assert_eq!(io.log.take(), ["tell app"]);
    let refused = Error::new(ErrorCode::CorruptStorage, "bad record");
    arrived(&io, &writer, Arrived::Failed(refused));
    assert_eq!(io.log.take(), ["report bad record"]);
}
