// Puts the `@example`s of docs/api/<Class>.md back into the JSDoc that wasm-bindgen wrote from the
// Rust `///` comments (finish-pkg.mjs calls it for pkg/, pkg-full/ and pkg-core/).
//
// The examples were some 500 lines of the bindings' doc comments, and wasm-bindgen ignores
// `#[doc = include_str!(...)]`, so they live in Markdown and are merged here: each one goes
// where wasm-bindgen put it, after the member's prose and before the `@param`/`@returns` it
// adds, so the package is the same as when they were in Rust.
//
// A file's sections, in the order of the .d.ts:
//   ## (class)        the class's own doc (wasm-bindgen writes it into llm_memory.js only)
//   ## constructor
//   ## static name    a static method or property
//   ## name           a method or property
// each holding one fenced block and nothing else: the prose stays in the Rust comment.
import { readFileSync, readdirSync } from "node:fs";

const DOCS = "docs/api";

function fail(message) {
  throw new Error(`finish-pkg: ${message}`);
}

/** `## static fromUrl` → `{ kind: "member", name: "fromUrl", isStatic: true }`. */
function parseHeading(heading, where) {
  if (heading === "(class)") return { kind: "class" };
  const m = heading.match(/^(static )?([\w$]+)$/);
  if (!m) fail(`${where}: a section is "## (class)", "## constructor", "## static name" or "## name"`);
  return { kind: "member", name: m[2], isStatic: Boolean(m[1]) };
}

