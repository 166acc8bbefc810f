// Every exported method, static or not, and every option name the typings declare, called with
// every wrong kind of JS value: each call returns or throws an Error with a `code`. Never a
// wasm fault ("memory access out of bounds" from the string glue) or an uncoded TypeError.
// Generated from the classes themselves, so a method added later is covered without a test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { lib, loadTokenizer } from "./helpers.mjs";

const { Memory, Redactor, StreamRestorer, Tokenizer } = lib;
const llama = loadTokenizer("llama3");

// Values whose reading runs app code that throws: a revoked Proxy (what an Immer draft is after
// `produce`), an array whose element getter throws, an object whose property getter throws. The
// exception must become a coded error, never unwind through wasm (that left the object borrowed
// for good and, repeated, broke every object of the instance).
const hostile = new Map();
const revoked = Proxy.revocable({}, {});
revoked.revoke();
hostile.set(revoked.proxy, "a revoked Proxy");
const throwingItem = [];
Object.defineProperty(throwingItem, 0, { get() { throw new Error("boom"); }, enumerable: true });
hostile.set(throwingItem, "an array whose element getter throws");
const throwingField = {};
for (const k of ["role", "content", "id", "function", "text", "type", "session", "a"]) {
  Object.defineProperty(throwingField, k, { get() { throw new Error("boom"); }, enumerable: true });
}
hostile.set(throwingField, "an object whose getters throw");
hostile.set(new Proxy({}, { ownKeys() { throw new Error("boom"); } }), "a Proxy whose key listing throws");

const wrong = [
  undefined, null, 42, -1, NaN, 1e300, true, "", "x", "\uD800", Symbol("s"), 10n, {}, [],
  [1, "a"], { a: { b: {} } }, () => 1, new Uint8Array(3), new Date(0), Object.create(null),
  ...hostile.keys(),
];

const show = (v) => {
  if (hostile.has(v)) return hostile.get(v);
  if (typeof v === "symbol") return "Symbol()";
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "function") return "a function";
  return JSON.stringify(v) ?? String(v);
};

/** Runs `fn`, awaiting a promise; returns a description of a fault, or null. */
async function fault(fn) {
  try {
    const r = fn();
    if (r && typeof r.then === "function") await r;
    return null;
  } catch (e) {
    if (e instanceof Error && typeof e.code === "string") return null;
    return `${e?.constructor?.name}: ${String(e?.message ?? e).slice(0, 100)}`;
  }
}

async function faults(calls) {
  const found = [];
  for (const [label, fn] of calls) {
    const f = await fault(fn);
    if (f) found.push(`${label} → ${f}`);
  }
  return found;
}

function sample(kind) {
  switch (kind) {
    case Memory: {
      const m = new Memory({ tokenizer: llama, redact: true });
      m.add("user", "hi, I am alice@example.com");
      m.remember("likes green tea");
      return m;
    }
    case Redactor:
      return new Redactor();
    case StreamRestorer:
      return new Redactor().streamRestorer();
    case Tokenizer:
      return llama;
  }
}

const methodsOf = (obj, skip) =>
  Object.getOwnPropertyNames(obj).filter(
    (m) => !skip.includes(m) && !m.startsWith("__") && typeof Object.getOwnPropertyDescriptor(obj, m).value === "function",
  );

test("every method and constructor, with a wrong value in each of its first three places", async () => {
  const calls = [];
  for (const kind of [Memory, Redactor, StreamRestorer, Tokenizer]) {
    for (const m of methodsOf(kind.prototype, ["constructor", "free", "close"])) {
      for (const v of wrong) {
        calls.push([`${kind.name}#${m}(${show(v)})`, () => sample(kind)[m](v)]);
        calls.push([`${kind.name}#${m}("user", ${show(v)})`, () => sample(kind)[m]("user", v)]);
        calls.push([`${kind.name}#${m}("user", "hi", ${show(v)})`, () => sample(kind)[m]("user", "hi", v)]);
      }
    }
    for (const m of methodsOf(kind, ["length", "name", "prototype"])) {
      for (const v of wrong) {
        calls.push([`${kind.name}.${m}(${show(v)})`, () => kind[m](v)]);
        calls.push([`${kind.name}.${m}("s", ${show(v)})`, () => kind[m]("s", v)]);
      }
    }
    for (const v of wrong) calls.push([`new ${kind.name}(${show(v)})`, () => new kind(v)]);
  }
  assert.ok(calls.length > 2000, `the classes were enumerated (${calls.length} calls)`);
  assert.deepEqual(await faults(calls), []);
  const m = new Memory({ tokenizer: llama });
  m.add("user", "the module still works");
  assert.equal((await m.context()).messages.length, 1);
});

test("every option name the typings declare, with each wrong value, in every options argument", async () => {
  const dts = readFileSync(new URL("../../pkg/llm_memory.d.ts", import.meta.url), "utf8");
  const keys = [...new Set([...dts.matchAll(/^\s+(?:readonly )?(\w+)\??:/gm)].map((m) => m[1]))];
  assert.ok(keys.includes("maxTokens") && keys.includes("allowList"), "option names read from the typings");
  // One sample memory per option name: building one per call took most of the time.
  let shared;
  const memory = () => shared;
  const takers = [
    ["new Memory", (o) => new Memory(o)],
    ["configure", (o) => memory().configure(o)],
    ["context", (o) => memory().context(o)],
    ["recall", (o) => memory().recall("tea", o)],
    ["facts", (o) => memory().facts(o)],
    ["remember", (o) => memory().remember("likes tea", o)],
    ["add", (o) => memory().add("user", "hi", o)],
    ["addMessage", (o) => memory().addMessage({ role: "user", content: "hi", ...o })],
    ["addStep", (o) => memory().addStep(o)],
    ["stepMessages", (o) => memory().stepMessages(o)],
    ["Memory.open", (o) => Memory.open({ session: "every-option", storage: "memory", ...o })],
    ["Memory.import", (o) => Memory.import(memory().export(), o)],
    ["Memory.import document", (o) => Memory.import({ ...memory().export(), ...o }, {})],
    ["new Redactor", (o) => new Redactor(o)],
    ["importVault", (o) => new Redactor().importVault(o)],
    ["Tokenizer.fromJson", (o) => Tokenizer.fromJson(o)],
  ];
  const calls = [];
  for (const [name, take] of takers) {
    for (const k of keys) {
      calls.push([`(a fresh memory for ${k})`, () => void (shared = sample(Memory))]);
      for (const v of wrong) calls.push([`${name}({ ${k}: ${show(v)} })`, () => take({ [k]: v })]);
    }
  }
  assert.deepEqual(await faults(calls), []);
});
