// Runs the README's two adapter examples ("With the Vercel AI SDK and LangChain.js") as they
// are written, importing "llm-memory" (pkg/, through its package.json `exports`), with the
// Ollama URL pointed at the demo's OpenAI-compatible server, and checks that what they print
// is what their comments say.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { tokenizerJson } from "./helpers.mjs"; // also loads the wasm, as an app's init would
import { startDemoServer } from "../../www/server.mjs";

const root = new URL("../../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");
const section = readme.slice(readme.indexOf("## With the Vercel AI SDK and LangChain.js"), readme.indexOf("\n## ", readme.indexOf("## With the Vercel AI SDK")));
const [aiSdkExample, langchainExample] = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

/**
 * The example as a module file under tests/out/readme/, whose node_modules/llm-memory links to
 * pkg/: its imports resolve through the package's `exports` as in an app, the others from the
 * repository's node_modules.
 */
function moduleOf(name, code) {
  const dir = new URL("tests/out/readme/", root);
  mkdirSync(new URL("node_modules/", dir), { recursive: true });
  const link = fileURLToPath(new URL("node_modules/llm-memory", dir));
  rmSync(link, { force: true, recursive: true });
  symlinkSync(fileURLToPath(new URL("pkg", root)), link, "dir");
  const file = new URL(`${name}.mjs`, dir);
  writeFileSync(file, code);
  return file.href;
}

/** What each `console.log(...)` line of the example promises in its trailing comment. */
const promised = (code) => [...code.matchAll(/console\.log\(.*\).*?\/\/ (.*)$/gm)].map((m) => m[1].trim());

async function run(name, code) {
  const logs = [];
  const log = console.log;
  console.log = (...args) => logs.push(args.join(" "));
  try {
    await import(moduleOf(name, code));
  } finally {
    console.log = log;
  }
  return logs;
}

test("the README's AI SDK example runs against an OpenAI-compatible server and prints what it promises", async (t) => {
  const server = await startDemoServer({ port: 0 });
  t.after(() => server.close());
  assert.ok(aiSdkExample.includes("http://localhost:11434/v1"));
  // What the example writes to stdout is collected here (the test runner reports on stdout).
  const written = [];
  globalThis.readmeWrite = (chunk) => written.push(chunk);
  t.after(() => delete globalThis.readmeWrite);
  const code = aiSdkExample.replace("http://localhost:11434/v1", `${server.url}/v1`).replace("process.stdout.write(", "readmeWrite(");
  const logs = await run("readme-ai-sdk", code);
  assert.deepEqual(logs, promised(aiSdkExample));
  // The offline model answers from the facts it was sent: placeholders, put back here.
  const reply = written.join("");
  assert.match(reply, /Dana Reyes/);
  assert.match(reply, /dana@example\.net/);
  const bodies = await (await fetch(`${server.url}/__test/requests`)).json();
  assert.ok(bodies.length === 1 && !/Dana|dana@/.test(bodies[0].body), bodies[0]?.body);
});

test("the README's LangChain example runs with LangChain's test chat model and prints what it promises", async () => {
  Object.assign(globalThis, {
    chatModel: new FakeListChatModel({ responses: ["Card [CREDIT_CARD_1] is not blocked."] }),
    tokenizerJson: tokenizerJson("llama3"),
    longConversation: Array.from({ length: 40 }, (_, i) => (i % 2 ? new AIMessage(`Answer ${i}, a sentence or so long.`) : new HumanMessage(`Question ${i}, a sentence or so long?`))),
  });
  try {
    const logs = await run("readme-langchain", langchainExample);
    assert.deepEqual(logs, promised(langchainExample));
  } finally {
    for (const name of ["chatModel", "tokenizerJson", "longConversation"]) delete globalThis[name];
  }
});
