//! The writer's loop as the face runs it, step by step: what starts it, what a write's outcome
//! does, who hears what, and what other tabs and devices send. The property test drives it with
//! random changes, flushes, failures and deletions, and checks the loop's promises.

use super::*;
use crate::error::ErrorCode;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn put(kind: &str, id: &str) -> RecordOp {
    RecordOp::Put(Record {
        kind: kind.into(),
        id: id.into(),
        order: 0.0,
        data: serde_json::json!(id),
    })
}

fn meta() -> SessionMeta {
    SessionMeta::new("chat", 0.0, None)
}

fn ids(ops: &[RecordOp]) -> Vec<String> {
    ops.iter()
        .filter_map(|op| match op {
            RecordOp::Put(r) => Some(r.id.clone()),
            _ => None,
        })
        .collect()
}

fn full() -> Error {
    Error::new(ErrorCode::QuotaExceeded, "full")
}

fn next(w: &mut Writer<u32>, fresh: Vec<RecordOp>) -> Option<Write> {
    w.next_write(fresh, &meta(), Some(3), Vec::new, 7.0)
}

#[test]
fn one_loop_runs_at_a_time_and_flush_callers_hear_when_it_stops() {
    let mut w = Writer::<u32>::default();
    assert!(w.start(), "idle: the face starts the loop");
    assert!(!w.start(), "running: the loop picks the change up");
    assert!(!w.flush_requested(1));
    assert!(w.add_local(vec![put("entry", "a")]));
    let write = next(&mut w, vec![put("entry", "b")]).unwrap();
    assert_eq!(ids(&write.ops), ["a", "b"]);
    assert_eq!((write.meta.turns, write.meta.updated_at), (3, 7.0));
    let Written::Stored {
        meta, broadcast, ..
    } = w.written(write.clone(), Ok(()))
    else {
        panic!("stored")
    };
    assert_eq!(meta, write.meta);
    assert!(broadcast.unwrap().contains("\"a\""));
    assert_eq!(next(&mut w, Vec::new()), None);
    assert_eq!(w.idle(), [(1, Ok(()))]);
    assert!(w.flush_requested(2), "stopped: a flush starts it again");
}

#[test]
fn a_failed_write_is_reported_and_its_batch_tried_first_next_time() {
    let mut w = Writer::<u32>::default();
    w.start();
    w.flush_requested(1);
    w.add_local(vec![put("entry", "a")]);
    let first = next(&mut w, Vec::new()).unwrap();
    w.add_local(vec![put("entry", "b")]);
    assert_eq!(w.written(first, Err(full())), Written::Failed(full()));
    assert_eq!(w.idle(), [(1, Err(full()))]);
    assert!(w.flush_requested(2));
    let again = next(&mut w, vec![put("entry", "c")]).unwrap();
    assert_eq!(ids(&again.ops), ["a", "b", "c"]);
    assert!(matches!(w.written(again, Ok(())), Written::Stored { .. }));
    assert_eq!(next(&mut w, Vec::new()), None);
    assert_eq!(w.idle(), [(2, Ok(()))]);
}

#[test]
fn only_sync_bookkeeping_is_not_told_to_the_tabs() {
    let mut w = Writer::<u32>::default();
    w.add_local(vec![put("sync-state", "cursor")]);
    let write = next(&mut w, Vec::new()).unwrap();
    let Written::Stored { broadcast, ops, .. } = w.written(write, Ok(())) else {
        panic!("stored")
    };
    assert_eq!((broadcast, ids(&ops)), (None, vec!["cursor".to_string()]));
}

#[test]
fn without_the_memory_the_stored_turn_count_stays() {
    let mut w = Writer::<u32>::default();
    let mut m = meta();
    m.turns = 9;
    let write = w.next_write(vec![put("entry", "a")], &m, None, Vec::new, 1.0);
    assert_eq!(write.unwrap().meta.turns, 9);
}

#[test]
fn another_tabs_changes_are_applied_and_told_its_deletion_detaches() {
    let mut w = Writer::<u32>::default();
    assert_eq!(
        w.heard(DELETED_MESSAGE, |_| unreachable!()),
        Arrived::Deleted
    );
    assert_eq!(w.heard("not json", |_| unreachable!()), Arrived::Nothing);
    let text = WriteQueue::broadcast(&[put("entry", "a"), put("sync-out", "x")]).unwrap();
    let mut applied = Vec::new();
    let arrived = w.heard(&text, |ops| {
        applied = ids(&ops);
        Some(Ok(()))
    });
    assert_eq!(applied, ["a"], "sync bookkeeping stays with its tab");
    let told = Arrived::Applied {
        changed: true,
        write: false,
    };
    assert_eq!(arrived, told);
    assert_eq!(
        w.heard(&text, |_| Some(Err(full()))),
        Arrived::Failed(full())
    );
    assert_eq!(w.heard(&text, |_| None), Arrived::Nothing, "memory freed");
}

