// The `llm` option against a real model: SmolLM2-135M-Instruct served by scripts/llm-server.mjs
// (started here, or LLM_BASE_URL). Behaviour, not answer quality: the calls happen with the
// built-in prompts, answers are read or the retry / fallback path is taken, no turn is lost,
// nothing throws, and with `redact: true` no planted value reaches the server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "./helpers.mjs";
import { startLlm, llmTestOptions } from "./llm-server.mjs";

// SmolLM2-135M on a shared 2-core machine: short replies keep each call to seconds.
const MAX_TOKENS = 48;
const options = llmTestOptions({ timeout: 600_000 });
let server;

before(async () => {
  if (!options.skip) server = await startLlm({ env: { LLM_MAX_TOKENS: String(MAX_TOKENS) } });
});
after(async () => {
  await server?.stop();
});

/** The app's one callback: an OpenAI-compatible call, with a log of what it was asked. */
function llmCallback(calls) {
  return async (messages, info) => {
    calls.push({ messages, ...info });
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "local",
        messages,
        max_tokens: Math.min(info.maxTokens, MAX_TOKENS),
        temperature: 0,
        ...(info.json ? { response_format: { type: "json_object" } } : {}),
      }),
    });
    if (!response.ok) throw new Error(`the model server answered ${response.status}`);
    return (await response.json()).choices[0].message.content;
  };
}

function chat(mem, pairs) {
  for (const [user, reply] of pairs) {
    mem.add("user", user);
    mem.add("assistant", reply);
  }
}

test("the server answers OpenAI-style, streamed and not", options, async () => {
  const reply = await server.chat([{ role: "user", content: "Say hello." }], { maxTokens: 8 });
  assert.equal(typeof reply, "string");
  assert.ok(reply.length > 0);
  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "Count to three." }], max_tokens: 8, stream: true }),
  });
  assert.match(response.headers.get("content-type"), /text\/event-stream/);
  assert.equal(response.headers.get("access-control-allow-origin"), "*", "a page on another port may call it");
  const preflight = await fetch(`${server.baseUrl}/chat/completions`, { method: "OPTIONS" });
  assert.equal(preflight.status, 204);
  const events = (await response.text()).split("\n\n").filter(Boolean);
  assert.equal(events.at(-1), "data: [DONE]");
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice("data: ".length)));
  const text = chunks.map((c) => c.choices[0].delta.content ?? "").join("");
  assert.ok(text.length > 0, "the streamed deltas carry text");
  assert.equal(chunks.at(-1).choices[0].finish_reason !== null, true);
});

test("a summary is written through llm and sent in the context", options, async () => {
  const calls = [];
  const mem = new Memory({
    strategy: "summary",
    maxTokens: 1000,
    summaryTrigger: { messages: 4 },
    keepRecent: 2,
    summaryTimeoutMs: 300_000,
    llm: llmCallback(calls),
  });
  chat(mem, [
    ["I'm planning a trip to Kyoto in April.", "Lovely, cherry blossom season."],
    ["My budget is 2000 euros.", "That works for a week."],
    ["I prefer small guesthouses.", "I'll look for ryokans."],
  ]);
  mem.add("user", "What should I book first?");
  const { messages, report } = await mem.context();
  // The same callback extracts facts from the last exchange; the summary comes first.
  const summaryCalls = calls.filter((c) => c.purpose === "summary");
  assert.equal(calls[0].purpose, "summary", JSON.stringify(calls.map((c) => c.purpose)));
  assert.ok(calls.some((c) => c.purpose === "extract"));
  assert.equal(summaryCalls[0].json, false);
  assert.match(summaryCalls[0].promptVersion, /^\d{4}-\d{2}-\d{2}\.\d+$/);
  assert.ok(summaryCalls[0].messages.at(-1).content.includes("Kyoto"), "the turns are in the prompt");
  const summaries = mem.summaries();
  if (summaries.length === 1) {
    assert.ok(summaries[0].text.length > 0);
    const sent = messages.map((m) => m.content).join("\n");
    assert.ok(sent.includes(summaries[0].text), "the summary is sent");
    assert.ok(report.sections.some((s) => s.name === "summary"));
  } else {
    // Both answers empty: the turns stay and the report says why.
    assert.equal(summaryCalls.length, 2);
    assert.ok(report.notes.some((n) => /summar/i.test(n)), JSON.stringify(report.notes));
  }
  assert.equal(mem.length, 7, "no turn is lost");
  assert.ok(messages.at(-1).content.includes("What should I book first?"));
});

