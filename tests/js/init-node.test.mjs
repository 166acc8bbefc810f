// The package's first line in Node, as README's first example writes it: `await init()` with no
// argument reads the .wasm beside the module (Node's fetch refuses file: URLs), and a path that
// is not there is a coded error that says what to do.
import { test } from "node:test";
import assert from "node:assert/strict";

test("await init() works in Node without arguments", async () => {
  const lib = await import("../../pkg/llm_memory.js");
  await lib.default();
  const mem = new lib.Memory();
  mem.add("user", "hello");
  assert.equal((await mem.context()).messages.length, 1);
  mem.free();
});

test("a wasm file that is not there is a coded error naming initSync", async () => {
  // A second copy of the module (a query string makes a new instance) so init() runs anew.
  const lib = await import("../../pkg/llm_memory.js?missing");
  await assert.rejects(lib.default({ module_or_path: new URL("file:///nonexistent/llm_memory_bg.wasm") }), (e) => {
    assert.equal(e.code, "INVALID_OPTION");
    assert.match(e.message, /initSync/);
    return true;
  });
});
