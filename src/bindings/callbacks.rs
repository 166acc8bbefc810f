//! Waiting for an app callback's promise for at most a given time: a callback that never
//! settles must not freeze `context()` or `recordEpisode()` for good.

use js_sys::{Array, Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// How a wait ended.
pub enum Raced {
    Value(JsValue),
    Error(JsValue),
    TimedOut,
}

/// Awaits `promise` for at most `ms`.
pub async fn race(promise: &Promise, ms: f64) -> Raced {
    let late = js_sys::Object::new();
    let (timer, timed_out) = after(ms, &late);
    let raced = JsFuture::from(Promise::race(&Array::of2(promise, &timed_out))).await;
    clear(&timer);
    match raced {
        Ok(v) if js_sys::Object::is(&v, &late) => Raced::TimedOut,
        Ok(v) => Raced::Value(v),
        Err(e) => Raced::Error(e),
    }
}

/// A promise that resolves to `value` after `ms`, and the timer (to clear it, so a settled
/// call leaves nothing pending: Node would wait for the timer before it exits).
fn after(ms: f64, value: &JsValue) -> (JsValue, Promise) {
    let mut timer = JsValue::UNDEFINED;
    // Without timers in this realm, the callback alone is waited for.
    let promise = Promise::new(&mut |resolve, _reject| {
        if let Some(st) = global_fn("setTimeout") {
            // Timers take at most 2^31 - 1 ms; a longer delay fires at once (a "wait very long"
            // of 3e9 ms would time out in 1 ms), so it is capped to that.
            let ms = ms.min(2_147_483_647.0);
            let args = Array::of3(&resolve, &JsValue::from_f64(ms), value);
            timer = st
                .apply(&JsValue::NULL, &args)
                .unwrap_or(JsValue::UNDEFINED);
        }
    });
    (timer, promise)
}

fn clear(timer: &JsValue) {
    if let Some(ct) = global_fn("clearTimeout") {
        let _ = ct.call1(&JsValue::NULL, timer);
    }
}

fn global_fn(name: &str) -> Option<Function> {
    js_sys::Reflect::get(&js_sys::global(), &name.into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
}
