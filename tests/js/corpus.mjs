// A deterministic, varied text corpus for differential token-count tests: prose, code, CJK,
// emoji (ZWJ sequences, flags, skin tones), RTL scripts, numbers, long words, odd whitespace.
import { mulberry32 } from "../../bench/vectors.mjs";

const fragments = [
  "The quick brown fox jumps over the lazy dog.",
  "I'd've thought they'll say it's fine — isn't it?",
  "fn main() {\n    let x: Vec<u32> = (0..10).map(|i| i * 2).collect();\n}",
  "const add = (a, b) => a + b; // arrow\n\tif (x !== null) { return x?.y ?? 0; }",
  "def f(x):\n    return {k: v for k, v in x.items() if v}\n",
  "SELECT id, name FROM users WHERE created_at > '2024-01-01' ORDER BY 2 DESC;",
  "日本語のテキストを分割します。東京は晴れです。",
  "中文分词测试：我们今天去公园散步，天气很好。",
  "한국어 문장도 포함합니다. 안녕하세요!",
  "Привет, как дела? Всё хорошо, спасибо.",
  "مرحبا بالعالم، هذا نص عربي للاختبار.",
  "שלום עולם, זה טקסט בעברית.",
  "नमस्ते दुनिया, यह हिंदी पाठ है।",
  "👋🏽 Hello 👨‍👩‍👧‍👦 family 🇫🇷🇯🇵 flags 🧑🏿‍💻 coder ❤️‍🔥",
  "Pneumonoultramicroscopicsilicovolcanoconiosis and antidisestablishmentarianism",
  "3.14159265358979 1,234,567.89 0xDEADBEEF 1e-10 2024-11-29T16:37:09Z",
  "   leading spaces\n\n\n\ttabs\r\nwindows newlines   trailing   ",
  "https://example.com/path?query=value&other=1#frag user@example.org",
  "aGVsbG8gd29ybGQgdGhpcyBpcyBiYXNlNjQgZW5jb2RlZCB0ZXh0IQ==",
  "<div class=\"x\">&amp; &lt;tag&gt;</div> {\"json\": [1, 2, {\"k\": null}]}",
  "ÀÉÎÕÜ ñ ç ß ø å æ œ — “smart quotes” ‘single’ … ™ © ®",
  "$$\\int_0^\\infty e^{-x^2} dx = \\frac{\\sqrt{\\pi}}{2}$$",
  "git commit -m \"fix: handle None\" && cargo test --release -- --nocapture",
  "ＦＵＬＬＷＩＤＴＨ　ｔｅｘｔ　１２３",
  "Zalgo: ẗ̴̢h̷̛i̵s̶ ̸i̴s̷ ̵w̶e̴i̵r̸d̷",
];

/** `n` texts: each fragment alone, then random mixes of fragments and random code points. */
export function corpus(n = 600, seed = 42) {
  const rand = mulberry32(seed);
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const out = [...fragments, ""];
  const ranges = [[0x20, 0x7e], [0xa0, 0x24f], [0x370, 0x3ff], [0x4e00, 0x9fff], [0x1f300, 0x1faff], [0x3040, 0x30ff]];
  while (out.length < n) {
    const parts = [];
    const k = 1 + Math.floor(rand() * 5);
    for (let i = 0; i < k; i++) {
      if (rand() < 0.7) parts.push(pick(fragments));
      else {
        const [lo, hi] = pick(ranges);
        let s = "";
        const len = 1 + Math.floor(rand() * 40);
        for (let j = 0; j < len; j++) s += String.fromCodePoint(lo + Math.floor(rand() * (hi - lo)));
        parts.push(s);
      }
    }
    out.push(parts.join(pick([" ", "\n", "", "  ", "\t"])));
  }
  // Long runs: a 5 000-character word and a long run of digits.
  out.push("a".repeat(5000), "9".repeat(3000), "ab ".repeat(2000));
  return out;
}

/** Deterministic pseudo-random bytes as base64, `bytes` long before encoding. */
export function base64Blob(bytes, seed = 7) {
  const rand = mulberry32(seed);
  const buf = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) buf[i] = Math.floor(rand() * 256);
  return buf.toString("base64");
}

/**
 * The worst cases of a pre-tokenizer and BPE, each one long piece or a long run of short ones:
 * 50 000 characters without a word break (one letter, mixed case, CJK), 1 MB of base64,
 * long runs of spaces, newlines, digits, punctuation and emoji.
 */
export function worstCases(seed = 9) {
  const rand = mulberry32(seed);
  const letters = (n, lo, hi) => {
    let s = "";
    for (let i = 0; i < n; i++) s += String.fromCodePoint(lo + Math.floor(rand() * (hi - lo)));
    return s;
  };
  return {
    "50k same letter": "a".repeat(50_000),
    "50k random letters": letters(50_000, 0x61, 0x7b),
    "50k mixed case": letters(25_000, 0x41, 0x5b) + letters(25_000, 0x61, 0x7b),
    "50k CJK": letters(50_000, 0x4e00, 0x9fff),
    "1 MB base64": base64Blob(750_000).slice(0, 1_000_000),
    "spaces": " ".repeat(20_000) + "x" + "\n \t".repeat(5000),
    "digits": "1234567890".repeat(3000),
    "punctuation": "!?.,;:-_/\\()[]{}<>".repeat(2000),
    "emoji": "👨‍👩‍👧‍👦🇫🇷❤️‍🔥".repeat(3000),
  };
}

/** A large varied corpus: `corpus(n)` plus longer documents built from it. */
export function largeCorpus(n = 3000, seed = 11) {
  const texts = corpus(n, seed);
  const rand = mulberry32(seed);
  for (let i = 0; i < 60; i++) {
    let doc = "";
    while (doc.length < 20_000) doc += texts[Math.floor(rand() * texts.length)] + (rand() < 0.3 ? "\n\n" : " ");
    texts.push(doc);
  }
  return texts;
}
