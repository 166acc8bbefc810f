// Persistence in a real headless browser (Chromium; Firefox under make test-firefox): IndexedDB and localStorage survive reloads, crashes
// and two tabs; export/import is lossless; expiry, migration, read-only newer data, corrupt
// data and a full localStorage each behave as documented.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { engine, startHarness } from "./harness.mjs";

/** Crashing a renderer and capping an origin's quota take the DevTools Protocol: Chromium only. */
const cdpOnly = engine === "firefox" ? "needs the Chrome DevTools Protocol" : false;

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const v1 = readFileSync(new URL("../fixtures/v1-chat.json", import.meta.url), "utf8");

for (const storage of ["indexeddb", "localstorage"]) {
  test(`${storage}: 1 000 turns survive a reload with identical content and order`, async () => {
    const session = `thousand-${storage}`;
    const tab = await h.open();
    const written = await tab.evaluate(async ({ session, storage }) => {
      const mem = await lib.Memory.open({ session, storage });
      const texts = [];
      for (let i = 0; i < 1000; i++) {
        const text = `turn ${i}: ${"é😀中".repeat(i % 7)} ${Math.sin(i)}`;
        texts.push(text);
        mem.add(i % 2 ? "assistant" : "user", text, { metadata: { i } });
      }
      await mem.flush();
      return { texts, ids: mem.entries().map((e) => e.id) };
    }, { session, storage });
    await tab.reload();
    await tab.waitForFunction(() => window.ready === true);
    const reopened = await tab.evaluate(async ({ session, storage }) => {
      const mem = await lib.Memory.open({ session, storage });
      return mem.entries().map((e) => ({ id: e.id, content: e.content, i: e.metadata.i, role: e.role }));
    }, { session, storage });
    assert.equal(reopened.length, 1000);
    assert.deepEqual(reopened.map((e) => e.content), written.texts);
    assert.deepEqual(reopened.map((e) => e.id), written.ids);
    assert.deepEqual(reopened.map((e) => e.i), [...Array(1000).keys()]);
    assert.deepEqual(tab.errors, []);
    await tab.close();
  });
}

test("a page killed mid-write reopens to a consistent prefix, and writing goes on", { skip: cdpOnly }, async () => {
  const tab = await h.open();
  await tab.evaluate(async () => {
    const mem = await lib.Memory.open({ session: "crash", storage: "indexeddb" });
    window.mem = mem;
    let i = 0;
    // Keep writing in the background until the renderer dies.
    (async () => { for (;;) { mem.add("user", `crash turn ${i++}`); if (i % 25 === 0) await mem.flush(); } })();
    await new Promise((r) => setTimeout(r, 300));
  });
  const cdp = await h.context.newCDPSession(tab);
  // The crash kills the renderer; neither call may ever answer, so neither is awaited long.
  const settle = (p) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
  await settle(cdp.send("Page.crash"));
  await settle(tab.close());
  const after = await h.open();
  const state = await after.evaluate(async () => {
    const mem = await lib.Memory.open({ session: "crash", storage: "indexeddb" });
    const contents = mem.entries().map((e) => e.content);
    mem.add("user", "after the crash");
    await mem.flush();
    const again = await lib.Memory.open({ session: "crash", storage: "indexeddb" });
    return { contents, ids: mem.entries().map((e) => e.id), last: again.entries().at(-1).content, n: again.length };
  });
  assert.ok(state.contents.length >= 25, `only ${state.contents.length} turns stored before the crash`);
  assert.deepEqual(state.contents, state.contents.map((_, i) => `crash turn ${i}`), "a gap-free prefix, in order");
  assert.equal(new Set(state.ids).size, state.ids.length);
  assert.equal(state.last, "after the crash");
  assert.equal(state.n, state.contents.length + 1);
  await after.close();
});

