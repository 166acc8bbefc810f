// Token counting for SentencePiece-style BPE vocabularies (Llama 2, Gemma 3: spaces as "▁",
// byte fallback), side by side in one Node process: llm-memory's Tokenizer (wasm) against the JS
// tokenizers that read the same tokenizer.json, @huggingface/tokenizers and @lenml/tokenizers
// (the transformers.js tokenizers the @lenml packages ship). Counts must agree before timing.
//
//   make build && node bench/tokens-sentencepiece.mjs [--runs 5]   → a markdown table on stdout
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { median, spread, fmt } from "./stats.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const RUNS = Number(args.includes("--runs") ? args[args.indexOf("--runs") + 1] : 5);

const lib = await import("../pkg/llm_memory.js");
lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
const { Tokenizer: HfTokenizer } = await import("@huggingface/tokenizers");

/** English prose with markdown and code: the dev dependencies' READMEs, cut into chat turns. */
function turns(limit) {
  let out = "";
  for (const d of readdirSync(root + "node_modules").sort()) {
    const subs = d.startsWith("@") ? readdirSync(root + "node_modules/" + d).sort().map((s) => `${d}/${s}`) : [d];
    for (const s of subs) {
      const p = `${root}node_modules/${s}/README.md`;
      if (existsSync(p)) out += readFileSync(p, "utf8") + "\n\n";
      if (out.length >= limit) return out.slice(0, limit).split(/\n\n+/).filter(Boolean);
    }
  }
  return out.split(/\n\n+/).filter(Boolean);
}
const texts = turns(300_000);
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

function time(fn) {
  const t0 = performance.now();
  const v = fn();
  return [v, performance.now() - t0];
}

let md = "| vocabulary | engine | load ms | MB/s (median, min–max) | vs @huggingface/tokenizers |\n| --- | --- | ---: | ---: | ---: |\n";
for (const name of ["llama2", "gemma3"]) {
  const dir = `${root}node_modules/@lenml/tokenizer-${name}/models/`;
  const jsonText = readFileSync(dir + "tokenizer.json", "utf8");
  const config = JSON.parse(readFileSync(dir + "tokenizer_config.json", "utf8"));
  const engines = [];
  {
    const [tok, ms] = time(() => lib.Tokenizer.fromJson(jsonText));
    engines.push({ name: "llm-memory", load: ms, count: (t) => tok.count(t) });
  }
  {
    const [tok, ms] = time(() => new HfTokenizer(JSON.parse(jsonText), config));
    engines.push({ name: "@huggingface/tokenizers", load: ms, count: (t) => tok.encode(t, { add_special_tokens: false }).ids.length });
  }
  {
    const { fromPreTrained } = await import(`@lenml/tokenizer-${name}`);
    const [tok, ms] = time(() => fromPreTrained());
    engines.push({ name: "@lenml/tokenizers", load: ms, count: (t) => tok.encode(t, { add_special_tokens: false }).length });
  }
  const want = texts.map(engines[1].count);
  for (const e of engines) {
    const differ = texts.filter((t, i) => e.count(t) !== want[i]).length;
    e.note = differ ? ` (${differ} of ${texts.length} turns counted differently)` : "";
    const mbps = [];
    for (let r = 0; r < RUNS; r++) {
      const [, ms] = time(() => texts.forEach(e.count));
      mbps.push(bytes / 1e3 / ms);
    }
    e.mbps = mbps;
  }
  const base = median(engines[1].mbps);
  for (const e of engines) {
    md += `| ${name} | ${e.name}${e.note} | ${fmt(e.load)} | ${fmt(median(e.mbps))} (${spread(e.mbps)}) | ${fmt(median(e.mbps) / base)}× |\n`;
  }
}
md += `\n${texts.length} chat turns (${fmt(bytes / 1e3)} kB of the dev dependencies' READMEs), counted one call per turn; ${RUNS} runs after a warm-up pass (the equality check). Load: the tokenizer.json text already read, parse and build only. Node ${process.version}.\n`;
process.stdout.write(md);
