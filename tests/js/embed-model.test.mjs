// EmbedModel against the built pkg/ with the real model file (`make embed-model` writes
// models/embed.bin; skipped with a message when it is absent and CI is unset): vectors of unit
// length, coded errors for bad files, and `new Memory({ embedder })` recalling a fact from a
// question that shares no word with it, which words alone miss.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { lib, throwsCode } from "./helpers.mjs";

const { EmbedModel, Memory } = lib;
const path = fileURLToPath(new URL("../../models/embed.bin", import.meta.url));
const present = existsSync(path);
if (!present && process.env.CI) throw new Error(`no ${path}: run make embed-model`);
const skip = present ? false : `no ${path}: run make embed-model`;
const bytes = present ? readFileSync(path) : null;

const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);

test("a bad file is INVALID_MODEL", async () => {
  for (const bad of [new Uint8Array(10), new TextEncoder().encode("LMNERMDL and then nothing"), "text", undefined, 42, {}]) {
    await assert.rejects(EmbedModel.fromBytes(bad), (e) => e.code === "INVALID_MODEL");
  }
  for (const bad of [undefined, null, 42, {}, ["x"]]) {
    await assert.rejects(EmbedModel.fromUrl(bad), (e) => e.code === "INVALID_OPTION");
  }
  await assert.rejects(EmbedModel.fromUrl("not a url"), (e) => e.code === "MODEL_UNAVAILABLE");
  if (bytes) {
    await assert.rejects(EmbedModel.fromBytes(bytes.subarray(0, bytes.length - 16)), (e) => e.code === "INVALID_MODEL");
  }
});

test("embed gives one unit vector per text, and related texts score higher", { skip }, async () => {
  const model = await EmbedModel.fromBytes(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  assert.equal(model.dimensions, 384);
  assert.equal(model.maxTokens, 256);
  assert.equal(model.license, "Apache-2.0");
  assert.match(model.attribution, /all-MiniLM-L6-v2/);
  const [porto, based, ramen] = model.embed(["I moved to Porto last spring.", "Where am I based?", "My favorite food is ramen."]);
  for (const v of [porto, based, ramen]) {
    assert.ok(v instanceof Float32Array && v.length === 384);
    assert.ok(Math.abs(dot(v, v) - 1) < 1e-4);
  }
  assert.ok(dot(porto, based) > dot(ramen, based));
  assert.deepEqual(model.embed([]), []);
  for (const bad of [undefined, null, 42, "text", {}, [1], ["ok", null], new Uint8Array(2)]) {
    throwsCode(assert, () => model.embed(bad), "INVALID_OPTION");
  }
  model.free();
});

test("Memory with an embedder recalls a reworded fact that words miss", { skip }, async () => {
  const embedder = await EmbedModel.fromBytes(bytes);
  const filler = [
    "Can you suggest a good book about the history of maps?",
    "How do I keep basil alive on a windowsill?",
    "Any tips for sleeping better when it is hot?",
    "What should I pack for a weekend hiking trip?",
  ];
  const fill = (mem) => {
    let t = Date.UTC(2025, 0, 1);
    for (let i = 0; i < 40; i++) {
      if (i === 5) mem.add("user", "I moved to Porto last spring.", { timestamp: (t += 60_000) });
      else mem.add("user", filler[i % filler.length], { timestamp: (t += 60_000) });
      mem.add("assistant", "Good question. Start small and keep it consistent.", { timestamp: (t += 60_000) });
    }
    mem.add("user", "Where am I based?", { timestamp: (t += 60_000) });
  };
  const found = async (mem) => (await mem.context()).messages.some((m) => (m.content ?? "").includes("Porto"));
  const words = new Memory({ strategy: "retrieval", maxTokens: 300 });
  fill(words);
  assert.equal(await found(words), false, "words alone do not find it");
  const meaning = new Memory({ strategy: "retrieval", maxTokens: 300, embedder });
  fill(meaning);
  // The app's idle-time work: context() itself embeds only a few waiting items.
  while ((await meaning.embedPending()) > 0);
  assert.equal(await found(meaning), true, "the embedder finds it");
  // The question itself is in the history too: the fact is among the two nearest.
  const hits = await meaning.recall("Which city do I live in?", { k: 2 });
  assert.ok(hits.some((h) => /Porto/.test(h.text)), hits.map((h) => h.text).join(" | "));
  throwsCode(assert, () => new Memory({ strategy: "retrieval", maxTokens: 300, embedder, embed: async (t) => t.map(() => [1]) }), "INVALID_OPTION");
  throwsCode(assert, () => new Memory({ strategy: "retrieval", maxTokens: 300, embedder: {} }), "INVALID_OPTION");
});

test("fromUrl downloads with progress; a missing file is MODEL_UNAVAILABLE", { skip }, async () => {
  const server = createServer((req, res) => {
    if (req.url !== "/embed.bin") return res.writeHead(404).end();
    res.writeHead(200, { "content-length": bytes.length }).end(bytes);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const seen = [];
    const model = await EmbedModel.fromUrl(`${base}/embed.bin`, { onProgress: ({ loaded, total }) => seen.push([loaded, total]) });
    assert.equal(model.fromCache, false, "Node has no IndexedDB: downloaded");
    assert.ok(seen.length >= 1);
    assert.deepEqual(seen.at(-1), [bytes.length, bytes.length]);
    assert.ok(seen.every(([a], i) => i === 0 || a >= seen[i - 1][0]), "progress only grows");
    assert.equal(model.embed(["hello"])[0].length, 384);
    await assert.rejects(EmbedModel.fromUrl(`${base}/missing.bin`), (e) => e.code === "MODEL_UNAVAILABLE" && /404/.test(e.message));
    await assert.rejects(EmbedModel.fromUrl(`${base}/embed.bin`, { progress: 1 }), (e) => e.code === "INVALID_OPTION");
  } finally {
    server.close();
  }
});

test("a model given where another kind belongs is refused, whatever its handle", { skip }, async () => {
  const { Tokenizer, Redactor } = lib;
  const embedder = await EmbedModel.fromBytes(bytes);
  // Every kind gets handles from one registry: the embedder's number names no tokenizer.
  const tokenizers = Array.from({ length: 4 }, () => Tokenizer.approximate());
  const e = throwsCode(assert, () => new Memory({ tokenizer: embedder }), "INVALID_OPTION");
  assert.match(e.message, /tokenizer must be a Tokenizer/);
  throwsCode(assert, () => new Memory({ strategy: "retrieval", maxTokens: 500, embedder: tokenizers[0] }), "INVALID_OPTION");
  throwsCode(assert, () => new Redactor({ model: embedder }), "INVALID_OPTION");
  // The right kinds still work.
  const mem = new Memory({ strategy: "retrieval", maxTokens: 500, embedder, tokenizer: tokenizers[1] });
  mem.add("user", "hello");
  mem.free();
  for (const t of tokenizers) t.free();
  embedder.free();
});
