// Token counts of llm-memory against the reference JS tokenizer (@huggingface/tokenizers) with
// real tokenizer.json files: they must agree exactly on a varied corpus.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Tokenizer as Reference } from "@huggingface/tokenizers";
import { readFileSync } from "node:fs";
import { Tokenizer, loadTokenizer, tokenizerJson, tokenizerPath, throwsCode } from "./helpers.mjs";
import { corpus } from "./corpus.mjs";

for (const name of ["llama3", "gpt4o"]) {
  test(`${name}: counts equal the reference tokenizer on a varied corpus`, () => {
    const json = JSON.parse(tokenizerJson(name));
    const config = JSON.parse(readFileSync(tokenizerPath(name).replace("tokenizer.json", "tokenizer_config.json"), "utf8"));
    const reference = new Reference(json, config);
    const ours = loadTokenizer(name);
    assert.equal(ours.kind, "BPE");
    assert.equal(ours.exact, true);
    const texts = corpus();
    const mismatches = [];
    for (const text of texts) {
      const want = reference.encode(text, { add_special_tokens: false }).ids.length;
      const got = ours.count(text);
      if (got !== want) mismatches.push({ text: text.slice(0, 60), want, got });
    }
    assert.deepEqual(mismatches, [], `${mismatches.length} of ${texts.length} texts differ`);
    // countMany agrees with count, and encode gives the reference ids.
    assert.deepEqual([...ours.countMany(texts.slice(0, 50))], texts.slice(0, 50).map((t) => ours.count(t)));
    const sample = texts[3];
    assert.deepEqual([...ours.encode(sample)], reference.encode(sample, { add_special_tokens: false }).ids);
  });
}

test("fromJson accepts text, bytes, ArrayBuffer and the parsed object alike", () => {
  const text = tokenizerJson("gpt4o");
  const bytes = new TextEncoder().encode(text);
  const a = Tokenizer.fromJson(bytes);
  const b = Tokenizer.fromJson(bytes.buffer);
  const c = Tokenizer.fromJson(JSON.parse(text));
  // As some editors save it: with a UTF-8 byte order mark.
  const d = Tokenizer.fromJson("\uFEFF" + text);
  const s = "Counting the same way, whatever the input form.";
  const want = loadTokenizer("gpt4o").count(s);
  for (const t of [a, b, c, d]) assert.equal(t.count(s), want);
});

test("invalid tokenizer files throw INVALID_TOKENIZER", () => {
  // The last one parses but has no vocabulary: every text would count as 0 tokens.
  for (const bad of ["", "{", "{}", "[1,2]", '{"model": {"type": "BPE", "vocab": 5}}', 42, null, '{"model": {"type": "BPE", "vocab": {}, "merges": []}}']) {
    throwsCode(assert, () => Tokenizer.fromJson(bad), "INVALID_TOKENIZER");
  }
});

test("approximate counts about four characters per token and is marked inexact", () => {
  const t = Tokenizer.approximate();
  assert.equal(t.exact, false);
  assert.equal(t.kind, "approximate");
  assert.equal(t.count("abcdefgh"), 2);
  assert.equal(t.count("abcdefghi"), 3);
  assert.equal(Tokenizer.approximate(2).count("abcdefgh"), 4);
  throwsCode(assert, () => Tokenizer.approximate(-1), "INVALID_OPTION");
  throwsCode(assert, () => Tokenizer.approximate(0).count("x"), "INVALID_OPTION");
});

test("lone UTF-16 surrogates count as U+FFFD, never throw", () => {
  const t = loadTokenizer("llama3");
  assert.equal(t.count("a\uD800b"), t.count("a\uFFFDb"));
  assert.equal(t.count("\uDC00"), t.count("\uFFFD"));
});
