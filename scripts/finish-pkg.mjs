// Finishes pkg/: optional parameters in the .d.ts, and package.json from Cargo.toml so the
// package version has one source.
import { readFileSync, writeFileSync, copyFileSync } from "node:fs";

// wasm-bindgen types an `Option<JsValue>` parameter given an explicit type as required; the
// bindings spell optional ones `T | undefined`, which become `name?: T` here.
const dir = process.argv[2] ?? "pkg";
const dts = `${dir}/llm_memory.d.ts`;
// Classes declare `[Symbol.dispose]()`, which TypeScript's own libs only know from
// `esnext.disposable` on: a project on lib ES2022 without @types/node failed to type-check
// the package. The same declaration @types/node makes fills the gap and merges with theirs.
const disposable = `declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
`;
let types = readFileSync(dts, "utf8").replace(/(\w+): ([\w<>\[\]]+) \| undefined(?=[,)])/g, "$1?: $2");
if (!types.includes("interface SymbolConstructor")) types = types.replace(/^(\/\* tslint:disable \*\/\n\/\* eslint-disable \*\/\n)?/, `$1${disposable}`);
writeFileSync(dts, types);

const cargo = readFileSync("Cargo.toml", "utf8");
const field = (k) => cargo.match(new RegExp(`^${k} = "(.*)"`, "m"))[1];

const pkg = {
  name: dir === "pkg" ? "llm-memory" : "llm-memory-chat",
  version: field("version"),
  description: field("description"),
  license: field("license"),
  type: "module",
  module: "llm_memory.js",
  main: "llm_memory.js",
  types: "llm_memory.d.ts",
  exports: {
    ".": { types: "./llm_memory.d.ts", default: "./llm_memory.js" },
    "./llm_memory_bg.wasm": "./llm_memory_bg.wasm",
  },
  // snippets/: JS the bindings import (wasm-bindgen copies it there).
  files: ["llm_memory.js", "llm_memory.d.ts", "llm_memory_bg.wasm", "llm_memory_bg.wasm.d.ts", "snippets/", "README.md"],
  sideEffects: false,
  keywords: ["llm", "memory", "context", "tokenizer", "wasm", "chat", "pii"],
};
writeFileSync(`${dir}/package.json`, JSON.stringify(pkg, null, 2) + "\n");
copyFileSync("README.md", `${dir}/README.md`);
