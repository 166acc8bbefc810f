//! Two devices and a server log, natively: the decisions of `SyncEngine` keep devices equal
//! through pushes that fail, offline writes, forgets and clears. The "server" here is a list
//! with the protocol's rules (sequence numbers, one copy per id); ciphertext is the identity.

use super::protocol::{self, PushAck, Response, WireRecord};
use super::*;
use llm_memory_core::memory::Memory;
use llm_memory_core::memory::Persistence as _;
use llm_memory_core::recall::facts::NewFact;
use llm_memory_core::store::RecordOp;
use llm_memory_core::{ApproximateCounter, MemoryConfig, NewEntry, Role};
use std::sync::Arc;

#[derive(Default)]
struct Log {
    records: Vec<WireRecord>,
}

impl Log {
    /// The protocol's push: idempotent per id (same bytes), all or nothing.
    fn push(&mut self, body: &str) -> Vec<PushAck> {
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        let mut acks = Vec::new();
        for r in v["records"].as_array().unwrap() {
            let (id, data) = (r["id"].as_str().unwrap(), r["data"].as_str().unwrap());
            let seq = match self.records.iter().find(|x| x.id == id) {
                Some(x) => {
                    assert_eq!(x.data, data, "same id pushed with other bytes");
                    x.seq
                }
                None => {
                    let seq = self.records.len() as u64 + 1;
                    self.records.push(WireRecord {
                        id: id.into(),
                        seq,
                        data: data.into(),
                    });
                    seq
                }
            };
            acks.push(PushAck { id: id.into(), seq });
        }
        acks
    }
}

struct Device {
    mem: Memory,
    sync: SyncEngine,
    /// What local storage holds of the sync kinds (for a "reload").
    stored: Vec<RecordOp>,
    clock: f64,
}

impl Device {
    fn new(prefix: &str) -> Device {
        let mut mem = Memory::new(
            MemoryConfig::default(),
            Arc::new(ApproximateCounter::default()),
        )
        .unwrap();
        mem.set_id_prefix(prefix);
        mem.track_changes();
        Device {
            mem,
            sync: SyncEngine::new(&format!("{prefix}s")),
            stored: Vec::new(),
            clock: 0.0,
        }
    }

    fn tick(&mut self) -> f64 {
        self.clock += 1.0;
        self.clock
    }

    fn say(&mut self, text: &str) -> String {
        let now = self.tick();
        let id = self
            .mem
            .add(Role::User, text, NewEntry::default(), now)
            .unwrap();
        self.store();
        id
    }

    /// What the writer does after taking the memory's changes.
    fn store(&mut self) {
        let outs = self.plan_changes();
        self.store_planned(outs);
    }

    /// The writer's first step: the memory's changes packed into sync batches, not stored yet.
    fn plan_changes(&mut self) -> Vec<Outgoing> {
        let ops = self.mem.take_changes();
        self.sync.plan(&ops)
    }

    /// The writer's second step: the batches stored, now waiting in the outbox.
    fn store_planned(&mut self, outs: Vec<Outgoing>) {
        for out in outs {
            let order = self.tick();
            let local = self.sync.stored_records(&out, out.plain.clone(), order);
            self.sync.note_stored(&local);
            self.stored.extend(local);
        }
    }

    fn push(&mut self, log: &mut Log, reachable: bool) -> usize {
        let mut n = 0;
        while let Some(batch) = self.sync.next_push() {
            if !reachable {
                return n;
            }
            let acks = log.push(&batch.body);
            n += acks.len();
            let done = self.sync.acked(&acks);
            self.stored.extend(done);
        }
        n
    }

    fn pull(&mut self, log: &Log) -> usize {
        let page: Vec<(String, u64, String)> = log
            .records
            .iter()
            .filter(|r| r.seq > self.sync.cursor())
            .map(|r| (r.id.clone(), r.seq, r.data.clone()))
            .collect();
        let order = self.tick();
        let pulled = self.sync.accept(&page, order).unwrap();
        self.mem.apply_remote(pulled.apply).unwrap();
        self.stored.extend(pulled.local);
        pulled.foreign
    }

    fn sync(&mut self, log: &mut Log) {
        self.push(log, true);
        self.pull(log);
    }

    fn texts(&self) -> Vec<String> {
        self.mem
            .entries()
            .iter()
            .map(|e| e.content.clone())
            .collect()
    }

