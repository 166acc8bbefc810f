// Redaction keeps the meaning, through a Memory as a Node user runs it: over generated chats
// (faker's names, seeded), every PERSON finding is a whole-word slice that never takes a
// contraction's letter or a possessive, the text sent is the text written with the names
// swapped, and the model is told of no more people than the chat has, none merged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { faker } from "@faker-js/faker";
import { lib } from "./helpers.mjs";

const WORD = /[\p{L}\p{N}]/u;
const CLITICS = ["m", "s", "re", "ll", "d", "ve", "t"];

/** Why text.slice(start, end) is not a whole-word name, or null. */
function brokenEdge(text, start, end) {
  const value = text.slice(start, end);
  const before = text[start - 1] ?? "";
  const after = text[end] ?? "";
  if (WORD.test(before)) return "starts inside a word";
  if (WORD.test(after)) return "ends inside a word";
  const first = value.match(/^[\p{L}\p{N}]+/u)?.[0]?.toLowerCase() ?? "";
  if (/['’]/.test(before) && WORD.test(text[start - 2] ?? "") && CLITICS.includes(first)) return "starts with a contraction's letter";
  if (/['’]$/.test(value)) return "ends on an apostrophe";
  if (CLITICS.some((c) => new RegExp(`['’]${c}$`, "i").test(value))) return "ends with a contraction or a possessive";
  return null;
}

/** Sentences that put a name next to contractions and possessives. */
const AROUND = [
  (n) => `Hi, I'm ${n}.`,
  (n) => `Hi, I’m ${n}, nice to meet you.`,
  (n) => `I'm ${n}'s daughter.`,
  (n) => `Dear ${n}, we're sorry you'll wait; we'd hoped you've got it.`,
  (n) => `${n} isn't here and ${n.split(" ")[0]} won't call.`,
  (n) => `It was ${n}’s idea, wasn't it?`,
  (n) => `my name is ${n.toLowerCase()} and i'm stuck`,
];

test("every PERSON finding is a whole-word slice and the text reads as written with names swapped", () => {
  faker.seed(46);
  const r = new lib.Redactor();
  let people = 0;
  for (let i = 0; i < 300; i++) {
    const name = `${faker.person.firstName()} ${faker.person.lastName()}`;
    const text = AROUND[i % AROUND.length](name);
    const { text: out, findings } = r.redact(text);
    let rebuilt = "";
    let at = 0;
    for (const f of findings) {
      rebuilt += text.slice(at, f.start) + f.placeholder;
      at = f.end;
      if (f.type !== "PERSON") continue;
      people++;
      assert.equal(brokenEdge(text, f.start, f.end), null, `${JSON.stringify(text.slice(f.start, f.end))} in ${JSON.stringify(text)}`);
    }
    assert.equal(rebuilt + text.slice(at), out);
  }
  assert.ok(people > 200, `only ${people} names found in 300 sentences`);
});

test("a generated chat tells the model of no more people than it has, and never merges two", async () => {
  faker.seed(47);
  for (let chat = 0; chat < 40; chat++) {
    const firsts = new Set();
    const lasts = new Set();
    const cast = [];
    while (cast.length < 1 + (chat % 3)) {
      const [g, s] = [faker.person.firstName(), faker.person.lastName()];
      if (firsts.has(g) || lasts.has(s) || /\W/.test(g + s)) continue;
      firsts.add(g);
      lasts.add(s);
      cast.push([g, s]);
    }
    const forms = [
      ([g, s]) => `${g} ${s}`, ([g]) => g, ([, s]) => s, ([g]) => `${g}'s`,
      ([g, s]) => `${g} ${s}`.toUpperCase(), ([g, s]) => `${g} ${s}`.toLowerCase(),
    ];
    const later = ["Tell {} that the slides are ready.", "What should I tell {}?", "Dear {}, one more thing."];
    const mem = new lib.Memory({ redact: true });
    for (const [g, s] of cast) {
      mem.add("user", `Dear ${g} ${s}, thanks for the note.`);
      mem.add("assistant", "Noted.");
    }
    for (let i = 0; i < 5; i++) {
      const person = faker.helpers.arrayElement(cast);
      mem.add("user", faker.helpers.arrayElement(later).replace("{}", faker.helpers.arrayElement(forms)(person)));
      mem.add("assistant", "Noted.");
    }
    const { messages } = await mem.context();
    const sent = messages.map((m) => m.content).join("\n");
    const told = [...new Set(sent.match(/\[PERSON_\d+\]/g) ?? [])];
    assert.ok(told.length <= cast.length, `${cast.length} people, told of ${told.join(", ")}:\n${sent}`);
    const whose = told.map((p) => {
      const words = mem.restore(p).toLowerCase().split(/\s+/).map((w) => w.replace(/'s$/, ""));
      return cast.findIndex(([g, s]) => words.every((w) => w === g.toLowerCase() || w === s.toLowerCase()));
    });
    assert.ok(whose.every((i) => i >= 0), `a placeholder restores to no one person: ${told.map((p) => mem.restore(p))}`);
    assert.equal(new Set(whose).size, whose.length, `one person, two placeholders:\n${sent}`);
  }
});
