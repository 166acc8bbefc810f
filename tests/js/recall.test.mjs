// Recall as a Node user meets it: strategy "retrieval" over long chats, facts with
// supersession and their history, the extract hook, episodes, the memory tools in a chat loop
// (bad arguments included), and hybrid ranking with an app-supplied embed().
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory, loadTokenizer, throwsCode } from "./helpers.mjs";

const llama = loadTokenizer("llama3");
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);

function filler(mem, n, start = 0) {
  const topics = ["gardening", "the weather", "a recipe for soup", "running shoes", "a podcast", "the bus schedule"];
  for (let i = 0; i < n; i++) {
    const t = T0 + (start + i) * 60_000;
    mem.add("user", `Turn ${i}: let's chat about ${topics[i % topics.length]} for a bit.`, { timestamp: t });
    mem.add("assistant", `Sure, here are some thoughts on ${topics[(i + 1) % topics.length]}.`, { timestamp: t + 1 });
  }
}

test("retrieval brings back an old turn within the budget, dated, with its score", async () => {
  const mem = new Memory({ strategy: "retrieval", maxTokens: 2000, reserveTokens: 300, tokenizer: llama, systemPrompt: "You are helpful." });
  mem.add("user", "By the way, my passport number ends in 4471 and expires in March.", { timestamp: T0 });
  mem.add("assistant", "Got it.", { timestamp: T0 + 1 });
  filler(mem, 1000, 1);
  mem.add("user", "When does my passport expire?");
  const { messages, report } = await mem.context();
  assert.ok(report.totalTokens <= 1700, `${report.totalTokens}`);
  assert.equal(report.strategy, "retrieval");
  const memory = messages.find((m) => m.role === "system" && m.content.startsWith("[Memory]"));
  assert.ok(memory, "a [Memory] section");
  assert.match(memory.content, /- \(2025-01-01\) user: By the way, my passport number ends in 4471/);
  assert.equal(messages.at(-1).content, "When does my passport expire?");
  const first = report.entries[0];
  assert.equal(first.status, "retrieved");
  assert.equal(first.reason, "relevant");
  assert.ok(first.score > 0);
  const section = report.sections.find((s) => s.name === "retrieved");
  assert.equal(section.marker, "[Memory]");
  assert.ok(report.retrieved.some((r) => r.id === first.id && r.kind === "turn"));
  assert.match(report.headline, /memor/);
  // An explicit query wins over the latest message.
  const other = await mem.context({ query: "passport number 4471" });
  assert.ok(other.messages.some((m) => m.content.includes("4471")));
});

test("retrieved memories are in chronological order and a correction comes with its date", async () => {
  const mem = new Memory({ strategy: "retrieval", maxTokens: 1200, tokenizer: llama });
  mem.add("user", "My dentist appointment is on Tuesday.", { timestamp: T0 });
  filler(mem, 200, 1);
  mem.add("user", "Update: my dentist appointment moved to Friday.", { timestamp: T0 + 3 * DAY });
  filler(mem, 200, 5000);
  mem.add("user", "Which day is my dentist appointment?");
  const { messages } = await mem.context();
  const memory = messages.find((m) => m.content.startsWith("[Memory]")).content;
  const tue = memory.indexOf("Tuesday");
  const fri = memory.indexOf("Friday");
  assert.ok(fri > 0, memory);
  assert.ok(tue === -1 || tue < fri, "older first");
  assert.match(memory, /\(2025-01-04\) user: Update: my dentist appointment moved to Friday/);
});

