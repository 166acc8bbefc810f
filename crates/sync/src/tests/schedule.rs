//! The link's schedule as the face runs it: one cycle at a time, callers that ask during a cycle
//! served by the next one, timers and backoff after each, and a stop that starts nothing more.
//! The property test drives it with random requests, stops and cycle outcomes.

use crate::backoff::{retry_delay_ms, FIRST_RETRY_MS, MAX_RETRY_MS};
use crate::cycle::{Next, Tally};
use crate::schedule::{AfterCycle, Requested, Schedule, Turn};
use llm_memory_core::error::{Error, ErrorCode};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn offline() -> Error {
    Error::new(ErrorCode::SyncFailed, "offline")
}

fn tally(pushed: usize) -> Tally {
    Tally {
        pushed,
        ..Tally::default()
    }
}

#[test]
fn callers_during_a_cycle_are_served_by_the_next() {
    let mut s = Schedule::<u32>::default();
    assert_eq!(s.request(Some(1), tally(0)), Requested::Start);
    assert_eq!(s.next_turn(), Turn::Cycle);
    assert_eq!(s.request(Some(2), tally(1)), Requested::Joined);
    assert_eq!(s.request(None, tally(1)), Requested::Joined);
    let after = s.finished(Next::Synced { ms: 30_000.0 }, tally(2));
    assert_eq!(after.timer_ms, Some(30_000.0));
    assert_eq!(after.answers, [(1, Ok(tally(2)))]);
    assert_eq!(s.next_turn(), Turn::Cycle, "asked for during the first");
    let after = s.finished(Next::Synced { ms: 0.0 }, tally(3));
    assert_eq!(after.timer_ms, None, "no interval: only when asked");
    assert_eq!(
        after.answers,
        [(2, Ok(tally(2)))],
        "what moved since it asked"
    );
    assert_eq!(s.next_turn(), Turn::Idle(Vec::new()));
    assert_eq!(s.request(None, tally(3)), Requested::Start);
}

#[test]
fn a_failure_backs_off_and_is_reported_when_the_cycle_says() {
    let mut s = Schedule::<u32>::default();
    s.request(Some(1), tally(0));
    s.next_turn();
    let failed = Next::Failed {
        error: offline(),
        report: true,
        retry_ms: Some(2_000.0),
    };
    let after = s.finished(failed, tally(0));
    let expected = AfterCycle {
        timer_ms: Some(2_000.0),
        delete_here: false,
        report: Some(offline()),
        answers: vec![(1, Err(offline()))],
    };
    assert_eq!(after, expected);
    s.next_turn();
    s.request(None, tally(0));
    s.next_turn();
    let quiet = Next::Failed {
        error: offline(),
        report: false,
        retry_ms: None,
    };
    let after = s.finished(quiet, tally(0));
    assert_eq!((after.timer_ms, after.report), (None, None));
}

#[test]
fn a_session_deleted_on_the_server_stops_the_link() {
    let mut s = Schedule::<u32>::default();
    s.request(Some(1), tally(0));
    s.next_turn();
    s.request(Some(2), tally(0));
    let gone = Error::new(ErrorCode::NotFound, "deleted");
    let after = s.finished(Next::Deleted(gone.clone()), tally(0));
    assert!(after.delete_here && s.is_stopped());
    assert_eq!((after.timer_ms, after.report), (None, Some(gone.clone())));
    assert_eq!(after.answers, [(1, Err(gone))]);
    assert_eq!(s.next_turn(), Turn::Idle(vec![2]), "told the link stopped");
    assert_eq!(s.request(Some(3), tally(0)), Requested::Refused(Some(3)));
}

#[test]
fn a_stop_during_a_cycle_arms_no_timer() {
    let mut s = Schedule::<u32>::default();
    s.request(None, tally(0));
    s.next_turn();
    s.stop();
    let after = s.finished(Next::Synced { ms: 1_000.0 }, tally(0));
    assert_eq!(after.timer_ms, None);
    assert_eq!(s.request(None, tally(0)), Requested::Refused(None));
    assert_eq!(s.next_turn(), Turn::Idle(Vec::new()));
}

/// What the face and the world do, in a random order.
#[derive(Debug, Clone)]
enum Event {
    /// `mem.sync()` (with a caller) or a write or timer (without).
    Request {
        caller: bool,
    },
    Stop,
    /// The task's next step; a cycle under way ends with `outcome`.
    Step {
        outcome: Outcome,
    },
}

#[derive(Debug, Clone)]
enum Outcome {
    Synced {
        ms: f64,
    },
    Failed {
        failures: u32,
        unit: f64,
        after_ms: Option<f64>,
        report: bool,
    },
    Deleted,
}

