use super::block_on;
use crate::key_value::{KeyValue, KeyValueStorage, MemoryMap};
use crate::storage::Storage;
use llm_memory_core::error::ErrorCode;
use llm_memory_core::store::layout::StorageKind;
use llm_memory_core::store::records::Stored;
use llm_memory_core::store::{Record, RecordOp, SessionMeta};

fn put(kind: &str, id: &str, text: &str) -> RecordOp {
    RecordOp::Put(Record {
        kind: kind.into(),
        id: id.into(),
        order: 0.0,
        data: serde_json::json!({ "text": text }),
    })
}

fn storage(map: &MemoryMap) -> KeyValueStorage<MemoryMap> {
    KeyValueStorage::new(StorageKind::LocalStorage, map.clone(), Box::new(|_| {}))
}

fn ids(s: &impl Storage, session: &str) -> Vec<String> {
    let loaded = block_on(s.load(session)).unwrap();
    let mut ids: Vec<String> = loaded
        .map(|l| l.records.iter().map(|r| r.id().to_string()).collect())
        .unwrap_or_default();
    ids.sort();
    ids
}

#[test]
fn a_session_reads_back_as_written_and_others_stay_apart() {
    let map = MemoryMap::default();
    let s = storage(&map);
    let (a, ab) = (
        SessionMeta::new("a", 0.0, None),
        SessionMeta::new("a/b", 0.0, None),
    );
    block_on(s.write(&a, &[put("fact", "f1", "x"), put("fact", "f2", "y")])).unwrap();
    block_on(s.write(&ab, &[put("fact", "g1", "z")])).unwrap();
    assert_eq!(ids(&s, "a"), ["f1", "f2"]);
    let metas: Vec<String> = block_on(s.metas())
        .unwrap()
        .into_iter()
        .map(|m| m.unwrap().session)
        .collect();
    let mut metas = metas;
    metas.sort();
    assert_eq!(metas, ["a", "a/b"]);
    block_on(s.write(
        &a,
        &[RecordOp::Delete {
            kind: "fact".into(),
            id: "f1".into(),
        }],
    ))
    .unwrap();
    assert_eq!(ids(&s, "a"), ["f2"]);
    let clear = RecordOp::DeleteKinds {
        kinds: vec!["fact".into()],
    };
    block_on(s.write(&a, &[put("note", "n1", "k"), clear])).unwrap();
    assert_eq!(ids(&s, "a"), ["n1"]);
    block_on(s.delete("a")).unwrap();
    assert!(block_on(s.load("a")).unwrap().is_none());
    assert_eq!(
        ids(&s, "a/b"),
        ["g1"],
        "a slash in a name reaches no other session"
    );
}

#[test]
fn a_full_store_says_how_much_more_is_needed() {
    let map = MemoryMap::with_quota(400);
    let s = storage(&map);
    let meta = SessionMeta::new("s", 0.0, None);
    let big = "x".repeat(500);
    let e = block_on(s.write(&meta, &[put("fact", "f1", &big)])).unwrap_err();
    assert_eq!(e.code, ErrorCode::QuotaExceeded);
    assert!(e.message.contains("localStorage is full"), "{}", e.message);
}

#[test]
fn a_failed_replace_leaves_the_session_as_it_was() {
    let map = MemoryMap::with_quota(700);
    let s = storage(&map);
    let meta = SessionMeta::new("s", 0.0, None);
    block_on(s.write(&meta, &[put("fact", "old", "kept")])).unwrap();
    let before: Vec<(String, String)> = map.entries("");
    let new = [
        put("fact", "n1", &"y".repeat(200)),
        put("fact", "n2", &"z".repeat(400)),
    ];
    let e = block_on(s.replace(&meta, &new)).unwrap_err();
    assert_eq!(e.code, ErrorCode::QuotaExceeded);
    assert_eq!(
        map.entries(""),
        before,
        "nothing of the new session, all of the old"
    );
    // One that fits replaces it whole.
    block_on(s.replace(&meta, &[put("fact", "n1", "small")])).unwrap();
    assert_eq!(ids(&s, "s"), ["n1"]);
}

#[test]
fn a_damaged_record_names_itself_and_the_others_stay_readable() {
    let map = MemoryMap::default();
    let s = storage(&map);
    for name in ["good", "bad"] {
        block_on(s.write(
            &SessionMeta::new(name, 0.0, None),
            &[put("fact", "f1", "x")],
        ))
        .unwrap();
    }
    map.set("llm-memory/bad/r/fact/f1", "{not json").unwrap();
    let e = block_on(s.load("bad")).err().unwrap();
    assert_eq!(e.code, ErrorCode::CorruptStorage);
    assert!(
        e.message.contains("llm-memory/bad/r/fact/f1"),
        "{}",
        e.message
    );
    assert!(matches!(
        block_on(s.load("good")).unwrap().unwrap().records[..],
        [Stored::Other(_)]
    ));
}
