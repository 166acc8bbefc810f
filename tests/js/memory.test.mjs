// The Memory API as a Node user meets it: 2 000 turns under every strategy with a real
// tokenizer, the budget rule, tool groups, the report, the summarizer's failure modes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory, Tokenizer, loadTokenizer, throwsCode } from "./helpers.mjs";
import { corpus } from "./corpus.mjs";

const llama = loadTokenizer("llama3");
const texts = corpus(400, 7).filter((t) => t.length > 0 && t.length < 2000);
const system = "You are a helpful assistant that remembers what the user said.";

function fill(mem, n) {
  for (let i = 0; i < n; i++) mem.add(i % 2 ? "assistant" : "user", `${i}: ${texts[i % texts.length]}`);
}

/** Recounts a request the way the report claims to (OpenAI's cookbook): 3 per message, then
 * every value of it (role, content, name), 1 more for a name, 3 to prime the reply. */
function recount(messages) {
  let n = 3;
  for (const m of messages) {
    n += 3 + llama.count(m.role) + llama.count(m.content ?? "");
    if (m.name) n += 1 + llama.count(m.name);
    for (const c of m.tool_calls ?? []) n += 3 + llama.count(c.function.name) + llama.count(c.function.arguments);
    if (m.tool_call_id) n += llama.count(m.tool_call_id);
  }
  return n;
}

const strategies = [
  { strategy: "none" },
  { strategy: "full" },
  { strategy: "window", maxTurns: 12 },
  { strategy: "tokens", maxTokens: 2000, reserveTokens: 400 },
  { strategy: "summary", maxTokens: 2000, reserveTokens: 400 },
];

for (const opts of strategies) {
  test(`2 000 turns with the llama3 tokenizer: strategy ${opts.strategy}`, async () => {
    const calls = [];
    const mem = new Memory({
      ...opts,
      systemPrompt: system,
      tokenizer: llama,
      summarize: async (prompt, info) => {
        calls.push(info);
        return `Summary covering ${info.count} more messages.`;
      },
    });
    fill(mem, 2000);
    mem.add("user", "What did I say first?");
    const { messages, report } = await mem.context({ detail: "all" });
    const entries = mem.entries();
    assert.equal(entries.length, 2001);
    assert.equal(report.entries.length, 2001);
    assert.deepEqual(report.ranges, []);
    // The default report lists what is sent and the rest as ranges: every entry exactly once,
    // each with the status the full list gives it.
    const short = await mem.context();
    assert.deepEqual(short.messages, messages);
    assert.equal(short.report.entryCount, 2001);
    const seen = new Array(2001).fill(0);
    for (const e of short.report.entries) {
      const i = entries.findIndex((x) => x.id === e.id);
      seen[i]++;
      assert.deepEqual(e, report.entries[i]);
    }
    for (const r of short.report.ranges) {
      assert.equal(r.from, entries[r.fromIndex].id);
      assert.equal(r.to, entries[r.fromIndex + r.count - 1].id);
      for (let i = r.fromIndex; i < r.fromIndex + r.count; i++) {
        seen[i]++;
        assert.equal(report.entries[i].status, r.status);
      }
    }
    assert.ok(seen.every((n) => n === 1), "every entry once");
    assert.equal(messages[0].role, "system");
    assert.equal(messages[0].content, system);
    assert.equal(messages.at(-1).content, "What did I say first?");
    assert.equal(report.totalTokens, recount(messages), "report total equals a recount of the request");
    if (report.budget.available !== undefined) {
      assert.ok(report.totalTokens <= opts.maxTokens - opts.reserveTokens, `${report.totalTokens} over budget`);
      assert.equal(report.budget.available, opts.maxTokens - opts.reserveTokens);
    }
    const included = report.entries.filter((e) => e.status === "included");
    const turnMessages = messages.filter((m) => !(m.role === "system"));
    assert.deepEqual(turnMessages.map((m) => m.content), included.map((e) => entries.find((x) => x.id === e.id).content));
    // Included entries are in history order and form the newest contiguous block (plus the latest user).
    const idx = included.map((e) => entries.findIndex((x) => x.id === e.id));
    assert.deepEqual(idx, [...idx].sort((a, b) => a - b));
    switch (opts.strategy) {
      case "none":
        assert.equal(messages.length, 2);
        assert.ok(report.entries.slice(0, -1).every((e) => e.reason === "strategyNone"));
        break;
      case "full":
        assert.equal(included.length, 2001);
        break;
      case "window":
        assert.equal(included.length, 12);
        assert.deepEqual(idx, Array.from({ length: 12 }, (_, i) => 1989 + i));
        assert.ok(report.entries.slice(0, 1989).every((e) => e.reason === "outsideWindow"));
        break;
      case "tokens":
        assert.ok(included.length > 5 && included.length < 2001);
        assert.deepEqual(idx, Array.from({ length: included.length }, (_, i) => 2001 - included.length + i));
        break;
      case "summary": {
        assert.equal(calls.length, 1);
        assert.equal(report.summary.included, true);
        assert.equal(report.summary.count, calls[0].count);
        assert.match(messages[1].content, /^\[Summary of earlier conversation\]\nSummary covering/);
        const summarized = report.entries.filter((e) => e.status === "summarized").length;
        assert.equal(summarized, calls[0].count);
        assert.equal(mem.summaries().length, 1);
        break;
      }
    }
    assert.match(report.headline, /^Sending \d+ of 2001 messages/);
  });
}

