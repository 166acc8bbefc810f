// Forget means forgotten, from Node with storage "memory": after forget and clear, canary values
// are in no export and no stored record (the redaction vault included), except where the
// receipt says a kept record still holds them; the receipt resolves once storage has it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory, throwsCode } from "./helpers.mjs";

const NAME = "Marisol Quintanilla-Obregon";
const EMAIL = "marisol.qo@example-mail.net";
const PHONE = "+1 415 555 0199";
const KEPT = "Bartholomew Ferreira";

const open = (session) =>
  Memory.open({ session, storage: "memory", redact: true, strategy: "tokens", maxTokens: 2000 });

/** Every byte storage holds for the session: a reopened copy's export. */
async function storedText(session) {
  const again = await Memory.open({ session, storage: "memory", redact: true });
  return JSON.stringify(again.export());
}

test("forget(turn) removes the real values from the vault and every export", async () => {
  const mem = await open("forget-1");
  mem.add("user", `My name is ${KEPT} and I review the budget.`);
  const id = mem.add("user", `Hi, I'm ${NAME}, write to ${EMAIL} or call ${PHONE} please. ${KEPT} knows me.`);
  mem.add("assistant", "Noted.");
  const { messages } = await mem.context();
  assert.ok(!JSON.stringify(messages).includes(EMAIL), "sent redacted");
  await mem.flush();
  assert.ok((await storedText("forget-1")).includes(EMAIL), "stored before the forget");

  const receipt = await mem.forget(id);
  assert.deepEqual(receipt.removed.turns, [id]);
  assert.equal(receipt.stored, true);
  assert.ok(receipt.removed.vaultValues.length >= 3, JSON.stringify(receipt));
  for (const text of [JSON.stringify(mem.export()), await storedText("forget-1")]) {
    for (const canary of [NAME, EMAIL, PHONE]) assert.ok(!text.includes(canary), `${canary} left in ${text}`);
    assert.ok(text.includes(KEPT), "the kept turn and its vault value stay");
  }
  // The forgotten turn named the kept person too: that value stays, and the receipt says so.
  assert.equal(receipt.kept.vaultValues.length, 1, JSON.stringify(receipt));
  assert.equal(mem.restore(receipt.kept.vaultValues[0]), KEPT);
  for (const p of receipt.kept.vaultValues) assert.ok(!receipt.removed.vaultValues.includes(p));
  await Memory.delete("forget-1", "memory");
});

test("clear() erases the conversation; a pinned fact's value is listed as kept", async () => {
  const mem = await open("forget-2");
  mem.add("user", `Hi, I'm ${NAME}, mail ${EMAIL}.`);
  mem.add("assistant", "Hello!");
  mem.pin(`Escalations go to Dr. ${KEPT}.`);
  await mem.context();
  const receipt = await mem.clear();
  assert.equal(receipt.removed.turns.length, 2);
  assert.equal(receipt.stored, true);
  const text = await storedText("forget-2");
  for (const canary of [NAME, EMAIL]) assert.ok(!text.includes(canary), `${canary} left`);
  assert.ok(text.includes(KEPT), "the pinned fact stays");
  assert.ok(receipt.kept.vaultValues.length >= 1, JSON.stringify(receipt));
  await Memory.delete("forget-2", "memory");
});

test("facts extracted from a turn go with it; keepDerived keeps them", async () => {
  for (const keepDerived of [false, true]) {
    const session = `forget-3-${keepDerived}`;
    const mem = await Memory.open({
      session, storage: "memory", strategy: "retrieval", maxTokens: 2000,
      extract: async () => [{ op: "add", text: `The user's e-mail is ${EMAIL}` }],
    });
    const id = mem.add("user", `my e-mail is ${EMAIL}`);
    mem.add("assistant", "Saved.");
    mem.add("user", "thanks");
    await mem.context();
    const fact = mem.facts().find((f) => f.text.includes(EMAIL));
    assert.ok(fact, "the hook stored a fact");
    assert.deepEqual(fact.from, [id, mem.entries()[1].id]);
    const receipt = await mem.forget(id, { keepDerived });
    const text = JSON.stringify(mem.export());
    if (keepDerived) {
      assert.deepEqual(receipt.removed.facts, []);
      assert.ok(text.includes(EMAIL), "kept on purpose");
    } else {
      assert.deepEqual(receipt.removed.facts, [fact.id]);
      assert.ok(!text.includes(EMAIL), text);
    }
    await Memory.delete(session, "memory");
  }
});

test("bad ids and options are coded errors, thrown at once", async () => {
  const mem = await open("forget-4");
  throwsCode(assert, () => mem.forget("no-such-id"), "NOT_FOUND");
  throwsCode(assert, () => mem.forget(42), "INVALID_OPTION");
  const id = mem.add("user", "hello");
  throwsCode(assert, () => mem.forget(id, { keepDerive: true }), "INVALID_OPTION");
  throwsCode(assert, () => mem.clear({ keepDerived: "yes" }), "INVALID_OPTION");
  assert.equal(mem.length, 1, "nothing was forgotten by a refused call");
  await Memory.delete("forget-4", "memory");
});
