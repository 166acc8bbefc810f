// Persistence from Node: the "memory" backend goes through the same record path, and the
// browser-only backends fail with a clear code rather than crashing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory, loadTokenizer, throwsCode } from "./helpers.mjs";

test("storage \"memory\" keeps a session for the life of the process", async () => {
  const mem = await Memory.open({ session: "node-1", storage: "memory", strategy: "tokens", maxTokens: 500, tokenizer: loadTokenizer("llama3") });
  assert.equal(mem.session, "node-1");
  assert.match(mem.add("user", "hello"), /^[0-9a-z]{4}-1$/);
  mem.add("assistant", "hi");
  await mem.flush();
  const again = await Memory.open({ session: "node-1", storage: "memory" });
  assert.deepEqual(again.entries().map((e) => e.content), ["hello", "hi"]);
  const listed = await Memory.sessions("memory");
  const info = listed.find((s) => s.session === "node-1");
  assert.equal(info.turns, 2);
  assert.equal(info.schemaVersion, 2);
  assert.ok(info.bytes > 0);
  await Memory.delete("node-1", "memory");
  assert.ok(!(await Memory.sessions("memory")).some((s) => s.session === "node-1"));
});

test("browser storages are unavailable in Node with a clear code", async () => {
  await assert.rejects(Memory.open({ session: "x", storage: "indexeddb" }), (e) => e.code === "STORAGE_UNAVAILABLE" && /IndexedDB/.test(e.message));
  await assert.rejects(Memory.open({ session: "x", storage: "localstorage" }), (e) => e.code === "STORAGE_UNAVAILABLE");
  await assert.rejects(Memory.open({ session: "x", storage: "disk" }), (e) => e.code === "INVALID_OPTION");
  await assert.rejects(Memory.open({ storage: "memory" }), (e) => e.code === "INVALID_OPTION" && /session/.test(e.message));
  for (const session of ["", "   ", "\uD800", "a\u0000b", "x".repeat(201)]) {
    await assert.rejects(Memory.open({ session, storage: "memory" }), (e) => e.code === "INVALID_OPTION", JSON.stringify(session));
    await assert.rejects(Memory.delete(session, "memory"), (e) => e.code === "INVALID_OPTION", JSON.stringify(session));
  }
  await assert.rejects(Memory.open({ session: "x", storage: "memory", ttlMs: -1 }), (e) => e.code === "INVALID_OPTION");
});

test("an exported session with facts and a vault imports whole", async () => {
  // Import checks every record it knows the shape of; what export writes must pass.
  const embed = async (texts) => texts.map((t) => Float32Array.from([t.length % 7, 1, 0.5]));
  const src = new Memory({ strategy: "retrieval", maxTokens: 600, embed, redact: true });
  src.remember("The user's locker is 5821");
  src.add("user", "mail me at ann@example.com");
  await src.context();
  await src.recall("locker");
  const doc = src.export();
  assert.deepEqual([...new Set(doc.records.map((r) => r.kind))].sort(), ["entry", "fact", "vault", "vectors"]);
  const copy = await Memory.import(doc, { session: "whole", storage: "memory", embed, redact: true });
  assert.deepEqual(copy.facts().map((f) => f.text), ["The user's locker is 5821"]);
  assert.equal(copy.restore("[EMAIL_1]"), "ann@example.com");
  const broken = structuredClone(doc);
  broken.records.find((r) => r.kind === "fact").data = { fact: { text: 3 } };
  await assert.rejects(Memory.import(broken, { session: "broken", storage: "memory" }), (e) => e.code === "INVALID_DOCUMENT" && /fact/.test(e.message));
});

test("import refuses to overwrite a session unless asked", async () => {
  const src = new Memory();
  src.add("user", "one");
  const doc = src.export();
  const a = await Memory.import(doc, { session: "imp", storage: "memory" });
  assert.equal(a.length, 1);
  await assert.rejects(Memory.import(doc, { session: "imp", storage: "memory" }), (e) => e.code === "INVALID_OPTION" && /overwrite/.test(e.message));
  src.add("user", "two");
  const b = await Memory.import(src.export(), { session: "imp", storage: "memory", overwrite: true });
  assert.deepEqual(b.entries().map((e) => e.content), ["one", "two"]);
});

test("a session's bytes follow what is stored: counted at import, replaced on rewrite, freed on delete", async () => {
  const bytesOf = async (name) => (await Memory.sessions("memory")).find((s) => s.session === name).bytes;
  const src = new Memory();
  for (let i = 0; i < 20; i++) src.add("user", `turn ${i} `.repeat(20));
  const doc = src.export();
  const mem = await Memory.import(doc, { session: "sized", storage: "memory" });
  const imported = await bytesOf("sized");
  assert.ok(imported > JSON.stringify(doc.records.map((r) => r.data)).length * 0.9, `import counts its records (${imported})`);

  // Storing the same pinned fact again and again does not grow the session.
  let pin = mem.pin("first version of a pinned fact");
  await mem.flush();
  const withPin = await bytesOf("sized");
  for (let i = 0; i < 30; i++) {
    mem.unpin(pin);
    pin = mem.pin("first version of a pinned fact");
    await mem.flush();
  }
  assert.ok(Math.abs((await bytesOf("sized")) - withPin) < 40, "a fact unpinned and pinned again is counted once");

  mem.forget(mem.entries()[0].id);
  await mem.flush();
  assert.ok((await bytesOf("sized")) < withPin, "a forgotten turn frees its bytes");
  mem.clear();
  await mem.flush();
  assert.ok((await bytesOf("sized")) < imported / 4, "clear frees the turns");
});

test("onChange is given to Memory.open (no setter on the instance)", async () => {
  const mem = await Memory.open({ session: "onchange", storage: "memory", onChange: () => {} });
  assert.equal(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(mem), "onchange"), undefined);
  const e = await Memory.open({ session: "onchange-bad", storage: "memory", onChange: "render()" }).catch((err) => err);
  assert.equal(e.code, "INVALID_OPTION");
});

test("a plain v1 history needs a session name, and its errors name the place in the input", async () => {
  const history = { version: 1, messages: [{ role: "user", content: "hi" }, { role: "bot", content: "hello" }] };
  await assert.rejects(
    Memory.import({ version: 1, messages: [{ role: "user", content: "hi" }] }, { storage: "memory" }),
    (e) => e.code === "INVALID_OPTION" && /session/.test(e.message),
  );
  await assert.rejects(
    Memory.import(history, { session: "v1", storage: "memory" }),
    (e) => e.code === "INVALID_DOCUMENT" && e.message.includes('$.messages[1].role: unknown role "bot"'),
  );
  const ok = await Memory.import([{ role: "user", content: "hi" }], { session: "v1-ok", storage: "memory" });
  assert.equal(ok.session, "v1-ok");
  await Memory.delete("v1-ok", "memory");
});
