//! Calls the app's async `summarize(prompt, info)`, or its `llm(messages, info)` with the
//! built-in summary request, and feeds the answer back to the core. The
//! context waits at most `timeout_ms`; a summary that arrives later is still recorded and used
//! from the next turn. Failures are recorded too, so the report can say why it trimmed.

use super::callbacks::{after, clear, error_text, Callback};
use super::to_js;
use crate::memory::Memory as Core;
use crate::summary::SummaryRequest;
use js_sys::{Function, Promise};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Who writes summaries: the app's `summarize`, else its `llm` with the built-in request.
pub enum Summarizer {
    Summarize(Function),
    Llm(Callback),
}

pub async fn run_summarizer(
    core: Rc<RefCell<Core>>,
    summarizer: Summarizer,
    request: SummaryRequest,
    timeout_ms: f64,
) {
    let id = request.request_id;
    // No borrow of `core` is held while JS runs: the callback may use the Memory freely.
    let returned = match summarizer {
        Summarizer::Summarize(f) => {
            let info = to_js(&request).unwrap_or(JsValue::UNDEFINED);
            match f.call2(&JsValue::NULL, &JsValue::from_str(&request.prompt), &info) {
                Ok(v) => v,
                Err(e) => {
                    core.borrow_mut().fail_summary(id, &error_text(&e));
                    return;
                }
            }
        }
        Summarizer::Llm(llm) => {
            let exchange = core.borrow().summary_exchange(&request);
            super::llm::summary_promise(&llm, exchange).into()
        }
    };
    let answer = JsFuture::from(Promise::resolve(&returned));
    let waiting = core.clone();
    let mut resolve_done = None;
    let done = Promise::new(&mut |resolve, _reject| resolve_done = Some(resolve));
    wasm_bindgen_futures::spawn_local(async move {
        let outcome = answer.await;
        let mut c = waiting.borrow_mut();
        match outcome.map(|v| v.as_string()) {
            Ok(Some(text)) => {
                if let Err(e) = c.complete_summary(id, &text, js_sys::Date::now()) {
                    c.fail_summary(id, &e.message);
                }
            }
            Ok(None) => c.fail_summary(id, "summarize must resolve to a string"),
            Err(e) => c.fail_summary(id, &error_text(&e)),
        }
        drop(c);
        if let Some(resolve) = resolve_done {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let (timer, late) = after(timeout_ms, &JsValue::FALSE);
    let won = JsFuture::from(Promise::race(&js_sys::Array::of2(&done, &late))).await;
    clear(&timer);
    // `done` resolves to undefined, the timer to false: the summarizer has not answered in
    // time. The next trigger may ask again; a late answer is still used if it comes.
    if won.ok().and_then(|v| v.as_bool()) == Some(false) {
        core.borrow_mut().summary_timed_out(id);
    }
}