/** The sections of one docs/api file, each `{ heading, kind, name, isStatic, lang, code }`. */
export function readExamples(path) {
  const sections = [];
  let section = null; // the section being read
  let fence = null; // the open fenced block's lines
  for (const [i, line] of readFileSync(path, "utf8").split("\n").entries()) {
    const where = `${path}:${i + 1}`;
    if (fence) {
      if (line === "```") [section.code, fence] = [fence, null];
      else fence.push(line);
    } else if (line.startsWith("## ")) {
      const heading = line.slice(3);
      if (sections.some((s) => s.heading === heading)) fail(`${where}: a second section "## ${heading}"`);
      section = { heading, ...parseHeading(heading, `${where}: "## ${heading}"`), code: null };
      sections.push(section);
    } else if (section && line.trim()) {
      // Anything but blank lines before the first section is the file's header.
      const open = line.match(/^```(\w+)$/);
      if (!open || section.code) fail(`${where}: section "## ${section.heading}" holds one fenced block and nothing else (its prose belongs in the Rust \`///\` comment)`);
      [section.lang, fence] = [open[1], []];
    }
  }
  if (fence) fail(`${path}: section "## ${section.heading}" never closes its fenced block`);
  const empty = sections.find((s) => !s.code);
  if (empty) fail(`${path}: section "## ${empty.heading}" has no example`);
  return sections;
}

/** A class's lines in `lines`: `{ head, end, indent }` (indices of `export class` and its `}`). */
function findClass(lines, cls) {
  const head = lines.findIndex((l) => new RegExp(`^export class ${cls}\\b`).test(l));
  if (head < 0) return null;
  const end = lines.indexOf("}", head);
  const indent = lines[head + 1].match(/^ */)[0];
  return { head, end, indent };
}

/** The line declaring a member: `static get types() {`, `readonly length: number;`, ... */
function findMember(lines, { head, end, indent }, { name, isStatic }) {
  let found = -1;
  for (let i = head + 1; i < end; i++) {
    const line = lines[i];
    if (!line.startsWith(indent) || line[indent.length] === " ") continue; // inside a body or a doc
    const m = line.trim().match(/^(static )?((?:readonly |get |set )*)([\w$]+)/);
    if (!m || m[3] !== name || Boolean(m[1]) !== isStatic) continue;
    // A getter and its setter: the example was on the getter.
    if (!m[2].includes("set ")) return i;
    if (found < 0) found = i;
  }
  return found;
}

/** `@example` and the fenced block as JSDoc lines at `indent`, after the blank line that parts them from the prose. */
function render({ lang, code }, indent) {
  const star = (text) => (text ? `${indent} * ${text}` : `${indent} *`);
  return [star(""), star("@example"), star("```" + lang), ...code.map(star), star("```")];
}

/** Inserts the example into the doc comment that ends on the line before `decl`. */
function insertExample(lines, decl, section, where) {
  const close = decl - 1;
  if (!/^\s*\*\/$/.test(lines[close] ?? "")) fail(`${where}: the declaration has no doc comment to hold the example; give it some prose in Rust`);
  let open = close;
  while (!lines[open].trim().startsWith("/**")) open--;
  const indent = lines[open].match(/^ */)[0];
  const example = render(section, indent);
  const doc = lines.slice(open, close + 1).join("\n");
  // finish-pkg may run twice on one directory; an example from Rust as well is one too many.
  if (doc.includes(example.join("\n"))) return;
  if (doc.includes("@example")) fail(`${where}: the member already has an @example (from its Rust \`///\` comment?); keep it in ${DOCS} only`);
  // After the prose, before the tags wasm-bindgen adds to the .js.
  let at = open + 1;
  while (at < close && !/^\s*\* @(param|returns)\b/.test(lines[at])) at++;
  lines.splice(at, 0, ...example);
}

/**
 * The .d.ts and .js of a build with every example of docs/api merged in. A class the build
 * leaves out (pkg-core has no Redactor) is skipped, and so is a member the Rust sources declare
 * that a cargo feature leaves out (Tokenizer.countChat is in pkg-full only); a section for
 * anything else that is not there fails, naming the file and the section.
 * `declared`: the JS members per class that src/bindings declares (member-order.mjs).
 */
export function mergeExamples(dir, dts, js, declared) {
  const out = { dts: dts.split("\n"), js: js.split("\n") };
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith(".md")).sort()) {
    const cls = file.slice(0, -3);
    const path = `${DOCS}/${file}`;
    const sections = readExamples(path);
    // The class in each file, found again per section: an insertion moves the lines below it.
    const inDts = () => findClass(out.dts, cls);
    const inJs = () => findClass(out.js, cls);
    if (!inDts() && !inJs()) {
      if (declared.has(cls)) continue; // compiled out of this build
      fail(`${path}: no class ${cls} in ${dir}/llm_memory.d.ts nor in src/bindings`);
    }
    for (const section of sections) {
      const where = `${path}, section "## ${section.heading}"`;
      if (section.kind === "class") {
        const c = inJs();
        if (!c) fail(`${where}: wasm-bindgen writes a class's own doc into llm_memory.js, and ${dir}/llm_memory.js has no class ${cls}`);
        insertExample(out.js, c.head, section, where);
        continue;
      }
      const d = inDts();
      const decl = d ? findMember(out.dts, d, section) : -1;
      if (d && decl < 0) {
        const flipped = findMember(out.dts, d, { ...section, isStatic: !section.isStatic }) >= 0;
        if (flipped) fail(`${where}: ${cls}.${section.name} is ${section.isStatic ? "not " : ""}static in ${dir}/llm_memory.d.ts`);
        if (declared.get(cls)?.includes(section.name)) continue; // a cargo feature left it out
        fail(`${where}: class ${cls} in ${dir}/llm_memory.d.ts has no member ${section.name}, and src/bindings declares none`);
      }
      if (d) insertExample(out.dts, decl, section, `${where} (${dir}/llm_memory.d.ts)`);
      // LlmMemoryError is a snippet of its own (src/bindings/errors.js), not in llm_memory.js.
      const j = inJs();
      if (!j) continue;
      const jsDecl = findMember(out.js, j, section);
      if (jsDecl < 0) fail(`${where}: ${dir}/llm_memory.js declares no ${section.name} in class ${cls}, though the .d.ts does`);
      insertExample(out.js, jsDecl, section, `${where} (${dir}/llm_memory.js)`);
    }
  }
  return { dts: out.dts.join("\n"), js: out.js.join("\n") };
}
