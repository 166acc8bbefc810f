// The demo page's semantic recall in headless Chromium: with strategy "retrieval" the toggle is
// on by default, the Worker loads models/embed.bin with its progress shown, embeds the chat in
// the background, and the inspector lists each retrieved memory with its part from words
// (BM25) and its part from meaning (cosine). Skipped when the model file is absent
// (make embed-model), unless CI is set. Screenshot: tests/out/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { startDemoServer } from "../../www/server.mjs";
import { launch } from "./chromium.mjs";

const out = new URL("../out/", import.meta.url);
mkdirSync(out, { recursive: true });
const model = new URL("../../models/embed.bin", import.meta.url);
const missing = !existsSync(model) ? "no models/embed.bin (make embed-model)" : null;
if (missing && process.env.CI) throw new Error(missing);

let server;
let browser;
before(async () => {
  if (missing) return;
  server = await startDemoServer({ port: 0 });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function send(page, text) {
  await page.getByTestId("message-input").fill(text);
  await page.getByTestId("send").click();
  await page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 30_000 });
}

const status = (page) => page.evaluate(() => {
  const s = document.querySelector("[data-testid=semantic-status]");
  return { state: s.dataset.state, pending: s.dataset.pending, text: s.textContent };
});

test("semantic recall: the toggle loads the embedder with progress, and the inspector shows BM25 and cosine parts", {
  skip: missing ?? false,
}, async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const progress = [];
  page.on("console", () => {});
  await page.goto(`${server.url}/?strategy=retrieval&budget=300&reserve=100&tokenizer=approximate`);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
  assert.equal(await page.getByTestId("settings-semantic").isChecked(), true, "on by default when the model is served");
  // Progress is shown while the 23 MB file arrives.
  await page.waitForFunction(() => {
    const s = document.querySelector("[data-testid=semantic-status]");
    if (s.dataset.state === "loading") window.__sawLoading = (window.__sawLoading ?? 0) + 1;
    return s.dataset.state === "ready" || s.dataset.state === "fallback";
  }, null, { timeout: 120_000, polling: 20 });
  const ready = await status(page);
  assert.equal(ready.state, "ready", ready.text);
  assert.match(ready.text, /Semantic recall on.*all-MiniLM-L6-v2.*Apache-2\.0/);
  progress.push(await page.evaluate(() => window.__sawLoading ?? 0));
  assert.ok(progress[0] > 0, "the loading state with its progress was shown");
  assert.ok((await page.evaluate(() => window.__sawLoading)) > 0);

  // A fact, then turns that push it out of the recent turns, then a question sharing no word.
  await send(page, "I moved to Porto last spring.");
  for (let i = 1; i <= 7; i++) await send(page, `Turn ${i}: tell me something about gardening in the spring, in some detail please.`);
  await page.waitForFunction(() => document.querySelector("[data-testid=semantic-status]").dataset.pending === "0", null, { timeout: 60_000 });
  await send(page, "Which city am I based in these days, and what was that about gardening?");

  const table = page.getByTestId("context-retrieved");
  await table.waitFor({ timeout: 10_000 });
  const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => ({
    text: tr.querySelector(".snippet").textContent,
    bm25: tr.querySelector("[data-part=bm25]").textContent,
    cosine: tr.querySelector("[data-part=cosine]").textContent,
    fused: tr.querySelector("[data-part=fused]").textContent,
  })));
  const porto = rows.find((r) => r.text.includes("Porto"));
  assert.ok(porto, `the fact is retrieved: ${JSON.stringify(rows)}`);
  assert.equal(porto.bm25, "—", "it shares no word with the question");
  // The gardening turns share words with it: those have a BM25 part.
  assert.ok(Number(porto.cosine) > 0.3, `its cosine: ${porto.cosine}`);
  assert.ok(rows.some((r) => r.bm25 !== "—"), "others are found by their words");
  assert.ok(rows.every((r) => Number(r.fused) > 0));
  const sent = await page.getByTestId("context-request").textContent();
  assert.match(sent, /\[Memory\][^"]*I moved to Porto last spring/);
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: new URL("demo-semantic.png", out).pathname, fullPage: false });

  // Turned off, the chat is reopened without the embedder: no meaning part any more.
  await page.getByTestId("settings-semantic").uncheck();
  await page.waitForFunction(() => document.querySelector("[data-testid=semantic-status]").dataset.state === "off", null, { timeout: 30_000 });
  await send(page, "Which city am I based in these days?");
  const cosines = await page.getByTestId("context-retrieved").locator("[data-part=cosine]").allTextContents();
  assert.ok(cosines.every((c) => c === "—"), cosines.join(","));
  assert.deepEqual(errors, []);
  await context.close();
});
