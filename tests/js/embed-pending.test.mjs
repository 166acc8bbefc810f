// Embedding off the hot path, against the built pkg/ with the real model (models/embed.bin;
// skipped with a message when it is absent and CI is unset): after importing a long chat,
// context() answers without embedding the history, embedPending() embeds the rest in batches,
// and the vectors are stored with the session, so reopening it embeds nothing again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { lib, throwsCode } from "./helpers.mjs";

const { EmbedModel, Memory } = lib;
const path = fileURLToPath(new URL("../../models/embed.bin", import.meta.url));
const present = existsSync(path);
if (!present && process.env.CI) throw new Error(`no ${path}: run make embed-model`);
const skip = present ? false : `no ${path}: run make embed-model`;

const TOPICS = ["sourdough starters", "bike gears", "tomato seedlings", "train timetables", "chess openings", "tax forms"];

/** An exported chat of `pairs` exchanges, a planted fact among them, ending on a question. */
function longChat(pairs) {
  const src = new Memory();
  let t = Date.UTC(2025, 0, 1);
  for (let i = 0; i < pairs; i++) {
    const user = i === 7 ? "I moved to Porto last spring." : `Question ${i}: what should I know about ${TOPICS[i % TOPICS.length]}?`;
    src.add("user", user, { timestamp: (t += 60_000) });
    src.add("assistant", `Here are a few points on ${TOPICS[i % TOPICS.length]}, number ${i}.`, { timestamp: (t += 60_000) });
  }
  src.add("user", "Where am I based these days?", { timestamp: (t += 60_000) });
  return src.export();
}

test("context() after an import embeds a few items, embedPending the rest, a reopen none", { skip }, async () => {
  const model = await EmbedModel.fromBytes(readFileSync(path));
  const pairs = 150;
  const doc = longChat(pairs);
  const entries = 2 * pairs + 1;
  const mem = await Memory.import(doc, { session: "long", storage: "memory", strategy: "retrieval", maxTokens: 400, embedder: model });
  assert.equal(mem.pendingEmbeddings, entries, "nothing is embedded on import");

  const { report } = await mem.context();
  assert.ok(report.totalTokens <= 400);
  const afterContext = mem.pendingEmbeddings;
  assert.ok(afterContext >= entries - 10 && afterContext < entries,
    `context() embedded ${entries - afterContext} of ${entries} waiting items: a few, not the history`);
  // Meanwhile the words rank what has no vector yet: the report has memories, and those
  // without a vector have no cosine.
  assert.ok(report.retrieved?.length > 0);
  // (or the hit it was sent beside, for a neighbouring turn).
  assert.ok(report.retrieved.every((r) => r.score > 0 && (r.bm25 !== undefined || r.cosine !== undefined || r.neighborOf !== undefined)));

  // Idle-time work: batches of 64 until none wait; each call embeds at most its limit.
  let left = afterContext;
  let calls = 0;
  while (left > 0) {
    const next = await mem.embedPending({ limit: 64 });
    assert.ok(next < left && left - next <= 64, `${left} → ${next}`);
    left = next;
    calls++;
  }
  assert.equal(calls, Math.ceil(afterContext / 64));
  assert.equal(mem.pendingEmbeddings, 0);
  assert.equal(await mem.embedPending(), 0);
  // Every item has its vector now: the reworded question finds the planted fact by meaning.
  const full = await mem.context();
  const portoId = mem.entries().find((e) => e.content.includes("Porto")).id;
  const porto = full.report.retrieved.find((r) => r.id === portoId);
  assert.ok(porto, JSON.stringify(full.report.retrieved));
  assert.ok(full.messages.some((m) => m.content.includes("I moved to Porto")));
  assert.ok(porto.cosine > 0.3 && porto.bm25 === undefined, JSON.stringify(porto));
  await mem.flush();
  mem.close();

  // Reopened with an embed callback around the same model, counting the texts it is given:
  // the stored vectors come back, and the next context embeds only its query.
  const asked = [];
  const embed = async (texts) => {
    asked.push(...texts);
    return model.embed(texts);
  };
  const back = await Memory.open({ session: "long", storage: "memory", strategy: "retrieval", maxTokens: 400, embed });
  assert.equal(back.pendingEmbeddings, 0, "the vectors were stored with the session");
  await back.context();
  assert.deepEqual(asked, ["Where am I based these days?"]);
  back.close();
});

test("embedPending without an embedder resolves 0; bad options are INVALID_OPTION", async () => {
  const mem = new Memory({ strategy: "retrieval", maxTokens: 200 });
  mem.add("user", "hello");
  assert.equal(mem.pendingEmbeddings, 0);
  assert.equal(await mem.embedPending(), 0);
  for (const bad of [{ limit: 0 }, { limit: -1 }, { limit: "3" }, { limits: 3 }, 7]) {
    throwsCode(assert, () => mem.embedPending(bad), "INVALID_OPTION");
  }
});

test("embedPending rejects CALLBACK_FAILED when embed fails, and the items keep waiting", async () => {
  const mem = new Memory({ strategy: "retrieval", maxTokens: 200, embed: async () => { throw new Error("rate limited"); } });
  mem.add("user", "hello");
  mem.add("assistant", "hi there");
  assert.equal(mem.pendingEmbeddings, 2);
  await assert.rejects(mem.embedPending(), (e) => e.code === "CALLBACK_FAILED" && /rate limited/.test(e.message));
  assert.equal(mem.pendingEmbeddings, 2);
});

test("a callback's own error is the cause of the CALLBACK_FAILED it ends in", async () => {
  const boom = new Error("embedding service down");
  const mem = new Memory({ embed: async () => { throw boom; } });
  mem.add("user", "I moved to Porto last spring.");
  await assert.rejects(mem.embedPending(), (e) => {
    assert.equal(e.code, "CALLBACK_FAILED");
    assert.match(e.message, /embedding service down/);
    assert.equal(e.cause, boom, "the app's error, as it threw it");
    return true;
  });
  const episodes = new Memory({ summarize: () => { throw boom; } });
  episodes.add("user", "Book a table for two.");
  episodes.add("assistant", "Booked for 8 pm.");
  await assert.rejects(episodes.recordEpisode(), (e) => e.code === "CALLBACK_FAILED" && e.cause === boom);
});
