// Bad input gets a clear, coded Error (never a panic, which would poison the wasm instance),
// and after each one the same module keeps working.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Memory, Tokenizer, lib, loadTokenizer, throwsCode } from "./helpers.mjs";

const llama = loadTokenizer("llama3");

test("bad budgets and options name the option to fix", () => {
  const cases = [
    [{ strategy: "tokens", maxTokens: -5 }, /maxTokens must be a non-negative integer, got -5/],
    [{ strategy: "tokens", maxTokens: "2000" }, /maxTokens must be a non-negative integer, got the string "2000"/],
    [{ strategy: "tokens", maxTokens: NaN }, /maxTokens/],
    [{ strategy: "tokens", maxTokens: 1.5 }, /maxTokens/],
    [{ strategy: "tokens", maxTokens: Infinity }, /maxTokens/],
    [{ strategy: "tokens" }, /needs maxTokens/],
    [{ strategy: "tokens", maxTokens: 100, reserveTokens: 100 }, /reserveTokens \(100\) must be smaller than maxTokens/],
    [{ strategy: "window", maxTurns: 0 }, /maxTurns must be at least 1/],
    [{ strategy: "fancy" }, /unknown strategy "fancy"/],
    [{ strategy: "full", maxTokenz: 3 }, /did you mean maxTokens/],
    [{ tokenizer: {} }, /tokenizer must be a Tokenizer/],
    [{ summarize: "yes" }, /summarize must be a function/],
    [{ summaryTrigger: {} }, /summaryTrigger needs messages or tokens/],
    [{ summaryPrompt: "no placeholder" }, /must contain \{turns\}/],
    [{ messageOverhead: { perMesage: 2 } }, /did you mean perMessage/],
    [[1, 2], /must be an object/],
    ["tokens", /must be an object/],
  ];
  for (const [opts, message] of cases) {
    const e = throwsCode(assert, () => new Memory(opts), "INVALID_OPTION");
    assert.match(e.message, message);
    assert.equal(e.name, "LlmMemoryError");
  }
});

test("every error is an LlmMemoryError whose code is one of LlmMemoryError.codes", async () => {
  const { LlmMemoryError } = lib;
  const dts = readFileSync(new URL("../../pkg/llm_memory.d.ts", import.meta.url), "utf8");
  const union = [...dts.match(/export type ErrorCode =([^;]*);/)[1].matchAll(/"([A-Z_]+)"/g)].map((m) => m[1]);
  assert.deepEqual([...LlmMemoryError.codes], union, "codes and the .d.ts union come from one list");
  assert.ok(Object.isFrozen(LlmMemoryError.codes));
  let e;
  try { new Memory({ strategy: "nope" }); } catch (err) { e = err; }
  assert.ok(e instanceof LlmMemoryError && e instanceof Error);
  assert.equal(e.code, "INVALID_OPTION");
  assert.equal(e.name, "LlmMemoryError");
  assert.ok(LlmMemoryError.codes.includes(e.code));
  assert.match(e.stack, /LlmMemoryError/);
  // Rejections too, and errors an app makes itself.
  const rejected = await Memory.open({ session: "" , storage: "memory" }).catch((err) => err);
  assert.ok(rejected instanceof LlmMemoryError, String(rejected));
  const own = new LlmMemoryError("NOT_FOUND", "made by the app");
  assert.equal(own.code, "NOT_FOUND");
});

