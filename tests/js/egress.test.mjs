// The egress rule from JS: with `redact` on, a context built from turns full of PII carries
// none of the values (messages, tool arguments, summary prompt), the report counts what was
// redacted, and replies come back with the real values, streamed or not.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory, loadTokenizer, throwsCode } from "./helpers.mjs";

const llama = loadTokenizer("llama3");
const values = {
  email: "dana.whitfield@example.net",
  phone: "+44 20 7946 0958",
  card: "5555 5555 5555 4444",
  iban: "DE89 3704 0044 0532 0130 00",
  ip: "192.168.17.42",
  aws: "AKIAIOSFODNN7EXAMPLE",
};

function chat(mem) {
  mem.add("user", `Hi, reach me at ${values.email} or ${values.phone}.`);
  mem.add("assistant", "Got it.");
  mem.add("user", `Pay with ${values.card}, refunds to ${values.iban}.`);
  mem.add("assistant", "Noted.");
  mem.add("user", `Server ${values.ip} uses key ${values.aws}.`);
  mem.add("assistant", null, { toolCalls: [{ id: "t1", function: { name: "notify", arguments: { to: values.email } } }] });
  mem.add("tool", `queued for ${values.email}`, { toolCallId: "t1" });
  mem.add("user", `Confirm by mail to ${values.email}, please.`);
}

const leaks = (text) => Object.values(values).filter((v) => text.includes(v));

test("no PII value reaches the messages, the summarizer or the report", async () => {
  const prompts = [];
  const mem = new Memory({
    redact: true, strategy: "summary", maxTokens: 1000, tokenizer: llama,
    systemPrompt: `Support line: ${values.phone}`,
    summaryTrigger: { messages: 3 }, keepRecent: 2,
    summarize: async (prompt) => { prompts.push(prompt); return "The user gave [EMAIL_1] and a card."; },
  });
  assert.equal(mem.redacts, true);
  mem.pin(`Card on file: ${values.card}`);
  chat(mem);
  const { messages, report } = await mem.context();
  const sent = JSON.stringify(messages);
  assert.deepEqual(leaks(sent), []);
  assert.equal(prompts.length, 1);
  assert.deepEqual(leaks(prompts[0]), []);
  assert.match(prompts[0], /\[CREDIT_CARD_1\]/);
  assert.deepEqual(leaks(JSON.stringify(report)), []);
  assert.ok(report.redactions.EMAIL >= 2 && report.redactions.PHONE >= 1, JSON.stringify(report.redactions));
  const last = report.entries.at(-1);
  assert.deepEqual(last.redacted, { EMAIL: 1 });
  assert.ok(sent.includes("[EMAIL_1]"));
  // The history keeps the real text; the budget was measured on what is sent.
  assert.equal(mem.entries().at(-1).content, `Confirm by mail to ${values.email}, please.`);
  assert.ok(report.totalTokens <= 1000);
});

test("the app's callbacks that call out (episode summarize, extract, embed) get redacted text", async () => {
  const seen = { episode: [], extract: [], embed: [] };
  const mem = new Memory({
    redact: true, strategy: "retrieval", maxTokens: 2000, tokenizer: llama,
    summarize: async (prompt) => {
      seen.episode.push(prompt);
      return JSON.stringify({ summary: "Support chat about payment", actions: [], outcome: "done", importance: 0.5 });
    },
    extract: async (turns) => { seen.extract.push(JSON.stringify(turns)); return []; },
    embed: async (texts) => { seen.embed.push(...texts); return texts.map((t) => [t.length % 5, 1, 0.5]); },
  });
  chat(mem);
  mem.add("assistant", "Done.");
  await mem.context({ query: `mail ${values.email}` });
  await mem.recordEpisode();
  for (const [name, texts] of Object.entries(seen)) {
    assert.ok(texts.length > 0, `${name} was called`);
    assert.deepEqual(leaks(texts.join("\n")), [], `${name} got no PII value`);
  }
  assert.match(seen.episode[0], /\[EMAIL_1\]/, "the episode prompt keeps the placeholders");
});

test("a callback that never answers does not freeze context() or recordEpisode()", async () => {
  const never = () => new Promise(() => {});
  const mem = new Memory({
    strategy: "retrieval", maxTokens: 2000, callbackTimeoutMs: 50,
    extract: never, embed: never, summarize: never,
  });
  mem.add("user", "I live in Porto.");
  mem.add("assistant", "Nice.");
  mem.add("user", "Where do I live?");
  const { messages, report } = await mem.context();
  assert.equal(messages.at(-1).content, "Where do I live?");
  assert.ok(report.notes.some((n) => /extract .*did not answer within 50 ms/.test(n)), report.notes.join(" | "));
  assert.ok(report.notes.some((n) => /embed .*did not answer within 50 ms/.test(n)), report.notes.join(" | "));
  await assert.rejects(mem.recordEpisode(), (e) => e.code === "CALLBACK_FAILED" && /summarize did not answer/.test(e.message));
  throwsCode(assert, () => new Memory({ callbackTimeoutMs: 0 }), "INVALID_OPTION");
});

test("replies are restored, also when a placeholder is split across streamed chunks", async () => {
  const mem = new Memory({ redact: true, tokenizer: llama });
  chat(mem);
  await mem.context();
  const reply = "I emailed [EMAIL_1] and refunded [IBAN_1].";
  const want = `I emailed ${values.email} and refunded ${values.iban}.`;
  assert.equal(mem.restore(reply), want);
  assert.equal(mem.restore("I emailed [email_1] and refunded IBAN_1."), want);
  const r = mem.streamRestorer();
  let shown = "";
  for (const chunk of ["I emailed [EM", "AIL_", "1] and ref", "unded [IBAN", "_1]."]) shown += r.push(chunk);
  shown += r.finish();
  assert.equal(shown, want);
});

test("redaction can be switched on and off on a live memory", async () => {
  const mem = new Memory({ tokenizer: llama });
  chat(mem);
  assert.ok(leaks(JSON.stringify((await mem.context()).messages)).length > 0);
  mem.configure({ redact: { types: ["EMAIL"] } });
  const onlyEmail = JSON.stringify((await mem.context()).messages);
  assert.ok(!onlyEmail.includes(values.email));
  assert.ok(onlyEmail.includes(values.card), "only the chosen types are redacted");
  mem.configure({ redact: false });
  assert.equal(mem.redacts, false);
  throwsCode(assert, () => mem.streamRestorer(), "INVALID_OPTION");
  throwsCode(assert, () => new Memory({ redact: "yes" }), "INVALID_OPTION");
  throwsCode(assert, () => new Memory({ redact: { types: ["NOT_A_TYPE"] } }), "INVALID_OPTION");
});

test("the vault is stored with the session, so old placeholders restore after reopening", async () => {
  const mem = await Memory.open({ session: "vault-1", storage: "memory", redact: true, tokenizer: llama });
  chat(mem);
  await mem.context();
  await mem.flush();
  const doc = mem.export();
  assert.ok(doc.records.some((r) => r.kind === "vault"));
  const again = await Memory.open({ session: "vault-1", storage: "memory", redact: true, tokenizer: llama });
  assert.equal(again.restore("[CREDIT_CARD_1]"), values.card);
  const { messages } = await again.context();
  assert.deepEqual(leaks(JSON.stringify(messages)), []);
  assert.ok(!JSON.stringify(messages).includes("vault"));
});
