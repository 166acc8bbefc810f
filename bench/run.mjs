// `make bench`: every comparison in its own Node process (so one engine's garbage or JIT state
// does not tilt another comparison), each writing its section of BENCHMARKS.md. Run after
// `make build`; a failing comparison is reported and the others still run.
import { execFileSync } from "node:child_process";
import { readFileSync, existsSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { writeSection } from "./stats.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const md = root + "BENCHMARKS.md";
const failed = [];
// `--only tokens,context,size,others` runs a subset (all by default).
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1].split(",") : null;
const want = (part) => !only || only.includes(part);

function run(script, args = []) {
  console.error(`bench: node ${script} ${args.join(" ")}`);
  try {
    return execFileSync(process.execPath, [root + script, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 1 << 26,
    });
  } catch (e) {
    failed.push(script);
    console.error(`bench: ${script} failed: ${e.message}`);
    return null;
  }
}

const version = (p) => JSON.parse(readFileSync(`${root}node_modules/${p}/package.json`, "utf8")).version;
const peers = ["gpt-tokenizer", "js-tiktoken", "tiktoken", "@huggingface/tokenizers", "@langchain/core"];
writeSection(
  md,
  "Machine",
  `Figures below come from \`make bench\` on: ${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown CPU"}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, shared with other work (hence the spreads). ` +
    `Peers: ${peers.map((p) => `${p} ${version(p)}`).join(", ")}. Ratios compare engines measured in the same process run.`,
);

const tokens = want("tokens") && run("bench/tokens.mjs", ["--runs", "7"]);
const by = (cmd) => `Measured by \`node ${cmd}\` after \`make build\` (part of \`make bench\`).\n\n`;
if (tokens) writeSection(md, "Token counting (Node, gpt-4o vocabulary)", by("bench/tokens.mjs --runs 7") + tokens);
const sentencepiece = want("tokens") && run("bench/tokens-sentencepiece.mjs", ["--runs", "5"]);
if (sentencepiece) writeSection(md, "Token counting (Node, SentencePiece-style vocabularies)", by("bench/tokens-sentencepiece.mjs --runs 5") + sentencepiece);

const context = want("context") && run("bench/context.mjs", ["--runs", "3"]);
if (context) writeSection(md, "Context build per turn (Node)", by("bench/context.mjs --runs 3") + context);

const growth = want("context") && run("bench/growth.mjs");
if (growth) writeSection(md, "Context build at scale", by("bench/growth.mjs") + growth);

const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
const sizeRow = (dir) => {
  const wasm = readFileSync(`${root}${dir}/llm_memory_bg.wasm`);
  const gz = gzipSync(wasm, { level: 9 }).length;
  const br = brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return `| ${dir}/llm_memory_bg.wasm | ${kib(wasm.length)} | ${kib(gz)} | ${kib(br)} |\n`;
};
writeSection(
  md,
  "Wasm size",
  "Measured by `node scripts/size.mjs pkg` (run by every `make build`; gzip is Node's zlib at level 9).\n\n" +
    `| file | raw | gzip -9 | brotli 11 |\n| --- | ---: | ---: | ---: |\n${sizeRow("pkg")}` +
    (existsSync(root + "pkg-full/llm_memory_bg.wasm") ? sizeRow("pkg-full") : "") +
    `\nBudget for pkg/: gzip ≤ 1 024 KiB. pkg/ counts byte-level and SentencePiece-style BPE files itself; pkg-full/ (\`make build-full\`) adds the \`tokenizers\` crate for every other kind of tokenizer.json and chat-template rendering. \`make build\` prints the same three figures on every build.`,
);

// The other comparisons, written by their own scripts.
for (const [script, args] of [["bench/redact.mjs", ["--write"]], ["bench/redact-chromium.mjs", ["--write"]], ["bench/recall-speed.mjs", ["--write"]], ["bench/persistence.mjs", []], ["bench/forget.mjs", ["--write"]], ["bench/ner.mjs", ["--write"]], ["bench/embed.mjs", ["--write"]], ["bench/llm-quality.mjs", ["--write"]]]) {
  if (want("others") && existsSync(root + script)) {
    const out = run(script, args);
    if (out) process.stdout.write(out);
  }
}

if (failed.length) {
  console.error(`bench: ${failed.join(", ")} failed; their sections were left as they were`);
  process.exit(1);
}
console.error("bench: BENCHMARKS.md updated");