test("bad entries: unknown role, wrong content type, tool message without its call id", () => {
  const mem = new Memory();
  throwsCode(assert, () => mem.add("robot", "hi"), "INVALID_ROLE");
  throwsCode(assert, () => mem.add("User", "hi"), "INVALID_ROLE");
  throwsCode(assert, () => mem.add("user", 42), "INVALID_ENTRY");
  throwsCode(assert, () => mem.add("user", { text: "hi" }), "INVALID_ENTRY");
  throwsCode(assert, () => mem.add("tool", "result"), "INVALID_ENTRY");
  throwsCode(assert, () => mem.add("user", "x", { toolCalls: [{ id: "a", function: { name: "f" } }] }), "INVALID_ENTRY");
  throwsCode(assert, () => mem.add("assistant", "x", { toolCalls: "nope" }), "INVALID_ENTRY");
  throwsCode(assert, () => mem.add("assistant", "x", { toolCalls: [{ function: { name: "f" } }] }), "INVALID_ENTRY");
  throwsCode(assert, () => mem.add("user", "x", { timestamp: "now" }), "INVALID_OPTION");
  throwsCode(assert, () => mem.add("user", "x", { metadata: { f: () => 1 } }), "INVALID_ENTRY");
  throwsCode(assert, () => mem.add("user", "x", { nmae: "bob" }), "INVALID_OPTION");
  throwsCode(assert, () => mem.addMessage({ role: "user", content: [{ type: "text", text: "hi" }] }), "INVALID_ENTRY");
  throwsCode(assert, () => mem.addMessage({ content: "hi" }), "INVALID_ENTRY");
  // Only an assistant message with tool calls may leave its content out: the chat APIs
  // refuse any other message whose content is null.
  for (const [role, content] of [["user", null], ["user", undefined], ["assistant", null], ["system", null]]) {
    throwsCode(assert, () => mem.add(role, content), "INVALID_ENTRY");
  }
  throwsCode(assert, () => mem.addMessage({ role: "user", content: null }), "INVALID_ENTRY");
  assert.equal(mem.length, 0, "nothing half-stored");
  assert.equal(mem.add("user", "still works"), "e1");
  assert.equal(mem.add("assistant", null, { toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] }), "e2");
});

test("a 10 MB message is refused with ENTRY_TOO_LARGE unless the limit is raised", async () => {
  const mem = new Memory({ tokenizer: llama });
  const big = "lorem ipsum ".repeat(10 * 1024 * 1024 / 12);
  const e = throwsCode(assert, () => mem.add("user", big), "ENTRY_TOO_LARGE");
  assert.match(e.message, /maxEntryChars/);
  assert.equal(mem.length, 0);
  // Raised limit with the approximate counter: stored and counted.
  const roomy = new Memory({ maxEntryChars: 11 * 1024 * 1024 });
  roomy.add("user", big);
  // 3 per message + "user" (4 characters: 1) + the content.
  assert.equal(roomy.entries()[0].tokens, 3 + 1 + Math.ceil(big.length / 4));
  const { report } = await roomy.context();
  assert.equal(report.entries[0].status, "included");
});

test("lone surrogates in content are stored as U+FFFD, like TextEncoder does", async () => {
  const mem = new Memory({ tokenizer: llama });
  mem.add("user", "half an emoji: \uD83D and \uDE00 end");
  assert.equal(mem.entries()[0].content, "half an emoji: \uFFFD and \uFFFD end");
  const { messages } = await mem.context();
  assert.equal(messages[0].content, "half an emoji: \uFFFD and \uFFFD end");
});

test("bad context options reject with a coded error", async () => {
  const mem = new Memory();
  mem.add("user", "hi");
  assert.throws(() => mem.context({ qurey: "x" }), (e) => e.code === "INVALID_OPTION" && /did you mean query/.test(e.message));
  assert.throws(() => mem.context({ query: 5 }), (e) => e.code === "INVALID_OPTION");
  const ok = await mem.context({ query: "x" });
  assert.equal(ok.messages.length, 1);
});

test("the instance survives a storm of bad calls", async () => {
  const mem = new Memory({ strategy: "tokens", maxTokens: 100, tokenizer: llama });
  const bad = [
    () => mem.add(undefined, "x"), () => mem.add("user", undefined, 5), () => mem.forget(""),
    () => mem.pin(""), () => mem.configure({ maxTokens: -1 }), () => mem.configure(null ?? 3),
    () => Tokenizer.fromJson(new Uint8Array([0xff, 0xfe])), () => mem.addStep(null),
  ];
  for (const f of bad) assert.throws(f, (e) => e instanceof Error && typeof e.code === "string");
  mem.add("user", "after all that");
  const { messages } = await mem.context();
  assert.equal(messages.at(-1).content, "after all that");
  assert.equal(llama.count("still counting"), 2);
});

