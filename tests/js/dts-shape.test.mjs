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
  ["long-term memory", ["remember", "recall", "updateFact", "facts", "factHistory", "extractFacts",
    "recordEpisode", "recallEpisodes", "episodes", "tools", "callTool", "pendingEmbeddings", "embedPending"]],
  ["persistence", ["open", "import", "sessions", "delete", "export", "flush", "sync", "close", "session", "readOnly"]],
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

test("the package has no deprecated aliases: one name for each thing", () => {
  assert.doesNotMatch(dts, /@deprecated/);
  for (const [cls, member] of [["Memory", "update"], ["Memory", "history"], ["Memory", "onchange"], ["Redactor", "exportVault"]]) {
    assert.ok(!classMembers(cls).some((m) => m.name === member), `${cls}.${member} is gone`);
  }
  const extra = dts.match(/^export interface AddExtra \{\n([\s\S]*?)^\}/m)[1];
  assert.doesNotMatch(extra, /tool_calls|tool_call_id/, "add() takes camelCase only; addMessage takes OpenAI's names");
});
