//! Calls the app's one `llm(messages, info)` callback for the requests the core writes
//! (`memory::llm_requests`): a summary, a fact extraction, an episode. The core reads each
//! answer and may ask once more; this file only makes the calls and feeds the answers back.
//! An exchange (first call and retry together) takes at most its time limit. No borrow of the
//! core is held while JS runs.

use super::callbacks::Callback;
use super::to_js;
use crate::llm::{parse_summary, LlmExchange, LlmRequest, Step};
use crate::memory::{ExtractAnswer, ExtractOutcome, Memory as Core};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A time limit long enough to mean "none" (timers take at most 2^31 - 1 ms): the summary's
/// own wait (`summaryTimeoutMs`) decides, and a late answer is still used.
const NO_LIMIT_MS: f64 = 2_147_483_647.0;

/// One call: `llm(messages, { purpose, maxTokens, json, attempt, promptVersion })` → text.
async fn ask(llm: &Callback, request: &LlmRequest, started: f64) -> Result<String, String> {
    let left = llm.timeout_ms - (js_sys::Date::now() - started);
    if left <= 0.0 {
        return Err(format!(
            "llm did not answer within {} ms (callbackTimeoutMs)",
            llm.timeout_ms
        ));
    }
    let messages = to_js(&request.messages).map_err(|e| super::js::error_text(&e))?;
    let info = to_js(request).map_err(|e| super::js::error_text(&e))?;
    let call = Callback {
        f: llm.f.clone(),
        timeout_ms: left,
    };
    let answer = call.call(&[messages, info], "llm").await?;
    answer.as_string().ok_or_else(|| {
        format!(
            "llm must resolve to a string (the reply text), got {}",
            super::js::describe(&answer)
        )
    })
}

/// Asks until the answer is usable or the one retry is spent.
async fn exchange<T>(
    llm: &Callback,
    x: &mut LlmExchange,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<T, Failure> {
    let started = js_sys::Date::now();
    loop {
        let text = ask(llm, x.request(), started)
            .await
            .map_err(Failure::Call)?;
        match x.answer(&text, &parse) {
            Step::Done(value) => return Ok(value),
            Step::Retry(_) => continue,
            Step::GaveUp(reason) => return Err(Failure::Unusable(reason)),
        }
    }
}

/// Why an exchange produced nothing.
pub enum Failure {
    /// The callback threw, rejected, timed out or answered something other than text.
    Call(String),
    /// Both answers were unusable.
    Unusable(String),
}

impl Failure {
    pub fn message(&self) -> String {
        match self {
            Failure::Call(m) => m.clone(),
            Failure::Unusable(m) => format!("the llm answer could not be used after a retry ({m})"),
        }
    }
}

/// The summary text for an exchange from `summary_exchange`, as a promise for
/// `run_summarizer` (which races it against `summaryTimeoutMs`).
pub fn summary_promise(llm: &Callback, mut x: LlmExchange) -> js_sys::Promise {
    let llm = Callback {
        f: llm.f.clone(),
        timeout_ms: NO_LIMIT_MS,
    };
    wasm_bindgen_futures::future_to_promise(async move {
        match exchange(&llm, &mut x, parse_summary).await {
            Ok(text) => Ok(JsValue::from_str(&text)),
            Err(f) => Err(js_sys::Error::new(&f.message()).into()),
        }
    })
}

/// Extracts facts from the unseen turns through `llm` and applies them (`finish_extraction`,
/// as for the `extract` hook: a failed call leaves the turns for the next exchange).
pub async fn run_llm_extract(core: &Rc<RefCell<Core>>, llm: &Callback) -> ExtractOutcome {
    let Some(request) = core.borrow().begin_extraction() else {
        return ExtractOutcome::default();
    };
    let mut x = core.borrow().extraction_exchange(&request);
    let started = js_sys::Date::now();
    let result = loop {
        let text = match ask(llm, x.request(), started).await {
            Ok(t) => t,
            Err(e) => break Err(Failure::Call(e)),
        };
        match x.answer(&text) {
            Step::Done(parsed) => break Ok(parsed),
            Step::Retry(_) => continue,
            Step::GaveUp(reason) => break Err(Failure::Unusable(reason)),
        }
    };
    let now = js_sys::Date::now();
    let mut c = core.borrow_mut();
    match &result {
        Ok(parsed) => c.finish_extraction(&request, ExtractAnswer::Ops(parsed), now),
        Err(Failure::Call(e)) => c.finish_extraction(&request, ExtractAnswer::Failed(e), now),
        Err(Failure::Unusable(r)) => c.finish_extraction(&request, ExtractAnswer::Unusable(r), now),
    }
}

/// The episode answer for an exchange from `episode_exchange`, checked (retried once).
pub async fn episode_text(llm: &Callback, mut x: LlmExchange) -> Result<String, Failure> {
    exchange(llm, &mut x, crate::memory::episode_answer).await
}
