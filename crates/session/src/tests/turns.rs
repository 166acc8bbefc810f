use super::{poll_once, Gate, Log};
use crate::turns::OneAtATime;
use std::pin::pin;

async fn episode(turns: &OneAtATime, log: &Log, name: &'static str, gate: &Gate) {
    let _turn = turns.enter().await;
    log.push(format!("{name} starts"));
    gate.pass().await;
    log.push(format!("{name} ends"));
}

#[test]
fn a_second_call_waits_for_the_first_to_end() {
    let (turns, log) = (OneAtATime::default(), Log::default());
    let (first_gate, second_gate) = (Gate::default(), Gate::default());
    let mut first = pin!(episode(&turns, &log, "first", &first_gate));
    let mut second = pin!(episode(&turns, &log, "second", &second_gate));
    second_gate.open();
    assert!(poll_once(first.as_mut()).is_pending());
    assert!(poll_once(second.as_mut()).is_pending());
    assert_eq!(log.take(), ["first starts"]);
    first_gate.open();
    assert!(poll_once(first.as_mut()).is_ready());
    assert!(poll_once(second.as_mut()).is_ready());
    assert_eq!(log.take(), ["first ends", "second starts", "second ends"]);
}

#[test]
fn turns_go_in_call_order_not_poll_order() {
    let (turns, log) = (OneAtATime::default(), Log::default());
    let gate = Gate::default();
    gate.open();
    let mut first = pin!(episode(&turns, &log, "first", &gate));
    let mut second = pin!(episode(&turns, &log, "second", &gate));
    // Futures are lazy: the call order is the order of their first poll.
    assert!(poll_once(first.as_mut()).is_ready());
    assert!(poll_once(second.as_mut()).is_ready());
    assert_eq!(
        log.take(),
        ["first starts", "first ends", "second starts", "second ends"]
    );
}

#[test]
fn a_caller_that_stops_waiting_blocks_nobody() {
    let (turns, log) = (OneAtATime::default(), Log::default());
    let (first_gate, open) = (Gate::default(), Gate::default());
    open.open();
    let mut first = pin!(episode(&turns, &log, "first", &first_gate));
    assert!(poll_once(first.as_mut()).is_pending());
    {
        let mut given_up = Box::pin(episode(&turns, &log, "given up", &open));
        assert!(poll_once(given_up.as_mut()).is_pending());
    }
    let mut third = pin!(episode(&turns, &log, "third", &open));
    assert!(poll_once(third.as_mut()).is_pending());
    first_gate.open();
    assert!(poll_once(first.as_mut()).is_ready());
    assert!(poll_once(third.as_mut()).is_ready());
    assert_eq!(
        log.take(),
        ["first starts", "first ends", "third starts", "third ends"]
    );
}
