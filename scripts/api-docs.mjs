// Puts docs/api/<Class>.md, the JS reference of each exported class, into the JSDoc of the
// .d.ts and .js that wasm-bindgen wrote (finish-pkg.mjs calls it for pkg/, pkg-full/ and
// pkg-core/).
//
// The Rust bindings carry no `///` on what they export: the prose and examples were a third of
// the bindings' lines and wasm-bindgen ignores `#[doc = include_str!(...)]`, so the reference
// lives in Markdown, one section per member, and is merged here where wasm-bindgen would have
// put it: prose first, then the example, then (in the .js) the `@param`/`@returns` it adds.
//
// A file's sections, in the order of the .d.ts:
//   ## (class)        the class's own doc (wasm-bindgen writes it into llm_memory.js only)
//   ## constructor
//   ## static name    a static method or property
//   ## name           a method or property
// each holding the member's prose, then at most one fenced example.
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

/** The sections of one docs/api file, each `{ heading, kind, name, isStatic, prose, lang, code }`. */
export function readDocs(path) {
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
      section = { heading, ...parseHeading(heading, `${where}: "## ${heading}"`), prose: [], code: null };
      sections.push(section);
    } else if (section) {
      // Lines before the first section are the file's header.
      const open = line.match(/^```(\w+)$/);
      if (open && !section.code) [section.lang, fence] = [open[1], []];
      else if (section.code && line.trim()) fail(`${where}: section "## ${section.heading}" ends with its example`);
      else if (!section.code) section.prose.push(line);
    }
  }
  if (fence) fail(`${path}: section "## ${section.heading}" never closes its fenced block`);
  for (const s of sections) {
    while (s.prose.length && !s.prose[0].trim()) s.prose.shift();
    while (s.prose.length && !s.prose.at(-1).trim()) s.prose.pop();
    if (!s.prose.length && !s.code) fail(`${path}: section "## ${s.heading}" is empty`);
  }
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

/** The section's prose and example as JSDoc lines at `indent`, without the comment's ends. */
function render({ prose, lang, code }, indent) {
  const star = (text) => (text ? `${indent} * ${text}` : `${indent} *`);
  const example = code ? ["@example", "```" + lang, ...code, "```"] : [];
  const gap = prose.length && code ? [""] : [];
  return [...prose, ...gap, ...example].map(star);
}

/** The doc comment ending on the line before `decl`: `{ open, close }`, or null. */
function commentAbove(lines, decl) {
  const close = decl - 1;
  if (!/^\s*\*\/$/.test(lines[close] ?? "")) return null;
  let open = close;
  while (!lines[open].trim().startsWith("/**")) open--;
  return { open, close };
}

/**
 * Writes the section's doc above `decl`. The comment there may hold the `@param` and
 * `@returns` tags wasm-bindgen adds to the .js, and for a class declared in TypeScript
 * (`LlmMemoryError`) its prose, which then takes an example only: the reference has one home.
 */
function insertDoc(lines, decl, section, where) {
  const indent = lines[decl].match(/^ */)[0];
  const doc = render(section, indent);
  const found = commentAbove(lines, decl);
  if (!found) {
    lines.splice(decl, 0, `${indent}/**`, ...doc, `${indent} */`);
    return;
  }
  const inner = lines.slice(found.open + 1, found.close);
  // finish-pkg may run twice on one directory.
  if (inner.join("\n").includes(doc.join("\n"))) return;
  if (inner.some((l) => /@example/.test(l))) fail(`${where}: the member already has an @example; keep it in ${DOCS} only`);
  const tags = inner.findIndex((l) => /^\s*\* @(param|returns)\b/.test(l));
  const proseEnd = found.open + 1 + (tags < 0 ? inner.length : tags);
  if (proseEnd === found.open + 1) {
    lines.splice(proseEnd, 0, ...doc);
    return;
  }
  if (section.prose.length)
    fail(`${where}: the member is documented outside ${DOCS} (a Rust \`///\` comment?); its reference lives in ${DOCS} only`);
  lines.splice(proseEnd, 0, `${indent} *`, ...doc);
}

/** Fails on a doc comment wasm-bindgen copied from Rust onto a member of `cls` in the .d.ts. */
function refuseRustDocs(lines, cls, path) {
  const c = findClass(lines, cls);
  if (!c) return;
  for (let i = c.head + 1; i < c.end; i++) {
    if (!lines[i].startsWith(c.indent) || lines[i][c.indent.length] === " ") continue;
    if (!/^\s*\*\/$/.test(lines[i - 1])) continue;
    const name = lines[i].trim();
    if (/^(free\(\)|\[Symbol\.dispose\]\(\))/.test(name)) continue;
    fail(`${path}: ${cls} member \`${name}\` has a doc comment from its Rust \`///\`; move it to ${DOCS}/${cls}.md`);
  }
}

/**
 * The .d.ts and .js of a build with the reference of docs/api merged in. A class the build
 * leaves out (pkg-core has no Redactor) is skipped, and so is a member the Rust sources declare
 * that a cargo feature leaves out (Tokenizer.countChat is in pkg-full only); a section for
 * anything else that is not there fails, naming the file and the section.
 * `declared`: the JS members per class that src/bindings declares (member-order.mjs).
 */
export function mergeDocs(dir, dts, js, declared) {
  const out = { dts: dts.split("\n"), js: js.split("\n") };
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith(".md")).sort()) {
    const cls = file.slice(0, -3);
    const path = `${DOCS}/${file}`;
    const sections = readDocs(path);
    if (declared.has(cls)) refuseRustDocs(out.dts, cls, path);
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
        insertDoc(out.js, c.head, section, where);
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
      if (d) insertDoc(out.dts, decl, section, `${where} (${dir}/llm_memory.d.ts)`);
      // LlmMemoryError is a snippet of its own (src/bindings/errors.js), not in llm_memory.js.
      const j = inJs();
      if (!j) continue;
      const jsDecl = findMember(out.js, j, section);
      if (jsDecl < 0) fail(`${where}: ${dir}/llm_memory.js declares no ${section.name} in class ${cls}, though the .d.ts does`);
      insertDoc(out.js, jsDecl, section, `${where} (${dir}/llm_memory.js)`);
    }
  }
  return { dts: out.dts.join("\n"), js: out.js.join("\n") };
}