test("the latest user message alone over budget is a CONTEXT_OVERFLOW error, not a silent drop", async () => {
  const mem = new Memory({ strategy: "tokens", maxTokens: 50, tokenizer: llama });
  mem.add("user", "word ".repeat(200));
  await assert.rejects(mem.context(), (e) => e instanceof Error && e.code === "CONTEXT_OVERFLOW" && /maxTokens/.test(e.message));
  assert.equal(mem.length, 1, "the message is kept");
});

test("tool calls and their results travel together; orphans are dropped with a reason", async () => {
  const mem = new Memory({ strategy: "tokens", maxTokens: 400, tokenizer: llama });
  mem.add("user", "Weather in Paris and Rome?");
  mem.addMessage({
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
      { id: "c2", type: "function", function: { name: "weather", arguments: { city: "Rome" } } },
    ],
  });
  mem.add("tool", "18C sunny", { toolCallId: "c1" });
  mem.add("tool", "21C cloudy", { toolCallId: "c2" });
  mem.add("tool", "stray", { toolCallId: "nope" });
  mem.add("assistant", "Paris 18C, Rome 21C.");
  mem.add("user", "Thanks!");
  const { messages, report } = await mem.context({ detail: "all" });
  const roles = messages.map((m) => m.role);
  assert.deepEqual(roles, ["user", "assistant", "tool", "tool", "assistant", "user"]);
  assert.equal(messages[1].content, null);
  assert.equal(messages[1].tool_calls[1].function.arguments, '{"city":"Rome"}');
  assert.equal(report.entries[4].reason, "orphanToolResult");
  // Under a budget too small for the group, the whole group goes, never half of it.
  const tail = report.entries.slice(5).reduce((a, e) => a + e.tokens, 0);
  mem.configure({ maxTokens: 3 + tail + 5 });
  const small = await mem.context();
  assert.ok(!small.messages.some((m) => m.role === "tool"));
  assert.ok(!small.messages.some((m) => m.tool_calls));
});

test("duplicates, pinned facts and the report's sections", async () => {
  const mem = new Memory({ strategy: "tokens", maxTokens: 500, systemPrompt: "Be brief.", tokenizer: llama });
  mem.pin("The user's name is Riley.");
  mem.pin("The user's name is Riley.");
  const pinB = mem.pin("The user prefers metric units.");
  mem.add("user", "hello");
  mem.add("user", "hello");
  mem.add("user", "how far is the moon?");
  const { messages, report } = await mem.context({ detail: "all" });
  assert.equal(messages[1].content, "[Pinned facts]\n- The user's name is Riley.\n- The user prefers metric units.");
  assert.deepEqual(report.entries.map((e) => e.reason), ["duplicate", "withinBudget", "latestUser"]);
  assert.deepEqual(report.sections.map((s) => s.name), ["system", "pinned", "history"]);
  assert.equal(report.sections[1].marker, "[Pinned facts]");
  assert.equal(report.sections.reduce((a, s) => a + s.tokens, 0) + 3, report.totalTokens);
  mem.unpin(pinB);
  assert.equal(mem.pinned().length, 2);
  throwsCode(assert, () => mem.unpin("p999"), "NOT_FOUND");
});