    fn fact_texts(&mut self) -> Vec<String> {
        let mut t: Vec<String> = self
            .mem
            .facts()
            .iter()
            .filter(|f| f.status == llm_memory_core::recall::facts::FactStatus::Active)
            .map(|f| f.text.clone())
            .collect();
        t.sort();
        t
    }

    /// The sync records as local storage holds them after these writes and deletes.
    fn stored_sync_records(&self) -> Vec<llm_memory_core::store::Record> {
        let mut map: std::collections::BTreeMap<(String, String), llm_memory_core::store::Record> =
            Default::default();
        for op in &self.stored {
            match op {
                RecordOp::Put(r) => {
                    map.insert((r.kind.clone(), r.id.clone()), r.clone());
                }
                RecordOp::Delete { kind, id } => {
                    map.remove(&(kind.clone(), id.clone()));
                }
                RecordOp::DeleteKinds { .. } => {}
            }
        }
        map.into_values().collect()
    }
}

#[test]
fn two_devices_exchange_turns_and_facts_and_converge() {
    let mut log = Log::default();
    let (mut a, mut b) = (Device::new("a-"), Device::new("b-"));
    a.say("hello from a");
    b.say("hello from b");
    let now = a.tick();
    a.mem
        .remember("The user lives in Porto", NewFact::default(), now)
        .unwrap();
    a.store();
    a.sync(&mut log);
    b.sync(&mut log);
    a.sync(&mut log);
    assert_eq!(a.texts(), b.texts());
    assert_eq!(a.texts().len(), 2);
    assert_eq!(b.fact_texts(), vec!["The user lives in Porto".to_string()]);
    assert_eq!(a.sync.unsent(), 0);
    assert_eq!(b.sync.unsent(), 0);
}

#[test]
fn an_offline_device_loses_nothing_and_doubles_nothing() {
    let mut log = Log::default();
    let (mut a, mut b) = (Device::new("a-"), Device::new("b-"));
    a.say("before");
    a.sync(&mut log);
    b.sync(&mut log);
    // a goes offline: three pushes fail.
    for i in 0..3 {
        a.say(&format!("offline {i}"));
        assert_eq!(a.push(&mut log, false), 0);
    }
    b.say("meanwhile on b");
    b.sync(&mut log);
    assert_eq!(a.sync.unsent(), 3);
    // Back online; the first acknowledgement is lost on the way, so everything is sent again.
    let batch = a.sync.next_push().unwrap();
    log.push(&batch.body);
    assert_eq!(
        a.sync.next_push().unwrap().body,
        batch.body,
        "a retry sends the same bytes"
    );
    a.sync(&mut log);
    b.sync(&mut log);
    assert_eq!(a.texts(), b.texts());
    let mut texts = a.texts();
    texts.sort();
    assert_eq!(
        texts,
        [
            "before",
            "meanwhile on b",
            "offline 0",
            "offline 1",
            "offline 2"
        ]
    );
    assert_eq!(log.records.len(), 5, "one server copy per sync record");
}

#[test]
fn a_forget_is_final_on_every_device() {
    let mut log = Log::default();
    let (mut a, mut b) = (Device::new("a-"), Device::new("b-"));
    let id = a.say("my card is 4111 1111 1111 1111");
    a.say("and something else");
    a.sync(&mut log);
    b.sync(&mut log);
    b.mem.forget(&id, Default::default()).unwrap();
    b.store();
    assert!(b.sync.is_gone("entry", &id));
    b.sync(&mut log);
    a.sync(&mut log);
    assert_eq!(a.texts(), ["and something else"]);
    assert_eq!(a.texts(), b.texts());
    // A device that still held the old put (pushed late) cannot bring it back: a fresh
    // device replaying the whole log ends the same.
    let mut c = Device::new("c-");
    c.sync(&mut log);
    assert_eq!(c.texts(), ["and something else"]);
    // Even if the put arrives after the delete in the server's order.
    let late = Payload {
        v: 1,
        ops: vec![RecordOp::Put(llm_memory_core::store::Record {
            kind: "entry".into(),
            id: id.clone(),
            order: 1.0,
            data: serde_json::to_value(&a.mem.entries()[0]).unwrap(),
        })],
    };
    let body = serde_json::json!({"records": [{"id": "late-1", "data": serde_json::to_string(&late).unwrap()}]});
    log.push(&body.to_string());
    for d in [&mut a, &mut b, &mut c] {
        d.pull(&log);
        assert_eq!(d.texts(), ["and something else"]);
    }
}