test("facts: remember, supersede, update, forget, history", async () => {
  const mem = new Memory({ strategy: "retrieval", maxTokens: 1000 });
  const blue = mem.remember("My favorite color is blue", { category: "preference" });
  assert.equal(blue, "f1");
  const green = mem.remember("My favorite color is green", { category: "preference", importance: 0.9 });
  assert.deepEqual(mem.facts().map((f) => f.text), ["My favorite color is green"]);
  assert.equal(mem.facts()[0].importance, 0.9, "importance comes back as it was set");
  assert.equal(mem.remember("my favorite color is GREEN"), green, "same words: same fact");
  const all = mem.facts({ all: true });
  assert.equal(all.find((f) => f.id === blue).status, "superseded");
  assert.equal(all.find((f) => f.id === blue).supersededBy, green);
  assert.deepEqual(mem.factHistory(blue).map((c) => c.op), ["add", "supersede"]);
  const hits = await mem.recall("what is my favorite color", { k: 5 });
  assert.equal(hits[0].id, green);
  assert.ok(!hits.some((h) => h.id === blue), "a superseded fact is not recalled");
  const dog = mem.remember("Dog's name is Rex");
  mem.updateFact(dog, "Dog's name is Rex, a beagle");
  assert.equal(mem.factHistory(dog)[1].previousText, "Dog's name is Rex");
  // forget() takes fact ids and entry ids; a forgotten fact's words leave its history too.
  mem.forget(dog);
  assert.equal(mem.factHistory(dog).at(-1).op, "delete");
  assert.deepEqual(mem.factHistory(dog).map((c) => [c.op, c.text, c.previousText]), [["add", "", undefined], ["update", "", undefined], ["delete", "", undefined]]);
  throwsCode(assert, () => mem.forget(dog), "NOT_FOUND");
  const e = mem.add("user", "hello");
  mem.forget(e);
  assert.equal(mem.length, 0);
  throwsCode(assert, () => mem.updateFact(dog, "x"), "NOT_FOUND");
  throwsCode(assert, () => mem.forget("f999"), "NOT_FOUND");
  throwsCode(assert, () => mem.remember("   "), "INVALID_ENTRY");
  throwsCode(assert, () => mem.remember("x", { importance: 2 }), "INVALID_OPTION");
  throwsCode(assert, () => mem.remember("x", { categroy: "a" }), "INVALID_OPTION");
  throwsCode(assert, () => mem.remember(42), "INVALID_OPTION");
  throwsCode(assert, () => mem.factHistory("f404"), "NOT_FOUND");
  // Facts join the [Memory] section, superseded ones never.
  mem.add("user", "Pick a paint with my favorite color");
  const { messages } = await mem.context();
  const memory = messages.find((m) => m.content.startsWith("[Memory]")).content;
  assert.match(memory, /My favorite color is green/);
  assert.doesNotMatch(memory, /blue/);
  // An old value can be forgotten too (the user's former address, say): gone from the
  // export, and from storage with it.
  mem.forget(blue);
  assert.doesNotMatch(JSON.stringify(mem.export()), /blue|beagle/);
  assert.match(JSON.stringify(mem.export()), /green/);
});

test("the extract hook runs after each exchange and its ops are applied", async () => {
  const seen = [];
  const mem = new Memory({
    strategy: "retrieval", maxTokens: 1000,
    extract: async (turns) => {
      seen.push(turns.map((t) => t.content));
      // Re-entrant: the hook may read the memory while it runs.
      const known = mem.facts().map((f) => f.text);
      const last = turns.findLast((t) => t.role === "user")?.content ?? "";
      if (last.startsWith("I moved")) return [{ op: "add", text: "I live in Porto" }, { op: "bogus", text: "x" }];
      if (!known.length) return [{ op: "add", text: "I live in Lisbon", category: "home" }];
      return [];
    },
  });
  mem.add("user", "Hi, I'm in Lisbon.");
  await mem.context(); // no assistant reply yet: nothing to extract
  assert.equal(seen.length, 0);
  mem.add("assistant", "Hello!");
  mem.add("user", "What's nice to see?");
  await mem.context();
  mem.add("assistant", "The castle.");
  assert.equal(mem.facts()[0]?.text, "I live in Lisbon");
  mem.add("user", "I moved to Porto last week.");
  mem.add("assistant", "Congrats!");
  const res = await mem.extractFacts();
  assert.equal(res.applied, 1);
  assert.match(res.notes[0], /unknown op "bogus"/);
  assert.deepEqual(seen.at(-1), ["What's nice to see?", "The castle.", "I moved to Porto last week.", "Congrats!"], "only unseen turns");
  assert.deepEqual(mem.facts().map((f) => f.text), ["I live in Porto"], "Porto supersedes Lisbon");
  // A failing hook loses nothing and is reported.
  const broken = new Memory({ strategy: "retrieval", maxTokens: 500, extract: async () => { throw new Error("LLM down"); } });
  broken.add("user", "hi");
  broken.add("assistant", "hello");
  broken.add("user", "again");
  broken.add("assistant", "yes");
  const { report } = await broken.context();
  assert.ok(report.notes.some((n) => n.includes("LLM down")), report.notes.join("; "));
  throwsCode(assert, () => new Memory({}).extractFacts(), "INVALID_OPTION");
});

