// Runs the README's JavaScript example unchanged in headless Chromium, with "llm-memory"
// mapped to pkg/ by an import map, and checks that what it prints is what the README says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startServer } from "./static-server.mjs";
import { launch } from "./chromium.mjs";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const example = readme.match(/```js\n([\s\S]*?)```/)[1];

test("the README example runs in Chromium and prints what its comments promise", async () => {
  const page = `<!doctype html><script type="importmap">{"imports":{"llm-memory":"/pkg/llm_memory.js"}}</script>
<script>window.callYourLLM = async (messages) => "You live in Lisbon."; window.logs = [];
const log = console.log; console.log = (...a) => { window.logs.push(a.join(" ")); log(...a); };</script>
<script type="module">${example}\nwindow.done = true;</script>`;
  const server = await startServer({ "/readme.html": (req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page) });
  const browser = await launch();
  try {
    const tab = await browser.newPage();
    const errors = [];
    tab.on("pageerror", (e) => errors.push(e.message));
    await tab.goto(`${server.url}/readme.html`);
    await tab.waitForFunction(() => window.done === true || false, null, { timeout: 60_000 }).catch(() => {});
    assert.deepEqual(errors, []);
    const logs = await tab.evaluate(() => window.logs);
    const promised = [...example.matchAll(/console\.log\(.*?\);\s*\/\/ (.*)/g)].map((m) => m[1].trim());
    assert.ok(promised.length > 0, "the example shows its output in comments");
    assert.deepEqual(logs, promised);
  } finally {
    await browser.close();
    await server.close();
  }
});
