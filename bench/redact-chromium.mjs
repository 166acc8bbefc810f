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
import { corpusTurns, proseTurns } from "./redact-turns.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1]) || 7;
// The same two texts as bench/redact.mjs.
const texts = [
  { label: "chat corpus", turns: corpusTurns(root) },
  { label: "READMEs", turns: proseTurns(root) },
];
const FIVE = "llm-memory Redactor (wasm), @redactpii/node's five types";

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
  const options = name.includes("five types") ? { types: ["PERSON", "EMAIL", "PHONE", "CREDIT_CARD", "US_SSN"] } : {};
  const make = name.startsWith("llm-memory")
    ? () => { const r = new window.lib.Redactor(options); return (t) => r.redact(t).text; }
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

const names = ["llm-memory Redactor (wasm)", FIVE, "@redactpii/node"];
const server = await startServer({ "/bench.html": (req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page) });
const browser = await launch();
const results = texts.map(() => ({}));
let version;
try {
  version = await browser.version();
  const tab = await (await browser.newContext()).newPage();
  await tab.goto(`${server.url}/bench.html`);
  await tab.waitForFunction(() => window.ready === true);
  for (const [i, { label, turns }] of texts.entries()) {
    const bytes = turns.reduce((n, t) => n + Buffer.byteLength(t), 0);
    for (const name of names) {
      results[i][name] = await tab.evaluate(measureInPage, { name, turns, runs: RUNS, bytes });
      console.error(`${label}, ${name}: ${results[i][name].mbps.map((x) => x.toFixed(1)).join(" ")} MB/s`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}

function tableFor(text, result) {
  const bytes = text.turns.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const base = median(result["@redactpii/node"].mbps);
  let table = `| library | MB/s (median, min–max over ${RUNS} runs) | vs @redactpii/node | ms per 2 kB turn (median, p25–p75) | p99 |\n| --- | ---: | ---: | ---: | ---: |\n`;
  for (const name of names) {
    const { mbps, latencies } = result[name];
    const ms = (q) => fmt(quantile(latencies, q), 3);
    table += `| ${name} | ${fmt(median(mbps), 2)} (${spread(mbps, 2)}) | ${(median(mbps) / base).toFixed(2)}× | ${ms(0.5)} (${ms(0.25)}–${ms(0.75)}) | ${ms(0.99)} |\n`;
  }
  return `**${text.label}**: ${text.turns.length} turns (${(bytes / 1e6).toFixed(2)} MB).\n\n${table}`;
}
const tables = texts.map((t, i) => tableFor(t, results[i])).join("\n");
const note = `\nHeadless ${version}, the libraries in one page, one after the other; the same two texts as the Node tables. \`performance.now()\` in Chromium has 0.1 ms resolution, so per-turn latencies are coarse; MB/s is timed over whole runs.\n`;
console.log(tables + note);
if (args.includes("--write")) writeSection(root + "BENCHMARKS.md", "Redaction speed (Chromium)", `Measured by \`node bench/redact-chromium.mjs\` after \`make build\`.\n\n${tables}${note}`);