test("facts are extracted from a short chat through llm", options, async () => {
  const calls = [];
  // A CPU model on a busy machine can take longer than the default 30 s per call; a timed-out
  // extraction leaves the turns unseen (retried later), which is right but not what this checks.
  const mem = new Memory({ llm: llmCallback(calls), callbackTimeoutMs: 300_000 });
  chat(mem, [["My name is Ana and I live in Porto. I have a cat called Miso.", "Nice to meet you, Ana!"]]);
  const { applied, notes } = await mem.extractFacts();
  assert.ok(calls.length === 1 || calls.length === 2, `${calls.length} calls`);
  assert.ok(calls.every((c) => c.purpose === "extract" && c.json));
  assert.ok(calls[0].messages.at(-1).content.includes("I live in Porto"));
  if (calls.length === 2) {
    // The retry shows the model its answer and what was wrong with it.
    assert.equal(calls[1].attempt, 2);
    assert.equal(calls[1].messages.at(-2).role, "assistant");
    assert.match(calls[1].messages.at(-1).content, /could not be used/);
  }
  assert.equal(mem.facts().length, applied, JSON.stringify(notes));
  if (applied === 0) assert.ok(notes.length > 0, "an answer with nothing stored says why");
  assert.equal(mem.length, 2, "no turn is lost");
  // The turns count as seen: nothing new, no call.
  const again = await mem.extractFacts();
  assert.equal(calls.length <= 2 && again.applied, 0);
  // The next exchange is extracted by context() on its own.
  chat(mem, [["I also have a dog called Rex.", "Two pets!"]]);
  mem.add("user", "What pets do I have?");
  const before = calls.length;
  const { messages } = await mem.context();
  assert.ok(calls.length > before, "context() extracted the new exchange");
  assert.ok(messages.at(-1).content.includes("What pets"));
});

test("with redact: true no planted value reaches the model server", options, async () => {
  const planted = {
    email: "ana.ribeiro@example.org",
    phone: "+351 912 345 678",
    card: "4111 1111 1111 1111",
    iban: "PT50 0002 0123 1234 5678 9015 4",
  };
  const calls = [];
  const mem = new Memory({
    redact: true,
    strategy: "summary",
    maxTokens: 1000,
    summaryTrigger: { messages: 2 },
    keepRecent: 2,
    summaryTimeoutMs: 300_000,
    llm: llmCallback(calls),
  });
  mem.remember(`The user's e-mail is ${planted.email}`);
  chat(mem, [
    [`Write to me at ${planted.email} or call ${planted.phone}.`, "Noted."],
    [`Charge ${planted.card}; refunds go to ${planted.iban}.`, "Done."],
  ]);
  mem.add("user", "Please confirm my contact details.");
  await server.clearRequests();
  await mem.context();
  await mem.recordEpisode().catch((e) => assert.ok(e.code, String(e)));
  const purposes = new Set(calls.map((c) => c.purpose));
  for (const p of ["summary", "extract", "episode"]) assert.ok(purposes.has(p), `${p} was asked: ${[...purposes]}`);
  const bodies = await server.requests();
  assert.ok(bodies.length >= 3, `${bodies.length} requests`);
  for (const body of bodies) {
    for (const [name, value] of Object.entries(planted)) {
      assert.ok(!body.includes(value), `${name} reached the server: ${body.slice(0, 300)}`);
    }
  }
  assert.equal(mem.length, 5, "no turn is lost");
});

test("the README's one-callback example runs against the local model", options, async () => {
  const { readFileSync } = await import("node:fs");
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const block = readme.match(/```js\n(const mem = new Memory\(\{\n[^`]*?llm: async[\s\S]*?)```/)[1];
  const AsyncFunction = (async () => {}).constructor;
  const setup = new AsyncFunction("Memory", "baseUrl", "model", `${block}\nreturn mem;`);
  const mem = await setup(Memory, server.baseUrl, "local");
  // The README passes maxTokens on as is; the server started above caps replies (LLM_MAX_TOKENS).
  mem.add("user", "I work as a nurse in Lyon.");
  mem.add("assistant", "That sounds demanding!");
  const { applied, notes } = await mem.extractFacts();
  assert.equal(mem.facts().length, applied, JSON.stringify(notes));
  assert.equal(mem.length, 2);
});
