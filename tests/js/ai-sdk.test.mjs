// The AI SDK middleware (pkg/adapters/ai-sdk.js) with the real `ai` package, ai 7 and ai 6:
// against each one's own test model (MockLanguageModelV4 / V3, to see exactly what a model is
// given), and over HTTP through @ai-sdk/openai-compatible to the demo's OpenAI-compatible server.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as ai7 from "ai";
import * as ai7test from "ai/test";
import * as ai6 from "ai-v6";
import * as ai6test from "ai-v6/test";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { z } from "zod";
import { Memory, throwsCode } from "./helpers.mjs";
import { memoryMiddleware } from "../../pkg/adapters/ai-sdk.js";
import { startDemoServer } from "../../www/server.mjs";

const SDKS = [
  { name: "ai 7", ai: ai7, Mock: ai7test.MockLanguageModelV4, toStream: ai7test.convertArrayToReadableStream, version: "v4" },
  { name: "ai 6", ai: ai6, Mock: ai6test.MockLanguageModelV3, toStream: ai6test.convertArrayToReadableStream, version: "v3" },
];
const history = (mem) => mem.entries().map((e) => [e.role, e.content]);

for (const sdk of SDKS) {
  const { generateText, streamText, wrapLanguageModel, tool, stepCountIs } = sdk.ai;
  const MockModel = sdk.Mock;
  const middleware = (mem, options) => memoryMiddleware(mem, { specificationVersion: sdk.version, ...options });

  describe(sdk.name, () => {
    const usage = {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    };
    const stop = { unified: "stop", raw: "stop" };
    const generated = (text) => ({ content: [{ type: "text", text }], finishReason: stop, usage, warnings: [] });
    const streamed = (...deltas) => ({
      stream: sdk.toStream([
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t1" },
        ...deltas.map((delta) => ({ type: "text-delta", id: "t1", delta })),
        { type: "text-end", id: "t1" },
        { type: "finish", finishReason: stop, usage },
      ]),
    });
    /** The text of every message a model call was given, in one string. */
    const promptText = (call) => JSON.stringify(call.prompt);

    test("generateText: the model gets the memory's redacted context; the reply comes back restored and is kept", async () => {
      const mem = new Memory({ redact: true, strategy: "tokens", maxTokens: 2000 });
      const model = new MockModel({ doGenerate: async () => generated("I will write to [EMAIL_1] today.") });
      const { text } = await generateText({
        model: wrapLanguageModel({ model, middleware: middleware(mem) }),
        system: "You are brief.",
        prompt: "Mail me at dana.reyes@example.net please",
      });
      assert.equal(text, "I will write to dana.reyes@example.net today.");
      const sent = promptText(model.doGenerateCalls[0]);
      assert.ok(!sent.includes("dana.reyes@example.net"), sent);
      assert.ok(sent.includes("[EMAIL_1]") && sent.includes("You are brief."), sent);
      assert.deepEqual(history(mem), [
        ["user", "Mail me at dana.reyes@example.net please"],
        ["assistant", "I will write to dana.reyes@example.net today."],
      ]);
    });

    test("streamText: a placeholder split across deltas reaches the app whole and restored", async () => {
      const mem = new Memory({ redact: true });
      const model = new MockModel({ doStream: async () => streamed("Sure, [EM", "AIL", "_1] it is", ".") });
      const result = streamText({
        model: wrapLanguageModel({ model, middleware: middleware(mem) }),
        prompt: "my address is ana@example.org",
      });
      const chunks = [];
      for await (const chunk of result.textStream) chunks.push(chunk);
      assert.equal(chunks.join(""), "Sure, ana@example.org it is.");
      assert.ok(chunks.every((c) => !/\[|EMAIL/.test(c)), JSON.stringify(chunks));
      assert.ok(!promptText(model.doStreamCalls[0]).includes("ana@example.org"));
      assert.deepEqual(history(mem).at(-1), ["assistant", "Sure, ana@example.org it is."]);
    });

    test("the prompt is built under the memory's budget, whatever the app sends", async () => {
      const mem = new Memory({ strategy: "tokens", maxTokens: 120 });
      for (let i = 0; i < 20; i++) {
        mem.add("user", `Question number ${i} about the weather in a long sentence.`);
        mem.add("assistant", `Answer number ${i}, also a long sentence about the weather.`);
      }
      const reports = [];
      const model = new MockModel({ doGenerate: async () => generated("ok") });
      await generateText({
        model: wrapLanguageModel({ model, middleware: middleware(mem, { onContext: ({ report }) => reports.push(report) }) }),
        prompt: "And today?",
      });
      const { prompt } = model.doGenerateCalls[0];
      assert.ok(prompt.length < 41 && prompt.length > 1, `${prompt.length} messages sent`);
      assert.ok(reports[0].totalTokens <= 120, reports[0].headline);
      assert.deepEqual(prompt.at(-1), { role: "user", content: [{ type: "text", text: "And today?" }] });
      assert.equal(mem.length, 42);
    });

    test("an app that resends the whole conversation (useChat) adds only the new turn; a retry adds nothing", async () => {
      const mem = new Memory();
      const replies = ["first reply", "second reply"];
      const model = new MockModel({ doGenerate: async () => generated(replies.shift()) });
      const wrapped = wrapLanguageModel({ model, middleware: middleware(mem) });
      await generateText({ model: wrapped, messages: [{ role: "user", content: "one" }] });
      await generateText({
        model: wrapped,
        messages: [{ role: "user", content: "one" }, { role: "assistant", content: "first reply" }, { role: "user", content: "two" }],
      });
      assert.deepEqual(history(mem), [["user", "one"], ["assistant", "first reply"], ["user", "two"], ["assistant", "second reply"]]);

      const failing = new MockModel({ doGenerate: async () => { throw new Error("HTTP 503"); } });
      const flaky = wrapLanguageModel({ model: failing, middleware: middleware(mem) });
      await assert.rejects(generateText({ model: flaky, prompt: "three", maxRetries: 0 }));
      await assert.rejects(generateText({ model: flaky, prompt: "three", maxRetries: 0 }));
      assert.deepEqual(history(mem).slice(4), [["user", "three"]]);
    });

    test("tool steps: the call's input is restored for the tool, its result is redacted for the model, all kept", async () => {
      const mem = new Memory({ redact: true });
      const seenByTool = [];
      const model = new MockModel({
        doGenerate: [
          {
            content: [{ type: "tool-call", toolCallId: "c1", toolName: "sendMail", input: JSON.stringify({ to: "[EMAIL_1]" }) }],
            finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [],
          },
          generated("Done: mailed [EMAIL_1]."),
        ],
      });
      const { text } = await generateText({
        model: wrapLanguageModel({ model, middleware: middleware(mem) }),
        tools: {
          sendMail: tool({
            inputSchema: z.object({ to: z.string() }),
            execute: async ({ to }) => {
              seenByTool.push(to);
              return `queued for ${to}`;
            },
          }),
        },
        stopWhen: stepCountIs(3),
        prompt: "Send the report to kim.lee@example.com",
      });
      assert.deepEqual(seenByTool, ["kim.lee@example.com"]);
      assert.equal(text, "Done: mailed kim.lee@example.com.");
      const second = promptText(model.doGenerateCalls[1]);
      assert.ok(!second.includes("kim.lee@example.com"), second);
      assert.ok(second.includes("queued for [EMAIL_1]"), second);
      const roles = mem.entries().map((e) => e.role);
      assert.deepEqual(roles, ["user", "assistant", "tool", "assistant"]);
      assert.equal(mem.entries()[1].toolCalls[0].function.name, "sendMail");
      assert.equal(mem.entries()[2].content, "queued for kim.lee@example.com");
    });

    test("an image sent with the new turn reaches the model with it; the memory keeps the text", async () => {
      const mem = new Memory();
      mem.add("user", "Earlier question.");
      mem.add("assistant", "Earlier answer.");
      const model = new MockModel({ doGenerate: async () => generated("A small PNG.") });
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
      await generateText({
        model: wrapLanguageModel({ model, middleware: middleware(mem) }),
        messages: [{ role: "user", content: [{ type: "text", text: "What is in this picture?" }, { type: "image", image: png }] }],
      });
      const { prompt } = model.doGenerateCalls[0];
      assert.equal(prompt.length, 3);
      const last = prompt.at(-1);
      assert.deepEqual(last.content.map((p) => p.type), ["text", "file"]);
      assert.equal(last.content[0].text, "What is in this picture?");
      assert.deepEqual(history(mem).slice(2), [["user", "What is in this picture?"], ["assistant", "A small PNG."]]);
    });
  });
}

test("memoryMiddleware refuses what is not a Memory", () => {
  throwsCode(assert, () => memoryMiddleware({}), "INVALID_OPTION");
});

test("over HTTP (@ai-sdk/openai-compatible, the demo's server): no PII in any request body; the streamed reply restored", async (t) => {
  const server = await startDemoServer({ port: 0 });
  t.after(() => server.close());
  const provider = createOpenAICompatible({ name: "offline", baseURL: `${server.url}/v1` });
  const mem = new Memory({ redact: true, strategy: "tokens", maxTokens: 1000 });
  const model = ai7.wrapLanguageModel({ model: provider.chatModel("offline-demo"), middleware: memoryMiddleware(mem) });
  const said = "echo: write to ana.silva@example.pt or call +1 415 555 0199";
  let shown = "";
  for await (const chunk of ai7.streamText({ model, prompt: said }).textStream) shown += chunk;
  assert.equal(shown, "write to ana.silva@example.pt or call +1 415 555 0199");
  const bodies = await (await fetch(`${server.url}/__test/requests`)).json();
  assert.equal(bodies.length, 1);
  for (const value of ["ana.silva@example.pt", "415 555 0199"]) assert.ok(!bodies[0].body.includes(value), bodies[0].body);
  assert.match(bodies[0].body, /\[EMAIL_1\].*\[PHONE_1\]/);
  assert.deepEqual(history(mem), [["user", said], ["assistant", shown]]);
});
