//! The open and import jobs against a scripted storage: what each step asks for, in what
//! order, and how the memory is bound at the end.

use super::*;
use crate::error::ErrorCode;
use crate::store::records::SEALED_FIELD;
use crate::store::SCHEMA_VERSION;
use proptest::prelude::*;

/// A memory that keeps what it was given.
#[derive(Debug, Default)]
struct Fake {
    restored: Vec<Stored>,
    tracking: bool,
}

impl Reload for Fake {
    fn reload(&mut self, records: Vec<Stored>) -> Result<()> {
        self.restored = records;
        Ok(())
    }

    fn all_records(&self) -> Vec<Record> {
        let other = |s: &Stored| match s {
            Stored::Other(r) => Some(r.clone()),
            _ => None,
        };
        self.restored.iter().filter_map(other).collect()
    }

    fn turns(&self) -> usize {
        self.restored.len()
    }

    fn track_changes(&mut self) {
        self.tracking = true;
    }
}

fn record(kind: &str, id: &str, sealed: bool) -> Stored {
    let data = match sealed {
        true => serde_json::json!({ SEALED_FIELD: "AAAA" }),
        false => serde_json::json!({ "text": "hi" }),
    };
    Stored::Other(Record {
        kind: kind.into(),
        id: id.into(),
        order: 0.0,
        data,
    })
}

/// What storage holds and answers.
#[derive(Debug, Clone, Default)]
struct World {
    /// Every stored session's bookkeeping (the opened one's too, or not).
    metas: Vec<SessionMeta>,
    /// The session opened: its bookkeeping and records.
    stored: Option<(SessionMeta, Vec<Stored>)>,
    keyed: bool,
    /// The step (as logged) whose I/O fails.
    fails: Option<&'static str>,
    /// Loading the session says it is damaged.
    damaged: bool,
}

const NOW: f64 = 1000.0;

fn meta(session: &str, created_at: f64, ttl_ms: Option<f64>) -> SessionMeta {
    SessionMeta::new(session, created_at, ttl_ms)
}

/// Runs a job against `world`: the steps it asked for, and how it ended.
fn drive(mut job: OpenJob<Fake>, world: &World) -> (Vec<String>, Result<Bound<Fake>>) {
    use OpenAnswer as A;
    let mut log: Vec<String> = Vec::new();
    let mut answer = A::Start;
    loop {
        let step = match job.step(answer) {
            Ok(step) => step,
            Err(e) => return (log, Err(e)),
        };
        let mut did = |what: &'static str, on: &str| -> Result<()> {
            log.push(format!("{what}{on}").trim_end().to_string());
            match world.fails == Some(what.trim_end()) {
                true => Err(Error::new(ErrorCode::StorageFailed, what)),
                false => Ok(()),
            }
        };
        answer = match step {
            OpenStep::ListMetas => {
                A::Metas(did("list", "").map(|()| world.metas.iter().cloned().map(Ok).collect()))
            }
            OpenStep::Delete(s) => A::Done(did("delete ", &s)),
            OpenStep::Announce(s) => A::Done(did("announce ", &s)),
            OpenStep::Prepare => {
                let _ = did("prepare", "");
                A::Prepared {
                    memory: Fake::default(),
                    keyed: world.keyed,
                }
            }
            OpenStep::Listen => A::Done(did("listen", "")),
            OpenStep::Load => A::Loaded(did("load", "").and_then(|()| {
                match world.damaged {
                    true => Err(Error::new(ErrorCode::CorruptStorage, "damaged")),
                    false => Ok(world
                        .stored
                        .clone()
                        .map(|(meta, records)| Loaded { meta, records })),
                }
            })),
            OpenStep::OpenSealed(records) => A::Opened(did("open sealed", "").map(|()| {
                let clear = |s: Stored| match s {
                    Stored::Other(r) => record(&r.kind, &r.id, false),
                    other => other,
                };
                records.into_iter().map(clear).collect()
            })),
            OpenStep::WriteMeta(m) => A::Done(did("write meta ", &m.session)),
            OpenStep::FirstPush(records, now) => {
                let _ = did("first push", "");
                assert_eq!(now, NOW);
                A::Pushed(records.into_iter().map(RecordOp::Put).collect())
            }
            OpenStep::Replace(m, _) => A::Done(did("replace ", &m.session)),
            OpenStep::Bind(bound) => return (log, Ok(bound)),
        };
    }
}

