// Vector search in headless Chromium (where the goal is set): 384-d, 10 000 and
// 100 000 items, llm-memory's exact f32 and int8 searches (a whole `await mem.recall()`)
// against a plain JS brute-force scan in the same page, recall@10 against exact.
//
//   make build && node bench/recall-browser.mjs [--write]
import { launch } from "../tests/browser/chromium.mjs";
import { startServer } from "../tests/browser/static-server.mjs";
import { fileURLToPath } from "node:url";
import { writeSection, fmt } from "./recall-common.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const page = `<!doctype html><script type="module">
import init, { Memory } from "/pkg/llm_memory.js";
import { DIM, vectors, bruteForce } from "/bench/vectors.mjs";
await init();
const q50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const q95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
window.run = async (n, nq) => {
  const data = vectors(n, 7 + n), qv = vectors(nq, 99 + n);
  const rows = [];
  const exact = [], js = [];
  for (let j = 0; j < nq; j++) {
    const t = performance.now();
    exact.push(bruteForce(data, n, qv.subarray(j * DIM, (j + 1) * DIM), 10));
    js.push(performance.now() - t);
  }
  for (const quantize of [false, true]) {
    const embed = (texts) => texts.map((s) => (s[0] === "v" ? data : qv).subarray(Number(s.slice(1)) * DIM, (Number(s.slice(1)) + 1) * DIM));
    const mem = new Memory({ strategy: "full", embed, retrieval: { quantize } });
    for (let i = 0; i < n; i++) mem.remember("v" + i);
    await mem.recall("warmup", { k: 1 });
    const ts = []; let hit = 0;
    for (let j = 0; j < nq; j++) {
      const t = performance.now();
      const res = await mem.recall("q" + j, { k: 10, kinds: ["fact"] });
      ts.push(performance.now() - t);
      const got = new Set(res.map((h) => Number(h.text.slice(1))));
      hit += exact[j].filter((i) => got.has(i)).length;
    }
    rows.push([quantize ? "llm-memory int8 pass + exact re-score (wasm simd128)" : "llm-memory exact f32 (wasm simd128)", q50(ts), q95(ts), hit / (nq * 10)]);
    mem.free();
  }
  rows.push(["plain JS brute force (Float32Array, top-10 insertion)", q50(js), q95(js), 1]);
  return rows;
};
window.ready = true;
</script>`;

const server = await startServer({ "/bench.html": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page) });
const browser = await launch();
const tab = await browser.newPage();
tab.on("pageerror", (e) => console.error("page error:", e.message));
await tab.goto(server.url + "/bench.html");
await tab.waitForFunction(() => window.ready === true, null, { timeout: 60_000 });
const version = browser.version();
const lines = ["| vectors (384-d) | search | p50 ms | p95 ms | recall@10 vs exact |", "| ---: | --- | ---: | ---: | ---: |"];
for (const n of [10_000, 100_000]) {
  const rows = await tab.evaluate(([n]) => window.run(n, 100), [n]);
  for (const [name, p50, p95, rec] of rows) lines.push(`| ${n.toLocaleString("en")} | ${name} | ${fmt(p50)} | ${fmt(p95)} | ${rec.toFixed(3)} |`);
  console.error(`chromium ${n} done`);
}
await browser.close();
await server.close();
const text = `Measured by \`node bench/recall-browser.mjs\` after \`make build\` (headless Chromium ${version}, 100 queries per size; same data and timing as the Node table).

${lines.join("\n")}`;
console.log(text);
if (process.argv.includes("--write")) writeSection(root + "BENCHMARKS.md", "recall-browser", text);
