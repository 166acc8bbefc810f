//! Text for the tokenizer equality tests: fragments where tokenizers tend to differ (scripts,
//! combining marks, emoji, white space, special-token text) and random mixes of them.

/// A deterministic xorshift generator.
pub struct Rng(u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub const FRAGMENTS: &[&str] = &[
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

pub fn corpus() -> Vec<String> {
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

/// The `tokenizers` crate on the same file: the reference the fast paths must equal.
pub struct Reference(tokenizers::Tokenizer);

impl Reference {
    pub fn new(json: &[u8]) -> Reference {
        Reference(tokenizers::Tokenizer::from_bytes(json).expect("the crate loads the file"))
    }

    /// Token ids without special tokens.
    pub fn ids(&self, text: &str) -> Vec<u32> {
        self.0
            .encode_fast(text, false)
            .expect("the crate encodes")
            .get_ids()
            .to_vec()
    }
}

/// Asserts that `fast` gives the reference's ids and counts for every text, and that
/// `count_many` agrees with `count`.
pub fn assert_same_ids(
    name: &str,
    fast: &llm_memory::tokens::HfTokenizer,
    reference: &Reference,
    texts: &[String],
) {
    use llm_memory::tokens::TokenCounter;
    let mut bad = 0;
    for t in texts {
        let want = reference.ids(t);
        let got = fast.encode_ids(t).unwrap();
        if got != want {
            bad += 1;
            if bad < 4 {
                let head: String = t.chars().take(80).collect();
                eprintln!("{name}: ids differ on {head:?}\n ours {got:?}\n want {want:?}");
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
