// Persistence when storage fails or is damaged, in a headless browser: an import that does not
// fit leaves every stored session as it was, and one damaged session does not lock the others.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { engine, startHarness } from "./harness.mjs";

/** Crashing a renderer and capping an origin's quota take the DevTools Protocol: Chromium only. */
const cdpOnly = engine === "firefox" ? "needs the Chrome DevTools Protocol" : false;

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** A version-1 backup (plain messages) far larger than what the storage has left. */
const hugeBackup = () => ({
  version: 1,
  messages: Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `backup ${i} ` + "z".repeat(200_000) })),
});

test("localstorage: an import over the quota stores nothing, and over a session leaves it whole", async () => {
  const tab = await h.open();
  const out = await tab.evaluate(async (backup) => {
    localStorage.clear();
    const storage = "localstorage";
    const keysOf = (s) => Object.keys(localStorage).filter((k) => k.startsWith(`llm-memory/${s}/`)).length;
    const chat = await lib.Memory.open({ session: "chat", storage });
    for (let i = 0; i < 3; i++) chat.add("user", `precious ${i}`);
    await chat.flush();
    const chatKeys = keysOf("chat");
    const codes = [];
    for (const [session, overwrite] of [["restored", false], ["chat", true]]) {
      try { await lib.Memory.import(backup, { session, storage, overwrite }); codes.push("stored"); } catch (e) { codes.push(e.code); }
    }
    const again = await lib.Memory.open({ session: "chat", storage });
    return {
      codes,
      leftover: keysOf("restored"),
      chatKeys: [chatKeys, keysOf("chat")],
      chat: again.entries().map((e) => e.content),
      listed: (await lib.Memory.sessions(storage)).map((s) => s.session),
    };
  }, hugeBackup());
  assert.deepEqual(out.codes, ["QUOTA_EXCEEDED", "QUOTA_EXCEEDED"]);
  assert.equal(out.leftover, 0, "nothing of the failed import stays behind");
  assert.equal(out.chatKeys[1], out.chatKeys[0], "the session it would have replaced is all there");
  assert.deepEqual(out.chat, ["precious 0", "precious 1", "precious 2"]);
  assert.deepEqual(out.listed, ["chat"]);
  await tab.evaluate(() => localStorage.clear());
  await tab.close();
});

test("indexeddb: an import over the quota with overwrite leaves the session it would replace", { skip: cdpOnly }, async () => {
  const tab = await h.open();
  const cdp = await h.context.newCDPSession(tab);
  await cdp.send("Storage.overrideQuotaForOrigin", { origin: h.server.url, quotaSize: 3 * 1024 * 1024 });
  try {
    const out = await tab.evaluate(async (backup) => {
      const storage = "indexeddb";
      const chat = await lib.Memory.open({ session: "idb-chat", storage });
      for (let i = 0; i < 3; i++) chat.add("user", `precious ${i}`);
      await chat.flush();
      let code;
      try { await lib.Memory.import(backup, { session: "idb-chat", storage, overwrite: true }); } catch (e) { code = e.code; }
      const again = await lib.Memory.open({ session: "idb-chat", storage });
      const contents = again.entries().map((e) => e.content);
      await lib.Memory.delete("idb-chat", storage);
      return { code, contents };
    }, hugeBackup());
    assert.equal(out.code, "QUOTA_EXCEEDED");
    assert.deepEqual(out.contents, ["precious 0", "precious 1", "precious 2"]);
  } finally {
    await cdp.send("Storage.overrideQuotaForOrigin", { origin: h.server.url });
  }
  await tab.close();
});