test("every method that takes text refuses a non-string with a coded error, not a wasm fault", async () => {
  // wasm-bindgen's string glue reads `.length` of whatever it is given: a number made it write
  // out of bounds ("memory access out of bounds"), null a TypeError without a code.
  const mem = new Memory({ redact: true, tokenizer: llama });
  const redactor = new lib.Redactor();
  const stream = redactor.streamRestorer();
  const calls = {
    "Memory.restore": (x) => mem.restore(x),
    "Redactor.restore": (x) => redactor.restore(x),
    "StreamRestorer.push": (x) => stream.push(x),
    "Tokenizer.count": (x) => llama.count(x),
    "Tokenizer.encode": (x) => llama.encode(x),
    "Tokenizer.countMany": (x) => llama.countMany(x),
    "Tokenizer.fromPrepared": (x) => Tokenizer.fromPrepared(x),
  };
  for (const [name, call] of Object.entries(calls)) {
    for (const bad of [42, null, undefined, {}, Symbol("s")]) {
      let caught;
      try {
        call(bad);
      } catch (e) {
        caught = e;
      }
      assert.ok(caught instanceof Error && typeof caught.code === "string", `${name}(${String(bad)}) threw ${caught}`);
      assert.doesNotMatch(caught.message, /memory access|Cannot read/, name);
    }
  }
  assert.equal(stream.push("ok ") + stream.finish(), "ok ");
  assert.equal(llama.count("still counting"), 2);
  assert.deepEqual([...llama.countMany(["a b", "c"])], [2, 1]);
  mem.add("user", "mail ann@example.com");
  assert.match((await mem.context()).messages.at(-1).content, /\[EMAIL_1\]/);
  assert.equal(mem.restore("[EMAIL_1]"), "ann@example.com");
});

test("circular or too deeply nested metadata is INVALID_ENTRY, and the module keeps working", async () => {
  // Converting it recursed inside wasm until the stack ran out: the unwound borrow poisoned the
  // instance and the allocator, and every later call on every instance failed.
  const mem = new Memory({ tokenizer: llama });
  mem.add("user", "hi");
  const cyclic = {};
  cyclic.self = cyclic;
  let deep = {};
  for (let i = 0; i < 100_000; i++) deep = { deep };
  for (const metadata of [cyclic, deep, { big: 1n }]) {
    throwsCode(assert, () => mem.add("user", "x", { metadata }), "INVALID_ENTRY");
  }
  mem.configure({ maxTokens: 100 });
  mem.add("user", "after all that", { metadata: { ok: [1, 2] } });
  const { messages } = await mem.context();
  assert.equal(messages.at(-1).content, "after all that");
  assert.deepEqual(mem.entries().at(-1).metadata, { ok: [1, 2] });
  assert.equal(Tokenizer.approximate().count("still counting here"), 5);
});

test("an object used after free() throws FREED; a second free() does nothing", () => {
  const objects = [
    [new Memory(), (o) => o.add("user", "hi")],
    [new lib.Redactor(), (o) => o.redact("ann@example.com")],
    [Tokenizer.approximate(4), (o) => o.count("hello")],
  ];
  for (const [o, use] of objects) {
    o.free();
    assert.throws(() => use(o), (e) => e.code === "FREED" && e.name === "LlmMemoryError" && /freed/.test(e.message));
    o.free();
    o[Symbol.dispose]?.();
  }
  const r = new lib.Redactor();
  assert.equal(r.redact("ann@example.com").text, "[EMAIL_1]");
});

test("fromUrl given a file path or a file: URL says to use fromBytes", async () => {
  for (const Class of [lib.NerModel, lib.EmbedModel]) {
    for (const where of ["./models/pii-ner.bin", "file:///nonexistent/model.bin"]) {
      await assert.rejects(Class.fromUrl(where), (e) => {
        assert.equal(e.code, "MODEL_UNAVAILABLE", `${Class.name} ${where}`);
        assert.match(e.message, /fromBytes/);
        return true;
      });
    }
  }
});
