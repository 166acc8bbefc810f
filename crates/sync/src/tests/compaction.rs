//! Compaction on the protocol's log: after a forget or a clear, the forgotten words are gone
//! from every stored batch, and a device that reads the compacted log from the start ends up
//! where the devices that saw the whole history are.

use super::*;
use llm_memory_core::memory::ForgetOptions;
use llm_memory_redact::{Redactor, RedactorConfig};

const NAME: &str = "Marisol Quintanilla-Obregon";
const EMAIL: &str = "marisol.qo@example-mail.net";
const FACT: &str = "The user's locker code is 7731-CANARY";

impl Log {
    /// The route `POST …/compact`: each record's bytes replaced in place.
    fn rewrite(&mut self, rewrites: &[(String, String)]) {
        for (id, data) in rewrites {
            let r = self.records.iter_mut().find(|r| &r.id == id).unwrap();
            r.data = data.clone();
        }
    }

    fn holds(&self, needle: &str) -> bool {
        self.records.iter().any(|r| r.data.contains(needle))
    }
}

impl Device {
    fn redacting(prefix: &str) -> Device {
        let mut d = Device::new(prefix);
        d.mem.set_redactor(Some(Box::new(
            Redactor::new(RedactorConfig::default()).unwrap(),
        )));
        d
    }

    /// What the link does after a cycle when a compaction is due.
    fn compact(&mut self, log: &mut Log) -> usize {
        let mark = self.sync.due_mark();
        assert!(mark > 0, "no compaction is due");
        let all: Vec<(String, u64, String)> = log
            .records
            .iter()
            .map(|r| (r.id.clone(), r.seq, r.data.clone()))
            .collect();
        let merged = self.mem.merged_records();
        let plan = self
            .sync
            .plan_compaction(&all, self.sync.cursor(), &merged)
            .unwrap();
        log.rewrite(&plan.rewrites);
        let done = self.sync.compacted(mark);
        self.stored.extend(done);
        plan.dropped
    }

    fn vault(&self) -> String {
        self.mem
            .records()
            .into_iter()
            .find(|r| r.kind == "vault")
            .map(|r| r.data.to_string())
            .unwrap_or_default()
    }
}

#[test]
fn a_forgotten_turn_and_fact_leave_the_log_and_a_new_device_agrees() {
    let mut log = Log::default();
    let (mut a, mut b) = (Device::redacting("a-"), Device::redacting("b-"));
    let secret = a.say(&format!("Hi, I'm {NAME}, write to {EMAIL} please."));
    a.say("The budget review is on Friday.");
    let now = a.tick();
    let fact = a.mem.remember(FACT, NewFact::default(), now).unwrap();
    a.store();
    b.say("Kept words from device b.");
    a.sync(&mut log);
    b.sync(&mut log);
    a.sync(&mut log);
    assert!(log.holds(NAME) && log.holds("7731-CANARY"));

    let now = a.tick();
    a.mem.forget(&secret, at(now)).unwrap();
    a.mem.forget(&fact.id, at(now)).unwrap();
    a.store();
    assert!(a.sync.compaction_due());
    a.sync(&mut log);
    b.sync(&mut log);
    assert!(a.compact(&mut log) > 0);
    assert!(!a.sync.compaction_due());
    for canary in [NAME, EMAIL, "7731-CANARY"] {
        assert!(
            !log.holds(canary),
            "{canary:?} is still in the server's log"
        );
    }
    // Sequence numbers stay: devices past the compacted records pull nothing again.
    assert_eq!(b.pull(&log), 0);

    let mut c = Device::redacting("c-");
    c.sync(&mut log);
    assert_eq!(c.texts(), a.texts());
    assert_eq!(c.texts(), b.texts());
    assert_eq!(c.fact_texts(), a.fact_texts());
    assert!(c.texts().iter().any(|t| t.contains("device b")));
    for d in [&a, &b, &c] {
        assert!(
            !d.vault().contains(EMAIL),
            "the vault still holds the e-mail"
        );
    }
}

