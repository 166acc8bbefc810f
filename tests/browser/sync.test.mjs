// Sync across devices against the real sync server (llm-memory-server on SQLite): two browser
// contexts are two devices with their own IndexedDB. They exchange turns, facts and forgets; a
// device that was offline, or whose pushes failed while the server was down, converges with
// nothing lost and nothing doubled; the server's database and the records at rest hold no
// planted text; a wrong key is a coded error that changes nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { startServer } from "./static-server.mjs";
import { launch } from "./chromium.mjs";
import { serverBinary, startSyncServer } from "./sync-server.mjs";
import { KEY, devicePage, entries, facts, newDevice, openOn, syncNow } from "./sync-devices.mjs";

const available = existsSync(serverBinary());
// Without the server binary the checks are skipped locally; with CI=true they must run.
const skip = !available && !process.env.CI ? "llm-memory-server is not built (make test-browser builds it)" : false;

const OTHER_KEY = Array.from({ length: 32 }, (_, i) => (i * 53 + 5) & 255);
const PLANTED = ["PLANTED-fjord-7731", "Porto-PLANTED-street", "riley.planted@example.com", "offline-PLANTED-9"];

let web, browser, sync;
before(async () => {
  if (skip) return;
  web = await startServer({ "/device.html": devicePage });
  browser = await launch();
  sync = await startSyncServer();
});
after(async () => {
  await browser?.close();
  await web?.close();
  await sync?.close();
});

const device = () => newDevice(browser, web.url);
const open = (d, session, token, extra = {}) => openOn(d, session, token, sync.url, extra);

test("two devices exchange turns, facts and forgets", { skip }, async () => {
  const token = "account-exchange";
  const a = await device();
  const b = await device();
  await open(a, "trip", token, { redact: true });
  await a.tab.evaluate(async () => {
    mem.add("user", "Book the cabin near PLANTED-fjord-7731, mail me at riley.planted@example.com");
    mem.add("assistant", "Booked.");
    mem.remember("The user lives at Porto-PLANTED-street");
    await mem.context(); // redaction fills the vault, which is stored (and synced) too
    await mem.sync();
  });
  const onB = await open(b, "trip", token, { redact: true });
  assert.deepEqual(onB, await entries(a), "b pulls a's turns on open");
  assert.deepEqual(await facts(b), ["The user lives at Porto-PLANTED-street"]);

  // b forgets a's first turn and answers; a hears both.
  const forgotten = onB[0].id;
  const pushed = await b.tab.evaluate(async (id) => {
    mem.forget(id);
    mem.add("user", "Actually, forget the cabin.");
    return mem.sync();
  }, forgotten);
  assert.ok(pushed.pushed >= 1);
  const pulled = await syncNow(a);
  assert.ok(pulled.pulled >= 1, JSON.stringify(pulled));
  const left = await entries(a);
  assert.deepEqual(left, await entries(b));
  assert.deepEqual(left.map((e) => e.content), ["Booked.", "Actually, forget the cabin."]);
  assert.ok(await a.tab.evaluate(() => changes > 0), "onChange tells the app");
  // A reload on a keeps the forget (the tombstone is stored locally).
  await a.tab.reload();
  await a.tab.waitForFunction(() => window.ready === true);
  assert.deepEqual((await open(a, "trip", token)).map((e) => e.content), ["Booked.", "Actually, forget the cabin."]);

  // Nothing planted reaches the server's database or IndexedDB in clear.
  const dump = execFileSync("sqlite3", [sync.db, ".dump"], { encoding: "utf8", maxBuffer: 64 << 20 });
  assert.match(dump, /INSERT INTO/, "the dump holds the records");
  const records = await b.tab.evaluate(() => rawRecords());
  const atRest = JSON.stringify(records);
  assert.match(atRest, /\$sealed/);
  assert.ok(records.some((r) => r.includes('"kind":"vault"')), "the redaction vault is among the records at rest");
  for (const text of PLANTED.slice(0, 3)) {
    assert.ok(!dump.includes(text), `server dump holds ${text}`);
    assert.ok(!atRest.includes(text), `IndexedDB holds ${text}`);
  }
  assert.deepEqual([...a.pageErrors, ...b.pageErrors], []);
  assert.deepEqual(await b.tab.evaluate(() => errors), []);
  await a.context.close();
  await b.context.close();
});