test("two tabs writing one session lose nothing, mint no duplicate ids, and see each other", async () => {
  const [a, b] = [await h.open(), await h.open()];
  // Both tabs listen through the onChange option.
  const open = (tab) => tab.evaluate(async () => {
    window.changes = 0;
    window.mem = await lib.Memory.open({ session: "two-tabs", storage: "indexeddb", onChange: () => { window.changes++; } });
  });
  await open(a);
  await open(b);
  const write = (tab, who) => tab.evaluate(async (who) => {
    for (let i = 0; i < 100; i++) {
      mem.add("user", `${who} ${i}`);
      if (i % 10 === 9) { await mem.flush(); await new Promise((r) => setTimeout(r, 1)); }
    }
    await mem.flush();
  }, who);
  await Promise.all([write(a, "A"), write(b, "B")]);
  await a.waitForFunction(() => mem.length === 200, null, { timeout: 10_000 });
  await b.waitForFunction(() => mem.length === 200, null, { timeout: 10_000 });
  const c = await h.open();
  const stored = await c.evaluate(async () => {
    const mem = await lib.Memory.open({ session: "two-tabs", storage: "indexeddb" });
    return mem.entries().map((e) => ({ id: e.id, content: e.content }));
  });
  assert.equal(stored.length, 200);
  assert.equal(new Set(stored.map((e) => e.id)).size, 200, "ids are unique");
  for (const who of ["A", "B"]) {
    const mine = stored.filter((e) => e.content.startsWith(who)).map((e) => e.content);
    assert.deepEqual(mine, [...Array(100).keys()].map((i) => `${who} ${i}`), `${who}'s turns are all there, in order`);
  }
  const seenByA = await a.evaluate(() => ({ n: mem.length, changes: window.changes, contents: mem.entries().map((e) => e.content) }));
  assert.ok(seenByA.changes > 0, "tab A was told about tab B's turns");
  assert.ok(await b.evaluate(() => window.changes) > 0, "tab B was told about tab A's turns");
  assert.deepEqual(seenByA.contents.sort(), stored.map((e) => e.content).sort());
  for (const t of [a, b, c]) await t.close();
});

test("two tabs remembering facts, pinning and logging steps keep both tabs' records", async () => {
  for (const storage of ["indexeddb", "localstorage"]) {
    const session = `two-tabs-facts-${storage}`;
    const [a, b] = [await h.open(), await h.open()];
    const open = (tab) => tab.evaluate(async ({ session, storage }) => {
      window.mem = await lib.Memory.open({ session, storage });
    }, { session, storage });
    await open(a);
    await open(b);
    const write = (tab, who) => tab.evaluate(async (who) => {
      mem.remember(`${who}: the user is allergic to peanuts`, { subject: `${who} allergy` });
      mem.pin(`${who} pinned this`);
      mem.addStep({ type: "task", task: `${who} task` });
      await mem.flush();
    }, who);
    await write(a, "A");
    await write(b, "B");
    const c = await h.open();
    const stored = await c.evaluate(async ({ session, storage }) => {
      const mem = await lib.Memory.open({ session, storage });
      return { facts: mem.facts().map((f) => f.text).sort(), pinned: mem.pinned().map((p) => p.text).sort(), steps: mem.steps().length };
    }, { session, storage });
    assert.deepEqual(stored, {
      facts: ["A: the user is allergic to peanuts", "B: the user is allergic to peanuts"],
      pinned: ["A pinned this", "B pinned this"],
      steps: 2,
    }, storage);
    for (const t of [a, b, c]) await t.close();
  }
});

test("export then import is lossless", async () => {
  const tab = await h.open();
  const result = await tab.evaluate(async () => {
    const mem = await lib.Memory.open({ session: "exp", storage: "indexeddb", strategy: "summary", maxTokens: 300,
      summaryTrigger: { messages: 4 }, keepRecent: 2, summarize: async () => "a summary" });
    mem.add("system", "be kind");
    for (let i = 0; i < 8; i++) mem.add(i % 2 ? "assistant" : "user", `t${i} ✓`, { metadata: { n: i, nested: { ok: true } } });
    mem.add("assistant", null, { toolCalls: [{ id: "c1", function: { name: "f", arguments: { a: 1 } } }] });
    mem.add("tool", "42", { toolCallId: "c1" });
    mem.add("user", "last");
    mem.pin("likes tea");
    mem.addStep({ type: "task", task: "plan a trip" });
    await mem.context();
    await mem.flush();
    const doc = mem.export();
    const copy = await lib.Memory.import(JSON.stringify(doc), { session: "exp-copy", storage: "indexeddb" });
    const doc2 = copy.export();
    const reopened = await lib.Memory.open({ session: "exp-copy", storage: "indexeddb" });
    return { doc, doc2, reopened: reopened.export() };
  });
  assert.equal(result.doc.version, 2);
  assert.equal(result.doc.format, "llm-memory/session");
  const kinds = new Set(result.doc.records.map((r) => r.kind));
  assert.deepEqual([...kinds].sort(), ["entry", "pinned", "step", "summary"]);
  assert.deepEqual(result.doc2.records, result.doc.records);
  assert.deepEqual(result.reopened.records, result.doc.records);
  await tab.close();
});