fn open(world: &World, sync: bool) -> (Vec<String>, Result<Bound<Fake>>) {
    drive(OpenJob::open("chat", None, sync, NOW), world)
}

fn stored(schema_version: u32, records: Vec<Stored>) -> Option<(SessionMeta, Vec<Stored>)> {
    let meta = SessionMeta {
        schema_version,
        ..meta("chat", 1.0, None)
    };
    Some((meta, records))
}

#[test]
fn a_new_session_is_written_once_after_the_memory_listens_and_loads() {
    let (log, bound) = open(&World::default(), false);
    assert_eq!(
        log,
        ["list", "prepare", "listen", "load", "write meta chat"]
    );
    let bound = bound.unwrap();
    assert_eq!(
        (bound.meta.session.as_str(), bound.read_only),
        ("chat", false)
    );
    assert!(bound.reseal.is_empty() && bound.link.is_none());
}

#[test]
fn expired_sessions_are_deleted_and_announced_before_anything_loads() {
    let world = World {
        metas: vec![
            meta("old", 0.0, Some(10.0)),
            meta("fresh", 0.0, Some(5000.0)),
            meta("older", 0.0, Some(1.0)),
            meta("kept", 0.0, None),
        ],
        stored: stored(SCHEMA_VERSION, vec![record("fact", "f1", false)]),
        ..World::default()
    };
    let (log, bound) = open(&world, false);
    assert_eq!(
        log,
        [
            "list",
            "delete old",
            "announce old",
            "delete older",
            "announce older",
            "prepare",
            "listen",
            "load"
        ]
    );
    assert_eq!(bound.unwrap().memory.restored.len(), 1);
}

#[test]
fn a_failed_step_ends_the_job_with_its_error() {
    let world = World {
        metas: vec![meta("old", 0.0, Some(10.0))],
        fails: Some("delete"),
        ..World::default()
    };
    let (log, bound) = open(&world, false);
    assert_eq!(log, ["list", "delete old"]);
    assert_eq!(bound.err().map(|e| e.code), Some(ErrorCode::StorageFailed));
    let world = World {
        fails: Some("write meta"),
        ..World::default()
    };
    assert!(open(&world, false).1.is_err());
}

#[test]
fn a_session_a_newer_version_stored_is_never_written_nor_linked() {
    let world = World {
        stored: stored(SCHEMA_VERSION + 1, vec![record("fact", "f1", false)]),
        keyed: true,
        ..World::default()
    };
    let (log, bound) = open(&world, true);
    assert_eq!(log, ["list", "prepare", "listen", "load", "open sealed"]);
    let bound = bound.unwrap();
    assert!(bound.read_only && !bound.memory.tracking);
    assert!(bound.reseal.is_empty() && bound.push.is_empty() && bound.link.is_none());
}

#[test]
fn an_encrypted_session_needs_its_key_and_clear_records_are_sealed_again() {
    let records = vec![record("fact", "f1", true), record("fact", "f2", false)];
    let mut world = World {
        stored: stored(SCHEMA_VERSION, records),
        ..World::default()
    };
    let (log, bound) = open(&world, false);
    assert_eq!(
        log.last().map(String::as_str),
        Some("load"),
        "nothing written"
    );
    assert_eq!(bound.err().map(|e| e.code), Some(ErrorCode::WrongKey));
    world.keyed = true;
    let bound = open(&world, false).1.unwrap();
    assert_eq!(bound.reseal.len(), 2, "every record, sealed");
    world.stored = stored(SCHEMA_VERSION, vec![record("fact", "f1", true)]);
    assert!(open(&world, false).1.unwrap().reseal.is_empty());
}

