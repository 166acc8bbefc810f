// Redaction speed in Node: llm-memory's Redactor (wasm) against @redactpii/node and redact-pii
// on the same text — the labeled corpus cut into 2 kB chat turns. Prints a markdown table of
// throughput (MB/s) and per-turn latency, each as a median with its spread over runs/turns.
//
//   make build && node bench/redact.mjs [--runs 7] [--pkg DIR] [--write]
//
// --write puts the table into the "## Redaction speed (Node)" section of BENCHMARKS.md.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { corpusTurns, proseTurns, TURN } from "./redact-turns.mjs";
import { writeSection, median, quantile, spread, fmt } from "./stats.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
// --pkg DIR measures another wasm-bindgen build (same layout as pkg/), e.g. a private copy.
const pkg = args.includes("--pkg") ? args[args.indexOf("--pkg") + 1].replace(/\/?$/, "/") : root + "pkg/";
const lib = await import(pathToFileURL(pkg + "llm_memory.js").href);
lib.initSync({ module: readFileSync(pkg + "llm_memory_bg.wasm") });
const require = createRequire(import.meta.url);
const { Redactor: RedactPiiNode } = await import("@redactpii/node");
const { SyncRedactor } = require("redact-pii");

// What @redactpii/node detects by default: names, e-mail, phones, cards, SSNs.
const PEER_TYPES = ["PERSON", "EMAIL", "PHONE", "CREDIT_CARD", "US_SSN"];

const RUNS = Number(args[args.indexOf("--runs") + 1]) || 7;

// The same text for everyone, two kinds of it: the corpus messages packed into ~2 kB turns
// (dense personal data) and the installed packages' READMEs (prose, little personal data).
const texts = [
  { label: "chat corpus", turns: corpusTurns(root), source: "cut from tests/data/redact_corpus.jsonl" },
  { label: "READMEs", turns: proseTurns(root), source: "of the installed npm packages' README.md files" },
];
let turns;
let totalBytes;

function measure(name, make) {
  const redact = make();
  for (const t of turns.slice(0, 50)) redact(t); // warm-up (JIT, regex caches)
  const mbps = [];
  const latencies = [];
  for (let r = 0; r < RUNS; r++) {
    const fresh = make(); // a fresh instance per run, as a new session would have
    const start = process.hrtime.bigint();
    for (const t of turns) {
      const t0 = process.hrtime.bigint();
      fresh(t);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const secs = Number(process.hrtime.bigint() - start) / 1e9;
    mbps.push(totalBytes / 1e6 / secs);
  }
  return { name, mbps, latencies };
}

function tableFor(text) {
  turns = text.turns;
  totalBytes = turns.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const results = [
    measure("llm-memory Redactor (wasm)", () => {
      const r = new lib.Redactor();
      return (t) => r.redact(t).text;
    }),
    // The same types as @redactpii/node, for a like-for-like figure (still with validation).
    measure("llm-memory Redactor (wasm), @redactpii/node's five types", () => {
      const r = new lib.Redactor({ types: PEER_TYPES });
      return (t) => r.redact(t).text;
    }),
    measure("@redactpii/node", () => {
      const r = new RedactPiiNode();
      return (t) => r.redact(t);
    }),
    measure("redact-pii (SyncRedactor)", () => {
      const r = new SyncRedactor();
      return (t) => r.redact(t);
    }),
  ];
  const base = median(results.find((r) => r.name === "@redactpii/node").mbps);
  let table = `| library | MB/s (median, min–max over ${RUNS} runs) | vs @redactpii/node | ms per 2 kB turn (median, p25–p75) | p99 |\n| --- | ---: | ---: | ---: | ---: |\n`;
  for (const r of results) {
    const med = median(r.mbps);
    const ms = (q) => fmt(quantile(r.latencies, q), 3);
    table += `| ${r.name} | ${fmt(med, 2)} (${spread(r.mbps, 2)}) | ${(med / base).toFixed(2)}× | ${ms(0.5)} (${ms(0.25)}–${ms(0.75)}) | ${ms(0.99)} |\n`;
  }
  return `**${text.label}**: ${turns.length} turns of ${TURN} characters (${(totalBytes / 1e6).toFixed(2)} MB) ${text.source}.\n\n${table}`;
}

const tables = texts.map(tableFor).join("\n");
const note = `\nNode ${process.version}; ${RUNS} runs. The libraries do not detect the same types: @redactpii/node covers names, e-mail, US phones, cards and SSNs without checksums; redact-pii adds a few more; llm-memory runs every recognizer listed in "Redaction accuracy", with validation (the second row: only the peer's five types, still with Luhn, SSN rules and name cues).\n`;
console.log(tables + note);
if (args.includes("--write")) {
  writeSection(root + "BENCHMARKS.md", "Redaction speed (Node)", `Measured by \`node bench/redact.mjs\` after \`make build\`.\n\n${tables}${note}`);
}
