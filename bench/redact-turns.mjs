// The text both redaction benchmarks (Node and Chromium) measure: the labeled corpus's messages
// packed into 2 kB chat turns, so every library redacts exactly the same bytes.
import { readFileSync } from "node:fs";

export const TURN = 2048;

export function corpusTurns(root) {
  const messages = readFileSync(root + "tests/data/redact_corpus.jsonl", "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).text);
  const turns = [];
  let cur = "";
  for (const m of messages) {
    cur += (cur ? "\n\n" : "") + m;
    if (cur.length >= TURN) {
      turns.push(cur.slice(0, TURN));
      cur = "";
    }
  }
  return turns;
}
