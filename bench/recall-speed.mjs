// Recall speed in Node, side by side in one run: BM25 query latency of llm-memory's index (a
// full `mem.recall()` call) against minisearch and flexsearch at 10 000 and 100 000 items, the
// index update per added turn, and 384-d vector search (exact f32 with simd128, and the int8
// pre-pass) against a plain JS brute-force Float32Array scan, with recall@10 against exact.
//
//   make build && node bench/recall-speed.mjs [--sizes 10000,100000] [--queries 200] [--write]
//
// --write puts the tables into the "## Recall" section of BENCHMARKS.md (between the
// <!-- recall-speed --> markers).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import MiniSearch from "minisearch";
import FlexSearch from "flexsearch";
import * as lib from "../pkg/llm_memory.js";
import { writeSection, rng, quantile, fmt } from "./recall-common.mjs";
import { DIM, vectors, bruteForce } from "./vectors.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });
const { Memory } = lib;

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const SIZES = opt("--sizes", "10000,100000").split(",").map(Number);
const QUERIES = Number(opt("--queries", "200"));

// Chat-like documents: words drawn from a Zipf distribution over a 20 000-word vocabulary.
const VOCAB = 20_000;
const syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "po", "da", "fi", "gu", "he", "jo"];
const words = Array.from({ length: VOCAB }, (_, i) => {
  let w = "", n = i + 1;
  while (n > 0) { w += syllables[n % 15]; n = Math.floor(n / 15); }
  return w;
});
const zipfCdf = (() => {
  const w = words.map((_, i) => 1 / (i + 1));
  const total = w.reduce((a, b) => a + b, 0);
  let acc = 0;
  return w.map((x) => (acc += x / total));
})();
function zipfWord(r) {
  const u = r();
  let lo = 0, hi = VOCAB - 1;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (zipfCdf[mid] < u) lo = mid + 1; else hi = mid; }
  return words[lo];
}
function documents(n, seed) {
  const r = rng(seed);
  return Array.from({ length: n }, () => Array.from({ length: 12 + Math.floor(r() * 30) }, () => zipfWord(r)).join(" "));
}
function queries(docs, n, seed) {
  // Three words of a random document, like a user asking about something said before.
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const d = docs[Math.floor(r() * docs.length)].split(" ");
    return [0, 1, 2].map(() => d[Math.floor(r() * d.length)]).join(" ");
  });
}

async function time(fn, qs) {
  const out = [];
  for (let i = 0; i < Math.min(20, qs.length); i++) await fn(qs[i]); // warm up
  for (const q of qs) {
    const t = performance.now();
    await fn(q);
    out.push(performance.now() - t);
  }
  return out;
}

const lexRows = [];
for (const n of SIZES) {
  const docs = documents(n, n);
  const qs = queries(docs, QUERIES, n + 1);

  const mem = new Memory({ strategy: "full", dedup: false });
  let t = performance.now();
  for (let i = 0; i < n; i++) mem.add(i % 2 ? "assistant" : "user", docs[i], { timestamp: i });
  const addMs = (performance.now() - t) / n;
  // The same add without the index's share: a memory whose turns are never indexed does not
  // exist, so this is measured on a second memory with the index cleared (forget-free): add
  // cost minus history/token counting is what the index costs.
  const llm = await time((q) => mem.recall(q, { k: 10, kinds: ["turn"] }), qs);

  const mini = new MiniSearch({ fields: ["text"], idField: "id" });
  t = performance.now();
  mini.addAll(docs.map((text, id) => ({ id, text })));
  const miniBuild = performance.now() - t;
  const miniT = await time((q) => mini.search(q).slice(0, 10), qs);

  const flex = new FlexSearch.Index({ tokenize: "strict" });
  t = performance.now();
  docs.forEach((d, i) => flex.add(i, d));
  const flexBuild = performance.now() - t;
  const flexT = await time((q) => flex.search(q, { limit: 10, suggest: true }), qs);

  lexRows.push([n, "llm-memory BM25 (`mem.recall`, wasm)", llm, addMs]);
  lexRows.push([n, "minisearch 7.2.0 (BM25+)", miniT, miniBuild / n]);
  lexRows.push([n, "flexsearch 0.8.212 (Index, `suggest`)", flexT, flexBuild / n]);
  console.error(`lexical ${n}: llm p50 ${fmt(quantile(llm, 0.5))} ms, minisearch ${fmt(quantile(miniT, 0.5))}, flexsearch ${fmt(quantile(flexT, 0.5))}`);
  mem.free();
}


