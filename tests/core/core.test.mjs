// pkg-core/ (`make build-core`): the memory, tokens, recall and persistence without redaction,
// the BERT encoder or sync. What it has works as in pkg/ (counts and contexts are the same on
// the same input); what it leaves out is refused with NOT_IN_BUILD, never ignored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as core from "../../pkg-core/llm_memory.js";
import { lib as full, tokenizerJson } from "../js/helpers.mjs";
import { corpus } from "../js/corpus.mjs";

core.initSync({ module: readFileSync(new URL("../../pkg-core/llm_memory_bg.wasm", import.meta.url)) });
const { Memory, Tokenizer, LlmMemoryError } = core;

function throwsCoded(fn, code) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof LlmMemoryError, `expected pkg-core's LlmMemoryError, got ${caught}`);
  assert.equal(caught.code, code, caught.message);
  return caught;
}

test("the parts left out are not exported", () => {
  for (const name of ["Redactor", "NerModel", "EmbedModel"]) {
    assert.equal(core[name], undefined, `${name} is not in pkg-core`);
    assert.equal(typeof full[name], "function", `${name} is in pkg/`);
  }
  assert.ok(LlmMemoryError.codes.includes("NOT_IN_BUILD"));
});

test("options of the parts left out fail with NOT_IN_BUILD and name the full build", async () => {
  for (const opts of [{ redact: true }, { redact: { types: ["EMAIL"] } }, { embedder: {} }]) {
    const e = throwsCoded(() => new Memory(opts), "NOT_IN_BUILD");
    assert.match(e.message, /pkg\//);
  }
  // redact: false asks for nothing this build lacks.
  assert.equal(new Memory({ redact: false }).redacts, false);
  const sync = { url: "http://127.0.0.1:9", token: "t", key: { passphrase: "p" } };
  await assert.rejects(Memory.open({ session: "s", storage: "memory", sync }), (e) => e instanceof LlmMemoryError && e.code === "NOT_IN_BUILD");
  await assert.rejects(Memory.delete("s", { storage: "memory", sync }), (e) => e instanceof LlmMemoryError && e.code === "NOT_IN_BUILD");
  throwsCoded(() => new Memory({ strategy: "nope" }), "INVALID_OPTION");
});

test("counts and contexts equal pkg/'s on the same chat", async () => {
  const coreTok = Tokenizer.fromJson(tokenizerJson("llama3"));
  const fullTok = full.Tokenizer.fromJson(tokenizerJson("llama3"));
  const texts = corpus(120, 3).filter((t) => t.length > 0 && t.length < 2000);
  for (const t of texts) assert.equal(coreTok.count(t), fullTok.count(t));
  const run = async (M, tokenizer) => {
    const mem = new M({ strategy: "summary", maxTokens: 1500, reserveTokens: 300, tokenizer, summarize: async (_p, info) => `Summary of ${info.count} messages.` });
    texts.forEach((t, i) => mem.add(i % 2 ? "assistant" : "user", t));
    mem.add("user", "What did we settle on?");
    return mem.context();
  };
  const [a, b] = [await run(Memory, coreTok), await run(full.Memory, fullTok)];
  assert.ok(a.report.totalTokens <= 1500 - 300);
  assert.deepEqual(a.messages, b.messages);
  assert.equal(a.report.totalTokens, b.report.totalTokens);
});

test("recall, facts and forget work without the encoder", async () => {
  const mem = new Memory({ strategy: "retrieval", maxTokens: 1000 });
  const blue = mem.remember("My favorite color is blue");
  mem.add("user", "I adopted a beagle called Rex last spring.");
  mem.add("assistant", "Congratulations on Rex!");
  const green = mem.remember("My favorite color is green");
  const hits = await mem.recall("what is my favorite color", { k: 3 });
  assert.equal(hits[0].id, green);
  assert.ok(!hits.some((h) => h.id === blue));
  mem.add("user", "What is my dog's name?");
  const { messages } = await mem.context();
  assert.ok(messages.some((m) => /beagle called Rex/.test(m.content)), "the old turn is retrieved");
  const receipt = await mem.forget(green);
  assert.deepEqual(mem.facts().map((f) => f.id), []);
  assert.ok(receipt);
});

test("a stored session survives a reopen, and its export imports into pkg/", async () => {
  const mem = await Memory.open({ session: "core-1", storage: "memory", strategy: "tokens", maxTokens: 500 });
  mem.add("user", "Remember that the launch is on the 14th.");
  mem.remember("The launch is on the 14th");
  await mem.flush();
  const again = await Memory.open({ session: "core-1", storage: "memory" });
  assert.deepEqual(again.entries().map((e) => e.content), ["Remember that the launch is on the 14th."]);
  assert.deepEqual(again.facts().map((f) => f.text), ["The launch is on the 14th"]);
  const doc = again.export();
  const there = await full.Memory.import(doc, { session: "from-core", storage: "memory" });
  assert.deepEqual(there.facts().map((f) => f.text), ["The launch is on the 14th"]);
  // And back: a pkg/ export with a vault is kept whole by pkg-core, which cannot read the vault.
  const redacting = new full.Memory({ redact: true });
  redacting.add("user", "Mail me at ann@example.com");
  await redacting.context();
  const back = await Memory.import(redacting.export(), { session: "from-full", storage: "memory" });
  assert.equal(back.entries()[0].content, "Mail me at ann@example.com");
  assert.ok(back.export().records.some((r) => r.kind === "vault"), "the vault record is kept");
});