#[test]
fn a_clear_leaves_only_tombstones_and_what_came_after() {
    let mut log = Log::default();
    let mut a = Device::redacting("a-");
    for i in 0..5 {
        a.say(&format!("turn {i} mentions {EMAIL}"));
    }
    a.sync(&mut log);
    let now = a.tick();
    a.mem.clear(at(now));
    a.store();
    a.say("after the clear");
    a.sync(&mut log);
    a.compact(&mut log);
    assert!(!log.holds(EMAIL));
    assert!(!log.holds("turn 3"));
    let mut c = Device::redacting("c-");
    c.sync(&mut log);
    assert_eq!(c.texts(), ["after the clear"]);
}

/// Two secrets said and synced, the first forgotten and its delete pushed, its compaction not
/// run yet: the log, the device, the second secret's id and the time.
fn first_of_two_secrets_forgotten() -> (Log, Device, String, f64) {
    let mut log = Log::default();
    let mut a = Device::new("a-");
    let first = a.say("first secret 111-CANARY");
    let second = a.say("second secret 222-CANARY");
    a.sync(&mut log);
    let now = a.tick();
    a.mem.forget(&first, at(now)).unwrap();
    a.store();
    a.sync(&mut log);
    (log, a, second, now)
}

#[test]
fn a_forget_after_the_compaction_started_keeps_it_due_and_a_reload_resumes_it() {
    let (mut log, mut a, second, now) = first_of_two_secrets_forgotten();
    let mark = a.sync.due_mark();
    // A second forget lands while the first compaction is on its way.
    a.mem.forget(&second, at(now)).unwrap();
    a.store();
    assert!(a.sync.compacted(mark).is_empty());
    assert!(a.sync.compaction_due());
    // A reload finds the due mark stored with the forget.
    let mut again = SyncEngine::new("a2-");
    again.reload(&a.stored_sync_records());
    assert!(again.compaction_due());
    a.sync(&mut log);
    a.compact(&mut log);
    assert!(!log.holds("111-CANARY") && !log.holds("222-CANARY"));
    let mut after = SyncEngine::new("a3-");
    after.reload(&a.stored_sync_records());
    assert!(!after.compaction_due());
}

#[test]
fn a_forget_still_being_sealed_when_a_compaction_runs_stays_due() {
    let (mut log, mut a, second, now) = first_of_two_secrets_forgotten();
    // The second forget is planned, its batch still being encrypted and stored, when the
    // cycle reaches its compaction: nothing of it waits in the outbox yet.
    a.mem.forget(&second, at(now)).unwrap();
    let outs = a.plan_changes();
    assert_eq!(a.sync.unsent(), 0);
    a.compact(&mut log);
    assert!(!log.holds("111-CANARY"));
    a.store_planned(outs);
    assert!(
        a.sync.compaction_due(),
        "the second forget has not reached the server yet"
    );
    a.sync(&mut log);
    a.compact(&mut log);
    assert!(!log.holds("222-CANARY"));
    assert!(!a.sync.compaction_due());
}

#[test]
fn a_device_without_a_redactor_keeps_every_vault_copy() {
    let mut log = Log::default();
    let (mut a, mut b) = (Device::redacting("a-"), Device::redacting("b-"));
    let mut plain = Device::new("n-");
    a.say(&format!("Please write to {EMAIL}."));
    b.say("Please write to second.person@example-mail.net instead.");
    // Each pushes a vault holding only its own value: a reader merges both.
    a.sync(&mut log);
    b.sync(&mut log);
    plain.sync(&mut log);
    let secret = plain.say("a turn to forget 5555-CANARY");
    plain.sync(&mut log);
    let now = plain.tick();
    plain.mem.forget(&secret, at(now)).unwrap();
    plain.store();
    plain.sync(&mut log);
    plain.compact(&mut log);
    assert!(!log.holds("5555-CANARY"));
    // Nothing on the plain device merged vaults: every copy stays, and a new device has both.
    let mut c = Device::redacting("c-");
    c.sync(&mut log);
    let vault = serde_json::to_string(&c.mem.merged_records()).unwrap();
    assert!(vault.contains(EMAIL), "{vault}");
    assert!(vault.contains("second.person@example-mail.net"), "{vault}");
}

/// Forgetting at the device's clock.
fn at(now: f64) -> ForgetOptions {
    ForgetOptions {
        now: Some(now),
        ..Default::default()
    }
}
