// Forget means forgotten on the sync server too (the real llm-memory-server on SQLite): after
// `forget` and `clear` the server's records, decrypted with the account's key, hold no canary;
// the ciphertext the server held before is gone from its database file; devices that pull the
// compacted log, old or new, agree. Also a forget while the server is down (and a reload before
// it comes back), a forget during a push, one before the write, and `Memory.delete`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { startServer } from "./static-server.mjs";
import { launch } from "./chromium.mjs";
import { serverBinary, startSyncServer } from "./sync-server.mjs";
import {
  databaseBytes, decryptRecord, devicePage, entries, facts, newDevice, openOn, serverRecords, syncNow,
} from "./sync-devices.mjs";

const available = existsSync(serverBinary());
const skip = !available && !process.env.CI ? "llm-memory-server is not built (make test-browser builds it)" : false;

const NAME = "Marisol Quintanilla-Obregon";
const EMAIL = "marisol.qo@example-mail.net";
const PHONE = "+1 415 555 0199";
const BADGE = "badge number QX-58213-CANARY";
const FACT = "The user's locker code is 7731-CANARY";
const CANARIES = [NAME, EMAIL, PHONE, "QX-58213-CANARY", "7731-CANARY"];

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

/** The server's records of the session, decrypted: `{ id, seq, data, plain }`. */
async function onServer(token, session) {
  const records = await serverRecords(sync.url, token, session);
  assert.ok(Array.isArray(records), `the server answers ${records} for ${session}`);
  return records.map((r) => ({ ...r, plain: decryptRecord(session, r) }));
}

function assertNoCanary(records, what, canaries = CANARIES) {
  const all = records.map((r) => r.plain).join("\n");
  for (const c of canaries) assert.ok(!all.includes(c), `${what}: the server still holds ${JSON.stringify(c)}`);
}

/** Ciphertext the server held before that it no longer serves must be gone from its file. */
function assertRewrittenBytesGone(before, now) {
  const served = new Map(now.map((r) => [r.id, r.data]));
  const file = databaseBytes(sync.db);
  let gone = 0;
  for (const r of before) {
    if (served.get(r.id) === r.data) continue;
    gone++;
    const old = Buffer.from(r.data, "base64");
    assert.equal(file.indexOf(old), -1, `record ${r.id}'s old ciphertext is still in the SQLite file`);
  }
  return gone;
}

const plant = (d) => d.tab.evaluate(async ({ NAME, EMAIL, PHONE, BADGE, FACT }) => {
  const secret = mem.add("user", `Hi, I'm ${NAME}, write to ${EMAIL} or call ${PHONE}, my ${BADGE}.`);
  mem.add("assistant", "Noted.");
  mem.add("user", "The budget review is on Friday.");
  const fact = mem.remember(FACT);
  await mem.context(); // redaction fills the vault, which is stored and synced too
  await mem.sync();
  return { secret, fact: typeof fact === "string" ? fact : fact.id };
}, { NAME, EMAIL, PHONE, BADGE, FACT });

test("forget and clear leave no copy of the canaries on the server", { skip }, async () => {
  const token = "account-forget";
  const a = await device();
  const b = await device();
  await open(a, "canary", token, { redact: true });
  const { secret, fact } = await plant(a);
  await open(b, "canary", token, { redact: true });
  const before = await onServer(token, "canary");
  const planted = before.map((r) => r.plain).join("\n");
  for (const c of CANARIES) assert.ok(planted.includes(c), `the server had ${c} before the forget`);

  const { receipt, synced } = await a.tab.evaluate(async ({ secret, fact }) => {
    const receipt = await mem.forget(secret);
    await mem.forget(fact);
    const synced = await mem.sync(); // pushes the forgets, then compacts
    return { receipt, synced };
  }, { secret, fact });
  assert.equal(receipt.stored, true);
  assert.ok(synced.compacted > 0, `sync() reports the rewritten records: ${JSON.stringify(synced)}`);
  const after = await onServer(token, "canary");
  assertNoCanary(after, "after forget");
  // Ids keep their sequence numbers: the log was rewritten in place, not replaced.
  const seqs = new Map(after.map((r) => [r.id, r.seq]));
  for (const r of before) assert.equal(seqs.get(r.id), r.seq, `record ${r.id} keeps seq ${r.seq}`);
  assert.ok(assertRewrittenBytesGone(before, after) > 0, "the compaction rewrote records");

  // b (which had the canaries) and a new device c agree with a.
  await syncNow(b);
  const c = await device();
  await open(c, "canary", token, { redact: true });
  const left = (await entries(a)).map((e) => e.content);
  assert.deepEqual((await entries(b)).map((e) => e.content), left);
  assert.deepEqual((await entries(c)).map((e) => e.content), left);
  assert.deepEqual(left, ["Noted.", "The budget review is on Friday."]);
  assert.deepEqual(await facts(c), []);
  const exportedOnC = await c.tab.evaluate(() => JSON.stringify(mem.export()));
  for (const value of CANARIES) assert.ok(!exportedOnC.includes(value), `c's export (vault included) holds ${value}`);
  assert.match(exportedOnC, /"kind":"vault"/, "c has the vault");

  // clear() on b: every turn leaves the server; the tombstones stay.
  const cleared = await b.tab.evaluate(async () => { const r = await mem.clear(); await mem.sync(); return r; });
  assert.equal(cleared.removed.turns.length, 2);
  const afterClear = await onServer(token, "canary");
  assertNoCanary(afterClear, "after clear", [...CANARIES, "budget review"]);
  assert.ok(afterClear.some((r) => r.plain.includes("deleteKinds")), "the clear stays as a tombstone");
  await syncNow(c);
  assert.deepEqual(await entries(c), []);
  for (const d of [a, b, c]) {
    assert.deepEqual(d.pageErrors, []);
    assert.deepEqual(await d.tab.evaluate(() => errors), []);
    await d.context.close();
  }
});

