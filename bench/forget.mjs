// The cost of forgetting in headless Chromium: a 10 000-turn IndexedDB session with redaction on
// (every tenth turn names a person and an e-mail address), then `forget` of single turns (the
// erasure itself, and until the receipt says IndexedDB has it) and one `clear()`.
// Writes the "## Forgetting (Chromium)" section of BENCHMARKS.md with --write.
import { measureInChromium, writeSection, fmt, median, spread, machineLine } from "./stats.mjs";

const N = 10_000;
const FORGETS = 21;

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

const { rows: r, version } = await measureInChromium(page, measure, { n: N, forgets: FORGETS });
const table =
  `Measured by \`node bench/forget.mjs --write\` after \`make build\` (part of \`make bench\`), in headless Chromium ${version}: an IndexedDB session of ${fmt(N, 0)} turns with \`redact: true\` (every tenth turn names a person and an e-mail address), then ${FORGETS} \`forget(id)\` of such turns and one \`clear()\`. "Erasure" is the call itself (index, vectors, summaries, the vault scanned against every kept record); "stored" is until the receipt resolves, IndexedDB written. ${machineLine()}.\n\n` +
  `| operation at ${fmt(N, 0)} turns | erasure p50 (ms) | erasure spread | until stored p50 (ms) | vault values removed |\n| --- | ---: | ---: | ---: | ---: |\n` +
  `| \`forget(id)\` | ${fmt(median(r.erase))} | ${spread(r.erase)} | ${fmt(median(r.stored))} | ${fmt(r.vaultValues / FORGETS, 1)} per call |\n` +
  `| \`clear()\` (${fmt(r.clearedTurns, 0)} turns) | ${fmt(r.clear)} | – | ${fmt(r.clearStored)} | all |\n`;
console.log(table);
if (process.argv.includes("--write")) writeSection(new URL("../BENCHMARKS.md", import.meta.url).pathname, "Forgetting (Chromium)", table);