fn event() -> impl Strategy<Value = Event> {
    let outcome = prop_oneof![
        3 => (0.0..100_000.0f64).prop_map(|ms| Outcome::Synced { ms }),
        3 => (1..40u32, 0.0..1.0f64, proptest::option::of(0.0..1e9f64), any::<bool>())
            .prop_map(|(failures, unit, after_ms, report)| Outcome::Failed { failures, unit, after_ms, report }),
        1 => Just(Outcome::Deleted),
    ];
    prop_oneof![
        4 => any::<bool>().prop_map(|caller| Event::Request { caller }),
        1 => Just(Event::Stop),
        5 => outcome.prop_map(|outcome| Event::Step { outcome }),
    ]
}

#[derive(Debug, PartialEq)]
enum Task {
    None,
    Between,
    InCycle,
}

/// The face's task, one step per `Step`, with what each caller heard and when it asked.
struct Face {
    schedule: Schedule<u32>,
    task: Task,
    /// Cycles started so far.
    cycles: u32,
    callers: u32,
    /// For each caller: the cycle under way when it asked (0: none).
    asked_during: BTreeMap<u32, u32>,
    /// For each caller: the cycle whose end answered it (0: refused), one entry per answer.
    heard: BTreeMap<u32, Vec<u32>>,
}

impl Face {
    fn run(&mut self, e: Event) {
        match e {
            Event::Request { caller } => {
                let waiter = caller.then(|| {
                    self.callers += 1;
                    let during = if self.task == Task::InCycle {
                        self.cycles
                    } else {
                        0
                    };
                    self.asked_during.insert(self.callers, during);
                    self.callers
                });
                let stopped = self.schedule.is_stopped();
                match self.schedule.request(waiter, Tally::default()) {
                    Requested::Start => {
                        assert!(!stopped && self.task == Task::None, "a second task");
                        self.task = Task::Between;
                    }
                    Requested::Joined => assert!(!stopped && self.task != Task::None),
                    Requested::Refused(w) => {
                        assert!(stopped);
                        assert_eq!(w, waiter);
                        w.into_iter().for_each(|w| self.hear(w, 0));
                    }
                }
            }
            Event::Stop => self.schedule.stop(),
            Event::Step { outcome } => self.step(outcome),
        }
    }

    fn hear(&mut self, waiter: u32, cycle: u32) {
        self.heard.entry(waiter).or_default().push(cycle);
    }

    fn step(&mut self, outcome: Outcome) {
        match self.task {
            Task::None => {}
            Task::Between => {
                let stopped = self.schedule.is_stopped();
                match self.schedule.next_turn() {
                    Turn::Cycle => {
                        assert!(!stopped, "a stopped link started a cycle");
                        self.cycles += 1;
                        self.task = Task::InCycle;
                    }
                    Turn::Idle(left) => {
                        assert!(left.is_empty() || stopped);
                        left.into_iter().for_each(|w| self.hear(w, 0));
                        self.task = Task::None;
                    }
                }
            }
            Task::InCycle => {
                let next = match outcome {
                    Outcome::Synced { ms } => Next::Synced { ms },
                    Outcome::Failed {
                        failures,
                        unit,
                        after_ms,
                        report,
                    } => Next::Failed {
                        error: offline(),
                        report,
                        retry_ms: Some(retry_delay_ms(failures, unit, after_ms)),
                    },
                    Outcome::Deleted => Next::Deleted(offline()),
                };
                let after = self.schedule.finished(next, Tally::default());
                if let Some(ms) = after.timer_ms {
                    assert!(!self.schedule.is_stopped(), "a timer on a stopped link");
                    assert!(ms > 0.0 && ms <= 5.0 * MAX_RETRY_MS, "{ms}");
                }
                for (w, _) in after.answers {
                    let cycle = self.cycles;
                    self.hear(w, cycle);
                }
                self.task = Task::Between;
            }
        }
    }
}

proptest! {
    #[test]
    fn the_schedule_keeps_its_promises(events in proptest::collection::vec(event(), 0..80)) {
        let mut face = Face {
            schedule: Schedule::default(),
            task: Task::None,
            cycles: 0,
            callers: 0,
            asked_during: BTreeMap::new(),
            heard: BTreeMap::new(),
        };
        for e in events {
            face.run(e);
        }
        for _ in 0..10 {
            face.step(Outcome::Synced { ms: 0.0 });
        }
        prop_assert_eq!(face.task, Task::None);
        for caller in 1..=face.callers {
            let heard = face.heard.get(&caller).cloned().unwrap_or_default();
            prop_assert_eq!(heard.len(), 1, "caller {} heard {:?}", caller, heard);
            let during = face.asked_during[&caller];
            prop_assert!(heard[0] == 0 || heard[0] > during, "served by the cycle under way");
        }
    }

    #[test]
    fn backoff_stays_within_bounds(failures in 0..1000u32, unit in -1.0..2.0f64, after in proptest::option::of(0.0..1e12f64)) {
        let ms = retry_delay_ms(failures, unit, after);
        prop_assert!((FIRST_RETRY_MS / 2.0..=5.0 * MAX_RETRY_MS).contains(&ms), "{}", ms);
    }
}
