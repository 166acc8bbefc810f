//! `Tokenizer`: a Hugging Face tokenizer.json or the approximate counter, shared by any number
//! of `Memory` instances.

use super::errors::{invalid_option, js_error};
use crate::error::ErrorCode;
use crate::tokens::{ApproximateCounter, HfTokenizer, SharedCounter};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A `Tokenizer` as the registry knows it: alive only while JS holds the object.
type WeakCounter = Weak<dyn crate::tokens::TokenCounter>;

thread_local! {
    /// Lets `new Memory({ tokenizer })` find the Rust side of a JS `Tokenizer` without taking
    /// ownership of it (wasm-bindgen cannot borrow a class instance out of an options object).
    static REGISTRY: RefCell<(u32, HashMap<u32, WeakCounter>)> =
        RefCell::new((0, HashMap::new()));
}

/// Counts tokens the way a model does. Load a model's `tokenizer.json` with
/// `Tokenizer.fromJson`, or use `Tokenizer.approximate()` when no vocabulary is at hand.
///
/// @example
/// ```js
/// const json = await (await fetch("/tokenizer.json")).text();
/// const tok = Tokenizer.fromJson(json);
/// tok.count("Hello world"); // 2 with the llama3 vocabulary
/// tok.countMany(["Hi", "How are you?"]); // Uint32Array [1, 4]
/// ```
#[wasm_bindgen]
pub struct Tokenizer {
    counter: SharedCounter,
    hf: Option<Arc<HfTokenizer>>,
    handle: u32,
}

impl Tokenizer {
    fn register(counter: SharedCounter, hf: Option<Arc<HfTokenizer>>) -> Tokenizer {
        let handle = REGISTRY.with(|r| {
            let mut r = r.borrow_mut();
            r.0 += 1;
            let id = r.0;
            r.1.retain(|_, w| w.strong_count() > 0);
            r.1.insert(id, Arc::downgrade(&counter));
            id
        });
        Tokenizer {
            counter,
            hf,
            handle,
        }
    }

    /// The counter behind a JS `Tokenizer` object, if `value` is one that is still alive.
    pub fn counter_of(value: &JsValue) -> Result<SharedCounter, JsValue> {
        let handle = js_sys::Reflect::get(value, &"__llmMemoryHandle".into())
            .ok()
            .and_then(|h| h.as_f64());
        let found = handle
            .and_then(|h| REGISTRY.with(|r| r.borrow().1.get(&(h as u32)).and_then(Weak::upgrade)));
        found.ok_or_else(|| {
            invalid_option(
                "tokenizer must be a Tokenizer from Tokenizer.fromJson() or \
                 Tokenizer.approximate() that has not been freed",
            )
        })
    }
}

