// Forget means forgotten, in a real browser (Chromium; Firefox under make test-firefox): canary
// values planted in turns are in no IndexedDB store and no localStorage key after forget and
// clear, except where the receipt says a kept record holds them; after a reload too, and a
// second tab of the session neither keeps them nor writes them back.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHarness } from "./harness.mjs";

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const NAME = "Marisol Quintanilla-Obregon";
const EMAIL = "marisol.qo@example-mail.net";
const PHONE = "+1 415 555 0199";
const KEPT = "Bartholomew Ferreira";
const CANARIES = [NAME, EMAIL, PHONE];

/** Every byte the page's origin stores: all IndexedDB databases and stores, all localStorage. */
const dumpStorage = (tab) => tab.evaluate(async () => {
  const req = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
  const out = [];
  for (const { name } of await indexedDB.databases()) {
    const db = await req(indexedDB.open(name));
    for (const store of db.objectStoreNames) {
      out.push(JSON.stringify(await req(db.transaction(store).objectStore(store).getAll())));
    }
    db.close();
  }
  for (let i = 0; i < localStorage.length; i++) out.push(localStorage.getItem(localStorage.key(i)));
  return out.join("\n");
});

const assertGone = (text, what) => {
  for (const canary of CANARIES) assert.ok(!text.includes(canary), `${what}: ${canary} is still stored`);
};

for (const storage of ["indexeddb", "localstorage"]) {
  test(`${storage}: forget and clear leave no canary in storage, also after a reload`, async () => {
    const tab = await h.open();
    const session = `forget-${storage}`;
    const receipt = await tab.evaluate(async ({ storage, session, NAME, EMAIL, PHONE, KEPT }) => {
      const mem = await lib.Memory.open({ session, storage, redact: true, strategy: "tokens", maxTokens: 2000 });
      window.id = mem.add("user", `Hi, I'm ${NAME}, write to ${EMAIL} or call ${PHONE} please.`);
      mem.add("assistant", "Noted.");
      mem.add("user", `My name is ${KEPT} and I review the budget.`);
      await mem.context();
      await mem.flush();
      window.mem = mem;
      return null;
    }, { storage, session, NAME, EMAIL, PHONE, KEPT });
    assert.equal(receipt, null);
    assert.ok((await dumpStorage(tab)).includes(EMAIL), "planted values are stored before the forget");

    const forgotten = await tab.evaluate(() => mem.forget(id));
    assert.equal(forgotten.stored, true);
    assert.deepEqual(forgotten.removed.turns, [await tab.evaluate(() => id)]);
    assert.ok(forgotten.removed.vaultValues.length >= 3, JSON.stringify(forgotten));
    const afterForget = await dumpStorage(tab);
    assertGone(afterForget, "after forget");
    assert.ok(afterForget.includes(KEPT), "the kept turn stays");

    await tab.reload();
    await tab.waitForFunction(() => window.ready === true);
    const reopened = await tab.evaluate(async ({ storage, session }) => {
      const mem = await lib.Memory.open({ session, storage, redact: true });
      window.mem = mem;
      return { turns: mem.entries().length, exported: JSON.stringify(mem.export()) };
    }, { storage, session });
    assert.equal(reopened.turns, 2);
    assertGone(reopened.exported, "export after a reload");

    const cleared = await tab.evaluate(() => mem.clear());
    assert.equal(cleared.stored, true);
    assert.equal(cleared.removed.turns.length, 2);
    const afterClear = await dumpStorage(tab);
    assertGone(afterClear, "after clear");
    assert.ok(!afterClear.includes(KEPT), "nothing kept holds the other value either");
    await tab.evaluate(async ({ storage, session }) => { mem.close(); await lib.Memory.delete(session, storage); }, { storage, session });
    await tab.close();
  });
}

test("a second tab of the session drops the forgotten values and does not store them back", async () => {
  const a = await h.open();
  const b = await h.open();
  const session = "forget-tabs";
  const open = ({ session }) => lib.Memory.open({ session, storage: "indexeddb", redact: true, strategy: "tokens", maxTokens: 2000 })
    .then((mem) => { window.mem = mem; });
  await a.evaluate(open, { session });
  const id = await a.evaluate(async ({ NAME, EMAIL, KEPT }) => {
    const id = mem.add("user", `Hi, I'm ${NAME}, write to ${EMAIL}.`);
    mem.add("user", `My name is ${KEPT}.`);
    await mem.context();
    await mem.flush();
    return id;
  }, { NAME, EMAIL, KEPT });
  await b.evaluate(open, { session });
  await b.evaluate(() => mem.context());
  assert.equal(await b.evaluate(() => mem.length), 2);

  await a.evaluate((id) => mem.forget(id), id);
  await b.waitForFunction(() => mem.length === 1, null, { timeout: 10_000 });
  // Tab B writes on: its vault is stored again, without the forgotten values.
  await b.evaluate(async () => { mem.add("user", "one more turn from tab B"); await mem.context(); await mem.flush(); });
  const stored = await dumpStorage(b);
  assertGone(stored, "after tab B wrote");
  assert.ok(stored.includes(KEPT));
  await a.evaluate(async (session) => { mem.close(); }, session);
  await b.evaluate(async (session) => { mem.close(); await lib.Memory.delete(session); }, session);
  await a.close();
  await b.close();
});
