// The text both redaction benchmarks (Node and Chromium) measure: the labeled corpus's messages
// packed into 2 kB chat turns, so every library redacts exactly the same bytes.
import { existsSync, readdirSync, readFileSync } from "node:fs";

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

/** The README.md of every installed npm package (sorted by path, duplicates dropped) cut into
 * 2 kB turns, `bytes` at most: real prose with code, links and the odd author's e-mail — the
 * other end from the corpus, where most turns carry several personal values. The lockfile
 * pins the packages, so every machine measures the same text. */
export function proseTurns(root, bytes = 1_500_000) {
  const seen = new Set();
  const readmes = [];
  const dir = root + "node_modules/";
  const packages = readdirSync(dir)
    .flatMap((name) => (name.startsWith("@") ? readdirSync(dir + name).map((sub) => `${name}/${sub}`) : [name]))
    .sort();
  for (const name of packages) {
    const file = `${dir}${name}/README.md`;
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    if (!seen.has(text)) seen.add(text), readmes.push(text);
  }
  const all = readmes.join("\n\n");
  const turns = [];
  for (let at = 0, size = 0; at + TURN <= all.length && size < bytes; at += TURN) {
    const turn = all.slice(at, at + TURN);
    turns.push(turn);
    size += Buffer.byteLength(turn);
  }
  return turns;
}
