// Browser contexts as sync devices (each its own IndexedDB) and a reader of what the real sync
// server holds: its records, fetched and decrypted in Node with the account's key, and the raw
// bytes of its SQLite file. Shared by the sync test files.
import { createDecipheriv } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";

const page = `<!doctype html><meta charset="utf-8"><title>sync device</title>
<script type="module">
import init, * as lib from "/pkg/llm_memory.js";
await init();
window.lib = lib;
window.errors = [];
window.changes = 0;
// The account's key: the same 32 bytes on every device, imported non-extractable.
window.keyFrom = (bytes) => crypto.subtle.importKey("raw", new Uint8Array(bytes), "AES-GCM", false, ["encrypt", "decrypt"]);
window.openSynced = async (session, { url, token, keyBytes, redact = false, storage = "indexeddb" }) => lib.Memory.open({
  session, storage, redact,
  sync: { url, token, key: await keyFrom(keyBytes), intervalMs: 0 },
  onError: (e) => errors.push(e.code), onChange: () => { changes++; },
});
window.rawRecords = async () => {
  const db = await new Promise((res, rej) => { const r = indexedDB.open("llm-memory"); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const all = await new Promise((res) => { const q = db.transaction("records").objectStore("records").getAll(); q.onsuccess = () => res(q.result); });
  db.close();
  return all;
};
window.ready = true;
</script>`;

/** The account's key on every device (raw AES-256 bytes). */
export const KEY = Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 255);

/** The static server's route for the device page. */
export const devicePage = (req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page);

export async function newDevice(browser, webUrl) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const pageErrors = [];
  tab.on("pageerror", (e) => pageErrors.push(e.message));
  await tab.goto(`${webUrl}/device.html`);
  await tab.waitForFunction(() => window.ready === true);
  return { context, tab, pageErrors };
}

/** Opens `session` on a device (as window.mem) and returns its entries. */
export async function openOn(d, session, token, syncUrl, extra = {}) {
  return d.tab.evaluate(async ({ session, url, token, keyBytes, extra }) => {
    window.mem = await openSynced(session, { url, token, keyBytes, ...extra });
    return mem.entries().map((e) => ({ id: e.id, content: e.content }));
  }, { session, url: syncUrl, token, keyBytes: KEY, extra });
}

export const entries = (d) => d.tab.evaluate(() => mem.entries().map((e) => ({ id: e.id, content: e.content })));
export const facts = (d) => d.tab.evaluate(() => mem.facts().map((f) => f.text).sort());
export const syncNow = (d) => d.tab.evaluate(async () => {
  try { return await mem.sync(); } catch (e) { return { code: e.code, message: e.message }; }
});

/** Every record the server holds for the session, `{ id, seq, data }` (data base64), or the
 * HTTP status when there are none to read (404 never pushed, 410 deleted). */
export async function serverRecords(syncUrl, token, session) {
  const out = [];
  for (let after = 0; ;) {
    const res = await fetch(`${syncUrl}/v1/sessions/${encodeURIComponent(session)}/records?after=${after}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) return res.status;
    const page = await res.json();
    out.push(...page.records);
    if (!page.more || page.records.length === 0) return out;
    after = page.records.at(-1).seq;
  }
}

/** A server record's plaintext, as the protocol encrypts it: base64(0x01 ‖ IV ‖ ciphertext ‖
 * tag), AES-256-GCM, associated data `${session}\n${id}`. */
export function decryptRecord(session, record, key = KEY) {
  const bytes = Buffer.from(record.data, "base64");
  if (bytes[0] !== 1) throw new Error(`record ${record.id}: unknown format ${bytes[0]}`);
  const iv = bytes.subarray(1, 13);
  const tag = bytes.subarray(bytes.length - 16);
  const decipher = createDecipheriv("aes-256-gcm", Buffer.from(key), iv);
  decipher.setAAD(Buffer.from(`${session}\n${record.id}`, "utf8"));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(bytes.subarray(13, bytes.length - 16)), decipher.final()]).toString("utf8");
}

/** The SQLite database file and its write-ahead log, as bytes. */
export function databaseBytes(db) {
  const parts = [db, `${db}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f));
  return Buffer.concat(parts);
}
