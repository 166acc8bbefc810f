// The demo keeps a loaded PII model in IndexedDB under its URL and never asks the server again,
// so its URL must change with the model: it names the shipped model's checksum.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

test("the demo loads the PII model under a URL naming the shipped model's checksum", () => {
  const sha = read("weights/pii-ner.sha256").trim();
  const url = read("www/loaders.js").match(/NER_MODEL_URL = "(\/models\/pii-ner\.bin\?v=([0-9a-f]+))"/);
  assert.ok(url, "www/loaders.js sets NER_MODEL_URL to /models/pii-ner.bin?v=<checksum>");
  assert.ok(url[2].length >= 8 && sha.startsWith(url[2]), `${url[1]} names another model than ${sha}`);
});
