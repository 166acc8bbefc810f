// Which build loads which tokenizer.json: pkg/ counts BPE files itself (byte-level and
// SentencePiece-style) and names pkg-full/ for the other kinds with UNSUPPORTED_TOKENIZER;
// pkg-full/ loads those through the `tokenizers` crate (feature all-tokenizers).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Tokenizer as Reference } from "@huggingface/tokenizers";
import { Tokenizer, tokenizerJson } from "../js/helpers.mjs";
import * as full from "../../pkg-full/llm_memory.js";

full.initSync({ module: readFileSync(new URL("../../pkg-full/llm_memory_bg.wasm", import.meta.url)) });

// A WordPiece file in the real format (BERT-style normalizer and pre-tokenizer).
const wordPiece = {
  version: "1.0", truncation: null, padding: null, added_tokens: [],
  normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: "BertPreTokenizer" }, post_processor: null, decoder: null,
  model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100,
    vocab: { "[UNK]": 0, hello: 1, world: 2, "##s": 3, ",": 4 } },
};
// A byte-level BPE file with a split regex the fast path does not implement.
const otherRegex = tokenizerJson("gpt4o").replace(String.raw`\\p{N}{1,3}`, String.raw`\\p{N}{1,2}`);

test("pkg/ refuses kinds it does not count with UNSUPPORTED_TOKENIZER, naming the full build", () => {
  for (const [json, kind] of [[JSON.stringify(wordPiece), "WordPiece"], [otherRegex, "BPE"]]) {
    assert.throws(() => Tokenizer.fromJson(json), (e) => {
      assert.equal(e.code, "UNSUPPORTED_TOKENIZER");
      assert.match(e.message, new RegExp(`${kind} model`));
      assert.match(e.message, /pkg-full/);
      return true;
    });
  }
  // Not a tokenizer.json at all stays INVALID_TOKENIZER.
  assert.throws(() => Tokenizer.fromJson('{"model": 3}'), (e) => e.code === "INVALID_TOKENIZER");
  // The instance still works after the refusals.
  assert.ok(Tokenizer.fromJson(tokenizerJson("llama2")).count("still works") > 0);
});

test("pkg-full/ loads them through the tokenizers crate, counting as the reference does", () => {
  const wp = full.Tokenizer.fromJson(JSON.stringify(wordPiece));
  assert.equal(wp.kind, "WordPiece");
  const text = "Hello, worlds hello";
  const reference = new Reference(wordPiece, {});
  assert.equal(wp.count(text), reference.encode(text, { add_special_tokens: false }).ids.length);
  assert.equal(wp.count(text), 5);
  const bpe = full.Tokenizer.fromJson(otherRegex);
  assert.equal(bpe.kind, "BPE");
  assert.equal(bpe.count("12345"), 3);
  assert.equal(bpe.prepared(), undefined);
});
