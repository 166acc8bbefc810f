// Packaging smoke test: a page that imports "llm-memory" by name (a `file:` dependency on
// pkg/), built with Vite 7, runs one context() call in headless Chromium. Covers what bundler
// users do, next to the plain <script type=module> of the other browser tests.
// Run with `make test-bundler` (installs this folder's node_modules first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startServer } from "../browser/static-server.mjs";
import { launch } from "../browser/chromium.mjs";

const here = fileURLToPath(new URL("./", import.meta.url));
const vite = `${here}node_modules/.bin/vite`;

test("a Vite build that imports llm-memory by name runs context() in Chromium", async () => {
  assert.ok(existsSync(vite), "tests/bundler/node_modules is missing: run `make test-bundler`");
  execFileSync(vite, ["build"], { cwd: here, stdio: "inherit" });
  const assets = readdirSync(`${here}dist/assets`);
  assert.ok(assets.some((f) => /^llm_memory_bg-.*\.wasm$/.test(f)), `Vite emitted the wasm as an asset: ${assets}`);

  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}/tests/bundler/dist/index.html`);
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 30_000 });
    const result = await page.evaluate(() => window.result);
    assert.equal(result.error, undefined);
    assert.deepEqual(result.messages.map((m) => m.role), ["system", "user", "assistant", "user"]);
    assert.equal(result.messages.at(-1).content, "What's my name?");
    assert.ok(result.totalTokens > 0 && result.totalTokens <= 150);
    assert.match(result.headline, /^Sending 3 of 3 messages/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
