// Shared by the recall benchmarks: number formatting and writing a
// marked block into the "## Recall" section of BENCHMARKS.md (other sections are left alone).
import { readFileSync, writeFileSync, existsSync } from "node:fs";

export { mulberry32 as rng } from "./vectors.mjs";
export { quantile } from "./stats.mjs";

export const fmt = (x, digits) => {
  if (x === null || x === undefined) return "–";
  const d = digits ?? (x < 1 ? 3 : x < 10 ? 2 : 1);
  return x.toFixed(d);
};

/** Replaces the text between <!-- name --> and <!-- /name --> inside "## Recall". */
export function writeSection(path, name, text) {
  let doc = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmarks\n";
  const open = `<!-- ${name} -->`, close = `<!-- /${name} -->`;
  const block = `${open}\n${text}\n${close}`;
  if (!doc.includes("\n## Recall\n")) doc = doc.trimEnd() + "\n\n## Recall\n\n";
  if (doc.includes(open) && doc.includes(close)) {
    doc = doc.slice(0, doc.indexOf(open)) + block + doc.slice(doc.indexOf(close) + close.length);
  } else {
    // Append at the end of the Recall section (before the next "## " heading, if any).
    const start = doc.indexOf("\n## Recall\n") + "\n## Recall\n".length;
    const next = doc.indexOf("\n## ", start);
    const at = next === -1 ? doc.length : next;
    doc = doc.slice(0, at).trimEnd() + "\n\n" + block + "\n" + doc.slice(at);
  }
  writeFileSync(path, doc.trimEnd() + "\n");
}