for (const storage of ["indexeddb", "localstorage"]) {
  test(`${storage}: a session with damaged bookkeeping is named, does not lock the others, and can be replaced`, async () => {
    const tab = await h.open();
    const out = await tab.evaluate(async (storage) => {
      const broken = await lib.Memory.open({ session: "damaged", storage });
      broken.add("user", "soon unreadable");
      await broken.flush();
      broken.close();
      if (storage === "localstorage") {
        localStorage.setItem("llm-memory/damaged/meta", "{cut off");
      } else {
        const db = await new Promise((ok, fail) => { const r = indexedDB.open("llm-memory"); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
        const names = [...db.objectStoreNames];
        const store = names.find((n) => /session/i.test(n));
        await new Promise((ok, fail) => {
          const tx = db.transaction(store, "readwrite");
          tx.objectStore(store).put("{cut off", "damaged");
          tx.oncomplete = ok; tx.onerror = () => fail(tx.error);
        });
        db.close();
      }
      const result = {};
      try {
        const other = await lib.Memory.open({ session: "healthy", storage });
        other.add("user", "fine");
        await other.flush();
        result.other = other.length;
      } catch (e) { result.other = e.code; }
      try { await lib.Memory.sessions(storage); } catch (e) { result.listed = [e.code, e.message]; }
      const doc = new lib.Memory();
      doc.add("user", "a fresh start");
      const replaced = await lib.Memory.import(doc.export(), { session: "damaged", storage, overwrite: true });
      result.replaced = replaced.entries().map((e) => e.content);
      result.after = (await lib.Memory.sessions(storage)).map((s) => s.session).sort();
      for (const s of ["damaged", "healthy"]) await lib.Memory.delete(s, storage);
      return result;
    }, storage);
    assert.equal(out.other, 1, "another session opens and stores");
    assert.equal(out.listed[0], "CORRUPT_STORAGE");
    assert.match(out.listed[1], /"damaged"/, "the error names the damaged session");
    assert.deepEqual(out.replaced, ["a fresh start"]);
    assert.deepEqual(out.after, ["damaged", "healthy"]);
    await tab.close();
  });
}

test("a session deleted or expired while another tab has it open is not brought back by that tab", async () => {
  const [a, b] = [await h.open(), await h.open()];
  const openIn = (tab, session, ttlMs) => tab.evaluate(async ({ session, ttlMs }) => {
    window.errors = [];
    window.mems ??= {};
    window.mems[session] = await lib.Memory.open({ session, storage: "indexeddb", ttlMs, onError: (e) => errors.push(e.code) });
    mems[session].add("user", "first");
    await mems[session].flush();
  }, { session, ttlMs });
  await openIn(a, "deleted-elsewhere");
  await openIn(a, "expires-soon", 50);
  await b.evaluate(async () => {
    await lib.Memory.delete("deleted-elsewhere", "indexeddb");
    await new Promise((r) => setTimeout(r, 100));
    // Opening any session sweeps the expired ones.
    await lib.Memory.open({ session: "sweeper", storage: "indexeddb" });
  });
  await a.waitForFunction(() => errors.length >= 2, null, { timeout: 5_000 });
  const out = await a.evaluate(async () => {
    const flushed = [];
    for (const name of ["deleted-elsewhere", "expires-soon"]) {
      mems[name].add("user", "after the delete");
      try { await mems[name].flush(); flushed.push("stored"); } catch (e) { flushed.push(e.code); }
    }
    return { errors, flushed, kept: mems["deleted-elsewhere"].length, listed: (await lib.Memory.sessions("indexeddb")).map((s) => s.session) };
  });
  assert.deepEqual(out.errors, ["NOT_FOUND", "NOT_FOUND"]);
  assert.deepEqual(out.flushed, ["NOT_FOUND", "NOT_FOUND"]);
  assert.equal(out.kept, 2, "the open memory keeps what it holds");
  assert.ok(!out.listed.includes("deleted-elsewhere") && !out.listed.includes("expires-soon"), out.listed.join());
  await b.evaluate(() => lib.Memory.delete("sweeper", "indexeddb"));
  for (const t of [a, b]) await t.close();
});

test("localstorage: a turn too big for the quota blocks storing until it is forgotten", async () => {
  const tab = await h.open();
  const out = await tab.evaluate(async () => {
    localStorage.clear();
    const open = () => lib.Memory.open({ session: "too-big", storage: "localstorage", maxEntryChars: 8_000_000, onError: () => {} });
    const mem = await open();
    mem.add("user", "before");
    await mem.flush();
    const big = mem.add("user", "x".repeat(6_000_000));
    const codes = [];
    try { await mem.flush(); codes.push("stored"); } catch (e) { codes.push(e.code); }
    mem.add("user", "queued behind it");
    try { await mem.flush(); codes.push("stored"); } catch (e) { codes.push(e.code); }
    mem.forget(big);
    mem.add("user", "after forgetting it");
    try { await mem.flush(); codes.push("stored"); } catch (e) { codes.push(e.code); }
    const again = (await open()).entries().map((e) => e.content);
    localStorage.clear();
    return { codes, again };
  });
  assert.deepEqual(out.codes, ["QUOTA_EXCEEDED", "QUOTA_EXCEEDED", "stored"]);
  assert.deepEqual(out.again, ["before", "queued behind it", "after forgetting it"]);
  await tab.close();
});