test("a failing summarizer loses no turns: trimming takes over and the report says so", async () => {
  let calls = 0;
  const mem = new Memory({
    strategy: "summary", maxTokens: 300, tokenizer: llama, summaryTrigger: { messages: 4 }, keepRecent: 2,
    summarize: async () => { calls++; throw new Error("LLM down"); },
  });
  fill(mem, 30);
  mem.add("user", "still there?");
  const { messages, report } = await mem.context();
  assert.equal(calls, 1);
  assert.equal(mem.length, 31);
  assert.equal(messages.at(-1).content, "still there?");
  assert.ok(report.notes.some((n) => n.includes("LLM down") && n.includes("trimmed")), report.notes.join("|"));
  assert.equal(report.summary, undefined);
  assert.ok(report.totalTokens <= 300);
});

test("a slow summarizer does not hold the turn; its summary is used once it arrives", async () => {
  let release;
  const mem = new Memory({
    strategy: "summary", maxTokens: 300, tokenizer: llama, summaryTrigger: { messages: 4 }, keepRecent: 2,
    summaryTimeoutMs: 50,
    summarize: () => new Promise((r) => { release = r; }),
  });
  fill(mem, 20);
  mem.add("user", "next");
  const first = await mem.context();
  assert.ok(first.report.notes.some((n) => n.includes("still being written")));
  assert.equal(first.report.summary, undefined);
  release("They discussed many things.");
  await new Promise((r) => setTimeout(r, 10));
  const second = await mem.context();
  assert.equal(second.report.summary.included, true);
  assert.match(second.messages[0].content, /They discussed many things/);
});

test("the summarizer may call back into the memory while it runs", async () => {
  const mem = new Memory({
    strategy: "summary", maxTokens: 300, tokenizer: llama, summaryTrigger: { messages: 4 }, keepRecent: 2,
    summarize: async (prompt) => `seen ${mem.entries().length} entries; prompt has ${prompt.length} chars`,
  });
  fill(mem, 12);
  mem.add("user", "q");
  const { report } = await mem.context();
  assert.equal(report.summary.included, true);
});

test("forget removes an entry and deletes the summaries that covered it; a new one is written", async () => {
  const mem = new Memory({
    strategy: "summary", maxTokens: 400, tokenizer: llama, summaryTrigger: { messages: 4 }, keepRecent: 2,
    summarize: async (prompt) => `old stuff: ${prompt.includes("secret-word") ? "secret-word" : "none"}`,
  });
  mem.add("user", "remember secret-word please");
  fill(mem, 9);
  mem.add("user", "q");
  await mem.context();
  assert.match(mem.summaries()[0].text, /secret-word/);
  const [first] = mem.entries();
  mem.forget(first.id);
  assert.equal(mem.length, 10);
  // The summary held the forgotten words: it is gone from summaries() and the export.
  assert.deepEqual(mem.summaries(), []);
  assert.ok(!JSON.stringify(mem.export()).includes("secret-word"));
  const { report } = await mem.context();
  assert.equal(mem.summaries().length, 1, "a new summary was written from the remaining turns");
  assert.doesNotMatch(mem.summaries()[0].text, /secret-word/);
  assert.notEqual(report.summary?.stale, true);
  throwsCode(assert, () => mem.forget(first.id), "NOT_FOUND");
});

test("a summarizer that never answers does not stop summaries: after summaryTimeoutMs the next trigger asks again", async () => {
  let calls = 0;
  const mem = new Memory({
    strategy: "summary", maxTokens: 120, tokenizer: llama, keepRecent: 2, summaryTrigger: { messages: 2 },
    summaryTimeoutMs: 30,
    summarize: () => (++calls === 1 ? new Promise(() => {}) : "Riley lives in Lisbon."),
  });
  mem.add("user", "I'm Riley and I live in Lisbon.");
  for (let i = 0; i < 6; i++) {
    mem.add("assistant", `reply ${i} filler`);
    mem.add("user", `q ${i} filler`);
    await mem.context();
    await new Promise((r) => setTimeout(r, 40));
  }
  assert.ok(calls >= 2, `the summarizer was asked again (${calls} calls)`);
  assert.ok(mem.summaries().some((s) => s.text.includes("Lisbon")));
  const { messages } = await mem.context();
  assert.match(messages[0].content, /Lisbon/);
});

