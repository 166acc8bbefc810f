// The AI SDK middleware against a real model: the local OpenAI-compatible server of
// tests/js/llm-server.mjs (`make llm`, a small open model on 127.0.0.1). Behaviour, not answer
// quality: every request body leaves without the PII, the streamed reply arrives, and the
// exchange is kept with the real values. Skipped where that server is not part of the tree yet,
// or (as startLlm decides) where the model is not installed and CI is unset.
import { test } from "node:test";
import assert from "node:assert/strict";
import { streamText, wrapLanguageModel } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { Memory } from "./helpers.mjs";
import { memoryMiddleware } from "../../pkg/adapters/ai-sdk.js";

const serverModule = new URL("./llm-server.mjs", import.meta.url);

/** The local model (`startLlm` resolves to null where it is not installed and CI is unset). */
async function startModel(t) {
  const { startLlm } = await import(serverModule);
  const llm = await startLlm();
  if (!llm) return t.skip("the local model is not installed (make llm)");
  t.after(() => llm.stop());
  return llm;
}

test("a real model behind the middleware: redacted requests, restored streamed reply, exchange kept", { timeout: 600_000 }, async (t) => {
  const llm = await startModel(t);
  if (!llm) return;
  const base = llm.baseUrl.replace(/\/+$/, "");
  const baseURL = /\/v1$/.test(base) ? base : `${base}/v1`;
  const bodies = [];
  const provider = createOpenAICompatible({
    name: "local",
    baseURL,
    fetch: async (url, init) => {
      bodies.push(String(init?.body ?? ""));
      return fetch(url, init);
    },
  });
  const models = await (await fetch(`${baseURL}/models`)).json().catch(() => null);
  const modelId = models?.data?.[0]?.id ?? "local";
  const mem = new Memory({ redact: true, strategy: "tokens", maxTokens: 1500, reserveTokens: 200 });
  const model = wrapLanguageModel({ model: provider.chatModel(modelId), middleware: memoryMiddleware(mem) });
  const pii = ["maria.gomez@example.com", "+1 415 555 0199"];
  const said = `Hi, I'm writing from ${pii[0]}; my phone is ${pii[1]}. Repeat my email address.`;
  let shown = "";
  for await (const chunk of streamText({ model, system: "You are a helpful assistant.", prompt: said, maxOutputTokens: 64 }).textStream) {
    shown += chunk;
  }
  assert.ok(bodies.length >= 1);
  for (const body of bodies) for (const value of pii) assert.ok(!body.includes(value), `a request carried ${value}`);
  assert.ok(bodies[0].includes("[EMAIL_1]"), bodies[0]);
  assert.ok(shown.trim().length > 0, "the model answered nothing");
  assert.ok(!/\[(EMAIL|PHONE)_1\]/.test(shown), `a placeholder reached the app: ${shown}`);
  const kept = mem.entries().map((e) => [e.role, e.content]);
  assert.deepEqual(kept, [["user", said], ["assistant", shown]]);
});
