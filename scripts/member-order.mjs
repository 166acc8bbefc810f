// Orders each exported class's members in pkg/*.d.ts as the Rust bindings declare them.
//
// wasm-bindgen emits a class's members in the order of rustc's metadata statics, which are
// sorted by symbol name: by module, then by a hash. `Memory` came out with its constructor
// after some thirty methods. So the members are put back in the order of the sources: the
// files in `FILES` first, in that order (`Memory`: constructor and conversation, forgetting, privacy,
// long-term memory, persistence), then the other binding files; within a file, as written.
// Members the sources do not declare (`free`, `[Symbol.dispose]`) go last.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const FILES = ["memory.rs", "memory_forget.rs", "memory_privacy.rs", "memory_facts.rs", "memory_episodes.rs", "memory_embedding.rs", "memory_store.rs"];

/** The JS names of exported members in declaration order, per JS class name. */
export function declaredMembers(dir = "src/bindings") {
  const rest = readdirSync(dir).filter((f) => f.endsWith(".rs") && !FILES.includes(f)).sort();
  const members = new Map();
  for (const file of [...FILES, ...rest]) {
    const src = readFileSync(join(dir, file), "utf8");
    // An exported impl block runs from its `#[wasm_bindgen] impl` line to the `}` that closes
    // it at column 0 (rustfmt's layout).
    const block = /^#\[wasm_bindgen(?:\(js_class = "?(\w+)"?\))?\]\nimpl (\w+) \{\n([\s\S]*?)^\}/gm;
    for (const [, jsClass, rustType, body] of src.matchAll(block)) {
      const cls = jsClass ?? rustType;
      if (!members.has(cls)) members.set(cls, []);
      // Each method: its attribute (if any) before `pub fn name` / `pub async fn name`.
      const fn = /(?:^ {4}#\[wasm_bindgen\((.*)\)\]\n(?:^ {4}#\[.*\n)*)?^ {4}pub (?:async )?fn (\w+)/gm;
      for (const [, attr = "", name] of body.matchAll(fn)) {
        if (/skip_typescript/.test(attr)) continue;
        const jsName = attr.match(/js_name = "?(\w+)"?/)?.[1];
        let member = jsName ?? name;
        if (/\bconstructor\b/.test(attr)) member = "constructor";
        else if (!jsName && /\bsetter\b/.test(attr)) member = name.replace(/^set_/, "");
        members.get(cls).push(member);
      }
    }
  }
  return members;
}

/** The name a .d.ts member line declares: `static open(` → `open`, `readonly length:` → `length`. */
export function memberName(line) {
  const m = line.trim().match(/^(?:static |readonly |get |set )*(\[[^\]]+\]|[\w$]+)/);
  return m?.[1];
}

/** Splits a class body into members, each with the doc comment above it. */
function members(body) {
  const out = [];
  let doc = [];
  for (const line of body.split("\n")) {
    if (doc.length && !doc.at(-1).trim().endsWith("*/")) doc.push(line);
    else if (line.trim().startsWith("/**")) doc.push(line);
    else if (line.trim()) {
      out.push({ name: memberName(line), text: [...doc, line].join("\n") });
      doc = [];
    }
  }
  return out;
}

/** The .d.ts text with every class's members in declaration order. */
export function orderMembers(dts, declared = declaredMembers()) {
  return dts.replace(/^(export class (\w+) \{\n)([\s\S]*?)^\}/gm, (all, head, cls, body) => {
    const order = declared.get(cls) ?? [];
    const rank = (m) => {
      const i = order.indexOf(m.name);
      return i < 0 ? order.length : i;
    };
    const sorted = members(body)
      .map((m, i) => ({ ...m, i }))
      .sort((a, b) => rank(a) - rank(b) || a.i - b.i);
    return `${head}${sorted.map((m) => m.text).join("\n")}\n}`;
  });
}
