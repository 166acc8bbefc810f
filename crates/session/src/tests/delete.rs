use super::{block_on, Log, MemoryStorage};
use crate::delete::{delete_session, deleted_on_server, ServerDelete};
use llm_memory_core::error::{Error, ErrorCode, Result};
use llm_memory_core::store::writer::Writer;
use llm_memory_core::store::SessionMeta;
use std::cell::RefCell;

struct Server {
    log: Log,
    fails: bool,
}

impl ServerDelete for Server {
    async fn delete_session(&self, session: &str) -> Result<()> {
        self.log.push(format!("server {session}"));
        match self.fails {
            true => Err(Error::new(ErrorCode::SyncFailed, "offline")),
            false => Ok(()),
        }
    }
}

fn stored(session: &str) -> MemoryStorage {
    let storage = MemoryStorage::default();
    let meta = SessionMeta::new(session, 0.0, None);
    storage
        .sessions
        .borrow_mut()
        .insert(session.into(), (meta, Vec::new()));
    storage
}

#[test]
fn deletes_here_then_tells_the_tabs_then_the_server() {
    let storage = stored("s");
    let server = Server {
        log: storage.log.clone(),
        fails: false,
    };
    block_on(delete_session(&storage, "s", Some(&server))).unwrap();
    assert_eq!(storage.log.take(), ["delete s", "announce s", "server s"]);
    assert!(storage.sessions.borrow().is_empty());
}

#[test]
fn a_failed_local_delete_tells_nobody() {
    let storage = stored("s");
    storage.failing.borrow_mut().insert("delete");
    let server = Server {
        log: storage.log.clone(),
        fails: false,
    };
    let e = block_on(delete_session(&storage, "s", Some(&server))).unwrap_err();
    assert_eq!(e.code, ErrorCode::StorageFailed);
    assert_eq!(storage.log.take(), ["delete s"]);
    assert!(storage.sessions.borrow().contains_key("s"));
}

#[test]
fn a_failed_server_delete_says_the_local_copy_is_gone() {
    let storage = stored("s");
    let server = Server {
        log: storage.log.clone(),
        fails: true,
    };
    let e = block_on(delete_session(&storage, "s", Some(&server))).unwrap_err();
    assert_eq!(e.code, ErrorCode::SyncFailed);
    assert!(
        e.message
            .contains("deleted on this device but not on the sync server: offline"),
        "{}",
        e.message
    );
    assert_eq!(storage.log.take(), ["delete s", "announce s", "server s"]);
}

#[test]
fn without_sync_only_here_and_the_tabs() {
    let storage = stored("s");
    block_on(delete_session(&storage, "s", None::<&Server>)).unwrap();
    assert_eq!(storage.log.take(), ["delete s", "announce s"]);
}

#[test]
fn a_session_the_server_deleted_stops_storing_then_goes_here_then_the_tabs_hear() {
    let storage = stored("s");
    let writer = RefCell::new(Writer::<u8>::default());
    block_on(deleted_on_server(&storage, &writer, "s")).unwrap();
    assert_eq!(storage.log.take(), ["delete s", "announce s"]);
    assert!(storage.sessions.borrow().is_empty());
    // Nothing is stored any more: a change after it finds the writer stopped.
    assert!(!writer.borrow_mut().add_changes(vec![
        llm_memory_core::store::RecordOp::DeleteKinds {
            kinds: vec!["entry".into()],
        }
    ]));

    let storage = stored("s");
    storage.failing.borrow_mut().insert("delete");
    let writer = RefCell::new(Writer::<u8>::default());
    assert!(block_on(deleted_on_server(&storage, &writer, "s")).is_err());
    assert_eq!(storage.log.take(), ["delete s"], "the tabs are not told");
    assert!(!writer.borrow_mut().add_changes(vec![
        llm_memory_core::store::RecordOp::DeleteKinds {
            kinds: vec!["entry".into()],
        }
    ]));
}
