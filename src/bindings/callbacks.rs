//! Calling the app's async callbacks (`extract`, `embed`, and `summarize` for episodes). Each
//! call is awaited at most `callbackTimeoutMs`: a callback that never settles must not freeze
//! `context()` or `recordEpisode()` for good. What it answers later is ignored.

use js_sys::{Array, Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Default for `callbackTimeoutMs`.
pub const DEFAULT_CALLBACK_TIMEOUT_MS: f64 = 30_000.0;

pub use super::js::error_text;

/// Calls `f(...args)` and awaits its value or promise, for at most `timeout_ms`. No borrow of
/// the core may be held by the caller: the callback may use the Memory.
pub async fn call_async(
    f: &Function,
    args: &[JsValue],
    name: &str,
    timeout_ms: f64,
) -> Result<JsValue, String> {
    let args: Array = args.iter().collect();
    let returned = f.apply(&JsValue::NULL, &args).map_err(|e| error_text(&e))?;
    let answer = Promise::resolve(&returned);
    let late = js_sys::Object::new();
    let (timer, timed_out) = after(timeout_ms, &late);
    let raced = JsFuture::from(Promise::race(&Array::of2(&answer, &timed_out))).await;
    clear(&timer);
    let value = raced.map_err(|e| error_text(&e))?;
    if js_sys::Object::is(&value, &late) {
        return Err(format!(
            "{name} did not answer within {timeout_ms} ms (callbackTimeoutMs)"
        ));
    }
    Ok(value)
}

/// A promise that resolves to `value` after `ms`, and the timer (to clear it, so a settled
/// call leaves nothing pending: Node would wait for the timer before it exits).
pub(super) fn after(ms: f64, value: &JsValue) -> (JsValue, Promise) {
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

pub(super) fn clear(timer: &JsValue) {
    if let Some(ct) = global_fn("clearTimeout") {
        let _ = ct.call1(&JsValue::NULL, timer);
    }
}

fn global_fn(name: &str) -> Option<Function> {
    js_sys::Reflect::get(&js_sys::global(), &name.into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
}

/// An app callback with the time it may take per call.
#[derive(Clone)]
pub struct Callback {
    pub f: Function,
    pub timeout_ms: f64,
}

impl Callback {
    pub async fn call(&self, args: &[JsValue], name: &str) -> Result<JsValue, String> {
        call_async(&self.f, args, name, self.timeout_ms).await
    }
}
