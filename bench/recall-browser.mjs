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
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
await init();
const DIM = 384;
function vectors(n, seed) {
  const r = rng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
  const centers = Array.from({ length: 256 }, () => Float32Array.from({ length: DIM }, gauss));
  const out = new Float32Array(n * DIM);
  for (let i = 0; i < n; i++) {
    const c = centers[Math.floor(r() * 256)];
    let norm = 0;
    for (let d = 0; d < DIM; d++) { const v = c[d] + 0.6 * gauss(); out[i * DIM + d] = v; norm += v * v; }
    norm = Math.sqrt(norm);
    for (let d = 0; d < DIM; d++) out[i * DIM + d] /= norm;
  }
  return out;
}
function brute(data, n, q, k) {
  const top = [], sc = [];
  for (let i = 0; i < n; i++) {
    let s = 0; const o = i * DIM;
    for (let d = 0; d < DIM; d++) s += data[o + d] * q[d];
    if (top.length === k && s <= sc[k - 1]) continue;
    let at = top.length;
    while (at > 0 && sc[at - 1] < s) at--;
    top.splice(at, 0, i); sc.splice(at, 0, s);
    if (top.length > k) { top.pop(); sc.pop(); }
  }
  return top;
}
const q50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const q95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
window.run = async (n, nq) => {
  const data = vectors(n, 7 + n), qv = vectors(nq, 99 + n);
  const rows = [];
  const exact = [], js = [];
  for (let j = 0; j < nq; j++) {
    const t = performance.now();
    exact.push(brute(data, n, qv.subarray(j * DIM, (j + 1) * DIM), 10));
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

const server = await startServer({ "/bench": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page) });
const browser = await launch();
const tab = await browser.newPage();
tab.on("pageerror", (e) => console.error("page error:", e.message));
await tab.goto(server.url + "/bench");
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
