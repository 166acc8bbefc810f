// The demo's LLM callback (www/llm-callback.js) against the demo server's OpenAI-compatible
// endpoint: the `llm(messages, { purpose, maxTokens, json })` shape the memory calls, each
// call recorded as the inspector shows it; and a Memory given it as its `llm` option, as the
// demo's worker does, writing its summary and extracting facts through the offline model.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chatLlm } from "../../www/llm-callback.js";
import { startDemoServer } from "../../www/server.mjs";
import { lib } from "./helpers.mjs";

const { Memory } = lib;

test("chatLlm sends the messages to the chosen endpoint and resolves to the reply's text", async (t) => {
  const server = await startDemoServer({ port: 0 });
  t.after(() => server.close());
  const calls = [];
  const endpoint = { base: `${server.url}/v1`, key: "sk-test", model: "offline-demo", timeoutMs: 10_000 };
  const llm = chatLlm(() => endpoint, (call) => calls.push(call));

  const text = await llm([{ role: "user", content: "echo: hello there" }], { purpose: "facts", maxTokens: 50, json: true });
  assert.equal(text, "hello there");
  const [received] = await (await fetch(`${server.url}/__test/requests`)).json();
  const body = JSON.parse(received.body);
  assert.deepEqual(body, { model: "offline-demo", messages: [{ role: "user", content: "echo: hello there" }], stream: false, max_tokens: 50, response_format: { type: "json_object" } });
  assert.equal(received.authorization, "Bearer sk-test");
  assert.deepEqual(calls.map(({ purpose, reply, error }) => ({ purpose, reply, error })), [{ purpose: "facts", reply: "hello there", error: null }]);
  assert.equal(calls[0].body, received.body, "the inspector shows the body as sent");

  endpoint.model = "error-500";
  await assert.rejects(llm([{ role: "user", content: "hi" }]), /HTTP 500/);
  assert.match(calls[1].error, /HTTP 500/);
});

test("a Memory with chatLlm as its llm option extracts facts and summarizes through the endpoint", async (t) => {
  const server = await startDemoServer({ port: 0 });
  t.after(() => server.close());
  const calls = [];
  const endpoint = { base: `${server.url}/v1`, key: "", model: "offline-demo", timeoutMs: 10_000 };
  const mem = new Memory({ strategy: "summary", maxTokens: 400, reserveTokens: 50, keepRecent: 2, llm: chatLlm(() => endpoint, (c) => calls.push(c)) });
  t.after(() => mem.free());
  const active = () => mem.facts().filter((f) => f.status === "active").map((f) => f.text).sort();

  mem.add("user", "My name is Riley and I live in Lisbon.");
  mem.add("assistant", "Nice to meet you, Riley.");
  await mem.context();
  assert.deepEqual(active(), ["The user lives in Lisbon", "The user's name is Riley"]);
  const extract = calls.find((c) => c.purpose === "extract");
  assert.ok(extract && !extract.error, JSON.stringify(calls));
  assert.equal(JSON.parse(extract.body).response_format?.type, "json_object", "the JSON prompt asks for JSON mode");

  mem.add("user", "I moved to Porto.");
  mem.add("assistant", "Exciting!");
  await mem.context();
  assert.deepEqual(active(), ["The user lives in Porto", "The user's name is Riley"], "the move updates the fact");

  // Small talk past the budget: the summary folds the early turns in, keeping the facts.
  for (let i = 0; i < 12; i++) {
    mem.add("user", `Turn ${i}: tell me something about gardening in the spring, in some detail please.`);
    mem.add("assistant", `Here is something about gardening, part ${i}: water the seedlings in the morning.`);
  }
  await mem.context();
  const summary = mem.summaries().at(-1);
  assert.ok(summary, `no summary; calls: ${calls.map((c) => c.purpose).join(",")}`);
  assert.match(summary.text, /Riley/);
  assert.ok(calls.some((c) => c.purpose === "summary" && c.reply && !c.error));
  assert.deepEqual(calls.filter((c) => c.error), []);
});