#[test]
fn pulled_changes_go_to_the_memory_then_to_storage() {
    let mut w = Writer::<u32>::default();
    let arrived = w.pulled(Vec::new(), vec![put("sync-state", "cursor")], |_| {
        unreachable!("nothing to apply")
    });
    let quiet = Arrived::Applied {
        changed: false,
        write: true,
    };
    assert_eq!(arrived, quiet);
    let refused = w.pulled(vec![put("entry", "b")], Vec::new(), |_| Some(Err(full())));
    assert_eq!(refused, Arrived::Failed(full()));
    let arrived = w.pulled(
        vec![put("entry", "a")],
        vec![put("sync-state", "c2")],
        |_| Some(Ok(())),
    );
    let told = Arrived::Applied {
        changed: true,
        write: true,
    };
    assert_eq!(arrived, told);
    let write = next(&mut w, Vec::new()).unwrap();
    assert_eq!(
        ids(&write.ops),
        ["cursor", "a", "c2"],
        "the refused pull is not stored"
    );
    w.deleted_on_server("chat");
    let gone = w.pulled(vec![put("entry", "z")], Vec::new(), |_| unreachable!());
    assert_eq!(gone, Arrived::Nothing);
}

#[test]
fn a_write_that_ends_after_the_deletion_keeps_the_deletion_error() {
    let mut w = Writer::<u32>::default();
    w.start();
    w.add_local(vec![put("entry", "a")]);
    let write = next(&mut w, Vec::new()).unwrap();
    let e = w.deleted_elsewhere("chat");
    w.written(write, Ok(()));
    w.flush_requested(1);
    assert_eq!(next(&mut w, vec![put("entry", "b")]), None);
    assert_eq!(w.idle(), [(1, Err(e))]);
}

/// What the face and the app do, in a random order.
#[derive(Debug, Clone)]
enum Event {
    /// The memory changed (`local`: sync bookkeeping, straight to the queue).
    Change {
        local: bool,
    },
    Flush,
    /// The loop's next step; a write under way ends with `ok`.
    Step {
        ok: bool,
    },
    Deleted,
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        3 => any::<bool>().prop_map(|local| Event::Change { local }),
        2 => Just(Event::Flush),
        5 => any::<bool>().prop_map(|ok| Event::Step { ok }),
        1 => Just(Event::Deleted),
    ]
}

/// The face's loop, one step per `Step`, with what each side saw.
#[derive(Default)]
struct Face {
    writer: Writer<u32>,
    task: bool,
    writing: Option<Write>,
    next_id: u32,
    asked: u32,
    answers: BTreeMap<u32, Vec<Result<()>>>,
    stored: Vec<String>,
    added: Vec<String>,
    gone: bool,
}

impl Face {
    fn start(&mut self, wanted: bool) {
        if wanted {
            let start = self.writer.start();
            self.spawn(start);
        }
    }

    fn spawn(&mut self, start: bool) {
        if start {
            assert!(!self.task, "a second loop started while one runs");
            self.task = true;
        }
    }

    fn run(&mut self, e: Event) {
        match e {
            Event::Change { local } => {
                self.next_id += 1;
                let id = format!("{}{}", if local { "l" } else { "c" }, self.next_id);
                let op = vec![put("entry", &id)];
                let wanted = match local {
                    true => self.writer.add_local(op),
                    false => self.writer.add_changes(op),
                };
                if wanted {
                    self.added.push(id);
                }
                self.start(wanted);
            }
            Event::Flush => {
                self.asked += 1;
                let start = self.writer.flush_requested(self.asked);
                self.spawn(start);
            }
            Event::Step { ok } => self.step(ok),
            Event::Deleted => {
                self.writer.deleted_elsewhere("chat");
                self.gone = true;
            }
        }
    }

    fn step(&mut self, ok: bool) {
        if !self.task {
            return;
        }
        let stop = match self.writing.take() {
            None => {
                let fresh = self.writer.take_unsynced();
                match self.writer.next_write(fresh, &meta(), None, Vec::new, 0.0) {
                    Some(w) => {
                        self.writing = Some(w);
                        false
                    }
                    None => true,
                }
            }
            Some(w) => {
                let batch = ids(&w.ops);
                match self
                    .writer
                    .written(w, if ok { Ok(()) } else { Err(full()) })
                {
                    Written::Stored { .. } => {
                        self.stored.extend(batch);
                        false
                    }
                    Written::Failed(_) => true,
                }
            }
        };
        if stop {
            self.task = false;
            let unstored = self.added.len() > self.stored.len();
            for (waiter, outcome) in self.writer.idle() {
                assert_eq!(outcome.is_err(), unstored || self.gone, "{outcome:?}");
                self.answers.entry(waiter).or_default().push(outcome);
            }
        }
    }
}

proptest! {
    #[test]
    fn the_loop_keeps_its_promises(events in proptest::collection::vec(event(), 0..60)) {
        let mut face = Face::default();
        for e in events {
            face.run(e);
        }
        // Writes succeed from now on, and a last `flush()` runs the loop dry.
        face.run(Event::Flush);
        for _ in 0..10 {
            face.step(true);
        }
        prop_assert!(!face.task);
        // Every flush caller heard exactly once.
        for waiter in 1..=face.asked {
            prop_assert_eq!(face.answers.get(&waiter).map(Vec::len), Some(1));
        }
        // Stored once each, in order within each kind, with nothing lost (until a deletion).
        let mut seen = face.stored.clone();
        seen.sort();
        seen.dedup();
        prop_assert_eq!(seen.len(), face.stored.len());
        for kind in ["l", "c"] {
            let of = |v: &[String]| -> Vec<u32> {
                v.iter().filter(|id| id.starts_with(kind)).map(|id| id[1..].parse().unwrap()).collect()
            };
            let stored = of(&face.stored);
            prop_assert!(stored.windows(2).all(|p| p[0] < p[1]), "reordered: {:?}", stored);
            if !face.gone {
                prop_assert_eq!(stored, of(&face.added));
            }
        }
    }
}
