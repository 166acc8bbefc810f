// Persistence in headless Chromium, side by side in one page: per-turn append cost and reopen
// time for 1 000 and 10 000 turns, llm-memory (IndexedDB and localStorage) against a plain
// `localStorage.setItem(key, JSON.stringify(history))` and Dexie doing the same writes.
// Writes the "## Persistence (Chromium)" section of BENCHMARKS.md.
import { startServer } from "../tests/browser/static-server.mjs";
import { launch } from "../tests/browser/chromium.mjs";
import { writeSection, fmt } from "./stats.mjs";
import { readFileSync } from "node:fs";

const page = `<!doctype html><script type="importmap">{"imports":{"dexie":"/node_modules/dexie/dist/dexie.mjs"}}</script>
<script type="module">
import init, * as lib from "/pkg/llm_memory.js";
import Dexie from "dexie";
await init();
window.lib = lib; window.Dexie = Dexie; window.ready = true;
</script>`;

// Runs in the page: one engine, one size; returns per-turn times (ms) and the reopen time.
async function runInPage({ engine, n, run }) {
  const text = (i) => `turn ${i}: ${"the quick brown fox jumps over the lazy dog ".repeat(4)}`;
  const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
  const session = `${engine}-${n}-${run}`;
  const append = [];
  const sync = [];
  let reopen;
  if (engine === "llm-memory idb" || engine === "llm-memory localStorage") {
    const storage = engine.endsWith("idb") ? "indexeddb" : "localstorage";
    if (storage === "localstorage") localStorage.clear();
    const mem = await lib.Memory.open({ session, storage });
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      mem.add(i % 2 ? "assistant" : "user", text(i));
      const t1 = performance.now();
      await mem.flush(); // durable before the next turn, as a chat does between turns
      append.push(performance.now() - t0);
      sync.push(t1 - t0);
    }
    mem.close();
    mem.free();
    const t0 = performance.now();
    const again = await lib.Memory.open({ session, storage });
    reopen = performance.now() - t0;
    if (again.length !== n) throw new Error(`reopened ${again.length} of ${n}`);
    again.close();
    again.free();
    await lib.Memory.delete(session, storage);
  } else if (engine === "localStorage JSON") {
    localStorage.clear();
    // Rewriting the whole history per turn is quadratic: 10 000 full rewrites crash the tab.
    // So the history is prefilled to n - 200 turns and the last 200 appends are measured,
    // which is what a user at that length pays per turn.
    const measured = Math.min(n, 200);
    const history = [];
    for (let i = 0; i < n - measured; i++) history.push({ role: i % 2 ? "assistant" : "user", content: text(i), timestamp: Date.now() });
    for (let i = n - measured; i < n; i++) {
      const t0 = performance.now();
      history.push({ role: i % 2 ? "assistant" : "user", content: text(i), timestamp: Date.now() });
      localStorage.setItem(session, JSON.stringify(history));
      append.push(performance.now() - t0);
      sync.push(performance.now() - t0);
    }
    const t0 = performance.now();
    const back = JSON.parse(localStorage.getItem(session));
    reopen = performance.now() - t0;
    if (back.length !== n) throw new Error("lost turns");
    localStorage.removeItem(session);
  } else {
    const db = new Dexie(session);
    db.version(1).stores({ turns: "++id, session" });
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const p = db.turns.add({ session, role: i % 2 ? "assistant" : "user", content: text(i), timestamp: Date.now() });
      const t1 = performance.now();
      await p;
      append.push(performance.now() - t0);
      sync.push(t1 - t0);
    }
    db.close();
    const t0 = performance.now();
    const db2 = new Dexie(session);
    db2.version(1).stores({ turns: "++id, session" });
    const back = await db2.turns.where("session").equals(session).toArray();
    reopen = performance.now() - t0;
    if (back.length !== n) throw new Error("lost turns");
    db2.close();
    await Dexie.delete(session);
  }
  return { p50: q(append, 0.5), p95: q(append, 0.95), sync50: q(sync, 0.5), sync95: q(sync, 0.95), reopen };
}

const engines = ["llm-memory idb", "llm-memory localStorage", "localStorage JSON", "Dexie (IndexedDB)"];
const sizes = [1000, 10000];
const runs = Number(process.env.RUNS ?? 3);

const server = await startServer({ "/bench.html": (req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page) });
const browser = await launch();
const results = {};
try {
  const version = await browser.version();
  const context = await browser.newContext();
  for (const n of sizes) {
    for (const engine of engines) {
      const rs = [];
      for (let run = 0; run < runs; run++) {
        // A fresh page per measurement, so no engine pays for another's heap.
        const tab = await context.newPage();
        await tab.goto(`${server.url}/bench.html`);
        await tab.waitForFunction(() => window.ready === true);
        rs.push(await tab.evaluate(runInPage, { engine, n, run }));
        await tab.close();
        console.error(`${engine} n=${n} run ${run}: ${JSON.stringify(rs.at(-1))}`);
      }
      results[`${engine}|${n}`] = rs;
    }
  }
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
  const rows = [];
  for (const n of sizes) {
    const base = med(results[`localStorage JSON|${n}`].map((r) => r.reopen));
    for (const engine of engines) {
      const rs = results[`${engine}|${n}`];
      const pick = (k) => rs.map((r) => r[k]);
      const m = (k) => fmt(med(pick(k)), 3);
      const range = (k) => `${fmt(Math.min(...pick(k)), 3)}–${fmt(Math.max(...pick(k)), 3)}`;
      rows.push(`| ${n.toLocaleString("en-US")} | ${engine} | ${m("sync50")} | ${m("sync95")} | ${m("p50")} (${range("p50")}) | ${m("p95")} | ${fmt(med(pick("reopen")), 1)} (${range("reopen")}) |`);
    }
  }
  const pkgVersions = JSON.parse(readFileSync("package-lock.json", "utf8")).packages;
  const body = `Measured by \`node bench/persistence.mjs\` after \`make build\` (part of \`make bench\`). Headless ${version} on this machine (2 cores), engines run one after another,
each run in a fresh page of one browser context, ${runs} runs each; medians with the min–max of the runs. Each turn is about
190 characters. "Call" is the main-thread time of the append call itself (llm-memory's
\`add()\` is synchronous and queues the write; Dexie's \`add()\` returns a promise); "durable" adds
the wait until the turn is committed (\`await mem.flush()\`, \`await db.turns.add()\`), which is
what a chat waits for between turns. Reopen is the time to get every turn back in order.
Dexie ${pkgVersions["node_modules/dexie"].version}. The plain-JSON baseline measures the last 200 appends of each
size (the whole history is rewritten per turn, so 10 000 real rewrites would crash the tab).
\`performance.now()\` in Chromium has 0.1 ms resolution, so sub-0.1 ms calls read as 0 or 0.1.

| turns | engine | call p50 (ms) | call p95 (ms) | durable p50 (ms) | durable p95 (ms) | reopen (ms) |
| ---: | --- | ---: | ---: | ---: | ---: | ---: |
${rows.join("\n")}

Goals from the persistence issue: reopen of 10 000 turns under 200 ms; append p50 under 1 ms of
main-thread time. The plain-JSON baseline rewrites the whole history on every turn, so its
append cost grows with the history (and it stops at localStorage's ~5 MB); llm-memory writes one
record per turn.`;
  writeSection("BENCHMARKS.md", "Persistence (Chromium)", body);
  console.log(body);
} finally {
  await browser.close();
  await server.close();
}