#[test]
fn a_pulled_change_older_than_an_unsent_local_one_is_skipped() {
    let mut log = Log::default();
    let (mut a, mut b) = (Device::new("a-"), Device::new("b-"));
    let id = a.say("turn");
    a.sync(&mut log);
    b.sync(&mut log);
    // b forgets while offline, then pulls a's (re-)put of the same record before pushing.
    b.mem.forget(&id, Default::default()).unwrap();
    b.store();
    let again = Payload {
        v: 1,
        ops: vec![RecordOp::Put(llm_memory_core::store::Record {
            kind: "entry".into(),
            id: id.clone(),
            order: 5.0,
            data: serde_json::to_value(&a.mem.entries()[0]).unwrap(),
        })],
    };
    log.push(&serde_json::json!({"records": [{"id": "a-s99", "data": serde_json::to_string(&again).unwrap()}]}).to_string());
    b.pull(&log);
    assert!(b.texts().is_empty(), "the forget waiting to be pushed wins");
    b.sync(&mut log);
    a.sync(&mut log);
    assert!(a.texts().is_empty());
}

#[test]
fn a_reload_resumes_the_outbox_tombstones_and_cursor() {
    let mut log = Log::default();
    let mut a = Device::new("a-");
    let gone = a.say("one");
    a.sync(&mut log);
    a.mem.forget(&gone, Default::default()).unwrap();
    a.store();
    a.say("two");
    // The page closes before pushing; a new instance reads local storage.
    let stored = a.stored_sync_records();
    let mut again = SyncEngine::new("a2-s");
    again.reload(&stored);
    assert_eq!(again.unsent(), 2);
    assert_eq!(again.cursor(), a.sync.cursor());
    assert!(again.is_gone("entry", &gone));
    let batch = again.next_push().unwrap();
    assert_eq!(batch.body, a.sync.next_push().unwrap().body);
    let acks = log.push(&batch.body);
    again.acked(&acks);
    assert_eq!(again.unsent(), 0);
    // Ids minted by the new instance never collide with the old one's.
    let outs = again.plan(&[RecordOp::Delete {
        kind: "entry".into(),
        id: "x".into(),
    }]);
    assert!(outs[0].id.starts_with("a2-s"));
}

#[test]
fn large_changes_are_split_within_the_record_limit() {
    let mut d = Device::new("a-");
    let big = "x".repeat(60_000);
    for _ in 0..10 {
        let now = d.tick();
        d.mem
            .add(Role::User, &big, NewEntry::default(), now)
            .unwrap();
    }
    let ops = d.mem.take_changes();
    let outs = d.sync.plan(&ops);
    assert!(outs.len() > 1);
    for o in &outs {
        assert!(o.plain.len() <= outbox::MAX_PAYLOAD_BYTES + 100);
    }
    let carried: usize = outs
        .iter()
        .map(|o| serde_json::from_str::<Payload>(&o.plain).unwrap().ops.len())
        .sum();
    assert_eq!(carried, 10);
    let ids: std::collections::HashSet<_> = outs.iter().map(|o| o.id.clone()).collect();
    assert_eq!(ids.len(), outs.len());
    // Sync bookkeeping never travels.
    assert!(d
        .sync
        .plan(&[RecordOp::Delete {
            kind: kind::OUTBOX.into(),
            id: "x".into()
        }])
        .is_empty());
}

#[test]
fn push_batches_stay_within_the_request_limits() {
    let mut d = Device::new("a-");
    for i in 0..1200 {
        let out = Outgoing {
            id: format!("r{i}"),
            keys: vec![],
            plain: String::new(),
        };
        let local = d.sync.stored_records(&out, "QUJD".repeat(100), i as f64);
        d.sync.note_stored(&local);
    }
    let batch = d.sync.next_push().unwrap();
    assert_eq!(batch.ids.len(), protocol::MAX_RECORDS_PER_PUSH);
    assert_eq!(batch.ids[0], "r0", "oldest first");
    assert!(batch.body.len() <= protocol::MAX_BODY_BYTES);
}

#[test]
fn a_corrupt_pulled_record_stops_before_it() {
    let mut d = Device::new("a-");
    let err = d
        .sync
        .accept(&[("x".into(), 1, "not json".into())], 1.0)
        .unwrap_err();
    assert_eq!(err.code, llm_memory_core::ErrorCode::CorruptStorage);
    assert_eq!(d.sync.cursor(), 0);
}

