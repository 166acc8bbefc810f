// The shape of pkg/llm_memory.d.ts as an editor shows it: `Memory`'s members in reading
// order (constructor, the conversation, long-term memory, persistence), every interface
// declared once (no declaration merging across files), and deprecated names marked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const dts = readFileSync(new URL("../../pkg/llm_memory.d.ts", import.meta.url), "utf8");

/** The member names of `export class name`, in order, with their doc comments. */
function classMembers(name) {
  const body = dts.match(new RegExp(`^export class ${name} \\{\\n([\\s\\S]*?)^\\}`, "m"))?.[1];
  assert.ok(body, `class ${name} is exported`);
  const out = [];
  let doc = "";
  let inDoc = false;
  for (const line of body.split("\n")) {
    const t = line.trim();
    if (inDoc || t.startsWith("/**")) {
      doc += t + "\n";
      inDoc = !t.endsWith("*/");
    } else if (t) {
      out.push({ name: t.match(/^(?:static |readonly |get |set )*(\[[^\]]+\]|[\w$]+)/)[1], doc });
      doc = "";
    }
  }
  return out;
}

// Which part of the API each member belongs to. A new member must be placed here: the test
// fails for one it does not know.
const GROUPS = [
  ["constructor", ["constructor"]],
  ["conversation", ["configure", "add", "addMessage", "context", "entries", "length", "forget", "clear",
    "pin", "unpin", "pinned", "summaries", "addStep", "steps", "stepMessages", "restore", "streamRestorer", "redacts"]],
  ["long-term memory", ["remember", "recall", "updateFact", "facts", "factHistory", "extractFacts", "update", "history",
    "recordEpisode", "recallEpisodes", "episodes", "tools", "callTool", "pendingEmbeddings", "embedPending"]],
  ["persistence", ["open", "import", "sessions", "delete", "export", "flush", "sync", "close", "session", "readOnly", "onchange"]],
  ["lifetime", ["free", "[Symbol.dispose]"]],
];

test("Memory's members read constructor, conversation, long-term memory, persistence", () => {
  const members = classMembers("Memory").map((m) => m.name);
  const groupOf = (name) => GROUPS.findIndex(([, names]) => names.includes(name));
  const unplaced = members.filter((n) => groupOf(n) < 0);
  assert.deepEqual(unplaced, [], "every member belongs to a group (add new ones to GROUPS)");
  assert.equal(members[0], "constructor");
  for (let i = 1; i < members.length; i++) {
    const [prev, cur] = [members[i - 1], members[i]];
    assert.ok(groupOf(prev) <= groupOf(cur),
      `${cur} (${GROUPS[groupOf(cur)][0]}) comes after ${prev} (${GROUPS[groupOf(prev)][0]})`);
  }
  const core = GROUPS[1][1].filter((n) => members.includes(n));
  assert.deepEqual(core.slice(0, 4), ["configure", "add", "addMessage", "context"], "the core starts with what every app calls");
});

test("every class lists its constructor first", () => {
  for (const name of ["Memory", "Redactor"]) assert.equal(classMembers(name)[0].name, "constructor", name);
});

test("every interface and type is declared once", () => {
  const names = [...dts.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  assert.deepEqual(twice, []);
  for (const n of ["MemoryOptions", "ContextOptions", "EntryReport", "ContextReport"]) assert.ok(names.includes(n), n);
});

test("renamed and second ways are marked deprecated, naming what replaces them", () => {
  const doc = (cls, member) => classMembers(cls).find((m) => m.name === member)?.doc ?? "";
  for (const [cls, member, instead] of [
    ["Memory", "update", "updateFact"],
    ["Memory", "history", "factHistory"],
    ["Memory", "onchange", "onChange"],
    ["Redactor", "exportVault", "vault()"],
  ]) {
    assert.match(doc(cls, member), /@deprecated/, `${cls}.${member}`);
    assert.ok(doc(cls, member).includes(instead), `${cls}.${member} names ${instead}`);
  }
  for (const [cls, member] of [["Memory", "updateFact"], ["Memory", "factHistory"], ["Redactor", "vault"]]) {
    assert.doesNotMatch(doc(cls, member), /@deprecated/, `${cls}.${member}`);
  }
  const extra = dts.match(/^export interface AddExtra \{\n([\s\S]*?)^\}/m)[1];
  assert.match(extra, /@deprecated Use `toolCalls`[\s\S]*?tool_calls\?:/);
  assert.match(extra, /@deprecated Use `toolCallId`[\s\S]*?tool_call_id\?:/);
  assert.match(dts, /set onchange\(value: \(\(\) => void\) \| null \| undefined\)/, "the setter is typed precisely");
});