#[wasm_bindgen]
impl Tokenizer {
    /// Loads a Hugging Face `tokenizer.json` (BPE, WordPiece, Unigram or WordLevel), given as its
    /// text, its bytes (`Uint8Array` / `ArrayBuffer`) or the parsed object.
    /// Throws an `Error` with code `INVALID_TOKENIZER` when the file cannot be used.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | ArrayBuffer | object")]
        json: JsValue,
    ) -> Result<Tokenizer, JsValue> {
        let bytes: Vec<u8> = if let Some(s) = json.as_string() {
            s.into_bytes()
        } else if let Some(a) = json.dyn_ref::<js_sys::Uint8Array>() {
            a.to_vec()
        } else if let Some(b) = json.dyn_ref::<js_sys::ArrayBuffer>() {
            js_sys::Uint8Array::new(b).to_vec()
        } else if json.is_object() {
            js_sys::JSON::stringify(&json)
                .ok()
                .and_then(|s| s.as_string())
                .ok_or_else(|| {
                    js_error(
                        ErrorCode::InvalidTokenizer,
                        "the tokenizer object could not be turned into JSON",
                    )
                })?
                .into_bytes()
        } else {
            return Err(js_error(
                ErrorCode::InvalidTokenizer,
                "Tokenizer.fromJson takes the tokenizer.json text, its bytes, or the parsed object",
            ));
        };
        let hf = Arc::new(HfTokenizer::from_bytes(&bytes)?);
        Ok(Tokenizer::register(hf.clone(), Some(hf)))
    }

    /// The no-vocabulary fallback: `charsPerToken` characters per token (default 4).
    pub fn approximate(
        #[wasm_bindgen(js_name = charsPerToken)] chars_per_token: Option<f64>,
    ) -> Result<Tokenizer, JsValue> {
        let c = ApproximateCounter::new(chars_per_token.unwrap_or(4.0))?;
        Ok(Tokenizer::register(Arc::new(c), None))
    }

    /// Tokens in `text`, without special tokens. Lone UTF-16 surrogates count as U+FFFD.
    pub fn count(&self, text: &str) -> u32 {
        self.counter.count(text) as u32
    }

    /// Tokens in each text; one call for many messages is far cheaper than many calls: the
    /// texts cross into wasm as one joined string.
    #[wasm_bindgen(js_name = countMany)]
    pub fn count_many(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] texts: js_sys::Array,
    ) -> Result<Vec<u32>, JsValue> {
        let n = texts.length();
        let mut units = Vec::with_capacity(n as usize);
        for i in 0..n {
            let t = texts.get(i);
            if !t.is_string() {
                return Err(invalid_option(format!(
                    "countMany takes an array of strings; item {i} is not a string"
                )));
            }
            units.push(t.unchecked_into::<js_sys::JsString>().length() as usize);
        }
        let joined = String::from(texts.join(""));
        let counts = match split_utf16(&joined, &units) {
            Some(parts) => self.counter.count_many(&parts),
            // A lone high surrogate that ends one text pairs with a low one starting the next
            // once joined: count those texts one by one.
            None => (0..n)
                .map(|i| {
                    self.counter
                        .count(&texts.get(i).as_string().unwrap_or_default())
                })
                .collect(),
        };
        Ok(counts.into_iter().map(|c| c as u32).collect())
    }

    /// Loads the compact form returned by `prepared()`, skipping the JSON: store it (for
    /// example in IndexedDB) keyed by a hash of the tokenizer.json, and load it on the next visit.
    /// Throws `INVALID_TOKENIZER` for bytes that are not a prepared form of this version.
    ///
    /// @example
    /// ```js
    /// const tok = Tokenizer.fromJson(json);
    /// const bytes = tok.prepared(); // Uint8Array, or undefined for non-BPE vocabularies
    /// const again = Tokenizer.fromPrepared(bytes);
    /// ```
    #[wasm_bindgen(js_name = fromPrepared)]
    pub fn from_prepared(bytes: &[u8]) -> Result<Tokenizer, JsValue> {
        let hf = Arc::new(HfTokenizer::from_prepared(bytes)?);
        Ok(Tokenizer::register(hf.clone(), Some(hf)))
    }

    /// The compact prepared form for `Tokenizer.fromPrepared` (byte-level BPE vocabularies
    /// such as gpt-4o, llama3 and qwen3); `undefined` for other tokenizers.
    pub fn prepared(&self) -> Option<Vec<u8>> {
        self.hf.as_ref().and_then(|h| h.prepared())
    }

    /// Token ids of `text` (without special tokens). Only for a loaded tokenizer.json.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, JsValue> {
        match &self.hf {
            Some(hf) => Ok(hf.encode_ids(text)?),
            None => Err(js_error(
                ErrorCode::InvalidTokenizer,
                "the approximate tokenizer has no vocabulary to encode with",
            )),
        }
    }

    /// `"approximate"`, or the vocabulary model: `"BPE"`, `"WordPiece"`, `"Unigram"`, `"WordLevel"`.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        self.counter.kind().to_string()
    }

    /// Whether counts are the model's real ones.
    #[wasm_bindgen(getter)]
    pub fn exact(&self) -> bool {
        self.counter.is_exact()
    }

    #[wasm_bindgen(getter, js_name = "__llmMemoryHandle", skip_typescript)]
    pub fn handle(&self) -> u32 {
        self.handle
    }
}

/// Cuts `joined` into texts of the given UTF-16 lengths; `None` when a cut falls inside a
/// character.
fn split_utf16<'a>(joined: &'a str, units: &[usize]) -> Option<Vec<&'a str>> {
    let mut out = Vec::with_capacity(units.len());
    let mut chars = joined.char_indices();
    let mut start = 0;
    for &want in units {
        let mut have = 0;
        let mut end = start;
        while have < want {
            let (at, c) = chars.next()?;
            have += c.len_utf16();
            end = at + c.len_utf8();
        }
        if have != want {
            return None;
        }
        out.push(&joined[start..end]);
        start = end;
    }
    Some(out)
}