#[test]
fn options_are_checked() {
    let ok = protocol::SyncOptions::new("https://sync.example.com/", "tok-1", None, None).unwrap();
    assert_eq!(ok.url, "https://sync.example.com");
    assert_eq!(ok.interval_ms, protocol::DEFAULT_INTERVAL_MS);
    assert_eq!(
        ok.pull_url("a b/c", 7),
        "https://sync.example.com/v1/sessions/a%20b%2Fc/records?after=7&limit=1000"
    );
    for bad in [
        "",
        "ftp://x",
        "https://",
        "http://a b",
        "https://h/?q=1",
        "sync.example.com",
        "http://u@h",
    ] {
        let e = protocol::check_url(bad).unwrap_err();
        assert_eq!(e.code, llm_memory_core::ErrorCode::InvalidOption, "{bad:?}");
    }
    for bad in ["", "has space", "tab\t", "é"] {
        assert!(protocol::check_token(bad).is_err(), "{bad:?}");
    }
    assert!(protocol::SyncOptions::new("http://h", "t", Some(-1.0), None).is_err());
    assert_eq!(
        protocol::SyncOptions::new("http://h", "t", Some(0.0), None)
            .unwrap()
            .interval_ms,
        0.0
    );
    assert_ne!(ok.salt_label("s1"), ok.salt_label("s2"));
}

#[test]
fn answers_are_classified() {
    type R = Response<serde_json::Value>;
    assert!(matches!(
        protocol::classify::<serde_json::Value>("push", 200, "{}", None),
        R::Ok(_)
    ));
    assert!(matches!(
        protocol::classify::<serde_json::Value>("push", 0, "", None),
        R::Retry { .. }
    ));
    assert!(matches!(
        protocol::classify::<serde_json::Value>("push", 410, r#"{"code":"session_deleted"}"#, None),
        R::Deleted
    ));
    match protocol::classify::<serde_json::Value>(
        "push",
        429,
        r#"{"code":"rate_limited"}"#,
        Some(3.0),
    ) {
        R::Retry { after_ms, error } => {
            assert_eq!(after_ms, Some(3000.0));
            assert_eq!(error.code, llm_memory_core::ErrorCode::SyncFailed);
        }
        other => panic!("{other:?}"),
    }
    match protocol::classify::<serde_json::Value>(
        "push",
        409,
        r#"{"code":"record_conflict","id":"r1"}"#,
        None,
    ) {
        R::Refused { id, .. } => assert_eq!(id.as_deref(), Some("r1")),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        protocol::classify::<serde_json::Value>("push", 401, "", None),
        R::Fatal(_)
    ));
    assert!(matches!(
        protocol::classify::<serde_json::Value>("push", 503, "<html>", None),
        R::Retry { .. }
    ));
    assert!(matches!(
        protocol::classify::<serde_json::Value>("push", 200, "not json", None),
        R::Retry { .. }
    ));
}

#[test]
fn retries_back_off_within_bounds() {
    let mut last = 0.0;
    for n in 1..30 {
        let lo = backoff::retry_delay_ms(n, 0.0, None);
        let hi = backoff::retry_delay_ms(n, 0.999, None);
        assert!(
            lo >= last / 2.0 && lo <= hi && hi <= backoff::MAX_RETRY_MS,
            "{n}: {lo} {hi}"
        );
        last = lo;
    }
    assert_eq!(backoff::retry_delay_ms(1, 0.0, Some(10_000.0)), 10_000.0);
}

#[test]
fn an_instance_prefix_is_twelve_base36_characters() {
    let mut n = 0.0;
    let prefix = instance_prefix(|| {
        n += 0.09;
        n % 1.0
    });
    assert_eq!(prefix.len(), 13);
    assert!(prefix.ends_with('.'));
    assert!(prefix[..12]
        .chars()
        .all(|c| c.is_ascii_digit() || c.is_ascii_lowercase()));
    assert_eq!(instance_prefix(|| 0.99999), "zzzzzzzzzzzz.");
}

#[test]
fn a_first_push_carries_every_record_and_the_cursor() {
    let r = Record {
        kind: "entry".into(),
        id: "a".into(),
        order: 1.0,
        data: serde_json::json!({}),
    };
    let ops = first_push(vec![r.clone()], 5.0);
    let mut fresh = SyncEngine::new("p.");
    fresh.reload(&[match &ops[1] {
        RecordOp::Put(c) => c.clone(),
        other => panic!("{other:?}"),
    }]);
    assert_eq!(ops[0], RecordOp::Put(r));
    assert_eq!((ops.len(), fresh.cursor()), (2, 0));
}

mod compaction;
mod cycle;
mod schedule;