#[test]
fn a_session_that_never_synced_here_pushes_what_it_holds_once() {
    let mut world = World {
        stored: stored(SCHEMA_VERSION, vec![record("fact", "f1", false)]),
        keyed: true,
        ..World::default()
    };
    let (log, bound) = open(&world, true);
    assert_eq!(log.last().map(String::as_str), Some("first push"));
    let bound = bound.unwrap();
    assert_eq!((bound.push.len(), bound.reseal.len()), (1, 0));
    assert_eq!(bound.link, Some(Vec::new()));
    let cursor = record("sync-state", "cursor", false);
    world.stored = stored(SCHEMA_VERSION, vec![record("fact", "f1", false), cursor]);
    let (log, bound) = open(&world, true);
    assert!(!log.contains(&"first push".to_string()));
    let bound = bound.unwrap();
    assert!(bound.push.is_empty());
    assert_eq!(
        bound.memory.restored.len(),
        1,
        "sync records stay out of the memory"
    );
    assert_eq!(bound.link.map(|l| l.len()), Some(1));
}

#[test]
fn a_new_synced_session_is_written_then_pushed() {
    let (log, bound) = open(&World::default(), true);
    let tail = &log[log.len() - 2..];
    assert_eq!(tail, ["write meta chat", "first push"]);
    assert_eq!(bound.unwrap().push, Vec::new());
}

#[test]
fn a_first_pull_refuses_only_a_deleted_session_or_a_wrong_key() {
    assert!(first_pull_refuses(Some("NOT_FOUND")));
    assert!(first_pull_refuses(Some("WRONG_KEY")));
    assert!(!first_pull_refuses(Some("SYNC_FAILED")), "offline opens");
    assert!(!first_pull_refuses(Some("INVALID_OPTION")));
    assert!(!first_pull_refuses(None));
}

fn import(world: &World, overwrite: bool) -> (Vec<String>, Result<Bound<Fake>>) {
    let memory = Fake {
        restored: vec![record("entry", "e1", false)],
        ..Fake::default()
    };
    let plan = ImportPlan {
        ttl_ms: None,
        overwrite,
        storage: "indexeddb".into(),
    };
    let doc = SessionDocument {
        created_at: 3.0,
        ttl_ms: Some(9.0),
        ..SessionDocument::new(&meta("chat", 2.0, None), Vec::new())
    };
    drive(OpenJob::import(memory, &doc, plan, NOW), world)
}

#[test]
fn an_import_replaces_in_one_step_and_tells_the_old_session_s_tabs_first() {
    let (log, bound) = import(&World::default(), false);
    assert_eq!(log, ["load", "replace chat", "listen"]);
    let bound = bound.unwrap();
    let m = &bound.meta;
    assert_eq!((m.created_at, m.ttl_ms, m.turns), (3.0, Some(9.0), 1));
    assert!(!bound.read_only && bound.link.is_none() && bound.memory.tracking);
    let world = World {
        stored: stored(SCHEMA_VERSION, Vec::new()),
        ..World::default()
    };
    let (log, bound) = import(&world, false);
    assert_eq!(log, ["load"]);
    assert_eq!(bound.err().map(|e| e.code), Some(ErrorCode::InvalidOption));
    let (log, _) = import(&world, true);
    assert_eq!(log, ["load", "replace chat", "announce chat", "listen"]);
    let damaged = World {
        damaged: true,
        ..World::default()
    };
    let (log, _) = import(&damaged, true);
    assert_eq!(
        log.len(),
        4,
        "a damaged session is replaced like any: {log:?}"
    );
}

