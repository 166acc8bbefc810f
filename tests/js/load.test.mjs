// One loader shape for every asset: Tokenizer, NerModel and EmbedModel load with
// `fromUrl(url, { onProgress({ loaded, total }), cache, signal })` and `fromBytes(bytes)`, and
// fail alike: MODEL_UNAVAILABLE for a failed download, ABORTED for a stopped one,
// INVALID_OPTION for bad options, all LlmMemoryErrors. Served by a real HTTP server on loopback.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { EmbedModel, NerModel, Tokenizer } from "../../pkg/llm_memory.js";
import { lib, loadTokenizer, tokenizerPath } from "./helpers.mjs";

const json = readFileSync(tokenizerPath("llama3"));

async function rejectsCode(promise, code) {
  const e = await promise.then(() => null, (err) => err);
  assert.ok(e instanceof lib.LlmMemoryError, `expected ${code}, got ${e}`);
  assert.equal(e.code, code, e.message);
  return e;
}

/** Serves `/tokenizer.json`; `/slow.json` sends half and then waits (to be aborted). */
async function serve() {
  const server = createServer((req, res) => {
    if (req.url === "/tokenizer.json") return res.writeHead(200, { "content-length": json.length }).end(json);
    if (req.url === "/slow.json") {
      res.writeHead(200, { "content-length": json.length });
      res.write(json.subarray(0, json.length >> 1));
      return; // never ends: only an abort stops the reader
    }
    res.writeHead(404).end();
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { base: `http://127.0.0.1:${server.address().port}`, close: () => server.closeAllConnections() || server.close() };
}

test("Tokenizer.fromUrl downloads with progress and counts as fromJson does", async () => {
  const { base, close } = await serve();
  try {
    const seen = [];
    const tok = await Tokenizer.fromUrl(`${base}/tokenizer.json`, { onProgress: (p) => seen.push(p) });
    assert.equal(tok.fromCache, false, "Node has no IndexedDB: downloaded");
    assert.deepEqual(seen.at(-1), { loaded: json.length, total: json.length });
    assert.ok(seen.every((p, i) => i === 0 || p.loaded >= seen[i - 1].loaded), "progress only grows");
    const text = "One loader shape for every asset, 12345 ünïcödé.";
    assert.equal(tok.count(text), loadTokenizer("llama3").count(text));
    const fromBytes = await Tokenizer.fromBytes(new Uint8Array(json));
    assert.equal(fromBytes.count(text), tok.count(text));
    await rejectsCode(Tokenizer.fromUrl(`${base}/missing.json`), "MODEL_UNAVAILABLE");
    await rejectsCode(Tokenizer.fromUrl(`${base}/tokenizer.json`, { onProgres: () => {} }), "INVALID_OPTION");
    await rejectsCode(Tokenizer.fromBytes("not bytes"), "INVALID_TOKENIZER");
  } finally {
    close();
  }
});

test("a signal stops a download with ABORTED; an aborted signal stops it before it starts", async () => {
  const { base, close } = await serve();
  try {
    const controller = new AbortController();
    const seen = [];
    const loading = Tokenizer.fromUrl(`${base}/slow.json`, {
      signal: controller.signal,
      onProgress: (p) => { seen.push(p); controller.abort(); },
    });
    await rejectsCode(loading, "ABORTED");
    assert.ok(seen.length >= 1 && seen[0].loaded < json.length, "it was stopped part way");
    for (const load of [Tokenizer.fromUrl, NerModel.fromUrl, EmbedModel.fromUrl]) {
      await rejectsCode(load(`${base}/tokenizer.json`, { signal: AbortSignal.abort() }), "ABORTED");
      await rejectsCode(load(`${base}/tokenizer.json`, { signal: "stop" }), "INVALID_OPTION");
      await rejectsCode(load(`${base}/tokenizer.json`, { cache: "yes" }), "INVALID_OPTION");
    }
  } finally {
    close();
  }
});

test("every loader reports the same progress shape and the same download error", async () => {
  const { base, close } = await serve();
  try {
    for (const load of [NerModel.fromUrl, EmbedModel.fromUrl]) {
      const seen = [];
      // Not a model: the download succeeds (same progress shape), the file is refused.
      await rejectsCode(load(`${base}/tokenizer.json`, { onProgress: (p) => seen.push(p) }), "INVALID_MODEL");
      assert.deepEqual(seen.at(-1), { loaded: json.length, total: json.length });
      await rejectsCode(load(`${base}/missing.bin`), "MODEL_UNAVAILABLE");
    }
  } finally {
    close();
  }
});
