//! Runs the core's jobs (`crate::driver`): asks each for its next call, makes it with the
//! app's callback (or the in-page model), waits at most the call's `wait_ms`, and hands the
//! answer back. What to call, in what order, and what an answer means is the core's; this
//! file only turns calls into JS calls and JS values into answers. No borrow of the core is
//! held while JS runs, so callbacks may use the Memory freely.

use super::build_parts::InPageEmbedder;
use super::callbacks::{race, Raced};
use super::js::{describe, error_text, f32s, is_array, items};
use super::options::json_string;
use super::to_js;
use crate::driver::{settle_late, Answer, Call, CallArgs, Expect, Hook, Job};
use crate::memory::Memory as Core;
use js_sys::{Array, Function, Promise};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The app's callbacks and in-page model, by the hook the core names.
#[derive(Clone, Default)]
pub struct Callbacks {
    pub(super) summarize: Option<Function>,
    pub(super) extract: Option<Function>,
    pub(super) llm: Option<Function>,
    pub(super) embed: Option<Function>,
    pub(super) embedder: Option<Rc<InPageEmbedder>>,
}

impl Callbacks {
    fn function(&self, hook: Hook) -> Option<&Function> {
        match hook {
            Hook::Summarize => self.summarize.as_ref(),
            Hook::Extract => self.extract.as_ref(),
            Hook::Llm => self.llm.as_ref(),
            Hook::Embed => self.embed.as_ref(),
            Hook::Embedder => None,
        }
    }
}

/// Drives `job` to its end. Returns what the last failed callback threw: an error the job
/// ends with carries it as `cause` (`with_cause`), as the app threw it.
pub async fn run(
    core: &Rc<RefCell<Core>>,
    callbacks: &Callbacks,
    job: &mut dyn Job,
) -> Option<JsValue> {
    let mut thrown = None;
    loop {
        let Some(call) = job.next(&mut core.borrow_mut(), now()) else {
            return thrown;
        };
        let (answer, threw) = make(core, callbacks, &call).await;
        thrown = threw.or(thrown);
        job.answer(&mut core.borrow_mut(), answer, now());
    }
}

/// A job's coded `CALLBACK_FAILED` error with what the callback threw as its `cause` (kept
/// when it has one already).
pub fn with_cause<T>(out: Result<T, JsValue>, thrown: Option<JsValue>) -> Result<T, JsValue> {
    let (Err(e), Some(cause)) = (&out, thrown) else {
        return out;
    };
    let get = |k: &str| js_sys::Reflect::get(e, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let failed = get("code").as_string().as_deref() == Some("CALLBACK_FAILED");
    if failed && get("cause").is_undefined() {
        let _ = js_sys::Reflect::set(e, &"cause".into(), &cause);
    }
    out
}

pub fn now() -> f64 {
    js_sys::Date::now()
}

async fn make(
    core: &Rc<RefCell<Core>>,
    callbacks: &Callbacks,
    call: &Call,
) -> (Answer, Option<JsValue>) {
    if call.hook == Hook::Embedder {
        return match (&call.args, &callbacks.embedder) {
            (CallArgs::Texts(texts), Some(model)) => {
                let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
                (Answer::Vectors(model.embed(&texts)), None)
            }
            _ => (Answer::Failed("no embedder was given".to_string()), None),
        };
    }
    let Some(f) = callbacks.function(call.hook) else {
        let no = format!("no {} callback was given", call.hook.name());
        return (Answer::Failed(no), None);
    };
    let args = match arguments(&call.args) {
        Ok(args) => args,
        Err(e) => {
            let why = format!("{} was not run: {}", call.hook.name(), error_text(&e));
            return (Answer::Failed(why), Some(e));
        }
    };
    let returned = match f.apply(&JsValue::NULL, &args) {
        Ok(v) => Promise::resolve(&v),
        Err(e) => return (Answer::Failed(error_text(&e)), Some(e)),
    };
    let answer = match race(&returned, call.wait_ms).await {
        Raced::Value(v) => read(&v, call.expects),
        Raced::Error(e) => return (Answer::Failed(error_text(&e)), Some(e)),
        Raced::TimedOut => {
            if let Some(late) = call.late {
                let (core, expects) = (core.clone(), call.expects);
                wasm_bindgen_futures::spawn_local(async move {
                    let answer = match wasm_bindgen_futures::JsFuture::from(returned).await {
                        Ok(v) => read(&v, expects),
                        Err(e) => Answer::Failed(error_text(&e)),
                    };
                    settle_late(&mut core.borrow_mut(), late, answer, now());
                });
            }
            Answer::TimedOut
        }
    };
    (answer, None)
}

/// The JS arguments of a call: `summarize(prompt, info)`, `llm(messages, info)`,
/// `extract(turns)`, `embed(texts)`.
fn arguments(args: &CallArgs) -> Result<Array, JsValue> {
    Ok(match args {
        CallArgs::Summary(r) => Array::of2(&r.prompt.as_str().into(), &to_js(r)?),
        CallArgs::Episode(r) => Array::of2(&r.prompt.as_str().into(), &to_js(r)?),
        CallArgs::Llm(r) => Array::of2(&to_js(&r.messages)?, &to_js(r)?),
        CallArgs::Turns(turns) => Array::of1(&to_js(turns)?),
        CallArgs::Texts(texts) => Array::of1(
            &texts
                .iter()
                .map(|t| JsValue::from_str(t))
                .collect::<Array>(),
        ),
    })
}

/// A resolved value as the answer the call expects.
fn read(v: &JsValue, expects: Expect) -> Answer {
    match expects {
        Expect::Text => match v.as_string() {
            Some(text) => Answer::Text(text),
            None => Answer::Wrong(describe(v)),
        },
        Expect::Json if v.is_undefined() || v.is_null() => Answer::Json("null".to_string()),
        Expect::Json => match json_string(v) {
            Ok(text) => Answer::Json(text),
            Err(why) => Answer::Wrong(why),
        },
        Expect::Vectors => match vectors(v) {
            Ok(vectors) => Answer::Vectors(vectors),
            Err(why) => Answer::Wrong(why),
        },
    }
}

/// `number[][]` or `Float32Array[]` (the core checks there is one per text).
fn vectors(v: &JsValue) -> Result<Vec<Vec<f32>>, String> {
    if !is_array(v) {
        let got = describe(v);
        return Err(format!(
            "embed must resolve to an array of vectors, got {got}"
        ));
    }
    items(v, "embed's answer")?
        .iter()
        .map(|v| match v.is_object() {
            true => f32s(&v, "an embedding"),
            false => Err(format!(
                "each embedding must be an array of numbers, got {}",
                describe(&v)
            )),
        })
        .collect()
}