test("a device offline writes, comes back: nothing lost, nothing doubled", { skip }, async () => {
  const token = "account-offline";
  const a = await device();
  const b = await device();
  await open(a, "notes", token);
  await a.tab.evaluate(async () => { mem.add("user", "first, online"); await mem.sync(); });
  await open(b, "notes", token);
  await b.context.setOffline(true);
  const offline = await b.tab.evaluate(async () => {
    for (let i = 0; i < 3; i++) mem.add("user", `offline-PLANTED-9 turn ${i}`);
    await mem.flush(); // stored locally while offline
    try { await mem.sync(); return "synced"; } catch (e) { return e.code; }
  });
  assert.equal(offline, "SYNC_FAILED");
  await a.tab.evaluate(async () => { mem.add("assistant", "meanwhile on a"); await mem.sync(); });
  await b.context.setOffline(false);
  await syncNow(b);
  await syncNow(a);
  const onA = await entries(a);
  const onB = await entries(b);
  assert.deepEqual(onA, onB);
  const texts = onA.map((e) => e.content).sort();
  assert.deepEqual(texts, ["first, online", "meanwhile on a", "offline-PLANTED-9 turn 0", "offline-PLANTED-9 turn 1", "offline-PLANTED-9 turn 2"]);
  assert.equal(new Set(onA.map((e) => e.id)).size, onA.length, "no id twice");
  // Syncing again changes nothing and sends nothing.
  assert.deepEqual(await syncNow(b), { pushed: 0, pulled: 0, compacted: 0 });
  assert.equal((await entries(a)).length, 5);
  const dump = execFileSync("sqlite3", [sync.db, ".dump"], { encoding: "utf8", maxBuffer: 64 << 20 });
  assert.ok(!dump.includes("offline-PLANTED-9"));
  await a.context.close();
  await b.context.close();
});

test("pushes that failed while the server was killed are retried and converge", { skip }, async () => {
  const token = "account-faults";
  const a = await device();
  const b = await device();
  await open(a, "burst", token);
  await open(b, "burst", token);
  await a.tab.evaluate(async () => { mem.add("user", "before the crash"); await mem.sync(); });
  await sync.kill();
  const failed = await a.tab.evaluate(async () => {
    for (let i = 0; i < 20; i++) mem.add("user", `during the outage ${i}`);
    await mem.flush();
    try { await mem.sync(); return "synced"; } catch (e) { return e.code; }
  });
  assert.equal(failed, "SYNC_FAILED");
  assert.ok((await a.tab.evaluate(() => errors)).includes("SYNC_FAILED"), "onError hears of it");
  await sync.restart();
  // a retries by itself (backoff): b sees every turn once, without a calling sync().
  let onB = [];
  for (let i = 0; i < 60 && onB.length < 21; i++) {
    await new Promise((r) => setTimeout(r, 500));
    await syncNow(b);
    onB = await entries(b);
  }
  assert.equal(onB.length, 21, `b has ${onB.length} of 21 turns`);
  assert.deepEqual(onB, await entries(a));
  assert.equal(new Set(onB.map((e) => e.content)).size, 21);
  await a.context.close();
  await b.context.close();
});