#[test]
fn an_answer_out_of_turn_ends_the_job() {
    let mut job: OpenJob<Fake> = OpenJob::open("chat", None, false, NOW);
    let e = job.step(OpenAnswer::Done(Ok(()))).unwrap_err();
    assert_eq!(e.message, OUT_OF_TURN);
}

fn any_record() -> impl Strategy<Value = Stored> {
    let kind = prop_oneof![
        Just("fact"),
        Just("entry"),
        Just("sync-out"),
        Just("sync-state")
    ];
    (kind, 0..1000u32, any::<bool>()).prop_map(|(k, id, sealed)| record(k, &id.to_string(), sealed))
}

fn any_world() -> impl Strategy<Value = World> {
    let ttl = prop_oneof![Just(None), (0.0..2000.0f64).prop_map(Some)];
    let metas = prop::collection::vec((0..5u8, ttl), 0..5).prop_map(|ms| {
        let name = |(i, (n, t)): (usize, (u8, Option<f64>))| meta(&format!("s{i}-{n}"), 0.0, t);
        ms.into_iter().enumerate().map(name).collect()
    });
    let records = prop::collection::vec(any_record(), 0..6);
    let stored = prop::option::of((any::<bool>(), records));
    (metas, stored, any::<bool>()).prop_map(|(metas, stored, keyed)| World {
        metas,
        stored: stored.and_then(|(newer, r)| stored_of(newer, r)),
        keyed,
        ..World::default()
    })
}

fn stored_of(newer: bool, records: Vec<Stored>) -> Option<(SessionMeta, Vec<Stored>)> {
    stored(SCHEMA_VERSION + u32::from(newer), records)
}

fn is_sealed(s: &Stored) -> bool {
    matches!(s, Stored::Other(r) if r.data.get(SEALED_FIELD).is_some())
}

proptest! {
    #[test]
    fn opening_follows_its_rules(world in any_world(), sync in any::<bool>()) {
        let (log, bound) = open(&world, sync);
        let at = |what: &str| log.iter().position(|l| l == what);
        let load = at("load").expect("every open loads");
        // Expired sessions go first, each deleted and announced once; no other is touched.
        let expired: Vec<String> = world.metas.iter()
            .filter(|m| m.is_expired(NOW))
            .flat_map(|m| [format!("delete {}", m.session), format!("announce {}", m.session)])
            .collect();
        prop_assert_eq!(&log[1..1 + expired.len()], &expired[..]);
        prop_assert!(at("listen").unwrap() < load);
        let writes = log.iter().filter(|l| l.starts_with("write meta")).count();
        let records = world.stored.as_ref().map(|(_, r)| r.clone()).unwrap_or_default();
        if !world.keyed && records.iter().any(is_sealed) {
            prop_assert_eq!(bound.err().map(|e| e.code), Some(ErrorCode::WrongKey));
            prop_assert_eq!(log.len(), load + 1, "a refused open changes nothing");
            return Ok(());
        }
        prop_assert_eq!(writes, usize::from(world.stored.is_none()), "a new session, once");
        let bound = bound.unwrap();
        let read_only = world.stored.as_ref().is_some_and(|(m, _)| m.schema_version > SCHEMA_VERSION);
        prop_assert_eq!(bound.read_only, read_only);
        prop_assert_eq!(bound.memory.tracking, !read_only);
        prop_assert_eq!(bound.link.is_some(), sync && !read_only);
        let synced = records.iter().any(|s| matches!(s, Stored::Other(r) if r.kind.starts_with("sync-")));
        let pushed = at("first push").is_some();
        prop_assert_eq!(pushed, sync && !read_only && !synced);
        if read_only || pushed {
            prop_assert!(bound.reseal.is_empty());
        }
        if bound.reseal.is_empty() && !read_only && !pushed && world.keyed {
            prop_assert!(records.iter().all(is_sealed));
        }
    }
}
