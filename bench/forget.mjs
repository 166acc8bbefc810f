// The cost of forgetting in headless Chromium: a 10 000-turn IndexedDB session with redaction on
// (every tenth turn names a person and an e-mail address), then `forget` of single turns (the
// erasure itself, and until the receipt says IndexedDB has it) and one `clear()`. Then the same
// session synced to the real sync server (SQLite): `forget` and the `sync()` that pushes it and
// compacts the server's copy. Writes the "## Forgetting (Chromium)" section of BENCHMARKS.md
// with --write.
import { measureInChromium, writeSection, fmt, median, spread, machineLine } from "./stats.mjs";
import { startSyncServer } from "../tests/browser/sync-server.mjs";

const N = 10_000;
const FORGETS = 21;
const SYNCED_FORGETS = 7;

const page = `<!doctype html><script type="module">
import init, * as lib from "/pkg/llm_memory.js";
await init();
window.lib = lib; window.ready = true;
</script>`;

async function measure({ n, forgets }) {
  const mem = await lib.Memory.open({ session: `forget-bench-${n}`, storage: "indexeddb", redact: true, strategy: "tokens", maxTokens: 4000 });
  const ids = [];
  for (let i = 0; i < n; i++) {
    const pii = i % 10 === 0 ? ` Write to Person${i} Example at person${i}@example.org.` : "";
    ids.push(mem.add(i % 2 ? "assistant" : "user", `turn ${i}: the quick brown fox jumps over the lazy dog.${pii}`));
  }
  await mem.context();
  await mem.flush();
  const erase = [];
  const stored = [];
  let vaultValues = 0;
  for (let k = 0; k < forgets; k++) {
    const id = ids[(k * 470) % n]; // every tenth turn holds values
    const t0 = performance.now();
    const receipt = mem.forget(id);
    const t1 = performance.now();
    const r = await receipt;
    stored.push(performance.now() - t0);
    erase.push(t1 - t0);
    vaultValues += r.removed.vaultValues.length;
  }
  const t0 = performance.now();
  const cleared = mem.clear();
  const t1 = performance.now();
  const c = await cleared;
  const clearStored = performance.now() - t0;
  mem.close();
  await lib.Memory.delete(`forget-bench-${n}`);
  return { erase, stored, vaultValues, clear: t1 - t0, clearStored, clearedTurns: c.removed.turns.length };
}

/** forget + the sync that pushes it and compacts the server's log, on a synced session. */
async function measureSynced({ n, forgets, url }) {
  const key = await crypto.subtle.importKey("raw", new Uint8Array(32).fill(7), "AES-GCM", false, ["encrypt", "decrypt"]);
  const session = `forget-sync-bench-${n}`;
  const mem = await lib.Memory.open({ session, storage: "indexeddb", redact: true, sync: { url, token: "bench", key, intervalMs: 0 } });
  const ids = [];
  for (let i = 0; i < n; i++) {
    const pii = i % 10 === 0 ? ` Write to Person${i} Example at person${i}@example.org.` : "";
    ids.push(mem.add(i % 2 ? "assistant" : "user", `turn ${i}: the quick brown fox jumps over the lazy dog.${pii}`));
  }
  await mem.context();
  await mem.flush();
  const first = await mem.sync();
  const total = [];
  let compacted = 0;
  for (let k = 0; k < forgets; k++) {
    const t0 = performance.now();
    await mem.forget(ids[(k * 470) % n]);
    compacted += (await mem.sync()).compacted;
    total.push(performance.now() - t0);
  }
  mem.close();
  return { total, compacted, records: first.pushed };
}

const { rows: r, version } = await measureInChromium(page, measure, { n: N, forgets: FORGETS });
const sync = await startSyncServer();
let s;
try {
  ({ rows: s } = await measureInChromium(page, measureSynced, { n: N, forgets: SYNCED_FORGETS, url: sync.url }));
} finally {
  await sync.close();
}
const table =
  `Measured by \`node bench/forget.mjs --write\` after \`make build\` (part of \`make bench\`), in headless Chromium ${version}: an IndexedDB session of ${fmt(N, 0)} turns with \`redact: true\` (every tenth turn names a person and an e-mail address), then ${FORGETS} \`forget(id)\` of such turns and one \`clear()\`. "Erasure" is the call itself (index, vectors, summaries, the vault scanned against every kept record); "stored" is until the receipt resolves, IndexedDB written. The synced row is the same session on the real sync server (SQLite, loopback): ${SYNCED_FORGETS} times \`await forget(id)\` then \`await sync()\`, which pushes the forget, reads the server's log back, and has it rewrite the records that held the turn (compaction). ${machineLine()}.\n\n` +
  `| operation at ${fmt(N, 0)} turns | erasure p50 (ms) | erasure spread | until stored p50 (ms) | vault values removed |\n| --- | ---: | ---: | ---: | ---: |\n` +
  `| \`forget(id)\` | ${fmt(median(r.erase))} | ${spread(r.erase)} | ${fmt(median(r.stored))} | ${fmt(r.vaultValues / FORGETS, 1)} per call |\n` +
  `| \`clear()\` (${fmt(r.clearedTurns, 0)} turns) | ${fmt(r.clear)} | – | ${fmt(r.clearStored)} | all |\n\n` +
  `| with sync at ${fmt(N, 0)} turns (${fmt(s.records, 0)} records on the server) | p50 (ms) | spread | records rewritten |\n| --- | ---: | ---: | ---: |\n` +
  `| \`forget(id)\` + \`sync()\` with compaction | ${fmt(median(s.total))} | ${spread(s.total)} | ${fmt(s.compacted / SYNCED_FORGETS, 1)} per call |\n`;
console.log(table);
if (process.argv.includes("--write")) writeSection(new URL("../BENCHMARKS.md", import.meta.url).pathname, "Forgetting (Chromium)", table);
