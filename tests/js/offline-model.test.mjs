// The demo's offline model reads facts from what it is sent; these are the statements the
// demo banner invites ("tell it your name, then ask").
import { test } from "node:test";
import assert from "node:assert/strict";
import { extractFacts } from "../../www/offline-model.mjs";

const names = (text) => extractFacts(text).filter((f) => f.key === "name").map((f) => f.value);

test("'call me' gives a name only when a name follows", () => {
  assert.deepEqual(names("Hi, call me Riley."), ["Riley"]);
  assert.deepEqual(names("Please call me [PERSON_1]."), ["[PERSON_1]"]);
  for (const text of ["Call me at 415 555 0199 tomorrow.", "call me back later", "call me +1 415 555 0199", "Call me tomorrow at noon."]) {
    assert.deepEqual(names(text), [], text);
  }
});

test("a move updates where the user lives", () => {
  const home = (text) => extractFacts(text).filter((f) => f.key === "home").map((f) => f.value);
  assert.deepEqual(home("I live in Lisbon. Last month I moved to Porto."), ["Lisbon", "Porto"]);
  assert.deepEqual(home("I've just moved to Berlin"), ["Berlin"]);
});
