// Redaction speed in headless Chromium: llm-memory's Redactor (wasm) against @redactpii/node
// (plain ES module, no Node APIs) in the same page, on the same 2 kB turns as
// bench/redact.mjs. redact-pii is CommonJS with Node dependencies and is measured in Node only.
// Writes the "## Redaction speed (Chromium)" section of BENCHMARKS.md with --write.
//
//   make build && node bench/redact-chromium.mjs [--runs 7] [--write]
import { fileURLToPath } from "node:url";
import { startServer } from "../tests/browser/static-server.mjs";
import { launch } from "../tests/browser/chromium.mjs";
import { writeSection, fmt, median, spread, quantile } from "./stats.mjs";
import { corpusTurns } from "./redact-turns.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1]) || 7;
const turns = corpusTurns(root);
const totalBytes = turns.reduce((n, t) => n + Buffer.byteLength(t), 0);

const page = `<!doctype html><script type="importmap">{"imports":{"@redactpii/node":"/node_modules/@redactpii/node/lib/index.mjs"}}</script>
<script type="module">
import init, * as lib from "/pkg/llm_memory.js";
import { Redactor } from "@redactpii/node";
await init();
window.lib = lib; window.Peer = Redactor; window.ready = true;
</script>`;

// Runs in the page: every turn `runs` times with a fresh instance per run; MB/s per run and
// the latency of each turn (ms).
function measureInPage({ name, turns, runs, bytes }) {
  const make =
    name === "llm-memory Redactor (wasm)"
      ? () => { const r = new window.lib.Redactor(); return (t) => r.redact(t).text; }
      : () => { const r = new window.Peer(); return (t) => r.redact(t); };
  const warm = make();
  for (const t of turns.slice(0, 50)) warm(t);
  const mbps = [];
  const latencies = [];
  for (let run = 0; run < runs; run++) {
    const redact = make();
    const start = performance.now();
    for (const t of turns) {
      const t0 = performance.now();
      redact(t);
      latencies.push(performance.now() - t0);
    }
    mbps.push(bytes / 1e3 / (performance.now() - start));
  }
  return { mbps, latencies };
}

const names = ["llm-memory Redactor (wasm)", "@redactpii/node"];
const server = await startServer({ "/bench.html": (req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page) });
const browser = await launch();
const results = {};
let version;
try {
  version = await browser.version();
  const tab = await (await browser.newContext()).newPage();
  await tab.goto(`${server.url}/bench.html`);
  await tab.waitForFunction(() => window.ready === true);
  for (const name of names) {
    results[name] = await tab.evaluate(measureInPage, { name, turns, runs: RUNS, bytes: totalBytes });
    console.error(`${name}: ${results[name].mbps.map((x) => x.toFixed(1)).join(" ")} MB/s`);
  }
} finally {
  await browser.close();
  await server.close();
}

const base = median(results["@redactpii/node"].mbps);
let table = `| library | MB/s (median, min–max over ${RUNS} runs) | vs @redactpii/node | ms per 2 kB turn (median, p25–p75) | p99 |\n| --- | ---: | ---: | ---: | ---: |\n`;
for (const name of names) {
  const { mbps, latencies } = results[name];
  const ms = (q) => fmt(quantile(latencies, q), 3);
  table += `| ${name} | ${fmt(median(mbps), 2)} (${spread(mbps, 2)}) | ${(median(mbps) / base).toFixed(2)}× | ${ms(0.5)} (${ms(0.25)}–${ms(0.75)}) | ${ms(0.99)} |\n`;
}
const note = `\nHeadless ${version}, both libraries in one page, one after the other; ${turns.length} turns of 2048 characters (${(totalBytes / 1e6).toFixed(2)} MB), the same text as the Node table. \`performance.now()\` in Chromium has 0.1 ms resolution, so per-turn latencies are coarse; MB/s is timed over whole runs.\n`;
console.log(table + note);
if (args.includes("--write")) writeSection(root + "BENCHMARKS.md", "Redaction speed (Chromium)", `Measured by \`node bench/redact-chromium.mjs\` after \`make build\`.\n\n${table}${note}`);