test("a forget made while the server is down is compacted once it is back, across a reload", { skip }, async () => {
  const token = "account-down";
  const a = await device();
  await open(a, "down", token, { redact: true });
  const { secret } = await plant(a);
  const before = await onServer(token, "down");
  await sync.kill();
  const offline = await a.tab.evaluate(async (id) => {
    const receipt = await mem.forget(id);
    let code = null;
    try { await mem.sync(); } catch (e) { code = e.code; }
    return { stored: receipt.stored, code };
  }, secret);
  assert.deepEqual(offline, { stored: true, code: "SYNC_FAILED" });
  // The page reloads before the server is back: the forget and the due compaction are stored.
  await a.tab.reload();
  await a.tab.waitForFunction(() => window.ready === true);
  await sync.restart();
  await open(a, "down", token, { redact: true });
  await syncNow(a);
  const after = await onServer(token, "down");
  assertNoCanary(after, "after the server came back", [NAME, EMAIL, PHONE, "QX-58213-CANARY"]);
  assert.ok(assertRewrittenBytesGone(before, after) > 0);
  await a.context.close();
});

test("a forget during a push, and one before the write, reach the server clean", { skip }, async () => {
  const token = "account-racing";
  const a = await device();
  await open(a, "racing", token, { redact: true });
  await a.tab.evaluate(async ({ NAME, BADGE }) => {
    // Forgotten before it was ever written: it never leaves the device.
    const early = mem.add("user", `early note from ${NAME}`);
    await mem.forget(early);
    // Forgotten while the push that carries it is on its way.
    const racing = mem.add("user", `racing note, my ${BADGE}`);
    const pushing = mem.sync();
    const receipt = mem.forget(racing);
    await pushing;
    await receipt;
    mem.add("user", "kept note");
    await mem.sync();
  }, { NAME, BADGE });
  assertNoCanary(await onServer(token, "racing"), "after racing forgets", [NAME, "QX-58213-CANARY"]);
  assert.deepEqual((await entries(a)).map((e) => e.content), ["kept note"]);
  assert.deepEqual(await a.tab.evaluate(() => errors), []);
  await a.context.close();
});

for (const storage of ["indexeddb", "localstorage"]) {
  test(`Memory.delete leaves nothing of the session on the server or in the browser (${storage})`, { skip }, async () => {
    const token = `account-delete-${storage}`;
    const a = await device();
    await open(a, "erase-me", token, { redact: true, storage });
    await plant(a);
    const before = await onServer(token, "erase-me");
    const left = await a.tab.evaluate(async ({ url, token, storage }) => {
      const hadLocal = JSON.stringify(Object.entries(localStorage)).includes("erase-me");
      await lib.Memory.delete("erase-me", { storage, sync: { url, token } });
      // Every object store of every database the page has, and all of localStorage.
      const dumps = [];
      for (const { name } of await indexedDB.databases()) {
        const db = await new Promise((res, rej) => { const r = indexedDB.open(name); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
        for (const store of db.objectStoreNames) {
          dumps.push(await new Promise((res) => { const q = db.transaction(store).objectStore(store).getAll(); q.onsuccess = () => res(q.result); }));
        }
        db.close();
      }
      return { hadLocal, stored: JSON.stringify(dumps), local: JSON.stringify(Object.entries(localStorage)) };
    }, { url: sync.url, token, storage });
    assert.ok(before.length > 0);
    assert.equal(left.hadLocal, storage === "localstorage", "the session was where the test looks");
    for (const c of [...CANARIES, "erase-me"]) {
      assert.ok(!left.stored.includes(c), `IndexedDB still holds ${c}`);
      assert.ok(!left.local.includes(c), `localStorage still holds ${c}`);
    }
    assert.equal(await serverRecords(sync.url, token, "erase-me"), 410);
    const file = databaseBytes(sync.db);
    for (const r of before) {
      assert.equal(file.indexOf(Buffer.from(r.data, "base64")), -1, `record ${r.id} is still in the SQLite file`);
    }
    await a.context.close();
  });
}