test("expiry removes only expired sessions", async () => {
  const tab = await h.open();
  const names = await tab.evaluate(async () => {
    const short = await lib.Memory.open({ session: "short-lived", storage: "indexeddb", ttlMs: 50 });
    short.add("user", "soon gone");
    const keep = await lib.Memory.open({ session: "kept", storage: "indexeddb" });
    keep.add("user", "stays");
    await Promise.all([short.flush(), keep.flush()]);
    const before = (await lib.Memory.sessions("indexeddb")).map((s) => s.session);
    await new Promise((r) => setTimeout(r, 120));
    await lib.Memory.open({ session: "trigger-cleanup", storage: "indexeddb" });
    const after = (await lib.Memory.sessions("indexeddb")).map((s) => s.session);
    const kept = await lib.Memory.open({ session: "kept", storage: "indexeddb" });
    return { before, after, kept: kept.entries().map((e) => e.content) };
  });
  assert.ok(names.before.includes("short-lived"));
  assert.ok(!names.after.includes("short-lived"));
  assert.ok(names.after.includes("kept") && names.after.includes("trigger-cleanup"));
  assert.deepEqual(names.kept, ["stays"]);
  await tab.close();
});

test("a stored v1 chat (plain message list) migrates on import", async () => {
  const tab = await h.open();
  const out = await tab.evaluate(async (v1) => {
    localStorage.setItem("my-app-chat", v1); // what an app kept before adopting llm-memory
    const mem = await lib.Memory.import(localStorage.getItem("my-app-chat"), { session: "migrated", storage: "localstorage" });
    const { messages } = await mem.context();
    const reopened = await lib.Memory.open({ session: "migrated", storage: "localstorage" });
    return { entries: mem.entries(), messages, n: reopened.length, version: mem.export().version };
  }, v1);
  assert.equal(out.entries.length, 6);
  assert.equal(out.version, 2);
  assert.equal(out.entries[2].toolCalls[0].id, "call_1");
  assert.equal(out.entries[3].toolCallId, "call_1");
  assert.equal(out.entries[5].name, "riley");
  assert.equal(out.entries[1].timestamp, 1700000001000);
  assert.deepEqual(out.messages.map((m) => m.role), ["system", "user", "assistant", "tool", "assistant", "user"]);
  assert.equal(out.n, 6);
  await tab.close();
});

test("data from a newer schema opens read-only and is never overwritten", async () => {
  const tab = await h.open();
  const out = await tab.evaluate(async () => {
    const mem = await lib.Memory.open({ session: "future", storage: "localstorage" });
    mem.add("user", "written by the future, mail ann@example.com");
    await mem.flush();
    const key = "llm-memory/future/meta";
    const meta = JSON.parse(localStorage.getItem(key));
    meta.schemaVersion = 99;
    localStorage.setItem(key, JSON.stringify(meta));
    const snapshot = JSON.stringify(Object.entries(localStorage).filter(([k]) => k.startsWith("llm-memory/future/")).sort());
    const ro = await lib.Memory.open({ session: "future", storage: "localstorage" });
    let code;
    try { ro.add("user", "no"); } catch (e) { code = e.code; }
    // Turning redaction on teaches the vault the stored turn's address: kept in this tab only.
    ro.configure({ redact: true });
    await ro.context();
    await ro.flush();
    const after = JSON.stringify(Object.entries(localStorage).filter(([k]) => k.startsWith("llm-memory/future/")).sort());
    return { readOnly: ro.readOnly, code, entries: ro.entries().map((e) => e.content), same: snapshot === after };
  });
  assert.equal(out.readOnly, true);
  assert.equal(out.code, "READ_ONLY");
  assert.deepEqual(out.entries, ["written by the future, mail ann@example.com"]);
  assert.equal(out.same, true);
  await tab.close();
});

