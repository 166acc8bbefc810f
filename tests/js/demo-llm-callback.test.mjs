// The demo's LLM callbacks (www/llm-callback.js) against the demo server's OpenAI-compatible
// endpoint: the `llm(messages, { purpose, maxTokens, json })` shape the memory calls, and the
// summarizer on top of it, each call recorded as the inspector shows it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chatLlm, summarizerOf } from "../../www/llm-callback.js";
import { startDemoServer } from "../../www/server.mjs";

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

  const summary = await summarizerOf(llm)("Summarize the conversation:\nuser: my name is Riley", { count: 1 });
  assert.match(summary, /Riley/);
  assert.equal(calls[1].purpose, "summary");
  assert.equal(calls[1].count, 1);

  endpoint.model = "error-500";
  await assert.rejects(llm([{ role: "user", content: "hi" }]), /HTTP 500/);
  assert.match(calls[2].error, /HTTP 500/);
});