test("episodes: recordEpisode asks summarize for JSON, recallEpisodes finds it, retrieval sends it", async () => {
  const prompts = [];
  let answer = '```json\n{"summary": "Planned a Kyoto trip for April", "actions": ["booked a ryokan in Gion", "reserved a tea ceremony"], "outcome": "trip booked", "importance": 0.8}\n```';
  const mem = new Memory({
    strategy: "retrieval", maxTokens: 1500, tokenizer: llama,
    summarize: async (prompt, info) => { prompts.push({ prompt, info }); return answer; },
  });
  assert.equal(await mem.recordEpisode(), null, "no turns yet");
  mem.add("user", "Help me plan a trip to Kyoto in April.", { timestamp: T0 });
  mem.add("assistant", "I booked a ryokan in Gion and a tea ceremony.", { timestamp: T0 + 60_000 });
  const ep = await mem.recordEpisode();
  assert.match(prompts[0].prompt, /user: Help me plan a trip to Kyoto/);
  assert.deepEqual(prompts[0].info.entryIds, ["e1", "e2"]);
  assert.equal(ep.summary, "Planned a Kyoto trip for April");
  assert.deepEqual(ep.actions, ["booked a ryokan in Gion", "reserved a tea ceremony"]);
  assert.equal(ep.importance, 0.8);
  assert.equal(ep.startTime, T0);
  assert.equal(ep.endTime, T0 + 60_000);
  assert.equal(await mem.recordEpisode(), null, "nothing new since");
  // Two calls at once: the second waits for the first, then finds nothing new to write.
  mem.add("user", "Also book the bullet train.", { timestamp: T0 + 120_000 });
  const asked = prompts.length;
  const [first, second] = await Promise.all([mem.recordEpisode(), mem.recordEpisode()]);
  assert.equal(first.summary, "Planned a Kyoto trip for April");
  assert.equal(second, null);
  assert.equal(prompts.length, asked + 1, "the same turns are not asked for twice");
  mem.forget(first.id);
  filler(mem, 300, 10);
  answer = "sorry, no JSON today";
  await assert.rejects(mem.recordEpisode(), (e) => e.code === "INVALID_DOCUMENT");
  assert.equal(mem.episodes().length, 1);
  const found = await mem.recallEpisodes("planning a trip to Japan, Kyoto ryokan", { k: 2 });
  assert.equal(found[0].id, ep.id);
  assert.ok(found[0].score > 0);
  mem.add("user", "Last time we planned the Kyoto trip, what did we book?");
  const { messages, report } = await mem.context();
  const past = messages.find((m) => m.content.startsWith("[Past episode]"));
  assert.match(past.content, /- \(2025-01-01\) Planned a Kyoto trip for April Actions: booked a ryokan in Gion/);
  assert.ok(report.sections.some((s) => s.name === "episodes" && s.items === 1));
  throwsCode(assert, () => new Memory({}).recordEpisode(), "INVALID_OPTION");
});

