// The entity type list is written once (crates/redact/src/entity.rs) and read from `Redactor.types`:
// the built `.d.ts` union, README's table and the demo must say the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { lib } from "./helpers.mjs";

const { Redactor } = lib;
const root = fileURLToPath(new URL("../../", import.meta.url));
const names = () => Redactor.types.map((t) => t.type);

test("Redactor.types lists each built-in type with a description", () => {
  const types = Redactor.types;
  assert.ok(types.length > 30, `${types.length} types`);
  assert.equal(new Set(names()).size, types.length, "a name is listed twice");
  for (const t of types) {
    assert.deepEqual(Object.keys(t).sort(), ["description", "national", "type"]);
    assert.match(t.type, /^[A-Z][A-Z0-9_]*[A-Z0-9]$/);
    assert.ok(t.description.length > 5, t.type);
    assert.equal(typeof t.national, "boolean");
    // Each is a type the Redactor takes.
    new Redactor({ types: [t.type] }).free();
  }
  assert.notEqual(Redactor.types, Redactor.types, "each read is a fresh array the caller may change");
  assert.equal(new Redactor().redact("ann@example.com").findings[0].type, types[0].type);
});

test("the .d.ts union of built-in types is Redactor.types", () => {
  const dts = readFileSync(root + "pkg/llm_memory.d.ts", "utf8");
  const union = dts.match(/export type BuiltInEntityType =([^;]*);/);
  assert.ok(union, "pkg/llm_memory.d.ts declares BuiltInEntityType");
  assert.deepEqual([...union[1].matchAll(/\| "([A-Z0-9_]+)"/g)].map((m) => m[1]), names());
  assert.doesNotMatch(union[1], /string/, "the union is closed");
});

test("README's table of entity types is Redactor.types", () => {
  const readme = readFileSync(root + "README.md", "utf8");
  const rows = [...readme.matchAll(/^\| `([A-Z0-9_]+)` \| (.+?) \| (yes)? ?\|$/gm)].map((m) => ({
    type: m[1],
    description: m[2],
    national: m[3] === "yes",
  }));
  assert.deepEqual(rows, Redactor.types);
});

test("the demo keeps no list of its own", () => {
  const www = root + "www/";
  const builtIn = new Set(names());
  for (const file of readdirSync(www).filter((f) => /\.m?js$/.test(f))) {
    const quoted = [...readFileSync(www + file, "utf8").matchAll(/"([A-Z][A-Z0-9_]+)"/g)]
      .map((m) => m[1])
      .filter((n) => builtIn.has(n));
    assert.ok(new Set(quoted).size <= 2, `www/${file} names ${[...new Set(quoted)]}: read Redactor.types instead`);
  }
  // The worker hands the package's list to the page (settings.js, entity-types.js render it).
  assert.match(readFileSync(www + "memory-worker.js", "utf8"), /entityTypes: Redactor\.types/);
});