test("a wrong key is a coded error and changes nothing", { skip }, async () => {
  const token = "account-keys";
  const a = await device();
  await open(a, "secret", token);
  await a.tab.evaluate(async () => { mem.add("user", "kept safe"); await mem.sync(); mem.close(); });
  const tries = await a.tab.evaluate(async ({ url, token, other }) => {
    const codes = [];
    const attempt = async (options) => {
      try { await lib.Memory.open({ session: "secret", storage: "indexeddb", ...options }); codes.push("opened"); } catch (e) { codes.push(e.code); }
    };
    await attempt({ encrypt: { key: await keyFrom(other) } }); // the local records, other key
    await attempt({}); // encrypted, no key
    await attempt({ encrypt: { key: { passphrase: "not it" } } });
    return codes;
  }, { url: sync.url, token, other: OTHER_KEY });
  assert.deepEqual(tries, ["WRONG_KEY", "WRONG_KEY", "WRONG_KEY"]);
  assert.deepEqual((await open(a, "secret", token)).map((e) => e.content), ["kept safe"], "nothing lost");
  // A new device with another key cannot read the server's records: WRONG_KEY, not data.
  const c = await device();
  const code = await c.tab.evaluate(async ({ url, token, other }) => {
    try { await lib.Memory.open({ session: "secret", storage: "indexeddb", sync: { url, token, key: await keyFrom(other) } }); return "opened"; } catch (e) { return e.code; }
  }, { url: sync.url, token, other: OTHER_KEY });
  assert.equal(code, "WRONG_KEY");
  assert.equal((await syncNow(a)).pushed, 0, "the server's copy is intact");
  await a.context.close();
  await c.context.close();
});

test("a session deleted on one device is deleted on the others", { skip }, async () => {
  const token = "account-delete";
  const a = await device();
  const b = await device();
  await open(a, "gone", token);
  await a.tab.evaluate(async () => { mem.add("user", "soon gone"); await mem.sync(); });
  assert.equal((await open(b, "gone", token)).length, 1);
  await a.tab.evaluate(async ({ url, token }) => {
    await lib.Memory.delete("gone", { storage: "indexeddb", sync: { url, token } });
  }, { url: sync.url, token });
  assert.equal((await syncNow(b)).code, "NOT_FOUND");
  const listed = await b.tab.evaluate(async () => (await lib.Memory.sessions("indexeddb")).map((s) => s.session));
  assert.ok(!listed.includes("gone"), "b's copy is deleted");
  assert.equal(await b.tab.evaluate(async ({ url, token }) => {
    try { await openSynced("gone", { url, token, keyBytes: [...Array(32).keys()] }); return "opened"; } catch (e) { return e.code; }
  }, { url: sync.url, token }), "NOT_FOUND", "it does not come back");
  await a.context.close();
  await b.context.close();
});

test("a session kept before sync was turned on is sent whole, once", { skip }, async () => {
  const token = "account-legacy";
  const a = await device();
  await a.tab.evaluate(async () => {
    const mem = await lib.Memory.open({ session: "legacy", storage: "indexeddb" });
    mem.add("user", "from before sync");
    mem.remember("The user prefers tea");
    await mem.flush();
  });
  await open(a, "legacy", token);
  await a.tab.evaluate(async () => { await mem.sync(); });
  // A reload does not send it again.
  await a.tab.reload();
  await a.tab.waitForFunction(() => window.ready === true);
  await open(a, "legacy", token);
  assert.deepEqual(await syncNow(a), { pushed: 0, pulled: 0, compacted: 0 });
  const b = await device();
  assert.deepEqual((await open(b, "legacy", token)).map((e) => e.content), ["from before sync"]);
  assert.deepEqual(await facts(b), ["The user prefers tea"]);
  await a.context.close();
  await b.context.close();
});

test("bad sync options are coded errors", { skip }, async () => {
  const d = await device();
  const codes = await d.tab.evaluate(async (url) => {
    const key = await keyFrom([...Array(32).keys()]);
    const extractable = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
    const cases = [
      { url: "ftp://example.com", token: "t", key },
      { url: "not a url", token: "t", key },
      { url, key },
      { url, token: "has space", key },
      { url, token: "t" },
      { url, token: "t", key: "secret" },
      { url, token: "t", key: { passphrase: "" } },
      { url, token: "t", key: extractable },
      { url, token: "t", key, intervalMs: -5 },
      { url, token: "t", key, extra: 1 },
    ];
    const out = [];
    for (const sync of cases) {
      try { await lib.Memory.open({ session: "bad", storage: "memory", sync }); out.push("opened"); } catch (e) { out.push(e.code); }
    }
    try { await new lib.Memory().sync(); out.push("synced"); } catch (e) { out.push(e.code); }
    return out;
  }, sync.url);
  assert.deepEqual(codes, Array(11).fill("INVALID_OPTION"));
  await d.context.close();
});