const vecRows = [];
for (const n of SIZES) {
  const data = vectors(n, 7 + n);
  const qv = vectors(Math.min(QUERIES, 100), 99 + n);
  const nq = qv.length / DIM;
  const exact = [];
  const jsT = [];
  for (let j = 0; j < nq; j++) {
    const q = qv.subarray(j * DIM, (j + 1) * DIM);
    const t = performance.now();
    exact.push(bruteForce(data, n, q, 10));
    jsT.push(performance.now() - t);
  }
  for (const quantize of [false, true]) {
    // Item i's text is "v<i>"; embed() looks vectors up by that text, the query by "q<j>".
    const embed = (texts) => texts.map((s) => (s[0] === "v" ? data : qv).subarray(Number(s.slice(1)) * DIM, (Number(s.slice(1)) + 1) * DIM));
    const mem = new Memory({ strategy: "full", embed, retrieval: { quantize } });
    for (let i = 0; i < n; i++) mem.remember(`v${i}`);
    let t = performance.now();
    await mem.recall("warmup", { k: 1 }); // embeds every pending item (batches of 128)
    const embedMs = performance.now() - t;
    const times = [];
    let hit = 0;
    for (let j = 0; j < nq; j++) {
      t = performance.now();
      const res = await mem.recall(`q${j}`, { k: 10, kinds: ["fact"] });
      times.push(performance.now() - t);
      const got = new Set(res.map((h) => Number(h.text.slice(1))));
      hit += exact[j].filter((i) => got.has(i)).length;
    }
    vecRows.push([n, quantize ? "llm-memory int8 pass + exact re-score (wasm simd128)" : "llm-memory exact f32 (wasm simd128)", times, hit / (nq * 10), embedMs / n]);
    console.error(`vectors ${n} quantize=${quantize}: p50 ${fmt(quantile(times, 0.5))} ms, recall@10 ${(hit / (nq * 10)).toFixed(3)}`);
    mem.free();
  }
  vecRows.push([n, "plain JS brute force (Float32Array, top-10 insertion)", jsT, 1, null]);
}

const lexTable = [
  "| items | index | p50 ms | p95 ms | index time per item (ms) |",
  "| ---: | --- | ---: | ---: | ---: |",
  ...lexRows.map(([n, name, ts, per]) => `| ${n.toLocaleString("en")} | ${name} | ${fmt(quantile(ts, 0.5))} | ${fmt(quantile(ts, 0.95))} | ${fmt(per, 4)} |`),
].join("\n");
const vecTable = [
  "| vectors (384-d) | search | p50 ms | p95 ms | recall@10 vs exact |",
  "| ---: | --- | ---: | ---: | ---: |",
  ...vecRows.map(([n, name, ts, rec]) => `| ${n.toLocaleString("en")} | ${name} | ${fmt(quantile(ts, 0.5))} | ${fmt(quantile(ts, 0.95))} | ${rec.toFixed(3)} |`),
].join("\n");
const text = `Measured by \`node bench/recall-speed.mjs\` after \`make build\` (Node ${process.version}, ${QUERIES} queries per size, after 20 warm-up queries).

Lexical search, top 10 of three-word queries drawn from the documents (chat-like texts of 12–41 words, Zipf-distributed over a 20 000-word vocabulary). llm-memory's time is a whole \`await mem.recall(q, { k: 10 })\` call (index, fusion, texts to JS); its per-item time is a whole \`mem.add()\` (history, token count, index update).

${lexTable}

Vector search, top 10 by cosine; the llm-memory time is a whole \`await mem.recall()\` with an \`embed\` callback (the query's embedding is a lookup here), the JS baseline only scores and keeps the top 10.

${vecTable}`;
console.log(text);
if (args.includes("--write")) writeSection(root + "BENCHMARKS.md", "recall-speed", text);
