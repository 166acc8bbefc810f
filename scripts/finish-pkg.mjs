// Finishes pkg/: optional parameters in the .d.ts, the reference of docs/api in its JSDoc, and
// package.json from Cargo.toml so the package version has one source.
import { readFileSync, writeFileSync, copyFileSync, mkdirSync, readdirSync, existsSync } from "node:fs";
import { declaredMembers, orderMembers } from "./member-order.mjs";
import { mergeDocs } from "./api-docs.mjs";

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
// Class members in the order the sources declare them (see member-order.mjs).
types = orderMembers(types);

// Using an object after free() (or after its `using` block ended) reached wasm-bindgen's
// "null pointer passed to rust", a plain Error without a code; it becomes a coded one, and a
// second free() does nothing instead of throwing it. The instance was never harmed: only the
// error was unhelpful.
const jsPath = `${dir}/llm_memory.js`;
let js = readFileSync(jsPath, "utf8");
if (!js.includes("function glueError(")) {
  const shim = /(__wbindgen_throw_\w+ = function\(arg0, arg1\) \{\n\s*)throw new Error\(getStringFromWasm0\(arg0, arg1\)\);/;
  if (!shim.test(js)) throw new Error("finish-pkg: wasm-bindgen's throw shim changed shape; update scripts/finish-pkg.mjs");
  js = js.replace(shim, "$1throw glueError(getStringFromWasm0(arg0, arg1));");
  const free = /(free\(\) \{\n(\s*)const ptr = this\.__destroy_into_raw\(\);\n)/g;
  if (!free.test(js)) throw new Error("finish-pkg: wasm-bindgen's free() changed shape; update scripts/finish-pkg.mjs");
  js = js.replace(free, "$1$2if (ptr === 0) return;\n");
  js += `
function glueError(message) {
  if (message !== "null pointer passed to rust") return new Error(message);
  return new LlmMemoryError("FREED", "this object was freed (free() was called, or its \`using\` block ended); create a new one");
}
`;
  // The error class lives in a snippet (src/bindings/errors.js) the bindings import; the
  // package exports it so apps can test `err instanceof LlmMemoryError`.
  const crate = readdirSync(`${dir}/snippets`).find((d) => existsSync(`${dir}/snippets/${d}/src/bindings/errors.js`));
  if (!crate) throw new Error("finish-pkg: no snippets/*/src/bindings/errors.js; the bindings no longer import it?");
  js += `import { LlmMemoryError } from "./snippets/${crate}/src/bindings/errors.js";\nexport { LlmMemoryError };\n`;
  // init() with no argument fetches the .wasm beside the module; in Node that is a file: URL,
  // which Node's fetch refuses ("not implemented... yet"), so a first `await init()` failed
  // with an error that was not ours. It reads the file there instead (process.getBuiltinModule:
  // no import, so bundlers see nothing), or says to use initSync.
  const fetchCall = "module_or_path = fetch(module_or_path);";
  if (!js.includes(fetchCall)) throw new Error("finish-pkg: wasm-bindgen's init() changed shape; update scripts/finish-pkg.mjs");
  js = js.replace(fetchCall, "module_or_path = fetchWasm(module_or_path);");
  js += `
function fetchWasm(source) {
  const url = source instanceof URL ? source : typeof source === "string" && /^file:/i.test(source) ? new URL(source) : null;
  if (!url || url.protocol !== "file:") return fetch(source);
  const fs = globalThis.process?.getBuiltinModule?.("node:fs");
  if (!fs) {
    return Promise.reject(new LlmMemoryError("INVALID_OPTION", \`init() cannot read \${url.href} in this runtime: call initSync({ module: bytes }) with the file's bytes (in Node: readFileSync(new URL("llm_memory_bg.wasm", import.meta.resolve("llm-memory"))))\`));
  }
  return fs.promises.readFile(url).catch((e) => {
    throw new LlmMemoryError("INVALID_OPTION", \`init() could not read \${url.href} (\${e.code ?? e.message}): pass the .wasm's bytes to initSync({ module }) or its URL to init({ module_or_path })\`);
  });
}
`;
  // LlmMemoryError.codes: the ErrorCode union of the .d.ts, which crates/core/src/error.rs generates.
  const union = types.match(/export type ErrorCode =([^;]*);/);
  if (!union) throw new Error("finish-pkg: no ErrorCode union in the .d.ts");
  const codes = [...union[1].matchAll(/"([A-Z_]+)"/g)].map((m) => m[1]);
  const errorsPath = `${dir}/snippets/${crate}/src/bindings/errors.js`;
  const errorsJs = readFileSync(errorsPath, "utf8");
  if (!errorsJs.includes("const CODES = [];")) throw new Error("finish-pkg: errors.js no longer holds `const CODES = [];`");
  writeFileSync(errorsPath, errorsJs.replace("const CODES = [];", `const CODES = ${JSON.stringify(codes)};`));
}

// Each exported member's prose and example live in docs/api/<Class>.md, not in Rust doc
// comments (see api-docs.mjs, which refuses a member documented in both places).
({ dts: types, js } = mergeDocs(dir, types, js, declaredMembers()));
writeFileSync(dts, types);
writeFileSync(jsPath, js);

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
    // Framework adapters (adapters/): each imports its framework only when it is used.
    "./ai-sdk": { types: "./adapters/ai-sdk.d.ts", default: "./adapters/ai-sdk.js" },
    "./langchain": { types: "./adapters/langchain.d.ts", default: "./adapters/langchain.js" },
  },
  // snippets/: JS the bindings import (wasm-bindgen copies it there).
  files: ["llm_memory.js", "llm_memory.d.ts", "llm_memory_bg.wasm", "llm_memory_bg.wasm.d.ts", "snippets/", "adapters/", "README.md"],
  // The LangChain adapter imports @langchain/core; the AI SDK middleware imports nothing.
  peerDependencies: { "@langchain/core": ">=1.0.0" },
  peerDependenciesMeta: { "@langchain/core": { optional: true } },
  sideEffects: false,
  keywords: ["llm", "memory", "context", "tokenizer", "wasm", "chat", "pii"],
};
writeFileSync(`${dir}/package.json`, JSON.stringify(pkg, null, 2) + "\n");
copyFileSync("README.md", `${dir}/README.md`);
mkdirSync(`${dir}/adapters`, { recursive: true });
for (const file of readdirSync("adapters")) copyFileSync(`adapters/${file}`, `${dir}/adapters/${file}`);