test("corrupt stored JSON is a clear error and nothing is deleted", async () => {
  const tab = await h.open();
  const out = await tab.evaluate(async () => {
    const mem = await lib.Memory.open({ session: "corrupt", storage: "localstorage" });
    mem.add("user", "fine");
    mem.add("user", "will be damaged");
    await mem.flush();
    const key = Object.keys(localStorage).find((k) => k.startsWith("llm-memory/corrupt/r/entry/") && localStorage.getItem(k).includes("damaged"));
    localStorage.setItem(key, "{not json");
    let err;
    try { await lib.Memory.open({ session: "corrupt", storage: "localstorage" }); } catch (e) { err = e; }
    return { code: err?.code, message: err?.message, kept: localStorage.getItem(key), count: Object.keys(localStorage).filter((k) => k.startsWith("llm-memory/corrupt/")).length };
  });
  assert.equal(out.code, "CORRUPT_STORAGE");
  assert.match(out.message, /cannot be read/);
  assert.equal(out.kept, "{not json");
  assert.equal(out.count, 3);
  await tab.close();
});

test("a full localStorage gives QUOTA_EXCEEDED naming the session; stored turns stay intact", async () => {
  const tab = await h.open();
  const out = await tab.evaluate(async () => {
    localStorage.clear();
    const mem = await lib.Memory.open({ session: "full", storage: "localstorage", onError: () => {} });
    mem.add("user", "before the flood");
    await mem.flush();
    // Fill the rest of the quota with app data.
    const chunk = "x".repeat(256 * 1024);
    for (let i = 0; ; i++) { try { localStorage.setItem(`filler-${i}`, chunk); } catch { break; } }
    for (let i = 0; ; i++) { try { localStorage.setItem(`small-${i}`, "x".repeat(1024)); } catch { break; } }
    mem.add("user", "y".repeat(200 * 1024));
    let err;
    try { await mem.flush(); } catch (e) { err = e; }
    const inMemory = mem.length;
    for (const k of Object.keys(localStorage)) if (k.startsWith("filler-")) localStorage.removeItem(k);
    await mem.flush(); // room again: the queued turn is written now
    const reopened = await lib.Memory.open({ session: "full", storage: "localstorage" });
    return { code: err?.code, message: err?.message, inMemory, stored: reopened.entries().map((e) => e.content.slice(0, 16)) };
  });
  assert.equal(out.code, "QUOTA_EXCEEDED");
  assert.match(out.message, /"full"/);
  assert.equal(out.inMemory, 2);
  assert.deepEqual(out.stored, ["before the flood", "y".repeat(16)]);
  await tab.close();
});

test("hostile imports are refused before anything is stored", async () => {
  const tab = await h.open();
  const out = await tab.evaluate(async () => {
    const codes = [];
    const docs = [
      '{"version":1,"messages":[{"role":"user","content":"x","metadata":{"__proto__":{"admin":true}}}]}',
      '{"version":2,"format":"llm-memory/session","session":"h","createdAt":0,"updatedAt":0,"records":[{"kind":"entry","id":"e1","order":0,"data":{"role":"user"}}]}',
      '{"version":1,"messages":"nope"}',
      "x".repeat(100),
      { version: 1, messages: Array.from({ length: 5000 }, () => ({ role: "user", content: "z".repeat(100) })) },
    ];
    for (const d of docs) {
      try { await lib.Memory.import(d, { session: "hostile", storage: "indexeddb", maxBytes: 100_000 }); codes.push("ok"); }
      catch (e) { codes.push(e.code); }
    }
    const sessions = (await lib.Memory.sessions("indexeddb")).map((s) => s.session);
    return { codes, stored: sessions.includes("hostile"), polluted: ({}).admin === true };
  });
  assert.deepEqual(out.codes, ["INVALID_DOCUMENT", "INVALID_DOCUMENT", "INVALID_DOCUMENT", "INVALID_DOCUMENT", "INVALID_DOCUMENT"]);
  assert.equal(out.stored, false);
  assert.equal(out.polluted, false);
  await tab.close();
});