test("memory tools: definitions, a chat loop round trip, bad arguments as readable results", async () => {
  const mem = new Memory({ strategy: "retrieval", maxTokens: 3000, tokenizer: llama, systemPrompt: "You remember things." });
  const tools = mem.tools();
  assert.deepEqual(tools.map((t) => t.function.name), ["store_memory", "recall_memory", "list_memories", "forget_memory"]);
  assert.ok(tools.every((t) => t.type === "function" && t.function.parameters.type === "object"));

  // A scripted model: it stores a fact, later recalls it.
  const script = [
    { tool_calls: [{ id: "c1", type: "function", function: { name: "store_memory", arguments: '{"text":"The user is allergic to peanuts","category":"health","importance":0.9}' } }] },
    { content: "Noted: no peanuts." },
    { tool_calls: [{ id: "c2", type: "function", function: { name: "recall_memory", arguments: '{"query":"allergies peanuts"}' } },
                   { id: "c3", type: "function", function: { name: "store_memory", arguments: "{oops" } }] },
    { content: "You are allergic to peanuts." },
  ];
  const results = [];
  async function turn(userText) {
    mem.add("user", userText);
    for (;;) {
      const { messages, report } = await mem.context({ tools: true });
      assert.ok(messages.length > 0);
      assert.ok(report.sections.some((s) => s.name === "tools" && s.items === 4 && s.tokens > 100));
      const reply = script.shift();
      mem.addMessage({ role: "assistant", content: reply.content ?? null, tool_calls: reply.tool_calls });
      if (!reply.tool_calls) return reply.content;
      for (const call of reply.tool_calls) {
        const result = await mem.callTool(call.function.name, call.function.arguments);
        results.push(JSON.parse(result));
        mem.add("tool", result, { toolCallId: call.id });
      }
    }
  }
  assert.equal(await turn("Remember that I'm allergic to peanuts."), "Noted: no peanuts.");
  assert.equal(results[0].stored, "f1");
  assert.equal(await turn("Do I have any allergies?"), "You are allergic to peanuts.");
  assert.equal(results[1].memories[0].text, "The user is allergic to peanuts");
  assert.match(results[2].error, /not valid JSON/);
  // Bad calls never throw.
  for (const [name, args, re] of [
    ["store_memory", "{}", /needs "text"/],
    ["store_memory", '{"text": 42}', /must be a string/],
    ["recall_memory", '{"query": "x", "k": 500}', /from 1 to 20/],
    ["forget_memory", '{"id": "f77"}', /no fact/],
    ["launch_rockets", "{}", /unknown tool/],
    ["store_memory", "[1,2]", /JSON object/],
    [42, "{}", /tool name must be a string/],
  ]) {
    const out = JSON.parse(await mem.callTool(name, args));
    assert.match(out.error, re);
  }
  // Arguments may be an object; list and forget.
  assert.equal(JSON.parse(await mem.callTool("list_memories", {})).memories.length, 1);
  assert.equal(JSON.parse(await mem.callTool("forget_memory", { id: "f1" })).forgotten, "f1");
  assert.equal(mem.facts().length, 0);
  // Tool schemas count against the budget: the same context is smaller without them.
  const withTools = (await mem.context({ tools: true })).report.totalTokens;
  const without = (await mem.context()).report.totalTokens;
  assert.ok(withTools > without + 100, `${withTools} vs ${without}`);
  const always = new Memory({ strategy: "tokens", maxTokens: 1000, tools: true });
  always.add("user", "hi");
  assert.ok((await always.context()).report.sections.some((s) => s.name === "tools"));
});

test("embed: hybrid ranking finds a match that shares no word, and failures degrade to words", async () => {
  // A toy embedder: concepts as axes.
  const axes = [["cat", "kitten", "feline", "pet"], ["car", "vehicle", "drive"], ["food", "hungry", "eat", "dinner", "pasta"]];
  let calls = 0;
  const embed = async (texts) => {
    calls++;
    mem.facts(); // re-entrant use is fine: no borrow is held while embed runs
    return texts.map((t) => {
      const w = t.toLowerCase();
      return Float32Array.from([...axes.map((a) => a.filter((x) => w.includes(x)).length), 0.01]);
    });
  };
  const mem = new Memory({ strategy: "retrieval", maxTokens: 600, embed, retrieval: { quantize: true, maxItems: 5 } });
  mem.remember("Whiskers is a kitten who sleeps all day", { importance: 0.7 });
  mem.remember("Owns a blue vehicle");
  filler(mem, 40, 1);
  const hits = await mem.recall("my feline", { k: 2, kinds: ["fact"] });
  assert.equal(hits[0].text, "Whiskers is a kitten who sleeps all day");
  assert.ok(calls >= 2);
  mem.add("user", "What should I feed my feline?");
  const { messages } = await mem.context();
  assert.ok(messages.some((m) => m.content.includes("Whiskers")));
  const bad = new Memory({ strategy: "retrieval", maxTokens: 600, embed: async () => [[1, 2]] });
  bad.remember("one fact");
  bad.remember("another fact");
  bad.add("user", "fact?");
  const { report } = await bad.context();
  assert.ok(report.notes.some((n) => /embed failed/.test(n)), report.notes.join("; "));
  await assert.doesNotReject(bad.recall("fact"));
});

