// Prints the size of the built wasm, raw / gzip / brotli, on every build; with a budget in KiB
// (gzip, what a web server sends), fails the build when the wasm outgrows it.
//   node scripts/size.mjs DIR [MAX_GZIP_KIB]
import { readFileSync } from "node:fs";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";

const dir = process.argv[2] ?? "pkg";
const budget = process.argv[3] ? Number(process.argv[3]) : null;
const wasm = readFileSync(`${dir}/llm_memory_bg.wasm`);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
const gz = gzipSync(wasm, { level: 9 }).length;
const br = brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
console.log(`${dir}/llm_memory_bg.wasm: ${kb(wasm.length)} raw, ${kb(gz)} gzip, ${kb(br)} brotli`);
if (budget !== null && gz > budget * 1024) {
  console.error(`${dir}: ${kb(gz)} gzip is over its budget of ${budget} KiB`);
  process.exit(1);
}
