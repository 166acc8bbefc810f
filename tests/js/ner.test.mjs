// The PII model from Node, as a user loads it: `models/pii-ner.bin` (`make model`) through
// NerModel.fromBytes / fromUrl, a Redactor and a Memory with it, findings marked
// `source: "model"`, nothing planted reaching a context, and coded errors for bad model files.
// Without the file the tests are skipped, except in CI (`CI` set) where its absence fails.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { lib, loadTokenizer, throwsCode } from "./helpers.mjs";

const { NerModel, Redactor, Memory } = lib;
const path = fileURLToPath(new URL("../../models/pii-ner.bin", import.meta.url));
const present = existsSync(path);
if (!present && process.env.CI) throw new Error(`${path} is missing in CI: make test runs make model first`);
const skip = present ? false : "models/pii-ner.bin not built (make model)";
const bytes = present ? readFileSync(path) : null;

let shared;
const model = async () => (shared ??= await NerModel.fromBytes(bytes));

/** Rejects with an Error carrying `code`. */
async function rejectsCode(promise, code) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof Error, `expected an Error, got ${e}`);
    assert.equal(e.code, code, e.message);
    return true;
  });
}

test("fromBytes loads the model: labels, licence, token ids and logits", { skip }, async () => {
  const m = await model();
  assert.equal(m.labels[0], "O");
  assert.ok(m.labels.includes("B-GIVEN_NAME") && m.labels.includes("I-ZIP_CODE"), m.labels.join());
  assert.equal(m.license, "CC-BY-4.0");
  assert.match(m.attribution, /Rampart/);
  // make model ships our fine-tune (weights/pii-ner.delta.xz), and its file says so.
  assert.match(m.attribution, /fine-tuned by llm-memory/);
  assert.equal(m.fromCache, false);
  const ids = m.tokenIds("maria gonzalez");
  assert.ok(ids instanceof Uint32Array && ids.length >= 4);
  const logits = m.logits(ids);
  assert.ok(logits instanceof Float32Array);
  assert.equal(logits.length, ids.length * m.labels.length);
});

test("a Redactor with the model finds lower-case names and addresses the rules miss", { skip }, async () => {
  const input = "😀 i'm seeing maria gonzalez tomorrow at 1420 elm street, apt 3b, mail ann@example.com";
  const rules = new Redactor().redact(input);
  assert.ok(rules.text.includes("maria gonzalez") && rules.text.includes("1420 elm street"), rules.text);
  const r = new Redactor({ model: await model() });
  const { text, findings } = r.redact(input);
  assert.equal(text, "😀 i'm seeing [PERSON_1] tomorrow at [ADDRESS_1], mail [EMAIL_1]");
  const byType = Object.fromEntries(findings.map((f) => [f.type, f]));
  assert.equal(input.slice(byType.PERSON.start, byType.PERSON.end), "maria gonzalez");
  assert.equal(input.slice(byType.ADDRESS.start, byType.ADDRESS.end), "1420 elm street, apt 3b");
  assert.equal(byType.PERSON.source, "model");
  assert.equal(byType.ADDRESS.source, "model");
  assert.equal(byType.EMAIL.source, "rule");
  assert.ok(byType.PERSON.score >= 0.5 && byType.PERSON.score <= 1, String(byType.PERSON.score));
  assert.equal(r.restore(text), input);
  // Without the model the findings are the rules' alone, marked so.
  assert.ok(rules.findings.every((f) => f.source === "rule"));
});

test("modelThreshold and types apply to the model's findings", { skip }, async () => {
  const m = await model();
  const input = "tell dmitri petrov the keys are under the mat";
  assert.match(new Redactor({ model: m }).redact(input).text, /\[PERSON_1\]/);
  assert.equal(new Redactor({ model: m, modelThreshold: 1 }).redact(input).text, input);
  assert.equal(new Redactor({ model: m, types: ["EMAIL"] }).redact(input).text, input);
  throwsCode(assert, () => new Redactor({ model: m, modelThreshold: 2 }), "INVALID_OPTION");
  throwsCode(assert, () => new Redactor({ model: m, modelThreshold: NaN }), "INVALID_OPTION");
});

