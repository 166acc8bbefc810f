// Prints the size of the built wasm, raw / gzip / brotli, on every build.
import { readFileSync } from "node:fs";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";

const dir = process.argv[2] ?? "pkg";
const wasm = readFileSync(`${dir}/llm_memory_bg.wasm`);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
const gz = gzipSync(wasm, { level: 9 }).length;
const br = brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
console.log(`${dir}/llm_memory_bg.wasm: ${kb(wasm.length)} raw, ${kb(gz)} gzip, ${kb(br)} brotli`);