test("agent steps replay by purpose", () => {
  const mem = new Memory();
  mem.addStep({ type: "task", task: "Find the capital of France" });
  mem.addStep({ type: "planning", plan: "1. search" });
  mem.addStep({ type: "action", modelOutput: "Let me search.", toolCalls: [{ id: "a", function: { name: "search", arguments: { q: "capital of France" } } }], observations: "Paris" });
  mem.addStep({ type: "action", error: "timeout" });
  mem.addStep({ type: "planning", plan: "2. answer" });
  const full = mem.stepMessages("full").map((m) => m.content);
  const summary = mem.stepMessages("summary").map((m) => m.content);
  assert.ok(full.includes("Let me search.") && full.includes("1. search"));
  assert.ok(!summary.includes("Let me search.") && !summary.includes("1. search"));
  assert.ok(summary.includes("2. answer"));
  assert.ok(summary.some((c) => c.startsWith("Observation:\nParis")));
  assert.ok(summary.some((c) => c.startsWith("Error:\ntimeout")));
  assert.equal(mem.steps().length, 5);
  // Fields left out stay out (typed as optional), rather than coming back as null.
  assert.deepEqual(Object.keys(mem.steps()[3]).sort(), ["id", "timestamp", "type", "error", "toolCalls"].sort());
  throwsCode(assert, () => mem.addStep({ type: "dance" }), "INVALID_ENTRY");
  throwsCode(assert, () => mem.stepMessages("short"), "INVALID_OPTION");
});

test("entries carry ids, timestamps, metadata and cached token counts", () => {
  const mem = new Memory({ tokenizer: llama });
  const before = Date.now();
  const id = mem.add("user", "hello there", { name: "riley", metadata: { source: "web", n: [1, 2] } });
  mem.add("assistant", "hi", { timestamp: 1234 });
  const [a, b] = mem.entries();
  assert.equal(a.id, id);
  assert.ok(a.timestamp >= before && a.timestamp <= Date.now());
  assert.deepEqual(a.metadata, { source: "web", n: [1, 2] });
  assert.equal(a.name, "riley");
  assert.equal(a.tokens, 3 + llama.count("user") + llama.count("hello there") + 1 + llama.count("riley"));
  assert.equal(b.timestamp, 1234);
  mem.clear();
  assert.equal(mem.length, 0);
});

test("changing the tokenizer recounts cached counts once", async () => {
  const mem = new Memory({ strategy: "full" });
  mem.add("user", "日本語のテキスト");
  const approx = mem.entries()[0].tokens;
  mem.configure({ tokenizer: llama });
  assert.equal(mem.entries()[0].tokens, 3 + llama.count("user") + llama.count("日本語のテキスト"));
  assert.notEqual(approx, mem.entries()[0].tokens);
  const { report } = await mem.context();
  assert.deepEqual(report.tokenizer, { kind: "BPE", exact: true });
});

test("add() takes toolCalls and toolCallId, addMessage the OpenAI names; both at once are refused", () => {
  const call = { id: "c1", type: "function", function: { name: "weather", arguments: "{}" } };
  const a = new Memory();
  a.add("assistant", null, { toolCalls: [call] });
  a.add("tool", "sunny", { toolCallId: "c1" });
  const b = new Memory();
  b.addMessage({ role: "assistant", content: null, tool_calls: [call] });
  b.addMessage({ role: "tool", content: "sunny", tool_call_id: "c1" });
  const shape = (m) => m.entries().map(({ role, content, toolCalls, toolCallId }) => ({ role, content, toolCalls, toolCallId }));
  assert.deepEqual(shape(b), shape(a));
  assert.equal(a.entries()[1].toolCallId, "c1");
  // add()'s options are camelCase: the OpenAI spelling is an unknown option that names the right one.
  const e = throwsCode(assert, () => a.add("assistant", null, { tool_calls: [call] }), "INVALID_OPTION");
  assert.match(e.message, /did you mean toolCalls/);
  // Both spellings at once could disagree: refused, and nothing is added.
  throwsCode(assert, () => a.addMessage({ role: "tool", content: "x", toolCallId: "c1", tool_call_id: "c2" }), "INVALID_ENTRY");
  assert.equal(a.length, 2);
  // An undefined spelling is no second value (a spread message may carry one).
  a.addMessage({ role: "tool", content: "rainy", toolCallId: "c1", tool_call_id: undefined });
  assert.equal(a.entries()[2].toolCallId, "c1");
});