test("options and arguments are checked", () => {
  throwsCode(assert, () => new Memory({ strategy: "retrieval" }), "INVALID_OPTION");
  throwsCode(assert, () => new Memory({ strategy: "retrieval", maxTokens: 100, retrieval: { recentShare: 2 } }), "INVALID_OPTION");
  throwsCode(assert, () => new Memory({ strategy: "retrieval", maxTokens: 100, retrieval: { maxItem: 2 } }), "INVALID_OPTION");
  throwsCode(assert, () => new Memory({ embed: "yes" }), "INVALID_OPTION");
  const mem = new Memory({ strategy: "retrieval", maxTokens: 100 });
  throwsCode(assert, () => mem.recall("x", { kinds: ["memes"] }), "INVALID_OPTION");
  throwsCode(assert, () => mem.recall("x", { k: -1 }), "INVALID_OPTION");
  throwsCode(assert, () => mem.recallEpisodes("x", { k: 0 }), "INVALID_OPTION");
  throwsCode(assert, () => mem.recallEpisodes("x", 2), "INVALID_OPTION");
  throwsCode(assert, () => mem.recallEpisodes("x", { kk: 2 }), "INVALID_OPTION");
  throwsCode(assert, () => mem.context({ tools: "yes" }), "INVALID_OPTION");
  mem.configure({ retrieval: { recentShare: 0.2, maxItems: 3, halfLifeDays: 7 } });
});

test("the README's Remember and recall example runs", async () => {
  const { readFileSync } = await import("node:fs");
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("## Remember and recall"));
  const code = section.slice(section.indexOf("```js\n") + 6, section.indexOf("```\n", section.indexOf("```js\n") + 6));
  // A scripted model: one store_memory call, then an answer.
  const replies = [
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "store_memory", arguments: '{"text":"The user lives in Porto"}' } }] },
    { role: "assistant", content: "Noted, you live in Porto now." },
  ];
  const requests = [];
  const callYourLLM = async (req) => { requests.push(req); return replies.shift(); };
  const logs = [];
  const console = { log: (x) => logs.push(x) };
  const AsyncFunction = (async () => {}).constructor;
  await new AsyncFunction("Memory", "callYourLLM", "console", code)(Memory, callYourLLM, console);
  assert.equal(logs[0], "The user is allergic to peanuts");
  assert.deepEqual(logs[1], ["The user is allergic to peanuts", "The user lives in Porto"]);
  assert.equal(requests.length, 2);
  assert.equal(requests[0].tools.length, 4);
});

test("updateFact() and factHistory() are the facts' one way to rewrite and trace", () => {
  const mem = new Memory();
  const id = mem.remember("Dog's name is Rex");
  mem.updateFact(id, "Dog's name is Rex, a beagle");
  assert.equal(mem.facts()[0].text, "Dog's name is Rex, a beagle");
  assert.deepEqual(mem.factHistory(id).map((c) => c.op), ["add", "update"]);
  throwsCode(assert, () => mem.updateFact("f404", "x"), "NOT_FOUND");
  throwsCode(assert, () => mem.factHistory("f404"), "NOT_FOUND");
  assert.equal(mem.update, undefined);
  assert.equal(mem.history, undefined);
});
