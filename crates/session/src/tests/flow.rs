use super::{block_on, Log};
use crate::flow::{receipt_after, sync_now, Stored};

async fn step(log: &Log, name: &'static str, fails: bool) -> Result<(), String> {
    log.push(name);
    match fails {
        true => Err(format!("{name} failed")),
        false => Ok(()),
    }
}

#[test]
fn sync_stores_before_the_cycle() {
    let log = Log::default();
    block_on(sync_now(step(&log, "flush", false), || {
        step(&log, "cycle", false)
    }))
    .unwrap();
    assert_eq!(log.take(), ["flush", "cycle"]);
}

#[test]
fn a_failed_store_runs_no_cycle() {
    let log = Log::default();
    let e = block_on(sync_now(step(&log, "flush", true), || {
        step(&log, "cycle", false)
    }));
    assert_eq!(e, Err("flush failed".to_string()));
    assert_eq!(log.take(), ["flush"]);
}

#[test]
fn a_receipt_says_whether_storage_took_the_erasure() {
    let log = Log::default();
    let ok = block_on(receipt_after(step(&log, "flush", false)));
    assert_eq!(
        ok,
        Stored {
            stored: true,
            error: None
        }
    );
    let failed = block_on(receipt_after(step(&log, "flush", true)));
    assert_eq!(
        failed,
        Stored {
            stored: false,
            error: Some("flush failed".to_string())
        }
    );
}

#[test]
fn a_receipt_waits_for_the_store() {
    let gate = super::Gate::default();
    let mut receipt = std::pin::pin!(receipt_after(async {
        gate.pass().await;
        Ok::<(), String>(())
    }));
    assert!(super::poll_once(receipt.as_mut()).is_pending());
    gate.open();
    assert_eq!(
        block_on(receipt),
        Stored {
            stored: true,
            error: None
        }
    );
}
