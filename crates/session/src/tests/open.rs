use super::{block_on, Log, MemoryStorage};
use crate::open::{open_session, start_session, OpenIo, Started};
use llm_memory_core::error::{Error, ErrorCode, Result};
use llm_memory_core::store::open_job::{OpenJob, Reload};
use llm_memory_core::store::records::{Stored, SEALED_FIELD};
use llm_memory_core::store::{Record, RecordOp, SessionMeta};

/// A memory that keeps what it was given.
#[derive(Debug, Default)]
struct Fake(Vec<Stored>);

impl Reload for Fake {
    fn reload(&mut self, records: Vec<Stored>) -> Result<()> {
        self.0 = records;
        Ok(())
    }
    fn all_records(&self) -> Vec<Record> {
        Vec::new()
    }
    fn turns(&self) -> usize {
        self.0.len()
    }
    fn track_changes(&mut self) {}
}

struct Io {
    storage: MemoryStorage,
    sync: bool,
    encrypt: bool,
}

impl OpenIo for Io {
    type Memory = Fake;
    type Key = &'static str;
    type Error = Error;
    type Storage = MemoryStorage;
    fn storage(&self) -> &MemoryStorage {
        &self.storage
    }
    fn make_memory(&mut self) -> Result<Fake> {
        self.storage.log.push("make memory");
        Ok(Fake::default())
    }
    fn syncs(&self) -> bool {
        self.sync
    }
    fn encrypts(&self) -> bool {
        self.encrypt
    }
    async fn sync_key(&self) -> Result<&'static str> {
        self.storage.log.push("sync key");
        Ok("sync")
    }
    async fn encrypt_key(&self) -> Result<&'static str> {
        self.storage.log.push("encrypt key");
        Ok("encrypt")
    }
    fn listen(&mut self) {
        self.storage.log.push("listen");
    }
    async fn unseal(&self, key: &&'static str, records: Vec<Stored>) -> Result<Vec<Stored>> {
        self.storage.log.push(format!("unseal with {key}"));
        Ok(records)
    }
    fn first_push(&self, records: Vec<Record>, _now: f64) -> Vec<RecordOp> {
        records.into_iter().map(RecordOp::Put).collect()
    }
}

fn io(sync: bool, encrypt: bool) -> Io {
    Io {
        storage: MemoryStorage::default(),
        sync,
        encrypt,
    }
}

fn sealed_session(storage: &MemoryStorage) {
    let record = Record {
        kind: "fact".into(),
        id: "f1".into(),
        order: 0.0,
        data: serde_json::json!({ SEALED_FIELD: "AAAA" }),
    };
    let meta = SessionMeta::new("s", 0.0, None);
    let stored = vec![Stored::Other(record)];
    storage
        .sessions
        .borrow_mut()
        .insert("s".into(), (meta, stored));
}

#[test]
fn keys_are_ready_and_the_tabs_heard_before_the_session_is_read() {
    let mut io = io(true, true);
    sealed_session(&io.storage);
    let job = OpenJob::open("s", None, true, 10.0);
    let (_bound, keys) = block_on(open_session(job, &mut io)).unwrap();
    assert_eq!((keys.rest, keys.sync), (Some("encrypt"), Some("sync")));
    let log = io.storage.log.take();
    let at = |what: &str| {
        log.iter()
            .position(|l| l == what)
            .unwrap_or_else(|| panic!("{what} in {log:?}"))
    };
    assert!(at("metas ") < at("make memory"));
    assert!(at("sync key") < at("encrypt key"));
    assert!(at("encrypt key") < at("listen"));
    assert!(at("listen") < at("load s"));
    assert!(at("load s") < at("unseal with encrypt"));
}

#[test]
fn the_sync_key_unseals_when_no_encrypt_key_is_given() {
    let mut io = io(true, false);
    sealed_session(&io.storage);
    block_on(open_session(OpenJob::open("s", None, true, 10.0), &mut io)).unwrap();
    assert!(io
        .storage
        .log
        .take()
        .contains(&"unseal with sync".to_string()));
}

#[test]
fn a_failed_load_ends_the_open_with_its_error() {
    let mut io = io(false, false);
    io.storage.failing.borrow_mut().insert("load");
    let e = block_on(open_session(OpenJob::open("s", None, false, 10.0), &mut io)).unwrap_err();
    assert_eq!(e.code, ErrorCode::StorageFailed);
    assert!(!io.storage.log.take().iter().any(|l| l.starts_with("write")));
}

/// The opened session's writer and link, writing down what it is asked.
struct Session {
    log: Log,
    pull: Option<ErrorCode>,
}

impl Started for Session {
    type Key = &'static str;
    type Error = Error;
    fn store_local(&self, ops: Vec<RecordOp>) {
        self.log.push(format!("store local {}", ops.len()));
    }
    fn link(&self, key: &'static str, stored: &[Record]) {
        self.log
            .push(format!("link with {key} from {}", stored.len()));
    }
    fn store_changes(&self, ops: Vec<RecordOp>) {
        self.log.push(format!("store and push {}", ops.len()));
    }
    async fn first_pull(&self) -> Result<()> {
        self.log.push("first pull");
        match self.pull {
            Some(code) => Err(Error::new(code, "pull failed")),
            None => Ok(()),
        }
    }
    fn code(e: &Error) -> Option<String> {
        Some(e.code.as_str().to_string())
    }
    fn stop_link(&self) {
        self.log.push("stop link");
    }
}

fn put(id: &str) -> RecordOp {
    RecordOp::Put(Record {
        kind: "fact".into(),
        id: id.into(),
        order: 0.0,
        data: serde_json::json!({}),
    })
}

fn start(pull: Option<ErrorCode>, synced: bool) -> (Result<()>, Vec<String>) {
    let session = Session {
        log: Log::default(),
        pull,
    };
    let (link, key) = match synced {
        true => (Some(Vec::new()), Some("sync")),
        false => (None, None),
    };
    let started = block_on(start_session(
        &session,
        vec![put("a")],
        link,
        vec![put("b"), put("c")],
        key,
    ));
    (started, session.log.take())
}

#[test]
fn a_session_starts_sealed_again_then_linked_then_pushed_then_pulled() {
    let (started, log) = start(None, true);
    assert!(started.is_ok());
    assert_eq!(
        log,
        [
            "store local 1",
            "link with sync from 0",
            "store and push 2",
            "first pull"
        ]
    );
}

#[test]
fn a_pull_that_finds_no_session_or_a_wrong_key_refuses_the_open() {
    for code in [ErrorCode::NotFound, ErrorCode::WrongKey] {
        let (started, log) = start(Some(code), true);
        assert_eq!(started.unwrap_err().code, code);
        assert_eq!(log.last().map(String::as_str), Some("stop link"));
    }
}

#[test]
fn an_offline_first_pull_leaves_the_session_open_and_linked() {
    let (started, log) = start(Some(ErrorCode::SyncFailed), true);
    assert!(started.is_ok());
    assert!(!log.contains(&"stop link".to_string()));
}

#[test]
fn without_sync_a_session_only_stores() {
    let (started, log) = start(None, false);
    assert!(started.is_ok());
    assert_eq!(log, ["store local 1"]);
}