test("with the model on, nothing planted reaches the messages, the summarizer or the report", { skip }, async () => {
  const planted = ["maria gonzalez", "1420 elm street, apt 3b", "dmitri petrov", "88 oak ridge road", "dana@example.net"];
  const prompts = [];
  const mem = new Memory({
    redact: { model: await model() }, strategy: "summary", maxTokens: 2000, tokenizer: loadTokenizer("llama3"),
    systemPrompt: "You help dmitri petrov with errands.",
    summaryTrigger: { messages: 3 }, keepRecent: 2,
    summarize: async (prompt) => { prompts.push(prompt); return "The user met [PERSON_1]."; },
  });
  mem.pin("the user's friend is maria gonzalez");
  mem.add("user", "i'm seeing maria gonzalez tomorrow at 1420 elm street, apt 3b");
  mem.add("assistant", "Noted.");
  mem.add("user", "my landlord lives at 88 oak ridge road, write to dana@example.net");
  mem.add("assistant", null, { toolCalls: [{ id: "t1", function: { name: "visit", arguments: { who: "maria gonzalez" } } }] });
  mem.add("tool", "visit planned with maria gonzalez", { toolCallId: "t1" });
  mem.add("user", "remind dmitri petrov too");
  const { messages, report } = await mem.context();
  const leaks = (s) => planted.filter((v) => s.includes(v));
  const sent = JSON.stringify(messages);
  assert.deepEqual(leaks(sent), [], sent);
  assert.deepEqual(leaks(JSON.stringify(report)), []);
  assert.ok(prompts.length >= 1);
  for (const p of prompts) assert.deepEqual(leaks(p), [], p);
  assert.ok(report.redactions.PERSON >= 2, JSON.stringify(report.redactions));
  // The address turns were folded into the summary: the summarizer got them redacted.
  assert.match(prompts.join("\n"), /\[ADDRESS_1\]/);
  for (const placeholder of ["[PERSON_1]", "[PERSON_2]", "[ADDRESS_1]"]) {
    assert.ok(planted.includes(mem.restore(placeholder)), `${placeholder}: ${mem.restore(placeholder)}`);
  }
});

test("bad model bytes and bad model options are coded errors", async () => {
  await rejectsCode(NerModel.fromBytes(new Uint8Array([1, 2, 3, 4])), "INVALID_MODEL");
  await rejectsCode(NerModel.fromBytes(new Uint8Array(4096)), "INVALID_MODEL");
  await rejectsCode(NerModel.fromBytes("models/pii-ner.bin"), "INVALID_MODEL");
  if (bytes) {
    await rejectsCode(NerModel.fromBytes(bytes.subarray(0, bytes.length >> 1)), "INVALID_MODEL");
    const flipped = Uint8Array.from(bytes.subarray(0, 64));
    flipped[0] ^= 0xff;
    await rejectsCode(NerModel.fromBytes(flipped), "INVALID_MODEL");
  }
  throwsCode(assert, () => new Redactor({ model: {} }), "INVALID_OPTION");
  throwsCode(assert, () => new Redactor({ model: new Uint8Array(3) }), "INVALID_OPTION");
  throwsCode(assert, () => new Memory({ redact: { model: "pii-ner.bin" } }), "INVALID_OPTION");
});

test("a freed model cannot be given to a redactor", { skip }, async () => {
  const m = await NerModel.fromBytes(bytes);
  const r = new Redactor({ model: m });
  m.free();
  throwsCode(assert, () => new Redactor({ model: m }), "INVALID_OPTION");
  // A redactor made before keeps its model.
  assert.match(r.redact("can you ask priya raman to call me back").text, /\[PERSON_1\]/);
});

test("fromUrl downloads with progress; a failed download is MODEL_UNAVAILABLE", { skip }, async () => {
  const server = createServer((req, res) => {
    if (req.url !== "/pii-ner.bin") return res.writeHead(404).end();
    res.writeHead(200, { "content-length": bytes.length, "content-type": "application/octet-stream" });
    res.end(bytes);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const seen = [];
    const m = await NerModel.fromUrl(`${base}/pii-ner.bin`, { onProgress: (p) => seen.push(p) });
    assert.ok(seen.length >= 1);
    assert.ok(seen.every((p, i) => i === 0 || p.loaded >= seen[i - 1].loaded));
    assert.deepEqual(seen.at(-1), { loaded: bytes.length, total: bytes.length });
    assert.equal(m.fromCache, false);
    assert.match(new Redactor({ model: m }).redact("tell dmitri petrov").text, /\[PERSON_1\]/);
    await rejectsCode(NerModel.fromUrl(`${base}/missing.bin`), "MODEL_UNAVAILABLE");
    await rejectsCode(NerModel.fromUrl(`${base}/pii-ner.bin`, { onProgres: () => {} }), "INVALID_OPTION");
  } finally {
    server.close();
  }
  await rejectsCode(NerModel.fromUrl("http://127.0.0.1:1/pii-ner.bin"), "MODEL_UNAVAILABLE");
});
