// Encryption at rest in a headless browser, without sync: with `encrypt: { key }`, IndexedDB and
// localStorage hold no planted text and no PII value (the redaction vault included); a wrong
// key rejects with WRONG_KEY and leaves every stored byte as it was.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHarness } from "./harness.mjs";

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const PLANTED = ["PLANTED-glacier-4417", "jordan.planted@example.org", "Lisbon-PLANTED-avenue"];

for (const storage of ["indexeddb", "localstorage"]) {
  test(`${storage}: records at rest hold no planted text; a wrong key changes nothing`, async () => {
    const tab = await h.open();
    const out = await tab.evaluate(async ({ storage, planted }) => {
      const keyOf = (seed) => crypto.subtle.importKey("raw", new Uint8Array(32).map((_, i) => (i * seed + 1) & 255),
        "AES-GCM", false, ["encrypt", "decrypt"]);
      const raw = async () => {
        if (storage === "localstorage") {
          return Object.keys(localStorage).filter((k) => k.startsWith("llm-memory/rest/r/")).sort().map((k) => localStorage.getItem(k));
        }
        const db = await new Promise((res, rej) => { const r = indexedDB.open("llm-memory"); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
        const all = await new Promise((res) => {
          const q = db.transaction("records").objectStore("records").getAll(IDBKeyRange.bound(["rest"], ["rest", []]));
          q.onsuccess = () => res(q.result);
        });
        db.close();
        return all;
      };
      const key = await keyOf(29);
      const mem = await lib.Memory.open({ session: "rest", storage, redact: true, encrypt: { key } });
      mem.add("user", `Meet me at ${planted[2]}, near ${planted[0]}; mail ${planted[1]}`);
      mem.remember(`The user likes ${planted[0]}`);
      await mem.context(); // the vault gets the e-mail address
      await mem.flush();
      const before = await raw();
      const codes = [];
      for (const encrypt of [{ key: await keyOf(41) }, undefined]) {
        try { await lib.Memory.open({ session: "rest", storage, encrypt }); codes.push("opened"); } catch (e) { codes.push(e.code); }
      }
      const after = await raw();
      const again = await lib.Memory.open({ session: "rest", storage, encrypt: { key } });
      return { before, after, codes, entries: again.entries().map((e) => e.content), facts: again.facts().map((f) => f.text) };
    }, { storage, planted: PLANTED });
    const atRest = JSON.stringify(out.before);
    assert.ok(out.before.length >= 3, `records stored: ${out.before.length}`);
    assert.ok(out.before.some((r) => r.includes('"kind":"vault"')), "the redaction vault is stored");
    for (const text of PLANTED) assert.ok(!atRest.includes(text), `${storage} holds ${text} in clear`);
    assert.deepEqual(out.codes, ["WRONG_KEY", "WRONG_KEY"]);
    assert.deepEqual(out.after, out.before, "a wrong key changes no stored byte");
    assert.equal(out.entries.length, 1);
    assert.ok(out.entries[0].includes(PLANTED[0]));
    assert.deepEqual(out.facts, [`The user likes ${PLANTED[0]}`]);
    assert.deepEqual(tab.errors, []);
    await tab.close();
  });
}
