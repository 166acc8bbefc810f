// Token counts of the fast BPE paths against the reference tokenizer (@huggingface/tokenizers):
// byte-level gpt-4o, llama3 and qwen3, SentencePiece-style Llama 2 and Gemma 3, on a large
// varied corpus and on the worst cases (50 000 characters without a word break, 1 MB of base64).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Tokenizer as Reference } from "@huggingface/tokenizers";
import { Tokenizer, tokenizerJson, tokenizerPath } from "./helpers.mjs";
import { largeCorpus, worstCases } from "./corpus.mjs";

const texts = largeCorpus();
const worst = worstCases();

for (const name of ["gpt4o", "llama3", "qwen3"]) {
  const json = tokenizerJson(name);
  const config = JSON.parse(readFileSync(tokenizerPath(name).replace("tokenizer.json", "tokenizer_config.json"), "utf8"));
  const reference = new Reference(JSON.parse(json), config);
  const want = (t) => reference.encode(t, { add_special_tokens: false }).ids;

  test(`${name}: counts equal the reference on ${texts.length} varied texts`, () => {
    const ours = Tokenizer.fromJson(json);
    assert.equal(ours.kind, "BPE");
    const mismatches = [];
    const many = ours.countMany(texts);
    texts.forEach((t, i) => {
      const n = want(t).length;
      if (ours.count(t) !== n || many[i] !== n) mismatches.push({ text: t.slice(0, 60), want: n, got: ours.count(t), many: many[i] });
    });
    assert.deepEqual(mismatches.slice(0, 5), [], `${mismatches.length} of ${texts.length} texts differ`);
    for (const t of texts.slice(0, 200)) assert.deepEqual([...ours.encode(t)], want(t));
    // Special tokens written in the text are one token each, as in the reference.
    const special = "<|endoftext|> hi <|im_start|> <|begin_of_text|>";
    assert.equal(ours.count(special), want(special).length);
  });

  test(`${name}: worst cases (no word break, 1 MB of base64) equal the reference`, () => {
    const ours = Tokenizer.fromJson(json);
    for (const [label, t] of Object.entries(worst)) {
      assert.equal(ours.count(t), want(t).length, label);
    }
    // How their time grows is measured by `make bench`, not asserted here: timings on a
    // shared machine make flaky tests.
  });

  test(`${name}: the prepared form loads to the same counts`, () => {
    const ours = Tokenizer.fromJson(json);
    const bytes = ours.prepared();
    assert.ok(bytes instanceof Uint8Array && bytes.length > 1000);
    const warm = Tokenizer.fromPrepared(bytes);
    for (const t of texts.slice(0, 300)) assert.equal(warm.count(t), ours.count(t));
    assert.throws(() => Tokenizer.fromPrepared(bytes.subarray(0, 100)), (e) => e.code === "INVALID_TOKENIZER");
  });
}

// SentencePiece-style files (spaces as "▁", byte fallback): the same fast path and prepared form.
for (const name of ["llama2", "gemma3"]) {
  const json = tokenizerJson(name);
  const config = JSON.parse(readFileSync(tokenizerPath(name).replace("tokenizer.json", "tokenizer_config.json"), "utf8"));
  const reference = new Reference(JSON.parse(json), config);
  const want = (t) => reference.encode(t, { add_special_tokens: false }).ids;

  test(`${name}: SentencePiece-style counts equal the reference, worst cases included`, () => {
    const ours = Tokenizer.fromJson(json);
    assert.equal(ours.kind, "BPE");
    const mismatches = [];
    const many = ours.countMany(texts);
    texts.forEach((t, i) => {
      const n = want(t).length;
      if (ours.count(t) !== n || many[i] !== n) mismatches.push({ text: t.slice(0, 60), want: n, got: ours.count(t), many: many[i] });
    });
    assert.deepEqual(mismatches.slice(0, 5), [], `${mismatches.length} of ${texts.length} texts differ`);
    for (const t of texts.slice(0, 200)) assert.deepEqual([...ours.encode(t)], want(t));
    for (const [label, t] of Object.entries(worst)) assert.equal(ours.count(t), want(t).length, label);
    const warm = Tokenizer.fromPrepared(ours.prepared());
    for (const t of texts.slice(0, 300)) assert.equal(warm.count(t), ours.count(t));
  });
}

test("countMany keeps texts apart across surrogate pairs and rejects non-strings", () => {
  const ours = Tokenizer.fromJson(tokenizerJson("gpt4o"));
  const parts = ["a\uD83D", "\uDE00b", "😀", "", "x"];
  assert.deepEqual([...ours.countMany(parts)], parts.map((t) => ours.count(t)));
  assert.throws(() => ours.countMany(["a", 3]), (e) => e.code === "INVALID_OPTION");
});
